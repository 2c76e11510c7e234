"""The verdict on a claimed carton: the heart of the rules (RULES L6–L9, L12, L12a, L20–L21; INTERFACE §4).

Pure: the carton, the numbers drawn in order, the lot (which lines win it: ``hall.loto.lots.lines_of``), the rows
of this carton already paid in this partie **for lots of the lot's own kind** (RULES L12a: a quine's paid row never
stops a double quine or a carton plein). No state, no I/O. The claim desk, the speaker's watch and the players'
phones (``hall/loto/followed.py``) all read this one verdict.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final, Literal, Protocol

from hall.events import LotSpec
from hall.loto.lots import ALL_ROWS, Lines, lines_of, prize_at

# The outcomes as types mypy checks (python-chess's ``Termination`` is the model): a verdict's kind, why, its prize.
VerdictKind = Literal["valid", "incomplete", "missed"]
Reason = Literal["", "late", "last_not_in_rows", "row_already_paid", "not_named_row"]
Prize = Literal["", "jackpot", "fallback"]
VALID: Final = "valid"
INCOMPLETE: Final = "incomplete"
MISSED: Final = "missed"
JACKPOT: Final = "jackpot"
FALLBACK: Final = "fallback"
LATE: Final = "late"
LAST_NOT_IN_ROWS: Final = "last_not_in_rows"
ROW_ALREADY_PAID: Final = "row_already_paid"
NOT_NAMED_ROW: Final = "not_named_row"
MISSED_REASONS: tuple[Reason, ...] = (ROW_ALREADY_PAID, LATE, LAST_NOT_IN_ROWS)
"""Why a ``missed`` was missed, in the order they are looked for (docs/loto-rules.md L12b): a complete row that counts
holds the last ball but was paid for this kind of lot; the last ball is not on the carton at all (complete before it:
« trop tard »); the last ball is on the carton, but on none of the complete rows that count."""


class HasRows(Protocol):
    @property
    def rows(self) -> tuple[tuple[int, ...], ...]: ...


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the controller is told, and what a player's phone shows for its carton.

    ``kind``: ``valid``, ``incomplete`` or ``missed``. ``rows``: the rows (0–2) that make the lot when valid.
    ``complete_rows``: every complete row. ``missing``: for an ``incomplete``, the fewest numbers still to come
    for a valid claim. ``to_go``: the same for any verdict but ``valid`` (a ``missed`` carton may still win the lot
    with another row: « plus qu'un »); empty when nothing can make the lot any more. ``last``: the last number drawn.
    ``reason``: why a ``missed`` was missed (``MISSED_REASONS``); why an ``incomplete`` was, when a row is complete
    (``not_named_row``: another row than the lot's; ``row_already_paid``: the complete rows were paid for this kind).
    ``ball``: how many balls were out. ``prize``: for a valid maxi-bingo, ``"jackpot"`` or ``"fallback"`` (RULES
    L20); else "".
    """

    kind: VerdictKind
    rows: tuple[int, ...] = ()
    complete_rows: tuple[int, ...] = ()
    missing: tuple[int, ...] = ()
    last: int | None = None
    reason: Reason = ""
    ball: int = 0
    prize: Prize = ""
    to_go: tuple[int, ...] = ()


def verify(
    card: HasRows,
    draws: Sequence[int],
    lot: LotSpec | Lines | str,
    last_rule: bool = True,
    paid_rows: Collection[int] = frozenset(),
) -> Verdict:
    """Return the verdict for ``card`` claiming ``lot`` (a lot, its lines, or a kind: any rows) after ``draws``;
    ``paid_rows``: the carton's rows already paid for lots of this lot's kind in this partie (RULES L12a).

    With the last-number rule, the lot needs its lines complete (``need`` rows among the lot's), one of them — the
    new one — holding the last number drawn and not yet paid for this kind (a complete row holding the last ball
    was completed by that very ball); the others may be older, paid or not (L9). Without the rule, any complete row
    of the lot's lines not yet paid for this kind may be the new one.
    """
    lines = lot if isinstance(lot, Lines) else lines_of(lot)
    need, among = lines.need, lines.among
    drawn = set(draws)
    last = draws[-1] if draws else None
    ball = len(draws)
    rows = card.rows
    complete = tuple(i for i, row in enumerate(rows) if drawn.issuperset(row))
    counting = complete if among is ALL_ROWS else tuple(i for i in complete if i in among)
    fresh = [i for i in counting if i not in paid_rows]
    on_last = [i for i in counting if last in rows[i]]
    to_go = _to_go(rows, among, need, drawn, paid_rows)
    if len(counting) >= need:
        won = _made(lot, card, counting, fresh, on_last, last_rule, need, last, ball, complete, to_go)
        if won is not None:
            return won
    reason: Reason
    if len(counting) >= need and not fresh:
        reason = ROW_ALREADY_PAID  # the complete rows that count were paid for this kind: no new one (L12)
    elif among is not ALL_ROWS and any(i not in among for i in complete):
        reason = NOT_NAMED_ROW
    else:
        reason = ""
    return Verdict(INCOMPLETE, (), complete, to_go, last, reason, ball, to_go=to_go)


def _made(
    lot: LotSpec | Lines | str,
    card: HasRows,
    counting: tuple[int, ...],
    fresh: list[int],
    on_last: list[int],
    last_rule: bool,
    need: int,
    last: int | None,
    ball: int,
    complete: tuple[int, ...],
    to_go: tuple[int, ...],
) -> Verdict | None:
    """The verdict of a carton whose rows that count make the lot: valid with a new row (on the last ball under
    the rule), else missed and why; ``None`` when no row may be the new one and the lot was not there before."""
    keys = [i for i in fresh if i in on_last] if last_rule else fresh
    if keys:
        key = keys[0]
        others = [i for i in counting if i != key][: need - 1]
        prize: Prize = ""
        if isinstance(lot, LotSpec) and lot.within is not None:
            prize = FALLBACK if prize_at(lot, ball).fallback else JACKPOT
        return Verdict(VALID, tuple(sorted([key, *others])), complete, (), last, "", ball, prize)
    if on_last:  # the row the last ball completed was paid for a lot of this kind (on this very ball)
        return Verdict(MISSED, (), complete, (), last, ROW_ALREADY_PAID, ball, to_go=to_go)
    if fresh:  # the lot was there before the last ball: its turn passed (L8, L9)
        on_card = any(last in row for row in card.rows)
        return Verdict(MISSED, (), complete, (), last, LAST_NOT_IN_ROWS if on_card else LATE, ball, to_go=to_go)
    return None


def _to_go(
    rows: Sequence[Sequence[int]], among: Sequence[int], need: int, drawn: set[int], paid: Collection[int]
) -> tuple[int, ...]:
    """The smallest set of undrawn numbers that would make a valid claim of ``need`` of the rows ``among``: the
    last of them completes a row still incomplete and never paid for this kind (the new one), the others may be
    complete already. Empty when nothing to come can make the lot (every row that counts is complete)."""
    gaps = {i: tuple(n for n in rows[i] if n not in drawn) for i in among}
    combos = [c for c in combinations(among, need) if any(gaps[i] and i not in paid for i in c)]
    if not combos:
        return ()
    best = min(combos, key=lambda c: sum(len(gaps[i]) for i in c))
    return tuple(sorted(n for i in best for n in gaps[i]))
