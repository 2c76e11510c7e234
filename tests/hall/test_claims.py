"""The verdict on a claimed carton, rule by rule (RULES L6–L9, L12, L20–L21), and against a brute-force oracle."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hall.cartons.cards import Card
from hall.cartons.planches import generate_planche
from hall.events import Fallback, LotSpec
from hall.loto.claims import verify
from hall.loto.lots import LOT_KINDS, WITHIN, lines_of
from hall.loto.watch import WinnerWatch
from tests.hall import rules_oracle

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
    verdict = verify(CARD, draws=[4, 13, 37, 52, 80, 7], lot="quine")
    assert verdict.kind == "missed"  # the row was full before 7 was drawn
    assert verdict.reason == "late"  # 7 is not on the carton: « trop tard »
    on_card = verify(CARD, [4, 13, 37, 52, 80, 9], "quine")  # 9 is, on a row still incomplete
    assert (on_card.kind, on_card.reason) == ("missed", "last_not_in_rows")


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
    draws = [9, 21, 45, 66, 84, 2, 4, 13, 37, 52, 80]  # row 1 slept, row 0 completed by 80
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


# ---- RULES L21: a quine on a named row, against the seed's last-number rule -----------------------------------
# CARD's rows: top 4 13 37 52 80 · middle 9 21 45 66 84 · bottom 18 29 58 74 90
MIDDLE = LotSpec("quine", "Quine de la ligne du milieu", row=2)
TOP_ROW, MIDDLE_ROW = [4, 13, 37, 52, 80], [9, 21, 45, 66, 84]


def test_L21_the_named_row_completed_by_the_last_ball_wins():
    v = verify(CARD, [1, 9, 21, 45, 66, 84], MIDDLE)
    assert (v.kind, v.rows, v.last) == ("valid", (1,), 84)


def test_L21_another_row_complete_with_the_last_ball_is_a_false_claim_with_the_named_row_shown():
    """The seed's quine (« les cinq numéros d'une même rangée ») on the top row, 80 the last ball: for this lot it is
    no claim at all — a false claim, the middle row's numbers still missing."""
    v = verify(CARD, [9, 21, 4, 13, 37, 52, 80], MIDDLE)
    assert (v.kind, v.reason, v.complete_rows) == ("incomplete", "not_named_row", (0,))
    assert v.missing == (45, 66, 84)  # what the named row still needs
    assert verify(CARD, [9, 21, 4, 13, 37, 52, 80], "quine").kind == "valid"  # any row: a good quine


def test_L21_the_named_row_complete_but_without_the_last_ball_let_its_turn_pass():
    v = verify(CARD, MIDDLE_ROW + [4, 13, 37, 52, 80], MIDDLE)  # 80 completes the top row, not the middle
    assert (v.kind, v.reason) == ("missed", "last_not_in_rows")
    assert verify(CARD, MIDDLE_ROW + [7], MIDDLE, last_rule=False).kind == "valid"  # a hall that waives L8


def test_L21_the_named_row_already_paid_is_not_paid_again():
    v = verify(CARD, [1] + MIDDLE_ROW, MIDDLE, paid_rows={1})
    assert (v.kind, v.reason) == ("missed", "row_already_paid")


def test_L21_a_double_quine_after_a_named_row_is_unchanged():
    v = verify(CARD, MIDDLE_ROW + TOP_ROW, "double_quine", paid_rows={1})
    assert (v.kind, v.rows) == ("valid", (0, 1))  # the paid middle row is one of the two (L9)


# ---- RULES L20: maxi-bingo, a carton plein in N balls with a fallback --------------------------------------------
FULL = TOP_ROW + MIDDLE_ROW + [18, 29, 58, 74, 90]  # the carton's 15 numbers, 90 last


def maxi(within: int) -> LotSpec:
    return LotSpec("carton_plein", "Téléviseur", 399.0, within=within, fallback=Fallback("Jambon", 35.0, "Boucherie"))


def test_L20_a_carton_plein_on_ball_N_wins_the_jackpot():
    draws = [1, 2, 3] + FULL  # 90 is the 18th ball
    v = verify(CARD, draws, maxi(18))
    assert (v.kind, v.ball, v.prize) == ("valid", 18, "jackpot")


def test_L20_a_carton_plein_on_ball_N_plus_1_wins_the_fallback():
    draws = [1, 2, 3, 5] + FULL  # 90 is the 19th ball
    v = verify(CARD, draws, maxi(18))
    assert (v.kind, v.ball, v.prize) == ("valid", 19, "fallback")


def test_L20_the_last_number_rule_holds_for_a_maxi_bingo():
    v = verify(CARD, FULL + [1], maxi(18))  # full on ball 15, claimed on ball 16: too late (L8)
    assert (v.kind, v.prize) == ("missed", "")


def test_L20_a_tie_on_the_jackpot_both_win_the_jackpot():
    """Two cartons full on the same ball N: both valid for the jackpot (the tie-break of L14 follows, hall/loto/ties)."""
    other = Card.parse("5 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90")
    draws = [1, 2, 5] + FULL
    assert len(draws) == 18
    for card in (CARD, other):
        assert verify(card, draws, maxi(18)).prize == "jackpot"


# ---- property tests against a brute-force oracle, lines included -------------------------------------------------
def oracle(card: Card, draws: list[int], lot: LotSpec, last_rule: bool, paid: set[int]) -> tuple[str, str]:
    """The oracle written from the rules' words (tests/hall/rules_oracle.py): (verdict, prize)."""
    kind, _, prize = rules_oracle.verdict(
        card.rows, draws, lot.kind, row=lot.row, within=lot.within, paid=paid, last_rule=last_rule
    )
    return kind, prize


LOTS = st.one_of(
    st.sampled_from(LOT_KINDS).map(lambda k: LotSpec(k, k)),
    st.integers(1, 3).map(lambda r: LotSpec("quine", "Quine", row=r)),
    st.integers(*WITHIN).map(maxi),
)


@settings(max_examples=500, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    which=st.integers(0, 5),
    length=st.integers(0, 90),
    lot=LOTS,
    last_rule=st.booleans(),
    paid=st.sets(st.integers(0, 2), max_size=2),
    data=st.randoms(use_true_random=False),
)
def test_verdict_matches_brute_force_oracle(seed, which, length, lot, last_rule, paid, data):
    import random

    card = generate_planche(random.Random(seed))[which]
    order = list(range(1, 91))
    data.shuffle(order)
    draws = order[:length]
    paid = {r for r in paid if set(card.rows[r]) <= set(draws)}  # a row is paid once complete
    v = verify(card, draws, lot, last_rule, paid)
    expected = rules_oracle.verdict(
        card.rows, draws, lot.kind, row=lot.row, within=lot.within, paid=paid, last_rule=last_rule
    )
    assert (v.kind, v.reason, v.prize) == expected
    fewest = rules_oracle.to_go(card.rows, draws, lot.kind, lot.row, paid)
    if v.kind != "valid":
        assert len(v.to_go) == (fewest or 0)
        if v.to_go:  # those numbers, whatever their order, make a valid claim
            assert verify(card, draws + list(v.to_go), lot, last_rule, paid).kind == "valid"
    lines = lines_of(lot)
    if v.kind == "valid":
        assert len(v.rows) == lines.need and set(v.rows) <= set(lines.among)
        assert all(set(card.rows[r]) <= set(draws) for r in v.rows)
        assert any(r not in paid and (not last_rule or draws[-1] in card.rows[r]) for r in v.rows)
    if v.kind == "incomplete":
        assert not set(v.missing) & set(draws)
        assert v.missing == v.to_go
        assert set(v.missing) <= {n for r in lines.among for n in card.rows[r]}  # only the lot's lines


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    lot=LOTS,
    last_rule=st.booleans(),
    length=st.integers(1, 90),
    paid=st.dictionaries(st.integers(0, 17), st.sets(st.integers(0, 2), max_size=1), max_size=4),
    data=st.randoms(use_true_random=False),
)
def test_the_winner_watch_names_exactly_the_cartons_the_oracle_finds_valid(seed, lot, last_rule, length, paid, data):
    """The watch's index (a line = carton × 3 + row, its counter at its numbers) against the oracle, ball by ball
    to the end, for any lot's lines: any row, a named row, two rows, the whole carton."""
    import random

    rnd = random.Random(seed)
    cards = {
        f"C{i}": card for i, card in enumerate(generate_planche(rnd) + generate_planche(rnd) + generate_planche(rnd))
    }
    paid_rows = {f"C{k}": v for k, v in paid.items()}
    order = list(range(1, 91))
    data.shuffle(order)
    watch = WinnerWatch(cards, last_rule)
    for i, n in enumerate(order[:length]):
        watch.on_draw(n, 0, lines_of(lot), paid_rows)
        draws = order[: i + 1]
        expected = sorted(
            c for c, card in cards.items() if oracle(card, draws, lot, last_rule, paid_rows.get(c, set()))[0] == "valid"
        )
        assert sorted(watch.candidates) == expected
    if length > 1:
        watch.on_undo(lines_of(lot), paid_rows)
        draws = order[: length - 1]
        expected = sorted(
            c for c, card in cards.items() if oracle(card, draws, lot, last_rule, paid_rows.get(c, set()))[0] == "valid"
        )
        assert sorted(watch.candidates) == expected
