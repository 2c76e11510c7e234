"""Who may move in Loto Points Rouges, and what (RULES P6–P11): the seats to move now (chance while a board or a
piece is owed), every legal move of a seat, a move put in its canonical form, and the check of one move without
listing them all. Pure; the rules (``rules.py``) apply the move.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from hall.minigames.base import CHANCE
from hall.minigames.points_rouges.pieces import (
    JOKER,
    PLACEMENTS,
    SHAPES,
    points_of,
)
from hall.minigames.points_rouges.solver import cover_cells, coverable, solve
from hall.minigames.points_rouges.state import (
    MAX_TAKE_BACKS,
    SOLITAIRE_BOARDS,
    TABLE_BOARDS,
    Add,
    Board,
    Place,
    PlayerMove,
    PRState,
    available_jokers,
    canonical_pieces,
    placement_error,
    rack_size,
    staged_mask,
    unstaged,
)


def needs_draw(state: PRState) -> str | None:
    """Return what chance must supply next: ``"board"``, ``"piece"`` or None."""
    if state.phase != "play":
        return None
    if not state.solitaire and len(state.boards) < TABLE_BOARDS and state.stack:
        return "board"
    if state.pile and any(len(r) < rack_size(state) for r in state.racks):
        return "piece"
    return None


def to_move(state: PRState) -> tuple[int, ...]:
    """Return the seats that may move now: ``(CHANCE,)`` for draws, ``()`` once over."""
    if state.phase == "over":
        return ()
    if needs_draw(state):
        return (CHANCE,)
    return (state.turn,)


def single_placements(state: PRState, seat: int, with_jokers: bool = True) -> list[Place]:
    """Return every one-piece placement of ``seat`` on the table's boards (P6, P8)."""
    moves: list[Place] = []
    kinds = sorted(set(state.racks[seat]) - {JOKER})
    if with_jokers and available_jokers(state, seat):
        kinds.append(JOKER)
    for board in state.boards:
        remaining = board.remaining
        for sid in kinds:
            for mask in PLACEMENTS[sid]:
                if mask & remaining == mask:
                    moves.append(("place", board.letter, ((sid, points_of(mask)),)))
    return moves


def completions(state: PRState, seat: int, board: Board) -> list[Place]:
    """Return every move that completes ``board`` with ``seat``'s pieces and jokers (P7, P11)."""
    counts = Counter(r for r in state.racks[seat] if r != JOKER)
    jokers = available_jokers(state, seat)
    remaining = board.remaining
    if bin(remaining).count("1") > sum(len(SHAPES[s]) * n for s, n in counts.items()) + jokers:
        return []  # more points than all these pieces hold: skip the search
    return [("place", board.letter, cover_cells(c)) for c in solve(remaining, counts, jokers)]


def figure_moves(state: PRState, seat: int) -> list[Add]:
    """Return the ``("add", board, piece)`` moves: one more piece towards completing a board this turn (P7).

    With nothing laid yet, any board and any placement that does not complete it alone (that one is a plain
    ``place``); then only the board begun. A board with more points left than the pieces still in hand can
    cover is not offered. Before the take-back limit, never a search: the list grows with the placements, not
    with the ways to cover. Once the figures of the turn can no longer be taken back (P7b), only the pieces
    after which the figure can still be completed are offered: the player may still complete any figure the
    seed allows, and never reaches a dead end with nothing to play."""
    rack, jokers = unstaged(state, seat)
    laid = staged_mask(state)
    boards = [b for b in state.boards if b.letter == state.staged_on] if state.staged else list(state.boards)
    must_finish = state.take_backs >= MAX_TAKE_BACKS
    moves: list[Add] = []
    for board in boards:
        moves += _board_moves(state, board, board.remaining & ~laid, rack, jokers, must_finish)
    return moves


def _board_moves(
    state: PRState, board: Board, free: int, rack: Counter[str], jokers: int, must_finish: bool
) -> list[Add]:
    """The ``add`` moves on ``board``, whose points ``free`` are neither covered nor laid on this turn."""
    fits = {sid: [m for m in PLACEMENTS[sid] if m & free == m] for sid in sorted(rack)}
    if jokers > 0:
        fits[JOKER] = [m for m in PLACEMENTS[JOKER] if m & free == m]
    capacity = sum(len(SHAPES[sid]) * rack[sid] for sid in rack if fits[sid]) + jokers
    if bin(free).count("1") > capacity:
        return []  # the pieces in hand that fit here cannot cover what is left of it
    if must_finish and not _coverable(free, tuple(sorted(rack.items())), jokers):
        return []  # no figure can be finished here: none may be begun
    moves: list[Add] = []
    for sid, masks in fits.items():
        for m in masks:
            if not state.staged and m == free:
                continue  # one piece that completes the board alone is a plain ``place``
            if must_finish and not _completable(free & ~m, rack, jokers, sid):
                continue
            moves.append(("add", board.letter, (sid, points_of(m))))
    return moves


def _completable(points: int, rack: Counter[str], jokers: int, laid: str) -> bool:
    """Whether ``points`` can still be covered once the piece ``laid`` has left the hand (``rack`` and ``jokers``)."""
    if laid == JOKER:
        return _coverable(points, tuple(sorted(rack.items())), jokers - 1)
    return _coverable(points, tuple(sorted((rack - Counter({laid: 1})).items())), jokers)


@lru_cache(maxsize=4096)
def _coverable(points: int, rack: tuple[tuple[str, int], ...], jokers: int) -> bool:
    """Whether ``points`` has an exact cover by ``rack`` (shape, copies) and ``jokers``; kept, because the
    legal list, the check of the move played and the bot ask the same questions of one position."""
    return coverable(points, dict(rack), jokers)


def legal_moves(state: PRState, seat: int) -> list[PlayerMove]:
    """Return every legal move of ``seat`` now (placements, completions, or a stuck player's swap/pass)."""
    if seat not in to_move(state) or seat == CHANCE:
        return []
    if state.phase == "choose":
        return [("choose", b) for b in SOLITAIRE_BOARDS]
    moves: list[PlayerMove]
    if state.solitaire:
        moves = list(completions(state, seat, state.boards[0]))
        if state.swaps < state.options.solitaire_max_swaps and state.pile:
            moves += [("swap", sid) for sid in sorted(set(state.racks[seat]))]
        return moves
    if state.staged:
        moves = list(figure_moves(state, seat))
        return moves + ([("take_back",)] if state.take_backs < MAX_TAKE_BACKS else [])
    moves = [*single_placements(state, seat), *figure_moves(state, seat)]
    if moves:
        return moves
    stuck: list[PlayerMove] = [("pass",)]
    if state.pile and not state.jokers[seat]:
        stuck += [("swap", sid) for sid in sorted(set(state.racks[seat]))]  # P9
    return stuck


def normalise(move: object) -> object:
    """Return ``move`` in its canonical hashable form (JSON lists back to tuples, pieces sorted); anything a phone
    sent comes out as it came or as a tuple, to be matched against this game's moves (never trusted as one)."""
    if isinstance(move, (list, tuple)) and len(move) == 3 and move[0] == "place":
        pieces = canonical_pieces(move[2])
        return ("place", move[1], pieces if pieces is not None else ())
    if isinstance(move, (list, tuple)) and len(move) == 3 and move[0] == "add":
        piece = canonical_pieces([move[2]]) if isinstance(move[2], (list, tuple)) and len(move[2]) == 2 else None
        return ("add", move[1], piece[0] if piece is not None else ())
    if isinstance(move, list):
        return tuple(move)
    return move


def _can_place(state: PRState, seat: int) -> bool:
    """Return whether ``seat`` has any placement at all (rack piece or joker)."""
    return bool(single_placements(state, seat))


def is_legal(state: PRState, seat: int, move: object) -> bool:
    """Return whether ``seat`` may make ``move`` now, without listing every legal move."""
    move = normalise(move)
    if seat not in to_move(state) or seat == CHANCE or not isinstance(move, tuple) or not move:
        return False
    if state.phase == "choose":
        return move in [("choose", b) for b in SOLITAIRE_BOARDS]
    if state.solitaire:
        return _solitaire_legal(state, seat, move)
    if state.staged:
        if move == ("take_back",):
            return state.take_backs < MAX_TAKE_BACKS
        return move[0] == "add" and move in figure_moves(state, seat)
    return _turn_legal(state, seat, move)


def _solitaire_legal(state: PRState, seat: int, move: tuple[object, ...]) -> bool:
    """P11: the figure at once, or a swap; nothing is laid piece by piece."""
    if move[0] == "place" and len(move) == 3:
        return placement_error(state, seat, move[1], move[2]) is None
    return (
        move[0] == "swap"
        and len(move) == 2
        and move[1] in state.racks[seat]
        and bool(state.pile)
        and state.swaps < state.options.solitaire_max_swaps
    )


def _turn_legal(state: PRState, seat: int, move: tuple[object, ...]) -> bool:
    """A turn with nothing laid yet: a piece towards a figure, one placement, or (stuck) a pass or a swap."""
    kind = move[0]
    if kind == "add":
        return move in figure_moves(state, seat)
    if kind == "place" and len(move) == 3:
        if not isinstance(move[2], tuple) or len(move[2]) != 1:  # normalise made the pieces a tuple
            return False  # P7 with several pieces: laid one at a time ("add"), never all at once
        return placement_error(state, seat, move[1], move[2]) is None
    if _can_place(state, seat):
        return False  # P9: no voluntary pass, and a player with a joker must play it
    if kind == "pass":
        return move == ("pass",)
    return (
        kind == "swap"
        and len(move) == 2
        and move[1] in state.racks[seat]
        and bool(state.pile)
        and not state.jokers[seat]
    )
