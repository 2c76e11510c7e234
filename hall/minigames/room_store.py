"""The durable journal of the rooms: ``games.sqlite`` in the data folder, one JSON record per change.

WAL and ``synchronous=FULL``: :meth:`RoomStore.append` returns once the record is on disk, so the lobby hands
a record here *before* anyone sees the change. Opening the store and replaying its records gives the same
rooms at the same versions (chance outcomes are in the records; the RNG is never needed again).
"""
from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from hall.minigames.durable import open_durable
from hall.minigames.lobby import Lobby, LobbySettings, Think, inline

FILE_NAME = "games.sqlite"
SCHEMA = 1


class RoomStore:
    """Append-only records in SQLite; safe to call from several threads (one connection, one lock)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._db = open_durable(self.path)
        self._db.execute("CREATE TABLE IF NOT EXISTS records (seq INTEGER PRIMARY KEY, at REAL NOT NULL, "
                         "body TEXT NOT NULL)")
        self._db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
        found = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0]
        if found != str(SCHEMA):
            raise RuntimeError(f"{self.path}: room journal schema {found}, expected {SCHEMA}")

    def append(self, record: dict) -> None:
        """Write ``record`` durably (committed and synced) or raise."""
        body = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            self._db.execute("INSERT INTO records (at, body) VALUES (?, ?)", (time.time(), body))

    def records(self) -> Iterator[dict]:
        """Every record, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT body FROM records ORDER BY seq").fetchall()
        for (body,) in rows:
            yield json.loads(body)

    def close(self) -> None:
        with self._lock:
            self._db.close()


def open_lobby(data_dir: str | Path, settings: LobbySettings, rng: random.Random | None = None,
               think: Think = inline) -> tuple[Lobby, RoomStore]:
    """The lobby replayed from ``data_dir/games.sqlite``, journalling every later change there (``rng``: the
    system's generator unless a test hands in a seeded one; ``think``: how a bot's decision runs)."""
    store = RoomStore(Path(data_dir) / FILE_NAME)
    lobby = Lobby(settings, journal=store.append, rng=rng, records=store.records(), think=think)
    return lobby, store
