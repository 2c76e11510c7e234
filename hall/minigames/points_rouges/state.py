"""Loto Points Rouges values: options, the immutable state, and the checks on a placement (RULES P6–P11)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from hall.minigames.points_rouges.pieces import BOARD_MASKS, BOARD_VALUES, JOKER, mask_of, shape_of

JOKERS_DEALT = {2: 6, 3: 4, 4: 3}  # seed: per player, by the number of players (P8)
RACK = 5  # seed: five pieces on each rack
MAX_TAKE_BACKS = 3  # figures taken back in one turn; after that, a figure begun must be finished (P7b)
SOLITAIRE_RACK = 8  # P11
SOLITAIRE_BOARDS = tuple(b for b, v in BOARD_VALUES.items() if v in (12, 16))  # P11: a 12- or 16-point board
TABLE_BOARDS = 3

Piece = tuple[str, tuple[int, ...]]  # (shape id or JOKER, board points covered)

# The moves (``rules.py`` says what each does), in their canonical form (``moves.normalise``).
Place = tuple[Literal["place"], str, tuple[Piece, ...]]  # board letter, the pieces laid at once
Add = tuple[Literal["add"], str, Piece]  # one more piece towards completing that board (P7)
Choose = tuple[Literal["choose"], str]  # the solitaire's board (P11)
Swap = tuple[Literal["swap"], str]  # a piece of the rack against one of the pile (P9, P11)
Pass = tuple[Literal["pass"]]
TakeBack = tuple[Literal["take_back"]]
PlayerMove = Place | Add | Choose | Swap | Pass | TakeBack
ChanceMove = tuple[Literal["board"], str] | tuple[Literal["piece"], int, str]  # a board drawn; a piece for a seat


@dataclass(frozen=True, slots=True)
class PointsRougesOptions:
    """Table options; ``solitaire_max_swaps`` bounds a lone player's swaps (P11 leaves it open)."""

    solitaire_max_swaps: int = 30

    def __post_init__(self) -> None:
        if self.solitaire_max_swaps < 0:
            raise ValueError(f"solitaire_max_swaps must be ≥ 0, not {self.solitaire_max_swaps!r}")


@dataclass(frozen=True, slots=True)
class Board:
    """A board on the table: its letter, the points covered so far and the tokens lying on it."""

    letter: str
    covered: int = 0
    tokens: int = 0

    @property
    def remaining(self) -> int:
        """Return the mask of the blue points still uncovered."""
        return BOARD_MASKS[self.letter] & ~self.covered


@dataclass(frozen=True, slots=True)
class PRState:
    """A game of Loto Points Rouges; ``apply`` returns a new one (never mutated).

    ``pile`` is the hidden draw pile as a sorted tuple of piece ids (its order is never used: every draw
    is a chance move). ``stack`` holds the boards not yet drawn, in letter order.
    """

    options: PointsRougesOptions
    players: int
    phase: str  # choose (solitaire) | play | over
    stack: tuple[str, ...]
    boards: tuple[Board, ...]
    pile: tuple[str, ...]
    racks: tuple[tuple[str, ...], ...]
    jokers: tuple[int, ...]
    won: tuple[int, ...]
    pot: int
    used: int = 0
    turn: int = 0
    passes: int = 0  # consecutive turns without a placement
    swaps: int = 0
    completed: tuple[tuple[int, str], ...] = ()  # (seat, board letter) in order
    reason: str = ""
    held: tuple[int, str] | None = None  # (seat, piece) swapped out, set aside until the replacement is drawn
    # P7 one piece at a time: the pieces the player to move has laid on ``staged_on`` this turn towards
    # completing it (still on the rack until the figure is complete), and how often it took them back
    staged: tuple[tuple[str, tuple[int, ...]], ...] = ()
    staged_on: str = ""
    take_backs: int = 0
    arrived: str = ""  # the board drawn since the last completion (the projector marks it « Nouveau plateau »)

    @property
    def solitaire(self) -> bool:
        """Whether this is the one-player patience (P11)."""
        return self.players == 1


def board_on_table(state: PRState, letter: str) -> Board | None:
    """Return the board ``letter`` if it is on the table."""
    return next((b for b in state.boards if b.letter == letter), None)


def rack_size(state: PRState) -> int:
    """Return how many pieces a rack holds in this game (5, or 8 in solitaire)."""
    return SOLITAIRE_RACK if state.solitaire else RACK


def available_jokers(state: PRState, seat: int) -> int:
    """Return the jokers ``seat`` may play (held apart, or on the rack in solitaire)."""
    return state.racks[seat].count(JOKER) if state.solitaire else state.jokers[seat]


def canonical_pieces(pieces: object) -> tuple[Piece, ...] | None:
    """Return the pieces of a move as sorted ``(shape, sorted cells)`` tuples, or None when malformed."""
    if not isinstance(pieces, Iterable):
        return None
    try:
        out = []
        for sid, cells in pieces:
            if (
                not isinstance(sid, str)
                or not isinstance(cells, (list, tuple))
                or any(type(p) is not int for p in cells)
            ):
                return None  # "3", 3.0 and True are no point: only the listed move's own values
            out.append((sid, tuple(sorted(cells))))
    except (TypeError, ValueError):
        return None
    return tuple(sorted(out)) or None


def placement_error(state: PRState, seat: int, letter: object, pieces: object) -> str | None:
    """Return why placing ``pieces`` on board ``letter`` is illegal for ``seat`` (P6, P7), or None if legal."""
    board = board_on_table(state, letter) if isinstance(letter, str) else None
    if board is None:
        return "no such board on the table"
    pieces = canonical_pieces(pieces)
    if pieces is None:
        return "malformed pieces"
    need = Counter(sid for sid, _ in pieces)
    have = Counter(state.racks[seat])
    if not state.solitaire:
        have[JOKER] = state.jokers[seat]
    if any(have[sid] < n for sid, n in need.items()):
        return "pieces not held"
    covered = 0
    for sid, cells in pieces:
        # the range check comes first: ``1 << p`` of a huge or negative cell costs memory or raises
        if len(set(cells)) != len(cells) or any(not 0 <= p < 25 for p in cells):
            return "bad cells"
        mask = mask_of(cells)
        if shape_of(divmod(p, 5) for p in cells) != sid:
            return f"cells do not match shape {sid}"
        if mask & ~board.remaining or mask & covered:
            return "cells not on uncovered blue points"
        covered |= mask
    completes = covered == board.remaining
    if (len(pieces) > 1 or state.solitaire) and not completes:
        return "several pieces must complete the board"  # P7; P11: the patience is done in one go
    return None


def staged_mask(state: PRState) -> int:
    """Return the points covered by the figure begun this turn (P7, one piece at a time)."""
    return mask_of([p for _, cells in state.staged for p in cells])


def unstaged(state: PRState, seat: int) -> tuple[Counter[str], int]:
    """Return ``seat``'s rack pieces (jokers apart) and jokers not yet laid in the figure begun this turn."""
    rack = Counter(r for r in state.racks[seat] if r != JOKER)
    jokers = available_jokers(state, seat)
    for sid, _ in state.staged:
        if sid == JOKER:
            jokers -= 1
        else:
            rack[sid] -= 1
    return +rack, jokers
