"""The door's reading side: snapshots are immutable, cheap counts stay exact, intent commands decide as the hall."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.cartons.planches import generate_cards
from hall.refusal import Rejected

CARDS = dict(generate_cards(30, seed=5, series="S"))
IDS = sorted(CARDS)


@settings(max_examples=25, deadline=None)
@given(
    sales=st.lists(
        st.tuples(st.lists(st.sampled_from(IDS), min_size=1, max_size=6, unique=True), st.booleans()), max_size=8
    ),
    initially_sold=st.sets(st.sampled_from(IDS)),
)
def test_the_sold_count_follows_every_sale_and_survives_a_replay(tmp_path_factory, sales, initially_sold):
    from hall.cartons.cardbook import CardBook
    from hall.config import parse_config
    from hall.door.service import Hall
    from hall.record.journal import Journal
    from tests.conftest import SECRET

    folder = tmp_path_factory.mktemp("sold")
    config = parse_config({"hall": {"data_dir": str(folder)}})

    def open_hall():
        return Hall(
            config,
            Journal(folder / "journal.sqlite"),
            CardBook(dict(CARDS), set(initially_sold)),
            voucher_secret=SECRET,
            rng=random.Random(1),
        )

    hall = open_hall()
    for i, (ids, sold) in enumerate(sales):
        hall.set_sold(ids, sold, role="desk")
        if i == 2:
            hall.start_partie(role="speaker")
        assert hall.speaker_snapshot().sold_count == sum(hall.may_play(c) for c in IDS)
    count = hall.speaker_snapshot().sold_count
    hall.close()
    replayed = open_hall()
    assert replayed.speaker_snapshot().sold_count == count == replayed.card_count()[1]
    replayed.close()


def test_snapshots_are_frozen_values_that_do_not_move_with_the_hall(make_hall):
    hall = make_hall(CARDS)
    hall.start_partie(role="speaker")
    hall.draw(7, role="speaker")
    snap = hall.snapshot()
    hall.draw(8, role="speaker")
    assert snap.partie.draws == (7,) and snap.seq == 2 and hall.snapshot().partie.draws == (7, 8)
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.seq = 99
    assert isinstance(hall.speaker_snapshot().can_claim, tuple)


def test_a_typed_number_corrects_a_held_ball_or_draws(make_hall):
    hall = make_hall(CARDS)
    hall.start_partie(role="speaker")
    assert hall.key_typed("draw", 5).action == "draw"
    hall.ball_read(13, source="ball_machine", confirm=True)  # held for the speaker
    assert hall.drawable_numbers() == ()  # nothing may be drawn over a held ball
    outcome = hall.key_typed("draw", 18)  # the speaker saw an 18, not a 13
    assert outcome.action == "confirm" and [r.event.number for r in hall.records("draw:ball_drawn")] == [5, 18]
    assert hall.speaker_snapshot().proposed is None
    assert hall.key_typed("reject").action == "none"  # nothing held: the key does nothing
    assert 5 not in hall.drawable_numbers() and len(hall.drawable_numbers()) == 88
    with pytest.raises(Rejected) as err:
        hall.key_typed("draw", 18)
    assert err.value.code == "already_drawn"
