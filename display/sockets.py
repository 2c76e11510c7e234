"""Socket.IO (INTERFACE §5): ``state`` on connect and on ``resync``, then one event per journal record.

Sockets only listen: every change goes through the HTTP API, so a socket, with or without a role,
can never change anything. Rooms: ``public`` (projectors, anyone), ``staff`` (anyone logged in:
verdicts name the carton), ``speaker`` (speaker/admin: passing notices such as device status).

Ordering: the hall calls our subscriber under its lock right after each durable event, and the
connect/resync handlers take the same lock around "join room + send state". So a client gets its
``state`` at seq S and then exactly S+1, S+2, … with no gap and no duplicate.
"""
from __future__ import annotations

import threading

from flask import request, session
from flask_socketio import ConnectionRefusedError, SocketIO, join_room

from display.auth import socket_role
from display.crowd import SocketCaps
from display.errors import ApiError, message_of
from display.live import PUBLIC, SPEAKER, STAFF, event_for, staff_state

NOTICE_NAMES = {"device:status_changed": "device", "draw:proposed": "proposed", "draw:refused": "refused"}


class Connections:
    """How many sockets are connected now (projectors, staff screens, phones): a counter, cheap to read."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = 0

    def change(self, delta: int) -> None:
        with self._lock:
            self._count = max(0, self._count + delta)

    @property
    def count(self) -> int:
        return self._count


def install(socketio: SocketIO, hall, caps: SocketCaps | None = None) -> Connections:
    """Register the handlers and subscribe the broadcasts to the hall; ``caps`` bounds anonymous sockets;
    returns the live connection counter."""
    caps = caps or SocketCaps()
    connections = Connections()

    # Both run under the hall's lock: only build small payloads and queue them (emit queues per socket).
    # A failure here is logged by the hall, never turned into a refusal of the durable event.
    def on_record(record) -> None:
        for room in (PUBLIC, STAFF):
            name, payload = event_for(hall, record, room)
            socketio.emit(name, payload, to=room)

    def on_notice(name: str, payload: dict) -> None:
        socketio.emit(NOTICE_NAMES.get(name, "notice"), {"name": name, **payload}, to=SPEAKER)

    hall.subscribe(on_record)
    hall.subscribe_notices(on_notice)

    @socketio.on("connect")
    def connect(auth=None):
        try:
            role = socket_role(auth)
        except ApiError as exc:
            raise ConnectionRefusedError({"error": exc.code, "message": message_of(exc.code)})
        if role is None:
            refused = caps.admit(request.sid, request.remote_addr or "?")
            if refused:
                raise ConnectionRefusedError({"error": refused, "message": message_of(refused)})
        session["socket_role"] = role
        connections.change(+1)
        with hall.lock:
            join_room(PUBLIC if role is None else STAFF)
            if role in ("speaker", "admin"):
                join_room(SPEAKER)
            socketio.emit("state", staff_state(hall, role), to=request.sid)

    @socketio.on("disconnect")
    def disconnect(reason=None):
        connections.change(-1)
        caps.release(request.sid)

    @socketio.on("resync")
    def resync(data=None):
        with hall.lock:
            socketio.emit("state", staff_state(hall, session.get("socket_role")), to=request.sid)

    return connections
