"""The evening's record on /admin (docs/record.md): the live fingerprint, the board's copy asked for
(``POST /api/report/ticket``), the evening's close (``POST /api/evening/close``), and each archived evening's verdict (its journal's chain checked again, against the
fingerprint noted when it was archived).

An archived journal never changes: its verdict is kept per file (size, time, inode) once computed, and computed in
a real thread under gevent (``offload``, set by the composition root): a long journal's hashes never hold up a ball.
The check opens the journal read-only (hall/record/reading.py): it never migrates or chains what it judges.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from flask import Blueprint, jsonify

from display import auth as A
from display.current import hall
from display.services import services
from hall import EveningSummary, HallError, JournalCheck, Offload, archived_journal, shown_fingerprint, verify_file
from hall.ports import HallPort
from hall.snapshots import Fingerprint, TicketJob

bp = Blueprint("record", __name__, url_prefix="/api")
T = TypeVar("T")
JSON = dict[str, object]


def fingerprint_json(fp: Fingerprint) -> JSON:
    """A fingerprint as the API gives it: the groups to read aloud, the full hash, the record's number and time."""
    return {"shown": fp.shown, "hash": fp.hash if fp.seq else "", "seq": fp.seq, "at": fp.at}


def _inline(fn: Callable[[], T]) -> T:
    return fn()


class ArchiveVerdicts:
    """The archived evenings' verdicts, each computed once per journal file (``offload``: where the hashing runs)."""

    def __init__(self) -> None:
        self.offload: Offload = _inline
        self._lock = threading.Lock()
        self._known: dict[str, tuple[tuple[int, ...], JSON]] = {}

    def verdict(self, data_dir: str | Path, evening: EveningSummary) -> JSON:
        """``{"ok", "problem", "seq", "records", "fingerprint", "noted", "chained"}`` of an archived evening's journal."""
        path = archived_journal(data_dir, evening.name)
        stamp = _stamp(path) if path is not None else None
        if path is None or stamp is None:
            return {
                "ok": False,
                "problem": "no_journal",
                "seq": None,
                "records": 0,
                "fingerprint": "",
                "noted": False,
                "chained": None,
            }
        with self._lock:
            known = self._known.get(str(path))
        if known is not None and known[0] == stamp:
            return known[1]
        noted = evening.fingerprint or None
        try:
            found = self.offload(lambda: verify_file(path, noted))  # read-only: judged, never brought up
            answer = verdict_json(found, bool(noted))
        except (OSError, HallError):
            answer = {
                "ok": False,
                "problem": "unreadable",
                "seq": None,
                "records": 0,
                "fingerprint": "",
                "noted": bool(noted),
                "chained": None,
            }
        with self._lock:
            self._known[str(path)] = (stamp, answer)
        return answer


def verdict_json(found: JournalCheck, noted: bool) -> JSON:
    """A journal's findings as /admin shows them: the schema's problem first, else the chain's; ``chained``: when
    its first records were chained after the fact (the latest time)."""
    verdict = found.verdict
    chained = found.chained[-1] if found.chained else None
    return {
        "ok": found.ok,
        "problem": found.shape.problem or (verdict.problem if verdict is not None else None),
        "seq": verdict.seq if verdict is not None and found.shape.problem is None else None,
        "records": verdict.records if verdict is not None else 0,
        "fingerprint": shown_fingerprint(verdict.fingerprint) if verdict is not None and verdict.fingerprint else "",
        "noted": noted,
        "chained": None
        if chained is None
        else {"at": chained.at, "records": chained.records, "version": chained.version},
    }


def _stamp(path: Path) -> tuple[int, ...] | None:
    """What changes when a journal file changes: its size, time and inode, and its WAL's (``None``: no file)."""
    out: list[int] = []
    for name in (path, path.with_name(path.name + "-wal")):
        try:
            st = os.stat(name)
        except FileNotFoundError:
            if name == path:
                return None
            out += [-1, -1, -1]
            continue
        except OSError:
            return None
        out += [st.st_size, st.st_mtime_ns, st.st_ino]
    return tuple(out)


def archived_verdict(data_dir: str | Path, evening: EveningSummary) -> JSON:
    """The verdict of one archived evening, for /api/evenings."""
    return services().record.verdict(data_dir, evening)


@bp.post("/report/ticket")
def report_ticket():
    """Print the board's copy: journalled now (its record is the fingerprint it prints), printed by the queue."""
    role = A.require_right("report_ticket")
    h = hall()
    record = h.request_ticket(role=role)
    return jsonify(
        {"seq": record.seq, "fingerprint": fingerprint_json(Fingerprint(record.seq, record.at, record.hash))}
    ), 202


PRINT_WAIT_S = 3.0  # how long the close waits for the printer to take the board's copy before saying « en attente »


def printer_state(h: HallPort, ticket: int) -> str:
    """Where the board's copy asked for by record ``ticket`` stands: ``printed`` (the printer took it), ``queued``
    (a printer is there: it prints when it can) or ``none`` (no printer: the copy stays in the journal)."""
    if all(job.fingerprint.seq != ticket for job in h.tickets_to_print()):
        return "printed"
    device = h.device("printer")
    return "none" if device is None or device.state == "unconfigured" else "queued"


def printed_soon(h: HallPort, ticket: int, wait_s: float) -> str:
    """``printer_state`` once the printer had up to ``wait_s`` to take the copy (at once: no printer to wait for)."""
    deadline = time.monotonic() + wait_s
    state = printer_state(h, ticket)
    while state == "queued" and time.monotonic() < deadline:
        time.sleep(0.05)  # a greenlet's sleep under gevent: the print queue goes on meanwhile
        state = printer_state(h, ticket)
    return state


def closed_json(job: TicketJob, printer: str) -> JSON:
    """The closed evening as the close answers it: its board's copy, the fingerprint it prints, the printer's state."""
    return {
        "closed": True,
        "ticket": job.fingerprint.seq,
        "fingerprint": fingerprint_json(job.fingerprint),
        "printer": printer,
    }


@bp.get("/evening/close")
def evening_close_state():
    """Whether the evening is closed (speaker, admin), and then the board's copy's fingerprint and printer state."""
    A.require_right("close_evening")
    h = hall()
    job = h.closing()
    if job is None:
        return jsonify({"closed": False, "ticket": None, "fingerprint": None, "printer": None})
    return jsonify(closed_json(job, printer_state(h, job.fingerprint.seq)))


@bp.post("/evening/close")
def close_evening():
    """« Clôturer la soirée » (speaker, admin): ``evening:closed`` and the board's copy journalled, the copy printed by
    the queue; 201 with the close's record number, the fingerprint the copy prints (the projector shows it) and
    whether the printer took it (``printed``), will print it (``queued``) or there is none (``none``)."""
    role = A.require_right("close_evening")
    h = hall()
    record = h.close_evening(role=role)
    job = h.closing()
    assert job is not None  # journalled with the close, in its transaction
    body = closed_json(job, printed_soon(h, job.fingerprint.seq, PRINT_WAIT_S))
    return jsonify({"seq": record.seq, **body}), 201
