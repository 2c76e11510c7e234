"""Known consoles: a signed, long-lived, HttpOnly cookie set by a successful PIN login on a browser.

The cookie names the browser (a random id) and the roles it opened, each with a mark of the PIN of the time
(an HMAC of the web secret: it tells nothing of the PIN). It is signed with the web secret, so nobody can make
one without typing a right PIN on that browser, and readable by no script (HttpOnly, SameSite=Strict, Secure
under TLS). A role whose PIN was changed since is no longer known by the cookie. ``display/login_guard.py``
says what a known console may do that a stranger may not.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from itsdangerous import BadSignature, URLSafeTimedSerializer

DEVICE_COOKIE = "loto_device"
DEVICE_MAX_AGE_S = 400 * 24 * 3600     # browsers keep a cookie at most 400 days
MAX_COOKIE_BYTES = 2048


@dataclass(frozen=True, slots=True)
class Device:
    id: str
    roles: dict[str, str] = field(default_factory=dict)    # role → mark of its PIN when it was opened here


class DeviceCookies:
    """Signs and reads the known-console cookie."""

    def __init__(self, secret: bytes):
        self._secret = secret
        self._signer = URLSafeTimedSerializer(secret, salt="loto-hall-device")

    def mark(self, role: str, pin_state: str) -> str:
        """The mark of ``role``'s current PIN (``pin_state``: the config PIN or the hash journalled on /admin)."""
        return hmac.new(self._secret, f"device:{role}:{pin_state}".encode(), hashlib.sha256).hexdigest()[:16]

    def read(self, value: str | None) -> Device | None:
        """The console a cookie names, or ``None`` (absent, forged, too old, malformed)."""
        if not value or len(value) > MAX_COOKIE_BYTES:
            return None
        try:
            data = self._signer.loads(value, max_age=DEVICE_MAX_AGE_S)
        except BadSignature:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("d"), str) or not isinstance(data.get("r"), dict):
            return None
        roles = {r: m for r, m in data["r"].items() if isinstance(r, str) and isinstance(m, str)}
        return Device(data["d"], roles)

    def dumps(self, device: Device) -> str:
        return self._signer.dumps({"d": device.id, "r": device.roles})


def knowing(device: Device | None, role: str, mark: str) -> Device:
    """``device`` (a new console when ``None``) now knowing ``role`` with its PIN's ``mark``."""
    if device is None:
        return Device(secrets.token_urlsafe(18), {role: mark})
    return Device(device.id, {**device.roles, role: mark})
