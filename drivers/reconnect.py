"""The reconnect loop every device reader shares (ball machine, keypad, scanner).

``DeviceReader`` keeps one device open on a daemon thread: open → pump → on the library's error: close,
report the device status (a code and its parameters, translated in display/), back off 0.5 → 5 s, wait for
the path to come back, reopen. A broken device degrades the hall, never stops it: every error is caught
here, at the adapter's edge.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Generic, Protocol, TypeVar

log = logging.getLogger("loto-hall.drivers")

H = TypeVar("H")  # what ``_open`` gives back: a serial port, an evdev device…

SILENCE_CHECK_S = 1.0  # with no bytes for this long, check the device path still exists


class StatusSink(Protocol):
    """Where a reader reports its device's status: the hall (``HallPort``), or a salle annexe, which has none."""

    def set_device_status(
        self, device: str, status: str, *, code: str = "", params: dict[str, object] | None = None
    ) -> None: ...


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


class DeviceReader(Generic[H]):
    """A daemon thread that keeps one device open, feeds what it reads to ``_pump``, and survives unplugs.

    Subclasses give ``_open`` (the handle, of the library's type ``H``), ``_pump`` (one bounded read; returns
    whether data came), ``_close`` and ``errors`` (the library's exception classes, caught here and nowhere deeper).
    """

    name = "device"
    errors: tuple[type[BaseException], ...] = (OSError,)

    def __init__(self, hall: StatusSink, path: str, *, backoff: Backoff | None = None):
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

    def _read_until_gone(self, handle: H) -> None:
        quiet_since = time.monotonic()
        while not self._stop.is_set():
            if self._pump(handle):
                quiet_since = time.monotonic()
                self.backoff.reset()  # data came: the link is good again
            elif time.monotonic() - quiet_since >= SILENCE_CHECK_S:
                if not self._path_exists():
                    raise DeviceGone(self.path)
                quiet_since = time.monotonic()

    def _safe_close(self, handle: H) -> None:
        try:
            self._close(handle)
        except Exception:  # closing a dead device may fail too; nothing more to do with it
            pass

    def _report(self, status: str, situation: str, exc: BaseException | None = None, **params: object) -> None:
        """Publish the device status and log it once per change of status (never once per retry).

        The status travels as a code (``<device>_<situation>``, e.g. ``ball_machine_lost``) and its parameters
        only: the sentence is display/i18n.py's, in each reader's language."""
        if self._status == status:
            return
        self._status = status
        level = logging.INFO if status == "ok" else logging.WARNING
        log.log(level, "%s %s %s path=%s%s", self.name, status, situation, self.path, f" error={exc!r}" if exc else "")
        try:
            self.hall.set_device_status(
                self.name, status, code=f"{self.name}_{situation}", params={k: str(v) for k, v in params.items()}
            )
        except Exception:  # a failing subscriber must not kill the reader
            log.exception("%s: device status not published", self.name)

    # ---- for subclasses -------------------------------------------------------------------------
    def _open(self) -> H:
        raise NotImplementedError

    def _pump(self, handle: H) -> bool:
        raise NotImplementedError

    def _close(self, handle: H) -> None:
        raise NotImplementedError

    def _lost(self) -> None:
        """Called after the device closed (partial input is dropped here)."""

    def _interrupt(self) -> None:
        """Wake a blocked read so ``stop()`` is prompt."""
