"""Socket.IO (INTERFACE §5): ``state`` on connect and on ``resync``, then one event per journal record.

Sockets only listen: every change goes through the HTTP API, so a socket, with or without a role,
can never change anything. Rooms: ``public`` (projectors, anyone), ``staff`` (anyone logged in:
verdicts name the carton), ``speaker`` (speaker/admin: passing notices such as device status).

Ordering: the hall calls our subscriber under its lock right after each durable event; the connect
handler joins the room first, then reads the snapshot. So a client gets its ``state`` at seq S and then
every event after S (an event it already has in the snapshot carries a ``seq`` ≤ S: the page skips it).

The speaker's console keeps itself up to date from the events (one strategy for every page: events with
``seq``, ``resync`` on a gap): after each record, the ``speaker`` room also gets ``console``, the staff-only
part of the console (claims, watch, devices, sales), built from a snapshot — never a refetch of everything.
"""
from __future__ import annotations

from flask import request, session
from flask_socketio import ConnectionRefusedError, SocketIO, join_room

from display import views
from display.auth import socket_role
from display.errors import ApiError, message_of
from display.i18n import device_sentence
from display.live import PUBLIC, SPEAKER, STAFF, staff_state
from hall.events import Record
from hall.ports import HallPort
from hall.rights import may


def install(socketio: SocketIO, hall: HallPort) -> None:
    """Register the handlers and subscribe the broadcasts to the hall."""

    # Both run under the hall's lock: only build small payloads and queue them (emit queues per socket).
    # A failure here is logged by the hall, never turned into a refusal of the durable event.
    def on_record(record: Record) -> None:
        snap = hall.snapshot()
        for room in (PUBLIC, STAFF):
            name, payload = views.event(record, snap, room)
            socketio.emit(name, payload, to=room)
        socketio.emit("console", views.console(hall.speaker_snapshot()), to=SPEAKER)

    def on_notice(name: str, payload) -> None:
        socketio.emit(*views.notice(name, payload), to=SPEAKER)

    hall.subscribe(on_record)
    hall.subscribe_notices(on_notice)

    @socketio.on("connect")
    def connect(auth=None):
        try:
            role = socket_role(auth)
        except ApiError as exc:
            raise ConnectionRefusedError({"error": exc.code, "message": message_of(exc.code)})
        session["socket_role"] = role
        join_room(PUBLIC if role is None else STAFF)
        if may(role, "speaker_state"):
            join_room(SPEAKER)
        socketio.emit("state", staff_state(hall, role, device_sentence), to=request.sid)

    @socketio.on("resync")
    def resync(data=None):
        socketio.emit("state", staff_state(hall, session.get("socket_role"), device_sentence), to=request.sid)
