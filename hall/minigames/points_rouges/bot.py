"""The Loto Points Rouges bot: takes boards with the solver, keeps jokers for big boards, denies easy completions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from hall.minigames.points_rouges.pieces import BOARD_VALUES, JOKER, PLACEMENTS, SHAPES, points_of
from hall.minigames.points_rouges.solver import Cover, cover_cells, first_cover
from hall.minigames.points_rouges.state import (
    Place,
    PlayerMove,
    PRState,
    board_on_table,
    staged_mask,
    unstaged,
)

JOKER_COST = 2.5  # tokens a joker is worth kept for a bigger board later (seed: "18 ou 16 points plutôt que 6")
MIN_JOKER_GAIN = 1.0
SOLITAIRE_CHOICE = "F"  # the 12-point board with the most covers (RULES 5b): the easiest patience


def cheapest_cover(remaining: int, rack: Counter[str], jokers: int) -> Cover | None:
    """Return a cover of ``remaining`` by ``rack`` using as few jokers as possible, or None."""
    capacity = sum(len(SHAPES[s]) * n for s, n in rack.items() if s != JOKER)
    need = bin(remaining).count("1")
    for used in range(max(0, need - capacity), jokers + 1):
        cover = first_cover(remaining, {s: n for s, n in rack.items() if s != JOKER}, used)
        if cover is not None:
            return cover
    return None


def _completion_risk(left: int, opponent_jokers: int) -> float:
    """Return a rough chance that an opponent completes a board with ``left`` points uncovered next turn."""
    if left == 0:
        return 0.0
    if left <= min(opponent_jokers, 2):
        return 0.9
    for limit, chance in ((3, 0.6), (5, 0.3), (8, 0.1)):
        if left <= limit:
            return chance
    return 0.02


def _best_completion(
    state: PRState, seat: int, rack: Counter[str], jokers: int, free_jokers: int = 0
) -> tuple[float, Place] | None:
    """Return (score, move) of the most rewarding board completion, jokers beyond ``free_jokers`` charged."""
    best: tuple[float, Place] | None = None
    for board in state.boards:
        cover = cheapest_cover(board.remaining, rack, jokers)
        if cover is None:
            continue
        used = sum(1 for sid, _ in cover if sid == JOKER)
        score = BOARD_VALUES[board.letter] - JOKER_COST * max(0, used - free_jokers)
        if used > free_jokers and score < MIN_JOKER_GAIN:
            continue  # a joker is kept for a bigger board (seed advice)
        if best is None or score > best[0]:
            best = (score, ("place", board.letter, cover_cells(cover)))
    return best


def _safest_placement(state: PRState, seat: int, kinds: Sequence[str], rng: random.Random) -> Place | None:
    """Return the single placement that leaves the opponents the least to win on their next turn."""
    opponent_jokers = max((j for s, j in enumerate(state.jokers) if s != seat), default=0)
    best: Place | None = None
    best_score: float | None = None
    for board in state.boards:
        remaining = board.remaining
        value = BOARD_VALUES[board.letter]
        for sid in kinds:
            for mask in PLACEMENTS[sid]:
                if mask & remaining != mask:
                    continue
                left = bin(remaining & ~mask).count("1")
                score = -value * _completion_risk(left, opponent_jokers) + 0.1 * len(SHAPES.get(sid, (0,)))
                score += 0.001 * rng.random()  # break ties without a fixed bias to one board
                if best_score is None or score > best_score:
                    best, best_score = ("place", board.letter, ((sid, points_of(mask)),)), score
    return best


def _flexibility(state: PRState, sid: str) -> int:
    """Return how many placements ``sid`` has on the table's boards (a stuck player swaps the least flexible)."""
    return sum(1 for b in state.boards for m in PLACEMENTS[sid] if m & b.remaining == m)


def _solitaire(state: PRState, rng: random.Random) -> PlayerMove:
    """Return the patience move: complete the board if the rack can, else swap the least useful piece."""
    rack = Counter(state.racks[0])
    board = state.boards[0]
    cover = cheapest_cover(board.remaining, rack, rack[JOKER])
    if cover is not None:
        return ("place", board.letter, cover_cells(cover))
    shaped = [s for s in rack if s != JOKER] or list(rack)
    # a piece beyond what the board can use, or with few placements, is the one to give back
    return ("swap", min(shaped, key=lambda s: (_flexibility(state, s) - 3 * rack[s], s)))


def _continue_figure(state: PRState, seat: int) -> PlayerMove:
    """Return the next piece of the figure begun this turn (P7), or take the pieces back if none completes it."""
    board = board_on_table(state, state.staged_on)
    rack, jokers = unstaged(state, seat)
    cover = cheapest_cover(board.remaining & ~staged_mask(state), rack, jokers) if board is not None else None
    if cover is None:
        return ("take_back",)
    sid, mask = cover[0]
    return ("add", state.staged_on, (sid, points_of(mask)))


def _one_step(state: PRState, move: PlayerMove) -> PlayerMove:
    """A completion of several pieces is laid one piece at a time (P7): its first piece; else the move itself."""
    if move[0] == "place" and len(move[2]) > 1 and not state.solitaire:
        return ("add", move[1], move[2][0])
    return move


def bot(state: PRState, seat: int, rng: random.Random) -> PlayerMove:
    """Return the bot's move for ``seat``: always a legal one."""
    if state.phase == "choose":
        return ("choose", SOLITAIRE_CHOICE)
    if state.solitaire:
        return _solitaire(state, rng)
    if state.staged:  # a figure begun (by this bot, or by a phone it plays for)
        return _continue_figure(state, seat)
    return _one_step(state, _table_move(state, seat, rng))


def _table_move(state: PRState, seat: int, rng: random.Random) -> PlayerMove:
    """The bot's choice at a table, a completion of several pieces given whole."""
    rack = Counter(state.racks[seat])
    jokers = state.jokers[seat]
    completion = _best_completion(state, seat, rack, jokers)
    if completion is not None:
        return completion[1]
    move = _safest_placement(state, seat, sorted(rack), rng)
    if move is None and jokers:  # P9: stuck with a joker, so a joker must be played: better in a completion
        completion = _best_completion(state, seat, rack, jokers, free_jokers=1)
        move = completion[1] if completion else _safest_placement(state, seat, [JOKER], rng)
    if move is not None:
        return move
    if state.pile and not jokers and rack:
        return ("swap", min(sorted(rack), key=lambda s: _flexibility(state, s)))
    return ("pass",)
