"""The durable journal: every event appended to SQLite and fsync'd before anyone sees it.

Opened by ``hall/durable.py``, the one opener of the hall's durable files: WAL mode with ``synchronous=FULL``
(a committed append survives a power cut), the schema version in SQLite's ``user_version``.
"""
from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from hall.durable import open_durable
from hall.errors import JournalError
from hall.events import Record, from_payload, to_payload

T = TypeVar("T")


def _inline(fn: Callable[[], T]) -> T:
    return fn()

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq     INTEGER PRIMARY KEY,
    type    TEXT NOT NULL,
    payload TEXT NOT NULL,
    role    TEXT NOT NULL,
    at      TEXT NOT NULL
);
"""


class Journal:
    """An append-only event log in one SQLite file. Not thread-safe on its own: ``Hall`` holds the lock."""

    def __init__(self, path: str | os.PathLike, offload: Callable[[Callable[[], Any]], Any] | None = None):
        self.path = os.fspath(path)
        # How the durable write runs: inline, or handed to a real thread when the server runs an event loop
        # (SQLite's fsync is a C call no greenlet can yield from; the program hands hall/app/wiring.real_threads).
        self.offload: Callable[[Callable[[], Any]], Any] = offload or _inline
        self._db = open_durable(path, _SCHEMA, SCHEMA_VERSION)
        try:
            self._last_seq = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise JournalError(f"{self.path}: cannot open the journal: {exc}") from exc

    @property
    def last_seq(self) -> int:
        """The sequence number of the last event appended (0 when empty)."""
        return self._last_seq

    def append(self, event: Any, role: str, at: str) -> Record:
        """Write ``event`` durably and return its ``Record``; raises ``JournalError`` if the disk refuses."""
        return self.append_all([event], role, at)[0]

    def append_all(self, events: list[Any], role: str, at: str) -> list[Record]:
        """Write several events in one transaction: after a crash, all of them are there or none."""
        rows = [(self._last_seq + i, e.type, json.dumps(to_payload(e), ensure_ascii=False, separators=(",", ":")), role, at)
                for i, e in enumerate(events, start=1)]
        def write() -> None:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany("INSERT INTO events (seq, type, payload, role, at) VALUES (?, ?, ?, ?, ?)", rows)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

        try:
            self.offload(write)
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: append failed: {exc}") from exc
        self._last_seq += len(rows)
        return [Record(seq, e, role, at) for (seq, *_), e in zip(rows, events)]

    def records(self, after: int = 0) -> Iterator[Record]:
        """Every record with ``seq > after``, in order."""
        cursor = self._db.execute("SELECT seq, type, payload, role, at FROM events WHERE seq > ? ORDER BY seq", (after,))
        for seq, type_name, payload, role, at in cursor:
            try:
                event = from_payload(type_name, json.loads(payload))
            except (KeyError, TypeError, ValueError) as exc:
                raise JournalError(f"{self.path}: event {seq} ({type_name}) unreadable: {exc}") from exc
            yield Record(seq, event, role, at)

    def integrity_check(self) -> str:
        """SQLite's own verdict on the file (``"ok"`` when sound)."""
        return self._db.execute("PRAGMA integrity_check").fetchone()[0]

    def close(self) -> None:
        self._db.close()
