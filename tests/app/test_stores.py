"""Every durable file is opened by the runtime with the one opener: WAL, synchronous=FULL, the schema version in
SQLite's user_version; a file of another version is refused; files from before the version was kept are read."""

from __future__ import annotations

import ast
import json
import sqlite3
from pathlib import Path

import pytest

from hall.app.runtime import (
    JOURNAL_FILE,
    ROOMS_FILE,
    TOURNAMENT_FILE,
    Runtime,
    lobby_settings,
    open_room_store,
    open_rooms,
    open_tournament,
)
from hall.config import parse_config
from hall.errors import JournalError
from hall.minigames.osga.store import SCHEMA_VERSION as TOURNAMENT_VERSION
from hall.minigames.room_store import SCHEMA_VERSION as ROOMS_VERSION
from hall.record.journal import SCHEMA_VERSION as JOURNAL_VERSION
from hall.record.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
OPENERS = {
    JOURNAL_FILE: (Journal, JOURNAL_VERSION),
    ROOMS_FILE: (open_room_store, ROOMS_VERSION),
    TOURNAMENT_FILE: (open_tournament, TOURNAMENT_VERSION),
}


def pragmas(path: Path) -> tuple[str, int]:
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA journal_mode").fetchone()[0], db.execute("PRAGMA user_version").fetchone()[0]
    finally:
        db.close()


def test_the_runtime_opens_every_store_the_same_way_and_closes_them(tmp_path):
    runtime = Runtime.open(parse_config({"hall": {"data_dir": str(tmp_path)}}))
    try:
        assert runtime.tournament is not None and runtime.lobby.listing() == []
        synchronous = {
            name: db.execute("PRAGMA synchronous").fetchone()[0]
            for name, db in (
                (JOURNAL_FILE, runtime.journal._db),
                (ROOMS_FILE, runtime.rooms_store._db),
                (TOURNAMENT_FILE, runtime.tournament._db),
            )
        }
        assert synchronous == {JOURNAL_FILE: 2, ROOMS_FILE: 2, TOURNAMENT_FILE: 2}  # FULL
    finally:
        runtime.close()
    for name, (_, version) in OPENERS.items():
        assert pragmas(tmp_path / name) == ("wal", version), name
    with pytest.raises(sqlite3.ProgrammingError):  # closed with the runtime
        runtime.rooms_store.append({"kind": "late"})


@pytest.mark.parametrize("name", list(OPENERS))
def test_a_file_of_another_schema_version_is_refused(tmp_path, name):
    path = tmp_path / name
    opener, _ = OPENERS[name]
    opener(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.close()
    with pytest.raises(JournalError, match="version 99"):
        opener(path)


def test_files_from_before_the_version_was_kept_are_read_and_take_it(tmp_path):
    """games.sqlite kept its version in a table ``meta``, tournament.sqlite nowhere: both replay as before."""
    rooms = sqlite3.connect(tmp_path / ROOMS_FILE, isolation_level=None)
    rooms.execute("CREATE TABLE records (seq INTEGER PRIMARY KEY, at REAL NOT NULL, body TEXT NOT NULL)")
    rooms.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    rooms.execute("INSERT INTO meta VALUES ('schema', '1')")
    rooms.execute(
        "INSERT INTO records (at, body) VALUES (0, ?)",
        (json.dumps({"kind": "switch", "game": "linotte", "enabled": False}),),
    )
    rooms.close()
    tournament = sqlite3.connect(tmp_path / TOURNAMENT_FILE, isolation_level=None)
    tournament.execute(
        "CREATE TABLE events (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, data TEXT NOT NULL, "
        "at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))"
    )
    tournament.execute(
        "INSERT INTO events (kind, data) VALUES ('create', ?)", (json.dumps({"secret": "s" * 32, "title": "Club"}),)
    )
    tournament.close()
    config = parse_config({"hall": {"data_dir": str(tmp_path)}})
    lobby, store = open_rooms(tmp_path, lobby_settings(config.games))
    day = open_tournament(tmp_path / TOURNAMENT_FILE)
    assert (
        [g["game"] for g in lobby.games() if not g["enabled"]] == ["linotte"]
        and day.version == 1
        and day.day.title == "Club"
    )
    store.close()
    day.close()
    assert pragmas(tmp_path / ROOMS_FILE)[1] == ROOMS_VERSION
    assert pragmas(tmp_path / TOURNAMENT_FILE)[1] == TOURNAMENT_VERSION


def opens_a_store(path: Path) -> list[str]:
    """The calls of ``path`` that open a durable file themselves."""
    names = {
        "open_durable",
        "open_rooms",
        "open_room_store",
        "open_tournament",
        "open_lobby",
        "Journal",
        "RoomStore",
        "TournamentStore",
        "connect",
    }
    tree = ast.parse(path.read_text(), str(path))
    return [
        f"{node.lineno}: {getattr(node.func, 'id', None) or node.func.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) in names
        and not (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "connect"
            and getattr(node.func.value, "id", "") != "sqlite3"
        )
    ]


def test_the_web_and_the_drivers_open_no_store_they_receive_them():
    offenders = {
        str(p.relative_to(ROOT)): found
        for folder in ("display", "drivers")
        for p in (ROOT / folder).rglob("*.py")
        for found in [opens_a_store(p)]
        if found
    }
    assert offenders == {}


def test_a_service_that_fails_to_stop_is_logged_by_name_and_the_others_still_stop(tmp_path, caplog):
    class Part:
        def __init__(self, name, fails=False):
            self.name, self.fails, self.stopped = name, fails, False

        def start(self) -> None: ...
        def alive(self) -> bool:
            return True

        def stop(self) -> None:
            self.stopped = True
            if self.fails:
                raise OSError("port gone")

    runtime = Runtime.open(parse_config({"hall": {"data_dir": str(tmp_path)}}))
    first, jammed, last = Part("keypad"), Part("printer", fails=True), Part("scanner")
    runtime.services += [first, jammed, last]
    with caplog.at_level("ERROR", logger="loto-hall"):
        runtime.close()
    assert first.stopped and jammed.stopped and last.stopped
    failed = [r for r in caplog.records if "printer" in r.getMessage()]
    assert len(failed) == 1 and failed[0].exc_info[1].args == ("port gone",)
