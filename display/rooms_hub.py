"""The lobby of one app on the web: its lock, its Socket.IO broadcasts, the sockets of the seats, and the task
that plays the bots and takes over silent phones (display/rooms.py holds the routes).

A change is journalled by the lobby, then broadcast while the lock is held, so every client sees the versions in
order. The bot task (``socketio.start_background_task``) never sleeps holding the lock.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from flask_socketio import SocketIO

from display.errors import ApiError, error_body
from hall.minigames.base import Refused
from hall.minigames.room import Lobby

log = logging.getLogger("loto-hall.rooms")


class RoomsHub:
    """The lobby of one app, its lock, its Socket.IO broadcasts and its bot task."""

    def __init__(self, lobby: Lobby, socketio: SocketIO, max_audience: int = 200,
                 clock: Callable[[], float] = time.monotonic):
        self.lobby = lobby
        self.socketio = socketio
        self.max_audience = max_audience
        self.clock = clock
        self.lock = threading.RLock()
        self.watchers: dict[str, tuple[str, int | None]] = {}     # sid → (code, seat or None)
        self.wake = threading.Event()
        self.stopped = threading.Event()
        self.moves = 0
        self.relay: Any = None            # the queue to the relays carrying the audience (display/relay_publisher.py)
        lobby.restart_clocks(clock())

    # ------------------------------------------------------------ calling the lobby
    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a lobby command under the lock; refusals become API errors, changes are broadcast."""
        with self.lock:
            try:
                result = fn(*args)
            except Refused as exc:
                raise ApiError(exc.code, **{k: v for k, v in exc.detail.items()
                                            if k in ("key", "expected", "max")}) from None
            return result

    def broadcast(self, code: str) -> None:
        """Send the room to its audience and each seat its own view (call under the lock)."""
        room = self.lobby.rooms.get(code)
        if room is None:
            return
        public = room.public()
        self.emit_public("game", {"code": code, "version": public["version"], "room": public}, to=f"g:{code}:a")
        for seat in range(len(room.seats)):
            if room.seats[seat].watching:
                self.socketio.emit("game", {"code": code, "version": public["version"], "room": public,
                                            "seat_view": room.seat_view(seat)}, to=f"g:{code}:s{seat}")
        self.wake.set()

    def emit_public(self, name: str, data: Any, to: str | None = None) -> None:
        """An emission the audience may follow: here, and on the relays when the hall has some."""
        self.socketio.emit(name, data, to=to)
        if self.relay is not None:
            self.relay.emit(name, data, to)

    def broadcast_list(self) -> None:
        self.socketio.emit("rooms", {"rooms": self.lobby.listing(), "screen": self.lobby.screen}, to="rooms:staff")

    def seat_removed(self, code: str, removed: int) -> None:
        """After ``removed`` left the room: its phones follow as audience (told why), the later seats' sockets
        move up one with their seats (call under the lock)."""
        room = self.lobby.rooms[code]
        server = self.socketio.server
        for sid, (watched, seat) in list(self.watchers.items()):
            if watched != code or seat is None or seat < removed:
                continue
            server.leave_room(sid, f"g:{code}:s{seat}", namespace="/")
            if seat == removed:
                self.watchers[sid] = (code, None)
                room.audience += 1
                server.enter_room(sid, f"g:{code}:a", namespace="/")
                self.socketio.emit("game_error", error_body("seat_removed"), to=sid)
            else:
                self.watchers[sid] = (code, seat - 1)
                server.enter_room(sid, f"g:{code}:s{seat - 1}", namespace="/")

    # ------------------------------------------------------------ bots and takeover
    def run(self) -> None:
        """The bot task: play every due bot move, then wait (lock released) until the next one or a change."""
        while not self.stopped.is_set():
            self.wake.clear()
            next_at = None
            try:
                with self.lock:
                    now = self.clock()
                    for code, at in self.lobby.due(now):
                        if at <= now and self.lobby.step(code, now):
                            self.moves += 1
                            self.broadcast(code)
                            if self.lobby.rooms[code].status == "over":
                                self.broadcast_list()
                    pending = [at for _, at in self.lobby.due(now)]
                    next_at = min(pending) if pending else None
            except Exception:
                log.exception("robots des jeux : erreur")
                next_at = self.clock() + 1.0
            timeout = 5.0 if next_at is None else next_at - self.clock()
            if timeout > 0:
                self.wake.wait(min(timeout, 5.0))
            else:
                self.socketio.sleep(0)     # let the web answer between two bot moves

    def stop(self) -> None:
        self.stopped.set()
        self.wake.set()
