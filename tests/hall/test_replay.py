"""Replaying the journal gives the live state, and the winner watch always equals a brute-force scan."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hall.cartons.planches import generate_planche
from hall.events import LotSpec, PriceTier
from hall.loto.claims import verify
from hall.refusal import Rejected

COMMANDS = (
    ["draw"] * 14
    + ["check"] * 4
    + ["award"] * 3
    + ["undo", "announce", "resume", "resume", "clear", "start", "sell", "caisse", "prices", "carry", "start_changed"]
)


def brute_force_candidates(hall) -> set[str]:
    p = hall.evening.running
    if p is None or p.current_lot is None:
        return set()
    kind = p.current_lot.kind
    return {
        cid
        for cid in hall.book
        if hall.may_play(cid)
        and verify(hall.book.get(cid), p.draws, kind, hall.config.rules.last_number, p.paid_rows(cid, kind)).kind
        == "valid"
    }


def run_commands(hall, steps, rnd: random.Random):
    ids = list(hall.book)
    for command in steps:
        p = hall.evening.running
        try:
            if command == "draw":
                left = [n for n in range(1, 91) if not p or n not in p.draws]
                hall.draw(rnd.choice(left or [1]), role="speaker")
                for cid in list(hall.watch.candidates):
                    if rnd.random() < 0.6:  # most winners shout, some sleep
                        hall.check_claim(cid, role="controller")
            elif command == "check":
                candidates = list(hall.watch.candidates) or ids
                hall.check_claim(rnd.choice(candidates + ids[:1]), role="controller")
            elif command == "award":
                hall.award(role="speaker")
            elif command == "undo":
                hall.undo(role="speaker")
            elif command == "announce":
                hall.announce_claim(role="speaker")
            elif command == "resume":
                hall.resume(role="speaker")
            elif command == "clear":
                hall.clear(role="speaker", force=rnd.random() < 0.05)
            elif command == "start":
                hall.start_partie(role="speaker")
            elif command == "sell":
                hall.set_sold(
                    [rnd.choice(ids)],
                    rnd.random() < 0.7,
                    role=rnd.choice(["desk", "admin"]),
                    session=rnd.choice(["", "ad000001"]),
                )
            elif command == "caisse":  # issue 21: a sale with its offered price and session
                hall.sell(
                    rnd.sample(ids, rnd.randint(1, 3)),
                    role="desk",
                    payment="especes",
                    cents=rnd.choice([None, 0, 500]),
                    session="d35c0001",
                )
            elif command == "prices":
                hall.set_prices(
                    [PriceTier(1, rnd.choice([200, 300])), PriceTier(6, rnd.choice([1000, 1500]))], role="admin"
                )
            elif command == "carry":
                hall.clear(role="speaker", force=True, carry=True)
            elif command == "start_changed":  # lots changed at the console, kept beside the programme's
                hall.start_partie(
                    [LotSpec("quine", rnd.choice(["Quine", "Jambon"])), LotSpec("carton_plein", "Vélo")],
                    role="speaker",
                    session="5e55100a",
                )
        except Rejected:
            pass
        assert set(hall.watch.candidates) == brute_force_candidates(hall)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32),
    steps=st.lists(st.sampled_from(COMMANDS), min_size=20, max_size=400),
    last_rule=st.booleans(),
    ties=st.sampled_from(["draw_lowest", "draw_highest", "share"]),
    false_claim=st.sampled_from(["resume", "cancel_card"]),
)
def test_replay_equals_live_and_watch_equals_scan(tmp_path_factory, seed, steps, last_rule, ties, false_claim):
    import random as _random

    from hall.cartons.cardbook import CardBook
    from hall.config import parse_config
    from hall.door.service import Hall
    from hall.record.journal import Journal

    rnd = _random.Random(seed)
    planche = generate_planche(rnd) + generate_planche(rnd)
    cards = {f"C{i}": card for i, card in enumerate(planche)}
    folder = tmp_path_factory.mktemp("replay")
    config = parse_config({"rules": {"last_number": last_rule, "ties": ties, "false_claim": false_claim}})

    def open_hall():
        return Hall(
            config,
            Journal(folder / "j.sqlite"),
            CardBook(cards, sold=set(list(cards)[:9])),
            voucher_secret=b"k" * 32,
            rng=_random.Random(seed),
        )

    live = open_hall()
    live.start_partie(role="speaker")
    run_commands(live, steps, rnd)
    replayed = open_hall()
    assert replayed.evening.snapshot() == live.evening.snapshot()
    assert replayed.watch.candidates == live.watch.candidates
    assert replayed.watch.sleepers == live.watch.sleepers
    live.journal.close()
    replayed.journal.close()
