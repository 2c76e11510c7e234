"""Staff sessions the hall can end, kept in ``sessions.json`` in the data folder.

Every login opens a session, or takes up again the live one of the same browser (its cookie session, or its
known-console cookie) for the same role: a console logging in again and again holds one session, not one per
login. A session is kept server-side with its role, a fingerprint of the PIN it was opened with and when it was
last used; a cookie or a token is only good while its session is in the table: logout deletes it, a changed PIN
ends every session opened with the old one (checked at start), a session unused for ``idle_s`` (12 h by
default) ends, /admin ends one (``close_ref``, and may forget its console: ``forget``). Each role holds at most
``max_per_role`` sessions: at the cap, a new login ends the role's least recently used session only when that one
has not been used for ``RECENT_USE_S``, or when it has a lower standing than the login's (a stranger's first login
below a known console, below an enrolled tablet: ``STRANGER``, ``KNOWN``, ``ENROLLED``); otherwise the login is
refused (``too_many_consoles``), so that nobody holding a shared PIN can push the other consoles out by logging in
again and again, nor keep a known console or an enrolled tablet out by filling the slots.
Whoever listens (``on_end``: the sockets) hears of every session that ends, whatever ended it.

Sessions survive a restart on purpose: a watchdog restart in the middle of a partie must not log the speaker out
of a console that is open. The file is written when a session opens or ends, and a session's last use at most
every ``TOUCH_PERSIST_S``: never on every request.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from hall import write_json as durable_write_json
from hall.refusal import Rejected

log = logging.getLogger("loto-hall.display")

SESSIONS_FILE = "sessions.json"
TOUCH_PERSIST_S = 300.0  # last use written to disk at most this often per session
MAX_SESSIONS_PER_ROLE = 32  # consoles and phones of one role logged in at once
RECENT_USE_S = 600.0  # a session used this recently is never ended to make room for a login of its standing
# a session's standing, by how its browser came in: a stranger with the PIN (its first login of the role here), a
# known console (one that logged in with the role before), an enrolled tablet (its code shown on /admin). A login
# may end a recently used session of a lower standing: whoever holds a shared PIN can fill the role's slots from
# 32 fresh browsers, and a known console or an enrolled tablet still gets in, ending a stranger's (the least
# recently used)
STRANGER, KNOWN, ENROLLED = 0, 1, 2
ABOUT_CHARS = {"name": 40, "addr": 64, "ua": 160}  # what /admin shows of a console, bounded


def _inline(write: Callable[[], None]) -> object:
    write()
    return None


_runner: Callable[[Callable[[], None]], object] = _inline


def run_writes_in(runner: Callable[[Callable[[], None]], object]) -> None:
    """Under gevent: the side files' fsyncs (sessions, PIN checks, the login guard) run in gevent's pool of real
    threads, as the journal's do: a login never holds the other connections (set once by the composition root)."""
    global _runner
    _runner = runner


def write_json(path: Path, data: dict) -> None:
    """Write ``data`` (mode 0600) through the hall's one durable writer: a power cut leaves the old file or the new."""
    _runner(lambda: durable_write_json(path, data))


def read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError, OSError):
        return {}
    return data if isinstance(data, dict) else {}


def ref(sid: str) -> str:
    """A session's public reference (8 hex characters): journalled beside a sale, shown on /admin, never usable."""
    return hashlib.sha256(sid.encode()).hexdigest()[:8]


def pin_fingerprint(secret: bytes, role: str, pin: str) -> str:
    """A keyed hash of the role's PIN: tells a changed PIN without keeping the PIN in the session file."""
    return hmac.new(secret, f"{role}:{pin}".encode(), hashlib.sha256).hexdigest()[:32]


class SessionTable:
    """The staff sessions: id → role, PIN fingerprint, last use (wall clock, seconds), the console's device, and what
    /admin shows of it (a first name typed at login, the address, the browser); the consoles /admin forgot."""

    def __init__(
        self,
        data_dir: Path,
        fingerprints: dict[str, str],
        idle_s: float,
        clock: Callable[[], float] = time.time,
        max_per_role: int = MAX_SESSIONS_PER_ROLE,
        forget_s: float = 18 * 3600.0,
    ):
        self.path = Path(data_dir) / SESSIONS_FILE
        self.idle_s, self.clock, self.max_per_role, self.forget_s = idle_s, clock, max_per_role, forget_s
        self._fingerprints = fingerprints
        self._lock = threading.Lock()
        self._persisted: dict[str, float] = {}
        self._listeners: list[Callable[[list[str]], None]] = []
        saved = read_json(self.path)
        raw = saved.get("sessions", {})
        now = clock()
        self._sessions: dict[str, dict] = {
            sid: s
            for sid, s in (raw.items() if isinstance(raw, dict) else ())
            if isinstance(s, dict)
            and s.get("role") in fingerprints
            and hmac.compare_digest(str(s.get("pin", "")), fingerprints[s["role"]])  # a changed PIN ends them
            and isinstance(s.get("seen"), (int, float))
            and now - s["seen"] < idle_s
        }
        forgotten = saved.get("forgotten", {})
        self._forgotten: dict[str, float] = {
            d: t
            for d, t in (forgotten.items() if isinstance(forgotten, dict) else ())
            if isinstance(d, str) and isinstance(t, (int, float)) and now - t < forget_s
        }
        if len(self._sessions) != len(raw if isinstance(raw, dict) else ()):
            self._save()

    def on_end(self, listener: Callable[[list[str]], None]) -> None:
        """Call ``listener(session_ids)`` after sessions end (outside the table's lock)."""
        self._listeners.append(listener)

    def _tell(self, ended: list[str]) -> None:
        if not ended:
            return
        for listener in self._listeners:
            try:
                listener(ended)
            except Exception:  # one failing listener must not keep a logout from answering
                log.exception("fin de session : un abonné a échoué")

    def _save(self) -> None:
        try:
            write_json(self.path, {"sessions": self._sessions, "forgotten": self._forgotten})
        except OSError as exc:
            log.error("sessions non enregistrées (%s) : %s", self.path, exc)

    def _drop(self, sids: list[str]) -> list[str]:
        for sid in sids:
            del self._sessions[sid]
            self._persisted.pop(sid, None)
        return sids

    def open(
        self,
        role: str,
        device: str | None = None,
        current: object = None,
        about: Mapping[str, str] | None = None,
        rank: int = STRANGER,
    ) -> str:
        """The session of ``role`` for this browser: ``current`` (its cookie's session) or the console ``device``'s
        when one lives for ``role``, else a new one (``about``: its name, address, browser; ``rank``: its standing,
        ``STRANGER``, ``KNOWN`` or ``ENROLLED``); returns its id. At the role's cap, the least recently used session
        of a lower standing ends, or one unused for ``RECENT_USE_S``; else ``Rejected("too_many_consoles")``."""
        opened: str | Rejected
        with self._lock:
            now = self.clock()
            ended = self._drop([sid for sid, s in self._sessions.items() if now - s["seen"] >= self.idle_s])
            mine = [
                sid
                for sid, s in self._sessions.items()
                if s["role"] == role and (sid == current or device is not None and s.get("dev") == device)
            ]
            if mine:
                opened = (
                    current
                    if isinstance(current, str) and current in mine
                    else max(mine, key=lambda k: self._sessions[k]["seen"])
                )
                self._touch(opened, now, force=bool(ended))
            else:
                opened = self._new(role, device, about, rank, now, ended)
        self._tell(ended)
        if isinstance(opened, Rejected):
            raise opened
        return opened

    def _new(
        self, role: str, device: str | None, about: Mapping[str, str] | None, rank: int, now: float, ended: list[str]
    ) -> str | Rejected:
        """A new session of ``role`` (under the lock), making room at the cap; the refusal when there is none.
        The sessions it ends to make room are added to ``ended``."""
        same = [(s.get("rank", STRANGER), s["seen"], k) for k, s in self._sessions.items() if s["role"] == role]
        # ended to make room: an idle one, or any of a lower standing (a stranger's, for a known console)
        free = sorted(e for e in same if e[0] < rank or now - e[1] >= RECENT_USE_S)
        over = max(0, len(same) + 1 - self.max_per_role)
        if len(free) < over:
            if ended:
                self._save()
            return Rejected("too_many_consoles", role=role, max=self.max_per_role)
        ended += self._drop([k for _, _, k in free[:over]])
        sid = secrets.token_urlsafe(18)
        shown = {k: str(v)[: ABOUT_CHARS[k]] for k, v in (about or {}).items() if k in ABOUT_CHARS and v}
        self._sessions[sid] = {
            "role": role,
            "pin": self._fingerprints[role],
            "seen": now,
            "opened": now,
            "rank": rank,
            **({"dev": device} if device else {}),
            **shown,
        }
        self._persisted[sid] = now
        self._save()
        return sid

    def _touch(self, sid: str, now: float, force: bool = False) -> None:
        self._sessions[sid]["seen"] = now
        if force or now - self._persisted.get(sid, 0.0) > TOUCH_PERSIST_S:
            self._persisted[sid] = now
            self._save()

    def role(self, sid: object) -> str | None:
        """The role of a live session (its idle time restarts), or ``None`` when it ended or never was."""
        if not isinstance(sid, str):
            return None
        with self._lock:
            s = self._sessions.get(sid)
            if s is None:
                return None
            now = self.clock()
            if now - s["seen"] < self.idle_s:
                self._touch(sid, now)
                return s["role"]
            self._drop([sid])
            self._save()
        self._tell([sid])
        return None

    def name(self, sid: object) -> str:
        """The first name typed at the login of session ``sid`` ("" when none, or no such session)."""
        with self._lock:
            s = self._sessions.get(sid) if isinstance(sid, str) else None
            return str(s.get("name", "")) if s else ""

    def close(self, sid: object) -> bool:
        """End the session ``sid``; returns whether there was one."""
        with self._lock:
            if not isinstance(sid, str) or sid not in self._sessions:
                return False
            self._drop([sid])
            self._save()
        self._tell([sid])
        return True

    def live(self) -> list[dict]:
        """Every live session as /admin lists it, the most recently used first: its reference, role, name, console,
        address, browser, when it opened and when it was last used (wall clock seconds)."""
        with self._lock:
            now = self.clock()
            rows = [
                {
                    "ref": ref(sid),
                    "role": s["role"],
                    "name": s.get("name", ""),
                    "addr": s.get("addr", ""),
                    "ua": s.get("ua", ""),
                    "device": ref(s["dev"]) if s.get("dev") else "",
                    "opened": s.get("opened", s["seen"]),
                    "seen": s["seen"],
                }
                for sid, s in self._sessions.items()
                if now - s["seen"] < self.idle_s
            ]
        return sorted(rows, key=lambda r: -r["seen"])

    def close_ref(self, reference: str, forget: bool = False) -> bool:
        """End the session whose reference is ``reference`` (/admin); with ``forget``, its console is no longer
        known either (it types a PIN again as a stranger, or is enrolled again). Returns whether there was one."""
        with self._lock:
            wanted = str(reference).encode("utf-8", "replace")
            found = [sid for sid in self._sessions if hmac.compare_digest(ref(sid).encode(), wanted)]
            if not found:
                return False
            if forget:
                now = self.clock()
                for sid in found:
                    if self._sessions[sid].get("dev"):
                        self._forgotten[self._sessions[sid]["dev"]] = now
                self._forgotten = {d: t for d, t in self._forgotten.items() if now - t < self.forget_s}
            self._drop(found)
            self._save()
        self._tell(found)
        return True

    def forgotten(self, device: str) -> bool:
        """Whether /admin forgot the console ``device`` (within a device cookie's life)."""
        with self._lock:
            at = self._forgotten.get(device)
            return at is not None and self.clock() - at < self.forget_s

    def end_role(self, role: str) -> int:
        """End every session of ``role`` (its PIN was changed on /admin); returns how many ended."""
        with self._lock:
            ended = self._drop([sid for sid, s in self._sessions.items() if s.get("role") == role])
            if ended:
                self._save()
        self._tell(ended)
        return len(ended)

    def __len__(self) -> int:
        return len(self._sessions)
