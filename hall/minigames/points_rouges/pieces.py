"""Loto Points Rouges material: the 19 piece shapes, the 70 pieces and the 14 boards (RULES P1–P5, 5a, 5b, 5c).

A board point is an int ``r * 5 + c`` on the 5×5 lattice; a set of points is an int bit mask.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from itertools import combinations

GRID = 5
COPIES = 3  # P3: three sets of the nineteen shapes
JOKER = "J"
JOKERS = 13  # P8: 12 dealt, the 13th in the pile
TOKENS = 166  # P4

# RULES 5a: one canonical rotation of each shape; rows separated by "/", "o" = dot
SHAPE_FIGURES = {
    "S00": "oo./.../...",
    "S01": "o.o/.../...",
    "S02": "o../.o./...",
    "S03": "o../..o/...",
    "S04": "o../.../.o.",
    "S05": "o../.../..o",
    "S06": "ooo/.../...",
    "S07": "oo./o../...",
    "S08": "oo./..o/...",
    "S09": "oo./.../o..",
    "S10": "oo./.../.o.",
    "S11": "oo./.../..o",
    "S12": "o.o/.o./...",
    "S13": "o.o/.../o..",
    "S14": "o.o/.../.o.",
    "S15": "o../o../.o.",
    "S16": "o../o../..o",
    "S17": "o../.o./..o",
    "S18": "o../..o/.o.",
}
SHAPE_IDS = tuple(SHAPE_FIGURES)

# RULES 5b: the reconstructed boards and their values (P5)
BOARD_FIGURES = {
    "A": "ooooo/o.o.o/o...o/o.o.o/ooooo",
    "B": "oo.oo/ooooo/...../ooooo/oo.oo",
    "C": "ooooo/o...o/o...o/o...o/ooooo",
    "D": "ooooo/.o.o./...../.o.o./ooooo",
    "E": ".ooo./o...o/oo.oo/o...o/.ooo.",
    "F": "..o../.ooo./oo.oo/.ooo./..o..",
    "G": "o.o.o/.o.o./o...o/.o.o./o.o.o",
    "H": "oo.oo/o...o/...../o...o/oo.oo",
    "I": "o...o/oo.oo/...../oo.oo/o...o",
    "J": "..o../.ooo./o...o/.ooo./..o..",
    "K": "ooooo/...../...../...../ooooo",
    "L": "ooo../o.o../ooo../...../.....",
    "M": "..o../.o.o./o...o/.o.o./..o..",
    "N": "o.o../...../o.o../...../o.o..",
}
BOARD_VALUES = {
    "A": 18,
    "B": 18,
    "C": 16,
    "D": 14,
    "E": 14,
    "F": 12,
    "G": 12,
    "H": 12,
    "I": 12,
    "J": 10,
    "K": 10,
    "L": 8,
    "M": 8,
    "N": 6,
}
BOARD_IDS = tuple(BOARD_FIGURES)

Cells = frozenset[tuple[int, int]]  # of (row, col) pairs


def parse_figure(figure: str) -> Cells:
    """Return the dots of a ``"oo./.../..."`` figure as ``(row, col)`` pairs."""
    return frozenset((r, c) for r, row in enumerate(figure.split("/")) for c, ch in enumerate(row) if ch == "o")


def normalise(cells: Collection[tuple[int, int]]) -> Cells:
    """Return ``cells`` translated so that their minimum row and column are 0."""
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def rotate(cells: Iterable[tuple[int, int]]) -> Cells:
    """Return ``cells`` turned a quarter turn, (x, y) → (y, −x), normalised (RULES 5c)."""
    return normalise({(c, -r) for r, c in cells})


def all_rotations(cells: Collection[tuple[int, int]]) -> tuple[Cells, ...]:
    """Return the distinct rotations of ``cells`` (no mirror images, P2), in a stable order."""
    seen: list[Cells] = []
    current = normalise(cells)
    for _ in range(4):
        if current not in seen:
            seen.append(current)
        current = rotate(current)
    return tuple(seen)


def canonical(cells: Collection[tuple[int, int]]) -> Cells:
    """Return the representative of ``cells``'s rotation class (the smallest sorted rotation)."""
    return min(all_rotations(cells), key=lambda s: sorted(s))


def enumerate_shapes() -> list[Cells]:
    """Return the rotation classes of 2- and 3-dot subsets of a 3×3 lattice (RULES 5c step 1)."""
    lattice = [(r, c) for r in range(3) for c in range(3)]
    classes = {canonical(subset) for size in (2, 3) for subset in combinations(lattice, size)}
    return sorted(classes, key=lambda s: (len(s), sorted(s)))


SHAPES: dict[str, Cells] = {sid: parse_figure(fig) for sid, fig in SHAPE_FIGURES.items()}
_CLASS_OF = {canonical(cells): sid for sid, cells in SHAPES.items()}
assert len(enumerate_shapes()) == 19 and len(_CLASS_OF) == 19, "RULES P2: 19 shapes"
assert set(enumerate_shapes()) == set(_CLASS_OF), "RULES 5a must list every rotation class once"
assert sum(len(c) for c in SHAPES.values()) * COPIES + JOKERS == TOKENS, "RULES P4: 166 tokens"


def shape_of(cells: Iterable[tuple[int, int]]) -> str | None:
    """Return the shape id whose rotations include ``cells`` (a joker for one cell), else None."""
    cells = frozenset(cells)
    if len(cells) == 1:
        return JOKER
    if len(cells) not in (2, 3):
        return None
    return _CLASS_OF.get(canonical(cells))


def point(r: int, c: int) -> int:
    """Return the point number of row ``r``, column ``c``."""
    return r * GRID + c


def mask_of(points: Iterable[int]) -> int:
    """Return the bit mask of a collection of point numbers (0–24); raises ``ValueError`` outside the grid."""
    mask = 0
    for p in points:
        if not 0 <= p < GRID * GRID:
            raise ValueError(f"points rouges: point {p!r} is outside the grid")
        mask |= 1 << p
    return mask


def points_of(mask: int) -> tuple[int, ...]:
    """Return the point numbers set in ``mask``, ascending."""
    return tuple(p for p in range(GRID * GRID) if mask >> p & 1)


BOARD_MASKS = {bid: mask_of(point(r, c) for r, c in parse_figure(fig)) for bid, fig in BOARD_FIGURES.items()}
assert all(bin(BOARD_MASKS[b]).count("1") == v for b, v in BOARD_VALUES.items()), "5b: values = blue points"


def _all_placements(shape_id: str) -> tuple[int, ...]:
    """Return the masks of every rotation and translation of a shape inside the 5×5 lattice."""
    masks = []
    for rot in all_rotations(SHAPES[shape_id]):
        height = max(r for r, _ in rot) + 1
        width = max(c for _, c in rot) + 1
        for dr in range(GRID - height + 1):
            for dc in range(GRID - width + 1):
                masks.append(mask_of(point(r + dr, c + dc) for r, c in rot))
    return tuple(masks)


PLACEMENTS: dict[str, tuple[int, ...]] = {sid: _all_placements(sid) for sid in SHAPE_IDS}
PLACEMENTS[JOKER] = tuple(1 << p for p in range(GRID * GRID))


def all_pieces() -> tuple[str, ...]:
    """Return the 70 pieces of the box: three of each shape and the 13 jokers (P3, P8)."""
    return tuple(sid for sid in SHAPE_IDS for _ in range(COPIES)) + (JOKER,) * JOKERS
