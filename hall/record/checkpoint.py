"""The evening's state kept beside the journal (``checkpoint.bin``), so that a restart replays only the records
after it: ready to draw sooner after a power cut (docs/benchmarks.md, « Back after a power cut »).

A checkpoint is a cache, never a source: the journal alone says what happened. It is used only when everything
about it holds, else it is ignored and the whole journal replayed (a slower start, never a wrong state):

- **sealed** with the hall's key (``voucher.key``): an HMAC-SHA256 of its whole content under a key derived for
  checkpoints alone. A file changed, forged or copied from another hall fails the seal and is never unpickled;
- **whole**: written by the durable writer (a temporary file fsync'd, renamed, the folder fsync'd): a power cut
  leaves the old one or the new one; a torn or truncated one fails the seal;
- **of this journal**: it names the record it was taken after (``seq``) and that record's hash, which chains every
  record before it: the journal's record ``seq`` must have that very hash (another evening's checkpoint, a journal
  cut shorter than it, a journal rewritten: all ignored);
- **of this program**: made by the same code (the hall's sources, their sizes and times) and the same replay
  settings (``made_with``): a loto-hall updated, or a rule changed in the config, replays the whole journal.

``loto-hall verify`` never reads it (``hall/record/reading.py``): the chain is checked from the journal alone.
Pure, stdlib only; what the state is and how it is rebuilt is the door's (``hall/door/state.py``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import io
import logging
import os
import pickle
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hall.record.durable import write_file

log = logging.getLogger("loto-hall.checkpoint")

FILE = "checkpoint.bin"
MAGIC = b"loto-hall checkpoint 1\n"
_SEAL = hashlib.sha256().digest_size


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The state after the record ``seq`` (whose hash is ``hash``), as the door captured it."""

    seq: int
    hash: str
    state: Any


def _key(secret: bytes) -> bytes:
    """The checkpoints' own key, derived from the hall's secret (a voucher's code is never a checkpoint's seal)."""
    return hmac.new(secret, b"loto-hall/checkpoint", hashlib.sha256).digest()


@cache
def code_stamp() -> str:
    """A digest of the hall's code as installed (every ``hall/**/*.py``: its path, size and time) and of Python's
    version: the classes a checkpoint holds are this code's, another code replays the whole journal."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for folder, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                st = os.stat(os.path.join(folder, name))
                h.update(f"{os.path.relpath(folder, root)}/{name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


@cache
def _slots_of(cls: type) -> tuple[str, ...] | None:
    """The fields of a dataclass with ``slots=True`` (``None`` for any other class)."""
    if not dataclasses.is_dataclass(cls) or "__slots__" not in vars(cls):
        return None
    return tuple(f.name for f in dataclasses.fields(cls))


def _rebuilt(cls: type, values: tuple) -> object:
    """A slotted dataclass's instance from its fields' values, as it was pickled (its ``__init__`` not run again)."""
    obj: object = object.__new__(cls)
    for name, value in zip(_slots_of(cls) or (), values):
        object.__setattr__(obj, name, value)
    return obj


class _Pickler(pickle.Pickler):
    """Slotted dataclasses (an evening's 20 000 claim records) pickled as their values: the standard library's
    ``__setstate__`` reads ``dataclasses.fields`` once per instance, most of a checkpoint's load."""

    def reducer_override(self, obj: object) -> Any:
        cls: type = type(obj)
        names = _slots_of(cls)
        if names is None:
            return NotImplemented
        return _rebuilt, (cls, tuple(getattr(obj, name) for name in names))


def seal(secret: bytes, checkpoint: Checkpoint, made_with: str) -> bytes:
    """The bytes of ``checkpoint`` as kept on disk: the magic, the seal, the pickled body."""
    out = io.BytesIO()
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(
        (code_stamp(), made_with, checkpoint.seq, checkpoint.hash, checkpoint.state)
    )
    body = out.getvalue()
    return MAGIC + hmac.new(_key(secret), MAGIC + body, hashlib.sha256).digest() + body


def unseal(secret: bytes, data: bytes, made_with: str) -> Checkpoint | None:
    """The checkpoint ``data`` holds when its seal, its code and its settings hold; ``None`` (and why, logged)."""
    if not secret:
        return _ignored("no key to check its seal")
    if not data.startswith(MAGIC) or len(data) <= len(MAGIC) + _SEAL:
        return _ignored("not a checkpoint, or cut short")
    mark, body = data[len(MAGIC) : len(MAGIC) + _SEAL], data[len(MAGIC) + _SEAL :]
    if not hmac.compare_digest(mark, hmac.new(_key(secret), MAGIC + body, hashlib.sha256).digest()):
        return _ignored("its seal does not hold (changed, torn, or another hall's)")
    try:  # sealed with this hall's key: written by this hall
        stamp, made, seq, digest, state = pickle.loads(body)
    except Exception as exc:
        return _ignored(f"unreadable ({exc.__class__.__name__})")
    if stamp != code_stamp():
        return _ignored("made by another version of the hall's code")
    if made != made_with:
        return _ignored("made with other replay settings")
    if not isinstance(seq, int) or not isinstance(digest, str):
        return _ignored("unreadable")
    return Checkpoint(seq, digest, state)


def _ignored(why: str) -> Checkpoint | None:
    log.warning("point de reprise ignoré (%s) : tout le journal est relu", why)
    return None


def write(folder: Path, secret: bytes, checkpoint: Checkpoint, made_with: str) -> None:
    """Keep ``checkpoint`` in ``folder`` (durably, whole, replacing the one before)."""
    keep_sealed(folder, seal(secret, checkpoint, made_with))


def keep_sealed(folder: Path, data: bytes) -> None:
    """Keep a sealed checkpoint's bytes in ``folder`` (durably, whole, replacing the one before)."""
    write_file(Path(folder) / FILE, data, mode=0o600)


def read(folder: Path, secret: bytes, made_with: str) -> Checkpoint | None:
    """The checkpoint kept in ``folder``, when there is one and it holds (see ``unseal``); ``None`` otherwise."""
    try:
        data = (Path(folder) / FILE).read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return _ignored(f"unreadable: {exc}")
    return unseal(secret, data, made_with)
