"""A relay's ear against a real redis-server: a listener busy with a slow resync is not deaf, one stuck beyond
``BUSY_MAX_S`` is. Found by the 30 s outage bench under load: a relay whose resync (the core's state fetched, then
sent to its ~500 phones) took over ``DEAF_S`` judged itself deaf and ended, its phones all reconnecting at once."""

from __future__ import annotations

import json
import threading

import pytest

from display import relay_wire as wire
from display.relay import Relay
from display.relay_listen import Ear
from display.relay_seal import BEAT, seal
from hall.config import parse_config
from tests.app.relay_parts import QUEUE_KEY, LoopbackCore, needs_redis, sealed, wait_until

pytestmark = needs_redis


class SlowCore(LoopbackCore):
    """``GET /api/state`` at ``seq``, answered at once, or once ``hold`` is set only when the test releases it: a
    core busy elsewhere."""

    def __init__(self):
        self.asked, self.release, self.hold = threading.Event(), threading.Event(), threading.Event()
        self.seq = 4
        super().__init__(self._answer)

    def _answer(self, path: str) -> tuple[int, bytes]:
        if self.hold.is_set():
            self.asked.set()
            self.release.wait(10)
        return 200, json.dumps({"seq": self.seq, "draws": list(range(1, self.seq + 1))}).encode()

    def close(self):
        self.release.set()
        super().close()


@pytest.fixture
def core():
    c = SlowCore()
    yield c
    c.close()


def ev(seq):
    return sealed({"t": "ev", "seq": seq, "name": "draw", "data": {"number": seq, "seq": seq}}, k=seq)


def listening(redis_server, core):
    """A relay and its ear on a driven clock, listening (the test runs the check's ticks itself)."""
    relay = Relay(parse_config({}), core_url=core.url, relay_id="test:ear", key=QUEUE_KEY, async_mode="threading")
    now = [0.0]
    restarts: list[float] = []
    ear = Ear(relay, redis_server.url, clock=lambda: now[0], restart=lambda: restarts.append(now[0]))
    ear.listening = True  # as Ear.start does
    listener = threading.Thread(target=ear.listen, daemon=True)
    listener.start()
    return relay, ear, listener, now, restarts


def test_a_listener_busy_with_a_resync_is_not_deaf_until_busy_max(redis_server, core):
    relay, ear, listener, now, restarts = listening(redis_server, core)
    r = redis_server.client()
    try:
        wait_until(lambda: r.pubsub_numsub(wire.CHANNEL)[0][1] == 1, 10, "the ear never subscribed")
        r.set(wire.BEAT_KEY, seal(QUEUE_KEY, BEAT, '{"t":"hb"}'), px=60_000)  # the core beats
        r.publish(wire.CHANNEL, ev(5))
        wait_until(lambda: relay.seq == 5, 10, "the first event was not handled")
        core.seq = 9
        core.hold.set()
        r.publish(wire.CHANNEL, ev(9))  # a gap: the relay fetches the core's state
        assert core.asked.wait(10), "the gap was not answered with a fetch"
        now[0] = 10.0  # far beyond DEAF_S, the listener still busy
        assert ear.tick(r) == "ok" and restarts == []
        now[0] = 1.0 + wire.BUSY_MAX_S  # busy beyond BUSY_MAX_S: stuck, hence deaf
        assert ear.tick(r) == "deaf" and restarts == [now[0]]
        core.release.set()
        wait_until(lambda: ear.handling_since is None, 10, "the resync never ended")
        assert relay.seq == 9
    finally:
        ear.stop()
        core.release.set()
        listener.join(5)


def test_a_strangers_messages_never_end_the_listening_nor_count_as_heard(redis_server, core):
    """Invalid UTF-8 once ended a relay's listening (redis-py decoding it): now every message is read as bytes and
    checked against its seal. What is not the hall's is refused and counted, and says nothing of the subscription:
    a relay hearing only strangers while the core beats is deaf (one holding another key than the core's is found)."""
    relay, ear, listener, now, restarts = listening(redis_server, core)
    r = redis_server.client()
    try:
        wait_until(lambda: r.pubsub_numsub(wire.CHANNEL)[0][1] == 1, 10, "the ear never subscribed")
        r.publish(wire.CHANNEL, ev(5))
        wait_until(lambda: relay.seq == 5, 10, "the first event was not handled")
        r.set(wire.BEAT_KEY, '{"t":"hb"}', px=60_000)  # an unsealed beat: not the core's
        now[0] = 10.0
        assert ear.tick(r) == "ok"
        r.set(wire.BEAT_KEY, seal(QUEUE_KEY, BEAT, '{"t":"hb"}'), px=60_000)
        for raw in (b"\xff\xfe\xfd" * 30, b'{"t":"ev","seq":1000000000,"name":"draw","data":{"number":66}}'):
            r.publish(wire.CHANNEL, raw)
        wait_until(lambda: relay.refusals.total == 2, 10, "the stranger's messages were not refused")
        assert listener.is_alive() and ear.listening and relay.seq == 5
        assert ear.tick(r) == "deaf" and restarts == [10.0]
    finally:
        ear.stop()
        listener.join(5)
