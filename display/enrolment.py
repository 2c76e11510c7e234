"""A way in for a new console that no stranger can close: one-time enrolment codes.

A console already in (the admin, or any role whose rights hold the new console's: the speaker for a controller)
asks for a code for a role (``POST /api/enrolments``); its page shows the code and a QR code of ``/ajout#CODE`` for
``CODE_TTL_S``. The new tablet scans it (or types the code on any login page) and becomes a known console of that
role, logged in. On the Pi, ``sudo loto-hall auth unlock`` prints one for the admin (``PI_CODE_TTL_S``): the hall
gets only its keyed digest, through ``login_unlock.json`` (``display/login_guard.py``).

Why strangers cannot close this door: a code is checked against no count that strangers share. A wrong code
counts for its own address only (``ADDRESS_TRIES``), and the codes are long enough for that: 23⁸ ≈ 7.8 × 10¹⁰
codes, at most ``MAX_LIVE`` live at once for a few minutes each, so even 1 000 addresses trying 10 codes a minute
for five minutes find one with probability under 10⁻⁵. Strangers' wrong PINs count elsewhere (the PIN guard), so
they never delay an enrolment. A code opens once; the Pi's codes that were used are kept (``enrolments.json``)
so that a restart within their life does not open them again.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

from display.login_guard import Budget
from display.sessions import read_json, write_json
from hall.refusal import Rejected
from hall.rights import RIGHTS, ROLES, may

CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY34679"  # no 0/O, 1/I/L, 2/Z, 5/S, 8/B: read aloud and typed on a tablet
CODE_LENGTH = 8
CODE_TTL_S = 300.0  # a code made on a console: five minutes
PI_CODE_TTL_S = 900.0  # a code printed on the Pi: the walk from the Pi to the new tablet
MAX_LIVE = 16  # codes live at once (the oldest goes first)
ADDRESS_TRIES = (10, 60.0)  # wrong codes one address may type in a minute
MAX_CODE_CHARS = 40
USED_FILE = "enrolments.json"


def may_enrol(by: str | None, role: str) -> bool:
    """Whether a console of role ``by`` may let in a console of ``role``: the admin any, another role one whose
    every right it holds itself (the speaker a controller or a speaker; the desk a desk)."""
    if by not in ROLES or role not in ROLES:
        return False
    if by == "admin":
        return True
    return role != "admin" and all(may(by, right) for right in RIGHTS.get(role, ()))


def enrollable(by: str | None) -> list[str]:
    """The roles a console of role ``by`` may let in, least rights first."""
    return [role for role in ROLES if may_enrol(by, role)]


def normal_code(text: object) -> str:
    """A code as typed: upper case, without spaces, dashes or the ``#`` of a link."""
    if not isinstance(text, str) or len(text) > MAX_CODE_CHARS:
        return ""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def code_digest(secret: bytes, code: str) -> str:
    """The keyed digest of a code (what ``login_unlock.json`` holds: the code itself is never written)."""
    return hmac.new(secret, f"enrol:{normal_code(code)}".encode(), hashlib.sha256).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def shown_code(code: str) -> str:
    """``ACDEFHJK`` as people read it: ``ACDE-FHJK``."""
    return f"{code[:4]}-{code[4:]}"


class Enrolments:
    """The live enrolment codes of one hall (by digest → role, end of life); every method takes its own lock."""

    def __init__(self, secret: bytes, data_dir: Path, clock: Callable[[], float] = time.time):
        self._secret = secret
        self.clock = clock
        self._lock = threading.Lock()
        self._live: dict[str, tuple[str, float]] = {}
        self._tries = Budget(*ADDRESS_TRIES)
        self._used_path = Path(data_dir) / USED_FILE
        used = read_json(self._used_path).get("used", {})
        self._used: dict[str, float] = {
            d: t
            for d, t in (used.items() if isinstance(used, dict) else ())
            if isinstance(d, str) and isinstance(t, (int, float))
        }

    def make(self, role: str) -> tuple[str, float]:
        """A new code for ``role`` and its end of life (wall clock)."""
        code = new_code()
        with self._lock:
            self._add(code_digest(self._secret, code), role, self.clock() + CODE_TTL_S)
        return code, self.clock() + CODE_TTL_S

    def _add(self, digest: str, role: str, until: float) -> None:
        now = self.clock()
        self._live = {d: v for d, v in self._live.items() if v[1] > now}
        self._live[digest] = (role, until)
        while len(self._live) > MAX_LIVE:
            del self._live[next(iter(self._live))]

    def from_pi(self, request: dict) -> None:
        """Take the code of an unlock request written on the Pi (``loto-hall auth unlock``), unless used already."""
        enrol = request.get("enrol")
        if not isinstance(enrol, dict):
            return
        digest, role, until = enrol.get("digest"), enrol.get("role"), enrol.get("until")
        if not isinstance(digest, str) or role not in ROLES or not isinstance(until, (int, float)):
            return
        until = min(float(until), self.clock() + PI_CODE_TTL_S)
        with self._lock:
            if digest not in self._used and until > self.clock():
                self._add(digest, role, until)

    def check(self, code: object, address: str) -> tuple[str, str]:
        """The (digest, role) of a live code; raises ``too_many_enrol_attempts`` (this address only) or
        ``enrol_code_wrong``. Nothing is used up: ``consume`` does it once the console is in."""
        with self._lock:
            now = self.clock()
            wait = self._tries.wait(address, now)
            if wait:
                raise Rejected("too_many_enrol_attempts", retry_after=wait)
            typed = normal_code(code)
            digest = code_digest(self._secret, typed) if typed else ""
            found = self._live.get(digest) if digest else None
            if found is None or found[1] <= now:
                self._tries.add(address, now)
                raise Rejected("enrol_code_wrong")
            return digest, found[0]

    def consume(self, digest: str) -> None:
        """The code was used: it opens nothing more, even after a restart."""
        with self._lock:
            _, until = self._live.pop(digest, ("", 0.0))
            now = self.clock()
            self._used = {d: t for d, t in self._used.items() if t > now}
            self._used[digest] = max(until, now + PI_CODE_TTL_S)
            try:
                write_json(self._used_path, {"used": self._used})
            except OSError:
                pass  # a code made on a console is in memory only; a Pi's code lives 15 minutes at most
