"""Who is asking: PIN → role, signed tokens, cookie sessions with CSRF, PIN attempts rate-limited.

Every token and cookie names a server-side session (``display/sessions.py``): logout, a changed PIN and
``[server] staff_idle_h`` without use end it. PIN failures are limited per address and for every address
together (kept across a restart, logged with the address, never the PIN).

Roles: ``speaker``, ``controller``, ``desk``, ``admin``. The API takes ``Authorization: Bearer TOKEN``;
the pages use the session cookie and send ``X-CSRF-Token`` with every change.
"""
from __future__ import annotations

import hmac
import json
import logging
import os
import secrets
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from flask import current_app, request, session
from itsdangerous import BadSignature, URLSafeTimedSerializer

from display.errors import ApiError
from display.sessions import LoginGuard, SessionTable, pin_fingerprint
from hall.programme import pin_matches
from hall.rights import ROLES, STAFF, may
from hall.secretfile import load_or_create_secret

log = logging.getLogger("loto-hall.display")

TOKEN_MAX_AGE_S = 30 * 24 * 3600   # the signature's own limit; the session table ends tokens much sooner
PINS_FILE = "pins.json"
SECRET_FILE = "web.key"


def load_secret(data_dir: Path) -> bytes:
    """The web secret (session cookies, tokens), made on first start in the data folder (mode 0600)."""
    return load_or_create_secret(data_dir / SECRET_FILE)


def load_pins(config, data_dir: Path) -> dict[str, str]:
    """role → PIN: the config's ``[auth]`` PINs; an empty one is generated once and kept in ``pins.json``."""
    path = data_dir / PINS_FILE
    try:
        generated = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        generated = {}
    pins, made = {}, False
    for role in ROLES:
        pin = str(getattr(config.auth, f"{role}_pin", "") or "").strip()
        if not pin:
            pin = str(generated.get(role) or "")
            if not pin:
                pin, made = f"{secrets.randbelow(10**6):06d}", True
                generated[role] = pin
            log.warning("PIN %s non configuré : PIN généré, affiché sur /admin (fichier %s)", role, path)
        pins[role] = pin
    if made:
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(generated, fh)
    seen: dict[str, str] = {}
    for role, pin in pins.items():
        if pin in seen:
            log.warning("PIN partagé par %s et %s : il ouvre le rôle %s seulement", seen[pin], role, seen[pin])
        seen.setdefault(pin, role)
    return pins


class RateLimiter:
    """At most ``limit`` failed PINs per ``window_s`` from one address."""

    def __init__(self, limit: int = 5, window_s: float = 60.0, clock=time.monotonic):
        self.limit, self.window_s, self._clock = limit, window_s, clock
        self._fails: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def retry_after(self, key: str) -> int:
        """Seconds before ``key`` may try again (0 when it may)."""
        now = self._clock()
        with self._lock:
            recent = [t for t in self._fails.get(key, []) if now - t < self.window_s]
            self._fails[key] = recent
            if len(recent) < self.limit:
                return 0
            return max(1, int(self.window_s - (now - recent[0])) + 1)

    def failed(self, key: str) -> None:
        with self._lock:
            self._fails.setdefault(key, []).append(self._clock())

    def succeeded(self, key: str) -> None:
        with self._lock:
            self._fails.pop(key, None)


class Auth:
    """The app's authentication state (one per app; kept in ``app.extensions["loto_auth"]``)."""

    def __init__(self, pins: dict[str, str], secret: bytes, data_dir: Path | None = None, idle_s: float = 12 * 3600,
                 changed: Callable[[], Mapping[str, Any]] | None = None):
        self.pins = pins
        self.changed = changed or (lambda: {})   # role → PinChanged: PINs changed on /admin (journalled hashes)
        self.tokens = URLSafeTimedSerializer(secret, salt="loto-hall-token")
        self.limiter = RateLimiter()
        if data_dir is None:
            data_dir = Path(tempfile.mkdtemp(prefix="loto-hall-auth-"))
        fingerprints = {role: pin_fingerprint(secret, role, pin) for role, pin in pins.items()}
        self.sessions = SessionTable(data_dir, fingerprints, idle_s)
        self.guard = LoginGuard(data_dir)

    def role_for_pin(self, pin: str) -> str | None:
        found = None
        changed = self.changed()
        for role in ROLES:
            # compare every PIN (no early exit) so timing says nothing about which role matched
            ok = pin_matches(changed[role], pin) if role in changed else \
                hmac.compare_digest(pin.encode(), self.pins[role].encode())
            if ok and found is None:
                found = role
        return found

    def make_token(self, role: str, sid: str) -> str:
        return self.tokens.dumps({"role": role, "sid": sid})

    def token_session(self, token: str) -> str | None:
        """The session id a token names (signature checked), whether or not the session still lives."""
        try:
            data = self.tokens.loads(token, max_age=TOKEN_MAX_AGE_S)
        except BadSignature:
            return None
        return data.get("sid") if isinstance(data, dict) and isinstance(data.get("sid"), str) else None

    def role_for_token(self, token: str) -> str | None:
        """The role of a token whose session still lives (``None``: forged, logged out, PIN changed, idle)."""
        sid = self.token_session(token)
        role = self.sessions.role(sid) if sid else None
        return role if role in STAFF else None

    def role_for_cookie(self) -> str | None:
        """The role of the cookie session, when its server-side session still lives."""
        role = self.sessions.role(session.get("sid"))
        if role is None or role != session.get("role"):
            return None
        return role


def auth() -> Auth:
    return current_app.extensions["loto_auth"]


def login(pin) -> dict:
    """Check a PIN (rate-limited per address) and open a cookie session; returns role, token and CSRF token."""
    a = auth()
    key = request.remote_addr or "?"
    # Refused while locked without being checked nor counted: nobody can make a lock last longer.
    wait = max(a.limiter.retry_after(key), a.guard.retry_after())
    if wait:
        raise ApiError("too_many_attempts", retry_after=wait)
    role = a.role_for_pin(pin) if isinstance(pin, str) and 0 < len(pin) <= 64 else None
    if role is None:
        a.limiter.failed(key)
        a.guard.failed(key)
        raise ApiError("bad_pin")
    a.limiter.succeeded(key)
    a.sessions.close(session.get("sid"))
    session.clear()
    sid = a.sessions.open(role)
    session["role"] = role
    session["sid"] = sid
    session["csrf"] = secrets.token_urlsafe(24)
    return {"role": role, "token": a.make_token(role, sid), "csrf": session["csrf"]}


def logout() -> None:
    """End the caller's sessions: the cookie's and the Bearer token's (a token logged out stops working)."""
    a = auth()
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        sid = a.token_session(token.strip())
        if sid:
            a.sessions.close(sid)
    a.sessions.close(session.get("sid"))
    session.clear()


def csrf_token() -> str:
    """The session's CSRF token (made on first use) for the pages to send back."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def request_role() -> str | None:
    """The role of the current HTTP request: a Bearer token, else the session cookie (CSRF checked on changes)."""
    header = request.headers.get("Authorization", "")
    if header:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError("bad_token")
        role = auth().role_for_token(token.strip())
        if role is None:
            raise ApiError("bad_token")
        return role
    role = auth().role_for_cookie() if session.get("role") in STAFF else None
    if role not in STAFF:
        return None
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        sent = request.headers.get("X-CSRF-Token", "")
        if not sent or not hmac.compare_digest(sent, session.get("csrf", "")):
            raise ApiError("csrf")
    return role


def require(*roles: str) -> str:
    """The caller's role if it is one of ``roles`` (admin always is); raises 401 or 403 otherwise."""
    role = request_role()
    if role is None:
        raise ApiError("unauthorized")
    if role != "admin" and role not in roles:
        raise ApiError("forbidden", role=role)
    return role


def require_right(right: str) -> str:
    """The caller's role if the rights table (``hall.rights``) gives it ``right``; raises 401 or 403 otherwise."""
    role = request_role()
    if role is None:
        raise ApiError("unauthorized")
    if not may(role, right):
        raise ApiError("forbidden", role=role)
    return role


def socket_role(auth_data) -> str | None:
    """The role of a connecting socket: its ``auth.token``, else the page's session cookie; ``None`` = public.

    Raises ``ApiError("bad_token")`` for a token that is present but not valid.
    """
    token = auth_data.get("token") if isinstance(auth_data, dict) else None
    if token:
        role = auth().role_for_token(str(token))
        if role is None:
            raise ApiError("bad_token")
        return role
    role = auth().role_for_cookie() if session.get("role") in STAFF else None
    return role if role in STAFF else None
