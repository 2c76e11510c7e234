"""The journal is a hash chain (issue 33): a record changed (payload, role or time), removed in the middle or at the
end, or a pair swapped after the night is caught and named by ``verify``; a journal from before the chain is
chained at its first open, once, and says so; a whole evening's journal verifies; the board's copy is journalled
with the figures it prints and its record's hash is the fingerprint."""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hall.record import chain
from hall.record.journal import SCHEMA_VERSION, Journal, version
from hall.record.reading import Chaining, verify_file
from hall.refusal import Rejected
from tests.drivers.paper import TIE_CARDS, X_ID, Y_ID, some_cards

T0 = "2026-11-21T19:00:00.000+00:00"


@pytest.fixture
def played(make_hall, tmp_path):
    """A whole evening played through a real Hall: sales, draws, a false claim, a tie, an award, a PIN change, a
    programme edit, a démarquez, vouchers printed and redeemed; returns the journal's path (closed)."""
    extra = some_cards(6, series="F", seed=11)
    hall = make_hall(
        {**TIE_CARDS, **extra}, programme=[{"lots": [{"kind": "quine", "label": "Jambon", "value_eur": 30}]}]
    )
    hall.sell([X_ID, Y_ID], role="desk", payment="especes", cents=600)
    hall.sell([next(iter(extra))], role="desk", payment="carte", cents=300)
    hall.start_partie(role="speaker")
    for n in (1, 12, 23, 34, 5, 16, 27, 38):
        hall.draw(n, role="speaker")
    hall.announce_claim(role="speaker")
    hall.check_claim(next(iter(extra)), role="controller")
    hall.resume(role="speaker")
    hall.draw(45, role="speaker")
    hall.check_claim(X_ID, role="controller")
    hall.check_claim(Y_ID, role="controller")
    award = hall.award(role="speaker")
    hall.clear(role="speaker")
    hall.change_pin("speaker", "246813", role="admin")
    hall.voucher_printed(award.vouchers[0], role="device")
    hall.redeem(award.vouchers[0], role="desk")
    hall.request_ticket(role="admin")
    hall.journal.close()
    return tmp_path / "journal.sqlite"


def tamper(path, sql: str, *args) -> None:
    db = sqlite3.connect(path)
    db.execute(sql, args)
    db.commit()
    db.close()


def verdict_of(path, fingerprint=None) -> chain.Verdict:
    found = verify_file(path, fingerprint)
    assert found.shape.problem is None
    return found.verdict


def rows(path) -> list[chain.Row]:
    j = Journal(path)
    try:
        return list(j.rows())
    finally:
        j.close()


def test_a_whole_evening_verifies_and_its_fingerprint_is_the_last_record_s_hash(played):
    stored = rows(played)
    found = verify_file(played)
    verdict = found.verdict
    assert found.ok and found.chained == () and verdict.records == len(stored) > 20
    assert verdict.fingerprint == stored[-1].hash and verdict.last_seq == stored[-1].seq
    assert [r.prev for r in stored] == [chain.GENESIS] + [r.hash for r in stored[:-1]]
    # anyone can recompute a record's hash from its columns with another tool
    r = stored[4]
    body = json.dumps(
        {"at": r.at, "payload": json.loads(r.payload), "prev": r.prev, "role": r.role, "seq": r.seq, "type": r.type},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    assert hashlib.sha256(body.encode()).hexdigest() == r.hash
    assert verdict_of(played, chain.shown(stored[-1].hash)).ok


@pytest.mark.parametrize(
    "column, value", [("payload", None), ("role", "speaker"), ("at", "2026-11-21T19:00:00.001+00:00")]
)
def test_a_changed_payload_role_or_time_is_named(played, column, value):
    target = next(r for r in rows(played) if r.type == "sales:sale_recorded")
    if column == "payload":  # 6 € in cash written down as 2 €
        value = target.payload.replace('"cents":600', '"cents":200')
        assert value != target.payload
    tamper(played, f"UPDATE events SET {column} = ? WHERE seq = ?", value, target.seq)
    verdict = verdict_of(played)
    assert (verdict.problem, verdict.seq, verdict.type) == ("changed", target.seq, "sales:sale_recorded")
    assert verdict.records == target.seq - 1


def test_a_record_removed_in_the_middle_is_named_renumbered_or_not(played, tmp_path):
    stored = rows(played)
    k = len(stored) // 2
    tamper(played, "DELETE FROM events WHERE seq = ?", k)
    verdict = verdict_of(played)
    assert (verdict.problem, verdict.seq, verdict.expected_seq) == ("missing", k + 1, k)
    tamper(played, "UPDATE events SET seq = seq - 1 WHERE seq > ?", k)  # and the numbers closed up
    verdict = verdict_of(played)
    assert (verdict.problem, verdict.seq) == ("unlinked", k)


def test_a_record_cut_off_the_end_shows_only_against_the_fingerprint_on_paper(played):
    stored = rows(played)
    paper = chain.shown(stored[-1].hash)
    tamper(played, "DELETE FROM events WHERE seq = ?", stored[-1].seq)
    assert verdict_of(played).ok  # the chain alone cannot tell
    verdict = verdict_of(played, paper)
    assert verdict.problem == "fingerprint_missing" and verdict.last_seq == stored[-2].seq


def test_a_chain_rewritten_after_a_change_shows_only_against_the_fingerprint(played):
    stored = rows(played)
    paper = chain.shown(stored[-1].hash)
    target = next(r for r in stored if r.type == "sales:sale_recorded")
    forged = [
        (
            r.seq,
            r.type,
            r.payload.replace('"cents":600', '"cents":200') if r.seq == target.seq else r.payload,
            r.role,
            r.at,
        )
        for r in stored
    ]
    db = sqlite3.connect(played)
    db.executemany(
        "UPDATE events SET payload = ?, prev = ?, hash = ? WHERE seq = ?",
        [(f[2], prev, digest, seq) for f, (prev, digest, seq) in zip(forged, chain.chain(forged))],
    )
    db.commit()
    db.close()
    assert verdict_of(played).ok
    assert verdict_of(played, paper).problem == "fingerprint_missing"


def test_a_swapped_pair_is_named(played):
    stored = rows(played)
    a, b = stored[10], stored[11]
    db = sqlite3.connect(played)
    db.execute("UPDATE events SET seq = -1 WHERE seq = ?", (a.seq,))
    db.execute("UPDATE events SET seq = ? WHERE seq = ?", (a.seq, b.seq))
    db.execute("UPDATE events SET seq = ? WHERE seq = -1", (b.seq,))
    db.commit()
    db.close()
    verdict = verdict_of(played)
    assert verdict.problem in ("changed", "unlinked") and verdict.seq == a.seq


def test_a_fingerprint_on_paper_of_an_earlier_moment_still_matches_a_longer_journal(played):
    stored = rows(played)
    verdict = verdict_of(played, stored[20].hash[:16].upper())
    assert verdict.ok and verdict.matched_seq == stored[20].seq and verdict.after == len(stored) - 21
    assert verdict_of(played, "not hex at all").problem == "bad_fingerprint"
    assert verdict_of(played, "abcd").problem == "bad_fingerprint"  # too short to mean anything


def test_a_journal_from_before_the_chain_is_chained_at_its_first_open_once_and_says_so_in_the_chain(tmp_path, caplog):
    path = tmp_path / "journal.sqlite"
    old_journal(path, 5)
    with caplog.at_level(logging.WARNING, logger="loto-hall.journal"):
        journal = Journal(path)
    assert "5 enregistrement(s) chaîné(s)" in caplog.text
    assert journal._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    (mark,) = [r for r in journal.records() if r.type == "record:chained"]
    assert (mark.seq, mark.role, mark.event.records, mark.event.schema) == (6, "system", 5, 1)
    assert mark.event.version == version() != "?"
    journal.append(journal_event(7), "speaker", T0)
    journal.close()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="loto-hall.journal"):
        found = verify_file(path)
    assert found.ok and found.verdict.records == 7 and caplog.text == ""  # once
    assert found.chained == (Chaining(mark.at, 5, version(), 6),)
    # every old text is stored as the chain reads it
    assert all(chain.read_text(r.payload) for r in rows(path))
    tamper(path, "UPDATE events SET payload = replace(payload, '\"number\":3', '\"number\":33') WHERE seq = 3")
    assert (verdict_of(path).problem, verdict_of(path).seq) == ("changed", 3)


def old_journal(path, count: int) -> None:
    """A journal as loto-hall wrote it before the chain (schema 1: no prev, no hash; spaced JSON)."""
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, payload TEXT NOT NULL, "
        "role TEXT NOT NULL, at TEXT NOT NULL)"
    )
    db.executemany(
        "INSERT INTO events VALUES (?, 'draw:ball_drawn', ?, 'speaker', ?)",
        [(i, json.dumps({"number": i, "index": i - 1, "source": "console"}), T0) for i in range(1, count + 1)],
    )
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()


def journal_event(n: int):
    from hall.events import BallDrawn

    return BallDrawn(n, n - 1, "console")


@given(st.data())
def test_any_single_change_is_named_at_its_record(tmp_path_factory, data):
    """A brute-force oracle: whichever record and column is changed, the first record that differs is named."""
    path = tmp_path_factory.mktemp("j") / "journal.sqlite"
    journal = Journal(path)
    for n in range(1, data.draw(st.integers(2, 12)) + 1):
        journal.append(journal_event(n), "speaker", T0)
    journal.close()
    k = data.draw(st.integers(1, n))
    column = data.draw(st.sampled_from(["type", "payload", "role", "at", "hash"]))
    value = {
        "type": "draw:undone",
        "payload": json.dumps({"number": 99, "index": 0, "source": "console"}),
        "role": "admin",
        "at": T0.replace("19:", "18:"),
        "hash": "f" * 64,
    }[column]
    tamper(path, f"UPDATE events SET {column} = ? WHERE seq = ?", value, k)
    verdict = verdict_of(path)
    assert not verdict.ok and verdict.seq == k and verdict.records == k - 1


def test_the_board_s_copy_is_journalled_with_its_figures_and_its_record_is_the_fingerprint(make_hall):
    hall = make_hall({**TIE_CARDS}, rules={})
    hall.sell([X_ID], role="desk", payment="especes", cents=500)
    hall.sell([Y_ID], role="desk", payment="cheque", cents=400)
    with pytest.raises(Rejected, match="forbidden"):
        hall.request_ticket(role="desk")
    record = hall.request_ticket(role="admin")
    (job,) = hall.tickets_to_print()
    assert job.fingerprint == hall.fingerprint() and job.fingerprint.seq == record.seq
    assert job.fingerprint.hash == hall.journal.last_hash and len(job.fingerprint.shown) == 24
    e = job.request
    assert (e.receipts_cents, dict(e.by_payment)["cheque"], e.cards_sold, e.partie) == (900, 400, 2, 0)
    hall.ticket_printed(record.seq, role="device")
    assert hall.tickets_to_print() == () and hall.fingerprint().seq == record.seq + 1
    with pytest.raises(Rejected):
        hall.ticket_printed(record.seq, role="device")


def test_a_ticket_asked_for_by_itself_at_each_partie_s_end_survives_a_restart(tmp_path):
    from hall.cartons.cardbook import CardBook
    from hall.config import parse_config
    from hall.door.service import Hall

    config = parse_config({"hall": {"data_dir": str(tmp_path)}, "report": {"ticket_each_partie": True}})
    hall = Hall(config, Journal(tmp_path / "journal.sqlite"), CardBook(dict(TIE_CARDS)), voucher_secret=b"s" * 32)
    hall.start_partie(role="speaker")
    for n in (1, 12, 23):
        hall.draw(n, role="speaker")
    cleared = hall.clear(role="speaker", force=True)
    hall.journal.close()
    again = Hall(config, Journal(tmp_path / "journal.sqlite"), CardBook(dict(TIE_CARDS)), voucher_secret=b"s" * 32)
    (job,) = again.tickets_to_print()  # the printer was away: after the restart it is still owed
    assert job.request.auto and (job.request.partie, job.request.balls) == (1, 3)
    assert job.fingerprint.seq == cleared.seq + 1 == again.fingerprint().seq
    again.journal.close()
