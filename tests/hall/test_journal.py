"""The journal: durable before anyone sees an event, replayable, and whole after a SIGKILL at any moment."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap

import pytest

from hall.errors import JournalError
from hall.events import BallDrawn, CardsSold
from hall.record.journal import SCHEMA_VERSION, Journal

CHILD = textwrap.dedent("""
    import random, sys
    from hall.cartons.cardbook import CardBook
    from hall.config import parse_config
    from hall.record.journal import Journal
    from hall.door.service import Hall
    hall = Hall(parse_config({}), Journal(sys.argv[1]), CardBook({}), voucher_secret=b"k" * 32)
    rnd = random.Random(int(sys.argv[2]))
    out = sys.stdout
    while True:
        if hall.evening.running is None:
            r = hall.start_partie(role="speaker")
            out.write(f"{r.seq} {r.type}\\n"); out.flush()
        left = [n for n in range(1, 91) if n not in hall.evening.running.draws]
        if not left:
            r = hall.clear(role="speaker", force=True)
        else:
            r = hall.draw(rnd.choice(left), role="speaker")
        out.write(f"{r.seq} {r.type}\\n"); out.flush()
""")


def test_wal_and_full_sync_and_schema_version(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert j._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    j.close()


def test_append_and_read_back_in_order(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    j.append(BallDrawn(42, 0, "keypad"), "speaker", "2026-11-25T20:00:00.000+00:00")
    j.append(CardsSold(("A-00001X", "B"), True), "desk", "2026-11-25T20:00:01.000+00:00")
    j.close()
    records = list(Journal(tmp_path / "j.sqlite").records())
    assert [r.seq for r in records] == [1, 2]
    assert records[0].event == BallDrawn(42, 0, "keypad") and records[0].role == "speaker"
    assert records[1].event == CardsSold(("A-00001X", "B"), True)


def test_unknown_schema_version_is_refused(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    j._db.execute("PRAGMA user_version=99")
    j.close()
    with pytest.raises(JournalError, match="version 99"):
        Journal(tmp_path / "j.sqlite")


def test_not_a_journal_is_refused(tmp_path):
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(JournalError):
        Journal(path)


@pytest.mark.slow
def test_every_acknowledged_event_survives_sigkill(tmp_path):
    """Kill the writer at random moments, many times; every event it acknowledged is there afterwards."""
    path = tmp_path / "j.sqlite"
    rnd = random.Random(7)
    acknowledged: dict[int, str] = {}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for round_ in range(12):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path), str(round_)], stdout=subprocess.PIPE, env=env, text=True
        )
        wanted = rnd.randint(1, 60)
        for _ in range(wanted):
            line = child.stdout.readline()
            if not line:
                break
            seq, kind = line.split()
            acknowledged[int(seq)] = kind
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        for line in child.stdout:  # acknowledged before the kill landed
            if line.endswith("\n"):
                seq, kind = line.split()
                acknowledged[int(seq)] = kind
        child.stdout.close()
        journal = Journal(path)
        assert journal.integrity_check() == "ok"
        stored = {r.seq: r.type for r in journal.records()}
        journal.close()
        missing = {s: k for s, k in acknowledged.items() if stored.get(s) != k}
        assert not missing, f"round {round_}: acknowledged events lost: {missing}"
        assert sorted(stored) == list(range(1, len(stored) + 1))  # no hole
    assert len(acknowledged) > 100


BATCH_CHILD = textwrap.dedent("""
    import sys
    from hall.events import CardsSold
    from hall.record.journal import Journal
    j = Journal(sys.argv[1])
    batch = j.last_seq
    while True:
        batch += 1
        j.append_all([CardsSold((f"B{batch}", str(k)), True) for k in range(5)], "admin", "t")
""")


@pytest.mark.slow
def test_a_batch_is_all_there_or_not_at_all_after_sigkill(tmp_path):
    """An award and its vouchers go in one transaction: a kill never leaves half of them."""
    path = tmp_path / "j.sqlite"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    rnd = random.Random(5)
    for _ in range(8):
        child = subprocess.Popen([sys.executable, "-c", BATCH_CHILD, str(path)], env=env)
        try:
            child.wait(timeout=rnd.uniform(0.3, 0.8))
        except subprocess.TimeoutExpired:
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
    journal = Journal(path)
    sizes: dict[str, int] = {}
    for record in journal.records():
        sizes[record.event.card_ids[0]] = sizes.get(record.event.card_ids[0], 0) + 1
    journal.close()
    assert sizes and set(sizes.values()) == {5}


def test_the_durable_write_runs_where_the_program_hands_it(tmp_path):
    """Under gevent the program runs SQLite's commit and fsync in a real thread: it hands the journal that
    runner when it opens it (issue 23: it was a hook set on the open journal from outside)."""
    ran: list[str] = []

    def offload(write):
        ran.append("write")
        return write()

    journal = Journal(tmp_path / "j.sqlite", offload=offload)
    journal.append(BallDrawn(number=7, index=1, source="console"), "speaker", "2026-11-21T20:00:00.000+00:00")
    assert ran == ["write"] and journal.last_seq == 1
    journal.close()
    again = Journal(tmp_path / "j.sqlite")
    assert [r.event.number for r in again.records()] == [7]
    again.close()
