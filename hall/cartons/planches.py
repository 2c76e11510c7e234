"""The planche generator: 6 cartons covering 1–90 exactly once (RULES L1–L4), and numbered cartons from a seed."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TypeVar

from hall.cartons.card_ids import make_card_id
from hall.cartons.cards import Card, column_spans

T = TypeVar("T")


def _shuffle(items: list[T], rnd: Callable[[], float]) -> None:
    """Shuffle in place with ``rnd = rng.random``: Fisher–Yates, several times faster than
    ``Random.shuffle`` (one C call per element instead of a Python ``_randbelow``)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        items[i], items[j] = items[j], items[i]


def _column_extras(rnd: Callable[[], float], sizes: Sequence[int]) -> list[list[int]]:
    """Return, per column, the cartons (0–5) that get one more number of it than the one every carton
    gets: 6 extras per carton, at most 2 per carton and column, len(result[j]) = sizes[j] - 6."""
    # The 36 extras are cut from a shuffled urn of carton labels, reshuffled when a carton would get
    # 3 extras in one column (about 45 % of tries; a try costs a few microseconds).
    urn = [c for c in range(6) for _ in range(6)]
    while True:
        _shuffle(urn, rnd)
        extras = []
        i = 0
        for size in sizes:
            chunk = urn[i : i + size - 6]
            i += size - 6
            if max(map(chunk.count, chunk), default=0) > 2:
                break
            extras.append(chunk)
        else:
            return extras


_ROWS_WITHOUT = ((1, 2), (0, 2), (0, 1))


def _card_rows(
    rnd: Callable[[], float], dealt: list[list[int]]
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Return the 3 rows of one carton: column j holds the 1–3 ascending numbers dealt[j] on randomly
    chosen rows, 5 per row; filling top rows first keeps each column ascending downward (L4)."""
    # A 3-number column fills every row; a 2-number column misses one row; a 1-number column sits on one.
    # Row r needs 5 = threes + (twos - twos missing r) + singles on r, hence singles[r] below.
    counts = [len(ns) for ns in dealt]
    twos = counts.count(2)
    base = 5 - counts.count(3) - twos
    while True:
        missing = [int(rnd() * 3) for _ in range(twos)]
        singles = [base + missing.count(r) for r in range(3)]
        if min(singles) >= 0:
            break
    single_rows = [0] * singles[0] + [1] * singles[1] + [2] * singles[2]
    _shuffle(single_rows, rnd)
    rows: tuple[list[int], list[int], list[int]] = ([], [], [])
    next_missing = iter(missing).__next__
    next_single = iter(single_rows).__next__
    for j in range(9):  # columns in order, so every row comes out ascending
        ns = dealt[j]
        k = counts[j]
        if k == 3:
            rows[0].append(ns[0])
            rows[1].append(ns[1])
            rows[2].append(ns[2])
        elif k == 2:
            top, bottom = _ROWS_WITHOUT[next_missing()]
            rows[top].append(ns[0])
            rows[bottom].append(ns[1])
        else:
            rows[next_single()].append(ns[0])
    return (tuple(rows[0]), tuple(rows[1]), tuple(rows[2]))


def generate_planche(rng: random.Random, columns: str = "1-9") -> tuple[Card, ...]:
    """Return 6 cartons covering 1–90 exactly once, each with 1–3 numbers in every column."""
    spans = column_spans(columns)
    rnd = rng.random
    # dealt[c][j]: the numbers of column j that carton c gets, ascending
    dealt: list[list[list[int]]] = [[[] for _ in range(9)] for _ in range(6)]
    for j, (span, extra) in enumerate(zip(spans, _column_extras(rnd, [len(span) for span in spans]))):
        labels = [0, 1, 2, 3, 4, 5, *extra]
        _shuffle(labels, rnd)
        for n, c in zip(span, labels):
            dealt[c][j].append(n)
    return tuple(Card(_card_rows(rnd, dealt[c])) for c in range(6))


def generate_cards(
    count: int, seed: int | str, series: str = "A", columns: str = "1-9", start: int = 1
) -> list[tuple[str, Card]]:
    """Return ``count`` (id, carton) pairs from planches of 6, the same for the same seed; ids series-start…"""
    if type(count) is not int or count < 0:
        raise ValueError(f"count must be a whole number ≥ 0, not {count!r}")
    make_card_id(series, start)  # validates series and start before any work
    column_spans(columns)
    rng = random.Random(seed)
    cards: list[Card] = []
    while len(cards) < count:
        cards.extend(generate_planche(rng, columns))
    return [(make_card_id(series, start + i), card) for i, card in enumerate(cards[:count])]
