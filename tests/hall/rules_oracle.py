"""A brute-force oracle of a claim's verdict, written from RULES alone (docs/rules.md L6, L8, L9, L12, L12a, L20,
L21) and docs/loto-rules.md L12b (which reason a ``missed`` says), never from ``hall/loto/claims.py``: it enumerates
every claim a carton could make for a lot — a set of complete rows and which of them is the new one — and reads
the rules' words against each."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import combinations

NEED = {"quine": 1, "double_quine": 2, "carton_plein": 3}  # L6: one row, two rows of the same carton, all 15


def claims(rows: Sequence[Sequence[int]], drawn: set[int], kind: str, row: int | None) -> list[tuple[tuple, int]]:
    """Every (rows, new row) the carton holds for a lot of ``kind`` (L21: a named row alone counts)."""
    allowed = [row - 1] if row else [0, 1, 2]
    full = {r for r in range(3) if set(rows[r]) <= drawn}
    return [(s, new) for s in combinations(allowed, NEED[kind]) if set(s) <= full for new in s]


def verdict(
    rows: Sequence[Sequence[int]],
    draws: Sequence[int],
    kind: str,
    *,
    row: int | None = None,
    within: int | None = None,
    paid: Collection[int] = (),
    last_rule: bool = True,
) -> tuple[str, str, str]:
    """(verdict, reason, prize) for a carton claiming a lot after ``draws``; ``paid``: its rows paid for lots of
    this kind (L12a: only those)."""
    drawn, last = set(draws), (draws[-1] if draws else None)
    held = claims(rows, drawn, kind, row)
    good = [(s, new) for s, new in held if new not in paid and (not last_rule or last in rows[new])]
    if good:  # L8: the new row holds the last ball; L12/L12a: it was not paid for a lot of this kind
        prize = "" if within is None else ("jackpot" if len(draws) <= within else "fallback")  # L20
        return "valid", "", prize
    if any(last in rows[new] for _, new in held):  # the row the last ball completed: paid already for this kind
        return "missed", "row_already_paid", ""
    if any(new not in paid for _, new in held):  # L8/L9: complete before the last ball, its turn passed
        on_card = any(last in r for r in rows)
        return "missed", "last_not_in_rows" if on_card else "late", ""
    if held:  # only rows paid for this kind are complete: no new one (L12)
        return "incomplete", "row_already_paid", ""
    full = {r for r in range(3) if set(rows[r]) <= drawn}
    return "incomplete", "not_named_row" if row and full - {row - 1} else "", ""


def to_go(
    rows: Sequence[Sequence[int]], draws: Sequence[int], kind: str, row: int | None = None, paid: Collection[int] = ()
) -> int | None:
    """The fewest numbers still to come for a valid claim (the last of them completing the new row, never one paid
    for this kind), ``None`` when nothing to come can make the lot."""
    drawn = set(draws)
    allowed = [row - 1] if row else [0, 1, 2]
    gaps = {r: [n for n in rows[r] if n not in drawn] for r in range(3)}
    costs = [
        sum(len(gaps[r]) for r in s)
        for s in combinations(allowed, NEED[kind])
        if any(gaps[r] and r not in paid for r in s)
    ]
    return min(costs) if costs else None
