"""The salle annexe (RULES L23): a second room of the same building following the one draw. Its enrolment (a
one-time code, then a token: only their keyed digest and hash are kept), its claims, and each time its link was
lost, the draw went on without it, or the link came back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class RoomOpened:
    """The admin opened an annex room (« + Salle annexe ») and made it a one-time code: its keyed digest only."""

    type: ClassVar[str] = "room:opened"
    room: str
    code_digest: str


@dataclass(frozen=True, slots=True)
class RoomEnrolled:
    """The annex device joined with its code (spent at once): the hash of its token, never the token."""

    type: ClassVar[str] = "room:enrolled"
    room: str
    token_hash: str


@dataclass(frozen=True, slots=True)
class RoomClaimed:
    """« Quine ! » in the annex: the draw stops as for a claim in the main room (RULES L10). ``ball``: the last
    ball out when it was heard (``None`` before the first); ``kind``: the lot the annex named, if it did;
    ``shown``: the last ball the annex had shown when it was pressed, as it says; ``kept``: pressed while the link
    was lost and sent on its return (RULES L23a) — ``shown`` then says which ball it was pressed on."""

    type: ClassVar[str] = "room:claim"
    room: str
    partie: int
    ball: int | None
    kind: str | None = None
    shown: int | None = None
    kept: bool = False


@dataclass(frozen=True, slots=True)
class RoomLost:
    """The annex did not answer for the link's limit: no ball is drawn until it is back or the speaker goes on."""

    type: ClassVar[str] = "room:lost"
    room: str
    partie: int  # the partie in play then (0: between parties)
    ball: int | None  # the last ball out then


@dataclass(frozen=True, slots=True)
class RoomGoOn:
    """« Continuer sans la salle annexe »: the speaker chose to draw while the annex cannot be reached."""

    type: ClassVar[str] = "room:go_on"
    room: str
    partie: int
    ball: int | None


@dataclass(frozen=True, slots=True)
class RoomBack:
    """The annex answered again after it was lost or gone on without (``went_on``: the speaker had gone on)."""

    type: ClassVar[str] = "room:back"
    room: str
    went_on: bool


ROOM_EVENTS = (RoomOpened, RoomEnrolled, RoomClaimed, RoomLost, RoomGoOn, RoomBack)
"""Every event of the annex rooms: their state is the hall's (``hall/door/rooms_state.py``), not the evening's."""
