"""The buvette's receipts and drink tokens on a real TCP printer through the vouchers' print queue: with the printer
away they wait, none is lost, each is printed once and journalled (``buvette:printed``)."""

from __future__ import annotations

import threading

from drivers.printer import EscposDevice, PrintQueue
from drivers.printer_sink import PrinterSink, decode_text
from hall.cartons.cardbook import CardBook
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.drivers.paper import Recorder, queue_while_away


def test_a_printer_away_loses_no_buvette_ticket_and_tokens_print_one_per_drink(tmp_path):
    config = parse_config({"hall": {"name": "Salle des fêtes de Saint-Loup", "data_dir": str(tmp_path)}})
    hall = Hall(config, Journal(tmp_path / "journal.sqlite"), CardBook({}))
    hall.set_buvette_products([{"name": "Bière", "price_eur": "2,50", "stock": 10}], role="admin")
    rec = Recorder(hall)
    free, queue, printed, both = queue_while_away(hall, "buvette:printed", "ticket", 2)
    queue.start()
    sink = PrinterSink(port=free)
    try:
        hall.buvette_sell([{"product": "Bière", "qty": 2}], "cash", "10", "receipt", role="buvette")
        hall.buvette_sell([{"product": "Bière", "qty": 3}], "free", None, "tokens", role="buvette")
        assert rec.wait_notice(lambda n: n["code"] == "printer_waiting")["params"]["reason"] == "printer_unreachable"
        assert [t.ticket for t in hall.buvette_to_print()] == [1, 2] and not printed
        sink.start()  # the printer is back
        assert both.wait(15)
        receipt, tokens = sink.wait_for_jobs(2)
    finally:
        queue.stop()
        sink.stop()
    text = decode_text(receipt)
    assert "BUVETTE" in text and "ticket n° 1" in text and "2 x Bière" in text and "5,00 €" in text
    assert "Rendu" in text and "5,00 €" in text.split("Rendu")[1]
    assert decode_text(tokens).count("1 Bière") == 3
    assert printed == [1, 2] and hall.buvette_to_print() == ()
    hall.journal.close()


def test_the_z_prints_at_the_close_once_and_a_printer_away_loses_it_not(tmp_path):
    config = parse_config({"hall": {"name": "Salle des fêtes de Saint-Loup", "data_dir": str(tmp_path)}})
    hall = Hall(config, Journal(tmp_path / "journal.sqlite"), CardBook({}))
    hall.set_buvette_products(
        [{"name": "Bière", "price_eur": "2,50", "stock": 10}, {"name": "Café", "price_eur": 1, "stock": 40}],
        role="admin",
    )
    hall.buvette_sell([{"product": "Bière", "qty": 4}], "cash", "20", role="buvette")  # 10 €
    hall.buvette_sell([{"product": "Café", "qty": 3}], "card", role="buvette")  # 3 €
    hall.buvette_sell([{"product": "Café", "qty": 2}], "free", role="buvette")  # 2 € given
    port = PrinterSink()
    port.start()
    free = port.port
    port.stop()
    printed: list[int] = []
    done = threading.Event()

    def seen(record):
        if record.type == "buvette:z_printed":
            printed.append(record.event.z)
            done.set()

    hall.subscribe(seen)
    hall.buvette_close({"Bière": 5, "Café": 35}, role="buvette")  # 6 beers expected, 5 counted: one gone
    assert [z.z for z in hall.buvette_z_to_print()] == [1]
    hall.journal.close()
    # the hall restarts with the printer still away: the Z is still owed
    hall = Hall(config, Journal(tmp_path / "journal.sqlite"), CardBook({}))
    rec = Recorder(hall)
    hall.subscribe(seen)
    assert [z.z for z in hall.buvette_z_to_print()] == [1]
    queue = PrintQueue(
        hall, EscposDevice(f"tcp://127.0.0.1:{free}?timeout=2"), retry_initial_s=0.005, retry_max_s=0.05, poll_s=None
    )
    queue.start()
    sink = PrinterSink(port=free)
    try:
        assert rec.wait_notice(lambda n: n["code"] == "printer_waiting")["params"]["reason"] == "printer_unreachable"
        assert not printed
        sink.start()  # the printer is back
        assert done.wait(15)
        (z_ticket,) = sink.wait_for_jobs(1)
    finally:
        queue.stop()
        sink.stop()
    text = decode_text(z_ticket)
    assert "BUVETTE - Z n° 1" in text and "tickets n° 1 à 3" in text
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert "Espèces 10,00 €" in lines and "Carte bancaire 3,00 €" in lines and "RECETTE 13,00 €" in lines
    assert "Offert (bénévole) 2,00 €" in lines
    assert "4 x Bière 10,00 €" in lines and "5 x Café 5,00 €" in lines
    assert "Bière 6 / 5 / -1" in lines and "Café 35 / 35 / +0" in lines
    assert "pas une caisse certifiée" in text
    assert printed == [1] and hall.buvette_z_to_print() == ()
    assert [r.type for r in hall.records()].count("buvette:z_printed") == 1
    hall.journal.close()
