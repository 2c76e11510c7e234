"""Staff sessions the hall can end, and PIN guessing held back for everyone, both kept in the data folder.

Sessions: every login makes a session id, kept server-side in ``sessions.json`` with its role, a
fingerprint of the PIN it was opened with and when it was last used. A cookie or a token is only good
while its session is in the table: logout deletes it, a changed PIN ends every session opened with the old
one (checked at start), and a session unused for ``idle_s`` (12 h by default) ends. Sessions survive a
restart on purpose: a watchdog restart in the middle of a partie must not log the speaker out of a console
that is open, which also means a locked PIN login can never lock out a console already open.

PIN guessing: besides the limit per address (``display.auth.RateLimiter``), failures from every address
are counted together (a wrong PIN names no role, so the count is for all roles' logins). ``limit``
failures within ``window_s`` lock new PIN logins for ``lock_s``; attempts while locked are refused without
being checked *and without being counted*, so nobody can extend the lock: when it ends, the next attempt
is checked, and the real speaker gets in even with failures going on (a lockout that only delays). The
counts live in ``login_guard.json`` so a restart does not reset them; every failure is logged with the
address, never the PIN.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("loto-hall.display")

SESSIONS_FILE = "sessions.json"
GUARD_FILE = "login_guard.json"
TOUCH_PERSIST_S = 300.0          # last use written to disk at most this often per session


def _write_json(path: Path, data: dict) -> None:
    """Write ``data`` atomically (mode 0600): a power cut leaves the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + path.name, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError, OSError):
        return {}
    return data if isinstance(data, dict) else {}


def pin_fingerprint(secret: bytes, role: str, pin: str) -> str:
    """A keyed hash of the role's PIN: tells a changed PIN without keeping the PIN in the session file."""
    return hmac.new(secret, f"{role}:{pin}".encode(), hashlib.sha256).hexdigest()[:32]


class SessionTable:
    """The staff sessions: id → role, PIN fingerprint, last use (wall clock, seconds)."""

    def __init__(self, data_dir: Path, fingerprints: dict[str, str], idle_s: float,
                 clock: Callable[[], float] = time.time):
        self.path = Path(data_dir) / SESSIONS_FILE
        self.idle_s, self._clock = idle_s, clock
        self._fingerprints = fingerprints
        self._lock = threading.Lock()
        self._persisted: dict[str, float] = {}
        raw = _read_json(self.path).get("sessions", {})
        now = clock()
        self._sessions: dict[str, dict] = {
            sid: s for sid, s in (raw.items() if isinstance(raw, dict) else ())
            if isinstance(s, dict) and s.get("role") in fingerprints
            and hmac.compare_digest(str(s.get("pin", "")), fingerprints[s["role"]])   # a changed PIN ends them
            and isinstance(s.get("seen"), (int, float)) and now - s["seen"] < idle_s}
        if len(self._sessions) != len(raw if isinstance(raw, dict) else ()):
            self._save()

    def _save(self) -> None:
        try:
            _write_json(self.path, {"sessions": self._sessions})
        except OSError as exc:
            log.error("sessions non enregistrées (%s) : %s", self.path, exc)

    def open(self, role: str) -> str:
        """A new session for ``role``; returns its id."""
        sid = secrets.token_urlsafe(18)
        with self._lock:
            now = self._clock()
            self._sessions[sid] = {"role": role, "pin": self._fingerprints[role], "seen": now}
            self._persisted[sid] = now
            self._save()
        return sid

    def role(self, sid: object) -> str | None:
        """The role of a live session (its idle time restarts), or ``None`` when it ended or never was."""
        if not isinstance(sid, str):
            return None
        with self._lock:
            s = self._sessions.get(sid)
            if s is None:
                return None
            now = self._clock()
            if now - s["seen"] >= self.idle_s:
                del self._sessions[sid]
                self._save()
                return None
            s["seen"] = now
            if now - self._persisted.get(sid, 0.0) > TOUCH_PERSIST_S:
                self._persisted[sid] = now
                self._save()
            return s["role"]

    def close(self, sid: object) -> bool:
        """End the session ``sid``; returns whether there was one."""
        with self._lock:
            if not isinstance(sid, str) or self._sessions.pop(sid, None) is None:
                return False
            self._persisted.pop(sid, None)
            self._save()
            return True

    def end_role(self, role: str) -> int:
        """End every session of ``role`` (its PIN was changed on /admin); returns how many ended."""
        with self._lock:
            ended = [sid for sid, s in self._sessions.items() if s.get("role") == role]
            for sid in ended:
                del self._sessions[sid]
                self._persisted.pop(sid, None)
            if ended:
                self._save()
            return len(ended)

    def __len__(self) -> int:
        return len(self._sessions)


class LoginGuard:
    """Failed PINs from every address together: ``limit`` within ``window_s`` lock new logins for ``lock_s``."""

    def __init__(self, data_dir: Path, limit: int = 10, window_s: float = 600.0, lock_s: float = 60.0,
                 clock: Callable[[], float] = time.time):
        self.path = Path(data_dir) / GUARD_FILE
        self.limit, self.window_s, self.lock_s, self._clock = limit, window_s, lock_s, clock
        self._lock = threading.Lock()
        raw = _read_json(self.path)
        fails = raw.get("fails", [])
        self._fails = [t for t in fails if isinstance(t, (int, float))] if isinstance(fails, list) else []
        until = raw.get("locked_until", 0)
        self._locked_until = float(until) if isinstance(until, (int, float)) else 0.0

    def _save(self) -> None:
        try:
            _write_json(self.path, {"fails": self._fails, "locked_until": self._locked_until})
        except OSError as exc:
            log.error("compteur d'essais PIN non enregistré (%s) : %s", self.path, exc)

    def retry_after(self) -> int:
        """Seconds before a PIN login is checked again (0: now)."""
        with self._lock:
            left = self._locked_until - self._clock()
            return max(1, int(left) + 1) if left > 0 else 0

    def failed(self, address: str) -> None:
        """Count a failure (outside a lock only: see the module's docstring)."""
        with self._lock:
            now = self._clock()
            self._fails = [t for t in self._fails if now - t < self.window_s] + [now]
            log.warning("code PIN refusé depuis %s (%d échec(s) en %d min, toutes adresses)",
                        address, len(self._fails), self.window_s // 60)
            if len(self._fails) >= self.limit:
                self._locked_until = now + self.lock_s
                self._fails = []
                log.warning("trop de codes PIN faux : connexions par PIN suspendues %d s (sessions ouvertes gardées)",
                            self.lock_s)
            self._save()
