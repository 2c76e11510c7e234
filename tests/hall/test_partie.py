"""A whole partie through the real Hall and journal, and each rule of RULES §1b (L7, L10–L16)."""

from __future__ import annotations

import pytest

from display import views
from hall.events import LotSpec
from hall.refusal import Rejected
from tests.conftest import cards_from

P = "4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90"
Q = "1 11 22 33 40 / 2 12 23 34 80 / 3 14 25 35 81"
S = "5 15 26 36 41 / 7 17 28 38 42 / 8 19 29 39 43"
R = "10 20 30 44 50 / 11 24 31 46 51 / 12 27 32 47 53"
BOOK = cards_from({"P": P, "Q": Q, "S": S, "R": R})


def draw_all(hall, numbers):
    for n in numbers:
        hall.draw(n, role="speaker")


def test_a_whole_partie_with_false_claim_missed_quine_tie_cascade_and_carton_plein(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    draw_all(hall, [5, 15, 26, 36, 41])
    assert hall.watch.candidates == ["S"]  # S can shout quine on 41
    hall.draw(60, role="speaker")  # …but lets 60 come
    assert [s.card_id for s in hall.watch.sleepers] == ["S"]
    assert views.verdict(hall.check_claim("S", role="controller"))["verdict"] == "missed"

    draw_all(hall, [9, 21, 45, 66, 84, 1, 11, 22, 33, 40, 4, 13, 37, 52, 2, 12, 23, 34])
    before = hall.evening.snapshot()["parties"][0]["draws"]
    hall.announce_claim(role="speaker")
    with pytest.raises(Rejected) as locked:
        hall.draw(70, role="speaker")
    assert locked.value.code == "locked"
    false = views.verdict(hall.check_claim("R", role="controller"))
    assert false["verdict"] == "incomplete" and false["missing"]
    hall.resume(role="speaker")
    assert hall.evening.snapshot()["parties"][0]["draws"] == before  # exactly where it stopped (L15)

    hall.draw(80, role="speaker")  # completes P row 0 and Q row 1
    assert sorted(hall.watch.candidates) == ["P", "Q"]
    assert views.verdict(hall.check_claim("P", role="controller"))["verdict"] == "valid"
    assert views.verdict(hall.check_claim("Q", role="controller"))["verdict"] == "valid"
    award = views.award(hall.award(role="speaker"))
    tie = {t["card_id"]: t["number"] for t in award["tie_break"]}
    assert set(tie) == {"P", "Q"} and len(set(tie.values())) == 2  # separate bag, no repeat (L14)
    winner = min(tie, key=tie.get)  # lowest wins
    loser = ({"P", "Q"} - {winner}).pop()
    assert award["winner"] == winner and award["consolation"] == [loser]
    assert len(award["vouchers"]) == 2

    # the double quine opens on the same ball 80 (L11): the quine's loser can take it, and so can its winner: the
    # row just paid for the quine counts against quines only (RULES L12a)
    dq = views.verdict(hall.check_claim(loser, role="controller"))
    assert (dq["verdict"], dq["lot"]["kind"]) == ("valid", "double_quine")
    again = views.verdict(hall.check_claim(winner, role="controller"))
    assert (again["verdict"], again["rows"]) == ("valid", [0, 1])
    tied = views.award(hall.award(role="speaker"))  # a second tie, drawn from a fresh bag
    assert sorted(tied["winners"] + tied["consolation"]) == ["P", "Q"]

    hall.resume(role="speaker")  # the draw waits for the speaker after an award
    draw_all(hall, [18, 29, 58, 74, 3, 14, 25, 35])
    hall.draw(90, role="speaker")
    cp = views.verdict(hall.check_claim("P", role="controller"))
    assert cp["verdict"] == "valid" and cp["lot"]["kind"] == "carton_plein"
    hall.award(role="speaker")
    assert hall.evening.partie.status == "finished"

    hall.clear(role="speaker")  # « Démarquez ! »
    assert views.verdict(hall.check_claim("Q", role="controller"))["verdict"] == "closed"
    with pytest.raises(Rejected) as no_partie:
        hall.draw(7, role="speaker")
    assert no_partie.value.code == "no_partie"

    replayed = make_hall(BOOK)  # a restart rebuilds the very same state
    assert replayed.evening.snapshot() == hall.evening.snapshot()


def test_L7_default_programme_is_quine_double_quine_carton_plein(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    assert [lot.kind for lot in hall.evening.partie.lots] == ["quine", "double_quine", "carton_plein"]


def test_L7_programme_from_config_and_speaker_override(make_hall):
    prog = [
        {
            "lots": [{"kind": "quine", "label": "Jambon"}, {"kind": "quine", "label": "Panier"}],
            "consolation": "Bouteille",
        }
    ]
    hall = make_hall(BOOK, programme=prog)
    hall.start_partie(role="speaker")
    p = hall.evening.partie
    assert [(lot.kind, lot.label) for lot in p.lots] == [("quine", "Jambon"), ("quine", "Panier")]
    assert p.consolation == "Bouteille"
    draw_all(hall, [4, 13, 37, 52, 80])
    hall.check_claim("P", role="controller")
    hall.award(role="speaker")
    hall.resume(role="speaker")
    draw_all(hall, [9, 21, 45, 66, 84])
    hall.check_claim("P", role="controller")
    hall.award(role="speaker")
    hall.clear(role="speaker")
    hall.start_partie([LotSpec("carton_plein", "Téléviseur")], role="speaker")
    assert [(lot.kind, lot.label) for lot in hall.evening.partie.lots] == [("carton_plein", "Téléviseur")]


def test_L10_a_claim_after_the_next_ball_is_judged_on_that_ball(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13, 37, 52, 80])
    hall.draw(1, role="speaker")
    assert views.verdict(hall.check_claim("P", role="controller"))["verdict"] == "missed"


def test_L10_valid_claim_pending_blocks_the_draw_until_awarded(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13, 37, 52, 80])
    hall.check_claim("P", role="controller")
    with pytest.raises(Rejected) as exc:
        hall.draw(1, role="speaker")
    assert exc.value.code == "claims_pending"
    with pytest.raises(Rejected):
        hall.resume(role="speaker")


def test_L12_several_quine_lots_need_a_new_row_each(make_hall):
    prog = [{"lots": [{"kind": "quine", "label": "1"}, {"kind": "quine", "label": "2"}]}]
    hall = make_hall(BOOK, programme=prog)
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13, 37, 52, 80])
    hall.check_claim("P", role="controller")
    hall.award(role="speaker")
    assert views.verdict(hall.check_claim("P", role="controller"))["reason"] == "row_already_paid"
    hall.resume(role="speaker")
    draw_all(hall, [9, 21, 45, 66, 84])
    assert views.verdict(hall.check_claim("P", role="controller"))["verdict"] == "valid"


def test_L13_L14_highest_wins_when_configured(make_hall):
    hall = make_hall(BOOK, rules={"ties": "draw_highest"})
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13, 37, 52, 2, 12, 23, 34, 80])
    hall.check_claim("P", role="controller")
    hall.check_claim("Q", role="controller")
    award = views.award(hall.award(role="speaker"))
    tie = {t["card_id"]: t["number"] for t in award["tie_break"]}
    assert award["winner"] == max(tie, key=tie.get)


def test_L14_tie_break_bag_is_separate_from_the_game_bag(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13, 37, 52, 2, 12, 23, 34, 80])
    hall.check_claim("P", role="controller")
    hall.check_claim("Q", role="controller")
    before = list(hall.evening.partie.draws)
    hall.award(role="speaker")
    assert hall.evening.partie.draws == before


def test_ties_shared_prize_pays_every_claimant(make_hall):
    hall = make_hall(BOOK, rules={"ties": "share"})
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13, 37, 52, 2, 12, 23, 34, 80])
    hall.check_claim("P", role="controller")
    hall.check_claim("Q", role="controller")
    award = views.award(hall.award(role="speaker"))
    assert award["shared"] and sorted(award["winners"]) == ["P", "Q"] and award["tie_break"] == []
    assert len(award["vouchers"]) == 2


def test_L15_false_claim_changes_nothing_by_default(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13, 37])
    before = hall.evening.partie.draws[:]
    assert views.verdict(hall.check_claim("P", role="controller"))["verdict"] == "incomplete"
    draw_all(hall, [52, 80])
    assert hall.evening.partie.draws == before + [52, 80]
    assert views.verdict(hall.check_claim("P", role="controller"))["verdict"] == "valid"


def test_L15_false_claim_cancels_the_carton_when_configured(make_hall):
    hall = make_hall(BOOK, rules={"false_claim": "cancel_card"})
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13, 37])
    hall.check_claim("P", role="controller")
    draw_all(hall, [52, 80])
    assert views.verdict(hall.check_claim("P", role="controller"))["verdict"] == "cancelled_card"
    assert "P" not in hall.evening.partie.pending


def test_L16_demarquer_only_after_the_last_lot_unless_forced(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    with pytest.raises(Rejected) as exc:
        hall.clear(role="speaker")
    assert exc.value.code == "lots_remaining"
    hall.clear(role="speaker", force=True)
    assert views.verdict(hall.check_claim("P", role="controller"))["verdict"] == "closed"


def test_already_checked_information(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13])
    first = views.verdict(hall.check_claim("P", role="controller"))
    second = views.verdict(hall.check_claim("P", role="controller"))
    assert first["checked_before"] == []
    assert second["checked_before"] == [{"verdict": "incomplete", "last": 13, "lot_index": 0}]


def test_unknown_and_unsold_cartons(make_hall):
    hall = make_hall(BOOK, sold={"P"})
    hall.start_partie(role="speaker")
    draw_all(hall, [2, 12, 23, 34, 80])
    assert views.verdict(hall.check_claim("ZZZ", role="controller"))["verdict"] == "unknown_card"
    assert views.verdict(hall.check_claim("Q", role="controller"))["verdict"] == "unsold_card"
    hall.set_sold(["Q"], True, role="desk")
    assert views.verdict(hall.check_claim("Q", role="controller"))["verdict"] == "valid"


def test_no_partie_claim_is_closed(make_hall):
    hall = make_hall(BOOK)
    assert views.verdict(hall.check_claim("P", role="controller"))["verdict"] == "closed"


def test_undo_rules(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    with pytest.raises(Rejected) as nothing:
        hall.undo(role="speaker")
    assert nothing.value.code == "nothing_to_undo"
    draw_all(hall, [4, 13])
    hall.undo(role="speaker")
    assert hall.evening.partie.draws == [4]
    with pytest.raises(Rejected) as twice:
        hall.undo(role="speaker")
    assert twice.value.code == "already_undone"
    draw_all(hall, [13, 37, 52, 80])
    hall.check_claim("P", role="controller")
    hall.award(role="speaker")
    with pytest.raises(Rejected) as awarded:
        hall.undo(role="speaker")
    assert awarded.value.code == "undo_after_award"
    hall.resume(role="speaker")
    hall.draw(13 + 1, role="speaker")  # 14: a new ball, not on P
    hall.undo(role="speaker")
    assert hall.evening.partie.last == 80


def test_undo_forgets_valid_claims_on_the_cancelled_ball(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13, 37, 52, 80])
    hall.check_claim("P", role="controller")
    hall.undo(role="speaker")
    assert hall.evening.partie.pending == {}
    assert hall.watch.candidates == []
    with pytest.raises(Rejected):
        hall.award(role="speaker")


def test_roles_are_enforced(make_hall):
    hall = make_hall(BOOK)
    with pytest.raises(Rejected) as exc:
        hall.start_partie(role="controller")
    assert exc.value.code == "forbidden"
    hall.start_partie(role="admin")
    with pytest.raises(Rejected):
        hall.draw(5, role="desk")


def test_events_record_role_and_time(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    hall.draw(5, role="speaker", source="keypad")
    records = list(hall.journal.records())
    assert [(r.type, r.role) for r in records] == [("partie:started", "speaker"), ("draw:ball_drawn", "speaker")]
    assert records[1].event.source == "keypad" and records[1].at.endswith("+00:00")


def test_L13_one_player_with_two_valid_cartons_is_one_claimant(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13, 37, 52, 2, 12, 23, 34, 80])
    hall.check_claim("P", role="controller")
    hall.check_claim("Q", role="controller")
    award = views.award(hall.award(role="speaker", same_player=[["Q", "P"]]))
    assert award["winner"] == "Q" and award["tie_break"] == [] and award["consolation"] == []
    assert len(award["vouchers"]) == 1


def test_L13_grouping_only_valid_claims(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13, 37, 52, 80])
    hall.check_claim("P", role="controller")
    with pytest.raises(Rejected) as exc:
        hall.award(role="speaker", same_player=[["P", "S"]])
    assert exc.value.code == "not_a_valid_claim" and exc.value.detail["cards"] == ["S"]


def test_L5_claims_are_checked_against_the_stored_carton_and_the_draw_log(make_hall):
    """Only the carton's ID comes from the floor: its numbers come from the card book, the balls from the journal."""
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    draw_all(hall, [4, 13, 37, 52, 80])
    s = views.verdict(hall.check_claim("S", role="controller"))
    assert s["verdict"] == "incomplete" and set(s["missing"]) <= set(BOOK["S"].numbers)
    assert views.verdict(hall.check_claim("P", role="controller"))["rows"] == [0]


def test_L11_the_next_lot_opens_on_the_same_ball_without_drawing(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    draw_all(hall, [9, 21, 45, 66, 84, 2, 12, 23, 34, 4, 13, 37, 52, 80])
    hall.check_claim("P", role="controller")
    views.award(hall.award(role="speaker"))  # P's quine on 80 (its row 1 slept on 84)
    partie = hall.evening.partie
    assert partie.current_lot.kind == "double_quine" and partie.last == 80
    # the row 80 completed was paid for the quine: it still makes P's double quine with the row that slept (L12a)
    dq = views.verdict(hall.check_claim("P", role="controller"))
    assert (dq["verdict"], dq["rows"]) == ("valid", [0, 1])
    assert views.verdict(hall.check_claim("Q", role="controller"))["verdict"] == "incomplete"  # Q has one row only


def test_L17_the_lots_are_announced_before_the_first_ball(make_hall):
    from display.views import public_state

    prog = [
        {
            "lots": [
                {"kind": "quine", "label": "Jambon", "value_eur": 40},
                {"kind": "carton_plein", "label": "Téléviseur", "value_eur": 150},
            ]
        }
    ]
    hall = make_hall(BOOK, programme=prog)
    hall.start_partie(role="speaker")
    state = public_state(hall.snapshot())
    assert state["draws"] == [] and state["status"] == "playing"
    assert [(lot["kind"], lot["label"], lot["status"]) for lot in state["partie"]["lots"]] == [
        ("quine", "Jambon", "open"),
        ("carton_plein", "Téléviseur", "pending"),
    ]


def test_L18_lots_are_described_in_kind_with_their_value(make_hall):
    prog = [{"lots": [{"kind": "carton_plein", "label": "Téléviseur", "value_eur": 150}]}]
    hall = make_hall(BOOK, programme=prog)
    hall.start_partie(role="speaker")
    lot = hall.evening.partie.lots[0]
    assert (lot.label, lot.value_eur) == ("Téléviseur", 150.0)


def test_a_failing_subscriber_never_turns_a_durable_draw_into_an_error(make_hall, caplog):
    hall = make_hall(BOOK)
    seen = []
    hall.subscribe(lambda record: 1 / 0)
    hall.subscribe(seen.append)
    hall.start_partie(role="speaker")
    record = hall.draw(42, role="speaker")
    assert record.event.number == 42 and hall.evening.partie.draws == [42]
    assert [r.type for r in seen] == ["partie:started", "draw:ball_drawn"]  # the others still hear of it
    assert "subscriber" in caplog.text
