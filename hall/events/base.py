"""What every event of the journal is (``Event``), the ``Record`` that journals one, and ``EventHandlers``: the
one way the hall and the web dispatch on an event's type."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class Event(Protocol):
    """Any event of the journal: a frozen dataclass named by its ``type``."""

    type: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]  # a dataclass: ``to_payload`` reads it


class EventHandlers(Generic[R]):
    """One handler per event type, declared where the handler is written: the one way the hall and the web
    dispatch on an event (``Evening.apply``, the winner watch, the report, the takings, the sockets' payloads).

    ``HANDLERS = EventHandlers[None]()``; ``@HANDLERS.on(BallDrawn, DrawUndone)`` above a function or a method
    (its own signature kept, its result held to ``R``); ``HANDLERS.dispatch(record.type, …)`` calls it, if any.
    A dict lookup (``functools.singledispatchmethod`` costs 5.5 µs a call on Python 3.11, ten times as much).
    """

    def __init__(self) -> None:
        self._by_type: dict[str, Callable[..., R]] = {}

    def on(self, *events: type[Event]) -> Callable[[Callable[P, R]], Callable[P, R]]:
        """Register the decorated function for each of ``events``; a second handler for one of them is an error."""

        def register(handler: Callable[P, R]) -> Callable[P, R]:
            for event in events:
                if event.type in self._by_type:
                    raise ValueError(f"two handlers for {event.type}: {self._by_type[event.type]} and {handler}")
                self._by_type[event.type] = handler
            return handler

        return register

    def get(self, event_type: str) -> Callable[..., R] | None:
        """The handler of ``event_type``, or ``None``."""
        return self._by_type.get(event_type)

    def dispatch(self, event_type: str, *args: object) -> R | None:
        """Call the handler of ``event_type`` with ``args`` and return its result; ``None`` when it has none."""
        handler = self._by_type.get(event_type)
        return None if handler is None else handler(*args)

    def types(self) -> frozenset[str]:
        """The event types handled."""
        return frozenset(self._by_type)


@dataclass(frozen=True, slots=True)
class Record:
    """An event as journalled: its sequence number, the role that caused it, when (ISO 8601 UTC)."""

    seq: int
    event: Any  # the event of ``type``: its readers dispatch on the type, then read its fields
    role: str
    at: str
    hash: str = ""  # its link in the journal's hash chain (hall/record/chain.py); "" for a record not journalled

    @property
    def type(self) -> str:
        return self.event.type
