"""The evening's programme as edited on /admin, the "loto traditionnel" warnings, and PIN hashes.

Pure, stdlib only. The config file's ``[[programme.partie]]`` is the default; an edit journalled as
``programme:edited`` replaces the programme from the next partie on (a partie already started keeps
its lots). ``legal_flags`` says which lots go beyond the spirit of a loto traditionnel (French
Code de la sécurité intérieure, art. L322-4: prizes in kind, never money, never refunded).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from typing import TypeGuard

from hall.events import LotSpec, PinChanged, ProgrammeEdited, ProgrammePartie
from hall.loto.lots import LOT_KINDS, LotTermsError, has_control_character, read_terms, read_value
from hall.refusal import Code
from hall.rights import ROLES

MAX_PARTIES = 40
MAX_LOTS = 20
MAX_LABEL = 200
PIN_ITERATIONS = 100_000
PIN_ROLES = ROLES  # every staff role of the rights table has its PIN (and no other: device, system)
PIN_DIGITS = (6, 12)  # a PIN is 6 to 12 ASCII digits everywhere: config, /admin, generated, login
DEFAULT_LOT_VALUE_LIMIT_EUR = 0.0  # no cap: the law sets none since décret 2021-1434; a hall may set its own

# a prize in money: "100 €", "50 euros", "espèces", "chèque de 50", "cash", "billet de 20"
_CASH = re.compile(
    r"(\d\s*(€|eur\b|euros?\b))|\besp[eè]ces\b|\bcash\b|\bargent\b|\bbillets?\b|\bch[eè]que\s+de\b", re.IGNORECASE
)
_VOUCHER = re.compile(r"\bbons?\b|\bcarte[s]?\s+cadeau|\bch[eè]que[s]?[-\s]cadeau", re.IGNORECASE)


class ProgrammeError(ValueError):
    """A programme that cannot be played; ``where`` names the partie and lot (1-based), ``code`` is stable."""

    def __init__(self, code: Code, where: str, why: str):
        super().__init__(f"{where} : {why}")
        self.code, self.where, self.why = code, where, why


def parse_parties(raw: object) -> tuple[ProgrammePartie, ...]:
    """The parties of an edit sent as JSON (``[{"lots": [{kind, label, value_eur?, sponsor?}], "consolation"}]``)."""
    if not isinstance(raw, list) or not raw or len(raw) > MAX_PARTIES:
        raise ProgrammeError("bad_programme", "programme", f"de 1 à {MAX_PARTIES} parties")
    out = []
    for i, partie in enumerate(raw, 1):
        where = f"partie {i}"
        if not isinstance(partie, dict) or not isinstance(partie.get("lots"), list):
            raise ProgrammeError("bad_programme", where, "une partie a une liste de lots")
        lots = partie["lots"]
        if not 1 <= len(lots) <= MAX_LOTS:
            raise ProgrammeError("bad_programme", where, f"de 1 à {MAX_LOTS} lots")
        specs = [_lot(lot, f"{where}, lot {j}") for j, lot in enumerate(lots, 1)]
        consolation = partie.get("consolation", "") or ""
        if not isinstance(consolation, str) or len(consolation) > MAX_LABEL:
            raise ProgrammeError("bad_programme", where, "lot de consolation : un texte court")
        _printable_label(consolation, f"{where}, lot de consolation")
        out.append(ProgrammePartie(tuple(specs), consolation.strip()))
    return tuple(out)


def _lot(lot: object, where: str) -> LotSpec:
    if not isinstance(lot, dict):
        raise ProgrammeError("bad_lot", where, "un lot est un objet")
    kind = lot.get("kind")
    if kind not in LOT_KINDS:
        raise ProgrammeError("bad_lot", where, f"type {kind!r} : {', '.join(LOT_KINDS[:-1])} ou {LOT_KINDS[-1]}")
    label, sponsor = lot.get("label") or "", lot.get("sponsor") or ""
    if not isinstance(label, str) or not isinstance(sponsor, str) or len(label) > MAX_LABEL or len(sponsor) > MAX_LABEL:
        raise ProgrammeError("bad_lot", where, "libellé ou donateur : un texte court")
    _printable_label(label, where)
    _printable_label(sponsor, where)
    try:
        value = read_value(lot.get("value_eur"), "valeur")
        terms = read_terms(kind, lot)  # a named row, a ball limit and its fallback (RULES L20–L21)
    except LotTermsError as exc:
        raise ProgrammeError(exc.code, where, exc.why) from None
    return LotSpec(kind, label.strip() or kind.replace("_", " ").capitalize(), value, sponsor.strip(), **terms)


def _printable_label(text: str, where: str) -> None:
    """Refuse a label with a control character (``label_control_character``): it is printed on the voucher."""
    if has_control_character(text):
        raise ProgrammeError("label_control_character", where, "caractère de contrôle")


def spec_for(
    index: int, configured: Sequence[object], edit: ProgrammeEdited | None
) -> tuple[tuple[LotSpec, ...], str] | None:
    """The lots and consolation of partie ``index`` (from 0) per the latest edit; ``None``: the config decides."""
    if edit is None or index + 1 < edit.first:
        return None
    k = index + 1 - edit.first
    if k < len(edit.parties):
        p = edit.parties[k]
        return p.lots, p.consolation or "Lot de consolation"
    return None


def is_cash(text: str) -> bool:
    """Whether ``text`` names a prize in money (« 100 € », « espèces »…), a gift voucher (« bon d'achat ») not."""
    return bool(_CASH.search(text)) and not _VOUCHER.search(text)


def legal_flags(lot: LotSpec, limit_eur: float = DEFAULT_LOT_VALUE_LIMIT_EUR) -> list[str]:
    """What to look at twice in this lot: ``cash`` (a prize in money: the law forbids it), ``over_limit`` (above
    the cap the hall set itself, ``[sales] lot_value_limit_eur``; 0: none)."""
    flags = []
    if is_cash(f"{lot.label} {lot.sponsor}"):
        flags.append("cash")
    if lot.value_eur is not None and limit_eur and lot.value_eur > limit_eur:
        flags.append("over_limit")
    return flags


def hash_pin(role: str, pin: str, salt: bytes | None = None, iterations: int = PIN_ITERATIONS) -> PinChanged:
    """The event of a PIN change: PBKDF2-SHA256 of the PIN with a fresh salt (the PIN itself is never kept)."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)
    return PinChanged(role, salt.hex(), digest.hex(), iterations)


def pin_matches(changed: PinChanged, pin: str) -> bool:
    """Whether ``pin`` is the one hashed in ``changed`` (constant-time comparison)."""
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(changed.salt), changed.iterations)
    return hmac.compare_digest(digest.hex(), changed.digest)


def is_pin(text: object) -> TypeGuard[str]:
    """Whether ``text`` can be a PIN: 6 to 12 ASCII digits (a million PINs at least, against guessing)."""
    low, high = PIN_DIGITS
    return isinstance(text, str) and low <= len(text) <= high and text.isascii() and text.isdigit()


def check_pin(pin: object) -> str:
    """A PIN as accepted: 6 to 12 digits; raises ``ValueError`` otherwise."""
    if not is_pin(pin):
        low, high = PIN_DIGITS
        raise ValueError(f"un code PIN a de {low} à {high} chiffres")
    return pin
