"""A tombola sale's tickets and stubs on a real TCP printer through the vouchers' print queue: with the printer away
the sale waits, none is lost, each sale prints once and is journalled (``tombola:printed``); the ticket holds what
RULES L24 asks (the association, the draw's date, the price, the number, the signed code) and the stub the buyer."""

from __future__ import annotations

from drivers.printer import EscposDevice, PrintQueue
from drivers.printer_sink import PrinterSink, decode_text
from hall.cartons.cardbook import CardBook
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.drivers.paper import Recorder, queue_while_away
from tests.hall.test_tombola import body


def test_a_printer_away_loses_no_tombola_ticket_and_each_sale_prints_once(tmp_path):
    config = parse_config({"hall": {"name": "Comité des fêtes de Saint-Pierre", "data_dir": str(tmp_path)}})
    hall = Hall(config, Journal(tmp_path / "journal.sqlite"), CardBook({}))
    hall.prepare_tombola(body(), role="admin")
    rec = Recorder(hall)
    free, queue, printed, both = queue_while_away(hall, "tombola:printed", "sale_id", 2)
    queue.start()
    sink = PrinterSink(port=free)
    try:
        hall.sell_tombola(buyer="Mme Roux", payment="especes", tickets=[12, 13], role="desk")
        hall.sell_tombola(buyer="M. Abel", payment="carte", carnets=1, role="desk")
        assert rec.wait_notice(lambda n: n["code"] == "printer_waiting")["params"]["reason"] == "printer_unreachable"
        assert [s.sale_id for s in hall.tombola_to_print()] == [1, 2] and not printed
        sink.start()  # the printer is back
        assert both.wait(15)
        first, second = sink.wait_for_jobs(2)
    finally:
        queue.stop()
        sink.stop()
    text = decode_text(first)
    assert text.count("TOMBOLA") == 4  # two tickets, two stubs
    assert "N° 12" in text and "N° 13" in text and "Acheteur : Mme Roux" in text
    assert "Tirage le 07/12/2026 à 21h30" in text and "2,00 €" in text and "Arrêté n° 2026-117 du 02/11/2026" in text
    assert hall.tombola_code(12) in text and hall.tombola_code(13) in text
    assert "au porteur" not in text
    other = decode_text(second)
    assert all(f"N° {n}" in other for n in range(1, 11)) and other.count("Acheteur : M. Abel") == 10
    assert printed == [1, 2] and hall.tombola_to_print() == ()
    hall.journal.close()


def test_a_printed_sale_stays_printed_after_a_restart(tmp_path):
    config = parse_config({"hall": {"name": "Saint-Pierre", "data_dir": str(tmp_path)}})
    hall = Hall(config, Journal(tmp_path / "journal.sqlite"), CardBook({}))
    hall.prepare_tombola(body(), role="admin")
    hall.sell_tombola(buyer="Mme Roux", payment="especes", count=2, role="desk")
    hall.sell_tombola(buyer="M. Abel", payment="especes", count=1, role="desk")
    hall.tombola_printed(1, role="device")
    hall.journal.close()
    again = Hall(config, Journal(tmp_path / "journal.sqlite"), CardBook({}))
    assert [s.sale_id for s in again.tombola_to_print()] == [2]  # the one still owed to the printer
    again.journal.close()


def test_the_winners_list_is_journalled_then_printed_with_numbers_not_names(tmp_path):
    from tests.hall.test_tombola import CONDUCTED
    from tests.hall.test_tombola import refused as refusal

    config = parse_config({"hall": {"name": "Saint-Pierre", "data_dir": str(tmp_path)}})
    hall = Hall(config, Journal(tmp_path / "journal.sqlite"), CardBook({}))
    hall.prepare_tombola(body(), role="admin")
    hall.sell_tombola(buyer="Mme Roux", payment="especes", tickets=[12, 13], role="desk")
    hall.tombola_printed(1, role="device")
    hall.close_tombola_sales(role="speaker")
    assert refusal(hall.request_tombola_list, role="speaker") == "nothing_drawn"  # nothing drawn: nothing to list
    hall.draw_tombola(role="speaker", every=True, **CONDUCTED)
    asked = hall.request_tombola_list(role="speaker")
    assert asked.type == "tombola:list_requested" and hall.tombola_list_owed()
    sink = PrinterSink()
    sink.start()
    queue = PrintQueue(hall, EscposDevice(sink.url + "?timeout=2"), retry_initial_s=0.01, poll_s=None)
    queue.start()
    try:
        (job,) = sink.wait_for_jobs(1)
    finally:
        queue.stop()
        sink.stop()
    text = " ".join(decode_text(job).split())  # the lines wrapped at the paper's width, read as one
    wins = {w.lot_index: w.ticket for w in hall.tombola().wins}
    assert "LISTE DES GAGNANTS" in text and "Conduit par Mme Leroy, devant M. Petit et Mme Blanc" in text
    assert f"1. Panier garni : billet n° {wins[0]}" in text and f"2. Jambon sec : billet n° {wins[1]}" in text
    assert "3. Bouteille de cidre : non tiré" in text  # two tickets sold, three lots: the third waits
    assert "Roux" not in text and "jusqu'au 31/01/2027" in text and text.count("Témoin :") == 2
    assert not hall.tombola_list_owed()
    hall.journal.close()
