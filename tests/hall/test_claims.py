"""The verdict on a claimed carton, rule by rule (RULES L6–L9, L12), and against a brute-force oracle."""
from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from hall.cards import Card
from hall.claims import ROWS_NEEDED, verify
from hall.planches import generate_planche

CARD = Card.parse("4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90")


def test_L6_quine_is_one_full_row():
    assert verify(CARD, [4, 13, 37, 52, 80], "quine").kind == "valid"


def test_L6_five_numbers_across_rows_are_not_a_quine():
    v = verify(CARD, [4, 13, 37, 52, 84], "quine")
    assert v.kind == "incomplete"
    assert v.missing == (80,)


def test_L6_double_quine_needs_two_rows_of_the_same_carton():
    assert verify(CARD, [4, 13, 37, 52, 80], "double_quine").kind == "incomplete"
    v = verify(CARD, [4, 13, 37, 52, 80, 9, 21, 45, 66, 84], "double_quine")
    assert (v.kind, v.rows) == ("valid", (0, 1))


def test_L6_carton_plein_needs_all_fifteen():
    draws = [4, 13, 37, 52, 80, 9, 21, 45, 66, 84, 18, 29, 58, 74]
    assert verify(CARD, draws, "carton_plein").kind == "incomplete"
    assert verify(CARD, draws + [90], "carton_plein").kind == "valid"


def test_L8_quine_must_contain_the_last_number():
    verdict = verify(CARD, draws=[4, 13, 37, 52, 80, 7], lot_kind="quine")
    assert verdict.kind == "missed"   # the row was full before 7 was drawn
    assert verdict.reason == "last_not_in_rows"


def test_L8_double_quine_second_row_may_be_older():
    draws = [9, 21, 45, 66, 84, 1, 4, 13, 37, 52, 80]
    v = verify(CARD, draws, "double_quine")
    assert (v.kind, v.rows) == ("valid", (0, 1))


def test_L8_full_carton_unclaimed_never_wins_later():
    draws = [4, 13, 37, 52, 80, 9, 21, 45, 66, 84, 18, 29, 58, 74, 90, 1]
    assert verify(CARD, draws, "carton_plein").kind == "missed"


def test_L8_rule_can_be_waived():
    assert verify(CARD, [4, 13, 37, 52, 80, 7], "quine", last_rule=False).kind == "valid"


def test_L9_sleeping_row_cannot_win_the_quine_but_counts_for_double_quine():
    draws = [9, 21, 45, 66, 84, 2, 4, 13, 37, 52, 80]   # row 1 slept, row 0 completed by 80
    q = verify(CARD, draws, "quine")
    assert (q.kind, q.rows) == ("valid", (0,))
    dq = verify(CARD, draws, "double_quine")
    assert (dq.kind, dq.rows) == ("valid", (0, 1))


def test_L12_a_row_already_paid_is_never_paid_again():
    draws = [4, 13, 37, 52, 80]
    v = verify(CARD, draws, "quine", paid_rows={0})
    assert (v.kind, v.reason) == ("missed", "row_already_paid")


def test_L12_another_row_of_the_same_carton_may_win():
    draws = [4, 13, 37, 52, 80, 9, 21, 45, 66, 84]
    assert verify(CARD, draws, "quine", paid_rows={0}).rows == (1,)


def test_no_draws_is_incomplete():
    v = verify(CARD, [], "quine")
    assert v.kind == "incomplete" and v.last is None and len(v.missing) == 5


# ---- property test against a brute-force oracle -------------------------------------------------
def oracle(card: Card, draws: list[int], kind: str, last_rule: bool, paid: set[int]) -> str:
    """Enumerate every set of rows that could make the lot, straight from the rule's words."""
    drawn, last = set(draws), (draws[-1] if draws else None)
    need = ROWS_NEEDED[kind]
    complete = [r for r in range(3) if all(n in drawn for n in card.rows[r])]
    if len(complete) < need:
        return "incomplete"
    for combo in combinations(complete, need):
        for key in combo:
            if key in paid:
                continue
            if not last_rule or last in card.rows[key]:
                return "valid"
    return "missed"


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 10**9), which=st.integers(0, 5), length=st.integers(0, 90),
       kind=st.sampled_from(sorted(ROWS_NEEDED)), last_rule=st.booleans(),
       paid=st.sets(st.integers(0, 2), max_size=2), data=st.randoms(use_true_random=False))
def test_verdict_matches_brute_force_oracle(seed, which, length, kind, last_rule, paid, data):
    import random
    card = generate_planche(random.Random(seed))[which]
    order = list(range(1, 91))
    data.shuffle(order)
    draws = order[:length]
    v = verify(card, draws, kind, last_rule, paid)
    assert v.kind == oracle(card, draws, kind, last_rule, paid)
    if v.kind == "valid":
        assert len(v.rows) == ROWS_NEEDED[kind]
        assert all(set(card.rows[r]) <= set(draws) for r in v.rows)
        assert any(r not in paid and (not last_rule or draws[-1] in card.rows[r]) for r in v.rows)
    if v.kind == "incomplete":
        assert not set(v.missing) & set(draws)
        assert v.missing
