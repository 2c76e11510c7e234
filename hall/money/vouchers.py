"""Voucher codes that cannot be forged: a serial number and an HMAC of it with the hall's secret.

The code is short enough to type at the prize desk (``00042-7KQ4M2AB``) and rides in the
voucher's QR code. No ESC/POS here (``drivers/printer.py`` prints).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Iterable

_CODE = re.compile(r"^(\d{5,})-([A-Z2-7]{8})$")
MAC_CHARS = 8  # 40 bits: guessing one valid code takes about 10^12 tries at the desk


def _mac(secret: bytes, serial: int) -> str:
    digest = hmac.new(secret, f"loto-hall-voucher:{serial}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode()[:MAC_CHARS]


def make_code(secret: bytes, serial: int) -> str:
    """The voucher code of ``serial`` signed with ``secret``."""
    return f"{serial:05d}-{_mac(secret, serial)}"


_DIGIT_FOR = str.maketrans("OIL", "011")  # in the serial: O for 0, I or L for 1
_LETTER_FOR = str.maketrans("0189", "OIBG")  # in the MAC (base 32: A–Z, 2–7): 0 for O, 1 for I…


def normalize_code(text: str) -> str:
    """The code as typed or scanned: spaces dropped, upper case, the dash put back, and in each part the character
    that looks like the one it must be (``O``/``0``, ``I``/``1``)."""
    compact = "".join(text.split()).upper().replace("\u00b7", "").replace(".", "")
    serial, dash, mac = compact.rpartition("-")
    if not dash and len(compact) > MAC_CHARS:
        serial, mac = compact[:-MAC_CHARS], compact[-MAC_CHARS:]
    elif not dash:
        return compact
    serial, mac = serial.replace("-", "").translate(_DIGIT_FOR), mac.translate(_LETTER_FOR)
    return f"{serial}-{mac}" if serial.isdigit() and len(mac) == MAC_CHARS else compact


def near_codes(code: str, issued: Iterable[str]) -> list[str]:
    """The issued codes one character away from ``code`` (changed, missing, added, or two swapped), sorted."""
    return sorted(c for c in issued if c != code and _one_edit(code, c))[:5]


def _one_edit(a: str, b: str) -> bool:
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long_[k]), len(short))
    return short[i:] == long_[i + 1 :]


def check_code(secret: bytes, code: str) -> int | None:
    """The serial a genuine code carries, or ``None`` for a forged, altered or malformed code."""
    m = _CODE.match(normalize_code(code))
    if not m:
        return None
    serial = int(m.group(1))
    return serial if hmac.compare_digest(m.group(2), _mac(secret, serial)) else None
