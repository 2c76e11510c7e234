"""The core's side of the queue (INTERFACE §10): the public events go out through Redis, whatever Redis does.

The hall's subscriber and the broadcaster only append to an outbox (no I/O, no lock held long): a draw is journalled,
answered and shown on the core's own screens (staff consoles, projectors) exactly as without a queue. One task (a
greenlet under gevent) empties the outbox in order with pipelined ``PUBLISH``es; while Redis is away it keeps the
messages (up to ``max_outbox``, then the oldest go and the relays see a gap: they resync) and tries again every
half second, so once Redis returns every relay gets every event, in ``seq`` order. A message is removed only once
Redis took it: one sent twice is harmless (a relay drops a ``seq`` it already has, a room ``version`` too).

The same task beats every second (``hb`` on the channel, and the beat key) and reads the relays' reports: a relay
that missed the beats, or says it was deaf, or fewer relays than configured, is said on the speaker's console and
``/admin`` as the state of the device ``relays`` (translated in ``display/i18n.py``), and in ``systemctl status``.
"""

from __future__ import annotations

import itertools
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from display import relay_wire as wire
from display.relay_seal import BEAT, PUBLIC, REPORT, Refusals, seal, stamped, unseal_json
from hall.ports import HallPort

if TYPE_CHECKING:
    import redis

log = logging.getLogger("loto-hall.relays")

DEAF_SHOWN_S = 60.0  # a deaf relay stays said on the console this long after it was replaced
BATCH = 500  # messages in one pipeline


class RelayPublisher:
    """The outbox, the publishing task, the beat, and the relays' health as the device ``relays``."""

    def __init__(
        self,
        url: str,
        hall: HallPort,
        expected: int,
        *,
        key: bytes,
        max_outbox: int = 20_000,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        connect: Callable[[str], redis.Redis] = wire.client,
    ):
        self.url, self.hall, self.expected, self.key = url, hall, expected, key
        self.run_id = secrets.token_hex(8)  # this start of the core: its messages' ``r`` (display/relay_seal.py)
        self._stamps = itertools.count(1)  # their ``k``, in the order they go out
        self.refusals = Refusals("cœur")  # relays' reports not sealed with the key
        self.max_outbox = max_outbox
        self._clock, self._wall, self._connect = clock, wall, connect
        self._outbox: deque[tuple[int, str, int | None]] = deque()  # (number, JSON, seq of an event)
        self._numbers = itertools.count(1)
        self._cond = threading.Condition()
        self._stopped = threading.Event()
        self._redis: redis.Redis | None = None
        self.lost = 0  # messages dropped from a full outbox (the relays resync over the hole)
        self.beat = 0  # beats Redis took
        self.last_seq: int | None = None
        self.down_since: float | None = None
        self.up_since: float | None = None
        self.deaf: dict[str, float] = {}  # relay → when it was found deaf
        self.relays: dict[str, dict] = {}  # relay → its last report
        self._changed: dict[str, tuple[object, float]] = {}  # relay → (its report counter, when it last moved)
        self._next_beat = 0.0

    # ---- called by the broadcaster (display/sockets.py) and the rooms: append only
    def event(self, seq: int, name: str, data: dict) -> None:
        """A journal record's public event, in ``seq`` order."""
        self._put({"t": "ev", "seq": seq, "name": name, "data": data, "at": self._wall()}, seq)

    def cartons(self, seq: int, items: list[tuple[str, dict]]) -> None:
        """The followed cartons' standings record ``seq`` changed (display/cartons.py): one message, each relay hands
        every standing to its own sockets following that key."""
        self._put({"t": "cartons", "at": seq, "items": items}, None)

    def emit(self, name: str, data: object, to: str | None = None) -> None:
        """Another public emission (a room's audience, the projector's ``screen``), to a room or to everyone."""
        self._put({"t": "emit", "name": name, "data": data, "to": to}, None)

    def _put(self, message: dict, seq: int | None) -> None:
        try:
            text = wire.encode(message)
        except (TypeError, ValueError):
            log.exception("message public illisible : non publié")
            return
        with self._cond:
            if len(self._outbox) >= self.max_outbox:
                self._outbox.popleft()
                self.lost += 1
            self._outbox.append((next(self._numbers), text, seq))
            self._cond.notify()

    def pending(self) -> int:
        return len(self._outbox)

    # ---- the task
    def run(self) -> None:
        """Publish, beat and judge the relays until ``stop()``; never raises."""
        while not self._stopped.is_set():
            with self._cond:
                wait = max(0.0, self._next_beat - self._clock())
                self._cond.wait_for(lambda: bool(self._outbox) or self._stopped.is_set(), timeout=wait)
            if self._stopped.is_set():
                return
            try:
                self.step()
            except Exception as exc:  # Redis away, or anything else: the outbox waits, the hall goes on
                self._down(exc)
                self._stopped.wait(0.5)

    def step(self) -> None:
        """One round: send what waits (in order), beat when due, read the relays' reports."""
        if self._redis is None:
            self._redis = self._connect(self.url)
        client = self._redis
        now = self._clock()
        beating = now >= self._next_beat
        with self._cond:
            batch = list(itertools.islice(self._outbox, BATCH))
        if batch or beating:
            pipe = client.pipeline(transaction=False)
            for _, text, _ in batch:
                pipe.publish(wire.CHANNEL, self._sealed(text))
            seqs = [seq for _, _, seq in batch if seq is not None]
            last_seq = seqs[-1] if seqs else self.last_seq
            if beating:
                beat = wire.encode({"t": "hb", "n": self.beat + 1, "seq": last_seq, "at": self._wall()})
                beat = stamped(self.run_id, next(self._stamps), beat)
                pipe.publish(wire.CHANNEL, seal(self.key, PUBLIC, beat))
                pipe.set(wire.BEAT_KEY, seal(self.key, BEAT, beat), px=int(wire.DEAF_S * 1000))
            pipe.execute()
            with self._cond:
                sent = batch[-1][0] if batch else 0
                while self._outbox and self._outbox[0][0] <= sent:
                    self._outbox.popleft()
            self.last_seq = last_seq
            if beating:
                self.beat += 1
                self._next_beat = now + wire.BEAT_S
                self._judge(client, client.hgetall(wire.RELAYS_KEY))
        self._up()

    def _sealed(self, text: str) -> bytes:
        """A message stamped with this run and its number (numbered as it goes out: a relay takes only increasing
        ones), sealed with the hall's key."""
        return seal(self.key, PUBLIC, stamped(self.run_id, next(self._stamps), text))

    def stop(self) -> None:
        self._stopped.set()
        with self._cond:
            self._cond.notify_all()

    # ---- Redis away and back
    def _down(self, exc: BaseException) -> None:
        self._redis = None
        self.up_since = None
        if self.down_since is None:
            self.down_since = self._clock()
            log.error(
                "file des téléphones (Redis) injoignable : %s — les tirages continuent, %s message(s) en attente",
                exc,
                self.pending(),
            )
            self.hall.set_device_status("relays", "degraded", code="relays_queue_away")

    def _up(self) -> None:
        if self.up_since is None:
            self.up_since = self._clock()
        if self.down_since is not None:
            log.info(
                "file des téléphones revenue après %.1f s (%s message(s) perdus)",
                self._clock() - self.down_since,
                self.lost,
            )
            self.down_since = None

    # ---- the relays
    def spread(self) -> list[dict]:
        """Each live relay's ``{"relay", "port", "clients", "cut"}`` from its last report, by relay (``/admin``)."""
        now = self._clock()
        live = [
            (relay, report)
            for relay, report in self.relays.items()
            if now - self._changed.get(relay, (None, float("-inf")))[1] <= wire.GONE_S
        ]
        return [
            {
                "relay": relay,
                "port": report.get("port"),
                "clients": report.get("clients", 0),
                "cut": report.get("cut", 0),
            }
            for relay, report in sorted(live)
        ]

    def _judge(self, client: redis.Redis, raw: dict) -> None:
        """From the reports: which relays are alive, which went deaf; then the device ``relays``. A relay's clock
        is never compared with ours (a laptop's may differ): only whether its report moves, and what it says."""
        now = self._clock()
        beating_s = now - self.up_since if self.up_since is not None else 0.0
        alive = []
        for relay, text in raw.items():
            report = unseal_json(self.key, REPORT, text)
            if report is None:
                self.refusals.count("seal")  # not a relay of this hall's: never shown as one
                continue
            try:
                counter, silent = report["n"], float(report.get("silent_s") or 0.0)
            except (TypeError, ValueError, KeyError):
                continue
            self.relays[relay] = report
            before = self._changed.get(relay)
            if before is None or before[0] != counter:
                self._changed[relay] = before = (counter, now)
            if now - before[1] > wire.FORGET_S:
                client.hdel(wire.RELAYS_KEY, relay)
                self._changed.pop(relay, None)
                self.relays.pop(relay, None)
                continue
            if now - before[1] > wire.GONE_S:
                continue
            # silent while we beat for longer than the relay's own limit (after Redis returns, give it the time to
            # hear again): the relay's own check failed too
            lagging = silent > wire.DEAF_S + 2 and beating_s > wire.DEAF_S + 2
            if report.get("state") == "deaf" or lagging:
                if relay not in self.deaf:
                    log.error("relais %s sourd (rien entendu depuis %.1f s) : remplacé", relay, silent)
                self.deaf.setdefault(relay, now)
            else:
                alive.append(relay)
        self.deaf = {r: t for r, t in self.deaf.items() if now - t < DEAF_SHOWN_S}
        if self.deaf:
            names = ", ".join(sorted(self.deaf))
            self.hall.set_device_status("relays", "degraded", code="relays_deaf", params={"relay": names})
        elif len(alive) < self.expected:
            self.hall.set_device_status(
                "relays", "degraded", code="relays_missing", params={"n": len(alive), "total": self.expected}
            )
        else:
            self.hall.set_device_status("relays", "ok", code="relays_ok", params={"n": len(alive)})
