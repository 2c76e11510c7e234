"""The durable journal: every event appended to SQLite and fsync'd before anyone sees it, as a hash chain.

Opened by ``hall/record/durable.py``, the one opener of the hall's durable files: WAL mode with ``synchronous=FULL``
(a committed append survives a power cut), the schema version in SQLite's ``user_version``. Each row carries
the hash of the row before it (``prev``) and its own (``hash``, ``hall/record/chain.py``), its payload stored as
``chain.stored_text`` writes it. ``Journal`` is the hall's own: the writer, the only one that migrates. A journal
of version 1 (before the chain) is chained at its first open by the writer, once, in the same transaction as its
version bump, and says so in the chain itself: a ``record:chained`` record after the old ones, which the first
of them follows (``chain.anchor``), so that removing or changing it unlinks record 1. Anything else reads a
journal through ``hall/record/reading.py``, read-only.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from importlib import metadata
from typing import Protocol, TypeVar

from hall.errors import JournalError
from hall.events import Event, JournalChained, Record, from_payload, to_payload
from hall.record import chain
from hall.record.durable import open_durable
from hall.sources import utc_now

log = logging.getLogger("loto-hall.journal")

T = TypeVar("T")


def _inline(fn: Callable[[], T]) -> T:
    return fn()


class Offload(Protocol):
    """How a blocking call runs (inline, or in a real thread): ``fn``'s result, or its exception."""

    def __call__(self, fn: Callable[[], T], /) -> T: ...


SCHEMA_VERSION = 2  # 2: the hash chain (prev, hash; the table ``chained``, kept for the notes of older versions)
COLUMNS = ("seq", "type", "payload", "role", "at", "prev", "hash")
SYSTEM_ROLE = "system"  # who writes a record no person asked for (a journal chained at its first open)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq     INTEGER PRIMARY KEY,
    type    TEXT NOT NULL,
    payload TEXT NOT NULL,
    role    TEXT NOT NULL,
    at      TEXT NOT NULL,
    prev    TEXT NOT NULL DEFAULT '',
    hash    TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS chained (
    at      TEXT NOT NULL,
    records INTEGER NOT NULL
);
"""


def version() -> str:
    """This loto-hall's version, as a record that it chained a journal names it."""
    try:
        return metadata.version("loto-hall")
    except metadata.PackageNotFoundError:
        return "?"


def _chain_old_records(db: sqlite3.Connection) -> None:
    """Version 1 → 2 (and a file from before the version was kept): the columns of the chain, every record chained
    in order from the anchor of a ``record:chained`` record written after them (nothing when there was none).

    A file whose ``events`` already has the chain's columns is not from before the chain, whatever its version
    says (``PRAGMA user_version`` changed by hand): nothing is chained again, its chain stays as it is for
    ``loto-hall verify`` to judge."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(events)")}
    if {"prev", "hash"} <= columns:
        found = db.execute("PRAGMA user_version").fetchone()[0]
        if db.execute("SELECT 1 FROM events LIMIT 1").fetchone() is not None:
            log.warning("journal marqué version %d mais déjà chaîné : rien n'est rechaîné (loto-hall verify)", found)
        return
    schema = db.execute("PRAGMA user_version").fetchone()[0]
    for name in ("prev", "hash"):
        if name not in columns:
            db.execute(f"ALTER TABLE events ADD COLUMN {name} TEXT NOT NULL DEFAULT ''")
    db.execute("CREATE TABLE IF NOT EXISTS chained (at TEXT NOT NULL, records INTEGER NOT NULL)")
    rows = db.execute("SELECT seq, type, payload, role, at FROM events ORDER BY seq").fetchall()
    if not rows:
        return
    mark = JournalChained(len(rows), version(), schema)
    mark_text, at = chain.stored_text(to_payload(mark)), utc_now()
    try:  # each old text stored as the chain reads it (it had no hash to keep)
        texts = [chain.stored_text(chain.parse_text(payload)) for _, _, payload, _, _ in rows]
        start = chain.anchor(mark.type, chain.read_text(mark_text), SYSTEM_ROLE, at)
        links = chain.chain([(seq, t, text, role, when) for (seq, t, _, role, when), text in zip(rows, texts)], start)
    except ValueError as exc:  # open_durable names the file and refuses it
        raise sqlite3.DataError(f"a record cannot be chained: {exc}") from exc
    db.executemany(
        "UPDATE events SET payload = ?, prev = ?, hash = ? WHERE seq = ?",
        [(text, prev, digest, seq) for text, (prev, digest, seq) in zip(texts, links)],
    )
    seq = rows[-1][0] + 1
    last = links[-1][1]
    digest = chain.text_hash(last, seq, mark.type, mark_text, SYSTEM_ROLE, at)
    db.execute(
        "INSERT INTO events (seq, type, payload, role, at, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (seq, mark.type, mark_text, SYSTEM_ROLE, at, last, digest),
    )
    log.warning(
        "journal d'avant la chaîne : %d enregistrement(s) chaîné(s) à sa première ouverture (%s, version %s)",
        len(rows),
        at,
        mark.version,
    )


def rows_of(db: sqlite3.Connection) -> Iterator[chain.Row]:
    """Every row of a journal as stored, in order, for ``chain.verify``."""
    for row in db.execute("SELECT seq, type, payload, role, at, prev, hash FROM events ORDER BY seq"):
        yield chain.Row(*row)


def records_of(db: sqlite3.Connection, path: str, after: int = 0) -> Iterator[Record]:
    """Every record of a journal with ``seq > after``, in order; ``JournalError`` naming the first unreadable one."""
    cursor = db.execute("SELECT seq, type, payload, role, at, hash FROM events WHERE seq > ? ORDER BY seq", (after,))
    for seq, type_name, payload, role, at, digest in cursor:
        try:
            event = from_payload(type_name, chain.parse_text(payload))
        except (KeyError, TypeError, ValueError) as exc:
            raise JournalError(f"{path}: event {seq} ({type_name}) unreadable: {exc}") from exc
        yield Record(seq, event, role, at, digest)


class Journal:
    """An append-only event log in one SQLite file. Not thread-safe on its own: ``Hall`` holds the lock."""

    def __init__(self, path: str | os.PathLike, offload: Offload | None = None):
        self.path = os.fspath(path)
        # How the durable write runs: inline, or handed to a real thread when the server runs an event loop
        # (SQLite's fsync is a C call no greenlet can yield from; the program hands hall/app/wiring.real_threads).
        self.offload: Offload = offload or _inline
        self._db = open_durable(path, _SCHEMA, SCHEMA_VERSION, {1: _chain_old_records})
        try:
            last = self._db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise JournalError(f"{self.path}: cannot open the journal: {exc}") from exc
        self._last_seq: int = last[0] if last else 0
        self._last_hash: str = last[1] if last else chain.GENESIS

    @property
    def last_seq(self) -> int:
        """The sequence number of the last event appended (0 when empty)."""
        return self._last_seq

    def append(self, event: Event, role: str, at: str) -> Record:
        """Write ``event`` durably and return its ``Record``; raises ``JournalError`` if the disk refuses."""
        return self.append_all([event], role, at)[0]

    def append_all(self, events: Sequence[Event], role: str, at: str) -> list[Record]:
        """Write several events in one transaction: after a crash, all of them are there or none."""
        rows, prev = [], self._last_hash
        for i, e in enumerate(events, start=1):
            try:
                text = chain.stored_text(to_payload(e))
            except ValueError as exc:  # nothing is written: the command fails whole
                raise JournalError(f"{self.path}: {e.type} cannot be stored: {exc}") from exc
            digest = chain.text_hash(prev, self._last_seq + i, e.type, text, role, at)  # as verify reads it back
            rows.append((self._last_seq + i, e.type, text, role, at, prev, digest))
            prev = digest

        def write() -> None:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    "INSERT INTO events (seq, type, payload, role, at, prev, hash) VALUES (?, ?, ?, ?, ?, ?, ?)", rows
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

        try:
            self.offload(write)
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: append failed: {exc}") from exc
        self._last_seq += len(rows)
        self._last_hash = prev
        return [Record(seq, e, role, at, digest) for (seq, *_, digest), e in zip(rows, events)]

    @property
    def last_hash(self) -> str:
        """The hash of the last record appended: the evening's fingerprint (``chain.GENESIS`` when empty)."""
        return self._last_hash

    def hash_at(self, seq: int) -> str | None:
        """The stored hash of record ``seq`` (``None`` when the journal has no such record)."""
        row = self._db.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        return row[0] if row else None

    def records(self, after: int = 0) -> Iterator[Record]:
        """Every record with ``seq > after``, in order."""
        return records_of(self._db, self.path, after)

    def rows(self) -> Iterator[chain.Row]:
        """Every row as stored, in order, for ``chain.verify``."""
        return rows_of(self._db)

    def integrity_check(self) -> str:
        """SQLite's own verdict on the file (``"ok"`` when sound)."""
        return self._db.execute("PRAGMA integrity_check").fetchone()[0]

    def close(self) -> None:
        self._db.close()


def owned_records(path: str | os.PathLike) -> list[Record]:
    """The records of a journal this process owns (the data folder's lock held, no hall serving it): opened as its
    writer, so it is brought up to this version and its WAL folded back in when it closes."""
    journal = Journal(path)
    try:
        return list(journal.records())
    finally:
        journal.close()
