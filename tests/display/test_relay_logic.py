"""A relay's handling of the queue's messages, in process (the multi-process tests are tests/app/test_relays.py):
events forwarded once and in order, a gap answered with one fetch of the core's state and the relay standing at the
core's seq whatever a message claimed, a room's audience view kept per version, the state cache fetching at most once
per seq, and only the messages the hall sealed, fresh, of a run the core says is its own, taken at all. The core is a
real HTTP server on loopback."""

from __future__ import annotations

import json
import threading

import pytest

from display.relay import Relay
from display.relay_seal import Freshness, Refusals
from hall.config import parse_config
from tests.app.relay_parts import QUEUE_KEY, LoopbackCore, sealed


class Core(LoopbackCore):
    """``GET /api/state`` and ``GET /api/games/rooms/<code>`` as the core answers them."""

    def __init__(self):
        self.state = {"seq": 5, "draws": [1, 2]}
        self.rooms = {"ABCD": {"code": "ABCD", "version": 3, "seats": []}}
        self.hits: list[str] = []
        super().__init__(self._answer)

    def _answer(self, path: str) -> tuple[int, bytes]:
        self.hits.append(path)
        body = self.state if path == "/api/state" else self.rooms.get(path.rsplit("/", 1)[-1])
        return (200 if body is not None else 404), json.dumps(body or {"error": "unknown_room"}).encode()


@pytest.fixture
def core():
    c = Core()
    yield c
    c.close()


@pytest.fixture
def relay(core):
    r = Relay(parse_config({}), core_url=core.url, relay_id="test:1", key=QUEUE_KEY, async_mode="threading")
    r.events = []
    r.on_event = lambda: r.events.append(r.seq)
    return r


def ev(seq, number=7):
    return {"t": "ev", "seq": seq, "name": "draw", "data": {"number": number, "seq": seq}}


def test_events_are_forwarded_once_in_order(relay, core):
    for seq in (6, 7, 7, 6, 8):  # the core sends again what Redis half-took
        relay.handle(ev(seq))
    assert relay.events == [6, 7, 8] and relay.forwarded == 3
    assert relay.resyncs == 0 and core.hits == ["/api/state"]  # once, to know where the relay stands


def test_a_gap_is_answered_with_the_core_state_fetched_once(relay, core):
    relay.handle(ev(6))
    core.state = {"seq": 9, "draws": [1, 2, 3, 4]}
    relay.handle(ev(9))  # 7 and 8 were lost while Redis was away
    assert relay.resyncs == 1 and relay.seq == 9 and core.hits == ["/api/state"] * 2  # to stand, then the gap
    relay.handle(ev(10))
    assert relay.events == [6, 10]


def test_a_beat_ahead_of_the_last_event_is_a_gap_too(relay, core):
    relay.handle({"t": "hb", "n": 1, "seq": 4})  # the first beat: the core's state says where the relay stands
    assert relay.seq == 5 and relay.resyncs == 0
    core.state = {"seq": 6, "draws": [5]}
    relay.handle({"t": "hb", "n": 2, "seq": 6})  # the last event itself was lost
    assert relay.resyncs == 1 and relay.seq == 6


def test_the_state_cache_fetches_once_per_seq(relay, core):
    assert relay.cache.get(None)["seq"] == 5
    assert relay.cache.get(5)["seq"] == 5 and relay.cache.get(3)["seq"] == 5
    assert core.hits == ["/api/state"]
    core.state = {"seq": 6, "draws": [1, 2, 3]}
    assert relay.cache.get(6)["seq"] == 6 and len(core.hits) == 2


def test_a_rooms_audience_view_is_kept_per_version(relay):
    relay.handle(
        {"t": "emit", "name": "game", "to": "g:ABCD:a", "data": {"code": "ABCD", "version": 4, "room": {"seats": [1]}}}
    )
    relay.handle(
        {"t": "emit", "name": "game", "to": "g:ABCD:a", "data": {"code": "ABCD", "version": 3, "room": {"seats": []}}}
    )  # overtaken: kept out
    assert relay.rooms["ABCD"]["version"] == 4
    relay.handle({"t": "emit", "name": "screen", "to": None, "data": {"show": "loto"}})
    assert relay.events == []  # not a journal event


def beating_relay(core, now: list[float]) -> tuple[Relay, list[tuple[str, dict]]]:
    """A relay on a driven clock, and what it sends to every client (there are no clients: the emission is empty)."""
    relay = Relay(
        parse_config({"server": {"ping_s": 2.0}}),
        core_url=core.url,
        relay_id="test:beat",
        key=QUEUE_KEY,
        async_mode="threading",
        clock=lambda: now[0],
    )
    sent: list[tuple[str, dict]] = []
    send_all = relay._send_all
    relay._send_all = lambda name, data: (sent.append((name, data)), send_all(name, data))
    return relay, sent


def test_a_quiet_relay_beats_its_clients_with_its_last_seq_and_never_while_events_flow(core):
    """The relay's own clock, driven: no beat while events reach every client less than ``ping_s`` apart, one
    naming the last seq forwarded once nothing went out for ``ping_s``, then one every ``ping_s``."""
    now = [100.0]
    relay, sent = beating_relay(core, now)
    assert relay.sio.eio.ping_interval == 25  # Engine.IO only finds the dead sockets
    relay.handle({"t": "hb", "n": 1, "seq": 5})
    for seq in range(6, 12):  # a ball every 1.5 s
        now[0] += 1.5
        assert relay.beat_if_quiet() == pytest.approx(0.5)
        relay.handle(ev(seq))
    assert [name for name, _ in sent] == ["draw"] * 6 and relay.beats == 0
    now[0] += 1.9
    assert relay.beat_if_quiet() == pytest.approx(0.1) and relay.beats == 0
    now[0] += 0.1
    assert relay.beat_if_quiet() == 2.0
    assert sent[-1] == ("beat", {"at_seq": 11}) and relay.beats == 1
    now[0] += 2.0  # still quiet (Redis away, say): the clients still hear it
    relay.beat_if_quiet()
    assert sent[-1] == ("beat", {"at_seq": 11}) and relay.beats == 2


def test_a_beat_due_while_an_event_goes_out_waits_for_it_and_is_no_longer_due(core):
    """Quiet for 2 s, then an event whose emission is slow (500 phones, shard by shard): the beat task, due by the
    old quiet, must not slip a beat naming the new seq between the shards (the phones not yet reached would take
    it for a lost event and resync); once the event is out, it is the clients' news and no beat is due."""
    now = [100.0]
    relay, sent = beating_relay(core, now)
    relay.handle({"t": "hb", "n": 1, "seq": 5})
    inside, release = threading.Event(), threading.Event()
    send_all = relay._send_all

    def slow(name, data):
        if name == "draw":
            inside.set()
            assert release.wait(5)
        send_all(name, data)

    relay._send_all = slow
    now[0] += 1.9
    event = threading.Thread(target=relay.handle, args=(ev(6),))
    event.start()
    assert inside.wait(5)
    now[0] += 0.5  # the old quiet has run out while the shards go out
    beat: list[float] = []
    beater = threading.Thread(target=lambda: beat.append(relay.beat_if_quiet()))
    beater.start()
    beater.join(0.3)
    assert beater.is_alive() and relay.beats == 0  # waiting for the emission, not beating through it
    release.set()
    event.join(5)
    beater.join(5)
    assert relay.beats == 0 and beat == [pytest.approx(2.0)]
    assert [name for name, _ in sent] == ["draw"]  # the event, and no beat through or after it


def test_listening_again_after_the_queue_was_away_catches_up_at_once_only_if_the_core_moved_on(relay, core):
    relay.handle(ev(6))
    relay.catch_up()  # nothing drawn meanwhile: one fetch, nothing sent
    assert relay.resyncs == 0 and relay.seq == 6
    core.state = {"seq": 9, "draws": [1, 2, 3, 4]}
    relay.catch_up()  # three events published before the relay subscribed again
    assert relay.resyncs == 1 and relay.seq == 9
    relay.handle(ev(9))  # the core's outbox, sent again: already in the state
    relay.handle(ev(10))
    assert relay.events == [6, 10]


def test_a_room_code_that_cannot_be_one_never_reaches_the_core_and_an_unknown_one_once(relay, core):
    assert relay._room("../state") is None and relay._room("ZZ ZZ") is None and relay._room("") is None
    assert core.hits == []
    assert relay._room("ZZZZ") is None and relay._room("ZZZZ") is None
    assert core.hits == ["/api/games/rooms/ZZZZ"]
    assert relay._room("ABCD")["version"] == 3


def test_a_jump_is_believed_only_as_far_as_the_core_confirms_it(relay, core):
    """A beat or an event announcing seq 1 000 000 000 (as one ``PUBLISH`` did to every relay): the relay asks the
    core, stands at the core's seq, and the real events that follow reach its clients."""
    relay.handle(ev(6))
    core.state = {"seq": 7, "draws": [1, 2, 3]}
    relay.handle({"t": "hb", "n": 9, "seq": 1_000_000_000})
    assert relay.seq == 7 and relay.resyncs == 1
    relay.handle(ev(1_000_000_000, number=66))
    assert relay.seq == 7 and relay.resyncs == 1  # nothing new at the core: nobody is sent anything
    relay.handle(ev(8))
    assert relay.events == [6, 8]


def test_only_what_the_hall_sealed_fresh_and_of_the_cores_own_run_is_taken(relay, core):
    relay.take(sealed(ev(6), k=1))
    assert relay.events == [6] and relay.fresh.run == "run-1" and core.hits == ["/api/state"]
    forged = {"t": "ev", "seq": 1_000_000_000, "name": "draw", "data": {"number": 66, "seq": 1_000_000_000}}
    refused = [
        b'{"t":"ev","seq":1000000000,"name":"draw","data":{"number":66,"seq":1000000000}}',  # unsealed
        sealed(forged, k=99, key=bytes(32)),  # another key
        sealed(forged, k=99).replace(b'"number":66', b'"number":67'),  # changed after sealing
        sealed(ev(6), k=1),  # replayed as it was
        sealed({"t": "emit", "name": "draw", "to": None, "data": {"number": 66, "seq": 7}}, k=1),  # an old number
        b"\xff\xfe" * 40,  # not even UTF-8
        sealed({"t": "nothing"}, k=50),
    ]
    for raw in refused:
        assert relay.take(raw) is False
    assert relay.refusals.total == len(refused)
    assert set(relay.refusals.by_reason) == {"seal", "replay", "kind"}
    assert relay.seq == 6 and relay.events == [6]
    assert relay.take(sealed(ev(7), k=2)) and relay.events == [6, 7]


def test_a_new_run_is_taken_once_the_core_says_it_is_its_own(relay, core):
    relay.take(sealed(ev(6), k=40))
    core.run = "run-2"  # the core restarted: its numbers start again
    assert relay.take(sealed(ev(7), k=1, run="run-2")) and relay.events == [6, 7]
    assert relay.take(sealed(ev(8), k=41, run="run-1")) is False  # the old run's, replayed
    assert relay.refusals.by_reason["run"] == 1 and relay.events == [6, 7]
    hits = len(core.hits)
    for k in range(42, 60):  # a stranger replaying the old run costs the core one fetch a second at most
        relay.take(sealed(ev(8), k=k, run="run-1"))
    assert len(core.hits) == hits
    assert relay.take(sealed(ev(8), k=2, run="run-2")) and relay.events == [6, 7, 8]


def test_freshness_keeps_the_number_only_of_messages_taken():
    now = [0.0]
    asked: list[str] = []
    fresh = Freshness(lambda run: asked.append(run) or run == "b", clock=lambda: now[0])
    assert fresh.refusal({"r": "a", "k": 1}) == "run" and asked == ["a"]
    assert fresh.refusal({"r": "b", "k": 1}) == "run" and asked == ["a"]  # within the second after a denial
    now[0] = 1.5
    assert fresh.refusal({"r": "b", "k": 3}) is None and fresh.run == "b" and fresh.k == 3
    assert fresh.refusal({"r": "b", "k": 3}) == "replay" and fresh.refusal({"r": "b", "k": True}) == "unstamped"
    assert fresh.refusal({"r": "b", "k": 4}) is None


def test_refusals_are_logged_once_per_burst(caplog):
    now = [0.0]
    refusals = Refusals("relais t", clock=lambda: now[0])
    with caplog.at_level("WARNING", logger="loto-hall.relay"):
        for _ in range(500):
            now[0] += 0.001
            refusals.count("seal")
        now[0] += 30
        refusals.count("replay")
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and "500" in lines[1] and refusals.total == 501
