"""The salle annexe's desk in the main hall (RULES L23): a room opened with a one-time code, the annex
joining with it, its beats, its « Quine ! », the link lost, the speaker going on without it, the link back.

The annex is a follower: one draw, one journal, one speaker. Its claim is a claim announced in the main room (the
same ``ClaimAnnounced``, so the same stop before the next ball), journalled with the room and the last ball in one
transaction, and served ahead of the commands that are not balls (``@ball_first``): it waits for a ball in flight,
never for a queue of sales. Its link is the hold of ``hall/door/rooms_state.py``: every draw path meets it because
every path reaches this hall. The secrets are the caller's (display/ makes the code and the token); only a keyed
digest of the code and a hash of the token are journalled.
"""

from __future__ import annotations

from hall.door.rooms_state import MAX_ROOMS, AnnexRooms, code_digest, room_name, token_hash
from hall.door.state import HallState
from hall.door.writer import Writer, ball_first, locked
from hall.events import ClaimAnnounced, Record
from hall.events.rooms import RoomBack, RoomClaimed, RoomEnrolled, RoomGoOn, RoomLost, RoomOpened
from hall.loto.lots import LOT_KINDS
from hall.refusal import Rejected
from hall.rights import require
from hall.snapshots import RoomLink

ANNEX_ROLE = "annex"  # the role an annex's records carry (its token is its right: no PIN in the room)
MAX_ANNEX_SEQ = 2**53
CODE_CHARS = (6, 40)
TOKEN_CHARS = (32, 200)


class RoomsDesk:
    """The annex rooms of one hall."""

    def __init__(self, writer: Writer, state: HallState, secret: bytes):
        self._writer = writer
        self._state = state
        self._secret = secret

    @property
    def _rooms(self) -> AnnexRooms:
        return self._state.rooms

    def _where(self) -> tuple[int, int | None]:
        """(the partie in play, its last ball), (0, None) between parties."""
        p = self._state.evening.running
        return (0, None) if p is None else (p.number, p.last)

    @locked
    def open_room(self, room: object, code: str, *, role: str, again: bool = False) -> Record:
        """Open an annex room with a one-time ``code`` (``again``: a new code for a room already open, its device
        replaced); ``annex/bad_room``, ``annex/room_exists``, ``annex/too_many_rooms``, ``annex/unknown_room``."""
        require(role, "room_open")
        name = room_name(room)
        _length(code, CODE_CHARS, "code")
        known = {r.casefold() for r in self._rooms.rooms}
        if again:
            self._rooms.find(name)
        elif name.casefold() in known:
            raise Rejected("annex/room_exists", room=name)
        elif len(known) >= MAX_ROOMS:
            raise Rejected("annex/too_many_rooms", max=MAX_ROOMS)
        return self._writer.commit(RoomOpened(name, code_digest(self._secret, name, code)), role)

    @locked
    def join_room(self, room: str, code: object, token: str) -> Record:
        """The annex joins with its code, spent at once; its ``token`` is known by its hash from now on.
        ``annex/unknown_room``; ``annex/bad_code`` for a wrong, spent or another hall's code."""
        found = self._rooms.find(room)
        _length(token, TOKEN_CHARS, "token")
        if not isinstance(code, str) or not found.code_digest:
            raise Rejected("annex/bad_code", room=found.name)
        if code_digest(self._secret, found.name, code) != found.code_digest:
            raise Rejected("annex/bad_code", room=found.name)
        return self._writer.commit(RoomEnrolled(found.name, token_hash(token)), ANNEX_ROLE)

    def room_beat(self, room: str, token: object, annex_seq: object) -> int:
        """The annex's heartbeat and its ack: its link is up now, and ``annex_seq`` is the last ``seq`` it has shown
        (the next ball waits until it is at or past the last ball's, RULES L23a). Returns the hall's last ``seq``.
        Not under the hall's lock (a beat must not wait behind the hall's flushes), but for the record of its
        return after a loss — once it is back in step when the speaker had gone on without it."""
        if type(annex_seq) is not int or not 0 <= annex_seq <= MAX_ANNEX_SEQ:
            raise Rejected("bad_field", field="seq")
        found = self._rooms.check_token(room, token)
        self._rooms.beat(found.name, annex_seq)
        if self._returned(found.name):
            self._back(found.name)
        return self._state.evening.last_seq

    def _returned(self, name: str) -> bool:
        """Lost and heard again; or gone on without and now showing the last ball (else it would stop the draw
        again at once, behind)."""
        room = self._rooms.rooms[name]
        if room.going_on:
            return self._rooms.in_step(room)
        return room.lost

    @locked
    def _back(self, name: str) -> Record | None:
        room = self._rooms.rooms[name]
        if not self._returned(name):
            return None  # another beat journalled it first
        return self._writer.commit(RoomBack(name, room.going_on), ANNEX_ROLE)

    @ball_first
    def room_claim(
        self, room: str, token: object, kind: object = None, shown: object = None, kept: object = False
    ) -> Record:
        """« Quine ! » in the annex: the draw stops at once as for a claim in the main room (RULES L10), the room
        and the last ball journalled with it, and what the annex says: the last ball it had shown when pressed
        (``shown``, 1–90 or None) and whether it was kept while the link was lost (``kept``, RULES L23a).
        ``no_partie``, ``partie_finished``, ``bad_field`` (``kind``, ``shown``, ``kept``)."""
        require(ANNEX_ROLE, "room_claim")
        found = self._rooms.check_token(room, token)
        if kind is not None and kind not in LOT_KINDS:
            raise Rejected("bad_field", field="kind")
        if shown is not None and (type(shown) is not int or not 1 <= shown <= 90):
            raise Rejected("bad_field", field="shown")
        if type(kept) is not bool:
            raise Rejected("bad_field", field="kept")
        self._rooms.beat(found.name)  # a claim is a sign of life too (it says nothing of the annex's screen)
        p = self._state.running()
        if p.current is None:
            raise Rejected("partie_finished", number=p.number)
        said = shown if isinstance(shown, int) else None
        claimed = RoomClaimed(found.name, p.number, p.last, kind if isinstance(kind, str) else None, said, kept)
        stop = () if p.paused else (ClaimAnnounced(f"room:{found.name}"),)
        return self._writer.commit(claimed, ANNEX_ROLE, *stop)

    @locked
    def room_go_on(self, room: str, *, role: str) -> Record:
        """« Continuer sans la salle annexe »: balls are drawn while ``room`` cannot be reached, until it is back.
        ``annex/room_online`` when its link is up and it has shown the last ball (nothing to go on without),
        ``annex/not_joined`` before its device joined. A room heard but behind may be gone on without (its screen
        stuck): the choice holds until it has shown the last ball."""
        require(role, "room_go_on")
        found = self._rooms.find(room)
        if not found.token_hash:
            raise Rejected("annex/not_joined", room=found.name)
        if found.going_on:
            raise Rejected("annex/already_going_on", room=found.name)
        if self._rooms.in_step(found):
            raise Rejected("annex/room_online", room=found.name)
        return self._writer.commit(RoomGoOn(found.name, *self._where()), role)

    def watch_rooms(self) -> tuple[Record, ...]:
        """Journal each room newly past the link's limit (the background check: the draw is refused by the hold
        whether it ran or not). Takes the hall's lock only when one is."""
        if not self._rooms.newly_lost():
            return ()
        return self._journal_lost()

    @locked
    def _journal_lost(self) -> tuple[Record, ...]:
        where = self._where()
        return tuple(self._writer.commit(RoomLost(name, *where), "system") for name in self._rooms.newly_lost())

    def room_links(self) -> tuple[RoomLink, ...]:
        """Every annex room's link now (read without the hall's lock)."""
        return self._rooms.links()


def _length(value: object, bounds: tuple[int, int], name: str) -> None:
    if not isinstance(value, str) or not bounds[0] <= len(value) <= bounds[1]:
        raise Rejected("bad_field", field=name)
