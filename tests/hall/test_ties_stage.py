"""Ties worked by hand against the seed (« si deux ou plusieurs joueurs font quine en même temps… chacun devra tirer
un numéro. Le plus petit numéro est le gagnant du lot annoncé… Le perdant repart avec un lot de consolation »),
as docs/loto-rules.md settles them: L14b (a draw gives the stage's lots in its order: a row is paid once) and L14c
(the way a tie is settled is fixed once announced; a change needs a reason and is journalled)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from display import views
from hall.events import TieAnnounced
from hall.loto.ties import TieOutcome, lots_given
from tests.conftest import cards_from
from tests.helpers import rejected

# P's top row and Q's middle row and R's bottom row all end on 80 (the seed's "en même temps": the same last ball)
P = "4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90"
Q = "1 11 22 33 40 / 2 12 23 34 80 / 3 14 25 35 81"
R = "5 15 26 36 41 / 6 16 27 37 43 / 7 17 28 38 80"
BOOK = cards_from({"P": P, "Q": Q, "R": R})
TO_80 = [4, 13, 37, 52, 2, 12, 23, 34, 7, 17, 28, 38, 80]
TWO_QUINES = [
    {
        "lots": [
            {"kind": "quine", "label": "Jambon"},
            {"kind": "quine", "label": "Panier garni"},
            {"kind": "carton_plein", "label": "Vélo"},
        ],
        "consolation": "Bouteille de cidre",
    }
]


def tie_on_80(make_hall, cards=("P", "Q"), programme=TWO_QUINES, rules=None):
    hall = make_hall(BOOK, programme=programme, rules=rules)
    hall.start_partie(role="speaker")
    for n in TO_80:
        hall.draw(n, role="speaker")
    for cid in cards:
        assert hall.check_claim(cid, role="controller").verdict == "valid"
    return hall


def vouchers(hall) -> list[tuple[int, str, bool]]:
    return sorted((v.issued.lot_index, v.issued.card_id, v.issued.consolation) for v in hall.evening.vouchers.values())


# ---- L14b: the tie's draw gives out the stage's lots --------------------------------------------------------


def test_two_quines_tied_on_one_ball_take_the_two_quine_lots_in_the_draws_order(make_hall):
    hall = tie_on_80(make_hall)
    result = views.award(hall.award(role="speaker", tie_break={"P": 61, "Q": 17}))  # 17 < 61: Q first
    assert result["winner"] == "Q" and result["lot"]["label"] == "Jambon"
    assert [(s["lot"]["label"], s["winner"]) for s in result["stage"]] == [("Jambon", "Q"), ("Panier garni", "P")]
    assert result["consolation"] == []  # nobody sent away with a consolation while a quine is left
    p = hall.evening.running
    assert [(lot.status, lot.award.winners if lot.award else ()) for lot in p.lots] == [
        ("awarded", ("Q",)),
        ("awarded", ("P",)),
        ("open", ()),
    ]
    assert p.paid == {"quine": {"Q": {1}, "P": {0}}}  # each row paid once
    assert vouchers(hall) == [(0, "Q", False), (1, "P", False)]
    assert [lot.award.rank for lot in p.lots[:2]] == [0, 1]
    assert p.held and p.current_lot.kind == "carton_plein"
    again = make_hall(BOOK, programme=TWO_QUINES)  # a restart replays the two lots exactly
    assert again.evening.snapshot() == hall.evening.snapshot()


def test_three_tied_for_two_quines_the_third_takes_the_consolation(make_hall):
    hall = tie_on_80(make_hall, cards=("P", "Q", "R"), rules={"ties": "draw_highest"})
    result = views.award(hall.award(role="speaker", tie_break={"P": 5, "Q": 88, "R": 40}))  # the highest wins
    assert [(s["lot"]["label"], s["winner"]) for s in result["stage"]] == [("Jambon", "Q"), ("Panier garni", "R")]
    assert result["consolation"] == ["P"]
    assert vouchers(hall) == [(0, "Q", False), (1, "P", True), (1, "R", False)]
    assert len(result["vouchers"]) == 3


def test_a_single_quine_lot_keeps_the_seeds_consolation_and_the_next_stage_on_the_same_ball(make_hall):
    hall = tie_on_80(make_hall, programme=None)  # quine, double quine, carton plein
    result = views.award(hall.award(role="speaker", tie_break={"P": 12, "Q": 70}))
    assert (result["winner"], result["consolation"], result["stage"]) == ("P", ["Q"], [])
    assert hall.evening.running.paid == {"quine": {"P": {0}}}  # a consolation pays no row (RULES L11 stands)


def test_a_shared_lot_pays_every_sharers_row_and_leaves_the_next_quine_to_play(make_hall):
    hall = tie_on_80(make_hall)
    result = views.award(hall.award(role="speaker", share=True))
    assert result["shared"] and sorted(result["winners"]) == ["P", "Q"] and result["stage"] == []
    assert hall.evening.running.current_lot.label == "Panier garni"
    assert {hall.check_claim(c, role="controller").event.reason for c in ("P", "Q")} == {"row_already_paid"}


def test_the_halls_own_draw_gives_the_stage_too(make_hall):
    hall = tie_on_80(make_hall, cards=("P", "Q", "R"))
    result = views.award(hall.award(role="speaker", draw=True))
    drawn = sorted(result["tie_break"], key=lambda d: d["number"])
    assert [s["winner"] for s in result["stage"]] == [d["card_id"] for d in drawn[:2]]
    assert result["consolation"] == [drawn[2]["card_id"]]


@given(st.integers(2, 6), st.integers(1, 4), st.randoms(use_true_random=False))
def test_each_claimant_takes_one_lot_or_one_consolation(n, k, rnd):
    """Against the obvious oracle: the first min(n, k) of the draw's order take the k lots of the stage in order,
    the rest are consoled; with one lot only the seed's rule (the best wins, the others consoled)."""
    order = tuple(f"C{i}" for i in rnd.sample(range(n), n))
    outcome = TieOutcome((order[0],), (), order[1:], False, "draw_lowest", order)
    kinds = ["quine"] * k + ["carton_plein"]
    events = lots_given(
        outcome,
        {c: (0,) for c in order},
        kinds,
        0,
        [80],
        lambda index, cid: type("V", (), {"kind": "valid", "rows": (0,)})(),
    )
    taken = min(n, k) if k > 1 else 1
    assert [(e.lot_index, e.winners) for e in events] == [(i, (order[i],)) for i in range(taken)]
    assert [c for e in events for c in e.consolation] == list(order[taken:])
    assert sorted(c for e in events for c in (*e.winners, *e.consolation)) == sorted(order)


# ---- L14c: the way is fixed once announced ------------------------------------------------------------------


def test_a_tie_settled_by_hand_cannot_silently_become_the_halls_draw_or_a_share(make_hall):
    hall = tie_on_80(make_hall)
    record = hall.announce_tie("physical", role="speaker", session="sp000001")
    said = record.event
    assert isinstance(said, TieAnnounced)
    assert (said.method, said.cards, said.lot_index, said.draw_index, said.session) == (
        "physical",
        ("P", "Q"),
        0,
        len(TO_80) - 1,
        "sp000001",
    )
    assert hall.announce_tie("physical", role="speaker") is None  # said again: nothing new
    assert rejected(hall.award, role="speaker", draw=True).code == "tie_method_fixed"
    assert rejected(hall.award, role="speaker", share=True).code == "tie_method_fixed"
    assert rejected(hall.award, role="speaker").code == "tie_numbers_needed"  # the numbers drawn by hand
    fixed = rejected(hall.announce_tie, "draw", role="speaker")
    assert (fixed.code, fixed.detail["method"]) == ("tie_method_fixed", "physical")
    assert [r.type for r in hall.records()].count("tie:announced") == 1  # a refusal writes nothing


def test_a_change_of_way_needs_a_reason_and_is_journalled_with_who_and_why(make_hall):
    hall = tie_on_80(make_hall)
    hall.announce_tie("physical", role="speaker", session="sp000001")
    changed = hall.announce_tie(
        "draw", role="speaker", session="sp000002", reason="  un joueur a vu   le jeton avant de tirer "
    )
    assert (
        changed.role,
        changed.event.method,
        changed.event.previous,
        changed.event.reason,
        changed.event.session,
    ) == ("speaker", "draw", "physical", "un joueur a vu le jeton avant de tirer", "sp000002")
    assert rejected(hall.award, role="speaker", tie_break={"P": 1, "Q": 2}).code == "tie_method_fixed"
    result = hall.award(role="speaker")  # the way announced: the hall draws
    assert result.award.tie_mode == "draw_lowest"
    assert hall.evening.running.tie is None  # settled: the next tie starts afresh
    again = make_hall(BOOK, programme=TWO_QUINES)
    assert again.evening.snapshot() == hall.evening.snapshot()


def test_what_an_announcement_refuses(make_hall):
    hall = tie_on_80(make_hall, cards=("P",))
    assert rejected(hall.announce_tie, "draw", role="speaker").code == "no_tie"  # one claimant: no tie
    hall.check_claim("Q", role="controller")
    assert rejected(hall.announce_tie, "coin", role="speaker").code == "bad_tie_choice"
    assert rejected(hall.announce_tie, "draw", role="controller").code == "forbidden"
    assert rejected(hall.announce_tie, "draw", role="speaker", reason=3).code == "bad_field"
    hall.announce_tie("share", role="speaker")
    hall.undo(role="speaker")  # the ball is gone, and its tie with it
    assert hall.evening.running.tie is None and hall.evening.running.pending == {}


def test_the_announcement_is_sent_to_the_hall(make_hall):
    hall = tie_on_80(make_hall)
    record = hall.announce_tie("physical", role="speaker")
    name, payload = views.event(record, hall.snapshot(), views.PUBLIC)
    assert name == "tie" and payload["method"] == "physical" and payload["lot"]["label"] == "Jambon"
    assert payload["cards"] == ["P", "Q"] and payload["seq"] == record.seq and "reason" not in payload
    name, staff = views.event(record, hall.snapshot(), views.STAFF)
    assert staff["previous"] == "" and staff["reason"] == ""
