"""The print queue: nothing lost, nothing twice — with the printer away, and across a restart of the hall."""

from __future__ import annotations

import collections
import threading
import time

import zxingcpp

from drivers.printer import EscposDevice, PrintQueue
from drivers.printer_sink import PrinterSink, decode_raster_images, decode_text
from hall.requests import DeviceTestRequested
from tests.drivers.paper import Recorder, some_cards, win_quine


def queue_for(hall, port: int) -> PrintQueue:
    device = EscposDevice(f"tcp://127.0.0.1:{port}?timeout=2", "TM-T20II")
    q = PrintQueue(hall, device, retry_initial_s=0.005, retry_max_s=0.05, poll_s=None)
    q.start()
    return q


def free_port() -> int:
    """A port where nothing listens (the printer is away), reused later by the sink (the printer is back)."""
    s = PrinterSink()
    s.start()
    port = s.port
    s.stop()
    return port


def award_lots(hall, cards, n_lots: int) -> list[str]:
    """Play ``n_lots`` parties, each won on its quine by a new carton and cleared; the voucher codes issued."""
    codes: list[str] = []
    used = {v.issued.card_id for v in hall.evening.vouchers.values()}
    winners = (c for c in cards if c not in used)
    for _ in range(n_lots):
        hall.start_partie(role="speaker")
        t0 = time.perf_counter()
        codes += win_quine(hall, next(winners))["vouchers"]
        assert time.perf_counter() - t0 < 1.0, "the hall must never wait for the printer"
        hall.clear(role="speaker", force=True)
    return codes


def codes_in(jobs: list[bytes]) -> list[str]:
    out = []
    for job in jobs:
        [qr] = [r.text for img in decode_raster_images(job) for r in zxingcpp.read_barcodes(img)]
        assert qr in decode_text(job)
        out.append(qr)
    return out


def test_printer_away_then_back_every_voucher_printed_exactly_once(make_hall):
    cards = some_cards(60)
    hall = make_hall(cards)
    rec = Recorder(hall)
    port = free_port()
    queue = queue_for(hall, port)
    sink = PrinterSink(port=port)
    try:
        codes = award_lots(hall, cards, 5)
        notice = rec.wait_notice(lambda n: n["status"] == "degraded")
        assert (notice["code"], notice["params"]["reason"]) == ("printer_waiting", "printer_unreachable")
        assert notice["params"]["where"] == f"127.0.0.1:{port}"
        assert rec.printed == [] and len(hall.unprinted()) == len(codes) == 5
        sink.start()  # the printer comes back
        rec.wait_printed(5)
        codes += award_lots(hall, cards, 2)  # and keeps printing what comes next
        rec.wait_printed(7)
    finally:
        queue.stop()
        sink.stop()
    assert codes_in(sink.jobs) == codes  # each once, in the order they were issued
    assert [c for c, dup in rec.printed] == codes and not any(dup for _, dup in rec.printed)
    assert hall.unprinted() == []
    assert rec.wait_notice(lambda n: n["status"] == "ok")["code"] == "printer_ready"


def test_restart_prints_what_was_left_and_nothing_twice(make_hall):
    cards = some_cards(60)
    hall = make_hall(cards)
    rec = Recorder(hall)
    sink = PrinterSink()
    sink.start()
    port = sink.port
    queue = queue_for(hall, port)
    first = award_lots(hall, cards, 2)
    rec.wait_printed(2)
    sink.stop()  # printer away …
    later = award_lots(hall, cards, 3)
    rec.wait_notice(lambda n: n["status"] == "degraded")
    queue.stop()  # … and the hall stops (power cut, update)
    hall.journal.close()

    hall2 = make_hall(cards)  # reopen on the same SQLite journal: replay
    rec2 = Recorder(hall2)
    assert [v.code for v, dup in hall2.unprinted()] == later
    sink2 = PrinterSink(port=port)
    sink2.start()
    queue2 = queue_for(hall2, port)
    try:
        rec2.wait_printed(3)
        hall2.request_reprint(first[0], role="desk")  # a reprint is the one way to print twice
        rec2.wait_printed(4)
    finally:
        queue2.stop()
        sink2.stop()
    assert codes_in(sink.jobs) == first
    assert codes_in(sink2.jobs) == later + first[:1]
    assert "DUPLICATA" in decode_text(sink2.jobs[-1])
    assert rec2.printed[-1] == (first[0], True)
    counts = collections.Counter(c for c, _ in rec.printed + rec2.printed)
    assert counts == {**{c: 1 for c in first + later}, first[0]: 2}
    hall3 = make_hall(cards)  # and a third start finds nothing to print
    assert hall3.unprinted() == []
    assert {c: v.printed for c, v in hall3.evening.vouchers.items()} == dict(counts)


def test_stop_while_the_printer_is_away_returns_quickly(make_hall):
    cards = some_cards(12)
    hall = make_hall(cards)
    rec = Recorder(hall)
    queue = queue_for(hall, free_port())
    award_lots(hall, cards, 1)
    rec.wait_notice(lambda n: n["status"] == "degraded")
    t0 = time.perf_counter()
    queue.stop()
    assert time.perf_counter() - t0 < 2.0 and not queue.alive()
    assert len(hall.unprinted()) == 1


def test_admin_test_request_prints_a_test_ticket(make_hall, tmp_path):
    """« Tester l'imprimante » on the admin page: a short ticket comes out, the speaker sees it worked."""
    from drivers.printer import EscposDevice, PrintQueue
    from drivers.printer_sink import PrinterSink, decode_text

    sink = PrinterSink("127.0.0.1", 0)
    sink.start()
    hall = make_hall()
    queue = PrintQueue(hall, EscposDevice(sink.url), retry_initial_s=0.01, retry_max_s=0.05, poll_s=None)
    reported = threading.Event()
    hall.subscribe_notices(lambda name, p: reported.set() if getattr(p, "code", "") == "printer_test_printed" else None)
    queue.start()
    try:
        hall.ask(DeviceTestRequested(device="printer"), role="admin")
        [job] = sink.wait_for_jobs(1)
        assert "TEST IMPRIMANTE" in decode_text(job) and "€" in decode_text(job)
        assert reported.wait(10)
        assert hall.device("printer").state == "ok"
    finally:
        queue.stop()
        sink.stop()
