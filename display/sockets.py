"""Socket.IO (INTERFACE §5): ``state`` on connect and on ``resync``, then one event per journal record.

Sockets only listen: every change goes through the HTTP API, so a socket, with or without a role,
can never change anything. Rooms: ``public`` (projectors, anyone), ``staff`` (anyone logged in:
verdicts name the carton), ``speaker`` (speaker/admin: passing notices such as device status).

A staff socket lives no longer than its session: logout, a PIN changed on /admin, an idle or evicted session
disconnects it at once from every room (``SessionTable.on_end``), and ``resync`` checks the session again. The
handshake must name the hall in its ``Host``, for every role, as the pages do (``display/portal.py``): a page of
another site whose name was rebound to the Pi's address (DNS rebinding) gets no socket.

Ordering: the hall calls our subscriber under its lock right after each durable event; the subscriber only
takes the (immutable, cheap) snapshots and queues them: one ``Broadcaster`` thread shapes, serialises and
emits them in ``seq`` order, outside the hall's lock, so a draw never waits for JSON or sockets. The connect
handler joins the room first, then reads the snapshot: a client gets its ``state`` at seq S and every event
after S (one it already has carries a ``seq`` ≤ S and is skipped; one that overtakes the state is kept by
the page until the state comes).

The speaker's console keeps itself up to date from the events (one strategy for every page: events with
``seq``, ``resync`` on a gap): after each record, the ``speaker`` room also gets ``console``, the staff-only
part of the console (claims, watch, devices, sales), built from a snapshot — never a refetch of everything.

Liveness: a public socket hears the hall at least every ``[server] ping_s`` (2 s): when no public event went out
for that long, the broadcaster sends ``beat`` ``{"at_seq"}`` (the last public event's seq) as one batched
emission, as a ball goes out; while balls flow there is no beat at all. A phone that has heard nothing for 4.5 s
says « hors ligne »; one that sees ``at_seq`` ahead of its own missed an event and asks ``resync``. Engine.IO's
own ping, one exchange and two greenlets per socket (500 a second for 1 000 phones at 2 s, half a Pi core),
only finds the dead sockets: every ``SOCKET_PING_S``.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

from flask import Flask, request, session
from flask_babel import force_locale, get_locale
from flask_socketio import ConnectionRefusedError, SocketIO, join_room

from display import views
from display.auth import auth, socket_session
from display.crowd import SocketCaps
from display.current import socket_sid
from display.errors import error_body
from display.i18n import LANGUAGES, device_sentence, notice_sentence
from display.live import PUBLIC, SPEAKER, STAFF, staff_state
from display.portal import for_the_hall
from hall.events import Record
from hall.ports import HallPort
from hall.refusal import Rejected
from hall.rights import may

log = logging.getLogger("loto-hall.display")


class Connections:
    """How many sockets are connected now (projectors, staff screens, phones): a counter, cheap to read."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = 0
        self._ever = 0

    def change(self, delta: int) -> int:
        """Count a socket in (+1) or out (-1); returns how many sockets were ever counted in (a turn number)."""
        with self._lock:
            self._count = max(0, self._count + delta)
            if delta > 0:
                self._ever += delta
            return self._ever

    @property
    def count(self) -> int:
        return self._count


class StaffSockets:
    """Which staff sockets each session holds, to drop them when it ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_session: dict[str, set[str]] = {}

    def add(self, session_id: str, sid: str) -> None:
        with self._lock:
            self._by_session.setdefault(session_id, set()).add(sid)

    def remove(self, session_id: object, sid: str) -> None:
        if not isinstance(session_id, str):
            return
        with self._lock:
            sids = self._by_session.get(session_id)
            if sids is not None:
                sids.discard(sid)
                if not sids:
                    del self._by_session[session_id]

    def take(self, session_ids: list[str]) -> list[str]:
        """The sockets of ``session_ids``, forgotten."""
        with self._lock:
            return [sid for s in session_ids for sid in self._by_session.pop(s, ())]


def _speaker_room(lang: str) -> str:
    return f"{SPEAKER}:{lang}"


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

    def _run(self) -> None:
        while True:
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


def install(socketio: SocketIO, hall: HallPort, app: Flask | None = None,
            caps: SocketCaps | None = None, beat_s: float | None = None) -> Connections:
    """Register the handlers and subscribe the broadcasts to the hall; ``caps`` bounds anonymous sockets;
    ``beat_s``: the public sockets hear at least that often (``[server] ping_s``; ``None``, no beat); returns
    the live connection counter.

    The speaker room is split by language (``speaker:fr``, ``speaker:en``) so that what a console reads —
    a device's sentence — comes translated from the one catalogue, whatever thread published it."""

    def occupied(room: str) -> bool:
        return bool(socketio.server.manager.rooms.get("/", {}).get(room))

    def to_speakers(shape) -> None:
        """Shape a payload per language for the speaker rooms that have someone in them, and send it."""
        for lang in LANGUAGES:
            room = _speaker_room(lang)
            if not occupied(room):
                continue
            if app is None:
                name, payload = shape(views.french_detail)
            else:
                with app.app_context(), force_locale(lang):
                    name, payload = shape(device_sentence)
            socketio.emit(name, payload, to=room)

    caps = caps or SocketCaps()
    relay = app.extensions.get("loto_relay") if app is not None else None    # the queue to the relays, if any
    connections = Connections()
    last_public = [hall.snapshot().seq]          # the seq of the last public event sent (the broadcaster's alone)

    def beat() -> None:
        emit_to_shards(socketio.server, "beat", {"at_seq": last_public[0]}, socketio.sleep)
        broadcaster.public_sent()

    broadcaster = Broadcaster(socketio, beat_s, beat)
    if app is not None:
        app.extensions["loto_broadcaster"] = broadcaster

    def send(record: Record, snap, console) -> None:
        name, payload = views.event(record, snap, STAFF)
        socketio.emit(name, payload, to=STAFF)           # the staff's screens first
        name, payload = views.event(record, snap, PUBLIC)
        if relay is not None:
            relay.event(payload["seq"], name, payload)      # the phones on the relays: appended, never waited for
        # A draw's event to 2 000 phones is one frame each: sent in one go, it would hold the one worker for
        # ~200 ms and the speaker's next request would wait behind it. A batch of shards at a time, yielding in
        # between, lets the requests and new projectors that arrive meanwhile through.
        emit_to_shards(socketio.server, name, payload, socketio.sleep)
        last_public[0] = payload["seq"]
        broadcaster.public_sent()
        if console is not None:
            to_speakers(lambda translate: ("console", views.speaker_state(console, translate)))

    # Both run under the hall's lock: only take immutable snapshots and queue them. A failure here is
    # logged by the hall, never turned into a refusal of the durable event.
    def on_record(record: Record) -> None:
        snap = hall.snapshot()
        console = None
        if any(occupied(_speaker_room(lang)) for lang in LANGUAGES):
            console = hall.speaker_snapshot()      # cheap: counts are kept, lists are capped
        broadcaster.put(lambda: send(record, snap, console))

    def on_notice(name: str, payload) -> None:
        words = notice_sentence if app is not None else None
        broadcaster.put(lambda: to_speakers(lambda translate: views.notice(name, payload, translate, words)))

    hall.subscribe(on_record)
    hall.subscribe_notices(on_notice)

    staff_sockets = StaffSockets()

    def drop(session_ids: list[str]) -> None:
        """Sessions ended: their sockets leave every room now (the page reloads and shows the login)."""
        for sid in staff_sockets.take(session_ids):
            socketio.server.disconnect(sid, namespace="/")

    if app is not None:
        app.extensions["loto_auth"].sessions.on_end(drop)

    def refuse(code: str) -> ConnectionRefusedError:
        return ConnectionRefusedError(error_body(code))

    @socketio.on("connect")
    def connect(auth=None):
        if app is not None and not for_the_hall():
            raise refuse("foreign_host")
        try:
            role, session_id = socket_session(auth)
        except Rejected as exc:
            raise refuse(exc.code) from None
        if role is None:
            refused = caps.admit(socket_sid(), request.remote_addr or "?")
            if refused:
                raise refuse(refused)
        elif session_id is not None:                       # as remove() does: no session, nothing to end
            staff_sockets.add(session_id, socket_sid())
        session["socket_role"] = role
        session["socket_session"] = session_id
        joined = connections.change(+1)
        if role is None:
            join_room(PUBLIC)                              # the rare public notices (display/rooms/, screen)
            join_room(public_shard(joined))               # the journal's events, shard by shard
        else:
            join_room(STAFF)
        if may(role, "speaker_state"):
            lang = str(get_locale() or "fr")[:2]
            join_room(_speaker_room(lang if lang in LANGUAGES else "fr"))
        socketio.emit("state", staff_state(hall, role, device_sentence), to=socket_sid())

    on_disconnect: list[Callable[[str], None]] = []      # others' clean-ups (the rooms): one handler calls them all
    if app is not None:
        app.extensions["loto_on_disconnect"] = on_disconnect

    @socketio.on("disconnect")
    def disconnect(reason=None):
        connections.change(-1)
        caps.release(socket_sid())
        staff_sockets.remove(session.get("socket_session"), socket_sid())
        for clean_up in on_disconnect:
            try:
                clean_up(socket_sid())
            except Exception:     # one failing clean-up must not keep the others from running
                log.exception("disconnect clean-up failed")

    @socketio.on("resync")
    def resync(data=None):
        role = session.get("socket_role")
        if role is not None and auth().sessions.role(session.get("socket_session")) != role:
            socketio.server.disconnect(socket_sid(), namespace="/")     # its session ended meanwhile
            return
        socketio.emit("state", staff_state(hall, role, device_sentence), to=socket_sid())

    return connections
