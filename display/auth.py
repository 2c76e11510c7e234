"""Who is asking: PIN → role, signed tokens, cookie sessions with CSRF, PIN guessing held back.

Every token and cookie names a server-side session (``display/sessions.py``): logout, a changed PIN,
``[server] staff_idle_h`` without use and /admin end it. PIN attempts go through the guard
(``display/login_guard.py``): strangers are held by budgets per address and for everyone together, a known console
(``display/devices.py``) typing the PIN of a role it knows never is, and a new console comes in by an enrolment
code (``display/enrolment.py``), which no stranger's count delays. ``POST /api/login`` and ``POST /api/enrol``
take JSON only, so that no form of another web page can try PINs or codes.

Roles: ``speaker``, ``controller``, ``desk``, ``admin``. The API takes ``Authorization: Bearer TOKEN``;
the pages use the session cookie and send ``X-CSRF-Token`` with every change.
"""

from __future__ import annotations

import hmac
import secrets
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from flask import after_this_request, request, session
from itsdangerous import BadSignature, URLSafeTimedSerializer

from display.devices import DEVICE_COOKIE, DEVICE_MAX_AGE_S, Device, DeviceCookies
from display.enrolment import Enrolments
from display.login_guard import LoginGuard
from display.pins import PinBook
from display.services import services
from display.sessions import ENROLLED, KNOWN, STRANGER, SessionTable, pin_fingerprint
from display.staff_tls import secure_cookies
from hall import is_pin, load_or_create_secret
from hall.events import PinChanged
from hall.refusal import Rejected
from hall.rights import ROLES, STAFF, may

TOKEN_MAX_AGE_S = 30 * 24 * 3600  # the signature's own limit; the session table ends tokens much sooner
SECRET_FILE = "web.key"


def load_secret(data_dir: Path) -> bytes:
    """The web secret (session cookies, tokens, known consoles), made on first start in the data folder (0600)."""
    return load_or_create_secret(data_dir / SECRET_FILE)


class Auth:
    """The app's authentication state (one per app; ``display.services.Services.auth``)."""

    def __init__(
        self,
        pins: dict[str, str],
        secret: bytes,
        data_dir: Path | None = None,
        idle_s: float = 12 * 3600,
        changed: Callable[[], Mapping[str, PinChanged]] | None = None,
    ):
        if data_dir is None:
            data_dir = Path(tempfile.mkdtemp(prefix="loto-hall-auth-"))
        self.pins = pins
        self.book = PinBook(pins, secret, data_dir, changed)
        self.tokens = URLSafeTimedSerializer(secret, salt="loto-hall-token")
        self.devices = DeviceCookies(secret)
        fingerprints = {role: pin_fingerprint(secret, role, pin) for role, pin in pins.items()}
        self.sessions = SessionTable(data_dir, fingerprints, idle_s)
        self.guard = LoginGuard(data_dir)
        self.enrolments = Enrolments(secret, data_dir)
        self.guard.on_unlock(self.enrolments.from_pi)

    def role_for_pin(self, pin: str) -> str | None:
        return self.book.role_for(pin)

    def known_roles(self, device: Device | None) -> set[str]:
        """The roles a known console opened here (a PIN changed since keeps them; a console /admin ended and
        forgot has none)."""
        if device is None or self.sessions.forgotten(device.id):
            return set()
        return {
            role
            for role, mark in device.roles.items()
            if role in ROLES and hmac.compare_digest(mark, self.devices.mark(role, device.id))
        }

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
    return services().auth


MAX_NAME_CHARS = 40


def _line(value: object, limit: int) -> str:
    """One line of text as kept: printable characters only (no control, no format character), ``limit`` at most."""
    if not isinstance(value, str):
        return ""
    text = "".join(ch for ch in value[: 4 * limit] if ch.isprintable())
    return " ".join(text.split())[:limit]


def console_name(value: object) -> str:
    """A first name typed at login, as kept (it names the console on /admin and the seller at the caisse)."""
    return _line(value, MAX_NAME_CHARS)


def _about(name: object) -> dict[str, str]:
    """What /admin shows of a console that comes in: the name typed, its address, its browser."""
    return {
        "name": console_name(name),
        "addr": request.remote_addr or "",
        "ua": _line(request.headers.get("User-Agent", ""), 160),
    }


def login(pin, name: object = None) -> dict:
    """Check a PIN through the guard and open (or take up again) this browser's session; returns role, token
    and CSRF token, and marks the browser as a known console of that role."""
    a = auth()
    address = request.remote_addr or "?"
    device = a.devices.read(request.cookies.get(DEVICE_COOKIE))
    if device is not None and a.sessions.forgotten(device.id):
        device = None  # /admin ended and forgot this console: a stranger again
    known = a.known_roles(device)
    kind, key = ("device", device.id) if device else ("address", address)
    wait = max(a.guard.success_wait(kind, key), a.guard.device_wait(device.id) if device else 0)
    held = a.guard.stranger_wait(address)
    if wait or held and not known:
        # refused unchecked and uncounted: nobody makes a hold last longer by trying during it
        raise Rejected("too_many_attempts", retry_after=wait or held)
    if not is_pin(pin):
        raise Rejected("bad_pin")  # cannot be anyone's PIN: nothing compared, nothing counted
    role = a.book.role_for(pin, known if held else ROLES)
    if role is None:
        a.guard.failed(address, device.id if device else None, checked_all=not held)
        raise Rejected("bad_pin")
    # may be too_many_consoles: then no success is counted; a known console may end a stranger's session for its slot
    answer = let_in(role, device, name, KNOWN if role in known else STRANGER)
    a.guard.succeeded(kind, key)
    return answer


def enrol(code: object, name: object = None) -> dict:
    """Redeem an enrolment code (``display/enrolment.py``): this browser becomes a known console of the code's role,
    logged in; the answer is the login's, with the page that role opens."""
    a = auth()
    a.guard.poll_unlock()  # a code printed on the Pi a moment ago
    digest, role = a.enrolments.check(code, request.remote_addr or "?")
    device = a.devices.read(request.cookies.get(DEVICE_COOKIE))
    if device is not None and a.sessions.forgotten(device.id):
        device = None
    answer = let_in(role, device, name, ENROLLED)  # its code shown on /admin: never kept out by a stranger
    a.enrolments.consume(digest)
    return answer


def let_in(role: str, device: Device | None, name: object = None, rank: int = STRANGER) -> dict:
    """Open (or take up again) this browser's session of ``role`` (``rank``: its standing, display/sessions.py) and
    make it a known console of that role; returns role, token, CSRF token. Raises ``too_many_consoles`` when the
    role is full of consoles in use of the same standing or above."""
    a = auth()
    console = a.devices.knowing(device, role)
    current = session.get("sid")
    sid = a.sessions.open(role, console.id, current if session.get("role") == role else None, _about(name), rank)
    if sid != current:
        a.sessions.close(current)  # another role's session of this browser ends (and no fixation)
        session.clear()
        session["role"] = role
        session["sid"] = sid
        session["csrf"] = secrets.token_urlsafe(24)
    cookie = a.devices.dumps(console)

    @after_this_request
    def remember_console(resp):
        resp.set_cookie(
            DEVICE_COOKIE, cookie, max_age=DEVICE_MAX_AGE_S, httponly=True, samesite="Strict", secure=secure_cookies()
        )
        return resp

    return {"role": role, "token": a.make_token(role, sid), "csrf": csrf_token()}


def bearer_token() -> str | None:
    """The token sent as ``Authorization: Bearer TOKEN`` (a staff token or a room's seat token); ``None`` for no
    header, another scheme or an empty token."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def logout() -> None:
    """End the caller's sessions: the cookie's and the Bearer token's (a token logged out stops working)."""
    a = auth()
    token = bearer_token()
    if token:
        sid = a.token_session(token)
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
    if request.headers.get("Authorization", ""):
        token = bearer_token()
        role = None if token is None else auth().role_for_token(token)
        if role is None:
            raise Rejected("bad_token")
        return role
    role = auth().role_for_cookie() if session.get("role") in STAFF else None
    if role not in STAFF:
        return None
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        sent = request.headers.get("X-CSRF-Token", "")
        if not sent or not hmac.compare_digest(sent, session.get("csrf", "")):
            raise Rejected("csrf")
    return role


def require(*roles: str) -> str:
    """The caller's role if it is one of ``roles`` (admin always is); raises 401 or 403 otherwise."""
    role = request_role()
    if role is None:
        raise Rejected("unauthorized")
    if role != "admin" and role not in roles:
        raise Rejected("forbidden", role=role)
    return role


def require_right(right: str) -> str:
    """The caller's role if the rights table (``hall.rights``) gives it ``right``; raises 401 or 403 otherwise."""
    role = request_role()
    if role is None:
        raise Rejected("unauthorized")
    if not may(role, right):
        raise Rejected("forbidden", role=role)
    return role


def socket_session(auth_data) -> tuple[str | None, str | None]:
    """The role and session id of a connecting socket: its ``auth.token``, else the page's session cookie;
    ``(None, None)`` = public. Raises ``Rejected("bad_token")`` for a token that is present but not valid.
    """
    token = auth_data.get("token") if isinstance(auth_data, dict) else None
    a = auth()
    if token:
        sid = a.token_session(str(token))
        role = a.sessions.role(sid) if sid else None
        if role not in STAFF:
            raise Rejected("bad_token")
        return role, sid
    role = a.role_for_cookie() if session.get("role") in STAFF else None
    return (role, session.get("sid")) if role in STAFF else (None, None)
