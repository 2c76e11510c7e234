"""No ball drawn, no partie started or démarquée while a mini-game is on the projector (docs/rooms.md): the one
object that says so.

While the speaker shows a game (``POST /api/screen {"show": "game"}``), the hall as the devices and the web see
it refuses every command that would draw a ball with ``games_on_screen``: a ball read by the machine or typed
on the keypad (the drivers publish the refusal to the speaker, as for any refused ball) and the console's draw
(the API's 423); so are the start of a partie and « démarquez », which the hall would not see on the projector.
Everything else reaches the hall unchanged; the loto core never hears of the games.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from hall.minigames.lobby import Lobby
from hall.ports import HallPort
from hall.refusal import Rejected

DRAWS = frozenset({"draw", "propose", "confirm_proposed", "ball_read"})
PARTIE = frozenset({"start_partie", "clear"})       # what the hall must see happen on the projector
DRAWING_KEYS = frozenset({"draw", "confirm"})     # key_typed() kinds that would draw a ball


class GameOnScreen:
    """The games' break: a game on the projector, so no draw (read from the lobby, never under its lock, so a
    ball is never kept waiting by a bot's thinking)."""

    def __init__(self, lobby: Lobby):
        self._lobby = lobby

    def active(self) -> bool:
        """Whether a game is on the projector now."""
        return self._lobby.game_on_screen()

    def check(self) -> None:
        """Raise ``Rejected("rooms/games_on_screen")`` while a game is on the projector."""
        if self.active():
            raise Rejected("rooms/games_on_screen")

    def guard(self, hall: HallPort) -> HallPort:
        """``hall`` as the devices and the web reach it: its draws refused during the break."""
        return cast(HallPort, _Guarded(hall, self))


class _Guarded:
    """The hall, each drawing command (and a partie's start and end) asking the break first."""

    def __init__(self, hall: HallPort, on_screen: GameOnScreen):
        self._hall = hall
        self._on_screen = on_screen

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._hall, name)
        if name in DRAWS or name in PARTIE:
            return self._checked(value, lambda *args, **kwargs: True)
        if name == "key_typed":
            return self._checked(value, lambda kind, *args, **kwargs: kind in DRAWING_KEYS)
        return value

    def _checked(self, command: Callable[..., Any], draws: Callable[..., bool]) -> Callable[..., Any]:
        def checked(*args: Any, **kwargs: Any) -> Any:
            if draws(*args, **kwargs):
                self._on_screen.check()
            return command(*args, **kwargs)
        return checked
