"""The exact-cover solver of Loto Points Rouges (RULES 5a–5c): shapes, board covers, copy limits, hints."""
from __future__ import annotations

import pytest

from hall.minigames.points_rouges.pieces import (
    BOARD_IDS,
    BOARD_MASKS,
    JOKER,
    SHAPE_FIGURES,
    SHAPES,
    all_rotations,
    enumerate_shapes,
    mask_of,
    points_of,
)
from hall.minigames.points_rouges.solver import (
    board_completable,
    count_covers,
    first_cover,
    hint,
    solve,
    validate_completion,
)

COVERS_5B = {"A": 136_546, "B": 66_406, "C": 2_874, "D": 634, "E": 6_455, "F": 17_230, "G": 122, "H": 4,
             "I": 30, "J": 667, "K": 4, "L": 379, "M": 30, "N": 7}
ROTATIONS_5A = {"S00": 2, "S01": 2, "S02": 2, "S03": 2, "S04": 2, "S05": 2, "S06": 2, "S07": 4, "S08": 4,
                "S09": 4, "S10": 4, "S11": 4, "S12": 4, "S13": 4, "S14": 4, "S15": 4, "S16": 4, "S17": 2, "S18": 4}


def test_5c_step1_enumeration_gives_the_nineteen_shapes_of_table_5a():
    assert len(enumerate_shapes()) == 19 == len(SHAPE_FIGURES)
    assert {sid: len(all_rotations(cells)) for sid, cells in SHAPES.items()} == ROTATIONS_5A


@pytest.mark.parametrize("board", "HKNIMGLJDC")
def test_5b_cover_counts_with_three_copies_per_shape(board):
    assert count_covers(BOARD_MASKS[board]) == COVERS_5B[board]


@pytest.mark.parametrize("board", "EFBA")
def test_5b_cover_counts_of_the_big_boards(board):
    assert count_covers(BOARD_MASKS[board]) == COVERS_5B[board]


def test_5c_step4_every_board_is_completable_with_shaped_pieces_alone():
    assert all(board_completable(b) for b in BOARD_IDS) and len(BOARD_IDS) == 14
    for board in BOARD_IDS:
        cover = first_cover(BOARD_MASKS[board])
        assert JOKER not in [sid for sid, _ in cover]
        assert validate_completion(BOARD_MASKS[board], [(sid, points_of(m)) for sid, m in cover])


@pytest.mark.parametrize("board", "HIKN")
def test_5b_the_copy_limit_matters_h_i_k_n_need_a_shape_twice(board):
    once = {sid: 1 for sid in SHAPES}
    assert count_covers(BOARD_MASKS[board], once) == 0 and count_covers(BOARD_MASKS[board]) > 0


def test_uncompletable_positions_are_refused():
    corners = mask_of((0, 24))  # two points far apart: no piece spans them
    assert first_cover(corners) is None and count_covers(corners, jokers=2) == 1
    pairs = mask_of((0, 1, 3, 4))  # only two `oo` pieces fit
    assert count_covers(pairs, {"S00": 2}) == 1
    assert count_covers(pairs, {"S00": 1, "S01": 3}) == 0  # one copy left is not enough
    assert count_covers(pairs, {"S00": 1}, jokers=1) == 0 and count_covers(pairs, {"S00": 1}, jokers=2) == 2


def test_validate_completion_checks_shapes_overlaps_and_exactness():
    remaining = mask_of((0, 1, 3, 4))
    assert validate_completion(remaining, [("S00", (0, 1)), ("S00", (3, 4))])
    assert validate_completion(remaining, [("S00", (0, 1)), (JOKER, (3,)), (JOKER, (4,))])
    assert not validate_completion(remaining, [("S00", (0, 1))])  # not complete
    assert not validate_completion(remaining, [("S01", (0, 1)), ("S00", (3, 4))])  # wrong shape
    assert not validate_completion(remaining, [("S00", (0, 1)), ("S00", (0, 1)), ("S00", (3, 4))])  # overlap
    assert not validate_completion(remaining, [("S00", (0, 1)), ("S00", (4, 5))])  # off the points


def test_hint_finds_a_completion_with_the_fewest_jokers():
    n_left = mask_of((10, 12, 20, 22))
    assert hint(n_left, {"S01": 2}, jokers=3) == (("S01", (10, 12)), ("S01", (20, 22))) or \
        hint(n_left, {"S01": 2}, jokers=3) == (("S01", (10, 20)), ("S01", (12, 22)))
    assert hint(n_left, {"S01": 1}, jokers=3) in [
        (("J", (20,)), ("J", (22,)), ("S01", (10, 12))), (("J", (12,)), ("J", (22,)), ("S01", (10, 20))),
        (("J", (10,)), ("J", (12,)), ("S01", (20, 22))), (("J", (10,)), ("J", (20,)), ("S01", (12, 22)))]
    assert hint(n_left, {"S06": 3}, jokers=3) is None


def test_solve_respects_the_copies_held():
    for cover in solve(BOARD_MASKS["K"], {"S06": 2, "S00": 2, "S01": 2}, jokers=0):
        assert sum(sid == "S06" for sid, _ in cover) <= 2
    assert count_covers(BOARD_MASKS["K"], {"S06": 2, "S00": 2}) == 4  # `ooo`+`oo` per row, each side
