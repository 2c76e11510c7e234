"""Voucher codes that cannot be forged: a serial number and an HMAC of it with the hall's secret.

The code is short enough to type at the prize desk (``00042-7KQ4M2AB``) and rides in the
voucher's QR code. No ESC/POS here (``drivers/printer.py`` prints).
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import re

_CODE = re.compile(r"^(\d{5,})-([A-Z2-7]{8})$")
MAC_CHARS = 8   # 40 bits: guessing one valid code takes about 10^12 tries at the desk


def _mac(secret: bytes, serial: int) -> str:
    digest = hmac.new(secret, f"loto-hall-voucher:{serial}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode()[:MAC_CHARS]


def make_code(secret: bytes, serial: int) -> str:
    """The voucher code of ``serial`` signed with ``secret``."""
    return f"{serial:05d}-{_mac(secret, serial)}"


def normalize_code(text: str) -> str:
    """The code as typed or scanned, trimmed and upper-cased."""
    return text.strip().upper().replace(" ", "")


def check_code(secret: bytes, code: str) -> int | None:
    """The serial a genuine code carries, or ``None`` for a forged, altered or malformed code."""
    m = _CODE.match(normalize_code(code))
    if not m:
        return None
    serial = int(m.group(1))
    return serial if hmac.compare_digest(m.group(2), _mac(secret, serial)) else None
