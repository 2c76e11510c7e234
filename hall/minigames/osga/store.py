"""The tournament day's durable store: append-only events in SQLite (``tournament.sqlite``), replayed on open.

Each event is checked against the day first (:func:`apply_event` refuses it and nothing is written), then
committed (WAL, ``synchronous=FULL``: once :meth:`TournamentStore.submit` returns, a power cut keeps it),
then the day in memory moves on. The mini-games import nothing of the loto, so this is not the hall's journal: the
runtime opens the file with the hall's one opener (``hall/record/durable.py``: this ``SCHEMA`` at ``SCHEMA_VERSION``) and
hands the store its connection.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
from collections.abc import Mapping

from hall.minigames.osga.tournament import Day, apply_event
from hall.refusal import Rejected

MAX_EVENT_BYTES = 8192
SCHEMA_VERSION = 1  # a file from before the version was kept (user_version 0) has this schema

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq  INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
)
"""


class TournamentStore:
    """One tournament file; thread-safe. ``day`` is the current value; ``version`` counts events."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._lock = threading.Lock()
        self._db = db
        day = Day()
        for kind, data in self._db.execute("SELECT kind, data FROM events ORDER BY seq"):
            day = apply_event(day, kind, json.loads(data))
        self.day = day

    @property
    def version(self) -> int:
        """The number of events recorded so far."""
        return self.day.events

    def submit(self, kind: str, data: Mapping[str, object] | None = None) -> Day:
        """Check, record and apply one event; returns the new day or raises :class:`~hall.refusal.Rejected`."""
        data = dict(data or {})
        text = json.dumps(data, ensure_ascii=False, sort_keys=True)
        if len(text.encode()) > MAX_EVENT_BYTES:
            raise Rejected("tournoi/too_large")
        with self._lock:
            day = apply_event(self.day, kind, json.loads(text))  # exactly what a replay will read
            with self._db:  # one transaction: BEGIN … COMMIT
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("INSERT INTO events (kind, data) VALUES (?, ?)", (kind, text))
            self.day = day
            return day

    def new_day(self, title: str = "", games_per_session: int | None = None, sessions: int | None = None) -> Day:
        """Open a new day (a fresh secret for the table codes); earlier events stay in the file."""
        data: dict[str, object] = {"secret": secrets.token_urlsafe(24), "title": title or "Tournoi OSGA"}
        if games_per_session is not None:
            data["games_per_session"] = games_per_session
        if sessions is not None:
            data["sessions"] = sessions
        return self.submit("create", data)

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()
