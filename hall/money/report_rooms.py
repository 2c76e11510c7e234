"""The salle annexe in the evening's report (RULES L23): « 1 événement, 2 salles, même tirage », each annex's
claims, and each time the draw waited for a lost link, went on without it, or had it back. Read from the journal's
``room:*`` records alone; pure, stdlib only."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from hall.events import EventHandlers, Record
from hall.events.rooms import RoomBack, RoomClaimed, RoomGoOn, RoomLost, RoomOpened


@dataclass(frozen=True, slots=True)
class RoomFact:
    """One fact of an annex room: ``what`` is ``room_claim``, ``room_lost``, ``room_go_on`` or ``room_back``."""

    room: str
    what: str
    partie: int | None
    ball: int | None
    detail: str  # a claim's lot kind, « went_on » for a link back after the speaker went on
    at: str
    role: str


@dataclass
class RoomsReport:
    """The annex rooms opened tonight, in order, and their facts in the journal's order."""

    rooms: list[str] = field(default_factory=list)
    facts: list[RoomFact] = field(default_factory=list)

    def headline(self, language: str = "fr") -> str:
        """« 1 événement, 2 salles, même tirage »: the main room and its annexes, one draw."""
        n = len(self.rooms) + 1
        return f"1 event, {n} rooms, same draw" if language == "en" else f"1 événement, {n} salles, même tirage"

    def count(self, what: str) -> int:
        return sum(1 for f in self.facts if f.what == what)


_READ = EventHandlers[None]()


@_READ.on(RoomOpened)
def _opened(r: RoomsReport, record: Record) -> None:
    if record.event.room not in r.rooms:
        r.rooms.append(record.event.room)


@_READ.on(RoomClaimed)
def _claimed(r: RoomsReport, record: Record) -> None:
    e = record.event
    r.facts.append(RoomFact(e.room, "room_claim", e.partie, e.ball, e.kind or "", record.at, record.role))


def _waited(r: RoomsReport, record: Record, what: str) -> None:
    e = record.event
    r.facts.append(RoomFact(e.room, what, e.partie or None, e.ball, "", record.at, record.role))


@_READ.on(RoomLost)
def _lost(r: RoomsReport, record: Record) -> None:
    _waited(r, record, "room_lost")


@_READ.on(RoomGoOn)
def _go_on(r: RoomsReport, record: Record) -> None:
    _waited(r, record, "room_go_on")


@_READ.on(RoomBack)
def _back(r: RoomsReport, record: Record) -> None:
    e = record.event
    r.facts.append(RoomFact(e.room, "room_back", None, None, "went_on" if e.went_on else "", record.at, record.role))


def rooms_of(records: Iterable[Record]) -> RoomsReport | None:
    """The annex rooms' part of the report, ``None`` for an evening in one room."""
    report = RoomsReport()
    for record in records:
        _READ.dispatch(record.type, report, record)
    return report if report.rooms else None
