"""What the hall takes from outside itself: the time and the chance (the drivers' and tests' own may stand
in for them)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Protocol


class Clock(Protocol):
    def __call__(self) -> str:
        """The current time, ISO 8601 in UTC."""


def utc_now() -> str:
    """The wall-clock time as ISO 8601 UTC with milliseconds."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


class Rng(Protocol):
    def sample(self, population: Sequence[int], k: int) -> list[int]: ...
