"""The durable journal: every event appended to SQLite and fsync'd before anyone sees it, as a hash chain.

Opened by ``hall/record/durable.py``, the one opener of the hall's durable files: WAL mode with ``synchronous=FULL``
(a committed append survives a power cut), the schema version in SQLite's ``user_version``. Each row carries
the hash of the row before it (``prev``) and its own (``hash``, ``hall/record/chain.py``); a journal of version 1 (before
the chain) is chained at its first open by this version, once, in the same transaction as its version bump, and
says so: a row in ``chained`` (when, how many records were there) and a warning in the log.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TypeVar

from hall.errors import JournalError
from hall.events import Event, Record, from_payload, to_payload
from hall.record import chain
from hall.record.durable import open_durable

log = logging.getLogger("loto-hall.journal")

T = TypeVar("T")


def _inline(fn: Callable[[], T]) -> T:
    return fn()


class Offload(Protocol):
    """How a blocking call runs (inline, or in a real thread): ``fn``'s result, or its exception."""

    def __call__(self, fn: Callable[[], T], /) -> T: ...


SCHEMA_VERSION = 2  # 2: the hash chain (prev, hash; the table ``chained``)

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


def _chain_old_records(db: sqlite3.Connection) -> None:
    """Version 1 → 2 (and a file from before the version was kept): the columns of the chain, every record chained
    in order, and a row of ``chained`` saying when and how many (nothing when there was no record)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(events)")}
    for name in ("prev", "hash"):
        if name not in columns:
            db.execute(f"ALTER TABLE events ADD COLUMN {name} TEXT NOT NULL DEFAULT ''")
    db.execute("CREATE TABLE IF NOT EXISTS chained (at TEXT NOT NULL, records INTEGER NOT NULL)")
    rows = db.execute("SELECT seq, type, payload, role, at FROM events ORDER BY seq").fetchall()
    if not rows:
        return
    try:
        links = chain.chain(rows)
    except ValueError as exc:  # open_durable names the file and refuses it
        raise sqlite3.DataError(f"a record cannot be chained: {exc}") from exc
    db.executemany("UPDATE events SET prev = ?, hash = ? WHERE seq = ?", links)
    now = db.execute("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')").fetchone()[0]
    db.execute("INSERT INTO chained (at, records) VALUES (?, ?)", (now, len(rows)))
    log.warning(
        "journal d'avant la chaîne : %d enregistrement(s) chaîné(s) à sa première ouverture (%s)", len(rows), now
    )


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
            payload = to_payload(e)
            text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
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

    def records(self, after: int = 0) -> Iterator[Record]:
        """Every record with ``seq > after``, in order."""
        cursor = self._db.execute(
            "SELECT seq, type, payload, role, at, hash FROM events WHERE seq > ? ORDER BY seq", (after,)
        )
        for seq, type_name, payload, role, at, digest in cursor:
            try:
                event = from_payload(type_name, json.loads(payload))
            except (KeyError, TypeError, ValueError) as exc:
                raise JournalError(f"{self.path}: event {seq} ({type_name}) unreadable: {exc}") from exc
            yield Record(seq, event, role, at, digest)

    def rows(self) -> Iterator[chain.Row]:
        """Every row as stored, in order, for ``chain.verify``."""
        for row in self._db.execute("SELECT seq, type, payload, role, at, prev, hash FROM events ORDER BY seq"):
            yield chain.Row(*row)

    def chained(self) -> tuple[str, int] | None:
        """When a journal from before the chain was chained and how many records it then held (``None``: chained
        from its first record on)."""
        row = self._db.execute("SELECT at, records FROM chained ORDER BY rowid LIMIT 1").fetchone()
        return None if row is None else (row[0], row[1])

    def integrity_check(self) -> str:
        """SQLite's own verdict on the file (``"ok"`` when sound)."""
        return self._db.execute("PRAGMA integrity_check").fetchone()[0]

    def close(self) -> None:
        self._db.close()


def verify_file(
    path: str | os.PathLike, fingerprint: str | None = None
) -> tuple[chain.Verdict, tuple[str, int] | None]:
    """The chain's verdict on the journal at ``path`` (with ``fingerprint``: that its record is there) and when it
    was chained if it is older than the chain (``Journal.chained``). ``FileNotFoundError`` when there is none;
    ``JournalError`` when it is not a journal."""
    if not os.path.isfile(path):
        raise FileNotFoundError(path)
    journal = Journal(path)
    try:
        return chain.verify(journal.rows(), fingerprint), journal.chained()
    finally:
        journal.close()
