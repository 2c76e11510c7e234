"""The one table of lots: what each kind needs on a carton, its terms (a named row, a ball limit), what it is
called, and the default programme.

Everything that asks which lines of a carton win a lot asks here (``lines_of``): the claim check
(``hall/loto/claims.py``), the winner watch (``hall/loto/watch.py``), the snapshots and the pages (the phones read each
lot's ``lines`` from the state, never a table of their own). A lot's terms (RULES L20–L21) are read and bounded
here for every door a lot comes in by (the config file, ``POST /api/programme``, ``POST /api/partie/start``).

The labels are the catalogue's message ids (French first); ``display/i18n.py`` translates them for a page,
and French-only outputs (the voucher, the PDF report) use them as they are.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from hall.events import Fallback, Kind, LotSpec
from hall.refusal import Code

ROWS = 3  # the lines of a carton, top to bottom (RULES L1)
ALL_ROWS: tuple[int, ...] = tuple(range(ROWS))
MAX_LABEL = 200  # a lot's label, donor, and a fallback's: as long as any other label
WITHIN = (15, 90)  # a maxi-bingo's ball limit: a carton plein needs 15 balls at least
MAX_VALUE_EUR = 100_000.0
TERMS = ("row", "within", "fallback")  # a lot's terms beside its kind, label, value and donor


@dataclass(frozen=True, slots=True)
class LotKind:
    kind: Kind  # the identifier in the journal, the config and the API
    lines: int  # complete lines a carton needs (RULES L6)
    label: str  # its name for people: the catalogue's message id (French)
    named_row: bool = False  # may name the one row that wins it (RULES L21)
    ball_limit: bool = False  # may be a maxi-bingo: a jackpot up to ball N, a fallback after (RULES L20)


KINDS: tuple[LotKind, ...] = (
    LotKind("quine", 1, "Quine", named_row=True),
    LotKind("double_quine", 2, "Double quine"),
    LotKind("carton_plein", 3, "Carton plein", ball_limit=True),
)
LOT_KINDS: tuple[Kind, ...] = tuple(k.kind for k in KINDS)
BY_KIND: Mapping[str, LotKind] = MappingProxyType({k.kind: k for k in KINDS})
KIND_LABELS: Mapping[str, str] = MappingProxyType({k.kind: k.label for k in KINDS})
DEFAULT_LOTS: tuple[LotSpec, ...] = tuple(LotSpec(k.kind, k.label) for k in KINDS)
"""The default programme's partie: every kind once, in order, named by its kind."""
KIND_RANK: Mapping[str, int] = MappingProxyType({k.kind: i for i, k in enumerate(KINDS)})
"""The order kinds play in within a partie (RULES L7, L19): quines, double quines, cartons pleins."""


@dataclass(frozen=True, slots=True)
class Lines:
    """Which lines of a carton win a lot: ``need`` complete lines among ``among`` (row indices from 0, top first)."""

    need: int
    among: tuple[int, ...] = ALL_ROWS


def lines_of(lot: LotSpec | str) -> Lines:
    """The lines that win ``lot`` (a lot, or a kind alone: any rows); ``ValueError`` for an unknown kind."""
    kind, row = (lot, None) if isinstance(lot, str) else (lot.kind, lot.row)
    found = _ANY_ROWS.get(kind)
    if found is None:
        raise ValueError(f"unknown lot kind {kind!r}; expected one of {LOT_KINDS}")
    return Lines(found.need, (row - 1,)) if row else found


_ANY_ROWS: Mapping[str, Lines] = MappingProxyType({k.kind: Lines(k.lines) for k in KINDS})


def kinds_table() -> dict[str, dict[str, object]]:
    """The table as the pages read it (boot data): each kind's lines and which terms it takes."""
    return {k.kind: {"lines": k.lines, "label": k.label, "row": k.named_row, "within": k.ball_limit} for k in KINDS}


@dataclass(frozen=True, slots=True)
class Prize:
    """What a lot gives when won after ``balls`` balls: the jackpot (or the lot itself), or a maxi-bingo's fallback."""

    label: str
    value_eur: float | None
    sponsor: str
    fallback: bool = False


def prize_at(lot: LotSpec, balls: int) -> Prize:
    """The prize of ``lot`` won on the ``balls``-th ball of the partie (RULES L20: the jackpot up to ball
    ``within``, the fallback from ball ``within`` + 1)."""
    if lot.within is not None and lot.fallback is not None and balls > lot.within:
        f = lot.fallback
        return Prize(f.label, f.value_eur, f.sponsor, True)
    return Prize(lot.label, lot.value_eur, lot.sponsor)


def balls_left(lot: LotSpec, balls: int) -> int | None:
    """How many more balls may be drawn with the jackpot still to win (0: the last one is out); ``None`` for a lot
    without a ball limit, or once the jackpot is lost."""
    if lot.within is None or balls > lot.within:
        return None
    return lot.within - balls


Said = tuple[tuple[str, Mapping[str, object]], ...]
"""Sentences to say: each a French message id of the catalogue and its parameters (a PDF says them translated)."""


def terms_of(lot: LotSpec) -> Said:
    """The lot's terms, to be said: « ligne 2 seulement », « en 45 boules, sinon : Jambon »; () for a plain lot."""
    if lot.row:
        return (("ligne %(n)s seulement", {"n": lot.row}),)
    if lot.within is not None and lot.fallback is not None:
        return (("en %(n)s boules, sinon : %(fallback)s", {"n": lot.within, "fallback": lot.fallback.label}),)
    return ()


def kind_label(kind: str) -> str:
    """The kind's French name (``quine`` → ``Quine``); an unknown kind as it is written."""
    found = BY_KIND.get(kind)
    return found.label if found else kind.replace("_", " ").capitalize()


def has_control_character(text: str) -> bool:
    """Whether ``text`` holds a C0 or C1 control character (tab and line breaks included): a lot's words are
    printed on the voucher, where such a byte is a printer command (``ESC p`` opens the cash drawer)."""
    return any(unicodedata.category(ch) == "Cc" for ch in text)


# ---- a lot's terms, read from whatever door it came in by ----------------------------------------------------
class LotTermsError(ValueError):
    """A lot's terms refused: ``code`` is the refusal's (``bad_lot_row``, ``bad_lot_within``,
    ``label_control_character``), ``why`` says it in French for the config file's problems."""

    def __init__(self, code: Code, why: str):
        super().__init__(why)
        self.code, self.why = code, why


def read_terms(kind: str, raw: Mapping[str, object]) -> dict[str, Any]:
    """The terms of a lot of ``kind`` sent as ``raw`` (``row``; ``within`` with ``fallback``), bounded, as
    ``LotSpec``'s keyword arguments; raises ``LotTermsError``. Absent or null terms are no terms."""
    found = BY_KIND.get(kind)
    row, within, fallback = raw.get("row"), raw.get("within"), raw.get("fallback")
    out: dict[str, Any] = {}
    if row is not None:
        if found is None or not found.named_row:
            raise LotTermsError("bad_lot_row", "une ligne imposée ne se donne qu'à une quine")
        if type(row) is not int or not 1 <= row <= ROWS:
            raise LotTermsError("bad_lot_row", f"ligne {str(row)[:10]} : 1, 2 ou 3")
        out["row"] = row
    if within is not None or fallback is not None:
        if found is None or not found.ball_limit:
            raise LotTermsError("bad_lot_within", "un maxi-bingo est un carton plein")
        low, high = WITHIN
        if type(within) is not int or not low <= within <= high:
            raise LotTermsError("bad_lot_within", f"nombre de boules {str(within)[:10]} : de {low} à {high}")
        out["within"], out["fallback"] = within, _fallback(fallback)
    return out


def check_lot(lot: LotSpec) -> None:
    """Refuse (``LotTermsError``) a lot whose terms ``read_terms`` would not have given: the core's own check of
    what any door hands it."""
    f = lot.fallback
    raw = {
        "row": lot.row,
        "within": lot.within,
        "fallback": None if f is None else {"label": f.label, "value_eur": f.value_eur, "sponsor": f.sponsor},
    }
    read_terms(lot.kind, raw)


def _fallback(raw: object) -> Fallback:
    if not isinstance(raw, Mapping):
        raise LotTermsError("bad_lot_within", "le lot de repli manque (libellé, valeur, donateur)")
    label, sponsor = raw.get("label"), raw.get("sponsor") or ""
    if (
        not isinstance(label, str)
        or not label.strip()
        or len(label) > MAX_LABEL
        or not isinstance(sponsor, str)
        or len(sponsor) > MAX_LABEL
    ):
        raise LotTermsError("bad_lot_within", f"lot de repli : un libellé de 1 à {MAX_LABEL} caractères")
    if has_control_character(label) or has_control_character(sponsor):
        raise LotTermsError("label_control_character", "lot de repli : caractère de contrôle")
    return Fallback(label.strip(), read_value(raw.get("value_eur"), "lot de repli"), sponsor.strip())


def read_value(value: object, where: str) -> float | None:
    """A lot's declared value: a number of euros (``"12,50"`` accepted) from 0 to 100 000, to the cent; ``None``
    when absent or empty; raises ``LotTermsError`` (``bad_lot``)."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        text = value
        try:
            value = float(text.replace(",", ".").strip())
        except ValueError:
            raise LotTermsError("bad_lot", f"{where} : valeur {text[:20]!r}, un nombre d'euros") from None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not 0 <= value <= MAX_VALUE_EUR
        or abs(round(value * 100) - value * 100) > 1e-6
    ):
        raise LotTermsError("bad_lot", f"{where} : valeur {str(value)[:20]!r}, de 0 à 100 000 €, au centime")
    return float(value)
