"""OSGA progressive movement: session openings and who moves where after a game (RULES E22, E23).

A table seats four players as ``(N, E, S, W)``; N–S are partners against E–W. Tables are circular:
"up" from the last table is the first. The player of a pair sitting N or E is the one who moves up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

N, E, S, W = range(4)


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where: one ``(N, E, S, W)`` tuple of player ids per table, table 1 first."""

    tables: tuple[tuple[str, str, str, str], ...]

    def pairs(self, table: int) -> tuple[tuple[str, str], tuple[str, str]]:
        """Return the two partnerships at ``table``: (N, S) and (E, W)."""
        seats = self.tables[table]
        return (seats[N], seats[S]), (seats[E], seats[W])

    def players(self) -> list[str]:
        """Return every seated player, table by table."""
        return [p for table in self.tables for p in table]


def session_start(teams: Sequence[tuple[str, str]], session: int) -> Seating:
    """Return the first game of a session: district partners together, opponents shifted by the session (E23).

    ``teams`` is the (even) list of partnerships. Team ``k`` sits N–S at table ``k``; its opponents are
    team ``T + (k + session) mod T``, so each session opens against different opponents while T > 1.
    """
    if len(teams) % 2 or not teams:
        raise ValueError(f"a session needs an even, non-zero number of teams, not {len(teams)}")
    count = len(teams) // 2
    tables = []
    for k in range(count):
        home, away = teams[k], teams[count + (k + session) % count]
        tables.append((home[0], away[0], home[1], away[1]))
    return Seating(tuple(tables))


def winners_of(ns_points: int, ew_points: int) -> int:
    """Return the pair that counts as the winners for the movement: N–S (0) or E–W (1).

    A tie moves N–S as if they had won (our decision: the movement needs one moving pair).
    """
    return 1 if ew_points > ns_points else 0


def _split(table: tuple[str, ...], pair: int) -> tuple[str, str]:
    """Return ``(up, down)``: the player of ``pair`` in N or E moves up, the partner moves down."""
    return (table[N], table[S]) if pair == 0 else (table[E], table[W])


def _seated(table: list[str | None]) -> tuple[str, str, str, str]:
    """Return a table whose four seats the movement filled, as ``(N, E, S, W)``."""
    n, e, s, w = table
    assert n is not None and e is not None and s is not None and w is not None, "a seat left empty"
    return (n, e, s, w)


def next_seating(seating: Seating, results: Sequence[tuple[int, int]], first_of_session: bool) -> Seating:
    """Return the seating for the next game from each table's ``(ns_points, ew_points)`` (E22).

    Normal game: the winners split (up 1 and down 1); the losers stay and split, the one from N or E
    keeps N, the other takes E; the arrival from below sits S, the one from above sits W.
    After a session's first game: winners split ±2 and losers ±1, so every table is refilled from four
    other tables (with at least 5 tables nobody meets a game-1 partner or opponent again).
    """
    count = len(seating.tables)
    if len(results) != count:
        raise ValueError(f"expected a result for each of the {count} tables, got {len(results)}")
    new: list[list[str | None]] = [[None] * 4 for _ in range(count)]
    win_step, lose_step = (2, 1) if first_of_session else (1, 0)
    for k, (table, (ns, ew)) in enumerate(zip(seating.tables, results)):
        won = winners_of(ns, ew)
        win_up, win_down = _split(table, won)
        lose_up, lose_down = _split(table, 1 - won)
        new[(k + win_step) % count][S] = win_up
        new[(k - win_step) % count][W] = win_down
        new[(k + lose_step) % count][N] = lose_up
        new[(k - lose_step) % count][E] = lose_down
    return Seating(tuple(_seated(t) for t in new))


def meetings(seating: Seating) -> set[frozenset[str]]:
    """Return every pair of players who share a table in ``seating`` (partners and opponents)."""
    met: set[frozenset[str]] = set()
    for table in seating.tables:
        met.update(frozenset((a, b)) for i, a in enumerate(table) for b in table[i + 1 :])
    return met
