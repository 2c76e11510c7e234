"""What follows « Attribuer le lot » (docs/loto-rules.md L11a): the draw waits for the speaker after every award,
the first and the second alike, and ``+`` resumes it, on the Pi's keypad as on the console."""

from __future__ import annotations

from hall.events import BallDrawn, ClaimChecked, LotAwarded, PartieStarted
from hall.record.journal import Journal
from tests.conftest import cards_from
from tests.helpers import rejected

P = "4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90"
Q = "1 11 22 33 40 / 2 12 23 34 80 / 3 14 25 35 81"
BOOK = cards_from({"P": P, "Q": Q})
TWO_QUINES = [
    {
        "lots": [
            {"kind": "quine", "label": "Jambon"},
            {"kind": "quine", "label": "Panier"},
            {"kind": "carton_plein", "label": "Vélo"},
        ]
    }
]


def quine_on(hall, card: str, balls) -> None:
    for n in balls:
        hall.draw(n, role="speaker")
    assert hall.check_claim(card, role="controller").verdict == "valid"


def test_the_draw_waits_after_every_award_the_first_as_the_second(make_hall):
    hall = make_hall(BOOK, programme=TWO_QUINES)
    hall.start_partie(role="speaker")
    quine_on(hall, "P", [4, 13, 37, 52, 80])
    hall.announce_claim(role="speaker")  # the first: announced, checked, awarded
    hall.award(role="speaker")
    p = hall.evening.running
    assert (p.held, p.paused, p.status) == (True, False, "playing")  # the hall plays on; the speaker's draw waits
    assert rejected(hall.draw, 9, role="speaker").code == "held"
    assert hall.drawable_numbers() == ()
    assert hall.speaker_snapshot().public.partie.held
    hall.resume(role="speaker")
    quine_on(hall, "P", [9, 21, 45, 66, 84])  # the second: checked without being announced
    hall.award(role="speaker")
    assert rejected(hall.draw, 18, role="speaker").code == "held"
    assert rejected(hall.propose, 18, role="device").code == "held"  # a machine's ball is held back alike
    hall.resume(role="speaker")
    hall.draw(18, role="speaker")
    assert rejected(hall.resume, role="speaker").code == "not_paused"


def test_plus_resumes_after_an_award_and_stops_a_running_draw(make_hall):
    hall = make_hall(BOOK, programme=TWO_QUINES)
    hall.start_partie(role="speaker")
    quine_on(hall, "P", [4, 13, 37, 52, 80])
    hall.award(role="speaker")
    assert hall.key_typed("claim").action == "resume"  # + after the award: the draw goes on
    assert not hall.evening.running.held
    hall.draw(9, role="speaker")
    assert hall.key_typed("claim").action == "claim"  # + while it runs: someone shouts
    assert hall.evening.running.paused
    assert hall.check_claim("Q", role="controller").verdict == "incomplete"
    assert hall.key_typed("claim").action == "resume"  # + after the false claim: on again
    hall.draw(21, role="speaker")


def test_plus_never_resumes_over_a_valid_claim_waiting_for_its_lot(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    quine_on(hall, "P", [4, 13, 37, 52, 80])
    hall.announce_claim(role="speaker")
    assert rejected(hall.key_typed, "claim").code == "claims_pending"


def test_while_held_a_claim_for_the_next_lot_on_the_same_ball_is_checked_and_awarded(make_hall):
    hall = make_hall(BOOK)  # quine, double quine, carton plein
    hall.start_partie(role="speaker")
    for n in [2, 12, 23, 34, 1, 11, 22, 33, 40, 4, 13, 37, 52]:
        hall.draw(n, role="speaker")
    hall.draw(80, role="speaker")  # P's first row; Q's second, with its first already full
    assert hall.check_claim("P", role="controller").verdict == "valid"
    hall.award(role="speaker")
    assert hall.check_claim("Q", role="controller").verdict == "valid"  # the double quine on 80 (RULES L11)
    assert hall.evening.running.status == "checking"
    hall.award(role="speaker")
    assert hall.evening.running.held
    hall.key_typed("claim")
    hall.draw(9, role="speaker")


def test_the_last_award_ends_the_partie_without_holding_it(make_hall):
    hall = make_hall(BOOK, programme=[{"lots": [{"kind": "quine", "label": "Jambon"}]}])
    hall.start_partie(role="speaker")
    quine_on(hall, "P", [4, 13, 37, 52, 80])
    hall.award(role="speaker")
    p = hall.evening.running
    assert (p.status, p.held) == ("finished", False)
    assert rejected(hall.resume, role="speaker").code == "not_paused"
    hall.clear(role="speaker")


def test_a_restart_after_an_award_keeps_the_draw_waiting(make_hall):
    hall = make_hall(BOOK, programme=TWO_QUINES)
    hall.start_partie(role="speaker")
    quine_on(hall, "P", [4, 13, 37, 52, 80])
    hall.award(role="speaker")
    again = make_hall(BOOK, programme=TWO_QUINES)
    assert again.evening.snapshot() == hall.evening.snapshot() and again.evening.running.held


def test_a_journal_written_before_the_rule_replays_its_draws_after_an_award(tmp_path, make_hall):
    """Before L11a an award let the next ball through at once: such a journal still replays, and is not held."""
    journal = Journal(tmp_path / "journal.sqlite")
    from hall.loto.lots import DEFAULT_LOTS

    journal.append_all([PartieStarted(1, DEFAULT_LOTS, "Lot de consolation")], "speaker", "2025-01-01T20:00:00Z")
    for i, n in enumerate([4, 13, 37, 52, 80]):
        journal.append(BallDrawn(n, i), "speaker", "2025-01-01T20:01:00Z")
    journal.append(ClaimChecked("P", "valid", 0, "quine", 80, (0,), (0,)), "controller", "2025-01-01T20:02:00Z")
    journal.append(LotAwarded(0, ("P",), ((0,),), (), (), 80, 4), "speaker", "2025-01-01T20:02:30Z")
    journal.append(BallDrawn(9, 5), "speaker", "2025-01-01T20:03:00Z")
    journal.close()
    hall = make_hall(BOOK)
    p = hall.evening.running
    assert p.draws == [4, 13, 37, 52, 80, 9] and not p.held
    hall.draw(21, role="speaker")
