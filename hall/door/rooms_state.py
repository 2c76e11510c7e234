"""The salle annexe's state in the main hall (RULES L23, L23a): the rooms the journal says were opened and joined (a
code's keyed digest, a token's hash, whether the speaker goes on without one), and each room's link — when it last
beat and the last ``seq`` it said it has shown (its ack), on a monotonic clock, never journalled (four beats a second
would fill the journal; a restart gives every room the link's limit to beat again).

Before the next number (L23a): a ball is drawn only when every joined room the speaker has not gone on without has
shown the previous ball (its ack at or past that ball's ``seq``) and was heard within ``HEARD_S``; else
``423 room_behind`` (a healthy annex acks within a few hundredths of a second: the speaker just draws again). Past
``LINK_LOST_S`` unheard the room is lost (``423 room_offline``, journalled), and the speaker may go on without it.

The journalled part changes only by :meth:`AnnexRooms.apply` (under the writer's lock, or the replay); the links
are kept under their own small lock, so a beat never waits behind the hall's flushes: a busy hall must not take
an annex for lost. :meth:`AnnexRooms.refusal` is the hold (``hall/holds.py``) that stops every draw while a room
is lost and the speaker has not gone on.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from hall.events import EventHandlers, Record
from hall.events.rooms import RoomBack, RoomClaimed, RoomEnrolled, RoomGoOn, RoomLost, RoomOpened
from hall.holds import Action
from hall.refusal import Rejected
from hall.snapshots import RoomLink

LINK_LOST_S = 3.0  # an annex that has not beaten for this long is lost: no ball until it is back (RULES L23)
HEARD_S = 1.0  # an annex unheard for this long has not said it showed the last ball: the next one waits (L23a)
MAX_ROOMS = 8
ROOM_NAME_CHARS = 32
OFFLINE = "annex/room_offline"

_ROOMS = EventHandlers[None]()


def room_name(value: object) -> str:
    """A room's name as given (1–32 letters, digits, spaces or dashes, no space at either end); else
    ``Rejected("annex/bad_room")``."""
    if (
        not isinstance(value, str)
        or not 0 < len(value) <= ROOM_NAME_CHARS
        or value != value.strip()
        or not all(ch.isalnum() or ch in " -" for ch in value)
    ):
        raise Rejected("annex/bad_room", max=ROOM_NAME_CHARS)
    return value


def code_digest(secret: bytes, room: str, code: str) -> str:
    """The keyed digest of a room's one-time code (bound to the room: another room's code opens nothing here)."""
    return hmac.new(secret, f"room:{room}:{code}".encode(), hashlib.sha256).hexdigest()


def token_hash(token: str) -> str:
    """What the journal keeps of an annex's token (a long random one: a plain hash is enough)."""
    return hashlib.sha256(f"annex:{token}".encode()).hexdigest()


@dataclass
class AnnexRoom:
    """One annex room as the journal says it."""

    name: str
    code_digest: str  # "" once spent
    token_hash: str = ""  # "" until the annex joined
    lost: bool = False  # journalled lost, not back since
    going_on: bool = False  # the speaker goes on without it, until it is back
    claims: int = 0


class AnnexRooms:
    """The annex rooms of one hall and their links. ``clock``: monotonic seconds (a test moves its own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.rooms: dict[str, AnnexRoom] = {}  # by name, in the order they were opened
        self._beats: dict[str, float] = {}
        self._annex_seq: dict[str, int] = {}  # the last seq each room said it has shown (its ack)
        self._links = threading.Lock()
        self._started = clock()
        self.ball_seq = 0  # the seq of the last ball journalled (every room must have shown it before the next)
        self.ball: int | None = None  # that ball's number (said in ``room_behind``)

    # ---- the journal's part -------------------------------------------------------------------------------
    def apply(self, record: Record) -> None:
        """Move on by one of the rooms' records (``hall.events.rooms.ROOM_EVENTS``)."""
        _ROOMS.dispatch(record.type, self, record.event)

    @_ROOMS.on(RoomOpened)
    def _opened(self, e: RoomOpened) -> None:
        room = self.rooms.get(e.room)
        if room is None:
            self.rooms[e.room] = AnnexRoom(e.room, e.code_digest)
        else:  # a new code for a room already open (its device replaced): the old token works until it is used
            room.code_digest = e.code_digest

    @_ROOMS.on(RoomEnrolled)
    def _enrolled(self, e: RoomEnrolled) -> None:
        room = self.rooms[e.room]
        room.code_digest, room.token_hash, room.lost = "", e.token_hash, False
        self.beat(e.room)

    @_ROOMS.on(RoomClaimed)
    def _claimed(self, e: RoomClaimed) -> None:
        self.rooms[e.room].claims += 1

    @_ROOMS.on(RoomLost)
    def _lost(self, e: RoomLost) -> None:
        self.rooms[e.room].lost = True

    @_ROOMS.on(RoomGoOn)
    def _go_on(self, e: RoomGoOn) -> None:
        self.rooms[e.room].going_on = True

    @_ROOMS.on(RoomBack)
    def _back(self, e: RoomBack) -> None:
        room = self.rooms[e.room]
        room.lost = room.going_on = False

    def ball_drawn(self, seq: int, number: int) -> None:
        """A ball was journalled at ``seq`` (the hall's state calls it, replay included)."""
        self.ball_seq, self.ball = seq, number

    # ---- the links ----------------------------------------------------------------------------------------
    def find(self, name: str) -> AnnexRoom:
        """The room named ``name``; ``Rejected("annex/unknown_room")``."""
        room = self.rooms.get(name) if isinstance(name, str) else None
        if room is None:
            raise Rejected("annex/unknown_room", room=str(name)[:ROOM_NAME_CHARS])
        return room

    def check_token(self, name: str, token: object) -> AnnexRoom:
        """The room whose token ``token`` is; ``unknown_room``, or ``Rejected("annex/bad_token")``."""
        room = self.find(name)
        ok = isinstance(token, str) and 0 < len(token) <= 200 and bool(room.token_hash)
        if not ok or not hmac.compare_digest(room.token_hash, token_hash(str(token))):
            raise Rejected("annex/bad_token", room=name)
        return room

    def beat(self, name: str, annex_seq: int | None = None) -> None:
        """The annex answered now; ``annex_seq``: the last ``seq`` it says it has shown (``None``: a sign of life
        that says nothing of its screen, a claim)."""
        with self._links:
            self._beats[name] = self.clock()
            if annex_seq is not None:
                self._annex_seq[name] = annex_seq

    def acked(self, name: str) -> int:
        """The last ``seq`` the room said it has shown (0 before its first beat since the start)."""
        with self._links:
            return self._annex_seq.get(name, 0)

    def in_step(self, room: AnnexRoom) -> bool:
        """Whether the room has shown the last ball and was heard within ``HEARD_S`` (L23a): the next ball may go."""
        seen = self.seen_s(room.name)
        return seen is not None and seen < HEARD_S and self.acked(room.name) >= self.ball_seq

    def seen_s(self, name: str) -> float | None:
        """Seconds since the room last beat (a restart counts as a beat: each room gets the limit to beat again);
        ``None`` for a room never joined."""
        room = self.rooms.get(name)
        if room is None or not room.token_hash:
            return None
        with self._links:
            last = self._beats.get(name, self._started)
        return max(0.0, self.clock() - last)

    def online(self, room: AnnexRoom) -> bool:
        """Whether the room's link is up: joined, not journalled lost, and beaten within the limit."""
        seen = self.seen_s(room.name)
        return seen is not None and not room.lost and seen < LINK_LOST_S

    def blocking(self) -> AnnexRoom | None:
        """The first joined room that is not online and that the speaker has not gone on without."""
        for room in self.rooms.values():
            if room.token_hash and not room.going_on and not self.online(room):
                return room
        return None

    def behind(self) -> AnnexRoom | None:
        """The first joined room, online, not gone on without, that has not shown the last ball (L23a)."""
        for room in self.rooms.values():
            if room.token_hash and not room.going_on and not self.in_step(room):
                return room
        return None

    def newly_lost(self) -> tuple[str, ...]:
        """The rooms past the limit that the journal does not yet say lost (nor gone on without)."""
        return tuple(
            r.name
            for r in self.rooms.values()
            if r.token_hash and not r.lost and not r.going_on and (self.seen_s(r.name) or 0.0) >= LINK_LOST_S
        )

    def links(self) -> tuple[RoomLink, ...]:
        """Every room's link now, in the order they were opened."""
        out = []
        for room in list(self.rooms.values()):
            seen = self.seen_s(room.name)
            out.append(RoomLink(room.name, self.online(room), None if seen is None else int(seen), room.going_on))
        return tuple(out)

    # ---- the hold ------------------------------------------------------------------------------------------
    def refusal(self, action: Action) -> Rejected | None:
        """For a ball: ``room_offline`` naming the room while a room is lost and not gone on without; else
        ``room_behind`` naming it (and the ball it has not shown) while one has not shown the last ball (L23a)."""
        if action is not Action.DRAW:
            return None
        room = self.blocking()
        if room is not None:
            return Rejected("annex/room_offline", room=room.name)
        room = self.behind()
        return None if room is None else Rejected("annex/room_behind", room=room.name, ball=self.ball)
