"""The one way the mini-games keep a durable, append-only SQLite file (rooms, the tournament day).

WAL with ``synchronous=FULL``: a committed record survives a power cut, as the loto's own journal does
(which the mini-games may not import: they stand apart from the loto core).
"""
from __future__ import annotations

import sqlite3
from pathlib import Path


def open_durable(path: Path) -> sqlite3.Connection:
    """A connection to ``path`` (made with its folder if missing), autocommit, shareable by threads behind a lock."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    return db
