"""The checkpoint beside the journal (hall/record/checkpoint.py): a restart takes the state up from it and replays only
the records after it — the same state as the whole replay — and ignores any checkpoint that does not hold (another
journal's, a truncated one, a forged one, another key's, one past the journal's end, other settings)."""

from __future__ import annotations

import pickle
import random
import shutil
import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_planche
from hall.config import parse_config
from hall.door.service import Hall
from hall.record import checkpoint
from hall.record.journal import Journal
from tests.hall.test_replay import COMMANDS, run_commands

KEY = b"k" * 32


def cards_of(seed: int) -> dict:
    rnd = random.Random(seed)
    return {f"C{i}": card for i, card in enumerate(generate_planche(rnd) + generate_planche(rnd))}


def open_hall(folder, cards, key=KEY, false_claim="resume", seed=0) -> Hall:
    config = parse_config({"rules": {"false_claim": false_claim}})
    return Hall(
        config,
        Journal(folder / "journal.sqlite"),
        CardBook(cards, sold=set(list(cards)[:9])),
        voucher_secret=key,
        rng=random.Random(seed),
    )


def picture(hall: Hall) -> tuple:
    """Everything a reader sees of the state, and the watch kept in step."""
    watch = hall.watch
    return (
        hall.evening.snapshot(),
        hall.snapshot(),
        hall.speaker_snapshot(),
        sorted(watch.candidates),
        watch.sleepers,
        hall._state.sold_count,
        hall._state.issued_at,
        hall._state.tickets,
        hall._state.after_partie,
        hall._state.last,
        hall.sales(),
        hall._state.rooms.rooms,
        (hall._state.rooms.ball_seq, hall._state.rooms.ball),
    )


def evening(folder, cards, parties: int = 3, seed: int = 1) -> Hall:
    """Some parties played through the hall: sales, balls, claims, awards; the last partie left running."""
    hall = open_hall(folder, cards, seed=seed)
    rnd = random.Random(seed)
    for n in range(parties):
        hall.start_partie(role="speaker")
        run_commands(hall, ["draw"] * 12 + ["check", "award", "resume", "caisse", "draw", "draw"], rnd)
        if n < parties - 1:
            hall.clear(role="speaker", force=True)
    return hall


def test_a_restart_takes_the_state_up_from_the_last_start_and_replays_only_the_tail(tmp_path):
    cards = cards_of(1)
    live = evening(tmp_path, cards)
    last_start = max(r.seq for r in live.journal.records() if r.type == "partie:started")
    expected = picture(live)
    live.close()
    assert (tmp_path / checkpoint.FILE).exists()

    again = open_hall(tmp_path, cards)
    assert again.resumed_from == last_start
    assert picture(again) == expected
    again.draw(next(n for n in range(1, 91) if n not in again.evening.running.draws), role="speaker")  # it plays on
    again.close()

    (tmp_path / checkpoint.FILE).unlink()  # the whole replay: the same state
    whole = open_hall(tmp_path, cards)
    assert whole.resumed_from == 0
    full = picture(whole)
    whole.close()
    again = open_hall(tmp_path, cards)  # no checkpoint since: the whole journal again
    assert again.resumed_from == 0 and picture(again) == full
    again.close()


def test_a_checkpoint_older_than_the_last_start_still_gives_the_whole_replay_s_state(tmp_path):
    cards = cards_of(2)
    live = evening(tmp_path, cards, parties=2)
    kept = (tmp_path / checkpoint.FILE).read_bytes()
    live.clear(role="speaker", force=True)
    live.start_partie(role="speaker")
    run_commands(live, ["draw"] * 10 + ["check", "caisse"], random.Random(5))
    expected = picture(live)
    starts = [r.seq for r in live.journal.records() if r.type == "partie:started"]
    live.close()
    (tmp_path / checkpoint.FILE).write_bytes(kept)  # the start before: a whole partie and a start in the tail
    again = open_hall(tmp_path, cards)
    assert again.resumed_from == starts[-2]
    assert picture(again) == expected
    again.close()


def test_between_parties_the_tail_after_the_start_rebuilds_the_same_state(tmp_path):
    cards = cards_of(3)
    live = evening(tmp_path, cards, parties=2)
    live.clear(role="speaker", force=True)  # « Démarquez »: the checkpoint's partie is over, no start after it
    live.sell([c for c in live.book if not live._state.already_sold(c)][:2], role="desk", payment="especes")
    expected = picture(live)
    live.close()
    again = open_hall(tmp_path, cards)
    assert again.resumed_from > 0 and again.evening.running is None
    assert picture(again) == expected
    again.close()


def _expect_whole_replay(folder, cards, expected, **kw) -> None:
    hall = open_hall(folder, cards, **kw)
    try:
        assert hall.resumed_from == 0
        assert picture(hall) == expected
    finally:
        hall.close()


def test_another_journal_s_checkpoint_is_ignored(tmp_path):
    cards = cards_of(4)
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    evening(a, cards, parties=3, seed=1).close()
    hall = evening(b, cards, parties=3, seed=2)  # the same hall's key, the same cartons, another evening
    expected = picture(hall)
    hall.close()
    shutil.copy(a / checkpoint.FILE, b / checkpoint.FILE)
    _expect_whole_replay(b, cards, expected)


def test_a_truncated_or_flipped_checkpoint_is_ignored(tmp_path):
    cards = cards_of(5)
    hall = evening(tmp_path, cards)
    expected = picture(hall)
    hall.close()
    kept = (tmp_path / checkpoint.FILE).read_bytes()
    for damaged in (kept[: len(kept) // 2], kept[:-1], kept[:10], b"", kept[:-5] + bytes([kept[-5] ^ 1]) + kept[-4:]):
        (tmp_path / checkpoint.FILE).write_bytes(damaged)
        _expect_whole_replay(tmp_path, cards, expected)


class _Planted:
    ran: list[str] = []

    def __reduce__(self):
        return (_Planted.ran.append, ("unpickled",))


def test_a_forged_checkpoint_is_never_unpickled(tmp_path):
    cards = cards_of(6)
    hall = evening(tmp_path, cards)
    expected = picture(hall)
    start = hall.journal.hash_at(hall.resumed_from or 1)
    hall.close()
    body = pickle.dumps((checkpoint.code_stamp(), "false_claim='resume'", 1, start, _Planted()))
    forged = checkpoint.MAGIC + b"\0" * 32 + body  # the right shape, not this hall's seal
    (tmp_path / checkpoint.FILE).write_bytes(forged)
    _expect_whole_replay(tmp_path, cards, expected)
    other_key = checkpoint.seal(b"another hall", checkpoint.Checkpoint(1, start, _Planted()), "false_claim='resume'")
    (tmp_path / checkpoint.FILE).write_bytes(other_key)
    _expect_whole_replay(tmp_path, cards, expected)
    assert _Planted.ran == []


def test_a_checkpoint_past_the_journal_s_end_or_of_other_settings_is_ignored(tmp_path):
    cards = cards_of(7)
    hall = evening(tmp_path, cards)
    kept_at = max(r.seq for r in hall.journal.records() if r.type == "partie:started")
    hall.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    with db:
        db.execute("DELETE FROM events WHERE seq >= ?", (kept_at,))  # the journal cut before the start it names
    db.close()
    whole = open_hall(tmp_path, cards)
    assert whole.resumed_from == 0 and whole.journal.last_seq == kept_at - 1
    expected = picture(whole)
    whole.close()
    (tmp_path / checkpoint.FILE).unlink()
    whole = open_hall(tmp_path, cards)
    assert picture(whole) == expected  # what it gave is the whole replay's state
    whole.start_partie(role="speaker")  # a checkpoint kept with « resume »
    whole.close()
    keyless = open_hall(tmp_path, cards, key=b"", false_claim="cancel_card")  # no key: the whole replay, always
    expected = picture(keyless)
    keyless.close()
    _expect_whole_replay(tmp_path, cards, expected, false_claim="cancel_card")  # the rule changed: the whole replay


def test_a_hall_without_a_key_keeps_no_checkpoint(tmp_path):
    cards = cards_of(8)
    hall = open_hall(tmp_path, cards, key=b"")
    hall.start_partie(role="speaker")
    hall.close()
    assert not (tmp_path / checkpoint.FILE).exists()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32),
    steps=st.lists(st.sampled_from(COMMANDS), min_size=20, max_size=300),
    false_claim=st.sampled_from(["resume", "cancel_card"]),
)
def test_checkpoint_then_tail_equals_the_whole_replay_and_the_live_state(tmp_path_factory, seed, steps, false_claim):
    folder = tmp_path_factory.mktemp("checkpoint")
    cards = cards_of(seed)
    live = open_hall(folder, cards, false_claim=false_claim, seed=seed)
    live.start_partie(role="speaker")
    run_commands(live, steps, random.Random(seed))
    expected = picture(live)
    live.close()
    resumed = open_hall(folder, cards, false_claim=false_claim, seed=seed)
    assert resumed.resumed_from > 0
    assert picture(resumed) == expected
    resumed.close()
    (folder / checkpoint.FILE).unlink()
    whole = open_hall(folder, cards, false_claim=false_claim, seed=seed)
    assert whole.resumed_from == 0
    assert picture(whole) == expected
    whole.close()


def test_the_watch_s_sleepers_of_the_partie_in_play_come_back_from_its_start(tmp_path):
    """A winner who did not shout (a sleeper) is the watch's, not the evening's: after a checkpoint the tail's balls
    are replayed through the watch from the partie's start, so the controller's list of sleepers comes back."""
    cards = cards_of(9)
    hall = open_hall(tmp_path, cards)
    hall.start_partie(role="speaker")
    rnd = random.Random(9)
    for n in rnd.sample(range(1, 91), 90):
        hall.draw(n, role="speaker")
        if hall.watch.sleepers:
            break
    expected = picture(hall)
    assert hall.watch.sleepers
    hall.close()
    again = open_hall(tmp_path, cards)
    assert again.resumed_from > 0
    assert picture(again) == expected
    again.close()


def test_every_part_of_the_state_is_kept_by_the_checkpoint_or_said_to_be_rebuilt():
    """A part added to the state (or to the annex rooms' journalled part) must be named: kept by the checkpoint, or
    rebuilt without it — else a restart from a checkpoint would silently lose it."""
    from hall.door.rooms_state import AnnexRooms
    from hall.door.state import _KEPT, NOT_KEPT, ROOMS_KEPT, HallState

    state = HallState(parse_config({}), CardBook({}))
    assert set(vars(state)) == set(_KEPT) | NOT_KEPT
    links = {"clock", "_beats", "_annex_seq", "_links", "_started"}  # live, never journalled
    assert set(vars(AnnexRooms())) == set(ROOMS_KEPT) | links
