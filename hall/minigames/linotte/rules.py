"""La Linotte (Saga, J. Gardeil & F. Sahut): the rules engine of RULES §4 (N1–N12) as data plus pure functions.

Cells are numbered 0–24 row by row. A player's moves are ``("keep", dice_kept, appel)`` (reroll the
others; ``appel`` is a major combination announced after the first roll, else ``None``),
``("place", cell)`` and ``("stop",)``. Chance moves are ``("first", seat)`` (who starts) and
``("roll", values)`` (the dice thrown, in the order thrown).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from functools import cache
from itertools import product
from typing import Literal

from hall.minigames.base import CHANCE, JSON, Game, Outcome

Keep = tuple[Literal["keep"], tuple[int, ...], str | None]
"""Keep these dice (sorted) and reroll the others, announcing an appel or ``None``."""
Place = tuple[Literal["place"], int]
Stop = tuple[Literal["stop"]]
PlayerMove = Keep | Place | Stop
First = tuple[Literal["first"], int]
"""Chance: the seat that starts."""
Roll = tuple[Literal["roll"], tuple[int, ...]]
"""Chance: the dice thrown, in the order thrown."""
LinotteMove = PlayerMove | First | Roll
LastTurn = tuple[int, tuple[int, ...], int | None]
"""The last finished turn: (seat, dice, the cell taken or ``None``)."""

# The seed's grid, cell by cell (N1).
GRID_TEXT = """\
1\t3\tAPPEL\t4\t6
2\tCARRE\tSEC\tFULL\t5
SMALL\tFULL\tYAM\tAPPEL\tQUINTE
6\tSEC\tQUINTE\tSMALL\t1
3\t2\tCARRE\t5\t4"""
GRID: tuple[str, ...] = tuple(label for row in GRID_TEXT.splitlines() for label in row.split("\t"))
SIDE = 5
EMPTY = -1
PAWNS = 12
DICE = 5
ROLLS = 3
FULL, QUINTE, CARRE, SMALL, YAM, SEC, APPEL = "FULL", "QUINTE", "CARRE", "SMALL", "YAM", "SEC", "APPEL"
MAJORS = (FULL, QUINTE, CARRE, SMALL, YAM)


def _lines() -> tuple[tuple[int, ...], ...]:
    """The 20 lines of N2: 5 rows, 5 columns and the 10 diagonals of length 3 or more."""
    rows = [tuple(r * SIDE + c for c in range(SIDE)) for r in range(SIDE)]
    cols = [tuple(r * SIDE + c for r in range(SIDE)) for c in range(SIDE)]
    diagonals = []
    for dc in (1, -1):
        starts = [(0, c) for c in range(SIDE)] + [(r, 0 if dc == 1 else SIDE - 1) for r in range(1, SIDE)]
        for r0, c0 in starts:
            cells = []
            r, c = r0, c0
            while 0 <= r < SIDE and 0 <= c < SIDE:
                cells.append(r * SIDE + c)
                r, c = r + 1, c + dc
            if len(cells) >= 3:
                diagonals.append(tuple(cells))
    return tuple(rows + cols + diagonals)


LINES = _lines()
LINES_THROUGH = tuple(tuple(line for line in LINES if cell in line) for cell in range(SIDE * SIDE))


@dataclass(frozen=True, slots=True)
class LinotteOptions:
    """The RULES §4 flags: a failed appel places nothing (N9); turns in a row with no pawn before scoring (N11)."""

    strict_appel: bool = False
    idle_turn_cap: int = 60

    def __post_init__(self) -> None:
        if self.idle_turn_cap < 1:
            raise ValueError(f"linotte: idle_turn_cap must be at least 1, got {self.idle_turn_cap!r}")


@dataclass(frozen=True, slots=True)
class LinotteState:
    """One moment of a Linotte game; every field is an immutable value."""

    options: LinotteOptions
    board: tuple[int, ...] = (EMPTY,) * (SIDE * SIDE)  # the seat owning each cell, or EMPTY
    turn: int = 0
    phase: str = "first"  # first | roll | choose | over
    dice: tuple[int, ...] = ()  # sorted
    kept: tuple[int, ...] = ()  # the dice kept for the coming roll
    rolls: int = 0  # rolls made this turn
    appel: str | None = None  # the major combination announced this turn (N9)
    idle: int = 0  # turns in a row with no pawn placed (N11 cap)
    turns: int = 0
    scores: tuple[int, int] = (0, 0)
    reason: str = ""
    last: LastTurn | tuple[()] = ()  # none before the first turn ends


@cache
def majors(dice: tuple[int, ...]) -> frozenset[str]:
    """The major combinations the five ``dice`` show (N6; a Yam is also a Carré, a Full and maybe a Small, N5)."""
    counts = sorted(Counter(dice).values(), reverse=True)
    found = set()
    if counts[0] == 5:
        found.add(YAM)
    if counts[0] >= 4:
        found.add(CARRE)
    if counts[0] == 5 or counts[:2] == [3, 2]:
        found.add(FULL)
    if sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]):
        found.add(QUINTE)
    if sum(dice) <= 8:
        found.add(SMALL)
    return frozenset(found)


@cache
def combinations(dice: tuple[int, ...]) -> frozenset[str]:
    """The grid labels the dice give on their own: the majors plus a brelan's face ("1"–"6", N5, N6)."""
    brelans = {str(face) for face, n in Counter(dice).items() if n >= 3}
    return majors(dice) | brelans


def run_score(board: tuple[int, ...], seat: int, line: tuple[int, ...]) -> int:
    """Points of ``seat`` in one line: each maximal run of L ≥ 3 pawns scores L − 2 (N3, N4)."""
    points = run = 0
    for cell in line + (None,):
        if cell is not None and board[cell] == seat:
            run += 1
            continue
        if run >= 3:
            points += run - 2
        run = 0
    return points


def score(board: tuple[int, ...], seat: int) -> int:
    """The total of ``seat`` over the 20 lines (N2, N3)."""
    return sum(run_score(board, seat, line) for line in LINES)


def has_five(board: tuple[int, ...], seat: int, cell: int) -> bool:
    """Whether the pawn on ``cell`` completes a run of 5 for ``seat`` (N11)."""
    return any(len(line) == SIDE and all(board[c] == seat for c in line) for line in LINES_THROUGH[cell])


def labels_open(state: LinotteState) -> frozenset[str]:
    """The grid labels the player on turn may put a pawn on with the dice shown (N5, N8, N9)."""
    if state.phase != "choose":
        return frozenset()
    shown = majors(state.dice)
    labels = set(combinations(state.dice))
    if state.rolls == 1 and shown:
        labels.add(SEC)  # N8: a major on the first roll
    if state.appel is not None:
        achieved = state.appel in shown
        if achieved:
            labels.add(APPEL)
        if state.options.strict_appel:
            labels = {APPEL, state.appel} if achieved else set()
    return frozenset(labels)


def places(state: LinotteState) -> tuple[int, ...]:
    """The free cells the player on turn may put a pawn on now."""
    labels = labels_open(state)
    return tuple(cell for cell, label in enumerate(GRID) if label in labels and state.board[cell] == EMPTY)


@cache
def keeps(dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct set of dice that may be kept for a reroll (at least one die is rerolled)."""
    counts = sorted(Counter(dice).items())
    found = []
    for chosen in product(*(range(n + 1) for _, n in counts)):
        kept = tuple(face for (face, _), k in zip(counts, chosen) for _ in range(k))
        if len(kept) < len(dice):
            found.append(kept)
    return tuple(found)


def appel_allowed(dice: tuple[int, ...], kept: tuple[int, ...]) -> bool:
    """Whether an appel may be announced keeping ``kept`` (N10: after a Sec, a die of it must be rerolled)."""
    if not majors(dice):
        return True
    # Full, Quinte, Small and Yam use all five dice, so any reroll touches them; a Carré only its four.
    face, n = Counter(dice).most_common(1)[0]
    return n < 4 or kept.count(face) < n


def setup(players: int = 2, options: LinotteOptions | None = None) -> LinotteState:
    """A game before the draw for who starts."""
    return LinotteState(options=options if options is not None else LinotteOptions())


def to_move(state: LinotteState) -> tuple[int, ...]:
    """``(CHANCE,)`` before a roll, the seat on turn when it must choose, ``()`` once over."""
    if state.phase in ("first", "roll"):
        return (CHANCE,)
    if state.phase == "choose":
        return (state.turn,)
    return ()


def legal_moves(state: LinotteState, seat: int) -> list[PlayerMove]:
    """Every move of ``seat``: place on an open cell, stop, or keep some dice (and announce an appel after roll 1)."""
    if state.phase != "choose" or seat != state.turn:
        return []
    moves: list[PlayerMove] = [("place", cell) for cell in places(state)]
    moves.append(("stop",))
    if state.rolls < ROLLS:
        for kept in keeps(state.dice):
            moves.append(("keep", kept, None))
            if state.rolls == 1 and appel_allowed(state.dice, kept):
                moves.extend(("keep", kept, appel) for appel in MAJORS)
    return moves


def is_legal(state: LinotteState, seat: int, move: object) -> bool:
    """Whether ``move`` (a tuple or its JSON list form) is legal for ``seat`` now."""
    if state.phase != "choose" or seat != state.turn or not isinstance(move, (list, tuple)) or not move:
        return False
    try:
        normal = _normal(move)
    except (TypeError, ValueError, IndexError, KeyError, OverflowError):
        return False
    if normal[0] == "stop":
        return True
    if normal[0] == "place":
        return normal[1] in places(state)
    if normal[0] == "keep" and state.rolls < ROLLS:
        _, kept, appel = normal
        if kept not in keeps(state.dice):
            return False
        return appel is None or (state.rolls == 1 and appel in MAJORS and appel_allowed(state.dice, kept))
    return False


def _normal(move: object) -> LinotteMove:
    """``move`` as a canonical tuple (JSON turns tuples into lists; kept dice are sorted); raises ``ValueError``
    (or ``TypeError``…) for anything that is no move of this game."""
    if not isinstance(move, (list, tuple)) or not move:
        raise ValueError(f"linotte: a move is a non-empty list, got {move!r}")
    kind: object = move[0]
    if kind == "keep":
        _, kept, appel = move
        if appel is not None and not isinstance(appel, str):
            raise ValueError("linotte: an appel is a combination's name")  # no repr: a phone's JSON may nest deep
        return ("keep", tuple(sorted(int(d) for d in kept)), appel)
    if kind == "place":
        _, cell = move
        return ("place", int(cell))
    if kind == "first":
        _, first = move
        return ("first", int(first))
    if kind == "roll":
        return ("roll", tuple(int(d) for d in move[1]))
    if kind == "stop":
        return ("stop",)
    raise ValueError("linotte: not a move of this game")  # no repr: a phone's JSON may nest deep


def chance(state: LinotteState, rng: random.Random) -> First | Roll:
    """The chance move due now: who starts, or the values of the dice thrown."""
    if state.phase == "first":
        return ("first", rng.randrange(2))
    return ("roll", tuple(rng.randint(1, 6) for _ in range(DICE - len(state.kept))))


def apply(state: LinotteState, seat: int, move: object) -> LinotteState:
    """The state after ``seat`` plays ``move`` (chance moves come with seat ``CHANCE``)."""
    normal = _normal(move)
    if seat == CHANCE:
        if normal[0] == "first" and state.phase == "first" and normal[1] in (0, 1):
            return replace(state, turn=normal[1], phase="roll")
        if normal[0] == "roll" and state.phase == "roll" and _good_roll(state, normal[1]):
            return _rolled(state, normal[1])
    elif is_legal(state, seat, normal):
        if normal[0] == "place":
            return _place(state, seat, normal[1])
        if normal[0] == "stop":
            return _end_turn(state, None)
        if normal[0] == "keep":
            return replace(state, kept=normal[1], appel=normal[2] or state.appel, phase="roll")
    raise ValueError(f"linotte: move {move!r} is not legal for seat {seat} in phase {state.phase!r}")


def _good_roll(state: LinotteState, values: tuple[int, ...]) -> bool:
    """Whether ``values`` is a throw of exactly the dice not kept."""
    return len(values) == DICE - len(state.kept) and all(1 <= v <= 6 for v in values)


def _rolled(state: LinotteState, values: tuple[int, ...]) -> LinotteState:
    """The state after a throw; after the third throw with nothing to place, the turn passes (N7)."""
    state = replace(state, dice=tuple(sorted(state.kept + values)), kept=(), rolls=state.rolls + 1, phase="choose")
    if state.rolls == ROLLS and not places(state):
        return _end_turn(state, None)
    return state


def _place(state: LinotteState, seat: int, cell: int) -> LinotteState:
    """The state after ``seat`` puts a pawn on ``cell``; a run of 5 or the 12th pawn ends the game at once (N11)."""
    board = state.board[:cell] + (seat,) + state.board[cell + 1 :]
    scores = (score(board, 0), score(board, 1))
    state = replace(state, board=board, scores=scores)
    if has_five(board, seat, cell):
        return _finish(state, cell, "run of five")
    if board.count(seat) == PAWNS:
        return _finish(state, cell, "twelve pawns placed")
    return _end_turn(state, cell)


def _end_turn(state: LinotteState, cell: int | None) -> LinotteState:
    """The next player's turn, or the end of the game once the idle-turn cap is reached (N11)."""
    idle = 0 if cell is not None else state.idle + 1
    state = replace(state, idle=idle, turns=state.turns + 1, last=(state.turn, state.dice, cell))
    if idle >= state.options.idle_turn_cap:
        return replace(state, phase="over", reason="idle turn cap")
    return replace(state, turn=1 - state.turn, phase="roll", dice=(), kept=(), rolls=0, appel=None)


def _finish(state: LinotteState, cell: int, reason: str) -> LinotteState:
    """The finished game after the pawn on ``cell``."""
    return replace(
        state, phase="over", reason=reason, idle=0, turns=state.turns + 1, last=(state.turn, state.dice, cell)
    )


def outcome(state: LinotteState) -> Outcome | None:
    """The higher total wins; an equal total is a draw and both seats are listed as winners (N11)."""
    if state.phase != "over":
        return None
    top = max(state.scores)
    winners = tuple(seat for seat in (0, 1) if state.scores[seat] == top)
    reason = state.reason + ("; draw" if len(winners) == 2 else "")
    return Outcome(winners=winners, scores=tuple(float(s) for s in state.scores), reason=reason)


def view(state: LinotteState, seat: int | None) -> JSON:
    """The whole table (La Linotte hides nothing); a seat's view also says which seat it is."""
    last = None
    if state.last:
        who, dice, cell = state.last
        last = {"seat": who, "dice": list(dice), "cell": cell}
    table: JSON = {
        "game": "linotte",
        "phase": state.phase,
        "turn": state.turn if state.phase in ("roll", "choose") else None,
        "grid": [
            [
                {
                    "label": GRID[r * SIDE + c],
                    "pawn": None if state.board[r * SIDE + c] == EMPTY else state.board[r * SIDE + c],
                }
                for c in range(SIDE)
            ]
            for r in range(SIDE)
        ],
        "dice": list(state.dice),
        "rolls": state.rolls,
        "appel": state.appel,
        "sec": state.phase == "choose" and state.rolls == 1 and bool(majors(state.dice)),
        "open_cells": list(places(state)),
        "scores": list(state.scores),
        "pawns_left": [PAWNS - state.board.count(s) for s in (0, 1)],
        "idle_turns": state.idle,
        "last": last,
        "reason": state.reason or None,
    }
    if seat is not None and seat in (0, 1):
        table["seat"] = seat
    return table


RULES = Game(
    name="linotte",
    min_players=2,
    max_players=2,
    options_type=LinotteOptions,
    setup=setup,
    to_move=to_move,
    legal_moves=legal_moves,
    apply=apply,
    chance=chance,
    outcome=outcome,
    view=view,
    is_legal=is_legal,
)
