"""The partie's events: started with its lots (``LotSpec``, a maxi-bingo's ``Fallback``), the balls drawn and
undone, a claim announced and checked, a tie announced, the lot awarded, « démarquez »; and the draw resumed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias

Kind: TypeAlias = Literal["quine", "double_quine", "carton_plein"]
"""A lot's kind (INTERFACE §4): the names of hall/loto/lots.py's one table (``KINDS``; a test keeps both the same).
A kind read from outside (the config, the API, the journal) is checked against the table, then is one of these."""


@dataclass(frozen=True, slots=True)
class Fallback:
    """A maxi-bingo's lot from ball ``within`` + 1 on, when nobody won the jackpot in time (RULES L20)."""

    label: str
    value_eur: float | None = None
    sponsor: str = ""


@dataclass(frozen=True, slots=True)
class LotSpec:
    """A lot as announced: ``kind`` (a kind of hall/loto/lots.py's table), its ``label``, optional value in euros, and
    its terms: ``row`` (a quine on that row only, 1–3 from the top: RULES L21), ``within`` with ``fallback`` (a
    maxi-bingo: the jackpot up to ball ``within``, the fallback after: RULES L20). Which lines of a carton win it:
    ``hall.loto.lots.lines_of``. Journals written before the terms replay as lots without them."""

    kind: Kind
    label: str
    value_eur: float | None = None
    sponsor: str = ""
    row: int | None = None
    within: int | None = None
    fallback: Fallback | None = None


def lot_spec(**fields: Any) -> LotSpec:
    """A ``LotSpec`` from its journalled dict (the fallback a dict there too)."""
    fallback = fields.get("fallback")
    if isinstance(fallback, Mapping):
        fields["fallback"] = Fallback(**fallback)
    return LotSpec(**fields)


@dataclass(frozen=True, slots=True)
class PartieStarted:
    type: ClassVar[str] = "partie:started"
    number: int
    lots: tuple[LotSpec, ...]
    consolation: str
    planned: tuple[LotSpec, ...] = ()  # the programme's lots, kept only when the speaker changed them on the spot
    session: str = ""  # the console's login session that started it (``hall.loto.lots_played``)


@dataclass(frozen=True, slots=True)
class BallDrawn:
    type: ClassVar[str] = "draw:ball_drawn"
    number: int  # 1..90
    index: int  # position in the partie's draw log, from 0
    source: str = "console"


@dataclass(frozen=True, slots=True)
class DrawUndone:
    type: ClassVar[str] = "draw:undone"
    number: int
    index: int


@dataclass(frozen=True, slots=True)
class ClaimAnnounced:
    """Someone stood up: drawing stops until the speaker resumes or a lot is awarded (RULES L10)."""

    type: ClassVar[str] = "claim:announced"
    source: str = "console"


@dataclass(frozen=True, slots=True)
class DrawResumed:
    type: ClassVar[str] = "draw:resumed"


@dataclass(frozen=True, slots=True)
class ClaimChecked:
    type: ClassVar[str] = "claim:checked"
    card_id: str
    verdict: str  # valid, incomplete, missed, unknown_card, unsold_card, cancelled_card, closed
    lot_index: int | None
    lot_kind: Kind | None
    last: int | None
    rows: tuple[int, ...] = ()
    complete_rows: tuple[int, ...] = ()
    missing: tuple[int, ...] = ()
    reason: str = ""
    ball: int = 0  # how many balls were out (a maxi-bingo's jackpot is won up to its ball N)
    prize: str = ""  # a valid maxi-bingo: "jackpot" or "fallback" (RULES L20)


@dataclass(frozen=True, slots=True)
class TieBreakDraw:
    card_id: str
    number: int


@dataclass(frozen=True, slots=True)
class LotAwarded:
    type: ClassVar[str] = "lot:awarded"
    lot_index: int
    winners: tuple[str, ...]  # one card, or several when the lot is shared
    rows: tuple[tuple[int, ...], ...]  # the winning rows of each winner, same order
    tie_break: tuple[TieBreakDraw, ...]
    consolation: tuple[str, ...]
    last: int
    draw_index: int
    shared: bool = False
    tie_mode: str = ""  # how a tie was settled (hall/loto/ties.py): draw_lowest, physical_highest, share…; "" alone
    rank: int = 0  # a tie's draw gives the stage's lots in its order (docs L14b): 0 the best number, 1 the next…


@dataclass(frozen=True, slots=True)
class TieAnnounced:
    """How a tie on the open lot will be settled, said to the hall before the draw (docs/loto-rules.md L14c):
    ``draw`` (the hall's), ``physical`` (tokens drawn by hand, the numbers typed) or ``share``. Fixed once said: a
    change names the way it replaces (``previous``) and why (``reason``); the record says who (role, ``session``)."""

    type: ClassVar[str] = "tie:announced"
    lot_index: int
    draw_index: int
    cards: tuple[str, ...]
    method: str
    previous: str = ""
    reason: str = ""
    session: str = ""


@dataclass(frozen=True, slots=True)
class PartieCleared:
    """« Démarquez ! »: the partie is over; later claims are refused (RULES L16)."""

    type: ClassVar[str] = "partie:cleared"
    number: int
    forced: bool = False
    carried: bool = False  # the lots still unwon are played in the next partie
