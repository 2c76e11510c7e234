"""The verdict on a claimed carton: the heart of the rules (RULES L6–L9, L12; INTERFACE §4).

Pure: the carton, the numbers drawn in order, the lot's kind, the rows of this carton
already paid in this partie. No state, no I/O.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Protocol

from hall.lots import LOT_KINDS, ROWS_NEEDED

VALID, INCOMPLETE, MISSED = "valid", "incomplete", "missed"


class HasRows(Protocol):
    @property
    def rows(self) -> tuple[tuple[int, ...], ...]: ...


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the controller is told.

    ``kind``: ``valid``, ``incomplete`` or ``missed``. ``rows``: the rows (0–2) that make the lot
    when valid. ``complete_rows``: every complete row. ``missing``: the fewest numbers still to
    come for this lot. ``last``: the last number drawn. ``reason``: why a ``missed`` was missed
    (``"last_not_in_rows"`` or ``"row_already_paid"``).
    """

    kind: str
    rows: tuple[int, ...] = ()
    complete_rows: tuple[int, ...] = ()
    missing: tuple[int, ...] = ()
    last: int | None = None
    reason: str = ""


def verify(card: HasRows, draws: Sequence[int], lot_kind: str, last_rule: bool = True,
           paid_rows: frozenset[int] | set[int] = frozenset()) -> Verdict:
    """Return the verdict for ``card`` claiming a ``lot_kind`` lot after ``draws`` (in draw order).

    With the last-number rule, the lot needs a complete row that contains the last number drawn
    (a row holding the last ball and complete was completed by that very ball) and that was not
    already paid in this partie; the other rows of a double quine or carton plein may be older.
    Without the rule, any complete row not yet paid may be the new one.
    """
    if lot_kind not in ROWS_NEEDED:
        raise ValueError(f"unknown lot kind {lot_kind!r}; expected one of {LOT_KINDS}")
    needed = ROWS_NEEDED[lot_kind]
    drawn = set(draws)
    last = draws[-1] if draws else None
    complete = tuple(i for i, row in enumerate(card.rows) if drawn.issuperset(row))
    missing = _fewest_missing(card.rows, drawn, needed)
    if len(complete) < needed:
        return Verdict(INCOMPLETE, (), complete, missing, last)
    if last_rule:
        keys = [i for i in complete if last in card.rows[i]]
    else:
        keys = list(complete)
    fresh = [i for i in keys if i not in paid_rows]
    if not fresh:
        reason = "row_already_paid" if keys else "last_not_in_rows"
        return Verdict(MISSED, (), complete, (), last, reason)
    key = fresh[0]
    others = [i for i in complete if i != key][: needed - 1]
    return Verdict(VALID, tuple(sorted([key, *others])), complete, (), last)


def _fewest_missing(rows: Sequence[Sequence[int]], drawn: set[int], needed: int) -> tuple[int, ...]:
    """The smallest set of undrawn numbers that would complete ``needed`` rows."""
    gaps = [tuple(n for n in row if n not in drawn) for row in rows]
    best = min(combinations(gaps, needed), key=lambda combo: sum(len(g) for g in combo))
    return tuple(sorted(n for gap in best for n in gap))
