"""The USB numeric keypad: an evdev reader that grabs the device (keys never reach a console) and acts for the speaker.

``EvdevReader`` is the evdev side of ``DeviceReader`` (grab, select with a timeout, unplug → ``OSError``
ENODEV → close, report, back off, reopen); ``scanner.py`` reuses it. ``apply_key_command`` turns a
``KeyCommand`` into the hall's intent-level ``key_typed`` (the hall decides, in one step under its own lock,
whether a typed number corrects a held ball or draws), so it never races the ball machine.
"""

from __future__ import annotations

import logging
import select
from collections.abc import Callable, Iterable
from typing import Protocol

from evdev import InputEvent

from drivers.ball_machine import READ_TIMEOUT_S
from drivers.keypad_map import KeyCommand, KeypadMap
from drivers.reconnect import Backoff, DeviceReader, StatusSink
from hall.ports import HallPort
from hall.refusal import Rejected
from hall.snapshots import notice

log = logging.getLogger("loto-hall.drivers")


class InputDevice(Protocol):
    """What the reader uses of an ``evdev.InputDevice`` (the tests give a pipe that acts like one)."""

    @property
    def fd(self) -> int: ...

    def grab(self) -> None: ...

    def ungrab(self) -> None: ...

    def read(self) -> Iterable[InputEvent]: ...

    def close(self) -> None: ...


def _open_input_device(path: str) -> InputDevice:
    import evdev  # the "pi" extra: imported when a keypad or scanner is configured, not before

    return evdev.InputDevice(path)


class EvdevReader(DeviceReader[InputDevice]):
    """Keeps an evdev input device open and grabbed; calls ``on_event(event)`` for every event it reads."""

    errors = (OSError,)

    def __init__(
        self,
        hall: StatusSink,
        path: str,
        *,
        opener: Callable[[str], InputDevice] | None = None,
        backoff: Backoff | None = None,
    ):
        super().__init__(hall, path, backoff=backoff)
        self._opener = opener or _open_input_device

    def _open(self) -> InputDevice:
        device = self._opener(self.path)
        try:
            device.grab()  # EBUSY when another program holds it: reported as degraded, retried
        except OSError:
            device.close()
            raise
        return device

    def _pump(self, device: InputDevice) -> bool:
        ready, _, _ = select.select([device.fd], [], [], READ_TIMEOUT_S)
        if not ready:
            return False
        try:
            events = list(device.read())
        except BlockingIOError:
            return False
        for event in events:
            try:
                self.on_event(event)
            except Exception:  # a bug in one key's handling must not unplug the device
                log.exception("%s: event not handled path=%s event=%r", self.name, self.path, event)
        return bool(events)

    def _close(self, device: InputDevice) -> None:
        try:
            device.ungrab()
        except OSError:
            pass
        device.close()

    def on_event(self, event: InputEvent) -> None:
        raise NotImplementedError


def apply_key_command(hall: HallPort, cmd: KeyCommand, source: str = "keypad") -> None:
    """Carry out a keypad command for the speaker; each key and each refusal is published as a notice (a value:
    its code and number, the sentence is display/'s), never raised."""
    hall.tell(notice("keypad:input", cmd.kind, kind=cmd.kind, text=cmd.text, number=cmd.number, reason=cmd.reason))
    try:
        hall.key_typed(cmd.kind, cmd.number, source=source)  # the hall decides: a draw, or a held ball's correction
    except Rejected as exc:
        log.info("%s: %s refused code=%s number=%s", source, cmd.kind, exc.code, cmd.number)
        if cmd.kind in ("draw", "confirm"):
            hall.tell(notice("draw:refused", exc.code, source=source, number=cmd.number, raw=cmd.text))
        else:
            hall.tell(notice("keypad:refused", exc.code, source=source, action=cmd.kind))


class KeypadReader(EvdevReader):
    """The speaker's keypad on ``section.device`` (a stable ``/dev/input/by-id/…-event-kbd`` path)."""

    name = "keypad"
    hall: HallPort

    def __init__(
        self,
        hall: HallPort,
        section,
        *,
        opener: Callable[[str], InputDevice] | None = None,
        backoff: Backoff | None = None,
    ):
        super().__init__(hall, section.device, opener=opener, backoff=backoff)
        self.map = KeypadMap(section.keys)

    def on_event(self, event: InputEvent) -> None:
        cmd = self.map.feed(event)
        if cmd is not None:
            apply_key_command(self.hall, cmd)

    def _lost(self) -> None:
        if self.map.entry or self.map.undo_armed:
            self.map.entry, self.map.undo_armed = "", False
            self.hall.tell(notice("keypad:input", "cancel", kind="cancel", text="", number=None, reason="unplugged"))
