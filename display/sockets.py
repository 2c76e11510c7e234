"""Socket.IO (INTERFACE §5): ``state`` on connect and on ``resync``, then one event per journal record.

Sockets only listen: every change goes through the HTTP API, so a socket, with or without a role,
can never change anything. Rooms: ``public`` (projectors, anyone), ``staff`` (anyone logged in:
verdicts name the carton), ``speaker`` (speaker/admin: passing notices such as device status).

A staff socket lives no longer than its session: logout, a PIN changed on /admin, an idle or evicted session
disconnects it at once from every room (``SessionTable.on_end``), and ``resync`` checks the session again. The
handshake must name the hall in its ``Host``, for every role, as the pages do (``display/portal.py``): a page of
another site whose name was rebound to the Pi's address (DNS rebinding) gets no socket.

What a socket sends is bounded before any work (``display/frames.py``): a budget of frames per connection, its
events handled one at a time in its own reader, ``resync`` answered at most once a second (``RESYNC_EVERY_S``)
from the public state kept per change (``display/live.py``).

Ordering: the hall calls our subscriber under its lock right after each durable event; the subscriber only
takes the (immutable, cheap) snapshots and queues them: one ``Broadcaster`` task (``display/broadcast.py``)
shapes, serialises and emits them in ``seq`` order, outside the hall's lock, so a draw never waits for JSON or
sockets. The connect handler joins the room first, then reads the snapshot: a client gets its ``state`` at seq S
and every event after S (one it already has carries a ``seq`` ≤ S and is skipped; one that overtakes the state is
kept by the page until the state comes).

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
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask import Flask, request, session
from flask_babel import force_locale, get_locale
from flask_socketio import ConnectionRefusedError, SocketIO, join_room

from display import views
from display.auth import socket_session
from display.broadcast import Broadcaster, emit_to_shards, encode_event, public_shard, send_encoded
from display.cartons import CartonNews
from display.crowd import SocketCaps
from display.current import socket_sid
from display.errors import error_body
from display.frames import FrameGate
from display.i18n import LANGUAGES, device_sentence, notice_sentence
from display.live import PUBLIC, SPEAKER, STAFF, public_state, staff_state
from display.pacing import Pacer
from display.portal import for_the_hall
from hall.events import Record
from hall.ports import HallPort
from hall.refusal import Rejected
from hall.rights import may
from hall.snapshots import HallSnapshot, SpeakerSnapshot

if TYPE_CHECKING:
    from display.relay_publisher import RelayPublisher
    from display.sessions import SessionTable

log = logging.getLogger("loto-hall.display")

RESYNC_EVERY_S = 1.0  # a socket's ``resync`` answered at most this often (one waiting answer, never dropped)
SOCKET_PATH = "/socket.io/"


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


def _address(environ: dict) -> str:
    """The client's address (behind the front, ``display.app.behind_front`` has put its ``X-Real-IP`` there)."""
    return environ.get("REMOTE_ADDR") or "?"


class LiveSockets:
    """The hall's live connections: the handlers (all registered in ``_register``), the connection counter, the
    staff sockets of each session, the broadcaster and its beat, the frame gate, and the seq of the last public
    event sent (the broadcaster's alone: the emission order).

    ``caps`` bounds anonymous sockets; ``beat_s``: the public sockets hear at least that often (``[server]
    ping_s``; ``None``, no beat); ``relay``: the queue to the relays (``RelayPublisher``), if any. The speaker room
    is split by language (``speaker:fr``, ``speaker:en``) so that what a console reads — a device's sentence —
    comes translated from the one catalogue, whatever thread published it."""

    def __init__(
        self,
        app: Flask,
        socketio: SocketIO,
        hall: HallPort,
        *,
        sessions: SessionTable,
        caps: SocketCaps | None = None,
        beat_s: float | None = None,
        relay: RelayPublisher | None = None,
        gate: FrameGate | None = None,
    ):
        self.app, self.socketio, self.hall, self.sessions = app, socketio, hall, sessions
        self.caps = caps or SocketCaps()
        self.relay = relay
        self.connections = Connections()
        self.staff = StaffSockets()
        self.gate = gate or FrameGate()
        self.resyncs = Pacer(RESYNC_EVERY_S, socketio.start_background_task, socketio.sleep)
        self._gone: list[Callable[[str], None]] = []  # others' clean-ups when a socket leaves (the rooms)
        self._who: dict[str, tuple[str | None, str | None, str]] = {}  # sid → its role, session and language
        self._last_public = hall.snapshot().seq
        self._closed = False
        self.broadcaster = Broadcaster(socketio, beat_s, self._beat)
        self.gate.install(socketio.server, _address, staff=self._staff_handshake)
        app.wsgi_app = self.gate.polling(  # type: ignore[method-assign]
            app.wsgi_app,
            socketio.server.eio,
            _address,
            SOCKET_PATH,
        )
        self.cartons = CartonNews(socketio, hall, relay)  # each phone's own cartons, told by the hall
        self._unsubscribe = hall.subscribe(self._on_record)
        hall.subscribe_notices(self._on_notice)
        sessions.on_end(self._drop)
        self._register()

    def _register(self) -> None:
        on = self.socketio.on_event
        on("connect", self._connect)
        on("disconnect", self._disconnect)
        # python-socketio's own handler, not Flask-SocketIO's: a request context and the cookie session opened for
        # every frame were half the worker's time under 128 sockets writing resync within their budget
        self.socketio.server.on("resync", self._resync, namespace="/")

    def when_gone(self, clean_up: Callable[[str], None]) -> None:
        """Call ``clean_up(sid)`` whenever a socket leaves (the one disconnect handler calls every clean-up)."""
        self._gone.append(clean_up)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called (the app's background tasks end then)."""
        return self._closed

    def close(self) -> None:
        """Stop hearing the hall and end the broadcaster once what it holds went out."""
        if self._closed:
            return
        self._closed = True
        self._unsubscribe()
        self.broadcaster.stop()

    def _staff_handshake(self, environ: dict) -> bool:
        """Whether an Engine.IO handshake carries a live staff session (its cookie): asked only of an address held for
        its frames, so a stranger flooding from the access point the consoles share does not lock them out."""
        try:
            with self.app.request_context(environ):
                return socket_session(None)[0] is not None
        except Exception:  # a cookie that cannot be read is no staff's
            return False

    # ---- the handlers
    def _connect(self, auth: object = None) -> None:
        if not for_the_hall():
            raise _refuse("foreign_host")
        try:
            role, session_id = socket_session(auth)
        except Rejected as exc:
            raise _refuse(exc.code) from None
        sid = socket_sid()
        if role is None:
            refused = self.caps.admit(sid, request.remote_addr or "?")
            if refused:
                raise _refuse(refused)
        elif session_id is not None:  # as remove() does: no session, nothing to end
            self.staff.add(session_id, sid)
        lang = str(get_locale() or "fr")[:2]
        session["socket_role"] = role
        session["socket_session"] = session_id
        session["socket_lang"] = lang if lang in LANGUAGES else "fr"
        self._who[sid] = (role, session_id, session["socket_lang"])
        joined = self.connections.change(+1)
        if role is None:
            join_room(PUBLIC)  # the rare public notices (display/rooms/, screen)
            join_room(public_shard(joined))  # the journal's events, shard by shard
        else:
            join_room(STAFF)
        if may(role, "speaker_state"):
            join_room(_speaker_room(session["socket_lang"]))
        if role is None:
            self._send_state(sid, None, session["socket_lang"])  # encoded once per change, as on resync
        else:
            self.socketio.emit("state", staff_state(self.hall, role, device_sentence), to=sid)

    def _disconnect(self, reason: object = None) -> None:
        sid = socket_sid()
        self._who.pop(sid, None)
        self.connections.change(-1)
        self.caps.release(sid)
        self.resyncs.forget(sid)
        self.staff.remove(session.get("socket_session"), sid)
        for clean_up in self._gone:
            try:
                clean_up(sid)
            except Exception:  # one failing clean-up must not keep the others from running
                log.exception("disconnect clean-up failed")

    def _resync(self, sid: str, data: object = None) -> None:
        who = self._who.get(sid)
        if who is None:
            return  # not connected (yet, or any more)
        role, session_id, lang = who
        if role is not None and self.sessions.role(session_id) != role:
            self.socketio.server.disconnect(sid, namespace="/")  # its session ended meanwhile
            return
        # a phone's answers also wait for its address's turn; the staff's, per socket only (display/pacing.py)
        group = self.caps.address(sid) if role is None else None
        self.resyncs.ask(sid, lambda: self._send_state(sid, role, lang), group)

    def _send_state(self, sid: str, role: str | None, lang: str) -> None:
        if role is None:  # the public state and its event, each made once per change (display/live.py)
            server = self.socketio.server
            shared = public_state(self.hall).encoded("socket", lambda state: encode_event(server, "state", state))
            eio_sid = server.manager.eio_sid_from_sid(sid, "/")
            if eio_sid is not None:
                send_encoded(server, eio_sid, shared)
            return
        with self.app.app_context(), force_locale(lang):
            state = staff_state(self.hall, role, device_sentence)
        self.socketio.emit("state", state, to=sid)

    def _drop(self, session_ids: list[str]) -> None:
        """Sessions ended: their sockets leave every room now (the page reloads and shows the login)."""
        for sid in self.staff.take(session_ids):
            self.socketio.server.disconnect(sid, namespace="/")

    # ---- the hall's news: both run under the hall's lock: only take immutable snapshots and queue them. A failure
    # here is logged by the hall, never turned into a refusal of the durable event.
    def _on_record(self, record: Record) -> None:
        snap = self.hall.snapshot()
        console = None
        if any(self._occupied(_speaker_room(lang)) for lang in LANGUAGES):
            console = self.hall.speaker_snapshot()  # cheap: counts are kept, lists are capped
        self.broadcaster.put(lambda: self._send(record, snap, console))

    def _on_notice(self, name: str, payload: object) -> None:
        if self._closed:
            return
        self.broadcaster.put(
            lambda: self._to_speakers(lambda translate: views.notice(name, payload, translate, notice_sentence))
        )

    # ---- on the broadcaster's task, in order
    def _send(self, record: Record, snap: HallSnapshot, console: SpeakerSnapshot | None) -> None:
        socketio = self.socketio
        name, payload = views.event(record, snap, STAFF)
        socketio.emit(name, payload, to=STAFF)  # the staff's screens first
        name, payload = views.event(record, snap, PUBLIC)
        if self.relay is not None:
            self.relay.event(payload["seq"], name, payload)  # the phones on the relays: appended, never waited for
        # the followed cartons' standings (display/cartons.py): here before the record's event, so that a page shows
        # a ball with its verdicts; with relays, after it on the queue: a big hall's thousands of standings never
        # hold its ball back (the page shows them as they come)
        self.cartons.after(record, snap)
        # a batch of shards at a time, yielding in between (display/broadcast.py)
        emit_to_shards(socketio.server, name, payload, socketio.sleep)
        self._last_public = payload["seq"]
        self.broadcaster.public_sent()
        if console is not None:
            self._to_speakers(lambda translate: ("console", views.speaker_state(console, translate)))

    def _beat(self) -> None:
        emit_to_shards(self.socketio.server, "beat", {"at_seq": self._last_public}, self.socketio.sleep)
        self.broadcaster.public_sent()

    def _occupied(self, room: str) -> bool:
        return bool(self.socketio.server.manager.rooms.get("/", {}).get(room))

    def _to_speakers(self, shape: Callable[[views.Translate], tuple[str, object]]) -> None:
        """Shape a payload per language for the speaker rooms that have someone in them, and send it."""
        for lang in LANGUAGES:
            room = _speaker_room(lang)
            if not self._occupied(room):
                continue
            with self.app.app_context(), force_locale(lang):
                name, payload = shape(device_sentence)
            self.socketio.emit(name, payload, to=room)


def _refuse(code: str) -> ConnectionRefusedError:
    return ConnectionRefusedError(error_body(code))
