"""Every number the hall takes in (counts, amounts, ranges, IDs, ball numbers) is read here, once.

One notion of a digit: ASCII ``0``–``9`` only. ``int()`` would also read ``"٣"``, ``"３"``, ``"²"``,
``"+4"``, ``" 4_2"``; ``float()`` would read ``"nan"`` and ``"inf"``, which no browser can parse back
(a bare ``NaN`` in a JSON answer blinds every screen). Each reader returns a plain ``int``/``float`` or
raises ``InvalidNumber`` (a ``ValueError``) quoting the bad input; callers turn that into their own
refusal (a 422 at the web's edge, a config problem, a CLI message).
"""

from __future__ import annotations

import math
import re

from hall.errors import InvalidNumber

MAX_DIGITS = 12  # no count, ID number or amount of the hall needs more
MAX_EUR = 1_000_000.0  # a lot worth more than a million euros is a typing error
_CARD_ID = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,30}[A-Za-z0-9])?")
_HAS_LETTER = re.compile(r"[A-Za-z]")


def is_ascii_digits(text: object) -> bool:
    """Whether ``text`` is a non-empty string of ASCII digits ``0``–``9`` (nothing else)."""
    return isinstance(text, str) and 0 < len(text) and text.isascii() and text.isdigit()


def parse_int(value: object, low: int, high: int, name: str = "nombre") -> int:
    """The integer ``value`` (an ``int`` or ASCII-digit text, spaces around allowed) within ``low..high``.

    Raises ``InvalidNumber`` for a bool, a float, any other digit system, a sign, or a value out of bounds.
    """
    if type(value) is int:
        n = value
    elif isinstance(value, str) and is_ascii_digits(value.strip()) and len(value.strip()) <= MAX_DIGITS:
        n = int(value.strip())
    else:
        raise InvalidNumber(f"{name} : {str(value)[:40]!r} n'est pas un nombre entier écrit en chiffres 0-9")
    if not low <= n <= high:
        raise InvalidNumber(f"{name} : {n} hors des bornes {low}..{high}")
    return n


def parse_amount(value: object, low: float = 0.0, high: float = MAX_EUR, name: str = "montant") -> float:
    """A finite amount (``int`` or ``float``, never a bool, NaN or infinity) within ``low..high``.

    Raises ``InvalidNumber`` otherwise.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidNumber(f"{name} : {str(value)[:40]!r} n'est pas un montant")
    amount = float(value)
    if not math.isfinite(amount):
        raise InvalidNumber(f"{name} : {value!r} n'est pas un montant fini")
    if not low <= amount <= high:
        raise InvalidNumber(f"{name} : {value!r} hors des bornes {low:g}..{high:g}")
    return amount


def is_card_id(text: object) -> bool:
    """Whether ``text`` is a card ID (INTERFACE §2): 1–32 of ``A–Z a–z 0–9 -``, starting and ending with a
    letter or digit, no ``--``, and digits only (``12``) or holding a letter when it has a dash (``1-1`` and
    ``-1-1`` are not IDs: they read as ranges or negative numbers in a spreadsheet)."""
    if not isinstance(text, str) or not _CARD_ID.fullmatch(text) or "--" in text:
        return False
    return "-" not in text or bool(_HAS_LETTER.search(text))
