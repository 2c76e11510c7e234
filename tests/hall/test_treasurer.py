"""The treasurer's truth in the core (issue 21): the programme's lots survive whatever starts a partie, carried lots
first, the law's 20 € a carton, the caisse's sales out of the desk's reach, each sale's offered price and session,
the price tiers edited — every new event replayed to the same state."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.cartons.sales import NO_TIER
from hall.config import parse_config
from hall.door.service import Hall
from hall.errors import ConfigError
from hall.events import LotSpec, PriceTier
from hall.loto.lots import KIND_RANK
from hall.loto.lots_played import LotChange, lot_changes, lots_to_play, next_lots, play_order
from hall.money.report import build_report
from hall.record.journal import Journal
from hall.refusal import Rejected

PROGRAMME = [
    {
        "lots": [
            {"kind": "quine", "label": "Panier garni", "value_eur": 35.5, "sponsor": "Épicerie Morel"},
            {"kind": "double_quine", "label": "Jambon", "value_eur": 42.0},
            {"kind": "carton_plein", "label": "Vélo", "value_eur": 189.9},
        ],
        "consolation": "Bouteille",
    },
    {"lots": [{"kind": "quine", "label": "Filet garni", "value_eur": 25.0, "sponsor": "Cave Roux"}]},
]
PANIER = LotSpec("quine", "Panier garni", 35.5, "Épicerie Morel")
JAMBON = LotSpec("double_quine", "Jambon", 42.0)
VELO = LotSpec("carton_plein", "Vélo", 189.9)


def open_hall(folder, *, required: bool = False, seed: int = 1) -> Hall:
    raw = {
        "hall": {"name": "Comité des fêtes", "data_dir": str(folder)},
        "programme": {"partie": PROGRAMME},
        "sales": {"required": required, "price": [{"cards": 1, "eur": 3}, {"cards": 6, "eur": 15}]},
    }
    book = CardBook(dict(generate_cards(60, "T", "A", "1-9", 1)))
    return Hall(
        parse_config(raw), Journal(folder / "journal.sqlite"), book, voucher_secret=b"k" * 32, rng=random.Random(seed)
    )


@pytest.fixture
def hall(tmp_path):
    h = open_hall(tmp_path)
    yield h
    h.journal.close()


def ids(h: Hall, first: int, count: int) -> list[str]:
    return list(h.book)[first : first + count]


# ---- the lots a start plays ------------------------------------------------------------------------------------
def test_a_start_that_names_the_lots_plays_them_with_their_values_and_donors(hall):
    """The console sends each lot's kind and label only: the values and donors typed on /admin are kept."""
    record = hall.start_partie(
        [LotSpec(lot.kind, lot.label) for lot in (PANIER, JAMBON, VELO)], role="speaker", session="a1b2c3d4"
    )
    assert record.event.lots == (PANIER, JAMBON, VELO) and record.event.planned == ()
    assert [lot.spec for lot in hall.evening.running.lots] == [PANIER, JAMBON, VELO]
    assert build_report(hall.evening, hall.journal.records(), "x").takings.changes == ()


def test_a_lot_changed_at_the_console_is_played_as_changed_and_the_report_names_who(hall):
    record = hall.start_partie(
        [LotSpec("quine", "Panier garni"), LotSpec("double_quine", "Jambon fumé"), LotSpec("carton_plein", "Vélo")],
        role="speaker",
        session="a1b2c3d4",
    )
    assert [lot.spec for lot in hall.evening.running.lots] == [PANIER, LotSpec("double_quine", "Jambon fumé"), VELO]
    assert record.event.planned == (PANIER, JAMBON, VELO) and record.event.session == "a1b2c3d4"
    [change] = build_report(hall.evening, hall.journal.records(), "x").takings.changes
    assert (change.partie, change.planned, change.played) == (1, JAMBON, LotSpec("double_quine", "Jambon fumé"))
    assert (change.role, change.session) == ("speaker", "a1b2c3d4")


def test_carried_lots_play_where_their_kind_plays(hall):
    """RULES L19 (docs/loto-rules.md L19a): the carried quine before the new partie's quine, the carried double
    quine and carton plein after every quine."""
    hall.start_partie(role="speaker")
    hall.clear(role="speaker", force=True, carry=True)  # nothing won: the three lots are carried
    assert hall.snapshot().next_partie.spec.lots == (PANIER, PROGRAMME_FILET, JAMBON, VELO)
    hall.start_partie(role="speaker")  # nothing sent: the programme with the carried lots
    assert [lot.spec for lot in hall.evening.running.lots] == [PANIER, PROGRAMME_FILET, JAMBON, VELO]
    assert hall.evening.running.lots[0].sponsor == "Épicerie Morel"  # a carried lot keeps its donor


PROGRAMME_FILET = LotSpec("quine", "Filet garni", 25.0, "Cave Roux")


def test_with_no_programme_left_a_carried_lot_still_comes_before_the_default_ones(hall):
    hall.start_partie(role="speaker")
    hall.clear(role="speaker", force=True)
    hall.start_partie(role="speaker")  # partie 2: the Filet garni
    hall.clear(role="speaker", force=True, carry=True)
    hall.start_partie([LotSpec("quine", "Quine"), LotSpec("quine", "Filet garni")], role="speaker")
    lots = [lot.spec for lot in hall.evening.running.lots]
    assert lots == [LotSpec("quine", "Quine"), PROGRAMME_FILET]  # named, so the value and donor are kept
    assert next_lots((LotSpec("quine", "Quine"),), (PROGRAMME_FILET,))[0] == PROGRAMME_FILET


def test_a_start_naming_its_own_lots_keeps_the_carried_ones_where_their_kind_plays(hall):
    """Issue 39, item 5 (RULES L19): the Panier garni, the Jambon and the Vélo were carried by « Démarquez »; a start
    that names only a quine of its own (an integration, a console that did not show them) still plays them, each
    where its kind plays — never « retiré » in the report without anyone having chosen it."""
    hall.start_partie(role="speaker")
    hall.clear(role="speaker", force=True, carry=True)
    own = LotSpec("quine", "Quine du président")
    hall.start_partie([own], role="speaker", session="s1")
    assert [lot.spec for lot in hall.evening.running.lots] == [PANIER, own, JAMBON, VELO]
    changes = build_report(hall.evening, hall.journal.records(), "x").takings.changes
    assert [(c.planned, c.played) for c in changes] == [
        (PROGRAMME_FILET, own)
    ]  # the Filet garni replaced, nothing else
    assert hall.snapshot().carried == ()


def test_a_carried_lot_named_by_the_start_is_played_once(hall):
    hall.start_partie(role="speaker")
    hall.clear(role="speaker", force=True, carry=True)
    hall.start_partie([LotSpec("quine", "Panier garni"), LotSpec("carton_plein", "Vélo")], role="speaker")
    assert [lot.spec for lot in hall.evening.running.lots] == [PANIER, JAMBON, VELO]


def test_only_the_speakers_choice_leaves_the_carried_lots_out_and_the_report_says_so(hall):
    hall.start_partie(role="speaker")
    hall.clear(role="speaker", force=True, carry=True)
    hall.start_partie([PROGRAMME_FILET], role="speaker", session="s2", drop_carried=True)
    assert [lot.spec for lot in hall.evening.running.lots] == [PROGRAMME_FILET]
    changes = build_report(hall.evening, hall.journal.records(), "x").takings.changes
    assert sorted((c.planned.label, c.played, c.session) for c in changes) == [
        ("Jambon", None, "s2"),
        ("Panier garni", None, "s2"),
        ("Vélo", None, "s2"),
    ]


LOTS = st.builds(
    LotSpec,
    st.sampled_from(["quine", "double_quine", "carton_plein"]),
    st.sampled_from(["Panier", "Jambon", "Vélo", "Quine"]),
    st.one_of(st.none(), st.sampled_from([10.0, 25.5])),
    st.sampled_from(["", "Cave Roux"]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(LOTS, max_size=6), st.lists(LOTS, max_size=6))
def test_a_start_keeps_each_programme_lot_it_names_and_plays_the_rest_as_sent(planned, sent):
    planned = list(play_order(planned))  # a programme's partie as it plays (RULES L19)
    played = lots_to_play(planned, sent)
    named = [LotSpec(lot.kind, lot.label) for lot in planned]
    assert lots_to_play(planned, named) == tuple(planned) and lot_changes(planned, tuple(planned)) == ()
    assert len(played) == len(sent or planned)
    assert [lot.kind for lot in played] == sorted((lot.kind for lot in played), key=KIND_RANK.__getitem__)
    pool = list(planned)
    for got, asked in zip(played, play_order(sent)):  # oracle: each lot is the one sent, or a programme lot it names
        assert (got.kind, got.label.strip()) == (asked.kind, asked.label.strip())
        if got in pool and got != asked:
            pool.remove(got)
        else:
            assert got == asked
    changes = lot_changes(planned, played)
    gone = [c.planned for c in changes if c.planned is not None]
    new = [c.played for c in changes if c.played is not None]
    assert sorted(map(repr, [*played, *gone])) == sorted(map(repr, [*planned, *new]))  # the changes explain it all


def test_lot_changes_pair_a_replaced_lot_and_name_an_added_or_dropped_one():
    assert lot_changes((PANIER, JAMBON), (PANIER, VELO)) == (LotChange(JAMBON, VELO),)
    assert lot_changes((PANIER,), (PANIER, VELO)) == (LotChange(None, VELO),)
    assert lot_changes((PANIER, JAMBON), (JAMBON,)) == (LotChange(PANIER, None),)
    assert lot_changes((PANIER, JAMBON), (JAMBON, PANIER)) == ()


# ---- the law: stakes under 20 € ------------------------------------------------------------------------------
def test_a_carton_at_20_euros_or_more_is_refused_with_the_law(hall):
    before = hall.journal.last_seq
    for count, cents in ((1, 2000), (12, 24000), (3, 6000), (2, 4001)):
        with pytest.raises(Rejected) as refused:
            hall.sell(ids(hall, 0, count), role="desk", payment="especes", cents=cents)
        assert refused.value.code == "stake_too_high"
    with pytest.raises(Rejected) as refused:
        hall.set_prices([PriceTier(1, 300), PriceTier(6, 12000)], role="admin")
    assert refused.value.code == "stake_too_high" and refused.value.detail["eur"] == "20,00\u00a0€"
    assert hall.journal.last_seq == before  # nothing sold, no tier changed
    hall.sell(ids(hall, 0, 1), role="desk", payment="especes", cents=1999)
    hall.sell(ids(hall, 1, 3), role="desk", payment="especes", cents=5997)


def test_a_config_file_whose_tier_is_20_euros_a_carton_stops_the_start():
    with pytest.raises(ConfigError) as refused:
        parse_config({"sales": {"price": [{"cards": 1, "eur": 3}, {"cards": 2, "eur": 40}]}})
    assert "inférieures à 20 euros" in str(refused.value) and "sales.price[2]" in str(refused.value)


# ---- the caisse's sales out of the desk's reach ------------------------------------------------------------------
def test_once_the_caisse_sells_the_desk_cannot_mark_cartons_by_hand(hall):
    cards = ids(hall, 0, 6)
    hall.set_sold(ids(hall, 40, 2), role="desk")  # before any sale: a hall that marks by hand
    hall.sell(cards, role="desk", payment="carte", session="d35c0001")
    before = hall.journal.last_seq
    for sold in (True, False):
        with pytest.raises(Rejected) as refused:
            hall.set_sold(ids(hall, 20, 1), sold, role="desk")
        assert refused.value.code == "sold_by_caisse"
    with pytest.raises(Rejected) as refused:  # not even the admin unsells a carton a sale holds
        hall.set_sold(cards[:2], False, role="admin")
    assert refused.value.code == "held_by_sale" and refused.value.detail["sales"] == [1]
    assert hall.journal.last_seq == before and all(hall.may_play(c) for c in cards)
    hall.set_sold(ids(hall, 30, 3), role="admin", session="ad000001")  # the admin may, and the report says so
    marks = build_report(hall.evening, hall.journal.records(), "x").takings.marks
    assert [(m.role, m.session, m.sold, len(m.cards)) for m in marks] == [
        ("desk", "", True, 2),
        ("admin", "ad000001", True, 3),
    ]


def test_with_sales_required_the_desk_never_makes_unsold_cartons_play(tmp_path):
    h = open_hall(tmp_path, required=True)
    with pytest.raises(Rejected) as refused:
        h.set_sold(ids(h, 0, 5), role="desk")
    assert refused.value.code == "sold_by_caisse" and not h.may_play(ids(h, 0, 1)[0])
    h.journal.close()


def test_each_sale_keeps_the_tiers_price_of_the_moment_and_its_session(hall):
    twelve = hall.sell(ids(hall, 0, 12), role="desk", payment="especes", cents=0, session="d35c0001").event
    seven = hall.sell(ids(hall, 12, 7), role="desk", payment="carte", session="d35c0002").event
    assert (twelve.offered_cents, twelve.cents, seven.offered_cents, seven.cents) == (3000, 0, 1800, 1800)
    hall.set_prices([PriceTier(6, 1200)], role="admin")  # from the next sale on
    odd = hall.sell(ids(hall, 19, 1), role="desk", payment="especes", cents=250).event
    assert odd.offered_cents == NO_TIER
    differs = build_report(hall.evening, hall.journal.records(), "x").takings.price_differs
    assert [(s.sale_id, s.offered_cents, s.cents, s.session) for s in differs] == [
        (1, 3000, 0, "d35c0001"),
        (3, NO_TIER, 250, ""),
    ]
    assert hall.suggested_cents(6) == 1200


# ---- every new event replays to the same state -------------------------------------------------------------------
def test_the_evening_of_issue_21_replays_to_the_same_state(tmp_path):
    live = open_hall(tmp_path)
    live.set_prices([PriceTier(1, 250), PriceTier(12, 2400)], role="admin")
    live.sell(ids(live, 0, 12), role="desk", payment="especes", session="d35c0001")
    live.sell(ids(live, 12, 2), role="desk", payment="carte", cents=400, session="d35c0002")
    live.set_sold(ids(live, 40, 2), role="admin", session="ad000001")
    live.start_partie(
        [LotSpec("quine", "Panier garni"), LotSpec("quine", "Filet garni")], role="speaker", session="5e55100a"
    )
    live.clear(role="speaker", force=True, carry=True)
    live.start_partie(role="speaker")
    again = open_hall(tmp_path)
    assert again.evening.snapshot() == live.evening.snapshot()
    assert again.price_tiers() == (PriceTier(1, 250), PriceTier(12, 2400))
    assert [lot.spec for lot in again.evening.running.lots] == [lot.spec for lot in live.evening.running.lots]
    assert again.sales()[1].session == "d35c0002" and again.sales()[1].offered_cents == 500
    live.journal.close()
    again.journal.close()


def test_a_carried_lot_counts_once_in_the_declared_values(hall):
    hall.start_partie(role="speaker")
    hall.clear(role="speaker", force=True, carry=True)
    hall.start_partie(role="speaker")
    t = build_report(hall.evening, hall.journal.records(), "x").takings
    assert [(v.partie, v.label) for v in t.lots] == [
        (2, "Panier garni"),
        (2, "Filet garni"),
        (2, "Jambon"),
        (2, "Vélo"),
    ]
    # nothing is given yet: every lot is still to play, its value apart from the lots given
    assert t.given_cents == 0 and t.kept_cents == 3550 + 4200 + 18990 + 2500 and t.donated_cents == 0


def test_tiers_that_cannot_be_offered_are_refused_by_the_hall_itself(hall):
    for tiers in (
        [],
        [PriceTier(0, 100)],
        [PriceTier(2, 300), PriceTier(2, 400)],
        [PriceTier(1, -5)],
        [PriceTier(1, 100)] * 13,
    ):
        with pytest.raises(Rejected) as refused:
            hall.set_prices(tiers, role="admin")
        assert refused.value.code == "bad_prices"
    with pytest.raises(Rejected) as refused:
        hall.set_prices([PriceTier(1, 300)], role="desk")
    assert refused.value.code == "forbidden"
