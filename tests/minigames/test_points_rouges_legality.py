"""Loto Points Rouges accepts exactly what it lists (issue 22): ``is_legal(m) ⇔ m in legal_moves`` on random
reachable states, the list as the oracle, the candidates drawn from the whole move space around each state."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.minigames.match import Match
from hall.minigames.points_rouges.moves import is_legal, legal_moves, normalise, to_move
from hall.minigames.points_rouges.pieces import BOARD_IDS, JOKER, PLACEMENTS, SHAPE_IDS, points_of
from hall.minigames.points_rouges.state import MAX_TAKE_BACKS, Board
from hall.minigames.registry import get_game

RULES = get_game("points-rouges")
KINDS = list(SHAPE_IDS) + [JOKER]


def reachable(players: int, seed: int, steps: int) -> Match:
    """A game played ``steps`` moves from its start, each move picked by kind first: taking back and laying a
    figure piece by piece are as likely as placing, so the take-back limit is often reached. A solitaire swaps
    (its one figure would end it) until it has nothing else to do."""
    rng = random.Random(seed)
    match = Match(RULES, players, rng=rng)
    for _ in range(steps):
        if match.outcome() is not None:
            break
        seat = to_move(match.state)[0]
        legal = legal_moves(match.state, seat)
        kinds = sorted({m[0] for m in legal} - ({"place"} if players == 1 and len(legal) > 1 else set()))
        kind = rng.choice(kinds or sorted({m[0] for m in legal}))
        match.play(seat, rng.choice([m for m in legal if m[0] == kind]))
    return match


def candidates(state, seat: int, rng: random.Random) -> list:
    """Listed moves, their near misses, and a sample of every kind of move on every board on the table."""
    legal = legal_moves(state, seat)
    out = list(legal)
    out += [("take_back",), ("pass",), ("take_back", 1), ("pass", None), ()]
    out += [("choose", b) for b in BOARD_IDS] + [("swap", sid) for sid in KINDS]
    letters = [b.letter for b in state.boards] + ["Z"]
    held = sorted(set(state.racks[seat]) | {JOKER}) if state.phase == "play" else []
    for board in state.boards:  # each piece in hand where it fits: the near misses that matter
        for sid in held:
            out += [("add", board.letter, (sid, points_of(m))) for m in PLACEMENTS[sid] if m & board.remaining == m][
                :12
            ]
    for _ in range(120):
        sid = rng.choice(KINDS)
        cells = points_of(rng.choice(PLACEMENTS[sid]))
        letter = rng.choice(letters)
        out += [("add", letter, (sid, cells)), ("place", letter, ((sid, cells),))]
    for move in [m for m in legal if m[0] == "place" and len(m[2]) > 1][:20]:  # a solitaire's figures, mutated
        out += [("place", move[1], move[2][1:]), ("place", move[1], move[2] + move[2][:1])]
        out += [("add", move[1], piece) for piece in move[2]]
    for move in [m for m in legal if m[0] == "add"][:20]:  # near misses of the listed
        sid, cells = move[2]
        out += [
            ("add", move[1], (sid, tuple(float(p) for p in cells))),
            ("add", move[1], (sid, cells[:-1])),
            ("place", move[1], (move[2],)),
            ("add", move[1], [sid, list(cells)]),
        ]
    return out


def check_agrees(state, seat: int, rng: random.Random) -> None:
    listed = legal_moves(state, seat)
    for move in candidates(state, seat, rng):
        assert is_legal(state, seat, move) == (normalise(move) in listed), (move, state)


@pytest.mark.slow
@settings(max_examples=80)
@given(players=st.sampled_from([1, 1, 2, 3, 4]), seed=st.integers(0, 10**6), steps=st.integers(0, 70))
def test_is_legal_accepts_exactly_the_listed_moves_on_reachable_states(players, seed, steps):
    match = reachable(players, seed, steps)
    if match.outcome() is None:
        check_agrees(match.state, to_move(match.state)[0], random.Random(seed))


@pytest.mark.slow
@settings(max_examples=40)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 40))
def test_the_same_once_the_take_backs_of_the_turn_are_spent(seed, steps):
    match = reachable(2, seed, steps)
    if match.outcome() is None:
        spent = replace(match.state, take_backs=MAX_TAKE_BACKS)
        check_agrees(spent, to_move(spent)[0], random.Random(seed))


def test_the_solitaire_refuses_a_piece_laid_on_its_own():
    """Issue 22: the solitaire's ``is_legal`` accepted an ``add`` that ``legal_moves`` never lists (after which
    every listed move was refused); the patience is built at once (P11), so it is refused."""
    state = replace(
        RULES.setup(1, None),
        phase="play",
        boards=(Board("K"),),
        racks=(("S06",) * 3 + ("J",) * 4 + ("S00",),),
        pile=("S10", "S11"),
    )
    laid = ("add", "K", ("S06", (0, 1, 2)))
    assert laid not in legal_moves(state, 0)
    assert not is_legal(state, 0, laid) and not is_legal(state, 0, ("take_back",))
