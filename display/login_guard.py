"""PIN guessing held back without letting a stranger turn the hold against the staff.

Who is who: a *known console* is a browser that carries the signed device cookie (``display/devices.py``) set
by a successful login there; it knows the roles it opened with their PIN of the time. Everyone else is a
*stranger* (a phone on the hall's Wi-Fi, a console's first login in a new browser).

What holds (docs/limits.md says the same, in numbers):
- a stranger's address may fail ``ADDRESS_FAILS`` times within its window, and strangers together
  ``EVERYONE_FAILS`` times; beyond either, a stranger's attempt is refused *unchecked and uncounted* until the
  oldest failure ages out (failures are never cleared by a success);
- a known console typing the PIN of a role it knows is checked whatever those two counts say: only its own
  budget (``DEVICE_FAILS``, spent by nobody but whoever holds its cookie) can hold it. While strangers are held,
  it is checked against its known roles only, so a console cannot be used to guess the other roles' PINs;
- successes are limited too (``ADDRESS_SUCCESSES`` per address for strangers, ``DEVICE_SUCCESSES`` per console):
  a loop of logins cannot fill the session table nor the processor;
- the counts are kept in ``login_guard.json`` (a restart resets nothing);
- a new console gets in whatever strangers do by an enrolment (``display/enrolment.py``): a one-time code shown on a
  console already in, or printed on the Pi by ``loto-hall auth unlock``. That command writes ``login_unlock.json``
  (the code's keyed digest, never the code); the running hall takes it at its next attempt (or at start) and clears
  the counts nobody but a console's holder spends (each known console's own failures, and the successes). The
  strangers' counts are never cleared: clearing them would only hand the guessing 20 fresh tries, and strangers
  would fill them again in a fraction of a second.

The clock is wall time (the counts outlive a restart) and injectable, so the tests drive it.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from display.sessions import read_json, write_json

log = logging.getLogger("loto-hall.display")

GUARD_FILE = "login_guard.json"
UNLOCK_FILE = "login_unlock.json"

# (how many, within how many seconds)
ADDRESS_FAILS = (5, 300.0)  # one address: 5 wrong PINs per 5 minutes
EVERYONE_FAILS = (20, 3600.0)  # every stranger together: 20 wrong PINs per hour
DEVICE_FAILS = (5, 900.0)  # one known console: 5 wrong PINs per 15 minutes
ADDRESS_SUCCESSES = (20, 600.0)  # logins that succeed, per stranger's address
DEVICE_SUCCESSES = (60, 600.0)  # logins that succeed, per known console
MAX_KEYS = 4096  # addresses or consoles remembered per budget (the least recent forgotten)


class Budget:
    """At most ``limit`` events per key within ``window_s``: older events age out, nothing else clears them."""

    def __init__(self, limit: int, window_s: float, max_keys: int = MAX_KEYS):
        self.limit, self.window_s, self.max_keys = limit, window_s, max_keys
        self._times: dict[str, list[float]] = {}

    def wait(self, key: str, now: float) -> int:
        """Whole seconds before ``key`` may act again (0: now)."""
        times = self._times.get(key)
        if not times or len(times) < self.limit:
            return 0
        left = times[-self.limit] + self.window_s - now
        return int(left) + 1 if left > 0 else 0

    def add(self, key: str, now: float) -> int:
        """Count one event for ``key``; returns how many it has within the window."""
        times = (
            [t for t in self._times.pop(key, ()) if now - t < self.window_s][-(self.limit - 1) :]
            if self.limit > 1
            else []
        )
        times.append(now)
        self._times[key] = times  # re-inserted: the dict's order is the order of last use
        while len(self._times) > self.max_keys:
            del self._times[next(iter(self._times))]
        return len(times)

    def clear(self) -> None:
        self._times.clear()

    def dump(self, now: float) -> dict[str, list[float]]:
        return {
            k: [t for t in v if now - t < self.window_s]
            for k, v in self._times.items()
            if any(now - t < self.window_s for t in v)
        }

    def load(self, raw: object) -> None:
        if not isinstance(raw, dict):
            return
        for key, times in list(raw.items())[-self.max_keys :]:
            if isinstance(key, str) and isinstance(times, list):
                self._times[key] = [float(t) for t in times if isinstance(t, (int, float))][-self.limit :]


class UnlockWatch:
    """The Pi's unlock requests (``login_unlock.json``, written by ``loto-hall auth unlock``), seen by a stat."""

    def __init__(self, data_dir: Path):
        self.path = Path(data_dir) / UNLOCK_FILE
        self._seen: tuple[int, int, int] | None = None
        self._request: dict = {}

    def request(self) -> dict:
        """The latest request (``{}`` when there never was one): read again only when the file changed."""
        try:
            st = os.stat(self.path)
        except OSError:
            return self._request
        stamp = (st.st_mtime_ns, st.st_ino, st.st_size)
        if stamp != self._seen:
            self._seen = stamp
            self._request = read_json(self.path)
        return self._request

    def nonce(self) -> str:
        """The latest request's nonce ("" when there never was one)."""
        nonce = self.request().get("nonce")
        return nonce if isinstance(nonce, str) else ""


class LoginGuard:
    """The PIN budgets of one hall (see the module's docstring); every method takes and releases its own lock."""

    def __init__(self, data_dir: Path, clock: Callable[[], float] = time.time):
        self.path = Path(data_dir) / GUARD_FILE
        self.clock = clock
        self.unlocks = UnlockWatch(data_dir)
        self._lock = threading.Lock()
        self.address = Budget(*ADDRESS_FAILS)
        self.everyone = Budget(*EVERYONE_FAILS)
        self.device = Budget(*DEVICE_FAILS)
        self.successes = {"address": Budget(*ADDRESS_SUCCESSES), "device": Budget(*DEVICE_SUCCESSES)}
        raw = read_json(self.path)
        self.address.load(raw.get("address"))
        self.everyone.load({"*": raw.get("everyone")})
        self.device.load(raw.get("device"))
        self._applied = raw.get("unlocked") if isinstance(raw.get("unlocked"), str) else ""
        self._unlock_listeners: list[Callable[[dict], None]] = []
        with self._lock:
            self._apply_unlock()

    def on_unlock(self, listener: Callable[[dict], None]) -> None:
        """Call ``listener(request)`` with each unlock request the hall applies (its enrolment code's digest), and
        now with the latest one already applied (a restart within its life keeps its code)."""
        self._unlock_listeners.append(listener)
        request = self.unlocks.request()
        if request.get("nonce") and request.get("nonce") == self._applied:
            listener(request)

    def _apply_unlock(self) -> None:
        request = self.unlocks.request()
        nonce = request.get("nonce")
        if isinstance(nonce, str) and nonce and nonce != self._applied:
            self._applied = nonce
            for budget in (self.device, *self.successes.values()):  # what only a console's holder spends
                budget.clear()
            log.warning(
                "codes PIN : déblocage demandé depuis le Pi (loto-hall auth unlock) : compteurs des consoles "
                "connues remis à zéro, code d'ajout d'une console reçu"
            )
            self._save()
            for listener in self._unlock_listeners:
                listener(request)

    def poll_unlock(self) -> None:
        """Take a new unlock request now (an enrolment reads it before checking a code)."""
        with self._lock:
            self._apply_unlock()

    def _save(self) -> None:
        now = self.clock()
        data = {
            "address": self.address.dump(now),
            "everyone": self.everyone.dump(now).get("*", []),
            "device": self.device.dump(now),
            "unlocked": self._applied,
        }
        try:
            write_json(self.path, data)
        except OSError as exc:
            log.error("compteur d'essais PIN non enregistré (%s) : %s", self.path, exc)

    def stranger_wait(self, address: str) -> int:
        """Seconds before a stranger's attempt from ``address`` is checked (0: now)."""
        with self._lock:
            self._apply_unlock()
            now = self.clock()
            return max(self.address.wait(address, now), self.everyone.wait("*", now))

    def device_wait(self, device: str) -> int:
        """Seconds before known console ``device`` may try again (0: now)."""
        with self._lock:
            self._apply_unlock()
            return self.device.wait(device, self.clock())

    def success_wait(self, kind: str, key: str) -> int:
        """Seconds before one more login may succeed for ``key`` (``kind``: ``address`` or ``device``)."""
        with self._lock:
            return self.successes[kind].wait(key, self.clock())

    def failed(self, address: str, device: str | None, checked_all: bool) -> None:
        """Count a wrong PIN: for the console, and (when every role was checked) for its address and everyone."""
        with self._lock:
            now = self.clock()
            if device is not None:
                self.device.add(device, now)
            if checked_all:
                self.address.add(address, now)
                total = self.everyone.add("*", now)
                log.warning(
                    "code PIN refusé depuis %s (%d échec(s) en %d min, toutes adresses)",
                    address,
                    total,
                    EVERYONE_FAILS[1] // 60,
                )
            else:
                log.warning("code PIN refusé depuis %s (console connue, ses rôles seulement)", address)
            self._save()

    def succeeded(self, kind: str, key: str) -> None:
        with self._lock:
            self.successes[kind].add(key, self.clock())
