"""Known consoles: a signed, HttpOnly cookie set on a browser by a successful PIN login or an enrolment there.

The cookie names the browser (a random id) and the roles it opened, each with a keyed mark of that browser and role
(an HMAC of the web secret). It is signed with the web secret, so nobody can make one without typing a right PIN
on that browser or redeeming an enrolment code there, and readable by no script (HttpOnly, SameSite=Strict, Secure
under TLS). It lives one evening (``DEVICE_MAX_AGE_S``, renewed at each login), never months.

A console stays known when a role's PIN is changed on /admin (its sessions end, it types the new PIN and gets in at
once even while strangers are held): what /admin forgets is one console, by ending it (``SessionTable.forget``).
``display/login_guard.py`` says what a known console may do that a stranger may not.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from itsdangerous import BadSignature, URLSafeTimedSerializer

DEVICE_COOKIE = "loto_device"
DEVICE_MAX_AGE_S = 18 * 3600  # one evening, from the afternoon's set-up to the last voucher handed over
MAX_COOKIE_BYTES = 2048


@dataclass(frozen=True, slots=True)
class Device:
    id: str
    roles: dict[str, str] = field(default_factory=dict)  # role → mark of this browser for that role


class DeviceCookies:
    """Signs and reads the known-console cookie."""

    def __init__(self, secret: bytes):
        self._secret = secret
        self._signer = URLSafeTimedSerializer(secret, salt="loto-hall-device")

    def mark(self, role: str, device_id: str) -> str:
        """The mark of ``role`` on the browser ``device_id`` (a cookie of another hall, or an older one, has none)."""
        return hmac.new(self._secret, f"device:{role}:{device_id}".encode(), hashlib.sha256).hexdigest()[:16]

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

    def knowing(self, device: Device | None, role: str) -> Device:
        """``device`` (a new console when ``None``) now knowing ``role``."""
        device_id = device.id if device is not None else secrets.token_urlsafe(18)
        return Device(device_id, {**(device.roles if device else {}), role: self.mark(role, device_id)})
