"""Card IDs: the generated form with its check character, the lenient reading of a typed ID, the claim's gate.

Generated card IDs look like ``A-00412B``: ``{SERIES}-{NNNNN}{C}``.
SERIES is 1–3 upper-case letters. NNNNN is the carton number, zero-padded to 5 digits; a number
above 99 999 simply takes more digits (and then never starts with 0). C is a check character:
Luhn mod N with N = 34 over the characters of SERIES + NNNNN (hyphen left out), in the alphabet
``0-9`` and ``A-Z`` without ``I`` and ``O`` (A = 10 … Z = 33), which are never used, in series or
check, so that a controller's typed ``O`` or ``I`` can only mean ``0`` or ``1`` (``normalize_card_id``
reads them so). A decimal check digit cannot protect a letter: 24 letters share 10 check values
(pigeonhole), so some mistyped letters would pass. With N = 34 the Luhn "doubling" is a permutation
of the 34 values, so EVERY single mistyped character is caught; an adjacent swap is caught too,
except the one pair 0↔Z (it can only occur between the last digit and C).
Any other ID of 1–32 characters ``A–Z a–z 0–9 -`` is accepted from a CSV without a check.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Callable

from hall.numbers import is_card_id

_ALPHABET = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I, no O: they read as 1 and 0
_N = len(_ALPHABET)
_VALUE = {ch: v for v, ch in enumerate(_ALPHABET)}
_SERIES = re.compile(r"[A-HJ-NP-Z]{1,3}")
_GENERATED = re.compile(r"([A-HJ-NP-Z]{1,3})-(\d{5}|[1-9]\d{5,})([0-9A-HJ-NP-Z])")
_TYPED = re.compile(r"([A-HJ-NP-Z]{1,3})-([0-9OI]{5,}[0-9A-Z])")
CARD_ID = re.compile(r"[A-Za-z0-9-]{1,32}")


def _luhn_sum(payload: str, double_last: bool) -> int:
    total = 0
    double = double_last
    for ch in reversed(payload):
        v = _VALUE[ch]
        if double:
            v *= 2
            v = v // _N + v % _N
        total += v
        double = not double
    return total


def _check_character(payload: str) -> str:
    return _ALPHABET[-_luhn_sum(payload, True) % _N]


def make_card_id(series: str, number: int) -> str:
    """Return the generated ID ``SERIES-NNNNNC`` of carton ``number`` (e.g. ``A-00412`` + check character)."""
    if not isinstance(series, str) or not _SERIES.fullmatch(series):
        raise ValueError(f"a series is 1 to 3 upper-case letters other than I and O, not {series!r}")
    if type(number) is not int or number < 0:
        raise ValueError(f"a carton number is a whole number ≥ 0, not {number!r}")
    digits = f"{number:05d}"
    if len(series) + len(digits) + 2 > 32:
        raise ValueError(f"carton number {number} too large for a 32-character ID")
    return f"{series}-{digits}{_check_character(series + digits)}"


def split_card_id(card_id: str) -> tuple[str, int] | None:
    """Return (series, number) of a generated-form ID (check character not verified), else None."""
    m = _GENERATED.fullmatch(card_id) if isinstance(card_id, str) else None
    return (m.group(1), int(m.group(2))) if m else None


def check_card_id(card_id: str) -> bool | None:
    """Return None when the text is not of the generated form, else whether its check character is right."""
    m = _GENERATED.fullmatch(card_id) if isinstance(card_id, str) else None
    if m is None:
        return None
    series, digits, check = m.groups()
    return _luhn_sum(series + digits + check, False) % _N == 0


_LENIENT = re.compile(r"([A-HJ-NP-Z]{1,3})([0-9OI]{5,}[0-9A-Z])")
_TYPING_NOISE = str.maketrans("", "", " \t\u00a0\u202f\u00b7._/")  # spaces, the shown form's gap, dots


def normalize_card_id(text: str) -> str:
    """Return the ID as stored, from the way people type it: spaces and dots dropped; a generated-form ID typed
    in lower case, without its dash, or with ``O``/``I`` for ``0``/``1`` is put right. Other IDs are only
    trimmed of spaces."""
    compact = "".join(text.split())
    upper = compact.translate(_TYPING_NOISE).upper()
    m = _LENIENT.fullmatch(upper.replace("-", "", 1) if upper.count("-") == 1 else upper)
    if m is None:
        return compact
    series, rest = m.groups()
    fixed = f"{series}-{rest[:-1].replace('O', '0').replace('I', '1')}{rest[-1].replace('O', '0').replace('I', '1')}"
    return fixed if _GENERATED.fullmatch(fixed) else compact


MAX_CARD_TEXT = 200  # characters of a typed, scanned or linked card ID read at all (the URL form included)
MAX_CLAIM_TEXT = MAX_CARD_TEXT
_URL_FORM = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://[^/\s]+)?/c/([^/?#\s]+)/?(?:[?#]\S*)?")
_SHORT = re.compile(r"([A-HJ-NP-Z]{1,3})-?(\d{1,5})")


def card_text(text: str) -> str:
    """The part of what was typed, scanned or linked that names a carton: the ID of the printed QR code's URL
    (``http://hall/c/A-00412B``), the ID inside a ``LOTO1:A-00412B:…`` label, else the text itself (trimmed)."""
    stripped = text.strip()
    url = _URL_FORM.fullmatch(stripped)
    if url:
        return url.group(1)
    if ":" in stripped and "//" not in stripped:
        for part in stripped.split(":"):
            if _GENERATED.fullmatch(normalize_card_id(part)):
                return part
    return stripped


def short_card_id(text: str) -> str | None:
    """The generated ID of the short number the door teaches (``D-2``, ``d2``, ``D-00002``: series and number,
    no check character), or None when the text is not of that form."""
    m = _SHORT.fullmatch("".join(text.split()).upper())
    return make_card_id(m.group(1), int(m.group(2))) if m else None


def read_card_id(text: str, known: Callable[[str], bool] | None = None) -> str:
    """The one reader of a card ID as people and machines give it, for every entry point (the claims, the
    controllers' scanner and camera, the caisse, the sales, the players' linking): the URL form
    ``…/c/{card_id}``, then the ID as typed (``normalize_card_id``: no dash, lower case, spaces, O/I for 0/1),
    then the short number ``D-2`` — resolved against ``known`` (the card book) when given: the first reading
    the book holds wins; with none, the short number's ID, else the typed reading (its near misses are found)."""
    if not isinstance(text, str) or len(text) > MAX_CARD_TEXT:
        return str(text)[:MAX_CARD_TEXT]
    piece = card_text(text)
    compact = "".join(piece.split())
    if known is not None and known(compact):
        return compact
    typed = normalize_card_id(piece)
    if known is not None and known(typed):
        return typed
    if check_card_id(typed):
        return typed
    short = short_card_id(piece)
    return typed if short is None else short


def claimable_card_id(text: object) -> bool:
    """Whether a claim's text, typed or scanned, can name a carton (INTERFACE §4): at most ``MAX_CARD_TEXT``
    characters that read (``read_card_id``) as a card ID. The one gate of every claim, whatever its source:
    ``=HYPERLINK(…)`` or ``-1-1`` is refused before the journal sees it."""
    return isinstance(text, str) and len(text) <= MAX_CARD_TEXT and is_card_id(read_card_id(text))


def display_card_id(card_id: str) -> str:
    """The ID as printed and shown: a generated ID with its check character set apart (``A-00412 K``, a no-break
    space), so it is never read as part of the number; other IDs unchanged. Typed back, it is the same ID."""
    m = _GENERATED.fullmatch(card_id) if isinstance(card_id, str) else None
    return f"{m.group(1)}-{m.group(2)}\u00a0{m.group(3)}" if m else card_id


_ID_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-"


def one_character_variants(card_id: str) -> set[str]:
    """Every text one keystroke from ``card_id``: one character changed, left out, added, or two neighbours swapped.

    About 130 × length texts whatever the size of the card book, so looking them up stays fast on 100 000 cartons.
    """
    out: set[str] = set()
    n = len(card_id)
    for i in range(n + 1):
        head, tail = card_id[:i], card_id[i:]
        for ch in _ID_CHARS:
            out.add(head + ch + tail)  # a character left out by the typist
            if i < n:
                out.add(head + ch + tail[1:])  # a character mistyped
        if i < n:
            out.add(head + tail[1:])  # a character typed twice or by mistake
        if i < n - 1:
            out.add(head + tail[1] + tail[0] + tail[2:])  # two neighbours swapped
    out.discard(card_id)
    return out


# ---- the carton's code: who holds the paper (« Mes cartons » shows a grid only to a phone that gives it)
CARD_CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY34679"  # no 0/O, 1/I/L, 2/Z, 5/S, 8/B: read on paper, typed on a phone
CARD_CODE_LENGTH = 5  # 23⁵ ≈ 6.4 million codes per carton
MAX_CARD_CODE_TEXT = 16


def card_code(secret: bytes, card_id: str) -> str:
    """The short code printed on carton ``card_id`` (in its QR code's link ``…/c/{card_id}?k={code}``): a keyed
    hash of the ID with the hall's secret, so no table is kept and no carton's code tells another's."""
    digest = hmac.new(secret, f"loto-hall-card:{card_id}".encode(), hashlib.sha256).digest()
    number = int.from_bytes(digest[:8], "big")
    chars = []
    for _ in range(CARD_CODE_LENGTH):
        number, rest = divmod(number, len(CARD_CODE_ALPHABET))
        chars.append(CARD_CODE_ALPHABET[rest])
    return "".join(chars)


FOLLOW_KEY_LENGTH = 24  # base32 characters of a carton's follow key (120 bits: never guessed)
MAX_FOLLOW_KEY = 32 + 1 + FOLLOW_KEY_LENGTH  # a card ID (INTERFACE §2: 32 at most), a dot, the key


def follow_key(secret: bytes, card_id: str) -> str:
    """The key a phone follows carton ``card_id`` with (« Mes cartons »): ``{card_id}.{mac}``, a keyed hash
    of the ID that the hall hands only to a phone that gave the printed code. Its verdicts go to the sockets that
    name it, through any relay (which cannot check it and need not: a key nobody was handed is followed by nobody)."""
    digest = hmac.new(secret, f"loto-hall-follow:{card_id}".encode(), hashlib.sha256).digest()
    return f"{card_id}.{base64.b32encode(digest[:15]).decode().lower()}"


def follow_key_card(secret: bytes, key: object) -> str | None:
    """The carton a follow key names, or ``None`` for anything else (constant time)."""
    if not isinstance(key, str) or len(key) > MAX_FOLLOW_KEY or "." not in key:
        return None
    card_id = key.rpartition(".")[0]
    return card_id if hmac.compare_digest(follow_key(secret, card_id).encode(), key.encode()) else None


def typed_card_code(text: object) -> str:
    """A carton's code as typed or linked: upper case, spaces and dashes out; "" for anything else."""
    if not isinstance(text, str) or len(text) > MAX_CARD_CODE_TEXT:
        return ""
    return "".join(ch for ch in text.upper() if ch.isalnum())
