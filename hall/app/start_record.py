"""How long the hall's last start took, kept in the data folder (``last_start.json``, written whole by the durable
writer), said by ``loto-hall doctor``: from the creation of the process that ran ``loto-hall serve`` (the
interpreter's start and the imports count: on a Pi they are part of the wait) to the moment the HTTP port answered.

Not in the journal: a start is not an event of the evening, and ``verify`` must read the journal a cut left as it was.
A worker that gunicorn respawned long after the command began measures from its own creation instead.
"""

from __future__ import annotations

import json
import math
import os
import time
from datetime import UTC, datetime
from pathlib import Path

from hall.record.durable import write_json

FILE = "last_start.json"
RESPAWN_AFTER_S = 120.0  # wiring.READY_TIMEOUT_S: a start that took longer was a worker respawned later

_began: list[float] = []  # the serving command's creation (wall clock), inherited by its forked workers


def process_created(pid: int | str = "self") -> float:
    """When process ``pid`` was created (seconds since the epoch), from ``/proc``; now where ``/proc`` is missing.
    Its age is read against ``/proc/uptime`` (hundredths of a second), not the boot time of ``/proc/stat``, which
    is whole seconds: a start measured from it was up to a second too long."""
    try:
        ticks = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
        now, uptime = time.time(), float(Path("/proc/uptime").read_text().split()[0])
    except (OSError, IndexError, ValueError):
        return time.time()
    return now - max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK"))


def mark_began() -> None:
    """Called first thing by ``loto-hall serve``: the start is measured from this process's creation."""
    _began[:] = [process_created()]


def record_ready(data_dir: Path, now: float | None = None) -> float:
    """Keep, in ``data_dir``, how many seconds this start took until the port answered; returns them."""
    now = time.time() if now is None else now
    began = _began[0] if _began else process_created()
    if now - began > RESPAWN_AFTER_S:
        began = process_created()
    seconds = round(max(0.0, now - began), 3)
    write_json(Path(data_dir) / FILE, {"ready_s": seconds, "at": datetime.fromtimestamp(now, UTC).isoformat()})
    return seconds


def last_start(data_dir: Path) -> tuple[float, datetime] | None:
    """(seconds, when) of the last start kept in ``data_dir``; None when none is kept or the file does not read."""
    try:
        kept = json.loads((Path(data_dir) / FILE).read_text(encoding="utf-8"))
        seconds = float(kept["ready_s"])
        if not math.isfinite(seconds) or seconds < 0:
            return None
        return seconds, datetime.fromisoformat(kept["at"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
