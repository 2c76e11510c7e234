"""What a console asks a device to do now: the hall's passing commands to its machines (never journalled).

« Tirer » with nothing typed asks the demo's simulated ball machine for a ball; the admin's « Tester » asks the
printer for a test ticket. Each is a typed value, declared once in ``REQUESTS`` with the right that gives it:
``Hall.ask(request, role=…)`` checks that right (hall/rights.py, the one table) and publishes the value to the
notice subscribers, where a driver acts on the type it knows (``isinstance``), never on a string. The ball drawn,
or the ticket printed, is journalled as ever, by the command that does it. A new request is a class here (and
its place in ``DeviceRequest``); tests/test_architecture.py refuses a request written as a ``notify`` string.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class DrawRequested:
    """« Tirer » with nothing typed: the ball machine that waits for the speaker (the demo's) draws one ball."""

    name: ClassVar[str] = "draw:requested"
    right: ClassVar[str] = "draw"
    source: str = "console"


@dataclass(frozen=True, slots=True)
class DeviceTestRequested:
    """The admin's test of a device: the printer answers with a test ticket, the others say their state."""

    name: ClassVar[str] = "device:test_requested"
    right: ClassVar[str] = "device_test"
    device: str


DeviceRequest = DrawRequested | DeviceTestRequested
"""Every request a device may be asked (``HallPort.ask`` takes one of them, mypy checks which)."""

REQUESTS: dict[str, type[DrawRequested] | type[DeviceTestRequested]] = {
    kind.name: kind for kind in (DrawRequested, DeviceTestRequested)
}
"""Each request by its notice name: the names the wire carries to the speaker's console (INTERFACE §5 notices)."""
