"""A relay's ear against a real redis-server: a listener busy with a slow resync is not deaf, one stuck beyond
``BUSY_MAX_S`` is. Found by the 30 s outage bench under load: a relay whose resync (the core's state fetched, then
sent to its ~500 phones) took over ``DEAF_S`` judged itself deaf and ended, its phones all reconnecting at once."""

from __future__ import annotations

import threading

import pytest

from display import relay_wire as wire
from display.relay import Relay
from display.relay_listen import Ear
from hall.config import parse_config
from tests.app.relay_parts import LoopbackCore, needs_redis, wait_until

pytestmark = needs_redis


class SlowCore(LoopbackCore):
    """``GET /api/state`` answered only once the test releases it: a core busy elsewhere."""

    def __init__(self):
        self.asked, self.release = threading.Event(), threading.Event()
        super().__init__(self._answer)

    def _answer(self, path: str) -> tuple[int, bytes]:
        self.asked.set()
        self.release.wait(10)
        return 200, b'{"seq": 9, "draws": [1, 2, 3]}'

    def close(self):
        self.release.set()
        super().close()


@pytest.fixture
def core():
    c = SlowCore()
    yield c
    c.close()


def ev(seq):
    return wire.encode({"t": "ev", "seq": seq, "name": "draw", "data": {"number": seq, "seq": seq}})


def test_a_listener_busy_with_a_resync_is_not_deaf_until_busy_max(redis_server, core):
    relay = Relay(parse_config({}), core_url=core.url, relay_id="test:ear", async_mode="threading")
    now = [0.0]
    restarts: list[float] = []
    ear = Ear(relay, redis_server.url, clock=lambda: now[0], restart=lambda: restarts.append(now[0]))
    ear.listening = True  # as Ear.start does; the test runs the check's ticks itself
    listener = threading.Thread(target=ear.listen, daemon=True)
    listener.start()
    r = redis_server.client()
    try:
        wait_until(lambda: r.pubsub_numsub(wire.CHANNEL)[0][1] == 1, 10, "the ear never subscribed")
        r.set(wire.BEAT_KEY, "1", px=60_000)  # the core beats
        r.publish(wire.CHANNEL, ev(5))
        wait_until(lambda: relay.seq == 5, 10, "the first event was not handled")
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
