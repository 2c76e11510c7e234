"""A relay's ear on the queue, and the check that it still hears (INTERFACE §10, ``relay_wire.py``).

The listener subscribes to the channel and hands each message to the relay, in order. It never subscribes again
by itself once its subscription is lost while Redis still answers (a ``CLIENT KILL``, an output buffer overflow):
that is how a python-socketio worker stayed deaf for a day (python-socketio #1581, 7 of 8 workers re-subscribed,
the eighth never did). Such a relay is left to the check below and replaced: one recovery path, the one that is
exercised. When Redis itself went away (the connection refused, or a server with another run id answering: it
was restarted), the check subscribes again once it answers.

The check runs every second on an ordinary connection: the core's beat key lives ``DEAF_S``, so its presence says
the core is beating now; a relay that heard nothing on the channel for ``DEAF_S`` meanwhile is deaf. A listener
busy with one message is not: a resync after an outage (a fetch from a busy core, then the state to ~500 phones,
on a Pi core shared with nginx and three other relays) took over ``DEAF_S`` in the 30 s outage bench under load,
and the relay ended itself, its phones all reconnecting at once; only a listener busy beyond ``BUSY_MAX_S`` is.
A deaf relay says so in its report (the core shows it on the speaker's console and ``/admin``) and ends its
process: gunicorn forks a new one at once, and its phones reconnect within a second or two and get the state.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from display import relay_wire as wire
from display.relay import Relay
from display.relay_seal import BEAT, REPORT, seal, unseal_json

if TYPE_CHECKING:
    from redis import Redis
    from redis.client import PubSub

log = logging.getLogger("loto-hall.relay")


class Ear:
    """The listener task and the health task of one relay."""

    def __init__(
        self,
        relay: Relay,
        url: str,
        *,
        clock: Callable[[], float] = time.monotonic,
        restart: Callable[[], None] | None = None,
    ):
        self.relay, self.url, self._clock = relay, url, clock
        self.restart = restart or _end_process
        self.heard_at = clock()  # the listener last known to hear: a message, its handling's end, subscribing
        self.handling_since: float | None = None  # the listener is busy with a message since then
        self.listening = False
        self.lost_while_up = False  # the subscription dropped while Redis answered: not healed in place
        self.run_id = ""  # the Redis server the listener subscribed to (a restarted one has another)
        self.reports = 0
        self.state = "starting"
        self._stopped = False

    def start(self) -> None:
        self.listening = True
        self.relay.sio.start_background_task(self.listen)
        self.relay.sio.start_background_task(self.check)

    def stop(self) -> None:
        self._stopped = True

    # ---- the listener
    def listen(self) -> None:
        pubsub: PubSub | None = None
        try:
            pubsub = wire.client(self.url, listener=True).pubsub(ignore_subscribe_messages=True)
            pubsub.subscribe(wire.CHANNEL)
            again = bool(self.run_id)  # listening again after the queue was away
            self.run_id = _run_id(self.url) or self.run_id
            self.heard_at = self._clock()
            log.info("relais %s : à l'écoute de la file", self.relay.relay_id)
            if again:
                self.relay.catch_up()
            while not self._stopped:
                raw = pubsub.get_message(timeout=1.0)
                if raw is None or raw.get("type") != "message":
                    continue
                self.handling_since = self._clock()
                taken = True
                try:
                    taken = self.relay.take(raw.get("data"))  # the hall's, and fresh: else refused and counted
                except Exception:  # one bad message must not end the listening
                    log.exception("relais %s : message non relayé", self.relay.relay_id)
                finally:
                    self.handling_since = None
                if taken:  # the hall's message: the subscription works (a stranger's says nothing of it)
                    self.heard_at = self._clock()
        except Exception as exc:
            # judged before the check may see the listener gone: asking Redis yields, and a check running meanwhile
            # took a dropped subscription for an outage and subscribed again, the relay deaf no more (1 run in 14)
            self.lost_while_up = _run_id(self.url) == self.run_id != ""
            self.listening = False
            log.error(
                "relais %s : écoute de la file perdue (%s)%s",
                self.relay.relay_id,
                exc,
                " alors que Redis répond : le battement dira si ce relais est sourd"
                if self.lost_while_up
                else " : Redis injoignable, réabonnement à son retour",
            )
        finally:
            if pubsub is not None:
                try:
                    pubsub.close()
                except Exception:
                    pass

    # ---- the check
    def check(self) -> None:
        redis = wire.client(self.url)
        while not self._stopped:
            # while the queue is away, look for its return four times as often: the phones catch up that much sooner
            self.relay.sio.sleep(wire.REPORT_S if self.listening else wire.REPORT_S / 4)
            try:
                self.tick(redis)
            except Exception as exc:  # Redis away: nothing to compare, nobody to tell
                self.lost_while_up = False  # an outage, not a dropped subscription: listen again once it is back
                if self.state != "queue_away":
                    log.warning("relais %s : file injoignable (%s)", self.relay.relay_id, exc)
                self.state = "queue_away"

    def tick(self, redis: Redis) -> str:
        """One check: subscribe again after an outage, judge the silence, report; returns the state."""
        beating = unseal_json(self.relay.key, BEAT, redis.get(wire.BEAT_KEY)) is not None  # the core's own beat
        if not self.listening and self.lost_while_up and redis.info("server").get("run_id") != self.run_id:
            self.lost_while_up = False  # Redis was restarted meanwhile (its shutdown dropped the subscription)
        if not self.listening and not self.lost_while_up:
            self.relay.sio.start_background_task(self.listen)  # Redis answers again: listen again
            self.listening, self.heard_at = True, self._clock()
        now, busy_since = self._clock(), self.handling_since
        busy = busy_since is not None and now - busy_since < wire.BUSY_MAX_S
        silent = 0.0 if busy else now - self.heard_at
        self.state = "deaf" if beating and silent > wire.DEAF_S else "ok"
        self.reports += 1
        report = {
            "n": self.reports,
            "state": self.state,
            "silent_s": round(silent, 1),
            "seq": self.relay.seq,
            "clients": self.relay.clients(),
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "resyncs": self.relay.resyncs,
            "port": self.relay.port,
            "cut": self.relay.gate.cut_total,
            "forward_ms_max": round(max(self.relay.forward_ms, default=0.0)),
            "refused": self.relay.refusals.total,
        }
        redis.hset(wire.RELAYS_KEY, self.relay.relay_id, seal(self.relay.key, REPORT, wire.encode(report)))
        if self.state == "deaf":
            log.error(
                "relais %s sourd : aucun battement entendu depuis %.1f s alors que le cœur bat ; "
                "remplacé par un nouveau processus",
                self.relay.relay_id,
                silent,
            )
            self._stopped = True
            self.restart()
        return self.state


def _run_id(url: str) -> str | None:
    """The answering Redis server's run id (new at each start), or ``None`` when none answers."""
    try:
        return str(wire.client(url).info("server").get("run_id", ""))
    except Exception:
        return None


def _end_process() -> None:
    """Leave at once: gunicorn's arbiter forks a new relay (any exit code but its boot errors, 3 and 4)."""
    logging.shutdown()
    os._exit(1)
