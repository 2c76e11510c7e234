"""« Mes cartons » told by the hall (INTERFACE §9): each carton a phone follows gets its standing — the
claim check's own verdict for the open lot, the rows paid — from the core, never worked out in the browser.

A phone hands the follow keys it was given with its cartons (``POST /api/players/cards``, ``"follow"``) on its socket:
``follow {"keys": [key…]}``. Its socket joins one room per key (``f:{key}``) and gets ``cartons {"at", "items"}``: each
carton's standing as the hall says it at record ``at``. After each record that moves a partie, the standings that
changed go out, once per carton whatever the phones following it, as ``carton`` to its room, before the record's own
public event (a page holds them until it has that record: a ball and its verdicts are shown together). With relays
(INTERFACE §10) the same news go to Redis in one message per record (``cartons``: every changed carton's key and
standing), right after the record's event (a big hall's thousands of standings never hold its ball back), and each
relay hands them to its own sockets in the key's room (``display/relay_cartons.py``); a relay asks
the core once for a key it has not heard of (``POST /api/players/follow``). A phone only ever names its own
cartons' keys, which the hall handed it for the printed code: nobody else's verdicts reach it.

The payloads carry ``at``, never ``seq``: they are not journal events (``common.js`` counts only those).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from flask import Blueprint, jsonify, request
from flask_socketio import SocketIO, join_room, leave_room

from display import views
from display.carton_keys import KEYS_PER_RELAY_ASK, KEYS_PER_SOCKET, keys_of, room_of
from display.current import hall, socket_sid
from display.limits import json_body
from display.services import services
from hall.events import Record
from hall.ports import HallPort
from hall.refusal import Rejected
from hall.snapshots import Followed, HallSnapshot

if TYPE_CHECKING:
    from display.relay_publisher import RelayPublisher

log = logging.getLogger("loto-hall.display")

bp = Blueprint("cartons", __name__)


def shaped(at: int, told: Followed) -> list[tuple[str, dict]]:
    """(key, payload) for each carton told."""
    return [(key, views.carton(at, card_id, s)) for key, card_id, s in told]


class CartonNews:
    """The core's side: the ``follow`` handler, and the standings sent after each record."""

    def __init__(self, socketio: SocketIO, hall: HallPort, relay: RelayPublisher | None):
        self.socketio, self.hall, self.relay = socketio, hall, relay
        self.sent = 0  # standings sent (a carton's, once, however many phones follow it)
        snap = hall.snapshot()
        hall.carton_news_from(snap.seq, snap.partie)
        socketio.on_event("follow", self._follow)

    def _follow(self, data: object = None) -> None:
        keys = keys_of(data, KEYS_PER_SOCKET)
        if keys is None:
            return
        for key in keys:  # the rooms first: a news shaped meanwhile reaches this socket
            join_room(room_of(key))
        at, told = self.hall.follow(keys)
        known = {key for key, _, _ in told}
        for key in keys:
            if key not in known:
                leave_room(room_of(key))
        items = [payload for _, payload in shaped(at, told)]
        unknown = [key for key in keys if key not in known]
        self.socketio.emit("cartons", {"at": at, "items": items, "unknown": unknown}, to=socket_sid())

    def after(self, record: Record, snap: HallSnapshot) -> None:
        """On the broadcaster's task: the standings ``record`` changed, to their rooms here and to the relays."""
        told = self.hall.carton_news(record, snap.partie)
        if not told:
            return
        items = shaped(record.seq, told)
        self.sent += len(items)
        if self.relay is not None:
            self.relay.cartons(record.seq, items)
        rooms = self.socketio.server.manager.rooms.get("/", {})
        for key, payload in items:
            room = room_of(key)
            if rooms.get(room):
                self.socketio.emit("carton", payload, to=room)


@bp.post("/api/players/follow")
def follow():
    """A relay asks for the cartons its phones follow that it has not heard of yet (or all of them again, the core
    having restarted): ``{"keys": [key…]}`` (at most 500) → ``{"at", "items": [{"key", "carton"}…], "unknown"}``.
    Anyone may ask: a key is worth only the carton it names, handed to whoever gave its printed code."""
    keys = keys_of(json_body(), KEYS_PER_RELAY_ASK)
    if keys is None:
        raise Rejected("bad_field", field="keys")
    wait = services().player_budgets["follows"].take(request.remote_addr or "?")
    if wait:
        raise Rejected("too_many_follows", retry_after=int(wait) + 1)
    at, told = hall().follow(keys)
    known = {key for key, _, _ in told}
    return jsonify(
        {
            "at": at,
            "items": [{"key": key, "carton": payload} for key, payload in shaped(at, told)],
            "unknown": [key for key in keys if key not in known],
        }
    )
