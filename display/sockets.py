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

from flask import Flask, request, session
from flask_babel import force_locale, get_locale
from flask_socketio import ConnectionRefusedError, SocketIO, join_room

from display import views
from display.auth import socket_role
from display.errors import ApiError, message_of
from display.i18n import LANGUAGES, device_sentence
from display.live import PUBLIC, SPEAKER, STAFF, staff_state
from hall.events import Record
from hall.ports import HallPort
from hall.rights import may


def _speaker_room(lang: str) -> str:
    return f"{SPEAKER}:{lang}"


def install(socketio: SocketIO, hall: HallPort, app: Flask | None = None) -> None:
    """Register the handlers and subscribe the broadcasts to the hall.

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
                name, payload = shape(views._french)
            else:
                with app.app_context(), force_locale(lang):
                    name, payload = shape(device_sentence)
            socketio.emit(name, payload, to=room)

    # Both run under the hall's lock: only build small payloads from snapshots and queue them (emit queues
    # per socket). A failure here is logged by the hall, never turned into a refusal of the durable event.
    def on_record(record: Record) -> None:
        snap = hall.snapshot()
        for room in (PUBLIC, STAFF):
            name, payload = views.event(record, snap, room)
            socketio.emit(name, payload, to=room)
        if any(occupied(_speaker_room(lang)) for lang in LANGUAGES):
            console = hall.speaker_snapshot()      # cheap: counts are kept, lists are capped
            to_speakers(lambda translate: ("console", views.speaker_state(console, translate)))

    def on_notice(name: str, payload) -> None:
        to_speakers(lambda translate: views.notice(name, payload, translate))

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
            lang = str(get_locale() or "fr")[:2]
            join_room(_speaker_room(lang if lang in LANGUAGES else "fr"))
        socketio.emit("state", staff_state(hall, role, device_sentence), to=request.sid)

    @socketio.on("resync")
    def resync(data=None):
        socketio.emit("state", staff_state(hall, session.get("socket_role"), device_sentence), to=request.sid)
