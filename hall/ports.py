"""The small interfaces the drivers and the web implement or use, so the core never imports them."""
from __future__ import annotations

import datetime as dt
from typing import Callable, Protocol

from hall.events import Record


class Clock(Protocol):
    def __call__(self) -> str:
        """The current time, ISO 8601 in UTC."""


def utc_now() -> str:
    """The wall-clock time as ISO 8601 UTC with milliseconds."""
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")


class Rng(Protocol):
    def sample(self, population, k: int) -> list: ...


Subscriber = Callable[[Record], None]
"""Called under the hall's lock after each event is durable and applied: must return quickly (queue the work)."""


class Service(Protocol):
    """A background part of the hall (a device reader, the print queue): started, watched, stopped.

    Every driver implements it; the supervisor pings systemd's watchdog only while all are ``alive()``.
    """

    name: str

    def start(self) -> None: ...
    def stop(self) -> None: ...
    def alive(self) -> bool: ...
