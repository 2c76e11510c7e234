"""Exact covers of a board's points by pieces (RULES 5c): Algorithm X on bit masks with per-shape copy limits.

The primary columns are the points still to cover; the rows are the placements of the shapes (and of jokers,
one point each) that fall entirely on those points. Each branch takes the point with the fewest rows, and a
counter per shape keeps every cover within the copies available.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from hall.minigames.points_rouges.pieces import (
    BOARD_MASKS,
    COPIES,
    JOKER,
    PLACEMENTS,
    SHAPE_IDS,
    SHAPES,
    mask_of,
    points_of,
    shape_of,
)

Cover = tuple[tuple[str, int], ...]  # (shape id or JOKER, placement mask)

FULL_BOX = {sid: COPIES for sid in SHAPE_IDS}


def _rows_by_point(points: int, counts: Mapping[str, int], jokers: int) -> dict[int, list[tuple[str, int]]]:
    """Return, per point of ``points``, the placements covering it that fit inside ``points``."""
    rows: dict[int, list[tuple[str, int]]] = {p: [] for p in points_of(points)}
    for sid, copies in counts.items():
        if copies <= 0 or sid == JOKER:
            continue
        for mask in PLACEMENTS[sid]:
            if mask & points == mask:
                for p in points_of(mask):
                    rows[p].append((sid, mask))
    if jokers > 0:
        for p in rows:
            rows[p].append((JOKER, 1 << p))
    return rows


def solve(points: int, counts: Mapping[str, int] | None = None, jokers: int = 0) -> Iterator[Cover]:
    """Yield every exact cover of ``points`` using at most ``counts[shape]`` copies and ``jokers`` jokers."""
    left = dict(FULL_BOX if counts is None else counts)
    left[JOKER] = jokers
    rows = _rows_by_point(points, left, jokers)
    chosen: list[tuple[str, int]] = []

    def search(remaining: int) -> Iterator[Cover]:
        if not remaining:
            yield tuple(chosen)
            return
        best_rows = None
        for p in points_of(remaining):
            fits = [(sid, m) for sid, m in rows[p] if left[sid] > 0 and m & remaining == m]
            if best_rows is None or len(fits) < len(best_rows):
                best_rows = fits
                if not fits:
                    return  # a point nobody can cover: dead end
        assert best_rows is not None  # remaining is not empty, so it has a point
        for sid, mask in best_rows:
            left[sid] -= 1
            chosen.append((sid, mask))
            yield from search(remaining & ~mask)
            chosen.pop()
            left[sid] += 1

    yield from search(points)


def coverable(points: int, counts: Mapping[str, int], jokers: int = 0) -> bool:
    """Whether ``points`` has an exact cover by at most ``counts[shape]`` copies and ``jokers`` jokers.

    The answer of ``first_cover(...) is not None``, faster where that search is slow (a refused figure with
    many jokers): jokers are interchangeable, so a branch puts a piece, or a joker, on its most constrained
    point; it succeeds as soon as the jokers can take every point left, and is cut as soon as the points left
    outnumber what the jokers and the pieces that still fit can hold.
    """
    left = {sid: n for sid, n in counts.items() if sid != JOKER and n > 0}
    rows = _rows_by_point(points, left, 0)

    def search(remaining: int, spare: int) -> bool:
        need = bin(remaining).count("1")
        if need <= spare:
            return True
        fitting: dict[str, int] = {}
        best: list[tuple[str, int]] | None = None
        best_point = 0
        for p in points_of(remaining):
            fits = [(sid, m) for sid, m in rows[p] if left[sid] > 0 and m & remaining == m]
            for sid, _ in fits:
                fitting[sid] = left[sid]
            if best is None or len(fits) < len(best):
                best, best_point = fits, p
        if need > spare + sum(len(SHAPES[sid]) * n for sid, n in fitting.items()):
            return False
        assert best is not None  # remaining is not empty: it has a point
        for sid, mask in best:
            left[sid] -= 1
            found = search(remaining & ~mask, spare)
            left[sid] += 1
            if found:
                return True
        return spare > 0 and search(remaining & ~(1 << best_point), spare - 1)

    return search(points, jokers)


def count_covers(points: int, counts: Mapping[str, int] | None = None, jokers: int = 0) -> int:
    """Return how many exact covers ``points`` has under the copy limits."""
    return sum(1 for _ in solve(points, counts, jokers))


def first_cover(points: int, counts: Mapping[str, int] | None = None, jokers: int = 0) -> Cover | None:
    """Return one exact cover of ``points``, or None when there is none."""
    return next(solve(points, counts, jokers), None)


def board_completable(board: str) -> bool:
    """Return whether a whole board can be covered by the 57 shaped pieces (RULES 5c step 4)."""
    return first_cover(BOARD_MASKS[board]) is not None


def validate_completion(remaining: int, pieces: list[tuple[str, tuple[int, ...]]]) -> bool:
    """Return whether ``pieces`` — ``(shape, cells)`` pairs — cover exactly the ``remaining`` points."""
    covered = 0
    for sid, cells in pieces:
        mask = mask_of(cells)
        if len(set(cells)) != len(cells) or shape_of(_as_rc(cells)) != sid or covered & mask or mask & ~remaining:
            return False
        covered |= mask
    return covered == remaining


def _as_rc(cells: Iterable[int]) -> list[tuple[int, int]]:
    """Return point numbers as ``(row, col)`` pairs."""
    return [divmod(p, 5) for p in cells]


def cover_cells(cover: Cover) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Return a cover as ``(shape, cells)`` pairs, in a stable order."""
    return tuple(sorted((sid, points_of(mask)) for sid, mask in cover))


def hint(remaining: int, rack: Mapping[str, int], jokers: int = 0) -> tuple[tuple[str, tuple[int, ...]], ...] | None:
    """Return a completion of ``remaining`` with the rack (fewest jokers first), or None."""
    for used in range(jokers + 1):
        cover = next((c for c in solve(remaining, rack, used) if sum(s == JOKER for s, _ in c) == used), None)
        if cover is not None:
            return cover_cells(cover)
    return None


class _OutOfBudget(Exception):
    """The search visited more nodes than it was allowed."""


def bounded_cover(
    remaining: int, rack: Mapping[str, int], jokers: int = 0, max_nodes: int = 200_000
) -> tuple[bool | None, Cover | None]:
    """Return ``(True, cover)``, ``(False, None)`` when ``remaining`` has no cover by the rack and jokers, or
    ``(None, None)`` when the search gave up after ``max_nodes`` nodes (a hint must never stall the hall).

    The same Algorithm X as :func:`solve`, counting its nodes; jokers last in each branch, so that a cover
    with rack pieces is found first.
    """
    left = {sid: n for sid, n in rack.items() if sid != JOKER and n > 0}
    left[JOKER] = jokers
    rows = _rows_by_point(remaining, left, jokers)
    for options in rows.values():
        options.sort(key=lambda row: row[0] == JOKER)
    chosen: list[tuple[str, int]] = []
    nodes = 0

    def search(points: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise _OutOfBudget
        if not points:
            return True
        best_rows = None
        for p in points_of(points):
            fits = [(sid, m) for sid, m in rows[p] if left[sid] > 0 and m & points == m]
            if best_rows is None or len(fits) < len(best_rows):
                best_rows = fits
                if not fits:
                    return False
        assert best_rows is not None  # points is not empty, so it has a point
        for sid, mask in best_rows:
            left[sid] -= 1
            chosen.append((sid, mask))
            if search(points & ~mask):
                return True
            chosen.pop()
            left[sid] += 1
        return False

    try:
        found = search(remaining)
    except _OutOfBudget:
        return None, None
    return (True, tuple(chosen)) if found else (False, None)
