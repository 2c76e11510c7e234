"""The durable journal of the rooms: ``games.sqlite`` in the data folder, one JSON record per change.

WAL and ``synchronous=FULL``: :meth:`RoomStore.append` returns once the record is on disk, so the lobby hands
a record here *before* anyone sees the change. Opening the store and replaying its records gives the same
rooms at the same versions (chance outcomes are in the records; the RNG is never needed again). The file is
opened by the runtime with the hall's one opener (``hall/record/durable.py``: this ``SCHEMA`` at ``SCHEMA_VERSION``),
which the mini-games may not import: the store is handed its connection.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
from collections.abc import Iterator

from hall.minigames.lobby import Lobby, LobbySettings, Think, inline
from hall.minigames.lobby_state import Record

SCHEMA_VERSION = 1
# A file from before the version was kept in user_version also holds a table ``meta`` (schema = 1), left unread.
SCHEMA = "CREATE TABLE IF NOT EXISTS records (seq INTEGER PRIMARY KEY, at REAL NOT NULL, body TEXT NOT NULL);"


class RoomStore:
    """Append-only records in SQLite; safe to call from several threads (one connection, one lock)."""

    def __init__(self, db: sqlite3.Connection):
        self._lock = threading.Lock()
        self._db = db

    def append(self, record: Record) -> None:
        """Write ``record`` durably (committed and synced) or raise."""
        body = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            self._db.execute("INSERT INTO records (at, body) VALUES (?, ?)", (time.time(), body))

    def records(self) -> Iterator[Record]:
        """Every record, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT body FROM records ORDER BY seq").fetchall()
        for (body,) in rows:
            yield json.loads(body)

    def close(self) -> None:
        with self._lock:
            self._db.close()


def open_lobby(
    store: RoomStore, settings: LobbySettings, rng: random.Random | None = None, think: Think = inline
) -> Lobby:
    """The lobby replayed from ``store``, journalling every later change there (``rng``: the system's generator
    unless a test hands in a seeded one; ``think``: how a bot's decision runs)."""
    return Lobby(settings, journal=store.append, rng=rng, records=store.records(), think=think)
