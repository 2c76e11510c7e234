"""The core's side of the queue against a real redis-server: what waits while Redis is away goes out in order once
it is back, a full outbox drops its oldest, and the relays' reports become the device ``relays`` of a real Hall."""

from __future__ import annotations

import json
import threading

from display import relay_wire as wire
from display.relay_publisher import RelayPublisher
from display.relay_seal import BEAT, PUBLIC, REPORT, seal, unseal_json
from tests.app.relay_parts import QUEUE_KEY, RedisServer, needs_redis, wait_until

pytestmark = needs_redis


def listen(server: RedisServer):
    """A subscriber on the channel; returns (messages, stop). ``stop()`` returns once the subscriber has let go of
    its connection, so the test may stop Redis next without the subscriber's thread failing in mid-read."""
    pubsub = server.client().pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(wire.CHANNEL)
    got: list[dict] = []
    stopping = threading.Event()

    def run():
        while not stopping.is_set():
            raw = pubsub.get_message(timeout=0.2)
            if raw:
                message = unseal_json(QUEUE_KEY, PUBLIC, raw["data"])
                assert message is not None, raw  # every message the core publishes is sealed with the hall's key
                got.append(message)
        pubsub.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def stop() -> None:
        stopping.set()
        thread.join(5)
        assert not thread.is_alive(), "the test's subscriber did not stop"

    return got, stop


def test_events_wait_while_redis_is_away_and_go_out_in_order(redis_server, make_hall):
    hall = make_hall()
    publisher = RelayPublisher(redis_server.url, hall, expected=0, key=QUEUE_KEY)
    task = threading.Thread(target=publisher.run, daemon=True)
    task.start()
    try:
        got, stop = listen(redis_server)
        publisher.event(1, "draw", {"number": 5, "seq": 1})
        wait_until(lambda: any(m["t"] == "ev" for m in got), 10, "the first event never went out")
        stop()
        redis_server.stop()
        for seq in range(2, 7):
            publisher.event(seq, "draw", {"number": 10 + seq, "seq": seq})  # returns at once, Redis or not
        wait_until(lambda: publisher.down_since is not None, 10, "Redis away never noticed")
        assert hall.device("relays").code == "relays_queue_away" and publisher.pending() == 5
        publisher.stop()  # the test listens before the outbox goes out: one step by hand
        task.join(5)
        redis_server.start()
        got, stop = listen(redis_server)
        publisher._next_beat = 0.0
        publisher.step()
        assert publisher.pending() == 0
        wait_until(lambda: any(m["t"] == "hb" and m["seq"] == 6 for m in got), 10, "no beat after the return")
        stop()
        assert [m["seq"] for m in got if m["t"] == "ev"] == [2, 3, 4, 5, 6]
        assert {m["r"] for m in got} == {publisher.run_id}
        assert [m["k"] for m in got] == sorted({m["k"] for m in got})  # numbered as they went out
        assert publisher.lost == 0 and publisher.down_since is None
        assert redis_server.client().pttl(wire.BEAT_KEY) <= wire.DEAF_S * 1000
        assert unseal_json(QUEUE_KEY, BEAT, redis_server.client().get(wire.BEAT_KEY))["t"] == "hb"
    finally:
        publisher.stop()
        task.join(5)


def test_a_full_outbox_drops_its_oldest_and_counts_them(redis_server, make_hall):
    publisher = RelayPublisher(redis_server.url, make_hall(), expected=0, key=QUEUE_KEY, max_outbox=3)
    for seq in range(1, 6):
        publisher.event(seq, "draw", {"number": seq, "seq": seq})
    assert publisher.pending() == 3 and publisher.lost == 2
    got, stop = listen(redis_server)
    publisher.step()
    wait_until(lambda: len([m for m in got if m["t"] == "ev"]) == 3, 10, "the outbox did not go out")
    stop()
    assert [m["seq"] for m in got if m["t"] == "ev"] == [3, 4, 5]  # the relays see the hole and resync


def test_the_relays_reports_become_the_device_relays(redis_server, make_hall):
    hall = make_hall()
    publisher = RelayPublisher(redis_server.url, hall, expected=2, key=QUEUE_KEY)
    r = redis_server.client()

    def report(relay: str, n: int, state: str = "ok") -> None:
        r.hset(wire.RELAYS_KEY, relay, seal(QUEUE_KEY, REPORT, json.dumps({"n": n, "state": state, "silent_s": 0.2})))

    report("pi:1", 1)
    publisher.step()
    assert hall.device("relays").code == "relays_missing" and dict(hall.device("relays").params)["n"] == 1
    report("pi:2", 1)
    publisher._next_beat = 0.0
    publisher.step()
    assert hall.device("relays").code == "relays_ok" and hall.device("relays").state == "ok"
    report("pi:2", 2, "deaf")
    publisher._next_beat = 0.0
    publisher.step()
    status = hall.device("relays")
    assert status.state == "degraded" and status.code == "relays_deaf" and dict(status.params)["relay"] == "pi:2"


def test_a_report_not_sealed_by_a_relay_of_the_hall_is_no_relay(redis_server, make_hall):
    """A local account writing the relays' hash (Redis on loopback answers it) cannot make the console say a relay
    is deaf, nor count one that is not there."""
    hall = make_hall()
    publisher = RelayPublisher(redis_server.url, hall, expected=1, key=QUEUE_KEY)
    r = redis_server.client()
    r.hset(wire.RELAYS_KEY, "pi:1", seal(QUEUE_KEY, REPORT, json.dumps({"n": 1, "state": "ok", "silent_s": 0.1})))
    r.hset(wire.RELAYS_KEY, "forged:2", json.dumps({"n": 1, "state": "deaf", "silent_s": 99}))
    r.hset(wire.RELAYS_KEY, "forged:3", seal(bytes(32), REPORT, json.dumps({"n": 1, "state": "deaf"})))
    publisher.step()
    assert hall.device("relays").code == "relays_ok" and dict(hall.device("relays").params)["n"] == 1
    assert publisher.refusals.total == 2 and set(publisher.relays) == {"pi:1"}
