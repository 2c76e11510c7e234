"""Who follows which room: the sockets of the seats (a seat is "connected" while one follows it) and the audience.

The lobby calls it under its lock; each change is published as news (``Followed``, ``Unfollowed``, ``Told``), so
the web moves its sockets in the same order as everything else. A watcher is an opaque name (a socket's id).
"""

from __future__ import annotations

from collections.abc import Callable

from hall.minigames.lobby_news import Followed, News, RoomSnapshot, Told, Unfollowed
from hall.minigames.table import Room
from hall.refusal import Rejected


class Followers:
    """watcher → (room code, seat or ``None`` for the audience); not thread-safe: the lobby's lock guards it."""

    def __init__(self, publish: Callable[[News], None], publish_room: Callable[[Room], RoomSnapshot]):
        self._publish = publish
        self._publish_room = publish_room
        self._of: dict[str, tuple[str, int | None]] = {}

    def join(self, watcher: str, room: Room, seat: int | None, max_audience: int) -> None:
        """``watcher`` follows ``room`` as ``seat`` (or as audience: ``audience_full`` beyond ``max_audience``)."""
        if seat is None:
            if room.audience >= max_audience:
                raise Rejected("rooms/audience_full")
            room.audience += 1
            self._of[watcher] = (room.code, None)
            self._publish(Followed(watcher, room.code, None, room.snapshot()))
            return
        chair = room.seats[seat]
        newly = chair.watching == 0 or chair.away
        chair.watching += 1
        chair.away = False  # the phone is back
        self._of[watcher] = (room.code, seat)
        if newly:
            self._publish(Followed(watcher, room.code, seat))
            self._publish_room(room)  # the others see the seat connected again
        else:
            self._publish(Followed(watcher, room.code, seat, room.snapshot(), room.seat_view(seat)))

    def leave(self, watcher: str, rooms: dict[str, Room]) -> None:
        """``watcher`` follows nothing any more (a seat nobody follows is shown disconnected)."""
        followed = self._of.pop(watcher, None)
        room = rooms.get(followed[0]) if followed is not None else None
        if followed is None or room is None:
            return
        code, seat = followed
        self._publish(Unfollowed(watcher, code, seat))
        if seat is None:
            room.audience = max(0, room.audience - 1)
            return
        room.seats[seat].watching = max(0, room.seats[seat].watching - 1)
        if room.seats[seat].watching == 0:
            self._publish_room(room)

    def seat_removed(self, room: Room, removed: int) -> None:
        """After seat ``removed`` left ``room``: its followers are told and follow as audience, the later seats'
        followers move up one with their seats."""
        for watcher, (code, seat) in list(self._of.items()):
            if code != room.code or seat is None or seat < removed:
                continue
            self._publish(Unfollowed(watcher, code, seat))
            if seat == removed:
                self._of[watcher] = (code, None)
                room.audience += 1
                self._publish(Followed(watcher, code, None))
                self._publish(Told(watcher, "seat_removed"))
            else:
                self._of[watcher] = (code, seat - 1)
                self._publish(Followed(watcher, code, seat - 1))
