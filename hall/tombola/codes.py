"""The signed code each tombola ticket carries, as the vouchers do (``hall/money/vouchers.py``): the ticket's number
and an HMAC of it with the hall's secret, so a ticket cannot be forged at the prize desk (``T0042-7KQ4M2AB``)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

MAC_CHARS = 8
_CODE = re.compile(r"^T(\d{4,6})-([A-Z2-7]{8})$")


def _mac(secret: bytes, authority: str, ticket: int) -> str:
    message = f"loto-hall-tombola:{authority}:{ticket}".encode()
    return base64.b32encode(hmac.new(secret, message, hashlib.sha256).digest()).decode()[:MAC_CHARS]


def ticket_code(secret: bytes, authority: str, ticket: int) -> str:
    """The code printed on ticket ``ticket`` of the tombola authorised as ``authority``."""
    return f"T{ticket:04d}-{_mac(secret, authority, ticket)}"


def check_ticket_code(secret: bytes, authority: str, code: str) -> int | None:
    """The ticket a genuine code carries, or ``None`` for a forged or malformed one."""
    m = _CODE.match("".join(code.split()).upper())
    if not m:
        return None
    ticket = int(m.group(1))
    return ticket if hmac.compare_digest(m.group(2), _mac(secret, authority, ticket)) else None
