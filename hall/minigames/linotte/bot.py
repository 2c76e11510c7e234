"""La Linotte bot: values each free cell (own runs, blocking the opponent's), then keeps the dice for the best cell."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache, lru_cache
from itertools import combinations_with_replacement, product

from hall.minigames.linotte import rules

TARGETS = tuple(str(face) for face in range(1, 7)) + rules.MAJORS
ALL_DICE = tuple(combinations_with_replacement(range(1, 7), rules.DICE))

Odds = tuple[str, int, tuple[int, ...]]
"""What the odds are kept by: (target label, rolls left, sorted dice)."""

GAIN_OWN, GAIN_BLOCK = 3.0, 2.5  # points won now, points the opponent would win on that cell
SHAPE_OWN, SHAPE_BLOCK = 0.35, 0.3  # runs still open through the cell, for each side
WIN = 1000.0  # a pawn that ends the game: worth everything, or nothing if it loses


@cache
def _throws(count: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every sorted outcome of throwing ``count`` dice, with its probability."""
    tally = Counter(tuple(sorted(t)) for t in product(range(1, 7), repeat=count))
    return tuple((dice, n / 6**count) for dice, n in tally.items())


@cache
def odds() -> tuple[dict[Odds, float], dict[Odds, tuple[int, ...]]]:
    """``(chance, keep)`` by (target label, rolls left, sorted dice): the best odds of showing it, the dice to keep.

    Exact dynamic programming over the 252 sorted hands, one target at a time; the expected value of a kept
    set does not depend on the hand it came from, which keeps this to a few thousand sums per target.
    """
    partial = [k for size in range(rules.DICE) for k in combinations_with_replacement(range(1, 7), size)]
    merged = {k: [(tuple(sorted(k + t)), p) for t, p in _throws(rules.DICE - len(k))] for k in partial}
    chance_of: dict[Odds, float] = {}
    keep_for: dict[Odds, tuple[int, ...]] = {}
    for target in TARGETS:
        previous = {d: 1.0 if target in rules.combinations(d) else 0.0 for d in ALL_DICE}
        for left in (1, 2):
            value = {k: sum(p * previous[d] for d, p in outcomes) for k, outcomes in merged.items()}
            now = {}
            for d in ALL_DICE:
                if target in rules.combinations(d):
                    now[d] = 1.0
                    continue
                best = max(rules.keeps(d), key=value.__getitem__)
                now[d] = value[best]
                keep_for[target, left, d] = best
            chance_of.update({(target, left, d): p for d, p in now.items()})
            previous = now
    return chance_of, keep_for


def _shape(board: tuple[int, ...], seat: int, cell: int) -> float:
    """How much ``cell`` helps ``seat`` build runs: own pawns in each open stretch of 3+ through it."""
    worth = 0.0
    for line in rules.LINES_THROUGH[cell]:
        at = line.index(cell)
        lo = at
        while lo > 0 and board[line[lo - 1]] in (rules.EMPTY, seat):
            lo -= 1
        hi = at
        while hi < len(line) - 1 and board[line[hi + 1]] in (rules.EMPTY, seat):
            hi += 1
        if hi - lo + 1 >= 3:
            own = sum(1 for c in line[lo : hi + 1] if board[c] == seat)
            worth += (own + 1) ** 2 - 1
    return worth


def _line_gain(board: tuple[int, ...], seat: int, cell: int) -> int:
    """The points ``seat`` would win by a pawn on ``cell`` (only the lines through it change)."""
    after = board[:cell] + (seat,) + board[cell + 1 :]
    return sum(
        rules.run_score(after, seat, line) - rules.run_score(board, seat, line) for line in rules.LINES_THROUGH[cell]
    )


@lru_cache(maxsize=4096)
def cell_values(board: tuple[int, ...], seat: int) -> dict[int, float]:
    """What a pawn of ``seat`` on each free cell is worth: own points and shape, plus what it denies the opponent."""
    other = 1 - seat
    mine, theirs = rules.score(board, seat), rules.score(board, other)
    last_pawn = board.count(seat) == rules.PAWNS - 1
    values = {}
    for cell, owner in enumerate(board):
        if owner != rules.EMPTY:
            continue
        gain = _line_gain(board, seat, cell)
        after = board[:cell] + (seat,) + board[cell + 1 :]
        if last_pawn or rules.has_five(after, seat, cell):
            # This pawn ends the game at once (N11): take it only when it wins.
            values[cell] = WIN if mine + gain > theirs else (-1.0 if mine + gain == theirs else -WIN)
            continue
        values[cell] = (
            1.0
            + GAIN_OWN * gain
            + GAIN_BLOCK * _line_gain(board, other, cell)
            + SHAPE_OWN * _shape(board, seat, cell)
            + SHAPE_BLOCK * _shape(board, other, cell)
        )
    return values


def _label_values(values: dict[int, float]) -> dict[str, float]:
    """The best cell value under each grid label (0 when every such cell is taken)."""
    best: dict[str, float] = {}
    for cell, value in values.items():
        label = rules.GRID[cell]
        best[label] = max(best.get(label, 0.0), value)
    return best


def choose(state: rules.LinotteState, seat: int, rng: random.Random) -> rules.PlayerMove:
    """The bot's move: place now when that beats the expected worth of rerolling for a better cell."""
    values = cell_values(state.board, seat)
    open_now = [(values[cell], cell) for cell in rules.places(state)]
    best_now, best_cell = max(open_now, default=(0.0, None))
    left = rules.ROLLS - state.rolls
    plan = _plan(state, values, left) if left else None
    if plan is not None and plan[0] > best_now:
        return plan[1]
    if best_cell is not None and best_now > 0:
        return ("place", best_cell)
    return ("stop",)


def _plan(state: rules.LinotteState, values: dict[int, float], left: int) -> tuple[float, rules.Keep] | None:
    """``(expected worth, keep move)`` of the best target to reroll for, or ``None`` when nothing is worth it."""
    chance_of, keep_for = odds()
    by_label = _label_values(values)
    appel_worth = by_label.get(rules.APPEL, 0.0)
    strict = state.options.strict_appel
    best: tuple[float, rules.Keep] | None = None
    for target in TARGETS:
        if strict and state.appel is not None and target != state.appel:
            continue  # a strict appel places nothing else (N9)
        if (target, left, state.dice) not in keep_for:
            continue  # already showing: placing now covers it
        worth = by_label.get(target, 0.0)
        announce = None
        if target in rules.MAJORS and (state.appel == target or state.rolls == 1):
            # Announcing costs nothing unless the appel is strict, so announce whenever it may pay.
            if state.rolls == 1 and (not strict or appel_worth > worth):
                announce = target
            if announce or state.appel == target:
                worth = max(worth, appel_worth)
        kept = keep_for[target, left, state.dice]
        if announce and not rules.appel_allowed(state.dice, kept):
            announce, worth = None, by_label.get(target, 0.0)
        expected = worth * chance_of[target, left, state.dice]
        if expected > 0 and (best is None or expected > best[0]):
            best = (expected, ("keep", kept, announce))
    return best
