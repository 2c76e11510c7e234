"""The exact-cover solver of Loto Points Rouges (RULES 5a–5c): shapes, board covers, copy limits, hints."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.minigames.points_rouges.pieces import (
    BOARD_IDS,
    BOARD_MASKS,
    JOKER,
    PLACEMENTS,
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
    coverable,
    first_cover,
    hint,
    solve,
    validate_completion,
)

COVERS_5B = {
    "A": 136_546,
    "B": 66_406,
    "C": 2_874,
    "D": 634,
    "E": 6_455,
    "F": 17_230,
    "G": 122,
    "H": 4,
    "I": 30,
    "J": 667,
    "K": 4,
    "L": 379,
    "M": 30,
    "N": 7,
}
ROTATIONS_5A = {
    "S00": 2,
    "S01": 2,
    "S02": 2,
    "S03": 2,
    "S04": 2,
    "S05": 2,
    "S06": 2,
    "S07": 4,
    "S08": 4,
    "S09": 4,
    "S10": 4,
    "S11": 4,
    "S12": 4,
    "S13": 4,
    "S14": 4,
    "S15": 4,
    "S16": 4,
    "S17": 2,
    "S18": 4,
}


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
    assert hint(n_left, {"S01": 2}, jokers=3) == (("S01", (10, 12)), ("S01", (20, 22))) or hint(
        n_left, {"S01": 2}, jokers=3
    ) == (("S01", (10, 20)), ("S01", (12, 22)))
    assert hint(n_left, {"S01": 1}, jokers=3) in [
        (("J", (20,)), ("J", (22,)), ("S01", (10, 12))),
        (("J", (12,)), ("J", (22,)), ("S01", (10, 20))),
        (("J", (10,)), ("J", (12,)), ("S01", (20, 22))),
        (("J", (10,)), ("J", (20,)), ("S01", (12, 22))),
    ]
    assert hint(n_left, {"S06": 3}, jokers=3) is None


def test_solve_respects_the_copies_held():
    for cover in solve(BOARD_MASKS["K"], {"S06": 2, "S00": 2, "S01": 2}, jokers=0):
        assert sum(sid == "S06" for sid, _ in cover) <= 2
    assert count_covers(BOARD_MASKS["K"], {"S06": 2, "S00": 2}) == 4  # `ooo`+`oo` per row, each side


def _oracle_covers(points: int, rack: Counter, jokers: int) -> list[frozenset]:
    """Every exact cover of ``points``, brute force: the lowest uncovered point takes each piece that fits."""
    if not points:
        return [frozenset()]
    low = points & -points
    found = []
    for sid in [s for s, n in rack.items() if n > 0] + ([JOKER] if jokers else []):
        for mask in PLACEMENTS[sid]:
            if mask & low and mask & points == mask:
                left = rack - Counter({sid: 1}) if sid != JOKER else rack
                found += [c | {(sid, mask)} for c in _oracle_covers(points & ~mask, left, jokers - (sid == JOKER))]
    return found


some_points = (
    st.sampled_from("CFGHI")
    .flatmap(lambda b: st.sets(st.sampled_from(points_of(BOARD_MASKS[b])), min_size=1, max_size=8))
    .map(mask_of)
)
some_racks = st.lists(st.sampled_from(sorted(SHAPES)), max_size=8).map(Counter)


@settings(max_examples=300, deadline=None)
@given(some_points, some_racks, st.integers(0, 3))
def test_hint_and_solve_agree_with_a_brute_force_oracle(points, rack, jokers):
    covers = _oracle_covers(points, rack, jokers)
    assert sorted(map(sorted, covers)) == sorted(sorted(c) for c in solve(points, rack, jokers))
    assert count_covers(points, rack, jokers) == len(covers)
    found = hint(points, rack, jokers)
    if not covers:
        assert found is None
        return
    assert found is not None
    used = Counter(sid for sid, _ in found)
    fewest = min(sum(sid == JOKER for sid, _ in c) for c in covers)
    assert used[JOKER] == fewest  # the hint spends as few jokers as any completion needs
    assert all(used[sid] <= rack[sid] for sid in used if sid != JOKER)
    assert validate_completion(points, list(found))  # right shapes, no overlap, every point covered


@settings(max_examples=400, deadline=None)
@given(some_points, some_racks, st.integers(0, 6))
def test_coverable_agrees_with_the_brute_force_oracle(points, rack, jokers):
    """The existence check behind the figures that can no longer be taken back (P7b)."""
    assert coverable(points, rack, jokers) == bool(_oracle_covers(points, rack, jokers))
