"""Loto Points Rouges for 2–4 players, and the solitaire patience for 1 (RULES §5, P1–P11): a pure engine.

Moves: ``("place", board, ((shape, cells),))`` — one piece; several pieces that complete a board (P7) are laid
one at a time, ``("add", board, (shape, cells))``, the figure completed by the last one (until then the pieces
stay the player's, seen by the player alone: ``("take_back",)`` returns them, at most ``MAX_TAKE_BACKS`` times a
turn, after which a figure begun is finished); the solitaire's
figure is played at once, ``("place", board, ((shape, cells), ...))`` (P11); a joker is ``("J", (point,))``; ``("swap", shape)`` and ``("pass",)`` for a stuck player without jokers (P9);
``("choose", board)`` opens a solitaire. Chance moves: ``("board", letter)`` and ``("piece", seat, piece)``.
Who may move and what (the legal list, one move's check): ``moves.py``; here the setup, the draws, a move applied,
the outcome and each seat's view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TypeVar, cast

from hall.minigames.base import CHANCE, JSON, Game, Outcome
from hall.minigames.points_rouges.moves import completions, is_legal, legal_moves, needs_draw, normalise, to_move
from hall.minigames.points_rouges.pieces import (
    BOARD_IDS,
    BOARD_MASKS,
    BOARD_VALUES,
    JOKER,
    TOKENS,
    all_pieces,
    mask_of,
    points_of,
)
from hall.minigames.points_rouges.state import (
    JOKERS_DEALT,
    MAX_TAKE_BACKS,
    SOLITAIRE_BOARDS,
    Board,
    ChanceMove,
    Piece,
    PlayerMove,
    PointsRougesOptions,
    PRState,
    board_on_table,
    rack_size,
)

__all__ = ["RULES", "PointsRougesOptions", "PRState"]

T = TypeVar("T")


def setup(players: int, options: PointsRougesOptions | None = None) -> PRState:
    """Return a new game: jokers dealt by player count, the 13th in the pile (P8); boards and racks still to draw."""
    if not 1 <= players <= 4:
        raise ValueError(f"Loto Points Rouges is for 1 to 4 players, not {players}")
    options = options if options is not None else PointsRougesOptions()
    pieces = all_pieces()
    if players == 1:  # P11: the patience draws from all 70 pieces, jokers included
        return PRState(options, 1, "choose", (), (), tuple(sorted(pieces)), ((),), (0,), (0,), TOKENS)
    dealt = JOKERS_DEALT[players]
    pile = tuple(sorted(p for p in pieces if p != JOKER)) + (JOKER,)
    return PRState(
        options,
        players,
        "play",
        BOARD_IDS,
        (),
        tuple(sorted(pile)),
        ((),) * players,
        (dealt,) * players,
        (0,) * players,
        TOKENS,
    )


def chance(state: PRState, rng: random.Random) -> ChanceMove:
    """Return the next draw: a random board from the stack, or a random piece from the pile for a short rack."""
    if needs_draw(state) == "board":
        return ("board", rng.choice(state.stack))
    seat = _short_rack(state)
    return ("piece", seat, rng.choice(state.pile))


def _short_rack(state: PRState) -> int:
    """Return the seat that draws next: the shortest rack, the player to move first (one piece at a time)."""
    order = [(state.turn + i) % state.players for i in range(state.players)]
    return min(order, key=lambda s: len(state.racks[s]))


def _remove(items: tuple[str, ...], removed: Iterable[str]) -> tuple[str, ...]:
    """Return ``items`` without one copy of each of ``removed``."""
    left = Counter(items)
    left.subtract(removed)
    return tuple(sorted(left.elements()))


def _with(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    """Return ``values`` with entry ``seat`` replaced."""
    return values[:seat] + (value,) + values[seat + 1 :]


def _apply_chance(state: PRState, move: ChanceMove) -> PRState:
    """Return the state after a draw (P7: a new board; P8: a drawn joker joins the player's jokers)."""
    if move[0] == "board":  # the table's first boards arrive before any completion: none of them is new
        return replace(
            state,
            stack=_remove(state.stack, [move[1]]),
            boards=state.boards + (Board(move[1]),),
            arrived=move[1] if state.completed else "",
        )
    _, seat, piece = move
    pile = _remove(state.pile, [piece])
    if piece == JOKER and not state.solitaire:  # kept off the rack; the player draws again
        return _return_held(replace(state, pile=pile, jokers=_with(state.jokers, seat, state.jokers[seat] + 1)))
    state = replace(state, pile=pile, racks=_with(state.racks, seat, tuple(sorted(state.racks[seat] + (piece,)))))
    state = _return_held(state)
    return _solitaire_stuck(state) if state.solitaire else state


def _return_held(state: PRState) -> PRState:
    """Return the state with a swapped piece back in the pile once its replacement is on the rack (P9, P11)."""
    if state.held is None:
        return state
    seat, piece = state.held
    if len(state.racks[seat]) < rack_size(state) and state.pile:
        return state  # still drawing (the 13th joker was drawn): the swapped piece stays aside
    return replace(state, held=None, pile=tuple(sorted(state.pile + (piece,))))


def _solitaire_stuck(state: PRState) -> PRState:
    """Return the patience as lost once the rack is full, no swap is left and it cannot complete the board."""
    if len(state.racks[0]) < rack_size(state):
        return state
    no_swap = state.swaps >= state.options.solitaire_max_swaps or not state.pile
    if no_swap and not completions(state, 0, state.boards[0]):
        return replace(state, phase="over", reason="no swap left")
    return state


def _place(state: PRState, seat: int, letter: str, pieces: Sequence[Piece]) -> PRState:
    """Return the state after ``seat`` places ``pieces`` on board ``letter``; a completed board is won (P7)."""
    board = board_on_table(state, letter)
    assert board is not None  # checked legal: the board is on the table
    cells = [p for _, c in pieces for p in c]
    covered = board.covered | mask_of(cells)
    used = [sid for sid, _ in pieces]
    jokers_used = used.count(JOKER)
    racks = state.racks
    if state.solitaire:
        racks = _with(racks, seat, _remove(racks[seat], used))
    else:
        racks = _with(racks, seat, _remove(racks[seat], [s for s in used if s != JOKER]))
    jokers = state.jokers if state.solitaire else _with(state.jokers, seat, state.jokers[seat] - jokers_used)
    new = Board(letter, covered, board.tokens + len(cells))
    state = replace(
        state, racks=racks, jokers=jokers, pot=state.pot - len(cells), used=state.used + len(used), passes=0
    )
    boards = tuple(new if b.letter == letter else b for b in state.boards)
    if covered == BOARD_MASKS[letter]:
        boards = tuple(b for b in boards if b.letter != letter)
        state = replace(
            state,
            won=_with(state.won, seat, state.won[seat] + new.tokens),
            completed=state.completed + ((seat, letter),),
            arrived="",
        )
    return replace(state, boards=boards)


def _end_turn(state: PRState) -> PRState:
    """Return the state with the turn passed on, or over (P10: nobody holds a joker; stalemate; no boards)."""
    if state.solitaire:
        return replace(state, phase="over", reason="board completed") if state.completed else state
    if not any(state.jokers):
        return replace(state, phase="over", reason="no player holds a joker")
    if not state.boards and not state.stack:
        return replace(state, phase="over", reason="no boards left")
    if state.passes >= state.players:
        return replace(state, phase="over", reason="nobody can move")
    return replace(state, turn=(state.turn + 1) % state.players, take_backs=0)


def apply(state: PRState, seat: int, move: object) -> PRState:
    """Return the state after ``seat`` makes ``move`` (already checked legal)."""
    normal = normalise(move)  # a tuple: what the phone sent as a list, what chance() drew as it is
    if seat == CHANCE:
        return _apply_chance(state, cast(ChanceMove, normal))  # what chance() drew, or the journal kept of it
    move = cast(PlayerMove, normal)  # the base's contract: only a move is_legal accepted is applied
    if move[0] == "choose":
        return replace(state, phase="play", boards=(Board(move[1]),), stack=())
    if move[0] == "place":
        return _end_turn(_place(state, seat, move[1], move[2]))
    if move[0] == "add":
        staged = state.staged + (move[2],)
        board = board_on_table(state, move[1])
        assert board is not None  # checked legal: the board is on the table
        if mask_of([p for _, cells in staged for p in cells]) == board.remaining:  # the figure is complete
            return _end_turn(_place(replace(state, staged=(), staged_on=""), seat, move[1], staged))
        return replace(state, staged=staged, staged_on=move[1])
    if move[0] == "take_back":
        return replace(state, staged=(), staged_on="", take_backs=state.take_backs + 1)
    if move[0] == "swap":  # exchanged against a piece *of the pile*: set aside, back in once the refill is drawn
        state = replace(
            state,
            racks=_with(state.racks, seat, _remove(state.racks[seat], [move[1]])),
            held=(seat, move[1]),
            swaps=state.swaps + 1,
            passes=state.passes + 1,
        )
        return state if state.solitaire else _end_turn(state)
    return _end_turn(replace(state, passes=state.passes + 1))


def outcome(state: PRState) -> Outcome | None:
    """Return the result once over: most tokens wins, ties shared (P10); solitaire: won if the board is done."""
    if state.phase != "over":
        return None
    if state.solitaire:
        done = bool(state.completed)
        return Outcome(
            winners=(0,) if done else (), scores=(float(state.won[0]),), reason=f"{state.reason}, {state.swaps} swap(s)"
        )
    best = max(state.won)
    return Outcome(
        winners=tuple(s for s, w in enumerate(state.won) if w == best),
        scores=tuple(float(w) for w in state.won),
        reason=state.reason,
    )


def view(state: PRState, seat: int | None) -> JSON:
    """Return what ``seat`` may see (``None``: the projector): only its own rack, never the pile's content."""
    data: JSON = {
        "game": "points-rouges",
        "phase": state.phase,
        "players": state.players,
        "to_move": list(to_move(state)),
        "boards": [
            {
                "letter": b.letter,
                "value": BOARD_VALUES[b.letter],
                "points": list(points_of(BOARD_MASKS[b.letter])),
                "covered": list(points_of(b.covered)),
                "tokens": b.tokens,
            }
            for b in state.boards
        ],
        "boards_in_stack": len(state.stack),
        "pile": len(state.pile),
        "rack_sizes": [len(r) for r in state.racks],
        "jokers": list(state.jokers),
        "won": list(state.won),
        "pot": state.pot,
        "swaps": state.swaps,
        "completed": [list(c) for c in state.completed],
        "reason": state.reason,
        "arrived": state.arrived or None,
    }
    if state.phase == "choose":
        data["choices"] = list(SOLITAIRE_BOARDS)
    if seat is not None and 0 <= seat < state.players:
        data["seat"] = seat
        data["my_rack"] = list(state.racks[seat])
        if seat == state.turn and state.phase == "play" and not state.solitaire:  # the mover's alone (P7c)
            data["staged"] = [[sid, list(cells)] for sid, cells in state.staged]
            data["staged_on"] = state.staged_on
            data["take_backs_left"] = MAX_TAKE_BACKS - state.take_backs
    return data


def turn_of(state: PRState) -> tuple[int, int, int, int, str]:
    """What changes when a turn ends (a placement, a swap, a pass, the board chosen): laying or taking back the
    pieces of a figure does not, so the turn keeps one clock however long the figure takes (P7b)."""
    return (state.turn, state.used, state.swaps, state.passes, state.phase)


RULES = Game(
    name="points-rouges",
    min_players=1,
    max_players=4,
    options_type=PointsRougesOptions,
    setup=setup,
    to_move=to_move,
    legal_moves=legal_moves,
    apply=apply,
    chance=chance,
    outcome=outcome,
    view=view,
    is_legal=is_legal,
    turn_of=turn_of,
)
