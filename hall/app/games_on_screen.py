"""No draw by accident during a games break: the ball machine and the keypad reach the hall through this gate.

While a mini-game is on the projector (``POST /api/screen {"show": "game"}``), a ball read by the machine or
typed on the keypad is refused with ``games_on_screen`` (the drivers publish the refusal to the speaker, as
for any refused ball); everything else goes to the hall unchanged. The loto core never hears of the games.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hall.errors import Rejected

GATED = frozenset({"draw", "propose", "confirm_proposed", "ball_read"})
GATED_KEYS = frozenset({"draw", "confirm"})     # key_typed() kinds that would draw a ball


class GamesOnScreenGuard:
    """The hall as the input drivers see it: the same object, but draws refused while ``games_on_screen()``."""

    def __init__(self, hall: Any, games_on_screen: Callable[[], bool]):
        self._hall = hall
        self._games_on_screen = games_on_screen

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._hall, name)
        if name in GATED:
            def gated(*args: Any, **kwargs: Any) -> Any:
                if self._games_on_screen():
                    raise Rejected("games_on_screen")
                return value(*args, **kwargs)
            return gated
        if name == "key_typed":
            def gated_key(kind: str, *args: Any, **kwargs: Any) -> Any:
                if kind in GATED_KEYS and self._games_on_screen():
                    raise Rejected("games_on_screen")
                return value(kind, *args, **kwargs)
            return gated_key
        return value
