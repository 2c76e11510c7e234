"""The one way a durable SQLite file of the hall is opened: the evening's journal, the rooms', the tournament's.

WAL with ``synchronous=FULL``: a committed write survives a power cut. One schema-version style for every file:
SQLite's own ``user_version``. A new file gets its schema and its version; a file of another version is refused,
never read with a schema it does not have. The mini-games may not import the core: the runtime
(``hall/app/runtime.py``) opens their files here and hands them the connection.
"""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from hall.errors import JournalError


def open_durable(path: str | os.PathLike[str], schema: str, version: int) -> sqlite3.Connection:
    """A connection to ``path`` (made with its folder if missing), autocommit, shareable by threads behind its
    owner's lock; ``schema`` (``CREATE … IF NOT EXISTS``) is run on a file whose ``user_version`` is 0 (new, or
    from before its version was kept), which then takes ``version``. Raises ``JournalError`` for a file that is
    not SQLite or has another version."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = None
    try:
        db = sqlite3.connect(os.fspath(path), isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        found = db.execute("PRAGMA user_version").fetchone()[0]
        if found == 0:
            db.executescript(schema)
            db.execute(f"PRAGMA user_version={int(version)}")
        elif found != version:
            raise JournalError(f"{path}: schema version {found}, this loto-hall reads {version}")
        return db
    except sqlite3.DatabaseError as exc:
        if db is not None:
            db.close()
        raise JournalError(f"{path}: cannot open: {exc}") from exc
    except JournalError:
        if db is not None:
            db.close()
        raise
