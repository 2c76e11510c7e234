"""The tombola (RULES L24) at the hall's door: prepared only with its arrêté and lots in kind, the 15 % check by
hand, tickets sold once each to a named buyer, the draw only after the sales close, among the sold tickets, a
ticket winning once, every step journalled and chained, replayed to the same state."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hall.record.reading import verify_file
from hall.refusal import Rejected
from hall.tombola.codes import check_ticket_code, ticket_code
from hall.tombola.draw import draw_ticket
from hall.tombola.rules import cost_check, prepared_from
from tests.conftest import SECRET


def body(**changes):
    b = {
        "authorisation": {"number": "2026-117", "date": "2026-11-02"},
        "price_eur": 2,
        "tickets": 100,
        "carnet": 10,
        "draw_at": "2026-12-07T21:30",
        "place": "Salle des fêtes de Saint-Pierre",
        "collect_until": "2027-01-31",
        "unclaimed": "remis au tirage de l'an prochain",
        "costs_eur": 5,
        "lots": [
            {"label": "Panier garni", "value_eur": 20, "donated": False},
            {"label": "Jambon sec", "value_eur": 35.5, "donated": True},
            {"label": "Bouteille de cidre", "value_eur": 6, "donated": False},
        ],
    }
    b.update(changes)
    return b


def refused(fn, *args, **kwargs) -> str:
    with pytest.raises(Rejected) as r:
        fn(*args, **kwargs)
    return r.value.code


@pytest.fixture
def hall(make_hall):
    h = make_hall()
    h.prepare_tombola(body(), role="admin")
    return h


def test_a_tombola_without_the_arrete_is_refused(make_hall):
    h = make_hall()
    for auth in (None, {}, {"number": "12"}, {"date": "2026-11-02"}, {"number": "", "date": "2026-11-02"}):
        b = body(authorisation=auth)
        assert refused(h.prepare_tombola, b, role="admin") == "tombola_unauthorised"
    assert refused(h.sell_tombola, buyer="Mme Roux", payment="especes", count=1, role="desk") == "no_tombola"
    assert h.records("tombola:prepared") == ()


@pytest.mark.parametrize("label", ["100 €", "Chèque de 50", "Billet de 20", "espèces", "50 euros"])
def test_a_lot_of_money_is_refused(make_hall, label):
    h = make_hall()
    b = body(lots=[{"label": "Panier", "value_eur": 10}, {"label": label, "value_eur": 50}])
    with pytest.raises(Rejected) as r:
        h.prepare_tombola(b, role="admin")
    assert r.value.code == "cash_lot"
    assert r.value.detail["lot"] == 2 and h.records("tombola:prepared") == ()


def test_a_gift_voucher_is_a_lot_in_kind(make_hall):
    h = make_hall()
    h.prepare_tombola(body(lots=[{"label": "Bon d'achat de 30 € chez Martin", "value_eur": 30}]), role="admin")


@pytest.mark.parametrize(
    "changes,field",
    [
        ({"price_eur": -2}, "price_eur"),
        ({"price_eur": 0}, "price_eur"),
        ({"price_eur": 2.005}, "price_eur"),
        ({"costs_eur": -1}, "costs_eur"),
        ({"tickets": 0}, "tickets"),
        ({"tickets": 10**9}, "tickets"),
        ({"tickets": 95, "carnet": 10}, "carnet"),
        ({"draw_at": "demain"}, "draw_at"),
        ({"collect_until": "2027-02-30"}, "collect_until"),
        ({"lots": []}, "lots"),
        ({"lots": [{"label": "x", "value_eur": -5}]}, "lots[0].value_eur"),
        ({"lots": [{"label": "x\x1b@", "value_eur": 5}]}, "lots[0].label"),
        ({"country": "DE"}, "country"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_a_bad_field_is_refused_by_name(make_hall, changes, field):
    h = make_hall()
    with pytest.raises(Rejected) as r:
        h.prepare_tombola(body(**changes), role="admin")
    assert (r.value.code, r.value.detail["field"]) == ("bad_field", field)


def test_only_the_admin_prepares(make_hall):
    assert refused(make_hall().prepare_tombola, body(), role="desk") == "forbidden"


def test_the_15_percent_check_by_hand():
    p = prepared_from(body())
    c = cost_check(p)
    # issued: 100 tickets × 2 € = 200 €; 15 %: 30 €; spent: 5 € costs + 20 € + 6 € bought (the ham is given)
    assert (c.issued_cents, c.limit_cents, c.spent_cents, c.donated_cents) == (20000, 3000, 3100, 3550)
    assert c.over and c.percent == 15.5
    under = cost_check(prepared_from(body(costs_eur=4)))
    assert under.spent_cents == 3000 and not under.over


def test_switzerland_above_chf_50000_is_asked_for_and_belgium_has_four_a_year(make_hall):
    h = make_hall()
    h.prepare_tombola(body(country="CH", tickets=30000, price_eur=2), role="admin")
    assert "ch_ask" in h.tombola().warnings
    assert refused(h.prepare_tombola, body(country="BE", year_count=5), role="admin") == "tombola_quota"
    h.prepare_tombola(body(country="BE", year_count=4), role="admin")
    assert h.tombola().prepared.country == "BE"


def test_tickets_sold_by_number_count_and_carnet_to_a_named_buyer(hall):
    assert hall.sell_tombola(buyer="Mme Roux", payment="especes", tickets=[7, 8], role="desk").event.numbers == (7, 8)
    assert hall.sell_tombola(buyer="M. Abel", payment="carte", count=3, role="desk").event.numbers == (1, 2, 3)
    sale = hall.sell_tombola(buyer="Famille Lenoir", payment="cheque", carnets=1, amount_cents=2000, role="desk")
    assert sale.event.numbers == tuple(range(11, 21)) and sale.event.cents == 2000  # 1–10 holds sold tickets
    assert hall.tombola().sold == (1, 2, 3, 7, 8, *range(11, 21))


def test_a_ticket_sold_twice_is_refused_and_nothing_is_sold(hall):
    hall.sell_tombola(buyer="Mme Roux", payment="especes", tickets=[7], role="desk")
    with pytest.raises(Rejected) as r:
        hall.sell_tombola(buyer="M. Abel", payment="especes", tickets=[6, 7], role="desk")
    assert r.value.code == "ticket_sold" and r.value.detail["tickets"] == [7]
    assert hall.tombola().sold == (7,)


@pytest.mark.parametrize(
    "kwargs,code",
    [
        ({"buyer": "", "payment": "especes", "count": 1}, "buyer_required"),
        ({"buyer": "  ", "payment": "especes", "count": 1}, "buyer_required"),
        ({"buyer": None, "payment": "especes", "count": 1}, "buyer_required"),
        ({"buyer": "A", "payment": "bitcoin", "count": 1}, "bad_payment"),
        ({"buyer": "A", "payment": "especes", "tickets": [101]}, "bad_field"),
        ({"buyer": "A", "payment": "especes", "tickets": [0]}, "bad_field"),
        ({"buyer": "A", "payment": "especes", "count": 101}, "not_enough_tickets"),
        ({"buyer": "A", "payment": "especes", "count": 2, "amount_cents": 300}, "wrong_amount"),
        ({"buyer": "A", "payment": "especes"}, "bad_field"),
        ({"buyer": "A", "payment": "especes", "count": 1, "tickets": [3]}, "bad_field"),
    ],
)
def test_a_bad_sale_is_refused_by_name(hall, kwargs, code):
    assert refused(hall.sell_tombola, role="desk", **kwargs) == code
    assert hall.tombola().sold == ()


def test_the_price_and_tickets_stay_once_on_sale(hall):
    hall.sell_tombola(buyer="Mme Roux", payment="especes", count=1, role="desk")
    assert refused(hall.prepare_tombola, body(price_eur=3), role="admin") == "tombola_on_sale"
    hall.prepare_tombola(body(costs_eur=2), role="admin")  # the costs may still be put right
    assert hall.tombola().check.costs_cents == 200


def sold_and_closed(hall, n=10):
    for i in range(n):
        hall.sell_tombola(buyer=f"Acheteur {i}", payment="especes", tickets=[i * 3 + 1], role="desk")
    hall.close_tombola_sales(role="speaker")


CONDUCTED = {"president": "Mme Leroy", "witnesses": ["M. Petit", "Mme Blanc"]}


def test_a_draw_before_the_sales_close_is_refused(hall):
    hall.sell_tombola(buyer="Mme Roux", payment="especes", count=5, role="desk")
    assert refused(hall.draw_tombola, role="speaker", **CONDUCTED) == "sales_open"
    hall.close_tombola_sales(role="speaker")
    assert refused(hall.sell_tombola, buyer="M. Abel", payment="especes", count=1, role="desk") == "sales_closed"
    assert refused(hall.close_tombola_sales, role="speaker") == "sales_closed"
    assert refused(hall.prepare_tombola, body(), role="admin") == "sales_closed"


def test_the_president_and_two_witnesses_are_named_before_the_first_draw(hall):
    sold_and_closed(hall)
    for who in ({}, {"president": "Mme Leroy", "witnesses": ["M. Petit"]}, {"president": "A", "witnesses": ["A", "B"]}):
        assert refused(hall.draw_tombola, role="speaker", **who) == "witnesses_required"
    hall.draw_tombola(role="speaker", **CONDUCTED)
    hall.draw_tombola(role="speaker")  # named once: the draw goes on without saying them again
    assert hall.tombola().president == "Mme Leroy" and hall.tombola().witnesses == ("M. Petit", "Mme Blanc")
    assert [r.type for r in hall.records() if r.type.startswith("tombola:d")] == [
        "tombola:draw_opened",
        "tombola:drawn",
        "tombola:drawn",
    ]


def test_each_lot_is_won_by_a_sold_ticket_once(hall):
    sold_and_closed(hall, n=4)
    hall.draw_tombola(role="speaker", every=True, **CONDUCTED)
    t = hall.tombola()
    tickets = [w.ticket for w in t.wins]
    assert [w.lot_index for w in t.wins] == [0, 1, 2] and len(set(tickets)) == 3
    assert set(tickets) <= set(t.sold) and all(w.buyer.startswith("Acheteur") for w in t.wins)
    assert refused(hall.draw_tombola, role="speaker") == "all_drawn"


def test_a_ticket_drawn_twice_by_hand_is_refused(hall):
    sold_and_closed(hall)
    first = hall.draw_tombola(role="speaker", ticket=4, **CONDUCTED)
    assert first.event.ticket == 4 and hall.records()[first.seq - 2].type == "tombola:draw_opened"
    assert hall.tombola().wins[0].ticket == 4 and hall.tombola().wins[0].source == "hand"
    assert refused(hall.draw_tombola, role="speaker", ticket=4) == "ticket_won"
    assert refused(hall.draw_tombola, role="speaker", ticket=2) == "ticket_unsold"
    assert refused(hall.draw_tombola, role="speaker", ticket=500) == "bad_field"
    assert len(hall.tombola().wins) == 1


def test_fewer_sold_tickets_than_lots_leaves_the_last_lots_undrawn(hall):
    sold_and_closed(hall, n=2)
    hall.draw_tombola(role="speaker", every=True, **CONDUCTED)
    assert len(hall.tombola().wins) == 2
    assert refused(hall.draw_tombola, role="speaker") == "no_ticket_left"


def test_only_the_speaker_or_admin_draws_and_the_desk_sells(hall):
    assert refused(hall.close_tombola_sales, role="desk") == "forbidden"
    assert refused(hall.sell_tombola, buyer="A", payment="especes", count=1, role="speaker") == "forbidden"


def test_a_lot_is_handed_over_once_against_its_signed_ticket(hall):
    sold_and_closed(hall)
    hall.draw_tombola(role="speaker", ticket=7, **CONDUCTED)
    code = hall.tombola_code(7)
    assert check_ticket_code(SECRET, "2026-117", code) == 7
    assert (
        refused(hall.collect_tombola_lot, code[:-1] + ("A" if code[-1] != "A" else "B"), role="desk") == "unknown_code"
    )
    # ticket 4 is sold and lots 2 and 3 are still to draw: not « no lot » (it would be thrown away), « not drawn »
    assert refused(hall.collect_tombola_lot, hall.tombola_code(4), role="desk") == "not_drawn"
    assert refused(hall.collect_tombola_lot, hall.tombola_code(2), role="desk") == "no_lot"  # unsold: never wins
    hall.collect_tombola_lot(code.lower(), role="desk")
    assert refused(hall.collect_tombola_lot, code, role="desk") == "already_collected"
    assert hall.tombola().collected == (0,)
    hall.draw_tombola(role="speaker", ticket=10)
    hall.draw_tombola(role="speaker", ticket=13)
    assert refused(hall.collect_tombola_lot, hall.tombola_code(4), role="desk") == "no_lot"  # every lot drawn
    assert hall.tombola_lot_of(hall.tombola_code(13), role="desk").lot_index == 2  # read, journalling nothing
    assert refused(hall.tombola_lot_of, hall.tombola_code(7), role="desk") == "already_collected"
    assert refused(hall.tombola_lot_of, hall.tombola_code(7), role="speaker") == "forbidden"
    assert [r.type for r in hall.records()].count("tombola:collected") == 1


def test_the_prize_desk_reads_a_code_s_kind_from_its_shape():
    from hall.tombola.codes import read_prize_code

    assert read_prize_code("T0042-7KQ4M2AB") == ("tombola", "T0042-7KQ4M2AB")
    assert read_prize_code(" t0042 7kq4m2ab ") == ("tombola", "T0042-7KQ4M2AB")  # typed: spaces, lower case
    assert read_prize_code("TO042-7KQ4M2AB") == ("tombola", "T0042-7KQ4M2AB")  # an O for a 0
    assert read_prize_code("T0042-7KQ4") == ("tombola", "T0042-7KQ4")  # a ticket mistyped: still a ticket
    assert read_prize_code("T12345-7KQ4M2AB") == ("tombola", "T12345-7KQ4M2AB")  # never read as voucher 12345
    assert read_prize_code("00042-7KQ4M2AB") == ("voucher", "00042-7KQ4M2AB")
    assert read_prize_code("ticket:00042-7KQ4M2AB") == ("voucher", "00042-7KQ4M2AB")
    assert read_prize_code("0042 7kq4m2a") == ("voucher", "0042 7KQ4M2A")  # the voucher's reader suggests


def test_a_ticket_code_is_bound_to_its_tombola():
    code = ticket_code(SECRET, "2026-117", 42)
    assert (
        check_ticket_code(SECRET, "2026-118", code) is None and check_ticket_code(b"x" * 32, "2026-117", code) is None
    )


def test_the_tombola_is_journalled_chained_and_replayed(make_hall, tmp_path):
    h = make_hall()
    h.prepare_tombola(body(), role="admin")
    sold_and_closed(h, n=6)
    h.draw_tombola(role="speaker", every=True, **CONDUCTED)
    h.collect_tombola_lot(h.tombola_code(h.tombola().wins[0].ticket), role="desk")
    live = h.tombola()
    h.journal.close()
    again = make_hall()
    assert again.tombola() == live
    found = verify_file(tmp_path / "journal.sqlite")
    assert found.verdict.problem is None and found.verdict.records == len(again.records())


def chi_square(counts: Counter, cells: list[int], total: int) -> float:
    expected = total / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def test_each_sold_ticket_is_equally_likely_seeded_chi_square():
    """20 000 draws among 40 sold tickets of 100 (one already won): χ² with 38 degrees of freedom stays under its
    0.999 quantile (70.7), and no unsold or won ticket ever comes out."""
    rng = random.Random(44)
    sold = list(range(1, 100, 5)) + list(range(2, 100, 5))
    won = {sold[0]}
    left = sorted(set(sold) - won)
    counts = Counter(draw_ticket(rng, sold, won) for _ in range(20_000))
    assert set(counts) <= set(left)
    assert chi_square(counts, left, 20_000) < 70.7


def test_a_biased_draw_is_caught_by_the_same_chi_square():
    """The test can fail: a draw that favours the lowest ticket twice as often is far above the quantile."""
    rng = random.Random(44)
    left = list(range(1, 40))
    counts = Counter(rng.choice(left + [left[0]] * 1) for _ in range(20_000))
    assert chi_square(counts, left, 20_000) > 70.7


@given(st.sets(st.integers(1, 50), max_size=20), st.sets(st.integers(1, 50), max_size=20), st.integers(0, 2**32))
def test_the_draw_gives_a_sold_ticket_not_won_or_none_oracle(sold, won, seed):
    got = draw_ticket(random.Random(seed), sold, won)
    assert (got is None) == (not (sold - won)) and (got is None or got in sold - won)
