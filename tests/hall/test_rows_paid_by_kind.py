"""RULES L12a through the real Hall: rows paid count only against lots of their own kind, over sequences of lots
settled on the same ball (Q → DQ → CP, Q×2, DQ×2, named rows, maxi-bingo, ties), every claim's verdict against the
brute-force oracle written from RULES alone (tests/hall/rules_oracle.py), the rows paid kept by the oracle from
the awards the hall journalled."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hall.cartons.cardbook import CardBook
from hall.cartons.cards import Card
from hall.cartons.planches import generate_planche
from hall.config import parse_config
from hall.door.service import Hall
from hall.events import Fallback, LotSpec
from hall.record.journal import Journal
from tests.hall import rules_oracle

JAMBON = Fallback("Jambon", 35.0, "Boucherie")


def lot_strategy():
    quine = st.one_of(st.just(LotSpec("quine", "Quine")), st.integers(1, 3).map(lambda r: LotSpec("quine", "Q", row=r)))
    cp = st.one_of(
        st.just(LotSpec("carton_plein", "Carton plein")),
        st.integers(15, 45).map(lambda n: LotSpec("carton_plein", "Téléviseur", within=n, fallback=JAMBON)),
    )
    return st.tuples(
        st.lists(quine, min_size=0, max_size=3),
        st.integers(0, 2).map(lambda n: [LotSpec("double_quine", "Double quine")] * n),
        st.lists(cp, min_size=0, max_size=2),
    ).map(lambda t: t[0] + t[1] + t[2] or [LotSpec("carton_plein", "Carton plein")])


class Oracle:
    """What the rules say of each claim, the rows paid kept per kind from the awards (L12a), never the hall's."""

    def __init__(self, cards: dict[str, Card], lots: list[LotSpec]):
        self.cards, self.lots = cards, lots
        self.paid: dict[tuple[str, str], set[int]] = {}  # (kind, carton) → rows

    def verdict(self, card_id: str, draws: list[int], lot: LotSpec) -> tuple[str, str, str]:
        rows = self.cards[card_id].rows
        paid = self.paid.get((lot.kind, card_id), set())
        return rules_oracle.verdict(rows, draws, lot.kind, row=lot.row, within=lot.within, paid=paid)

    def awarded(self, lot: LotSpec, winners, rows, draws: list[int]) -> None:
        """A lot given: each winner held it with the rows said (a set of complete rows of the lot's, one the new
        one holding the last ball and not paid for its kind), and those rows are now paid for that kind."""
        for card_id, won in zip(winners, rows):
            assert self.verdict(card_id, draws, lot)[0] == "valid", (card_id, lot)
            held = rules_oracle.claims(self.cards[card_id].rows, set(draws), lot.kind, lot.row)
            paid = self.paid.get((lot.kind, card_id), set())
            assert any(
                tuple(s) == tuple(won) and new not in paid and draws[-1] in self.cards[card_id].rows[new]
                for s, new in held
            ), (card_id, won)
            self.paid.setdefault((lot.kind, card_id), set()).update(won)


def new_hall(folder, cards: dict[str, Card], ties: str = "draw_lowest") -> Hall:
    """A hall of its own for one example (a journal of its own: never the previous example's, replayed)."""
    config = parse_config({"hall": {"name": "x", "data_dir": str(folder)}, "rules": {"ties": ties}})
    return Hall(
        config, Journal(folder / "journal.sqlite"), CardBook(cards), voucher_secret=b"k" * 32, rng=random.Random(7)
    )


def play(folder, cards: dict[str, Card], lots: list[LotSpec], order: list[int], rnd: random.Random, share: bool):
    """Play one partie to its end or its last ball: after each ball, some cartons claim (a carton that could win
    claims most of the time, any other now and then, so that rows sleep); valid claims are awarded (a tie drawn by
    the hall or shared), and the next lot is claimed for on the same ball, until nobody holds it."""
    hall = new_hall(folder, cards, "share" if share else "draw_lowest")
    hall.start_partie(lots, role="speaker")
    p = hall.evening.running
    played = [lot.spec for lot in p.lots]  # the hall's order (RULES L19a): kind by kind
    oracle = Oracle(cards, played)
    checked = 0
    for n in order:
        if p.current is None:
            break
        if p.held:
            hall.resume(role="speaker")
        hall.draw(n, role="speaker")
        while p.current is not None:
            lot = played[p.current]
            for card_id in cards:
                expected = oracle.verdict(card_id, p.draws, lot)
                if rnd.random() < (0.85 if expected[0] == "valid" else 0.15):
                    e = hall.check_claim(card_id, role="controller").event
                    assert (e.verdict, e.reason, e.prize) == expected, (card_id, lot, list(p.draws))
                    checked += 1
            if not p.pending:
                break
            index, tied = p.current, len(p.pending) > 1
            result = hall.award(role="speaker", draw=tied and not share, share=tied and share)
            for award in (result.award, *(a for a, _ in result.more)):
                oracle.awarded(played[award.lot_index], award.winners, award.rows, list(p.draws))
            assert p.current != index
    return hall, checked


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 10**6),
    lots=lot_strategy(),
    share=st.booleans(),
    order=st.permutations(range(1, 91)),
    claims=st.randoms(use_true_random=False),
)
def test_every_claim_on_every_ball_is_judged_as_the_rules_say(tmp_path_factory, seed, lots, share, order, claims):
    rnd = random.Random(seed)
    cards = {f"C{i}": c for i, c in enumerate(generate_planche(rnd) + generate_planche(rnd))}
    hall, checked = play(tmp_path_factory.mktemp("paid"), cards, lots, list(order), claims, share)
    assert checked
    hall.journal.close()


# ---- the evening of issue 39, and the sequences on one ball by hand --------------------------------------------
P = Card.parse("4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 89")
Q = Card.parse("1 11 22 33 40 / 2 12 23 34 80 / 3 14 25 35 81")
MAXI_16 = LotSpec("carton_plein", "Téléviseur", 399.0, within=16, fallback=JAMBON)
# P's top row on balls 1–5 (its quine), its middle row on 7–11 (it lets the double quine pass), its bottom row on
# 12–16: ball 16, the 89, completes the carton and a new double quine with it
ISSUE_39 = [4, 13, 37, 52, 80, 7, 9, 21, 45, 66, 84, 18, 29, 58, 74, 89]


def test_issue_39_the_maxi_bingo_in_16_balls_is_won_on_its_16th_ball_after_the_double_quine(make_hall):
    """The evening of issue 39: the double quine won on the ball that also completes the carton, then its carton
    plein refused (« ligne déjà payée ») and the jackpot lost on its last ball. L12a: the rows paid for the quine
    and the double quine never stop the carton plein."""
    hall = make_hall({"P": P, "Q": Q})
    hall.start_partie([LotSpec("quine", "Panier"), LotSpec("double_quine", "Jambon"), MAXI_16], role="speaker")
    for n in ISSUE_39[:5]:
        hall.draw(n, role="speaker")
    assert hall.check_claim("P", role="controller").verdict == "valid"
    hall.award(role="speaker")
    hall.resume(role="speaker")
    for n in ISSUE_39[5:]:
        hall.draw(n, role="speaker")
    dq = hall.check_claim("P", role="controller").event
    assert (dq.verdict, dq.rows) == ("valid", (0, 2))  # the 89's row, new, with the top row paid for the quine
    hall.award(role="speaker")
    cp = hall.check_claim("P", role="controller").event
    assert (cp.verdict, cp.reason, cp.ball, cp.prize) == ("valid", "", 16, "jackpot")
    hall.award(role="speaker")
    p = hall.evening.partie
    assert p.status == "finished" and p.lots[2].prize.label == "Téléviseur"
    assert p.paid == {"quine": {"P": {0}}, "double_quine": {"P": {0, 2}}, "carton_plein": {"P": {0, 1, 2}}}


@pytest.mark.parametrize(
    "lots, expected",
    [
        # Q → DQ → CP on the one ball that fills a carton whose two rows slept (L9, L11, L12a)
        (["quine", "double_quine", "carton_plein"], ["valid", "valid", "valid"]),
        # Q×2: the second quine never takes the row just paid for the first (L12)
        (["quine", "quine", "carton_plein"], ["valid", "missed:row_already_paid", "valid"]),
        # DQ×2: the second double quine needs a row with the last ball not yet paid for a double quine
        (["double_quine", "double_quine", "carton_plein"], ["valid", "missed:row_already_paid", "valid"]),
    ],
)
def test_one_ball_settles_each_lot_of_its_kind_once(make_hall, lots, expected):
    hall = make_hall({"P": P, "Q": Q})
    hall.start_partie([LotSpec(kind, kind) for kind in lots], role="speaker")
    for n in [4, 13, 37, 52, 80, 9, 21, 45, 66, 84, 18, 29, 58, 74]:
        hall.draw(n, role="speaker")
        if hall.evening.running.pending:  # Q's middle row on 80: claimed and given, so the stage moves on
            hall.award(role="speaker")
            hall.resume(role="speaker")
    hall.draw(89, role="speaker")  # P was left to sleep on 80 and 84: 89 completes its bottom row and the carton
    said = []
    p = hall.evening.running
    while p.current is not None:
        index = p.current
        e = hall.check_claim("P", role="controller").event
        said.append(e.verdict + (":" + e.reason if e.reason else ""))
        if e.verdict != "valid":
            hall.clear(role="speaker", force=True)
            break
        hall.award(role="speaker")
        assert p.current != index
    assert said == expected[: len(said)] and said[0] == "valid"


@pytest.mark.parametrize("share", [False, True])
def test_a_tie_on_one_ball_then_the_next_kinds_on_it(make_hall, share):
    """P's and Q's rows both end on 80 (a tie, L13–L14): shared, or drawn for the two quines (L14b); then the
    double quine on the same 80 for whoever holds two rows, each row paid for the quine counting again (L12a)."""
    hall = make_hall({"P": P, "Q": Q}, rules={"ties": "share" if share else "draw_lowest"})
    hall.start_partie([LotSpec("quine", "Q1"), LotSpec("quine", "Q2"), LotSpec("double_quine", "DQ")], role="speaker")
    for n in [9, 21, 45, 66, 84, 4, 13, 37, 52, 1, 11, 22, 33, 40, 2, 12, 23, 34, 80]:
        hall.draw(n, role="speaker")
        if hall.evening.running.pending or hall.evening.running.held:
            pytest.fail("nobody claimed yet")
    oracle = Oracle({"P": P, "Q": Q}, [])
    p = hall.evening.running
    for cid in ("P", "Q"):
        assert hall.check_claim(cid, role="controller").verdict == "valid"
    result = hall.award(role="speaker", share=share, draw=not share)  # two claimants: a tie
    for award in (result.award, *(a for a, _ in result.more)):
        oracle.awarded(p.lots[award.lot_index].spec, award.winners, award.rows, list(p.draws))
    while p.current is not None and p.lots[p.current].kind == "quine":  # shared: the second quine is played on
        for cid in ("P", "Q"):
            e = hall.check_claim(cid, role="controller").event
            assert (e.verdict, e.reason) == ("missed", "row_already_paid")
        hall.clear(role="speaker", force=True)
        return
    assert p.lots[p.current].kind == "double_quine"
    for cid in ("P", "Q"):  # both hold two rows, the one with 80 paid for a quine only
        e = hall.check_claim(cid, role="controller").event
        assert (e.verdict, e.reason, e.prize) == oracle.verdict(cid, list(p.draws), p.lots[p.current].spec)
        assert e.verdict == "valid"
