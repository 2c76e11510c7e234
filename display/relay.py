"""A relay: one of the processes that carry the phones' sockets when the hall has a queue (INTERFACE §10).

It serves only Socket.IO on ``/live/socket.io`` (WebSocket only: several relays share one port without sticky
sessions), to public clients: phones following their cartons, the mini-game audience. Staff and projectors stay on
the core. It never writes anything: what it sends comes from the core, through Redis (``relay_listen.py``).

- ``state`` on connect and on ``resync``: one state per ``seq`` per relay, fetched from the core over HTTP
  (``GET /api/state``, the same shape) by the first client that needs it; the others wait for that one fetch.
- the journal's events are forwarded in ``seq`` order, a shard at a time (as the core does); a ``seq`` already
  forwarded is dropped (the core sends again what Redis may have half-taken); a gap (messages lost while Redis was
  away, or a subscription dropped) makes the relay fetch the state and send it to every client, so nobody stays
  behind; a client that sees a gap itself asks ``resync``.
- ``follow`` with a phone's follow keys: the standings of its own cartons as the core told them
  (``relay_cartons.py``).
- ``game_watch`` without a seat: the room's public view, kept from the queue per version, or fetched once from the
  core (``GET /api/games/rooms/<code>``). A seat's phone watches on the core, where its presence counts.
- the same guards as the core: the ``Host`` must be the hall's, anonymous sockets are capped per address and overall,
  every frame a phone sends is counted against its budget before any work (``display/frames.py``: over it, the
  socket is cut and its address counted), its events are handled one at a time, ``resync`` at most once a second.
- the same liveness as the core: when nothing went to every client for ``[server] ping_s``, one ``beat``
  ``{"at_seq"}`` (the last seq forwarded) to every shard, on the relay's own clock, so a Redis outage does not make
  the phones say « hors ligne » (they catch up when it returns); Engine.IO pings every 25 s, for the dead sockets.
"""

from __future__ import annotations

import itertools
import logging
import socket
import threading
import time
from collections import deque
from collections.abc import Callable

import socketio

from display import relay_wire as wire
from display.broadcast import Quiet, emit_to_shards, encode_event, engine_ping_s, public_shard, send_encoded
from display.crowd import SocketCaps
from display.errors import error_body, message_of
from display.frames import FrameBudget, FrameGate
from display.limits import SocketJSON
from display.pacing import Pacer
from display.portal import own_hosts
from display.relay_cartons import RelayCartons
from display.relay_core import CoreUnavailable, StateCache, fetch_json
from display.relay_seal import PUBLIC, Freshness, Refusals, unseal_json
from hall.config import Config
from hall.net.captive import is_own_host

log = logging.getLogger("loto-hall.relay")

ROOM_CODE_MAX = 10
RESYNC_EVERY_S = 1.0  # a phone's ``resync`` answered at most this often (as on the core)
ROOM_FETCHES_PER_S = 5.0  # rooms a relay fetches from the core, all its phones together (bursts of 10)
ROOM_WAIT_S = 3.0  # a phone waits this long at most for its room's fetch
UNKNOWN_ROOM_S = 2.0  # an unknown code is answered without asking the core again for this long
UNKNOWN_ROOMS_KEPT = 1024
SLOW_FORWARD_MS = 500  # an event that took this long to hand to every phone is logged


def client_address(environ: dict, trusted: frozenset[str]) -> str:
    """The phone's address: the front's ``X-Real-IP`` when the peer is the front itself, else the peer."""
    peer = environ.get("REMOTE_ADDR") or "?"
    real = environ.get("HTTP_X_REAL_IP", "").strip()
    return real if real and peer in trusted else peer


class Relay:
    """The relay's Socket.IO server, its state cache, the rooms' audience views and its counters."""

    def __init__(
        self,
        config: Config,
        *,
        core_url: str,
        relay_id: str,
        key: bytes,
        async_mode: str = "gevent",
        trusted: frozenset[str] = frozenset({"127.0.0.1", "::1"}),
        clock: Callable[[], float] = time.monotonic,
    ):
        server = config.server
        self.config, self.relay_id, self.trusted, self.key = config, relay_id, trusted, key
        self.port: int | None = None  # its own port (the front deals the phones between the relays)
        self.sio = socketio.Server(
            async_mode=async_mode,
            json=SocketJSON,
            ping_interval=engine_ping_s(server.ping_s),
            ping_timeout=10,
            async_handlers=False,
            max_http_buffer_size=64 * 1024,
            transports=["websocket"],
        )
        self.gate = FrameGate()  # every frame a phone sends, bounded before any work
        self.gate.install(self.sio, lambda environ: client_address(environ, self.trusted))
        self.pace = Pacer(RESYNC_EVERY_S, self.sio.start_background_task, self.sio.sleep)
        self.app = socketio.WSGIApp(self.sio, socketio_path=wire.PATH)
        self.cache = StateCache(core_url)
        self.refusals = Refusals(f"relais {relay_id}", clock)
        self.fresh = Freshness(self._core_runs, clock)
        self.caps = SocketCaps(server.max_sockets_per_address, server.max_public_sockets)
        self.own = own_hosts(config, socket.gethostname())
        self.seq: int | None = None  # the last event forwarded (or the core's state's seq): the core confirmed it
        self._given_min: int | None = None  # before the first: the oldest state a client was given
        self._encoded: tuple[dict, tuple] | None = None  # the state a resync is answered with, and its event
        self.rooms: dict[str, dict] = {}  # code → the newest audience ``game`` payload
        self.audience: dict[str, str] = {}  # sid → the room it follows
        self._dealt = itertools.count()
        self.forwarded = 0
        self.resyncs = 0
        self.beats = 0
        self.forward_ms: deque[float] = deque(maxlen=60)  # the last events' time to hand to every phone
        self.quiet = Quiet(server.ping_s, clock)
        self._clock = clock
        self._unknown: dict[str, float] = {}  # a room code the core does not know → until when it is believed
        self._fetches = FrameBudget(ROOM_FETCHES_PER_S, 2 * ROOM_FETCHES_PER_S, clock)
        self._sending = threading.Lock()  # one emission to every client at a time: a beat never lands in
        # the middle of an event's shards (gevent's lock, once patched)
        self.on_event: Callable[[], object] = lambda: None  # the relay's quiet collector is told of each event
        self._install()
        self.cartons = RelayCartons(self.sio, core_url)  # the phones' own cartons, told by the core

    # ---- the handlers
    def _install(self) -> None:
        sio = self.sio

        def refuse(code: str) -> socketio.exceptions.ConnectionRefusedError:
            return socketio.exceptions.ConnectionRefusedError({"error": code, "message": message_of(code)})

        @sio.on("connect")
        def connect(sid: str, environ: dict, auth: object = None) -> None:
            if not is_own_host(environ.get("HTTP_HOST", ""), self.own, self.config.network.portal_address):
                raise refuse("foreign_host")
            refused = self.caps.admit(sid, client_address(environ, self.trusted))
            if refused:
                raise refuse(refused)
            sio.enter_room(sid, public_shard(next(self._dealt)))
            try:
                state = self.cache.get(self.seq)
            except CoreUnavailable:
                self.caps.release(sid)
                raise refuse("unavailable") from None
            self._state_to(sid, state)

        @sio.on("disconnect")
        def disconnect(sid: str, reason: object = None) -> None:
            self.caps.release(sid)
            self.audience.pop(sid, None)
            self.pace.forget(sid)

        def send_state(sid: str) -> None:
            try:
                state = self.cache.get(self.seq)
            except CoreUnavailable:
                return  # the client asks again on its next gap or reconnect
            self._state_to(sid, state)

        @sio.on("resync")
        def resync(sid: str, data: object = None) -> None:
            # at most once a second, and a few a second per address (display/pacing.py), from the cached state
            self.pace.ask(sid, lambda: send_state(sid), self.caps.address(sid))

        @sio.on("game_watch")
        def game_watch(sid: str, data: object = None) -> None:
            code = data.get("code") if isinstance(data, dict) else None
            code = code.strip().upper() if isinstance(code, str) else ""
            view = self.rooms.get(code)
            if view is None:
                room = self._room(code)
                if room is None:
                    sio.emit("game_error", error_body("unknown_room"), to=sid)
                    return
                view = self.rooms.setdefault(code, {"code": code, "version": room["version"], "room": room})
            before = self.audience.get(sid)
            if before is not None and before != code:
                sio.leave_room(sid, f"g:{before}:a")
            if before != code and sum(1 for c in self.audience.values() if c == code) >= self.config.games.max_audience:
                sio.emit("game_error", error_body("audience_full"), to=sid)
                return
            self.audience[sid] = code
            sio.enter_room(sid, f"g:{code}:a")
            sio.emit("game", view, to=sid)

    def _state_to(self, sid: str, state: dict) -> None:
        """``state`` to one client, its event encoded once per state: a relay's replacement, or the others when one
        is killed, take hundreds of phones in a second, each given the same state."""
        self._given(state)
        kept = self._encoded
        if kept is None or kept[0] is not state:
            kept = self._encoded = (state, encode_event(self.sio, "state", {**state, "relay": self.relay_id}))
        eio_sid = self.sio.manager.eio_sid_from_sid(sid, "/")
        if eio_sid is not None:
            send_encoded(self.sio, eio_sid, kept[1])

    def _given(self, state: dict) -> None:
        if self.seq is None:
            seq = state["seq"]
            self._given_min = seq if self._given_min is None else min(self._given_min, seq)

    def _room(self, code: str) -> dict | None:
        """A room the relay does not hold yet, fetched from the core; ``None`` when it is none. A code that cannot be
        one costs nothing, an unknown one is remembered ``UNKNOWN_ROOM_S``, and the relay fetches at most
        ``ROOM_FETCHES_PER_S`` (a phone past it waits its turn, up to ``ROOM_WAIT_S``): a phone typing codes at
        random cannot turn its frames into the core's work."""
        if not (0 < len(code) <= ROOM_CODE_MAX and code.isascii() and code.isalnum()):
            return None
        now = self._clock()
        if self._unknown.get(code, 0.0) > now:
            return None
        waited = 0.0
        while not self._fetches.take():
            if waited >= ROOM_WAIT_S:
                return None
            self.sio.sleep(0.2)
            waited += 0.2
        try:
            room = fetch_json(f"{self.cache.core_url}/api/games/rooms/{code}")
        except CoreUnavailable:
            room = None
        if isinstance(room, dict) and isinstance(room.get("version"), int):
            return room
        self._unknown[code] = self._clock() + UNKNOWN_ROOM_S
        while len(self._unknown) > UNKNOWN_ROOMS_KEPT:
            self._unknown.pop(next(iter(self._unknown)))
        return None

    # ---- what the listener hands over, in the channel's order
    def take(self, raw: object) -> bool:
        """A message as the channel gave it (bytes): handled if the hall sealed it and it is fresh, else refused and
        counted (``display/relay_seal.py``); whether it was taken."""
        message = unseal_json(self.key, PUBLIC, raw)
        if message is None:
            refused: str | None = "seal"
        elif message.get("t") not in wire.KINDS:
            refused = "kind"
        else:
            refused = self.fresh.refusal(message)
        if refused is not None:
            self.refusals.count(refused)
            return False
        assert message is not None
        self.handle(message)
        return True

    def _core_runs(self, run: str) -> bool:
        """Whether the core says ``run`` is the run it publishes under (a fetch of its state)."""
        try:
            self.cache.fresh()
        except CoreUnavailable:
            return False
        if self.cache.run != run:
            log.warning(
                "relais %s : messages d'un cœur que le cœur ne reconnaît pas (%s) : refusés", self.relay_id, run
            )
            return False
        return True

    def handle(self, message: dict) -> None:
        kind = message.get("t")
        if kind == "ev":
            self._event(message)
        elif kind == "emit":
            self._emit(message)
        elif kind == "cartons":
            self.cartons.news(message)
        elif kind == "hb":
            self.cartons.beat(message.get("n"))
            seq = message.get("seq")
            if isinstance(seq, int) and (self.seq is None or seq > self.seq):
                self._resync_all(seq)  # events lost on the way (Redis away, a dropped subscription), or a first beat

    def _event(self, message: dict) -> None:
        seq, name, data = message.get("seq"), message.get("name"), message.get("data")
        if not isinstance(seq, int) or not isinstance(name, str):
            return
        if self.seq is None:
            self._resync_all(seq - 1)  # where the relay stands: the core's state says (this event follows it?)
            if self.seq is None:
                return  # the core does not answer: the next message asks again
        if seq <= self.seq:
            return  # sent again by the core after Redis half-took it (or in the state fetched)
        if seq > self.seq + 1:
            self._resync_all(seq)  # a jump: the core's state says where things are, not the message
            return
        self.seq = seq
        self.forwarded += 1
        self.on_event()
        started = time.perf_counter()
        self._to_every_shard(name, data)
        took_ms = 1000 * (time.perf_counter() - started)
        self.forward_ms.append(took_ms)
        at = message.get("at")  # the core's clock when it queued the event (a laptop's may differ)
        late_ms = 1000 * (time.time() - at) if isinstance(at, (int, float)) else 0.0
        if took_ms > SLOW_FORWARD_MS or late_ms > SLOW_FORWARD_MS:
            log.info(
                "relais %s : événement n° %s transmis à %d téléphones en %.0f ms, fini %.0f ms après que le "
                "cœur l'a publié",
                self.relay_id,
                seq,
                self.clients(),
                took_ms,
                late_ms,
            )

    def catch_up(self) -> None:
        """Subscribed again after the queue was away: what the core published meanwhile never reached this relay, so
        the core's state now goes to every phone if it moved on — at once, not at the core's next beat."""
        if self.seq is None:
            return
        try:
            state = self.cache.get(self.seq + 1)
        except CoreUnavailable:
            return  # the next beat shows the gap again
        if isinstance(state.get("seq"), int) and state["seq"] > self.seq:
            self._resync_all(state["seq"])

    def _resync_all(self, seq: int) -> None:
        """Every client gets the core's state if it is past what they have: fetched once, at ``seq`` or later as the
        message said — but the relay stands where the core's state says, whatever the message claimed."""
        try:
            state = self.cache.get(seq)
        except CoreUnavailable:
            log.warning("relais %s : écart de seq, cœur injoignable ; les téléphones redemanderont", self.relay_id)
            return
        core_seq = state["seq"]
        if core_seq < seq:
            log.warning("relais %s : seq %s annoncé, le cœur en est à %s : pas cru", self.relay_id, seq, core_seq)
        if self.seq is not None and core_seq <= self.seq:
            return
        first, given = self.seq is None, self._given_min
        self.seq = core_seq
        if first and (given is None or given >= core_seq):
            return  # the relay's first word from the core: its clients were all given this state or a later one
        self.resyncs += 1
        log.info("relais %s : écart rattrapé, état n° %s envoyé à tous", self.relay_id, self.seq)
        self._to_every_shard("state", {**state, "relay": self.relay_id})

    def _emit(self, message: dict) -> None:
        name, data, to = message.get("name"), message.get("data"), message.get("to")
        if not isinstance(name, str) or not (to is None or isinstance(to, str)):
            return
        if (
            name == "game"
            and isinstance(to, str)
            and to.startswith("g:")
            and to.endswith(":a")
            and isinstance(data, dict)
            and isinstance(data.get("version"), int)
        ):
            code = to[2:-2]
            known = self.rooms.get(code)
            if known is not None and known.get("version", -1) > data["version"]:
                return
            self.rooms[code] = data
        self.sio.emit(name, data, to=to)

    def _to_every_shard(self, name: str, data: object) -> None:
        with self._sending:
            self._send_all(name, data)

    def _send_all(self, name: str, data: object) -> None:
        """To every client, a batch of shards at a time (``_sending`` held)."""
        emit_to_shards(self.sio, name, data, self.sio.sleep)
        self.quiet.sent()

    # ---- the beat
    def beat_if_quiet(self) -> float:
        """Beat every client if none was sent anything for ``[server] ping_s``; the seconds until the next beat is
        due. An emission under way is waited for: once it is out, it is the clients' news, and no beat is due."""
        with self._sending:
            due = self.quiet.due_in()
            if due > 0:
                return due
            self._send_all("beat", {} if self.seq is None else {"at_seq": self.seq})
        self.beats += 1
        return self.quiet.quiet_s

    def beat_forever(self) -> None:
        """The relay's beat task (started by the relays' worker beside its ear); never raises."""
        while True:
            try:
                wait = self.beat_if_quiet()
            except Exception:  # one failed emission must not silence the relay for good
                log.exception("relais %s : battement manqué", self.relay_id)
                wait = self.quiet.quiet_s
            self.sio.sleep(wait)

    def clients(self) -> int:
        return self.caps.public
