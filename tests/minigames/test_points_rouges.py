"""Loto Points Rouges scenarios, one per line of RULES §5 (P1–P11, 5a, 5b), from given racks and boards."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from hall.minigames.base import CHANCE
from hall.minigames.points_rouges.moves import is_legal, legal_moves, to_move
from hall.minigames.points_rouges.moves import normalise as normalise_move
from hall.minigames.points_rouges.pieces import (
    BOARD_FIGURES,
    BOARD_MASKS,
    BOARD_VALUES,
    JOKER,
    SHAPES,
    all_pieces,
    enumerate_shapes,
    mask_of,
    normalise,
    parse_figure,
    shape_of,
)
from hall.minigames.points_rouges.rules import apply, chance, outcome, setup
from hall.minigames.points_rouges.rules import view as view_of
from hall.minigames.points_rouges.state import Board, PointsRougesOptions
from hall.minigames.registry import get_game

GAME = get_game("points-rouges")

N_POINTS = (0, 2, 10, 12, 20, 22)  # board N: `o.o../...../o.o../...../o.o..`


def table(
    boards=("N", "K", "H"),
    racks=(("S01", "S01", "S06", "S06", "S00"), ("S05", "S05", "S05", "S17", "S17")),
    jokers=None,
    covered=None,
    pile=None,
    turn=0,
):
    """A two- (or more-) player game in play with the given boards, racks and jokers."""
    players = len(racks)
    state = setup(players, None)
    covered = covered or {}
    on_table = tuple(Board(b, mask_of(covered.get(b, ())), len(covered.get(b, ()))) for b in boards)
    stack = tuple(b for b in sorted(BOARD_FIGURES) if b not in boards)
    return replace(
        state,
        boards=on_table,
        stack=stack,
        racks=tuple(tuple(sorted(r)) for r in racks),
        jokers=tuple(jokers) if jokers is not None else state.jokers,
        pile=tuple(sorted(pile)) if pile is not None else state.pile[:40],
        turn=turn,
    )


def place(board, *pieces):
    """A placement move: ``pieces`` are (shape, cells) pairs."""
    return ("place", board, tuple(pieces))


def test_P1_dots_sit_on_a_3x3_lattice_with_the_board_spacing():
    assert all(max(r for r, _ in s) <= 2 and max(c for _, c in s) <= 2 for s in SHAPES.values())
    state = table()
    assert is_legal(state, 0, place("N", ("S01", (0, 2))))  # `o.o`: two points two steps apart
    assert not is_legal(state, 0, place("N", ("S01", (0, 1))))  # (0, 1) is not a blue point of N


def test_P2_four_rotations_and_no_mirror_give_nineteen_shapes():
    shapes = enumerate_shapes()
    assert len(shapes) == 19 and Counter(len(s) for s in shapes) == {2: 6, 3: 13}
    mirror = {
        min((normalise({(r, c * m) for r, c in rot}) for m in (1, -1) for rot in _rotations(s)), key=sorted)
        for s in shapes
    }
    assert len(mirror) == 15
    assert shape_of({(0, 0), (1, 2)}) == "S03" and shape_of({(0, 0), (2, 1)}) == "S04"  # mirror images differ
    state = table(racks=(("S03",) * 5, ("S04",) * 5), boards=("A", "K", "N"))
    assert is_legal(state, 0, place("A", ("S03", (0, 7))))  # (0,0)-(1,2)
    assert not is_legal(state, 0, place("A", ("S03", (2, 5))))  # (0,2)-(1,0) is its mirror image
    assert is_legal(replace(state, turn=1), 1, place("A", ("S04", (2, 5))))  # which is piece S04


def _rotations(cells):
    """The four quarter turns of ``cells``."""
    out, current = [], frozenset(cells)
    for _ in range(4):
        current = normalise({(c, -r) for r, c in current})
        out.append(current)
    return out


def test_P3_fifty_seven_shaped_pieces_three_of_each_shape():
    pieces = Counter(all_pieces())
    assert len(all_pieces()) == 70 and pieces[JOKER] == 13
    assert all(pieces[sid] == 3 for sid in SHAPES)
    assert sum(n for sid, n in pieces.items() if sid != JOKER and len(SHAPES[sid]) == 2) == 18
    assert sum(n for sid, n in pieces.items() if sid != JOKER and len(SHAPES[sid]) == 3) == 39


def test_P4_166_tokens_one_per_dot_of_every_piece():
    assert sum(1 if p == JOKER else len(SHAPES[p]) for p in all_pieces()) == 166
    assert setup(3, None).pot == 166


def test_P5_fourteen_boards_with_the_seeds_values():
    assert len(BOARD_FIGURES) == 14 and sum(BOARD_VALUES.values()) == 170
    assert {b: BOARD_VALUES[b] for b in "CDKLMN"} == {"C": 16, "D": 14, "K": 10, "L": 8, "M": 8, "N": 6}
    assert all(len(parse_figure(BOARD_FIGURES[b])) == v for b, v in BOARD_VALUES.items())
    assert BOARD_FIGURES["G"] == "o.o.o/.o.o./o...o/.o.o./o.o.o"


def test_P6_a_piece_lands_whole_on_uncovered_blue_points_of_one_board_in_any_rotation():
    state = table(covered={"N": (0,)})
    assert is_legal(state, 0, place("N", ("S01", (10, 20))))  # vertical `o.o`: rotated
    assert not is_legal(state, 0, place("N", ("S01", (0, 2))))  # 0 is already covered
    assert not is_legal(state, 0, place("N", ("S00", (2, 3))))  # 3 is not blue
    assert not is_legal(state, 0, place("N", ("S05", (2, 22))))  # not held by seat 0
    after = apply(state, 0, place("N", ("S01", (10, 20))))
    board = next(b for b in after.boards if b.letter == "N")
    assert board.tokens == 3 and after.pot == 166 - 2 and sorted(after.racks[0]) == ["S00", "S01", "S06", "S06"]


def add(board, piece):
    return ("add", board, piece)


def test_P7_several_pieces_only_to_complete_a_board_and_the_completer_takes_every_token():
    state = table(covered={"N": (0, 2)})
    # several pieces at once are never a move at a table: they are laid one at a time
    assert not is_legal(state, 0, place("N", ("S01", (10, 12)), ("S01", (20, 22))))
    assert not any(m[0] == "place" and len(m[2]) > 1 for m in legal_moves(state, 0))
    first = add("N", ("S01", (10, 12)))
    assert is_legal(state, 0, first) and first in legal_moves(state, 0)
    begun = apply(state, 0, first)
    assert to_move(begun) == (0,) and begun.staged == (("S01", (10, 12)),) and begun.staged_on == "N"
    assert begun.racks == state.racks and begun.boards == state.boards  # nothing is placed until complete
    legal = legal_moves(begun, 0)
    assert ("take_back",) in legal and all(m[0] == "add" and m[1] == "N" for m in legal if m != ("take_back",))
    assert not is_legal(begun, 0, place("K", ("S06", (0, 1)))) and not is_legal(begun, 0, ("pass",))
    assert not is_legal(begun, 0, add("N", ("S01", (10, 12))))  # the same points twice
    assert not is_legal(begun, 0, add("N", ("S00", (20, 21))))  # 21 is not blue
    after = apply(begun, 0, add("N", ("S01", (20, 22))))  # the last piece completes it
    assert after.won == (6, 0) and "N" not in [b.letter for b in after.boards] and after.completed == ((0, "N"),)
    assert after.staged == () and Counter(after.racks[0]) == Counter(state.racks[0]) - Counter({"S01": 2})
    assert to_move(after) == (CHANCE,) and chance(after, __import__("random").Random(1))[0] == "board"


def test_P7b_after_three_take_backs_any_completion_the_seed_allows_is_still_open():
    """The take-back limit never refuses a completion (issue 22): after three take-backs a figure may still be
    begun, but only with pieces after which it can be finished, and it can no longer be taken back."""
    state = table(covered={"N": (0, 2)}, jokers=(0, 1))
    assert any(m[0] == "add" and m[1] == "K" for m in legal_moves(state, 0))  # K cannot be finished with this rack
    for _ in range(3):
        begun = apply(state, 0, add("N", ("S01", (10, 12))))
        state = apply(begun, 0, ("take_back",))
        assert state.staged == () and state.racks == begun.racks and to_move(state) == (0,)
    listed = legal_moves(state, 0)
    assert add("N", ("S01", (10, 12))) in listed and add("N", ("S01", (10, 20))) in listed
    assert not any(m[0] == "add" and m[1] == "K" for m in listed)  # begun, it would be a dead end
    assert not is_legal(state, 0, add("K", ("S06", (0, 1, 2))))
    begun = apply(state, 0, add("N", ("S01", (10, 20))))
    listed = legal_moves(begun, 0)
    assert ("take_back",) not in listed and not is_legal(begun, 0, ("take_back",))
    assert listed == [add("N", ("S01", (12, 22)))]  # the one piece that finishes it
    after = apply(begun, 0, listed[0])
    assert after.won == (6, 0) and after.take_backs == 0 and after.turn == 1


def test_P7b_a_single_piece_may_still_be_placed_after_the_take_backs():
    state = table(covered={"N": (0, 2)})
    for _ in range(3):
        state = apply(apply(state, 0, add("N", ("S01", (10, 12)))), 0, ("take_back",))
    after = apply(state, 0, place("N", ("S01", (10, 12))))
    assert after.take_backs == 0 and after.turn == 1


def test_P7_a_piece_that_completes_a_board_alone_is_a_place_not_an_add():
    state = table(covered={"N": (0, 2, 10, 12)})
    assert place("N", ("S01", (20, 22))) in legal_moves(state, 0)
    assert add("N", ("S01", (20, 22))) not in legal_moves(state, 0)


def test_P7c_a_figure_begun_is_seen_by_the_mover_alone_and_its_pieces_go_back_unseen():
    """The seed shows a piece when it is played: until the figure completes the board, the pieces laid are the
    mover's own (issue 22: they were shown to every seat and the projector, then went back into the rack)."""
    state = table(covered={"N": (0, 2)})
    begun = apply(state, 0, add("N", ("S01", (10, 12))))
    mine = view_of(begun, 0)
    assert mine["staged"] == [["S01", [10, 12]]] and mine["staged_on"] == "N" and mine["take_backs_left"] == 3
    for seat in (None, 1):
        seen = view_of(begun, seat)
        assert not {"staged", "staged_on", "take_backs_left"} & set(seen)
        assert seen == view_of(state, seat)  # nothing tells the hall what was laid, nor where
    back = apply(begun, 0, ("take_back",))
    assert view_of(back, 1) == view_of(state, 1) and view_of(back, None) == view_of(state, None)


def test_P7_an_untouched_board_may_be_completed_in_one_turn():
    state = table(racks=(("S01", "S01", "S01", "S00", "S00"), ("S05",) * 5), jokers=(0, 1))
    for piece in (("S01", (0, 2)), ("S01", (10, 12))):
        assert is_legal(state, 0, add("N", piece))
        state = apply(state, 0, add("N", piece))
    assert apply(state, 0, add("N", ("S01", (20, 22)))).won[0] == 6


def test_P7_with_the_stack_empty_play_goes_on_with_fewer_boards():
    state = replace(table(covered={"N": (0, 2, 10, 12)}), stack=())
    after = apply(state, 0, place("N", ("S01", (20, 22))))
    assert len(after.boards) == 2 and to_move(after) == (CHANCE,)  # the rack refill only
    assert chance(after, __import__("random").Random(2))[0] == "piece"


def test_P8_jokers_are_dealt_by_player_count_and_the_thirteenth_is_in_the_pile():
    for players, each in ((2, 6), (3, 4), (4, 3)):
        state = setup(players, None)
        assert state.jokers == (each,) * players and state.pile.count(JOKER) == 1 and len(state.pile) == 58
        assert all(r == () for r in state.racks)


def test_P8_a_drawn_joker_joins_the_players_jokers_and_the_player_draws_again():
    state = replace(table(racks=(("S01", "S01", "S06", "S06"), ("S05",) * 5), jokers=(2, 3)), turn=1)
    state = replace(state, pile=("J", "S10"))
    assert to_move(state) == (CHANCE,)
    state = apply(state, CHANCE, ("piece", 0, JOKER))
    assert state.jokers == (3, 3) and len(state.racks[0]) == 4 and to_move(state) == (CHANCE,)
    state = apply(state, CHANCE, ("piece", 0, "S10"))
    assert len(state.racks[0]) == 5 and to_move(state) == (1,)


def test_P8_a_joker_may_be_played_on_any_turn_and_is_not_replaced():
    state = table(jokers=(2, 2))
    assert is_legal(state, 0, place("K", ("J", (3,))))
    after = apply(state, 0, place("K", ("J", (3,))))
    assert after.jokers == (1, 2) and len(after.racks[0]) == 5 and to_move(after) == (1,)


def test_P9_a_stuck_player_with_a_joker_must_play_it():
    state = replace(
        table(boards=("N",), racks=(("S06", "S06", "S06", "S07", "S07"), ("S05",) * 5), jokers=(1, 1)), stack=()
    )  # only board N is left: nothing fits on it
    moves = legal_moves(state, 0)
    assert moves and all(len(m[2]) == 1 and m[2][0][0] == JOKER for m in moves)
    assert not is_legal(state, 0, ("pass",)) and not is_legal(state, 0, ("swap", "S06"))


def test_P9_no_voluntary_pass_and_a_stuck_player_without_jokers_passes_or_swaps():
    assert not is_legal(table(jokers=(0, 1)), 0, ("pass",))
    state = replace(
        table(boards=("N",), racks=(("S06", "S06", "S06", "S07", "S07"), ("S05",) * 5), jokers=(0, 1)), stack=()
    )
    assert sorted(legal_moves(state, 0)) == [("pass",), ("swap", "S06"), ("swap", "S07")]
    after = apply(state, 0, ("swap", "S07"))
    assert Counter(after.pile)["S07"] == Counter(state.pile)["S07"] and len(after.racks[0]) == 4
    assert to_move(after) == (CHANCE,) and after.held == (0, "S07")
    refilled = apply(after, CHANCE, chance(after, __import__("random").Random(1)))
    assert Counter(refilled.pile)["S07"] == Counter(state.pile)["S07"] + 1 and refilled.held is None


@pytest.mark.parametrize("solitaire", [False, True])
def test_P9_P11_a_swap_never_gives_back_the_piece_swapped(solitaire):
    """The seed swaps a rack piece *against a piece of the pile*: the replacement is drawn first."""
    import random

    if solitaire:
        state = replace(
            setup(1, None),
            phase="play",
            boards=(Board("K"),),
            racks=(("S17",) * 3 + ("S13",) * 3 + ("S16",) * 2,),
            pile=("S18",),
        )
    else:
        state = replace(
            table(
                boards=("N",), racks=(("S06", "S06", "S06", "S07", "S07"), ("S05",) * 5), jokers=(0, 1), pile=("S18",)
            ),
            stack=(),
        )
    after = apply(state, 0, ("swap", "S16" if solitaire else "S07"))
    assert after.pile == ("S18",)  # the swapped piece is not in the pile the refill is drawn from
    for seed in range(20):
        draw = chance(after, random.Random(seed))
        assert draw == ("piece", 0, "S18")
    refilled = apply(after, CHANCE, draw)
    assert "S18" in refilled.racks[0] and refilled.pile == (("S16",) if solitaire else ("S07",))
    assert refilled.held is None and len(refilled.racks[0]) == len(state.racks[0])


def test_P8_P9_a_swap_that_draws_the_13th_joker_keeps_the_piece_aside_until_the_rack_is_full():
    state = replace(
        table(
            boards=("N",), racks=(("S06", "S06", "S06", "S07", "S07"), ("S05",) * 5), jokers=(0, 1), pile=(JOKER, "S18")
        ),
        stack=(),
    )
    after = apply(state, 0, ("swap", "S07"))
    after = apply(after, CHANCE, ("piece", 0, JOKER))
    assert after.jokers[0] == 1 and after.pile == ("S18",) and after.held == (0, "S07")
    after = apply(after, CHANCE, ("piece", 0, "S18"))
    assert after.pile == ("S07",) and after.held is None and len(after.racks[0]) == 5


def test_P10_the_game_ends_right_after_the_move_that_leaves_no_joker_in_any_hand():
    state = table(jokers=(1, 0))
    state = replace(state, pile=state.pile + (JOKER,))
    after = apply(state, 0, place("K", ("J", (3,))))
    assert after.phase == "over" and to_move(after) == ()
    result = outcome(after)
    assert result.reason == "no player holds a joker" and result.winners == (0, 1)  # 0–0: shared


def test_P10_most_tokens_wins():
    state = replace(
        table(
            covered={"N": (0, 2, 10, 12)},
            racks=(("S01", "S01", "S06", "S06", "S00"), ("S06",) * 5),
            jokers=(1, 0),
            pile=(),
        ),
        stack=(),
    )
    state = apply(state, 0, place("N", ("S01", (20, 22))))
    assert state.won == (6, 0) and state.phase == "play" and to_move(state) == (1,)
    state = apply(state, 1, place("K", ("S06", (0, 1, 2))))
    state = apply(state, 0, place("K", ("J", (3,))))
    assert outcome(state).winners == (0,) and outcome(state).scores == (6.0, 0.0)


def test_P10_the_game_ends_when_no_board_is_left_to_play():
    state = replace(table(boards=("N",), covered={"N": (0, 2, 10, 12)}, jokers=(2, 2), pile=()), stack=())
    state = apply(state, 0, place("N", ("S01", (20, 22))))
    assert state.phase == "over" and outcome(state).reason == "no boards left" and outcome(state).winners == (0,)


def test_P11_solitaire_picks_a_12_or_16_board_and_draws_eight_of_all_seventy_pieces():
    state = setup(1, PointsRougesOptions())
    assert to_move(state) == (0,) and sorted(m[1] for m in legal_moves(state, 0)) == ["C", "F", "G", "H", "I"]
    assert not is_legal(state, 0, ("choose", "A"))
    state = apply(state, 0, ("choose", "H"))
    assert len(state.pile) == 70 and state.pile.count(JOKER) == 13
    rng = __import__("random").Random(4)
    while to_move(state) == (CHANCE,):
        state = apply(state, CHANCE, chance(state, rng))
    assert len(state.racks[0]) == 8 and len(state.pile) == 62


def test_P11_the_patience_is_done_in_one_go_and_pieces_may_be_swapped_one_at_a_time():
    state = replace(
        setup(1, None),
        phase="play",
        boards=(Board("K"),),
        racks=(("S06",) * 3 + ("J",) * 4 + ("S00",),),
        pile=("S10", "S11"),
    )
    assert not is_legal(state, 0, place("K", ("S06", (0, 1, 2))))  # a single piece is not the whole figure
    done = place("K", ("S06", (0, 1, 2)), ("S06", (20, 21, 22)), ("S00", (3, 4)), ("J", (23,)), ("J", (24,)))
    assert is_legal(state, 0, done) and normalise_move(done) in legal_moves(state, 0)
    assert outcome(apply(state, 0, done)).winners == (0,)
    swapped = apply(state, 0, ("swap", "J"))
    assert len(swapped.racks[0]) == 7 and to_move(swapped) == (CHANCE,) and swapped.swaps == 1


def test_P11_the_patience_is_lost_once_swaps_run_out_without_a_completion():
    state = replace(
        setup(1, PointsRougesOptions(solitaire_max_swaps=1)),
        phase="play",
        boards=(Board("K"),),
        racks=(("S17",) * 3 + ("S13",) * 3 + ("S16",) * 2,),
        pile=("S18",),
    )
    state = apply(state, 0, ("swap", "S16"))
    state = apply(state, CHANCE, ("piece", 0, "S18"))
    assert state.phase == "over" and outcome(state).winners == ()


def test_the_game_needs_one_to_four_players():
    with pytest.raises(ValueError):
        setup(5, None)
    assert (GAME.min_players, GAME.max_players) == (1, 4)
    assert BOARD_MASKS["N"] == mask_of(N_POINTS)
