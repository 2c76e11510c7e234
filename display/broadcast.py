"""How the hall's news goes out to many sockets, on the core and on each relay: the public shards, the batched
emission, the beat's quiet clock, and the broadcaster task that emits in ``seq`` order outside the hall's lock.

Shards: the public sockets are dealt into ``PUBLIC_SHARDS`` rooms; an event to every phone goes a batch of shards
(about ``SHARD_BATCH`` sockets, the payload encoded once) at a time, yielding in between, so a draw's event to
2 000 phones never holds the one worker for ~200 ms: the requests and new projectors that arrive meanwhile go
through. Liveness: when nothing went to every public socket for ``[server] ping_s``, a batched ``beat``
(``Quiet``); Engine.IO's own ping (``engine_ping_s``) only finds the dead sockets.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

from flask_socketio import SocketIO

from display.live import PUBLIC

log = logging.getLogger("loto-hall.display")

PUBLIC_SHARDS = 256    # the public sockets are dealt into this many rooms (≈ 8 phones each with 2 000), sent to one after the other


def public_shard(index: int) -> str:
    return f"{PUBLIC}:{index % PUBLIC_SHARDS}"


SHARD_BATCH = 64       # sockets sent one event in one go (one encoding) before the emitter yields


def emit_to_shards(server, name: str, payload, sleep: Callable[[float], object]) -> int:
    """Send ``name`` to every public shard, a batch of about ``SHARD_BATCH`` sockets per emission (the payload
    encoded once per batch), yielding between batches; returns how many emissions it took. A hall of 20 screens
    is one emission, as a bare server's; 2 000 phones are ~32, each a short wait for whoever comes meanwhile."""
    rooms = server.manager.rooms.get("/", {})
    batch: list[str] = []
    size = emissions = 0
    for index in range(PUBLIC_SHARDS):
        room = public_shard(index)
        members = rooms.get(room)
        if not members:
            continue
        batch.append(room)
        size += len(members)
        if size >= SHARD_BATCH:
            server.emit(name, payload, to=batch, namespace="/")
            emissions += 1
            sleep(0)
            batch, size = [], 0
    if batch:
        server.emit(name, payload, to=batch, namespace="/")
        emissions += 1
    return emissions


SOCKET_PING_S = 25.0   # Engine.IO's ping (its own default): finds the dead sockets; the phones' liveness is the beat


def engine_ping_s(beat_s: float) -> float:
    """Engine.IO's ping interval for a hall whose public sockets hear a beat every ``beat_s``."""
    return max(beat_s, SOCKET_PING_S)


class Quiet:
    """How long every public socket has gone without hearing anything, against the ``quiet_s`` that calls for a
    beat: the core's broadcaster and each relay keep one."""

    def __init__(self, quiet_s: float, clock: Callable[[], float] = time.monotonic):
        self.quiet_s, self._clock = quiet_s, clock
        self._sent_at = clock()

    def sent(self) -> None:
        """Every public socket has just been sent something: the next beat can wait ``quiet_s``."""
        self._sent_at = self._clock()

    def due_in(self) -> float:
        """Seconds until a beat is due (0 or less: due now)."""
        return self._sent_at + self.quiet_s - self._clock()


class Broadcaster:
    """Runs the queued emissions one after the other on its own task (a thread, or a greenlet under gevent);
    with ``quiet_s``, runs ``on_quiet`` whenever no public emission went out for that long (``public_sent``)."""

    def __init__(self, socketio: SocketIO, quiet_s: float | None = None, on_quiet: Callable[[], None] | None = None):
        self._jobs: queue.Queue = queue.Queue()       # a pure-Python queue: gevent's patching reaches it
        self._idle = threading.Condition()
        self._pending = 0
        self._quiet = Quiet(quiet_s) if quiet_s is not None and on_quiet is not None else None
        self._on_quiet = on_quiet
        self._stopped = False
        socketio.start_background_task(self._run)

    def public_sent(self) -> None:
        """Every public socket has just been sent something: the next beat can wait ``quiet_s``."""
        if self._quiet is not None:
            self._quiet.sent()

    def _next(self) -> tuple[Callable[[], None], bool]:
        """The next thing to run, and whether it was queued (the beat is not)."""
        if self._quiet is None or self._on_quiet is None:
            return self._jobs.get(), True
        wait = self._quiet.due_in()
        if wait <= 0:                  # due: before the queued jobs, which may well be none for the public
            return self._on_quiet, False
        try:
            return self._jobs.get(timeout=wait), True
        except queue.Empty:
            return self._on_quiet, False

    def put(self, job: Callable[[], None]) -> None:
        with self._idle:
            self._pending += 1
        self._jobs.put(job)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Whether every queued emission went out within ``timeout`` seconds (for tests and shutdown)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def stop(self) -> None:
        """End the task once what is queued went out (a closed app's)."""
        self._stopped = True
        self.put(lambda: None)

    def _run(self) -> None:
        while not self._stopped or self._pending:
            job, queued = self._next()
            try:
                job()
            except Exception:     # one bad payload must not stop the broadcasts
                log.exception("broadcast failed")
            if queued:
                with self._idle:
                    self._pending -= 1
                    if self._pending == 0:
                        self._idle.notify_all()
