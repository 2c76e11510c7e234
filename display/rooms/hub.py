"""The lobby on Socket.IO: its news become the rooms' events, and a background task plays its bots.

The lobby publishes each change under its own lock, in order (``hall/minigames/lobby.py``); the hub only turns
that news into events, so every client sees the versions in order. A room's audience is the Socket.IO room
``g:<code>:a``, a seat's phones ``g:<code>:s<n>``, the staff's consoles ``rooms:staff``. The bot task
(``socketio.start_background_task``) waits with no lock held.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask_socketio import SocketIO

from display.errors import error_body
from display.services import services
from hall.minigames import (
    Followed,
    ListChanged,
    Lobby,
    News,
    RoomChanged,
    RoomSnapshot,
    ScreenChanged,
    Told,
    Unfollowed,
)

if TYPE_CHECKING:
    from display.relay_publisher import RelayPublisher

log = logging.getLogger("loto-hall.rooms")
STAFF = "rooms:staff"


def audience(code: str) -> str:
    return f"g:{code}:a"


def seat_room(code: str, seat: int | None) -> str:
    """The Socket.IO room of a seat's phones (``None``: the room's audience)."""
    return audience(code) if seat is None else f"g:{code}:s{seat}"


def game_event(room: RoomSnapshot, seat_view: dict | None = None) -> dict:
    """The ``game`` event of INTERFACE §7: ``{"code", "version", "room", "seat_view"?}``."""
    event: dict[str, object] = {"code": room.code, "version": room.version, "room": room.public}
    if seat_view is not None:
        event["seat_view"] = seat_view
    return event


class RoomsHub:
    """The lobby of one app, its Socket.IO events and its bot task."""

    def __init__(self, lobby: Lobby, socketio: SocketIO, clock: Callable[[], float] = time.monotonic):
        self.lobby = lobby
        self.socketio = socketio
        self.clock = clock
        self.wake = threading.Event()
        self.stopped = threading.Event()
        self.relay: RelayPublisher | None = None  # the queue to the relays carrying the audience
        # each kind of news to its handler, which takes that kind (Any: a dict cannot say its values follow its keys)
        self._tell: dict[type, Callable[[Any], None]] = {
            RoomChanged: self._room_changed,
            ListChanged: self._list_changed,
            ScreenChanged: self._screen_changed,
            Followed: self._followed,
            Unfollowed: self._unfollowed,
            Told: self._told,
        }
        lobby.restart_clocks(clock())
        lobby.subscribe(self.tell)

    def tell(self, news: News) -> None:
        """Send ``news`` to whom it concerns (called by the lobby under its lock)."""
        self._tell[type(news)](news)

    def _room_changed(self, news: RoomChanged) -> None:
        room = news.room
        self.emit_public("game", game_event(room), to=audience(room.code))
        for seat, view in news.seat_views:
            self.socketio.emit("game", game_event(room, view), to=seat_room(room.code, seat))
        self.wake.set()  # a new turn may be a bot's

    def _list_changed(self, news: ListChanged) -> None:
        self.socketio.emit("rooms", {"rooms": list(news.rooms), "screen": news.screen}, to=news.to or STAFF)

    def _screen_changed(self, news: ScreenChanged) -> None:
        self.emit_public("screen", news.screen)

    def emit_public(self, name: str, data: object, to: str | None = None) -> None:
        """An emission the audience may follow: here, and on the relays when the hall has some."""
        self.socketio.emit(name, data, to=to)
        if self.relay is not None:
            self.relay.emit(name, data, to)

    def _followed(self, news: Followed) -> None:
        self.socketio.server.enter_room(news.watcher, seat_room(news.code, news.seat), namespace="/")
        if news.room is not None:
            self.socketio.emit("game", game_event(news.room, news.seat_view), to=news.watcher)

    def _unfollowed(self, news: Unfollowed) -> None:
        self.socketio.server.leave_room(news.watcher, seat_room(news.code, news.seat), namespace="/")

    def _told(self, news: Told) -> None:
        self.socketio.emit("game_error", error_body(f"rooms/{news.refusal}"), to=news.watcher)

    # ------------------------------------------------------------ bots and takeover
    def run(self) -> None:
        """The bot task: play every due bot move, then wait until the next one or a change."""
        while not self.stopped.is_set():
            self.wake.clear()
            try:
                next_at = self.lobby.play_bots(self.clock())
            except Exception:
                log.exception("robots des jeux : erreur")
                next_at = self.clock() + 1.0
            timeout = 5.0 if next_at is None else next_at - self.clock()
            if timeout > 0:
                self.wake.wait(min(timeout, 5.0))
            else:
                self.socketio.sleep(0)  # let the web answer between two bot moves

    def stop(self) -> None:
        self.stopped.set()
        self.wake.set()


def hub() -> RoomsHub:
    """The app's hub (the request's app)."""
    return services().rooms
