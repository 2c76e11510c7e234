"""La Linotte read like RULES §4: one scenario per line N1–N12, then views, refusals and the bot."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from hall.minigames.base import CHANCE
from hall.minigames.linotte.rules import (
    EMPTY,
    GRID,
    LINES,
    LinotteOptions,
    LinotteState,
    apply,
    is_legal,
    labels_open,
    legal_moves,
    outcome,
    places,
    score,
    to_move,
    view,
)
from hall.minigames.match import Match
from hall.minigames.registry import get_game
from hall.refusal import Rejected

GAME = get_game("linotte")

CELL = {(r, c): r * 5 + c for r in range(5) for c in range(5)}


def board(text: str) -> tuple[int, ...]:
    """A board from five rows separated by "/": X is seat 0, O is seat 1, "." is free ("XXX.. / ..O.. / ...")."""
    rows = [row.strip() for row in text.split("/")]
    assert len(rows) == 5 and all(len(row) == 5 for row in rows)
    return tuple({"X": 0, "O": 1, ".": EMPTY}[ch] for row in rows for ch in row)


EMPTY_BOARD = board("...../...../...../...../.....")


def shown(
    dice: str,
    rolls: int = 3,
    cells: str = "...../...../...../...../.....",
    turn: int = 0,
    appel: str | None = None,
    options: LinotteOptions = LinotteOptions(),
) -> LinotteState:
    """The player on turn looking at ``dice`` ("1 1 1 2 3") after roll number ``rolls``."""
    grid = board(cells)
    return LinotteState(
        options=options,
        board=grid,
        turn=turn,
        phase="choose",
        dice=tuple(sorted(int(d) for d in dice.split())),
        rolls=rolls,
        appel=appel,
        scores=(score(grid, 0), score(grid, 1)),
    )


def open_labels(dice: str, **kw) -> set[str]:
    """The grid labels open with ``dice``."""
    return set(labels_open(shown(dice, **kw)))


def test_N1_the_grid_is_the_seed_grid():
    assert GRID[:5] == ("1", "3", "APPEL", "4", "6")
    assert GRID[5:10] == ("2", "CARRE", "SEC", "FULL", "5")
    assert GRID[10:15] == ("SMALL", "FULL", "YAM", "APPEL", "QUINTE")
    assert GRID[15:20] == ("6", "SEC", "QUINTE", "SMALL", "1")
    assert GRID[20:25] == ("3", "2", "CARRE", "5", "4")
    counts = Counter(GRID)
    assert all(counts[str(face)] == 2 for face in range(1, 7))
    assert all(counts[label] == 2 for label in ("APPEL", "SEC", "CARRE", "FULL", "SMALL", "QUINTE"))
    assert counts["YAM"] == 1 and GRID[12] == "YAM" and len(GRID) == 25


def test_N2_twenty_lines_rows_columns_and_diagonals_of_three_or_more():
    assert len(LINES) == 20 and len(set(LINES)) == 20
    assert Counter(len(line) for line in LINES) == {5: 12, 4: 4, 3: 4}
    assert (CELL[2, 0], CELL[3, 1], CELL[4, 2]) in LINES and (CELL[0, 2], CELL[1, 1], CELL[2, 0]) in LINES
    assert not any(set(line) == {CELL[0, 3], CELL[1, 4]} for line in LINES)  # length-2 diagonals do not count


def test_N3_a_run_scores_length_minus_two_never_its_sub_runs():
    assert score(board("XXX../...../...../...../....."), 0) == 1
    assert score(board("XXXX./...../...../...../....."), 0) == 2
    assert score(board("XXXXX/...../...../...../....."), 0) == 3
    # A pawn in two lines counts in both: a row of 3 and a column of 3 sharing a corner.
    assert score(board("XXX../X..../X..../...../....."), 0) == 2


def test_N4_an_opponent_pawn_or_a_gap_breaks_a_run():
    assert score(board("XXOXX/...../...../...../....."), 0) == 0
    assert score(board("XX.XX/...../...../...../....."), 0) == 0
    assert score(board("XXXOX/...../...../...../....."), 0) == 1


def test_N5_one_roll_may_give_several_combinations_to_choose_from():
    assert open_labels("1 1 1 1 1") == {"YAM", "SMALL", "CARRE", "FULL", "1"}
    assert open_labels("4 4 4 4 1") == {"CARRE", "4"}
    assert open_labels("5 5 5 2 2") == {"FULL", "5"}
    state = shown("1 1 1 1 1")
    assert {GRID[c] for c in places(state)} == {"YAM", "SMALL", "CARRE", "FULL", "1"}


def test_N6_definitions_of_the_combinations():
    assert open_labels("1 2 3 4 5") == {"QUINTE"} and open_labels("2 3 4 5 6") == {"QUINTE"}
    assert open_labels("1 1 1 2 3") == {"SMALL", "1"}  # 8: small
    assert open_labels("1 1 2 2 3") == set()  # 9: not small
    assert open_labels("3 3 3 6 5") == {"3"}  # a brelan opens only its two cells
    assert open_labels("1 2 3 4 6") == set()
    state = shown("3 3 3 6 5")
    assert places(state) == (CELL[0, 1], CELL[4, 0])


def test_N7_up_to_three_rolls_keeping_any_dice_and_placing_is_never_compulsory():
    state = shown("2 2 5 6 6", rolls=1)
    keeps = {m[1] for m in legal_moves(state, 0) if m[0] == "keep"}
    assert len(keeps) == 3 * 2 * 3 - 1 and (2, 2, 6, 6) in keeps and () in keeps
    state = apply(state, 0, ("keep", (6, 6), None))
    assert to_move(state) == (CHANCE,) and state.kept == (6, 6)
    state = apply(state, CHANCE, ("roll", (6, 1, 1)))
    assert state.dice == (1, 1, 6, 6, 6) and state.rolls == 2 and places(state)
    assert ("stop",) in legal_moves(state, 0)  # not compulsory
    state = apply(apply(state, 0, ("keep", (1, 6, 6, 6), None)), CHANCE, ("roll", (2,)))
    assert state.rolls == 3 and not any(m[0] == "keep" for m in legal_moves(state, 0))
    passed = apply(apply(shown("1 2 3 4 6", rolls=2), 0, ("keep", (1, 2, 3, 4), None)), CHANCE, ("roll", (6,)))
    assert passed.turn == 1 and passed.phase == "roll" and passed.idle == 1  # nothing to place: the turn passes


def test_N8_sec_is_a_major_on_the_first_roll_and_opens_sec_or_its_own_cell():
    assert open_labels("2 3 4 5 6", rolls=1) == {"QUINTE", "SEC"}
    assert open_labels("2 3 4 5 6", rolls=2) == {"QUINTE"}
    assert open_labels("3 3 3 4 4", rolls=1) == {"FULL", "SEC", "3"}
    assert open_labels("3 3 3 4 5", rolls=1) == {"3"}  # a brelan is not a major


def test_N9_appel_is_announced_after_roll_one_and_opens_appel_when_reached():
    state = shown("1 2 3 5 6", rolls=1)
    assert ("keep", (1, 2, 3, 5), "QUINTE") in legal_moves(state, 0)
    state = apply(state, 0, ("keep", (1, 2, 3, 5), "QUINTE"))
    state = apply(state, CHANCE, ("roll", (3,)))
    assert state.appel == "QUINTE" and not any(m[0] == "keep" and m[2] for m in legal_moves(state, 0))
    state = apply(apply(state, 0, ("keep", (1, 2, 3, 5), None)), CHANCE, ("roll", (4,)))
    assert set(labels_open(state)) == {"QUINTE", "APPEL"}


def test_N9_a_failed_appel_leaves_the_other_cells_unless_strict():
    assert open_labels("4 4 4 1 2", rolls=3, appel="YAM") == {"4"}
    strict = LinotteOptions(strict_appel=True)
    assert open_labels("4 4 4 1 2", rolls=3, appel="YAM", options=strict) == set()
    assert open_labels("4 4 4 4 4", rolls=3, appel="YAM", options=strict) == {"APPEL", "YAM"}
    assert open_labels("4 4 4 4 4", rolls=3, appel="YAM") == {"APPEL", "YAM", "CARRE", "FULL", "4"}


def test_N10_appel_after_a_sec_needs_a_die_of_the_combination_rerolled():
    state = shown("4 4 4 4 1", rolls=1)
    assert not is_legal(state, 0, ("keep", (4, 4, 4, 4), "CARRE"))  # keeps the whole carré
    assert is_legal(state, 0, ("keep", (4, 4, 4, 4), None))
    assert is_legal(state, 0, ("keep", (1, 4, 4, 4), "CARRE"))
    assert is_legal(state, 0, ("keep", (1, 4, 4, 4), "YAM"))  # another major may be called
    assert is_legal(shown("2 3 4 5 6", rolls=1), 0, ("keep", (2, 3, 4, 5), "QUINTE"))


def test_N11_a_run_of_five_ends_the_game_at_once():
    cells = "XXXX./OO.../O..O./...../....O"
    state = apply(shown("1 1 1 3 3", cells=cells), 0, ("place", CELL[3, 4]))  # a "1": no run of 5
    assert state.phase == "roll" and state.turn == 1
    state = apply(shown("6 6 6 2 2", cells=cells), 0, ("place", CELL[0, 4]))  # a "6": the top row is full
    result = outcome(state)
    assert state.phase == "over" and result.reason == "run of five" and result.winners == (0,)
    assert result.scores == (3.0, 0.0) and to_move(state) == ()


def test_N11_the_twelfth_pawn_ends_the_game_even_for_the_player_behind():
    state = shown("5 5 5 1 2", cells="XOXOX/OXOXO/XX.OO/OXOXO/XOX..")  # 11 pawns each
    state = apply(state, 0, ("place", CELL[4, 3]))
    result = outcome(state)
    assert state.reason == "twelve pawns placed" and result.scores == (3.0, 5.0) and result.winners == (1,)


def test_N11_equal_totals_are_a_draw():
    state = shown("1 1 1 2 3", cells="XOOXO/OO.XO/X.XOX/XOOX./XXOXO")
    assert places(state) == (CELL[3, 4],)
    result = outcome(apply(state, 0, ("place", CELL[3, 4])))
    assert result.scores == (1.0, 1.0) and result.winners == (0, 1) and result.reason.endswith("draw")


def test_N11_idle_turn_cap_scores_the_position():
    options = LinotteOptions(idle_turn_cap=3)
    cells = "XXX../...../...../...../....."
    state = apply(replace(shown("1 2 3 4 6", cells=cells, options=options), idle=1), 0, ("stop",))
    assert state.phase == "roll" and state.idle == 2 and state.turn == 1
    state = apply(replace(shown("1 2 3 4 6", cells=cells, options=options), idle=2), 0, ("stop",))
    assert state.phase == "over" and outcome(state).winners == (0,)
    assert outcome(state).reason == "idle turn cap"
    placed = apply(replace(shown("3 3 3 4 6", cells=cells, options=options), idle=2), 0, ("place", CELL[4, 0]))
    assert placed.idle == 0 and placed.phase == "roll"  # a pawn resets the count


def test_N12_pawns_go_only_on_free_cells_and_never_move():
    state = shown("3 3 3 1 2", cells="O..../...../...../...../X....")  # both "3" cells: (0,1) and (4,0)
    assert places(state) == (CELL[0, 1],)
    assert not is_legal(state, 0, ("place", CELL[4, 0])) and not is_legal(state, 0, ("place", CELL[0, 0]))
    after = apply(state, 0, ("place", CELL[0, 1]))
    assert after.board[CELL[0, 0]] == 1 and after.board[CELL[4, 0]] == 0 and after.board[CELL[0, 1]] == 0


def test_views_are_json_and_hold_no_rng():
    match = Match(GAME, 2, rng=random.Random(2))
    for seat in (None, 0, 1):
        text = json.dumps(match.view(seat))
        assert "rng" not in text.lower() and "random" not in text.lower()
    assert match.view(1)["seat"] == 1 and "seat" not in match.view(None)
    table = view(shown("3 3 3 1 2", cells="X..../...../...../...../....O"), None)
    assert table["grid"][0][0] == {"label": "1", "pawn": 0} and table["grid"][4][4] == {"label": "4", "pawn": 1}
    assert table["open_cells"] == [CELL[0, 1], CELL[4, 0]] and table["dice"] == [1, 2, 3, 3, 3]


def test_match_refuses_out_of_turn_illegal_stale_and_finished_moves():
    match = Match(GAME, 2, rng=random.Random(4))
    seat = match.state.turn
    for who, move, version, code in [
        (1 - seat, ("stop",), None, "not_your_turn"),
        (seat, ("keep", (7,), None), None, "illegal_move"),
        (seat, ("place", 99), None, "illegal_move"),
        (seat, ("stop",), match.version + 1, "stale_version"),
    ]:
        with pytest.raises(Rejected) as refused:
            match.play(who, move, version)
        assert refused.value.code == code
    match.state = LinotteState(options=LinotteOptions(), phase="over", scores=(1, 0), reason="run of five")
    with pytest.raises(Rejected) as refused:
        match.play(0, ("stop",))
    assert refused.value.code == "game_over"


def test_bot_completes_its_run_or_blocks_the_opponents():
    bot = GAME.bots["default"]
    rng = random.Random(0)
    # "4" cells are (0,3) and (4,4): (0,3) makes X's row run 4 long.
    assert bot(shown("4 4 4 1 2", cells="XXX../OO.../...../...../....."), 0, rng) == ("place", CELL[0, 3])
    # Only "4" (4,4) would give O a run of three on the bottom row; (0,3) is useless to X there.
    assert bot(shown("4 4 4 1 2", cells="O..../...../...../.X.../..OO."), 0, rng) == ("place", CELL[4, 4])


def test_bot_keeps_the_dice_for_the_cell_it_wants():
    bot = GAME.bots["default"]
    # The "5" at the end of the second row completes X's run of five: with 5 5 1 2 6 it keeps the fives.
    move = bot(shown("5 5 1 2 6", rolls=1, cells="...../XXXX./...../...../....."), 0, random.Random(0))
    assert move[0] == "keep" and move[1] == (5, 5)


def test_bot_will_not_end_the_game_with_its_last_pawn_when_behind():
    state = shown("2 2 2 1 3", cells="OXXOX/.OXOO/.XOOX/XO.OX/OXXXO")  # X: 11 pawns, 2 points to 7
    assert state.board.count(0) == 11 and state.scores == (2, 7) and places(state) == (CELL[1, 0],)
    assert GAME.bots["default"](state, 0, random.Random(0)) == ("stop",)
