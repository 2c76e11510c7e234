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

import socketio
from engineio import packet as eio_packet
from flask_socketio import SocketIO
from socketio import packet as sio_packet

from display.frames import Framed
from display.live import PUBLIC

log = logging.getLogger("loto-hall.display")

PUBLIC_SHARDS = (
    256  # the public sockets are dealt into this many rooms (≈ 8 phones each with 2 000), sent to one after the other
)


def public_shard(index: int) -> str:
    return f"{PUBLIC}:{index % PUBLIC_SHARDS}"


SHARD_BATCH = 64  # sockets sent one event before the emitter yields


class _Rest(eio_packet.Packet):
    """What is left of a frame written at once, for the socket's writer to send before anything else."""

    def __init__(self, rest: bytes):
        super().__init__(eio_packet.NOOP)
        self.rest = Framed(rest)

    def encode(self, b64: bool = False) -> Framed:
        return self.rest


def ws_text_frame(text: str) -> bytes:
    """A server's WebSocket text frame (unmasked, unfragmented) holding ``text``."""
    data = text.encode()
    n = len(data)
    if n < 126:
        head = bytes((0x81, n))
    elif n < 1 << 16:
        head = bytes((0x81, 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x81, 127)) + n.to_bytes(8, "big")
    return head + data


def emit_to_shards(server: socketio.Server, name: str, payload: object, sleep: Callable[[float], object]) -> int:
    """Send ``name`` to every public shard, yielding after each ``SHARD_BATCH`` sockets; returns how many sockets.

    The event is encoded once, and its WebSocket frame made once: a WebSocket whose writer is idle (nothing queued,
    no write under way) gets the frame written on its socket at once (``display/frames.py`` ``write_now``), without
    Engine.IO's queue, its writer task's wake-up and timer, its encoding and wsproto's framing, which were most of a
    relay's time for a ball (a socket is written only when it takes the whole frame without waiting; the rest of a
    frame half taken goes first in its queue). Any other socket (long-polling, upgrading, busy) gets the packet
    through Engine.IO's queue, as ``server.emit`` does. A hall of 20 screens is one batch; 2 000 phones are ~32,
    each a short wait for whoever comes meanwhile."""
    rooms = server.manager.rooms.get("/", {})
    encoded = encode_event(server, name, payload)
    sent = 0
    for index in range(PUBLIC_SHARDS):
        members = rooms.get(public_shard(index))
        if not members:
            continue
        for eio_sid in list(members.values()):
            send_encoded(server, eio_sid, encoded)
            sent += 1
            if sent % SHARD_BATCH == 0:
                sleep(0)
    return sent


def encode_event(server: socketio.Server, name: str, payload: object) -> tuple[eio_packet.Packet, bytes]:
    """An event to the default namespace, encoded once: its Engine.IO packet and its WebSocket frame."""
    text = server.packet_class(sio_packet.EVENT, namespace="/", data=[name, payload]).encode()
    return eio_packet.Packet(eio_packet.MESSAGE, text), ws_text_frame("4" + text)


def send_encoded(server: socketio.Server, eio_sid: str, encoded: tuple[eio_packet.Packet, bytes]) -> None:
    """One socket sent an event encoded once (``encode_event``): its frame written at once when its writer is idle,
    else the packet through Engine.IO's queue (long-polling, upgrading, busy), as ``server.emit`` sends it."""
    packet, frame = encoded
    socket = server.eio.sockets.get(eio_sid)
    direct = getattr(socket, "direct", None)
    written = (
        direct.write_now(frame)
        if direct is not None and socket.upgraded and not socket.closed and socket.queue.empty()
        else None
    )
    if not written:
        server._send_eio_packet(eio_sid, packet)  # as server.emit sends it (a test client's too)
    elif written < len(frame):
        socket.send(_Rest(frame[written:]))


SOCKET_PING_S = 25.0  # Engine.IO's ping (its own default): finds the dead sockets; the phones' liveness is the beat


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
        self._jobs: queue.Queue = queue.Queue()  # a pure-Python queue: gevent's patching reaches it
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
        if wait <= 0:  # due: before the queued jobs, which may well be none for the public
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
            except Exception:  # one bad payload must not stop the broadcasts
                log.exception("broadcast failed")
            if queued:
                with self._idle:
                    self._pending -= 1
                    if self._pending == 0:
                        self._idle.notify_all()
