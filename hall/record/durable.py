"""The hall's two ways of writing to disk so that a power cut leaves the old version or the new one, never less.

* **SQLite files** (the evening's journal, the rooms', the tournament's): ``open_durable``. WAL with
  ``synchronous=FULL``: a committed write survives a power cut. One schema-version style for every file: SQLite's
  own ``user_version``. A new file gets its schema and its version; an older one is brought up by its upgrades
  (in one transaction, at its first open by this version); a file of an unknown version is refused, never read
  with a schema it does not have. The mini-games may not import the core: the runtime (``hall/app/runtime.py``)
  opens their files here and hands them the connection.
* **Every other file** (sessions, PIN checks, the login guard, secrets, certificates, the card book, reports,
  exports, archived evenings' summaries…): ``write_file``, ``write_json`` or ``replacing`` (for a writer that
  streams). The data go to a temporary file in the same folder, are ``fsync``'d, the file is renamed over the
  old one (or linked in place, ``exclusive``) and the folder is ``fsync``'d so that the new name is on disk too.
  A rename without the first fsync comes back from a real power cut as an empty file under the new name
  (``sessions.json`` did, on LazyFS); without the second, as the old file.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from hall.errors import JournalError

Upgrade = Callable[[sqlite3.Connection], None]
TEMP_SUFFIX = ".tmp-durable"  # a temporary file a cut left behind: swept by ``sweep_temporaries``
_TEMP = re.compile(r"\..+\.[A-Za-z0-9_]+" + re.escape(TEMP_SUFFIX))


def open_durable(
    path: str | os.PathLike[str], schema: str, version: int, upgrades: Mapping[int, Upgrade] | None = None
) -> sqlite3.Connection:
    """A connection to ``path`` (made with its folder if missing), autocommit, shareable by threads behind its
    owner's lock. ``schema`` (``CREATE … IF NOT EXISTS``) is run on a file whose ``user_version`` is 0 (new, or
    from before its version was kept); ``upgrades[v]`` brings a file of version ``v`` to ``v + 1``, and every
    upgrade also runs, in order, on a file of version 0 after its schema (so each must be a no-op on a new file).
    All of it in one transaction, then the file takes ``version``. Raises ``JournalError`` for a file that is not
    SQLite or has a version this program cannot read."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    steps = dict(upgrades or {})
    db = None
    try:
        db = sqlite3.connect(os.fspath(path), isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        found = db.execute("PRAGMA user_version").fetchone()[0]
        if found == 0:
            db.executescript(schema)  # CREATE … IF NOT EXISTS: run again by a second opener, harmless
        if found != version:
            _bring_up(db, path, version, steps)
        return db
    except sqlite3.DatabaseError as exc:
        if db is not None:
            db.close()
        raise JournalError(f"{path}: cannot open: {exc}") from exc
    except JournalError:
        if db is not None:
            db.close()
        raise


def _bring_up(db: sqlite3.Connection, path: str | os.PathLike[str], version: int, steps: Mapping[int, Upgrade]) -> None:
    """Upgrade the file to ``version`` in one transaction (two processes opening it at once: the second finds it
    done)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        found = db.execute("PRAGMA user_version").fetchone()[0]
        if found == 0:
            todo = sorted(steps)
        elif found < version and all(v in steps for v in range(found, version)):
            todo = list(range(found, version))
        elif found != version:
            raise JournalError(f"{path}: schema version {found}, this loto-hall reads {version}")
        else:
            todo = []
        for step in todo:
            steps[step](db)
        db.execute(f"PRAGMA user_version={int(version)}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


# ---- side files ----------------------------------------------------------------------------------------------
def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Make the names in ``folder`` (a file renamed, linked, moved in or out) durable."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def replacing(
    path: str | os.PathLike[str],
    *,
    text: bool = False,
    mode: int = 0o644,
    owner: tuple[int, int] | None = None,
    exclusive: bool = False,
    newline: str | None = None,
) -> Iterator[IO[Any]]:
    """A file object to write ``path``'s new content into (binary, or UTF-8 text with ``text``). When the block
    ends, the content is fsync'd, given ``mode`` (and ``owner``: uid, gid), renamed over ``path`` and the folder
    fsync'd; if the block raises, ``path`` is left as it was. ``exclusive``: linked into place instead, an existing
    ``path`` is kept (two processes racing keep the first one's). The temporary file is never followed through a
    link (``O_EXCL``)."""
    target = Path(path)
    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=folder)
    try:
        fh: IO[Any] = os.fdopen(fd, "w", encoding="utf-8", newline=newline) if text else os.fdopen(fd, "wb")
        with fh:
            yield fh
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            if owner is not None:
                os.fchown(fh.fileno(), *owner)
            os.fsync(fh.fileno())
        if exclusive:
            with contextlib.suppress(FileExistsError):
                os.link(temporary, target)
            os.unlink(temporary)
        else:
            os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    fsync_dir(folder)


def write_file(
    path: str | os.PathLike[str],
    data: bytes | str,
    *,
    mode: int = 0o644,
    owner: tuple[int, int] | None = None,
    exclusive: bool = False,
) -> None:
    """``path`` holds ``data`` (text is written as UTF-8), whole, after a power cut at any moment (see ``replacing``)."""
    with replacing(path, mode=mode, owner=owner, exclusive=exclusive) as fh:
        fh.write(data.encode("utf-8") if isinstance(data, str) else data)


def write_json(
    path: str | os.PathLike[str],
    data: object,
    *,
    mode: int = 0o600,
    indent: int | None = None,
    owner: tuple[int, int] | None = None,
) -> None:
    """``path`` holds ``data`` as UTF-8 JSON, whole, after a power cut at any moment (mode 0600 by default: the
    hall's side files hold sessions and secrets' fingerprints)."""
    text = json.dumps(data, ensure_ascii=False, indent=indent, separators=None if indent else (",", ":"))
    write_file(path, text, mode=mode, owner=owner)


def sweep_temporaries(folder: str | os.PathLike[str]) -> int:
    """Remove the temporary files a power cut left in ``folder`` (never the files they were to replace); returns
    how many. Run where nothing else writes at that moment (the runtime, holding the data folder's lock)."""
    removed = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.is_file(follow_symlinks=False) and _TEMP.fullmatch(entry.name):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)
                    removed += 1
    return removed


def flush_times(folder: str | os.PathLike[str], count: int) -> list[float]:
    """The seconds each of ``count`` flushes of a small file in ``folder`` took (the pre-flight's measure of the
    storage: every record the hall keeps waits for one). The file is removed afterwards."""
    fd, temporary = tempfile.mkstemp(prefix=".flush-check.", suffix=TEMP_SUFFIX, dir=folder)
    times = []
    try:
        for i in range(count):
            os.write(fd, b"%04d\n" % i)
            start = time.perf_counter()
            os.fsync(fd)
            times.append(time.perf_counter() - start)
    finally:
        os.close(fd)
        os.unlink(temporary)
    return times
