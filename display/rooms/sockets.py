"""The rooms' Socket.IO side (INTERFACE §7): a client emits ``game_watch {"code", "token"?}`` and then receives a
``game`` event after every change of that room (``seat_view`` only with a seat token); the staff's consoles
emit ``rooms_watch`` and receive the ``rooms`` list. The lobby keeps who follows what; the hub sends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import request, session
from flask_socketio import SocketIO, join_room

from display.errors import error_body
from display.rooms.hub import STAFF, RoomsHub
from hall.refusal import Rejected
from hall.rights import may

if TYPE_CHECKING:
    from display.sockets import LiveSockets


def _sid() -> str:
    """The socket's id (Flask-SocketIO adds it to the request)."""
    return request.sid  # type: ignore[attr-defined]


def install(socketio: SocketIO, hub: RoomsHub, live: LiveSockets) -> None:
    """The handlers of ``game_watch`` and ``rooms_watch``, and the rooms' part of a socket's disconnection."""
    lobby = hub.lobby

    @socketio.on("game_watch")
    def game_watch(data=None):
        data = data if isinstance(data, dict) else {}
        try:
            lobby.follow(_sid(), data.get("code"), data.get("token"))
        except Rejected as exc:
            socketio.emit("game_error", error_body(exc.key), to=_sid())

    @socketio.on("rooms_watch")
    def rooms_watch(data=None):
        if may(session.get("socket_role"), "games"):
            join_room(STAFF)
            lobby.follow_list(_sid())

    # one Socket.IO disconnect handler for the whole app (display/sockets.py): a second would replace it
    live.when_gone(lobby.unfollow)
