"""The evening's close (issue 40: « the board's copy printed at the evening's close »): ``POST /api/evening/close``
(speaker, admin) journals ``evening:closed`` with the fingerprint as it stood and the board's copy in one
transaction; the copy comes out of a real TCP printer through the vouchers' queue (none lost with the printer away,
nor across a restart); the projector shows the fingerprint on paper; then every ball, partie and sale is refused
``409 evening_closed`` and journals nothing, whatever the input; ``loto-hall verify`` passes and recognises it."""

from __future__ import annotations

import re
import threading

import pytest

from drivers.printer import EscposDevice, PrintQueue
from drivers.printer_sink import PrinterSink, decode_text, escpos_commands
from hall.app.cli import main
from hall.cartons.cardbook import CardBook
from hall.cartons.cards import Card
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.display.conftest import A1, A3, CARDS, make_room
from tests.helpers import refused, rejected

GROUPS = re.compile(r"([0-9A-F]{4}(?: [0-9A-F]{4}){4})")


def queue_on(hall, port: int) -> PrintQueue:
    return PrintQueue(
        hall, EscposDevice(f"tcp://127.0.0.1:{port}?timeout=2"), retry_initial_s=0.005, retry_max_s=0.05, poll_s=None
    )


def printed(hall) -> threading.Event:
    done = threading.Event()
    hall.subscribe(lambda record: done.set() if record.type == "report:ticket_printed" else None)
    return done


def play_one_partie(room, client) -> None:
    """A carton sold at the door, a partie of four balls, « Démarquez »."""
    sale = client.post(
        "/api/sales", json={"cards": [A3], "amount_eur": 3, "payment": "especes"}, headers=room.headers("desk")
    )
    assert sale.status_code == 201, sale.get_json()
    assert client.post("/api/partie/start", headers=room.headers("speaker")).status_code == 201
    for n in (4, 13, 37, 52):
        assert client.post("/api/draws", json={"number": n}, headers=room.headers("speaker")).status_code == 201
    cleared = client.post("/api/partie/clear", json={"force": True}, headers=room.headers("speaker"))
    assert cleared.status_code == 200, cleared.get_json()


def test_the_close_journals_the_fingerprint_prints_the_board_s_copy_and_shows_it(tmp_path, capsys):
    room = make_room(tmp_path)
    client = room.app.test_client()
    play_one_partie(room, client)
    before = room.hall.fingerprint()
    sink = PrinterSink()
    sink.start()
    queue = queue_on(room.hall, sink.port)
    done = printed(room.hall)
    queue.start()
    try:
        resp = client.post("/api/evening/close", headers=room.headers("speaker"))
        assert resp.status_code == 201, resp.get_json()
        assert done.wait(15)
        (job,) = sink.wait_for_jobs(1)
    finally:
        queue.stop()
        sink.stop()
    body = resp.get_json()
    closed, ticket = [r for r in room.hall.records() if r.seq >= body["seq"]][:2]
    assert (closed.type, closed.role, ticket.type) == ("evening:closed", "speaker", "report:ticket_requested")
    # the close names the journal as it stood; the copy journalled after it prints the fingerprint covering it
    assert (closed.event.records, closed.event.fingerprint, closed.event.parties_played) == (before.seq, before.hash, 1)
    assert ticket.event.closing and ticket.seq == closed.seq + 1 == body["ticket"]
    assert body["fingerprint"]["hash"] == ticket.hash and body["fingerprint"]["seq"] == ticket.seq
    text = decode_text(job)
    assert GROUPS.search(text).group(1) == body["fingerprint"]["shown"]
    for words in ("COPIE DU BUREAU", "clôture de la soirée", "Partie n° 1", "4 boule(s)", "Cartons vendus", "3,00 €"):
        assert words in text, words
    assert escpos_commands(job).count(b"\x1dV") == 1  # one ticket, cut once
    # the projector shows the paper's fingerprint, for good, and no next partie
    state = client.get("/api/state").get_json()
    assert state["journal"] == {"partie": 1, "shown": body["fingerprint"]["shown"], "seq": ticket.seq, "closed": True}
    assert state["next_partie"] is None
    # verify passes on a journal with the close, and recognises the projector's (and the paper's) fingerprint
    room.hall.journal.close()
    assert main(["verify", "--data-dir", str(tmp_path), "--fingerprint", state["journal"]["shown"]]) == 0
    assert f"n° {ticket.seq}" in capsys.readouterr().out


def test_after_the_close_no_ball_partie_or_sale_is_taken_and_nothing_is_journalled(tmp_path):
    room = make_room(tmp_path)
    client = room.app.test_client()
    play_one_partie(room, client)
    assert client.post("/api/evening/close", headers=room.headers("admin")).status_code == 201
    seq = room.hall.journal.last_seq
    sp, desk = room.headers("speaker"), room.headers("desk")
    refused(client.post("/api/draws", json={"number": 7}, headers=sp), 409, "evening_closed")
    refused(client.post("/api/partie/start", headers=sp), 409, "evening_closed")
    refused(client.post("/api/draws/undo", headers=sp), 409, "evening_closed")
    refused(client.post("/api/claims/announce", headers=sp), 409, "evening_closed")
    refused(
        client.post("/api/sales", json={"cards": [A1], "amount_eur": 3, "payment": "carte"}, headers=desk),
        409,
        "evening_closed",
    )
    refused(client.post("/api/evening/close", headers=sp), 409, "evening_closed")
    # every other door meets the same refusal: the ball machine, the keypad, the writer's last word (a sale voided)
    assert rejected(room.hall.ball_read, 8, source="ball_machine", confirm=False).code == "evening_closed"
    assert rejected(room.hall.key_typed, "draw", 9).code == "evening_closed"
    assert rejected(room.hall.void_sale, 1, role="admin").code == "evening_closed"
    assert room.hall.journal.last_seq == seq
    # the board's copy may still be asked for again (it prints the same figures)
    assert client.post("/api/report/ticket", headers=room.headers("admin")).status_code == 202
    room.hall.journal.close()


def test_the_close_is_refused_while_a_partie_runs_before_any_and_without_the_right(room, client):
    sp = room.headers("speaker")
    refused(client.post("/api/evening/close", headers=sp), 409, "nothing_to_close")
    assert client.post("/api/partie/start", headers=sp).status_code == 201
    body = refused(client.post("/api/evening/close", headers=sp), 409, "partie_running")
    assert "partie" in body["message"].lower()
    refused(client.post("/api/evening/close", headers=room.headers("controller")), 403, "forbidden")
    refused(client.post("/api/evening/close", headers=room.headers("desk")), 403, "forbidden")
    refused(client.post("/api/evening/close"), 401, "unauthorized")
    assert [r.type for r in room.hall.records()] == ["partie:started"]
    assert client.post("/api/draws", json={"number": 5}, headers=sp).status_code == 201  # still open


def test_the_refusal_is_said_in_english_too(room, client):
    room.hall.start_partie(role="speaker")
    room.hall.clear(role="speaker", force=True)
    room.hall.close_evening(role="speaker")
    headers = {**room.headers("speaker"), "Accept-Language": "en"}
    body = refused(client.post("/api/draws", json={"number": 7}, headers=headers), 409, "evening_closed")
    assert body["message"].startswith("The evening is closed")


def test_a_printer_away_and_a_restart_lose_no_board_s_copy_and_the_close_holds(tmp_path):
    room = make_room(tmp_path)
    client = room.app.test_client()
    play_one_partie(room, client)
    away = PrinterSink()
    away.start()
    port = away.port
    away.stop()  # nobody listens there: the printer is away
    queue = queue_on(room.hall, port)
    queue.start()
    try:
        assert client.post("/api/evening/close", headers=room.headers("speaker")).status_code == 201
        (owed,) = room.hall.tickets_to_print()
    finally:
        queue.stop()
    room.hall.journal.close()
    # the hall restarts: the close is replayed, the copy still owed, the refusals hold
    hall = Hall(
        room.config,
        Journal(tmp_path / "journal.sqlite"),
        CardBook({cid: Card.parse(text) for cid, text in CARDS.items()}),
        voucher_secret=b"k" * 32,
    )
    assert hall.tickets_to_print() == (owed,) and hall.closing() == owed
    assert hall.snapshot().closed == owed.fingerprint and hall.snapshot().next_partie is None
    assert rejected(hall.start_partie, role="speaker").code == "evening_closed"
    sink = PrinterSink(port=port)  # the printer is back
    sink.start()
    queue = queue_on(hall, port)
    done = printed(hall)
    queue.start()
    try:
        assert done.wait(15)
        (job,) = sink.wait_for_jobs(1)
    finally:
        queue.stop()
        sink.stop()
    assert GROUPS.search(decode_text(job)).group(1) == owed.fingerprint.shown
    assert hall.tickets_to_print() == () and hall.closing() == owed  # printed once, still the close's
    hall.journal.close()


@pytest.mark.parametrize("role", ["speaker", "admin"])
def test_both_the_speaker_and_the_admin_may_close(tmp_path, role):
    room = make_room(tmp_path)
    room.hall.start_partie(role="speaker")
    room.hall.clear(role="speaker", force=True)
    resp = room.app.test_client().post("/api/evening/close", headers=room.headers(role))
    assert resp.status_code == 201 and room.hall.evening.closed
    room.hall.journal.close()
