"""The mini-games' face: what the web and the program use of the rooms, the games and the tournament.

Like the loto's face (``hall/__init__.py``) it names classes, functions and constants, never a whole module, and
loads each on first use (``hall/lazy``): ``import hall.minigames.lobo77.rules`` runs the rules of Lobo 77 and
the model under them, not the lobby, the stores or ``sqlite3``. The one list is the ``TYPE_CHECKING`` block;
``__all__`` says the same names (tests/test_architecture.py holds the two together).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hall.minigames.lobby import NO_MOVE as NO_MOVE
    from hall.minigames.lobby import Lobby as Lobby
    from hall.minigames.lobby import LobbySettings as LobbySettings
    from hall.minigames.lobby import Think as Think
    from hall.minigames.lobby import inline as inline
    from hall.minigames.lobby_news import Followed as Followed
    from hall.minigames.lobby_news import ListChanged as ListChanged
    from hall.minigames.lobby_news import News as News
    from hall.minigames.lobby_news import Referee as Referee
    from hall.minigames.lobby_news import RoomChanged as RoomChanged
    from hall.minigames.lobby_news import RoomSnapshot as RoomSnapshot
    from hall.minigames.lobby_news import ScreenChanged as ScreenChanged
    from hall.minigames.lobby_news import Told as Told
    from hall.minigames.lobby_news import Unfollowed as Unfollowed
    from hall.minigames.match import Match as Match
    from hall.minigames.match import play_out as play_out
    from hall.minigames.osga.codes import check_code as check_code
    from hall.minigames.osga.codes import code_generation as code_generation
    from hall.minigames.osga.codes import table_code as table_code
    from hall.minigames.osga.day import simulate_day as simulate_day
    from hall.minigames.osga.store import TournamentStore as TournamentStore
    from hall.minigames.osga.tournament import HAND_MAX as HAND_MAX
    from hall.minigames.osga.tournament import HAND_MIN as HAND_MIN
    from hall.minigames.osga.tournament import HANDS_PER_GAME as HANDS_PER_GAME
    from hall.minigames.osga.tournament import Day as Day
    from hall.minigames.osga.views import summary as summary
    from hall.minigames.points_rouges.pieces import JOKER as JOKER
    from hall.minigames.points_rouges.pieces import points_of as points_of
    from hall.minigames.points_rouges.solver import bounded_cover as bounded_cover
    from hall.minigames.registry import GAME_NAMES as GAME_NAMES
    from hall.minigames.registry import get_game as get_game
    from hall.minigames.room_store import RoomStore as RoomStore
    from hall.minigames.room_store import open_lobby as open_lobby
    from hall.minigames.simulate import simulate as play_bot_games
    from hall.minigames.table import ROOM_GAMES as ROOM_GAMES

__all__ = [
    "GAME_NAMES",
    "HANDS_PER_GAME",
    "HAND_MAX",
    "HAND_MIN",
    "JOKER",
    "NO_MOVE",
    "ROOM_GAMES",
    "Day",
    "Followed",
    "ListChanged",
    "Lobby",
    "LobbySettings",
    "Match",
    "News",
    "Referee",
    "RoomChanged",
    "RoomSnapshot",
    "RoomStore",
    "ScreenChanged",
    "Think",
    "Told",
    "TournamentStore",
    "Unfollowed",
    "bounded_cover",
    "check_code",
    "code_generation",
    "get_game",
    "inline",
    "open_lobby",
    "play_out",
    "points_of",
    "play_bot_games",
    "simulate_day",
    "summary",
    "table_code",
]

if not TYPE_CHECKING:  # hidden from the checker, so that a name the block above does not hold stays an error
    from hall.lazy import loader as _loader

    __getattr__, __dir__ = _loader(__name__, __file__, globals())
