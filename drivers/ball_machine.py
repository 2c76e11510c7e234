"""The serial ball machine: a pyserial reader thread that only moves bytes, and the reconnect loop every reader shares.

``DeviceReader`` is the loop (open → pump → on the library's error: close, report the device status,
back off 0.5 → 5 s, wait for the path to come back, reopen); the evdev readers in ``keypad.py`` reuse it.
A broken device degrades the hall, never stops it: every error is caught here, at the adapter's edge.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any, Callable

import serial

from drivers.ball_protocol import Ball, Debouncer, Garbage, Reading, make_parser
from hall.config import BallMachineSection
from hall.ports import HallPort
from hall.errors import Rejected

log = logging.getLogger("loto-hall.drivers")

SILENCE_CHECK_S = 1.0    # with no bytes for this long, check the device path still exists
READ_TIMEOUT_S = 0.2     # how long one read may block: bounds the time ``stop()`` takes

REFUSALS_FR = {
    "already_drawn": "La boule {number} est déjà sortie : non tirée une deuxième fois.",
    "out_of_range": "Lecture hors de 1–90 : rien n'est tiré.",
    "locked": "Tirage arrêté pour une annonce : la boule {number} n'est pas tirée.",
    "claims_pending": "Un quine est en vérification : la boule {number} n'est pas tirée.",
    "no_partie": "Aucune partie en cours : la boule {number} n'est pas tirée.",
    "partie_finished": "Partie terminée : la boule {number} n'est pas tirée.",
    "no_match": "Lecture illisible de la machine à boules : rien n'est tiré.",
    "too_long": "Lecture illisible (trop longue) de la machine à boules : rien n'est tiré.",
    "truncated": "Lecture coupée (machine débranchée ?) : rien n'est tiré.",
}


def refusal_text(code: str, number: Any = None) -> str:
    """The French sentence shown to the speaker for a refused or unreadable ball."""
    return REFUSALS_FR.get(code, "Boule {number} refusée (" + code + ").").format(number=number)


class Backoff:
    """Delays between reconnection attempts: ``first``, doubling, capped at ``cap`` (seconds)."""

    def __init__(self, first: float = 0.5, cap: float = 5.0):
        self.first, self.cap = first, cap
        self.delay = first

    def next(self) -> float:
        """The delay to wait now; the next one is twice as long, up to the cap."""
        delay = self.delay
        self.delay = min(self.delay * 2, self.cap)
        return delay

    def reset(self) -> None:
        self.delay = self.first


class DeviceGone(Exception):
    """The device path vanished while the port stayed silent (an unplug the library did not report)."""


class DeviceReader:
    """A daemon thread that keeps one device open, feeds what it reads to ``_pump``, and survives unplugs.

    Subclasses give ``_open``, ``_pump`` (one bounded read; returns whether data came), ``_close`` and
    ``errors`` (the library's exception classes, caught here and nowhere deeper).
    """

    name = "device"
    texts = {  # the French sentences for logs and STATUS=, by situation (people read display/i18n.py's catalogue)
        "ok": "Appareil branché ({path}).",
        "missing": "Appareil absent ({path} introuvable).",
        "open": "Appareil : ouverture impossible de {path} ({error}).",
        "lost": "Appareil débranché ({path}) : reconnexion dès son retour.",
    }
    errors: tuple[type[BaseException], ...] = (OSError,)

    def __init__(self, hall: HallPort, path: str, *, backoff: Backoff | None = None):
        self.hall = hall
        self.path = path
        self.backoff = backoff or Backoff()
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._status: str | None = None

    # ---- Service --------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the reader thread (a second call while it runs does nothing)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"loto-{self.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Ask the thread to finish and wait for it (at most ``timeout`` seconds)."""
        self._stop.set()
        self._interrupt()
        if self._thread is not None:
            self._thread.join(timeout)

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # ---- the loop -------------------------------------------------------------------------------
    def _path_exists(self) -> bool:
        return os.path.exists(self.path)

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self._path_exists():
                self._report("absent", "missing", path=self.path)
                self._stop.wait(self.backoff.next())
                continue
            try:
                handle = self._open()
            except Exception as exc:  # the library's error, or a bug: either way retry later, never die
                self._report("degraded", "open", exc, path=self.path, error=exc)
                self._stop.wait(self.backoff.next())
                continue
            self._report("ok", "ok", path=self.path)
            self.connected.set()
            try:
                self._read_until_gone(handle)
            except (DeviceGone,) + self.errors as exc:
                if not self._stop.is_set():
                    self._report("absent", "lost", exc, path=self.path)
            except Exception as exc:  # a bug must degrade the device, not end its thread
                log.exception("%s: reader failed path=%s", self.name, self.path)
                self._report("degraded", "open", path=self.path, error=exc)
            finally:
                self.connected.clear()
                self._safe_close(handle)
                self._lost()
            self._stop.wait(self.backoff.next())
        self._status = None

    def _read_until_gone(self, handle: Any) -> None:
        quiet_since = time.monotonic()
        while not self._stop.is_set():
            if self._pump(handle):
                quiet_since = time.monotonic()
                self.backoff.reset()     # data came: the link is good again
            elif time.monotonic() - quiet_since >= SILENCE_CHECK_S:
                if not self._path_exists():
                    raise DeviceGone(self.path)
                quiet_since = time.monotonic()

    def _safe_close(self, handle: Any) -> None:
        try:
            self._close(handle)
        except Exception:  # closing a dead device may fail too; nothing more to do with it
            pass

    def _report(self, status: str, situation: str, exc: BaseException | None = None, **params: object) -> None:
        """Publish the device status and log it once per change of status (never once per retry).

        The status travels as a code (``<device>_<situation>``, e.g. ``ball_machine_lost``) and its parameters,
        translated for each reader in display/; ``texts`` keeps the French sentence for logs and STATUS=."""
        if self._status == status:
            return
        self._status = status
        level = logging.INFO if status == "ok" else logging.WARNING
        log.log(level, "%s %s path=%s%s", self.name, status, self.path, f" error={exc!r}" if exc else "")
        try:
            detail = self.texts[situation].format(**params)
            self.hall.set_device_status(self.name, status, detail, code=f"{self.name}_{situation}",
                                        params={k: str(v) for k, v in params.items()})
        except Exception:  # a failing subscriber must not kill the reader
            log.exception("%s: device status not published", self.name)

    # ---- for subclasses -------------------------------------------------------------------------
    def _open(self) -> Any:
        raise NotImplementedError

    def _pump(self, handle: Any) -> bool:
        raise NotImplementedError

    def _close(self, handle: Any) -> None:
        raise NotImplementedError

    def _lost(self) -> None:
        """Called after the device closed (partial input is dropped here)."""

    def _interrupt(self) -> None:
        """Wake a blocked read so ``stop()`` is prompt."""


class BallMachineReader(DeviceReader):
    """Reads the ball machine on ``section.port`` and draws (or, in confirm mode, proposes) each new ball."""

    name = "ball_machine"
    texts = {
        "ok": "Machine à boules branchée ({path}).",
        "missing": "Machine à boules absente ({path} introuvable) : tapez les numéros à la console.",
        "open": "Machine à boules : ouverture impossible de {path} ({error}).",
        "lost": "Machine à boules débranchée ({path}) : reconnexion dès son retour ; tapez les numéros à la console.",
    }
    errors = (serial.SerialException, OSError, ValueError)

    def __init__(self, hall: HallPort, section: BallMachineSection, *, clock: Callable[[], float] = time.monotonic,
                 backoff: Backoff | None = None, name: str = "ball_machine"):
        super().__init__(hall, section.port, backoff=backoff)
        self.name = name
        self.section = section
        self._parser = make_parser(section.protocol, section.pattern)
        self._debounce = Debouncer(section.debounce_s)
        self._clock = clock
        self._port: serial.Serial | None = None

    def _path_exists(self) -> bool:
        return "://" in self.path or os.path.exists(self.path)    # pyserial URLs (socket://, rfc2217://)

    def _open(self) -> serial.Serial:
        port = serial.serial_for_url(self.path, baudrate=self.section.baudrate, timeout=READ_TIMEOUT_S,
                                     exclusive=True, do_not_open=True)
        port.open()      # flushes the input: bytes sent before this instant are gone
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
            log.warning("%s: unreadable read path=%s reason=%s raw=%r", self.name, self.path, reading.reason, reading.raw)
            self._notify_refused(None, reading.reason, reading.raw)
            return
        assert isinstance(reading, Ball)
        if not self._debounce.is_new(reading.number, self._clock()):
            log.debug("%s: ball %d read again within %.1f s (same ball)", self.name, reading.number, self.section.debounce_s)
            return
        try:
            self.hall.ball_read(reading.number, source=self.name, confirm=self.section.confirm)
        except Rejected as exc:
            log.info("%s: ball %d refused code=%s path=%s raw=%r", self.name, reading.number, exc.code, self.path, reading.raw)
            self._notify_refused(reading.number, exc.code, reading.raw)
        except Exception:  # the journal refused (HallError) or a subscriber failed: the ball is not lost silently
            log.exception("%s: ball %d not recorded path=%s raw=%r", self.name, reading.number, self.path, reading.raw)
            self._notify_refused(reading.number, "not_recorded", reading.raw)

    def _notify_refused(self, number: int | None, code: str, raw: bytes) -> None:
        try:
            self.hall.notify("draw:refused", {"source": self.name, "number": number, "code": code,
                                              "raw": raw.decode("latin-1"), "message": refusal_text(code, number)})
        except Exception:
            log.exception("%s: refusal notice not published", self.name)
