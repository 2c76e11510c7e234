"""The serial ball machine: a pyserial reader thread that only moves bytes (the reconnect loop is
``drivers/reconnect.py``'s, shared with the keypad and the scanner)."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable

import serial

from drivers.ball_protocol import Ball, Debouncer, Garbage, Reading, make_parser
from drivers.reconnect import Backoff, DeviceReader
from hall.config import BallMachineSection
from hall.ports import HallPort
from hall.refusal import Rejected
from hall.snapshots import notice

log = logging.getLogger("loto-hall.drivers")

READ_TIMEOUT_S = 0.2  # how long one read may block: bounds the time ``stop()`` takes


class BallMachineReader(DeviceReader[serial.Serial]):
    """Reads the ball machine on ``section.port`` and draws (or, in confirm mode, proposes) each new ball."""

    name = "ball_machine"
    hall: HallPort
    errors = (serial.SerialException, OSError, ValueError)

    def __init__(
        self,
        hall: HallPort,
        section: BallMachineSection,
        *,
        clock: Callable[[], float] = time.monotonic,
        backoff: Backoff | None = None,
        name: str = "ball_machine",
    ):
        super().__init__(hall, section.port, backoff=backoff)
        self.name = name
        self.section = section
        self._parser = make_parser(section.protocol, section.pattern)
        self._debounce = Debouncer(section.debounce_s)
        self._clock = clock
        self._port: serial.Serial | None = None

    def _path_exists(self) -> bool:
        return "://" in self.path or os.path.exists(self.path)  # pyserial URLs (socket://, rfc2217://)

    def _open(self) -> serial.Serial:
        port = serial.serial_for_url(
            self.path, baudrate=self.section.baudrate, timeout=READ_TIMEOUT_S, exclusive=True, do_not_open=True
        )
        port.open()  # flushes the input: bytes sent before this instant are gone
        self._port = port
        return port

    def _pump(self, port: serial.Serial) -> bool:
        data = port.read(1)
        if not data:
            return False
        waiting = port.in_waiting
        if waiting:
            data += port.read(waiting)
        self.feed(data)
        return True

    def _close(self, port: serial.Serial) -> None:
        self._port = None
        port.close()

    def _lost(self) -> None:
        for reading in self._parser.flush():
            self._handle(reading)

    def _interrupt(self) -> None:
        port = self._port
        if port is not None:
            try:
                port.cancel_read()
            except Exception:  # not every pyserial backend can cancel; the read timeout bounds the wait
                pass

    def feed(self, data: bytes) -> None:
        """Parse bytes from the port and act on each reading (public so the benchmark can time the path)."""
        for reading in self._parser.feed(data):
            self._handle(reading)

    def _handle(self, reading: Reading) -> None:
        if isinstance(reading, Garbage):
            log.warning(
                "%s: unreadable read path=%s reason=%s raw=%r", self.name, self.path, reading.reason, reading.raw
            )
            self._notify_refused(None, reading.reason, reading.raw)
            return
        assert isinstance(reading, Ball)
        if not self._debounce.is_new(reading.number, self._clock()):
            log.debug(
                "%s: ball %d read again within %.1f s (same ball)", self.name, reading.number, self.section.debounce_s
            )
            return
        try:
            self.hall.ball_read(reading.number, source=self.name, confirm=self.section.confirm)
        except Rejected as exc:
            log.info(
                "%s: ball %d refused code=%s path=%s raw=%r",
                self.name,
                reading.number,
                exc.code,
                self.path,
                reading.raw,
            )
            self._notify_refused(reading.number, exc.code, reading.raw)
        except Exception:  # the journal refused (HallError) or a subscriber failed: the ball is not lost silently
            log.exception("%s: ball %d not recorded path=%s raw=%r", self.name, reading.number, self.path, reading.raw)
            self._notify_refused(reading.number, "not_recorded", reading.raw)

    def _notify_refused(self, number: int | None, code: str, raw: bytes) -> None:
        """A code and its number: the speaker reads the sentence display/i18n.py makes of them."""
        try:
            self.hall.tell(notice("draw:refused", code, source=self.name, number=number, raw=raw.decode("latin-1")))
        except Exception:
            log.exception("%s: refusal notice not published", self.name)
