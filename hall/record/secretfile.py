"""The one way the hall makes a secret file (voucher key, web key): random bytes, fsync'd, atomic, mode 0600."""

from __future__ import annotations

import secrets
from pathlib import Path

from hall.record.durable import write_file


def load_or_create_secret(path: Path, size: int = 32) -> bytes:
    """The secret in ``path``, made on first use by the hall's durable writer, linked into place (a power cut
    leaves no secret or the whole one; two processes racing keep the first one's)."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    write_file(path, secrets.token_bytes(size), mode=0o600, exclusive=True)
    return path.read_bytes()
