"""The board's copy (issue 33) on a real TCP printer: the fingerprint read back from the ESC/POS bytes is the one
``loto-hall verify`` gives for the journal as it stood, and the report PDF's (pdftotext) is verify's too; the
ticket carries the takings by means of payment, the cartons, the lots and the lines to sign; a printer away loses
no ticket; ``[report] ticket_each_partie`` prints one by itself at each démarquez."""

from __future__ import annotations

import random
import re
import shutil
import sqlite3
import subprocess
import threading

import pytest

from drivers.printer import EscposDevice, PrintQueue
from drivers.printer_sink import PrinterSink, decode_text
from hall.app.cli import main
from hall.cartons.cardbook import CardBook
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.drivers.paper import Recorder, some_cards, win_quine

GROUPS = re.compile(r"([0-9A-F]{4}(?: [0-9A-F]{4}){4})")


def make(tmp_path, cards, **report) -> Hall:
    config = parse_config(
        {"hall": {"name": "Salle des fêtes de Saint-Loup", "data_dir": str(tmp_path)}, "report": report}
    )
    return Hall(
        config, Journal(tmp_path / "journal.sqlite"), CardBook(cards), voucher_secret=b"k" * 32, rng=random.Random(2)
    )


def tickets_printed(hall) -> threading.Event:
    """Set once the print queue journals a board's copy printed."""
    done = threading.Event()
    hall.subscribe(lambda record: done.set() if record.type == "report:ticket_printed" else None)
    return done


def ask_and_print(hall, jobs: int):
    """The board's copy asked for on /admin and printed on a real TCP printer: its record and the ``jobs`` the
    printer took."""
    sink = PrinterSink()
    sink.start()
    queue = PrintQueue(
        hall,
        EscposDevice(f"tcp://127.0.0.1:{sink.port}?timeout=2"),
        retry_initial_s=0.005,
        retry_max_s=0.05,
        poll_s=None,
    )
    printed = tickets_printed(hall)
    queue.start()
    try:
        asked = hall.request_ticket(role="admin")
        assert printed.wait(15)
        return asked, sink.wait_for_jobs(jobs)
    finally:
        queue.stop()
        sink.stop()


def verified(capsys, folder, *args) -> str:
    assert main(["verify", "--data-dir", str(folder), *args]) == 0
    return capsys.readouterr().out


def test_the_ticket_s_fingerprint_is_verify_s_and_the_pdf_s_too(tmp_path, capsys):
    cards = some_cards(12)
    ids = list(cards)
    hall = make(tmp_path, cards)
    hall.sell(ids[:3], role="desk", payment="especes", cents=900)
    hall.sell(ids[3:5], role="desk", payment="carte", cents=600)
    hall.start_partie(role="speaker")
    win_quine(hall, ids[0])
    asked, jobs = ask_and_print(hall, 2)  # the voucher, then the board's copy
    text = decode_text(jobs[-1])
    on_paper = GROUPS.search(text).group(1)
    assert on_paper == hall.fingerprint().__class__(asked.seq, asked.at, asked.hash).shown
    for words in (
        "Salle des fêtes",
        "COPIE DU BUREAU",
        "Cartons vendus",
        "5",
        "15,00 €",
        "Espèces",
        "9,00 €",
        "Carte bancaire",
        "6,00 €",
        "Lots gagnés",
        "Partie n° 1",
        "Le président",
        "Le trésorier",
        f"enregistrement n° {asked.seq}",
    ):
        assert words in text, words
    # verify, on the journal as it stood when the ticket was taken, prints the same fingerprint
    hall.journal.close()
    then = tmp_path / "then"
    then.mkdir()
    shutil.copy(tmp_path / "journal.sqlite", then / "journal.sqlite")
    db = sqlite3.connect(then / "journal.sqlite")
    db.execute("DELETE FROM events WHERE seq > ?", (asked.seq,))
    db.commit()
    db.close()
    assert GROUPS.search(verified(capsys, then)).group(1) == on_paper
    # and now, with the record of its printing after it, the paper still proves the journal then
    out = verified(capsys, tmp_path, "--fingerprint", on_paper)
    assert f"celle de l'enregistrement n° {asked.seq}" in out
    # the report PDF prints the journal's fingerprint: verify's
    assert main(["report", "--data-dir", str(tmp_path), "--pdf", str(tmp_path / "r.pdf")]) == 0
    capsys.readouterr()
    pdf = subprocess.run(
        ["pdftotext", "-layout", str(tmp_path / "r.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    now = GROUPS.search(verified(capsys, tmp_path)).group(1)
    assert set(GROUPS.findall(pdf)) == {now} and "Relevé pour le service des impôts" in pdf


def test_a_printer_away_loses_no_ticket_and_each_partie_s_end_prints_one(tmp_path):
    cards = some_cards(12)
    hall = make(tmp_path, cards, ticket_each_partie=True)
    rec = Recorder(hall)
    port = PrinterSink()
    port.start()
    free = port.port
    port.stop()
    queue = PrintQueue(
        hall, EscposDevice(f"tcp://127.0.0.1:{free}?timeout=2"), retry_initial_s=0.005, retry_max_s=0.05, poll_s=None
    )
    printed = tickets_printed(hall)
    queue.start()
    sink = PrinterSink(port=free)
    try:
        hall.start_partie(role="speaker")
        for n in (4, 8, 15, 16, 23, 42):
            hall.draw(n, role="speaker")
        hall.clear(role="speaker", force=True)
        assert rec.wait_notice(lambda n: n["code"] == "printer_waiting")["params"]["reason"] == "printer_unreachable"
        assert len(hall.tickets_to_print()) == 1 and not printed.is_set()
        sink.start()  # the printer is back
        assert printed.wait(15)
        (job,) = sink.wait_for_jobs(1)
    finally:
        queue.stop()
        sink.stop()
    text = decode_text(job)
    assert "fin de la partie n° 1" in text and "6 boule(s)" in text
    assert hall.tickets_to_print() == ()
    (request,) = [r for r in hall.records() if r.type == "report:ticket_requested"]
    assert GROUPS.search(text).group(1) == hall.fingerprint().__class__(request.seq, request.at, request.hash).shown
    hall.journal.close()


@pytest.mark.parametrize("cents, shown", [(0, "0,00 €"), (123456, "1 234,56 €"), (-50, "-0,50 €")])
def test_ticket_amounts_are_written_as_the_hall_reads_them(cents, shown):
    from drivers.ticket_layout import euros

    assert euros(cents) == shown


def test_the_board_s_copy_lists_every_partie_of_the_evening_not_only_the_last(tmp_path):
    """Issue 40: a copy printed at the evening's close names each partie and its balls, so a partie cannot
    vanish from the paper the board signs."""
    hall = make(tmp_path, some_cards(12))
    for balls in ((4, 8, 15), (16, 23, 42, 7, 9), (1, 2)):
        hall.start_partie(role="speaker")
        for n in balls:
            hall.draw(n, role="speaker")
        hall.clear(role="speaker", force=True)
    _, (job,) = ask_and_print(hall, 1)
    lines = [line.strip() for line in decode_text(job).splitlines()]
    shown = [re.sub(r"\s+", " ", line) for line in lines if line.startswith("Partie n°")]
    assert shown == ["Partie n° 1 3 boule(s)", "Partie n° 2 5 boule(s)", "Partie n° 3 2 boule(s)"], lines


def test_the_board_s_copy_prints_the_three_accounts_side_by_side(tmp_path):
    """Cartons, tombola and buvette on the one paper the president and the treasurer sign (issue 44 item 3)."""
    from tests.hall.test_tombola import CONDUCTED, body

    cards = some_cards(12)
    ids = list(cards)
    hall = make(tmp_path, cards)
    hall.sell(ids[:3], role="desk", payment="especes", cents=900)  # 9 €
    hall.prepare_tombola(body(), role="admin")  # costs 5 €, lots bought 20 € + 6 €
    hall.sell_tombola(buyer="Mme Roux", payment="especes", count=10, role="desk")  # 20 €
    hall.close_tombola_sales(role="speaker")
    hall.draw_tombola(role="speaker", every=True, **CONDUCTED)
    hall.set_buvette_products([{"name": "Bière", "price_eur": "2,50", "stock": 48}], 12, role="admin")
    hall.buvette_sell([{"product": "Bière", "qty": 4}], "cash", role="buvette")  # 10 €
    asked, (ticket,) = ask_and_print(hall, 1)
    assert asked.event.accounts == (("tombola", 2000, 3100), ("buvette", 1000, 1200))
    lines = [" ".join(line.split()) for line in decode_text(ticket).splitlines()]
    at = lines.index("COMPTES DE LA SOIRÉE")
    assert lines[at + 1 : at + 8] == [
        "Tombola 20,00 €",
        "frais -31,00 €",
        "solde -11,00 €",
        "Buvette 10,00 €",
        "achats -12,00 €",
        "solde -2,00 €",
        "Recette de la soirée 39,00 €",  # 9 + 20 + 10
    ]
    assert lines.index("EMPREINTE DU JOURNAL") > at  # the fingerprint covers the three
    hall.journal.close()
    again = Hall(hall.config, Journal(tmp_path / "journal.sqlite"), CardBook(cards), voucher_secret=b"k" * 32)
    (record,) = [r for r in again.records() if r.type == "report:ticket_requested"]
    assert record.event.accounts == asked.event.accounts  # read back from the journal as journalled
    again.journal.close()


def test_an_evening_of_cartons_only_prints_no_accounts(tmp_path):
    cards = some_cards(12)
    hall = make(tmp_path, cards)
    hall.sell(list(cards)[:2], role="desk", payment="carte", cents=600)
    asked, (ticket,) = ask_and_print(hall, 1)
    assert asked.event.accounts == () and "COMPTES DE LA SOIRÉE" not in decode_text(ticket)
    hall.journal.close()
