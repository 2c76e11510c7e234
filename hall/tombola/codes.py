"""The signed code each tombola ticket carries, as the vouchers do (``hall/money/vouchers.py``): the ticket's number
and an HMAC of it with the hall's secret, so a ticket cannot be forged at the prize desk (``T0042-7KQ4M2AB``)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

from hall.money.vouchers import normalize_code

MAC_CHARS = 8
_CODE = re.compile(r"^T(\d{4,6})-([A-Z2-7]{8})$")
_IN_TEXT = re.compile(r"T\d{4,6}-[A-Z2-7]{8}")  # a ticket's code inside what a scanner read (a QR, a label…)
_VOUCHER_IN_TEXT = re.compile(r"\d{5,}-[A-Z2-7]{8}")
_LOOKS_TOMBOLA = re.compile(r"^T[OIL]*\d")  # a T then digits (an O typed for a 0…): a ticket, maybe mistyped
MAX_READ = 200  # characters of a scanned or typed text the prize desk reads


def _mac(secret: bytes, authority: str, ticket: int) -> str:
    message = f"loto-hall-tombola:{authority}:{ticket}".encode()
    return base64.b32encode(hmac.new(secret, message, hashlib.sha256).digest()).decode()[:MAC_CHARS]


def ticket_code(secret: bytes, authority: str, ticket: int) -> str:
    """The code printed on ticket ``ticket`` of the tombola authorised as ``authority``."""
    return f"T{ticket:04d}-{_mac(secret, authority, ticket)}"


def normalize_ticket_code(text: str) -> str:
    """A ticket's code as typed or scanned: spaces dropped, upper case, the dash put back, and the characters that
    look alike put right as in a voucher's code (``O``/``0`` in the number, ``0``/``O`` in the MAC)."""
    compact = "".join(text.split()).upper()
    if not compact.startswith("T"):
        return compact
    return "T" + normalize_code(compact[1:])


def read_prize_code(text: str) -> tuple[str, str]:
    """What the prize desk scanned or typed, by its own shape: ``("tombola", code)`` for a tombola ticket's
    (``T0042-7KQ4M2AB``, or a text that starts as one: a mistyped or forged ticket), else ``("voucher", code)``
    (``00042-7KQ4M2AB``: the voucher's own reader puts it right and suggests near codes). The one place the
    two shapes are told apart: /lots asks it (``POST /api/lots/read``) and never guesses."""
    compact = "".join(text[:MAX_READ].split()).upper()
    found = _IN_TEXT.search(compact)
    if found:
        return "tombola", found.group(0)
    voucher = _VOUCHER_IN_TEXT.search(compact)
    if voucher:
        return "voucher", voucher.group(0)
    if _LOOKS_TOMBOLA.match(compact):
        return "tombola", normalize_ticket_code(compact)[:40]
    return "voucher", text.strip().upper()[:40]


def check_ticket_code(secret: bytes, authority: str, code: str) -> int | None:
    """The ticket a genuine code carries, or ``None`` for a forged or malformed one."""
    m = _CODE.match(normalize_ticket_code(code))
    if not m:
        return None
    ticket = int(m.group(1))
    return ticket if hmac.compare_digest(m.group(2), _mac(secret, authority, ticket)) else None
