"""The cartons the phones follow (hall/loto/followed.py, hall/door/follow_desk.py): after any record of a random
evening, what a follower was last told of each carton is what the controllers' desk would say of it now — computed
only for the cartons a record may change, once per record, whoever reads it."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_planche
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.hall.test_replay import run_commands

# parties played long enough for rows to fill, sleep and be paid; no sale: every carton plays, compared at every step
PLAYING = (
    ["draw"] * 40 + ["check"] * 4 + ["award"] * 6 + ["resume"] * 6 + ["undo", "announce", "clear", "start", "carry"]
)


def open_hall(folder, cards, seed: int, last_rule: bool, false_claim: str) -> Hall:
    config = parse_config({"rules": {"last_number": last_rule, "false_claim": false_claim}})
    return Hall(
        config, Journal(folder / "j.sqlite"), CardBook(cards), voucher_secret=b"k" * 32, rng=random.Random(seed)
    )


def as_told(s) -> tuple:
    return (s.lot, s.verdict, s.reason, s.rows, s.to_go, s.prize)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32),
    steps=st.lists(st.sampled_from(PLAYING), min_size=40, max_size=400),
    last_rule=st.booleans(),
    false_claim=st.sampled_from(["resume", "cancel_card"]),
)
def test_what_a_follower_was_told_is_the_controllers_verdict_after_every_record(
    tmp_path_factory, seed, steps, last_rule, false_claim
):
    rnd = random.Random(seed)
    cards = {f"C{i}": card for i, card in enumerate(generate_planche(rnd) + generate_planche(rnd))}
    hall = open_hall(tmp_path_factory.mktemp("followed"), cards, seed, last_rule, false_claim)
    told: dict[str, object] = {}
    readers = compared = 0

    def read(record):  # two readers of one hall (two web apps in a test) get the same news
        nonlocal readers
        picture = hall.snapshot().partie
        first, second = hall.carton_news(record, picture), hall.carton_news(record, picture)
        assert first == second
        readers += 1
        for _, card_id, s in first:
            told[card_id] = s

    hall.subscribe(read)
    keys = {cid: hall.follow_key(cid) for cid in cards}
    followed = list(cards)[:9]
    _, now = hall.follow([keys[c] for c in followed])
    told.update({cid: s for _, cid, s in now})
    hall.start_partie(role="speaker")
    for i, command in enumerate(steps):
        run_commands(hall, [command], rnd)
        if i == len(steps) // 2:  # more phones follow mid-evening
            later = list(cards)[9:]
            _, now = hall.follow([keys[c] for c in later] + ["C1.forged"])
            assert [cid for _, cid, _ in now] == later
            told.update({cid: s for _, cid, s in now})
            followed += later
        for cid in followed:
            verdict = hall.verdict_now(cid)
            if verdict is None:  # no lot open, or the carton cannot claim
                assert told[cid].verdict in ("closed", "cancelled_card") or not hall.may_play(cid)
                continue
            p = hall.evening.running
            expected = (p.current, verdict.kind, verdict.reason, verdict.rows, verdict.to_go, verdict.prize)
            assert as_told(told[cid]) == expected, (cid, list(p.draws))
            compared += 1
    assert readers
    assert compared or not any(c == "draw" for c in steps)
    hall.journal.close()
