"""Reading a journal the reader does not own — ``loto-hall verify``, /admin's check of archived evenings,
``loto-hall report``, the fairness count of past evenings — without ever writing to it.

A check that could change what it judges can be talked into anything: a journal whose ``user_version`` was set
back to 1 would be chained again by its first writer, and pass. So nothing here opens a journal as the hall does
(``hall/record/journal.py``): no schema made, no migration, no chaining, no checkpoint. A closed file (no ``-wal``
beside it: an archived evening, a stopped hall, a copy) is opened ``immutable`` — no lock, no ``-shm`` or ``-wal``
made, readable on a read-only stick or by another account; a file with a ``-wal`` (a hall serving it, or one cut
off before it closed) is opened ``mode=ro``, which reads what its writer committed through the ``-shm`` and writes
nothing to the journal or its ``-wal``. A hall that starts while a closed file is read is caught (the ``-wal``
appears, or the file changes) and the file read again ``mode=ro``.

The schema is judged, never fixed: a journal of another version, or missing a table or a column the hall writes,
is named (``Shape``); a journal from before the chain is said to need the hall's own migration.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from hall.errors import JournalError
from hall.events import JournalChained, Record
from hall.record import chain
from hall.record.journal import COLUMNS, SCHEMA_VERSION, SYSTEM_ROLE, records_of, rows_of

T = TypeVar("T")

# what a shape's problem means for ``verify``: the rows can still be walked, or not
WALKABLE = frozenset({None, "version", "no_chained"})


class Unreadable(JournalError):
    """A journal that cannot be read as the hall writes it; ``shape`` says why (``Shape.problem``)."""

    def __init__(self, path: str | os.PathLike[str], shape: Shape):
        super().__init__(
            f"{path}: {shape.problem} (schema version {shape.version}, this loto-hall reads {SCHEMA_VERSION})"
        )
        self.shape = shape


@dataclass(frozen=True, slots=True)
class Shape:
    """What a journal file is. ``problem`` (``None``: the hall's own schema, at its version): ``pre_chain`` (a
    journal from before the chain, version 0 or 1: only the hall's writer may bring it up, and say so),
    ``version`` (it has the chain's columns but another ``user_version``: changed by hand), ``newer`` (a later
    loto-hall's), ``no_events`` (no table of records), ``columns`` (the records' table lacks a column),
    ``no_chained`` (the table ``chained`` is gone)."""

    version: int
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class Chaining:
    """A time the journal's first records were chained after the fact: ``seq`` is the ``record:chained`` record
    that says so (0: a note of an older loto-hall in the table ``chained``, outside the chain), ``version`` the
    loto-hall that did it ("" when not known)."""

    at: str
    records: int
    version: str = ""
    seq: int = 0


@dataclass(frozen=True, slots=True)
class JournalCheck:
    """``verify``'s findings on one file: its shape, the chain's verdict (``None`` when its rows cannot be walked)
    and when its first records were chained after the fact."""

    shape: Shape
    verdict: chain.Verdict | None
    chained: tuple[Chaining, ...] = ()

    @property
    def ok(self) -> bool:
        return self.shape.problem is None and self.verdict is not None and self.verdict.ok


def _uri(path: Path, immutable: bool) -> str:
    return path.resolve().as_uri() + ("?immutable=1" if immutable else "?mode=ro")


def _stamp(path: Path) -> tuple[int, int, int]:
    st = os.stat(path)
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def read_only(path: str | os.PathLike[str], work: Callable[[sqlite3.Connection], T]) -> T:
    """``work``'s result on a read-only connection to the journal at ``path`` (``work`` reads all it needs before
    returning). ``FileNotFoundError`` when there is no file; ``JournalError`` when SQLite cannot read it."""
    file = Path(path)
    wal = file.with_name(file.name + "-wal")
    before = _stamp(file)
    if not wal.exists():
        try:
            result = _run(file, True, work)
        except JournalError:
            if wal.exists():  # a hall started meanwhile: read what it writes
                return _run(file, False, work)
            raise
        if not wal.exists() and _stamp(file) == before:
            return result
    return _run(file, False, work)


def _run(file: Path, immutable: bool, work: Callable[[sqlite3.Connection], T]) -> T:
    try:
        db = sqlite3.connect(_uri(file, immutable), uri=True, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise JournalError(f"{file}: cannot open: {exc}") from exc
    try:
        db.execute("PRAGMA query_only=1")
        return work(db)
    except sqlite3.DatabaseError as exc:
        hint = "" if immutable else " (its -wal is there: this account must be able to read and write its -shm)"
        raise JournalError(f"{file}: cannot read the journal: {exc}{hint}") from exc
    finally:
        db.close()


def shape_of(db: sqlite3.Connection) -> Shape:
    """What the file behind ``db`` is, as the hall writes a journal."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    kinds = dict(db.execute("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')").fetchall())
    if kinds.get("events") != "table":
        return Shape(version, "no_events")
    columns = {row[1] for row in db.execute("PRAGMA table_info(events)")}
    if version > SCHEMA_VERSION:
        return Shape(version, "newer")
    if not set(COLUMNS[:5]) <= columns:
        return Shape(version, "columns")
    if not set(COLUMNS) <= columns:
        return Shape(version, "pre_chain" if version in (0, 1) else "columns")
    if version != SCHEMA_VERSION:
        return Shape(version, "version")
    if kinds.get("chained") != "table":
        return Shape(version, "no_chained")
    return Shape(version)


def _chainings(db: sqlite3.Connection, shape: Shape) -> tuple[tuple[Chaining, ...], frozenset[str]]:
    """The times the journal tells it was chained after the fact, and the anchors its first record may follow."""
    found, starts = [], {chain.GENESIS}
    marks = db.execute(
        "SELECT seq, payload, role, at FROM events WHERE type = ? ORDER BY seq", (JournalChained.type,)
    ).fetchall()
    for seq, text, role, at in marks:
        try:
            payload = chain.read_text(text)
            records, version = int(payload["records"]), str(payload["version"])
        except (ValueError, KeyError, TypeError):
            continue  # the walk names that record: its text or hash does not match
        if records == seq - 1 and role == SYSTEM_ROLE and isinstance(at, str):
            found.append(Chaining(at, records, version, seq))
            starts.add(chain.anchor(JournalChained.type, payload, role, at))
    if shape.problem != "no_chained":  # the note an older loto-hall kept beside the chain
        note = db.execute("SELECT at, records FROM chained ORDER BY rowid LIMIT 1").fetchone()
        if note is not None:
            found.insert(0, Chaining(str(note[0]), int(note[1])))
    return tuple(found), frozenset(starts)


def verify_file(path: str | os.PathLike[str], fingerprint: str | None = None) -> JournalCheck:
    """The findings on the journal at ``path`` (with ``fingerprint``: that its record is there), read-only.
    ``FileNotFoundError`` when there is none; ``JournalError`` when it is not SQLite."""
    if not os.path.isfile(path):
        raise FileNotFoundError(path)

    def check(db: sqlite3.Connection) -> JournalCheck:
        shape = shape_of(db)
        if shape.problem not in WALKABLE:
            return JournalCheck(shape, None)
        chained, starts = _chainings(db, shape)
        return JournalCheck(shape, chain.verify(rows_of(db), fingerprint, starts), chained)

    return read_only(path, check)


def read_records(path: str | os.PathLike[str]) -> list[Record]:
    """Every record of the journal at ``path``, read-only; ``FileNotFoundError`` when there is none,
    ``Unreadable`` when it is not at this version's schema (never brought up here), ``JournalError`` when a
    record cannot be read."""
    if not os.path.isfile(path):
        raise FileNotFoundError(path)

    def records(db: sqlite3.Connection) -> list[Record]:
        shape = shape_of(db)
        if shape.problem is not None:
            raise Unreadable(path, shape)
        return list(records_of(db, os.fspath(path)))

    return read_only(path, records)
