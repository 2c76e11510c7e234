"""The close says where the board's copy stands (issue 40): ``POST /api/evening/close`` answers ``printed`` when a
real TCP printer took it, ``queued`` while the printer is away (it prints when back), ``none`` with no printer (the
copy stays in the journal); ``GET /api/evening/close`` tells a page opened later, the same way."""

from __future__ import annotations

import threading

from display import record
from drivers.printer import EscposDevice, PrintQueue
from drivers.printer_sink import PrinterSink, decode_text
from tests.display.conftest import make_room
from tests.helpers import refused


def one_partie(room) -> None:
    room.hall.start_partie(role="speaker")
    room.hall.draw(7, role="speaker")
    room.hall.clear(role="speaker", force=True)


def queue_on(hall, port: int) -> PrintQueue:
    """The print queue on a TCP printer at ``port``: it probes it at start, as the hall's does (its state known)."""
    return PrintQueue(
        hall, EscposDevice(f"tcp://127.0.0.1:{port}?timeout=2"), retry_initial_s=0.005, retry_max_s=0.05, poll_s=60
    )


def test_no_printer_the_copy_stays_in_the_journal_and_a_later_page_is_told_so(tmp_path):
    room = make_room(tmp_path)
    client = room.app.test_client()
    sp = room.headers("speaker")
    assert client.get("/api/evening/close", headers=sp).get_json() == {
        "closed": False,
        "ticket": None,
        "fingerprint": None,
        "printer": None,
    }
    one_partie(room)
    body = client.post("/api/evening/close", headers=sp).get_json()
    assert body["closed"] and body["printer"] == "none"
    later = client.get("/api/evening/close", headers=room.headers("admin")).get_json()
    assert later == {k: v for k, v in body.items() if k != "seq"}
    assert later["fingerprint"]["shown"] == room.hall.closing().fingerprint.shown
    refused(client.get("/api/evening/close", headers=room.headers("desk")), 403, "forbidden")
    refused(client.get("/api/evening/close"), 401, "unauthorized")
    room.hall.journal.close()


def test_a_printer_there_takes_the_copy_before_the_close_answers(tmp_path):
    room = make_room(tmp_path)
    one_partie(room)
    sink = PrinterSink()
    sink.start()
    queue = queue_on(room.hall, sink.port)
    queue.start()
    try:
        resp = room.app.test_client().post("/api/evening/close", headers=room.headers("admin"))
        assert resp.status_code == 201 and resp.get_json()["printer"] == "printed"
        (job,) = sink.wait_for_jobs(1)
    finally:
        queue.stop()
        sink.stop()
    assert resp.get_json()["fingerprint"]["shown"] in decode_text(job)
    room.hall.journal.close()


def test_a_printer_away_leaves_the_copy_queued_and_it_prints_when_back(tmp_path, monkeypatch):
    monkeypatch.setattr(record, "PRINT_WAIT_S", 0.3)
    room = make_room(tmp_path)
    one_partie(room)
    away = PrinterSink()
    away.start()
    port = away.port
    away.stop()
    queue = queue_on(room.hall, port)
    printed = threading.Event()
    room.hall.subscribe(lambda r: printed.set() if r.type == "report:ticket_printed" else None)
    queue.start()
    client = room.app.test_client()
    try:
        body = client.post("/api/evening/close", headers=room.headers("speaker")).get_json()
        assert body["printer"] == "queued"
        assert client.get("/api/evening/close", headers=room.headers("speaker")).get_json()["printer"] == "queued"
        back = PrinterSink(port=port)
        back.start()
        try:
            back.wait_for_jobs(1)
            assert printed.wait(15)
        finally:
            back.stop()
    finally:
        queue.stop()
    later = client.get("/api/evening/close", headers=room.headers("speaker")).get_json()
    assert later["printer"] == "printed" and later["ticket"] == body["ticket"]
    room.hall.journal.close()
