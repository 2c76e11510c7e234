"""The board's copy prints the evening's three accounts (issue 44 item 3): the cartons', the tombola's and the
buvette's, each with its takings by means of payment, its costs and its balance, and the evening's total, beside
the journal's fingerprint — read back from the ESC/POS bytes a real TCP printer took, summed by hand on a fixed
evening and equal to the treasurer's report; the figures are journalled with the ticket (a restart prints the same
paper) and a ticket journalled before the accounts were kept still reads and prints the cartons' takings."""

from __future__ import annotations

import random
import re
import threading

from drivers.printer import EscposDevice, PrintQueue
from drivers.printer_sink import PrinterSink, decode_text
from drivers.ticket_layout import render_ticket
from hall.cartons.cardbook import CardBook
from hall.config import parse_config
from hall.door.service import Hall
from hall.events import LotSpec, TicketAccount
from hall.events.payload import from_payload, to_payload
from hall.money.papers_accounts import evening_accounts
from hall.record.journal import Journal
from hall.snapshots import Fingerprint, TicketJob
from tests.drivers.paper import some_cards, win_quine
from tests.hall.test_tombola import body

GROUPS = re.compile(r"([0-9A-F]{4}(?: [0-9A-F]{4}){4})")
BAR = [{"name": "Bière", "price_eur": 2.5, "stock": 48}, {"name": "Café", "price_eur": 1, "stock": 100}]
NAME = "Salle des fêtes de Saint-Loup"


def make(tmp_path, cards) -> Hall:
    config = parse_config({"hall": {"name": NAME, "data_dir": str(tmp_path)}})
    return Hall(
        config, Journal(tmp_path / "journal.sqlite"), CardBook(cards), voucher_secret=b"k" * 32, rng=random.Random(2)
    )


def fixed_evening(tmp_path) -> tuple[Hall, dict]:
    """Cartons 15 € (9 cash, 6 card), a 30 € bought ham won, a donated basket not won; the tombola 42 € (20 cash,
    20 card, 2 cheque) for 31 € of costs and lots; the buvette 8 € (5 cash, 3 card, a coffee free) for 12 €."""
    cards = some_cards(12)
    ids = list(cards)
    hall = make(tmp_path, cards)
    hall.sell(ids[:3], role="desk", payment="especes", cents=900)
    hall.sell(ids[3:5], role="desk", payment="carte", cents=600)
    hall.prepare_tombola(body(), role="admin")
    hall.sell_tombola(buyer="Mme Roux", payment="especes", count=10, role="desk")
    hall.sell_tombola(buyer="M. Abel", payment="carte", carnets=1, role="desk")
    hall.sell_tombola(buyer="Famille Lenoir", payment="cheque", tickets=[99], role="desk")
    hall.set_buvette_products(BAR, 12, role="admin")
    hall.buvette_sell([{"product": "Bière", "qty": 2}], "cash", 5, role="buvette")
    hall.buvette_sell([{"product": "Café", "qty": 3}], "card", role="buvette")
    hall.buvette_sell([{"product": "Café", "qty": 1}], "free", role="buvette")
    lots = [LotSpec("quine", "Jambon", 30.0), LotSpec("carton_plein", "Panier garni", 20.0, "Boulangerie Mar")]
    hall.start_partie(lots=lots, role="speaker")
    win_quine(hall, ids[0])
    hall.clear(role="speaker", force=True)
    return hall, cards


def printed_close(hall) -> bytes:
    """The evening closed and its board's copy printed on a real TCP printer: the bytes it took."""
    sink = PrinterSink()
    sink.start()
    queue = PrintQueue(
        hall,
        EscposDevice(f"tcp://127.0.0.1:{sink.port}?timeout=2"),
        retry_initial_s=0.005,
        retry_max_s=0.05,
        poll_s=None,
    )
    done = threading.Event()
    hall.subscribe(lambda record: done.set() if record.type == "report:ticket_printed" else None)
    queue.start()
    try:
        hall.close_evening(role="speaker")
        assert done.wait(15)
        return sink.wait_for_jobs(2)[-1]  # the ham's voucher, then the board's copy
    finally:
        queue.stop()
        sink.stop()


def accounts_lines(text: str) -> list[str]:
    """The ticket's lines from « COMPTES DE LA SOIRÉE » to the rule after it, spaces collapsed."""
    lines = [re.sub(r"\s+", " ", line).strip() for line in text.splitlines()]
    start = lines.index("COMPTES DE LA SOIRÉE")
    end = next(i for i in range(start, len(lines)) if set(lines[i]) == {"-"})
    return lines[start + 1 : end]


def test_the_board_s_copy_prints_the_three_accounts_summed_by_hand_and_as_the_report_says(tmp_path):
    hall, _ = fixed_evening(tmp_path)
    text = decode_text(printed_close(hall))
    assert accounts_lines(text) == [
        "Cartons",
        "Espèces 9,00 €",
        "Carte bancaire 6,00 €",
        "Chèques 0,00 €",  # each means of the caisse, as the report lists them
        "Recette 15,00 €",
        "Frais 30,00 €",  # the ham the association bought; the donated basket, not won, costs nothing
        "Solde -15,00 €",
        "Tombola",
        "Espèces 20,00 €",
        "Carte bancaire 20,00 €",
        "Chèques 2,00 €",
        "Recette 42,00 €",
        "Frais 31,00 €",  # 5 € of costs, the basket 20 € and the cider 6 € bought (the ham given)
        "Solde 11,00 €",
        "Buvette",
        "Espèces 5,00 €",
        "Carte bancaire 3,00 €",  # the coffee given free is no takings
        "Recette 8,00 €",
        "Frais 12,00 €",
        "Solde -4,00 €",
        "Total de la soirée",
        "Recette 65,00 €",
        "Frais 73,00 €",
        "Solde -8,00 €",
    ]
    # beside the fingerprint, in the same paper: the close's copy, its record's hash
    (request,) = [r for r in hall.records() if r.type == "report:ticket_requested"]
    assert request.event.closing and "clôture de la soirée" in text
    assert GROUPS.search(text).group(1) == Fingerprint(request.seq, request.at, request.hash).shown
    # the paper's accounts are the treasurer's report's
    on_paper = [(a.rubrique, dict(a.takings), a.costs_cents) for a in request.event.accounts]
    in_report = [(a.rubrique, a.takings_cents, a.costs_cents) for a in evening_accounts(hall.report())]
    assert on_paper == in_report
    hall.journal.close()


def test_an_evening_with_the_cartons_only_prints_their_account_and_the_total(tmp_path):
    cards = some_cards(12)
    hall = make(tmp_path, cards)
    hall.sell(list(cards)[:2], role="desk", payment="cheque", cents=600)
    hall.start_partie(role="speaker")
    hall.clear(role="speaker", force=True)
    hall.close_evening(role="admin")
    (job,) = hall.tickets_to_print()
    lines = accounts_lines(decode_text(render_ticket(NAME, job)))
    assert lines[0] == "Cartons" and "Tombola" not in lines and "Buvette" not in lines
    assert lines[-4:] == ["Total de la soirée", "Recette 6,00 €", "Frais 0,00 €", "Solde 6,00 €"]
    hall.journal.close()


def test_the_accounts_are_journalled_with_the_ticket_and_a_restart_prints_the_same_paper(tmp_path):
    hall, cards = fixed_evening(tmp_path)
    hall.close_evening(role="speaker")
    (owed,) = hall.tickets_to_print()
    hall.journal.close()
    again = make(tmp_path, cards)
    (replayed,) = again.tickets_to_print()
    assert replayed == owed and replayed.request.accounts[1] == TicketAccount(
        "tombola", (("especes", 2000), ("carte", 2000), ("cheque", 200)), 3100
    )
    assert render_ticket(NAME, replayed) == render_ticket(NAME, owed)
    again.journal.close()


def test_a_ticket_journalled_before_the_accounts_still_reads_and_prints_the_cartons_takings(tmp_path):
    hall, _ = fixed_evening(tmp_path)
    record = hall.request_ticket(role="admin")
    stored = to_payload(record.event)
    del stored["accounts"]  # as an older hall journalled it
    old = from_payload("report:ticket_requested", stored)
    assert old.accounts == () and old.receipts_cents == 1500
    text = decode_text(render_ticket(NAME, TicketJob(old, Fingerprint(record.seq, record.at, record.hash))))
    assert "COMPTES DE LA SOIRÉE" not in text
    lines = [re.sub(r"\s+", " ", line).strip() for line in text.splitlines()]
    assert {"Recette 15,00 €", "Espèces 9,00 €", "Carte bancaire 6,00 €"} <= set(lines)
    hall.journal.close()
