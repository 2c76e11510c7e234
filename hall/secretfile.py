"""The one way the hall makes a secret file (voucher key, web key): random bytes, fsync'd, atomic, mode 0600."""
from __future__ import annotations

import os
import secrets
from pathlib import Path


def load_or_create_secret(path: Path, size: int = 32) -> bytes:
    """The secret in ``path``, made on first use: written to a 0600 temporary file, fsync'd, then linked into
    place (a power cut leaves no secret or the whole one; two processes racing keep the first one's)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(secrets.token_bytes(size))
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)
    dirfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dirfd)          # the new name is durable too
    finally:
        os.close(dirfd)
    return path.read_bytes()
