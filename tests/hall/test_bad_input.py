"""Every bad input gets a clear error and loses nothing."""

from __future__ import annotations

import pytest

from display import views
from hall.refusal import Rejected
from tests.conftest import cards_from

BOOK = cards_from({"P": "4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90"})


@pytest.mark.parametrize("bad", [0, 91, -1, "4a", "", " ", "4.0", 4.5, None, True, "٣"])
def test_bad_numbers_are_refused_and_nothing_is_written(make_hall, bad):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    hall.draw(7, role="speaker")
    seq = hall.journal.last_seq
    with pytest.raises(Rejected) as exc:
        hall.draw(bad, role="speaker")
    assert exc.value.code == "out_of_range"
    assert hall.journal.last_seq == seq and hall.evening.partie.draws == [7]


def test_number_as_text_is_accepted(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    assert hall.draw(" 42 ", role="speaker").event.number == 42


def test_a_ball_is_never_drawn_twice(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    hall.draw(42, role="speaker")
    with pytest.raises(Rejected) as exc:
        hall.draw("42", role="speaker")
    assert exc.value.code == "already_drawn" and exc.value.detail["index"] == 0


def test_draw_without_partie(make_hall):
    hall = make_hall(BOOK)
    with pytest.raises(Rejected) as exc:
        hall.draw(5, role="speaker")
    assert exc.value.code == "no_partie"
    assert hall.journal.last_seq == 0


def test_second_partie_while_one_runs(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    with pytest.raises(Rejected) as exc:
        hall.start_partie(role="speaker")
    assert exc.value.code == "partie_running"


@pytest.mark.parametrize("bad", ["", "   ", None, 12])
def test_claim_with_no_card_id(make_hall, bad):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    with pytest.raises(Rejected) as exc:
        hall.check_claim(bad, role="controller")
    assert exc.value.code == "bad_card_id"


def test_claim_on_unknown_generated_id_says_if_it_was_mistyped(make_hall):
    from hall.cartons.card_ids import make_card_id

    good = make_card_id("A", 412)
    typo = good[:-2] + ("7" if good[-2] != "7" else "8") + good[-1]
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    result = views.verdict(hall.check_claim(typo, role="controller"))
    assert result["verdict"] == "unknown_card" and result["check_character_ok"] is False


def test_award_without_valid_claim(make_hall):
    hall = make_hall(BOOK)
    hall.start_partie(role="speaker")
    hall.draw(4, role="speaker")
    hall.check_claim("P", role="controller")
    with pytest.raises(Rejected) as exc:
        hall.award(role="speaker")
    assert exc.value.code == "no_valid_claim"


def test_sold_unknown_ids_are_named(make_hall):
    hall = make_hall(BOOK)
    with pytest.raises(Rejected) as exc:
        hall.set_sold(["P", "NOPE"], True, role="desk")
    assert exc.value.detail["cards"] == ["NOPE"]
    assert hall.journal.last_seq == 0


def test_bad_lot_kind_refused(make_hall):
    from hall.events import LotSpec

    hall = make_hall(BOOK)
    with pytest.raises(Rejected) as exc:
        hall.start_partie([LotSpec("bingo", "x")], role="speaker")
    assert exc.value.code == "bad_lot"
