"""Holds: what may stop the hall's draws, a partie's start and « démarquez » for a while (the games' break).

A hold is asked by the hall itself, under its lock, before each command of its kind (``Action``), and refuses it
with its own code (``"rooms/games_on_screen"``). The core knows no hold by name: the program registers them
(``Hall(holds=…)`` or ``hall.add_hold(…)``), so the loto never hears of the games, and every input — the console,
the keypad, the ball machine — meets the same hold because it reaches the same hall.

``HELD`` says once which events each action covers: the writer refuses to journal a held event while a hold
stands, so a drawing command added later is held even before it asks (it asks first only to refuse early, before
any other check, with the hold's code).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Protocol

from hall.events import BallDrawn, PartieCleared, PartieStarted
from hall.refusal import Rejected


class Action(enum.Enum):
    """What a hold may stop."""

    DRAW = "draw"  # a ball drawn, or held for the speaker's confirmation (propose)
    START = "start"  # a partie started
    CLEAR = "clear"  # « Démarquez ! »: a partie ended


HELD: Mapping[type, Action] = MappingProxyType(
    {
        BallDrawn: Action.DRAW,
        PartieStarted: Action.START,
        PartieCleared: Action.CLEAR,
    }
)
"""The journalled events each action covers (``propose`` journals nothing: it asks for ``DRAW`` itself)."""


class Hold(Protocol):
    """Something that may stop the hall's draws for a while."""

    def refusal(self, action: Action) -> str | Rejected | None:
        """The refusal code while ``action`` must wait (``"rooms/games_on_screen"``), or the refusal itself when it
        names what waits (``room_offline`` names the annex), else ``None``. Called under the hall's lock on every
        draw: a read, never a wait."""


class Holds:
    """The holds registered on one hall, asked in the order they came."""

    def __init__(self, holds: Iterable[Hold] = ()):
        self._holds: tuple[Hold, ...] = ()
        for hold in holds:
            self.add(hold)

    def add(self, hold: Hold) -> None:
        """Register ``hold`` (once: registering an equal hold again changes nothing)."""
        if hold not in self._holds:
            self._holds = (*self._holds, hold)  # replaced whole: a command in flight reads the old or the new

    def check(self, action: Action) -> None:
        """Raise ``Rejected`` with the first standing hold's code for ``action``."""
        for hold in self._holds:
            code = hold.refusal(action)
            if isinstance(code, Rejected):
                raise code
            if code is not None:
                raise Rejected(code)

    def check_events(self, events: Iterable[object]) -> None:
        """Raise ``Rejected`` if a standing hold covers one of ``events`` (the writer's last word before the journal)."""
        if self._holds:
            for event in events:
                action = HELD.get(type(event))
                if action is not None:
                    self.check(action)
