"""What the lobby hands out: frozen snapshots of a room, and the news it publishes under its lock, in order.

A snapshot is built under the lobby's lock and never changes afterwards (its dicts are fresh copies nobody
else holds; ``state`` is the engine's immutable state). The web turns news into Socket.IO events: a
``watcher`` is an opaque name for one follower (the web uses its socket's id).
"""

from __future__ import annotations

from dataclasses import dataclass

from hall.minigames.base import JSON as JSON  # the lobby's news carries the views as they are (re-exported)
from hall.minigames.base import State


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    """One chair as anyone may see it."""

    name: str
    bot: bool
    away: bool  # a bot plays for this silent phone until it returns
    connected: bool  # a bot, or a phone with a socket following the room


@dataclass(frozen=True, slots=True)
class RoomSnapshot:
    """One room at one moment: ``public`` is the public room of INTERFACE §7 (a fresh dict)."""

    code: str
    game: str
    status: str  # lobby | playing | over | closed
    options: dict[str, int | str | bool]
    seats: tuple[SeatSnapshot, ...]
    version: int
    to_move: tuple[int, ...]
    table_size: int
    state: State  # the engine's state (immutable), None before the start
    public: JSON


@dataclass(frozen=True, slots=True)
class Referee:
    """The referee's actions the rules accept now (Bid Euchre), with the seats' names to word them."""

    code: str
    status: str
    version: int
    names: tuple[str, ...]
    moves: tuple[list[object], ...]  # each as the phone would send it (lists, not tuples)


@dataclass(frozen=True, slots=True)
class RoomChanged:
    """A room changed: its audience gets ``room``, each followed seat its own view."""

    room: RoomSnapshot
    seat_views: tuple[tuple[int, JSON], ...]


@dataclass(frozen=True, slots=True)
class ListChanged:
    """The staff's list of rooms changed (or what the projector shows); with ``to``, that watcher's first look."""

    rooms: tuple[JSON, ...]
    screen: JSON
    to: str | None = None


@dataclass(frozen=True, slots=True)
class ScreenChanged:
    """The projector shows something else: ``{"show": "loto"}`` or ``{"show": "game", "code"}``."""

    screen: JSON


@dataclass(frozen=True, slots=True)
class Followed:
    """``watcher`` now follows ``code`` as ``seat`` (``None``: the audience). With ``room``, it gets that first
    look alone (and ``seat_view`` for a seat); without, a ``RoomChanged`` for everyone follows."""

    watcher: str
    code: str
    seat: int | None
    room: RoomSnapshot | None = None
    seat_view: JSON | None = None


@dataclass(frozen=True, slots=True)
class Unfollowed:
    """``watcher`` no longer follows ``code`` as ``seat``."""

    watcher: str
    code: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class Told:
    """``watcher`` is told a refusal that changes what it follows (``bad_token``, ``seat_removed``)."""

    watcher: str
    refusal: str


News = RoomChanged | ListChanged | ScreenChanged | Followed | Unfollowed | Told
