"""No ball drawn, no partie started or démarquée while a mini-game is on the projector (docs/rooms.md): the one
hold that says so.

While the speaker shows a game (``POST /api/screen {"show": "game"}``), the hall refuses every command that would
draw a ball with ``games_on_screen`` — a ball read by the machine or typed on the keypad (the drivers publish the
refusal to the speaker, as for any refused ball), the console's draw (the API's 423) — and so the start of a
partie and « démarquez », which the hall would not see on the projector. ``create_app`` registers it on the hall
(``hall.add_hold``), so the web and the devices meet it alike; the loto core knows it only as a ``Hold``
(``hall/holds.py``) and never hears of the games.
"""

from __future__ import annotations

from dataclasses import dataclass

from hall.holds import Action
from hall.minigames import Lobby
from hall.refusal import Code

GAMES_ON_SCREEN: Code = "rooms/games_on_screen"


@dataclass(frozen=True, eq=True)
class GameOnScreen:
    """The games' break: a game on the projector, so no draw, no start, no « démarquez » (read from the lobby, never
    under its lock, so a ball is never kept waiting by a bot's thinking). Equal for one lobby: registered once."""

    lobby: Lobby

    def active(self) -> bool:
        """Whether a game is on the projector now."""
        return self.lobby.game_on_screen()

    def refusal(self, action: Action) -> Code | None:
        """``rooms/games_on_screen`` for every action while a game is on the projector."""
        return GAMES_ON_SCREEN if self.active() else None
