"""Selling cartons (INTERFACE §8): tiers priced like a brute force would, totals that add up, sales journalled."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.cartons.card_ids import make_card_id
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.cartons.sales import (
    PAYMENTS,
    PriceTier,
    RangeError,
    Sale,
    best_price,
    eur,
    expand_ranges,
    parse_eur,
    tiers_from_config,
    totals,
)
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal
from hall.refusal import Rejected

TIERS = tiers_from_config([(1, 3), (6, 15), (12, 25)])


def brute_force(count: int, tiers) -> int | None:
    """Every multiset of tiers making exactly ``count`` cartons, the cheapest one."""
    best = None
    ranges = [range(count // t.cards + 1) for t in tiers]
    for ks in itertools.product(*ranges):
        if sum(k * t.cards for k, t in zip(ks, tiers)) == count:
            price = sum(k * t.cents for k, t in zip(ks, tiers))
            best = price if best is None else min(best, price)
    return best


def test_the_hall_tiers_for_the_usual_counts():
    assert [best_price(n, TIERS) for n in (0, 1, 5, 6, 7, 12, 13, 18)] == [0, 300, 1500, 1500, 1800, 2500, 2800, 4000]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 7), st.integers(0, 5000)), min_size=1, max_size=4), st.integers(0, 30))
def test_best_price_is_the_cheapest_combination(raw, count):
    tiers = [PriceTier(n, c) for n, c in raw]
    assert best_price(count, tiers) == brute_force(count, tiers)


@pytest.mark.parametrize(
    "text,cents", [(15, 1500), ("15", 1500), ("12,50", 1250), (12.5, 1250), ("3 €", 300), ("0", 0), (0.1, 10)]
)
def test_amounts_are_read_as_cents(text, cents):
    assert parse_eur(text) == cents


@pytest.mark.parametrize("bad", ["", "abc", "-3", "1.005", True, None, [], "nan", "inf", 10**9])
def test_bad_amounts_are_refused(bad):
    with pytest.raises(ValueError):
        parse_eur(bad)


def test_euros_are_written_the_french_way():
    assert eur(123456) == "1\u202f234,56\u00a0€" and eur(300) == "3,00\u00a0€"


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 12),
            st.integers(0, 100_000),
            st.sampled_from(PAYMENTS),
            st.booleans(),
            st.sampled_from(["", "Anne", "Marc"]),
            st.booleans(),
        ),
        max_size=40,
    )
)
def test_totals_are_the_sum_of_the_sales(rows):
    sales = [
        Sale(i, tuple(f"X-{i}-{k}" for k in range(n)), cents, pay, paid, "", seller, "desk", None, voided)
        for i, (n, cents, pay, paid, seller, voided) in enumerate(rows, 1)
    ]
    live = [s for s in sales if not s.voided]
    t = totals(live)
    paid = [s for s in live if s.paid]
    assert (
        t["total_cents"]
        == sum(s.cents for s in paid)
        == sum(t["by_payment"].values())
        == sum(t["by_seller"].values())
        == sum(t["by_partie"].values())
    )
    assert t["cards_sold"] == sum(len(s.card_ids) for s in paid)
    assert t["reserved_cents"] == sum(s.cents for s in live if not s.paid)


def test_a_range_is_bounded_before_it_is_expanded():
    with pytest.raises(RangeError) as err:
        expand_ranges("A-1..A-99999", 10_000)
    assert err.value.code == "range_too_large"
    assert expand_ranges("a-1 .. a-3", 10) == [make_card_id("A", n) for n in (1, 2, 3)]
    with pytest.raises(RangeError):
        expand_ranges("A-5..A-2", 10)
    with pytest.raises(RangeError):
        expand_ranges("A-1..B-2", 10)


# ------------------------------------------------------------------------------------------- the hall
def make_hall(tmp_path, count: int = 24, sales: dict | None = None) -> Hall:
    config = parse_config({"hall": {"data_dir": str(tmp_path)}, "sales": sales or {}})
    book = CardBook(dict(generate_cards(count, "A", "A", "1-9", 1)))
    return Hall(config, Journal(tmp_path / "journal.sqlite"), book, voucher_secret=b"k" * 32)


def test_a_plaque_sold_at_the_price_of_the_tier_and_replayed(tmp_path):
    h = make_hall(tmp_path)
    plaque = expand_ranges("A-1..A-12", 100)
    assert all(h.may_play(c) for c in plaque)  # no sale yet: the hall does not record sales
    record = h.sell(plaque, role="desk", payment="carte", seller="Anne")
    assert record.event.cents == 2500 and record.event.sale_id == 1
    assert h.may_play(plaque[0]) and not h.may_play(make_card_id("A", 13))  # from now on unsold cartons do not play
    h.journal.close()
    again = make_hall(tmp_path)
    assert again.evening.sales.totals()["total_cents"] == 2500
    assert again.may_play(plaque[-1]) and not again.may_play(make_card_id("A", 20))


def test_sales_recorded_says_the_hall_keeps_sales_and_caisse_sells_that_the_caisse_alone_says_who_plays(tmp_path):
    """Two questions, each under its own name: does the hall record sales at all (else every carton plays), and
    does the caisse alone decide (a sale rung up tonight, or ``[sales] required``: hand marks then need the admin)."""
    h = make_hall(tmp_path)
    assert not h.sales_recorded() and not h.caisse_sells()
    h.set_sold([make_card_id("A", 1)], role="desk")  # a hand mark: sales are recorded, the caisse does not sell yet
    assert h.sales_recorded() and not h.caisse_sells()
    h.sell([make_card_id("A", 2)], role="desk", payment="especes")
    assert h.sales_recorded() and h.caisse_sells() and not h.may_play(make_card_id("A", 3))
    h.journal.close()
    (tmp_path / "required").mkdir()
    required = make_hall(tmp_path / "required", sales={"required": True})
    assert required.sales_recorded() and required.caisse_sells() and not required.may_play(make_card_id("A", 1))
    required.journal.close()


def test_a_double_sale_is_refused_naming_the_cartons_and_sells_nothing(tmp_path):
    h = make_hall(tmp_path)
    h.sell(expand_ranges("A-1..A-3", 100), role="desk", payment="especes")
    seq = h.journal.last_seq
    with pytest.raises(Rejected) as err:
        h.sell(expand_ranges("A-3..A-5", 100), role="desk", payment="especes")
    assert err.value.code == "already_sold" and err.value.detail["cards"] == [make_card_id("A", 3)]
    assert h.journal.last_seq == seq and not h.may_play(make_card_id("A", 4))
    with pytest.raises(Rejected) as err:
        h.sell([make_card_id("A", 4), make_card_id("Z", 1)], role="desk", payment="especes")
    assert err.value.code == "unknown_card" and err.value.detail["cards"] == [make_card_id("Z", 1)]
    with pytest.raises(Rejected) as err:
        h.sell([make_card_id("A", 4)], role="controller", payment="especes")
    assert err.value.code == "forbidden"
    with pytest.raises(Rejected) as err:
        h.sell([make_card_id("A", 4)], role="desk", payment="bitcoin")
    assert err.value.code == "bad_payment" and h.journal.last_seq == seq


def test_a_voided_sale_frees_its_cartons_and_they_cannot_claim(tmp_path):
    h = make_hall(tmp_path)
    first = h.sell([make_card_id("A", 1)], role="desk", payment="especes").event
    h.sell([make_card_id("A", 2)], role="desk", payment="especes")
    with pytest.raises(Rejected):
        h.void_sale(first.sale_id, role="desk")  # the admin only
    h.void_sale(first.sale_id, role="admin")
    assert not h.may_play(make_card_id("A", 1))
    assert h.evening.sales.totals()["total_cents"] == 300
    h.start_partie(role="speaker")
    verdict = h.check_claim(make_card_id("A", 1), role="controller")
    assert verdict.verdict == "unsold_card"
    with pytest.raises(Rejected) as err:
        h.void_sale(first.sale_id, role="admin")
    assert err.value.code == "sale_voided"
    h.sell([make_card_id("A", 1)], role="desk", payment="cheque")  # sold again after the void


def test_a_sale_with_a_winner_cannot_be_voided(tmp_path):
    h = make_hall(tmp_path, count=6)
    ids = list(h.book)
    sale = h.sell(ids, role="desk", payment="especes").event
    h.start_partie(role="speaker")
    card = h.book.get(ids[0])
    for n in card.rows[0]:
        h.draw(n, role="speaker")
    assert h.check_claim(ids[0], role="controller").verdict == "valid"
    h.award(role="speaker")
    with pytest.raises(Rejected) as err:
        h.void_sale(sale.sale_id, role="admin")
    assert err.value.code == "sale_has_winner" and err.value.detail["cards"] == [ids[0]]


def test_required_sales_refuse_unsold_cartons_from_the_start(tmp_path):
    h = make_hall(tmp_path, sales={"required": True})
    h.start_partie(role="speaker")
    assert h.check_claim(make_card_id("A", 1), role="controller").verdict == "unsold_card"


def test_a_reservation_is_not_takings_until_paid(tmp_path):
    h = make_hall(tmp_path)
    sale = h.sell(expand_ranges("A-1..A-6", 100), role="desk", payment="especes", paid=False, buyer="Mme Roux").event
    t = h.evening.sales.totals()
    assert t["total_cents"] == 0 and t["reserved_cents"] == 1500 and t["cards_reserved"] == 6
    h.pay_sale(sale.sale_id, "cheque", role="desk")
    t = h.evening.sales.totals()
    assert t["total_cents"] == 1500 and t["by_payment"]["cheque"] == 1500
    with pytest.raises(Rejected):
        h.pay_sale(sale.sale_id, "cheque", role="desk")


def test_the_programme_edit_drives_the_next_partie_only(tmp_path):
    from hall.loto.programme import parse_parties

    h = make_hall(tmp_path)
    h.start_partie(role="speaker")
    parties = parse_parties(
        [
            {
                "lots": [{"kind": "carton_plein", "label": "Vélo", "value_eur": 180, "sponsor": "Cycles Martin"}],
                "consolation": "Stylo",
            }
        ]
    )
    h.edit_programme(parties, role="admin")
    assert [lot.kind for lot in h.evening.running.lots] == ["quine", "double_quine", "carton_plein"]
    h.clear(role="speaker", force=True)
    h.start_partie(role="speaker")
    p = h.evening.running
    assert [(lot.kind, lot.label) for lot in p.lots] == [("carton_plein", "Vélo")] and p.consolation == "Stylo"
    h.journal.close()
    again = make_hall(tmp_path)
    assert again.partie_spec(1).lots[0].sponsor == "Cycles Martin"
    assert again.config.programme == ()  # the config stays the default for a new evening


def test_a_pin_change_keeps_only_a_salted_hash(tmp_path):
    from hall.loto.programme import pin_matches

    h = make_hall(tmp_path)
    h.change_pin("desk", "482193", role="admin")
    raw = (tmp_path / "journal.sqlite").read_bytes()
    assert b"482193" not in raw
    assert pin_matches(h.evening.pin_hashes["desk"], "482193") and not pin_matches(
        h.evening.pin_hashes["desk"], "482194"
    )
    for short in ("12", "48219"):  # 6 digits at least (issue 22)
        with pytest.raises(Rejected):
            h.change_pin("desk", short, role="admin")
