"""The verdict on a claimed carton: the heart of the rules (RULES L6–L9, L12, L20–L21; INTERFACE §4).

Pure: the carton, the numbers drawn in order, the lot (which lines win it: ``hall.loto.lots.lines_of``), the rows
of this carton already paid in this partie. No state, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Protocol

from hall.events import LotSpec
from hall.loto.lots import ALL_ROWS, Lines, lines_of, prize_at

VALID, INCOMPLETE, MISSED = "valid", "incomplete", "missed"
JACKPOT, FALLBACK = "jackpot", "fallback"


class HasRows(Protocol):
    @property
    def rows(self) -> tuple[tuple[int, ...], ...]: ...


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the controller is told.

    ``kind``: ``valid``, ``incomplete`` or ``missed``. ``rows``: the rows (0–2) that make the lot
    when valid. ``complete_rows``: every complete row. ``missing``: the fewest numbers still to
    come for this lot. ``last``: the last number drawn. ``reason``: why a ``missed`` was missed
    (``"last_not_in_rows"`` or ``"row_already_paid"``), or why an ``incomplete`` was (``"not_named_row"``: another
    row than the lot's is complete with the last ball). ``ball``: how many balls were out. ``prize``: for a valid
    maxi-bingo, ``"jackpot"`` or ``"fallback"`` (RULES L20); else "".
    """

    kind: str
    rows: tuple[int, ...] = ()
    complete_rows: tuple[int, ...] = ()
    missing: tuple[int, ...] = ()
    last: int | None = None
    reason: str = ""
    ball: int = 0
    prize: str = ""


def verify(
    card: HasRows,
    draws: Sequence[int],
    lot: LotSpec | Lines | str,
    last_rule: bool = True,
    paid_rows: frozenset[int] | set[int] = frozenset(),
) -> Verdict:
    """Return the verdict for ``card`` claiming ``lot`` (a lot, its lines, or a kind: any rows) after ``draws``.

    With the last-number rule, the lot needs a complete row among the lot's lines that contains the last number
    drawn (a row holding the last ball and complete was completed by that very ball) and that was not already
    paid in this partie; the other rows of a double quine or carton plein may be older. Without the rule, any
    complete row of the lot's lines not yet paid may be the new one.
    """
    lines = lot if isinstance(lot, Lines) else lines_of(lot)
    need, among = lines.need, lines.among
    drawn = set(draws)
    last = draws[-1] if draws else None
    ball = len(draws)
    rows = card.rows
    complete = tuple(i for i, row in enumerate(rows) if drawn.issuperset(row))
    usable = complete if among is ALL_ROWS else tuple(i for i in complete if i in among)
    if len(usable) < need:
        missing = _fewest_missing([rows[i] for i in among], drawn, need)
        other = among is not ALL_ROWS and any(i not in among for i in complete)
        return Verdict(INCOMPLETE, (), complete, missing, last, "not_named_row" if other else "", ball)
    keys = [i for i in usable if last in rows[i]] if last_rule else usable
    fresh = [i for i in keys if i not in paid_rows]
    if not fresh:
        reason = "row_already_paid" if keys else "last_not_in_rows"
        return Verdict(MISSED, (), complete, (), last, reason, ball)
    key = fresh[0]
    others = [i for i in usable if i != key][: need - 1]
    prize = ""
    if isinstance(lot, LotSpec) and lot.within is not None:
        prize = FALLBACK if prize_at(lot, ball).fallback else JACKPOT
    return Verdict(VALID, tuple(sorted([key, *others])), complete, (), last, "", ball, prize)


def _fewest_missing(rows: Sequence[Sequence[int]], drawn: set[int], needed: int) -> tuple[int, ...]:
    """The smallest set of undrawn numbers that would complete ``needed`` of ``rows``."""
    gaps = [tuple(n for n in row if n not in drawn) for row in rows]
    best = min(combinations(gaps, needed), key=lambda combo: sum(len(g) for g in combo))
    return tuple(sorted(n for gap in best for n in gap))
