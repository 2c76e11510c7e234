"""The balls of an archived evening, read from its journal for the fairness count (display/stats.py): the program
opens every durable file (tests/app/test_stores.py), so it hands the web this reader (``loto_archived_draws``)."""

from __future__ import annotations

from pathlib import Path

from hall.app.runtime import JOURNAL_FILE
from hall.errors import JournalError
from hall.events import BallDrawn, DrawUndone, EventHandlers, PartieStarted, Record
from hall.record.reading import read_records

_PARTIES = EventHandlers[None]()


@_PARTIES.on(PartieStarted)
def _started(parties: list[list[int]], record: Record) -> None:
    parties.append([])


@_PARTIES.on(BallDrawn)
def _drawn(parties: list[list[int]], record: Record) -> None:
    if parties:
        parties[-1].append(record.event.number)


@_PARTIES.on(DrawUndone)
def _undone(parties: list[list[int]], record: Record) -> None:
    if parties and parties[-1]:
        parties[-1].pop()


def archived_draws(folder: Path) -> tuple[tuple[int, ...], ...]:
    """Each partie's balls in the evening archived in ``folder`` (undone balls left out); ``()`` when its journal
    cannot be read."""
    parties: list[list[int]] = []
    try:  # read-only: an archive is judged by verify, never brought up or chained here
        records = read_records(Path(folder) / JOURNAL_FILE)
    except (FileNotFoundError, JournalError):
        return ()
    for record in records:
        _PARTIES.dispatch(record.type, parties, record)
    return tuple(tuple(p) for p in parties)
