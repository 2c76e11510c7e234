"""The report's lots (issue 32, item 5): the lots given tonight (won, with the winner, the carton and the voucher)
apart from those not given (kept, with their value); a carried lot « reporté à la partie N » under its first partie
and counted once, where it is won; the money flag on the tax office's page; the CSV's sale rows summing to the
takings; text that looks like a number kept as text."""

from __future__ import annotations

import csv
import io
import subprocess
from decimal import Decimal

import pytest

from hall.app.paper.report_pdf import write_report_pdf
from hall.money.report import report_from_hall
from hall.money.report_csv import COLUMNS, FRENCH, HEADERS, write_csv
from hall.spreadsheet import number_like, protect_text
from tests.paper.evening import GIVEN, KEPT, LONG, NUMBER_LIKE_IDS, POLISH, RECEIPTS, play


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    h = play(tmp_path_factory.mktemp("lots"))
    yield h
    h.journal.close()


def rows_of(report) -> list[dict]:
    out = io.StringIO()
    write_csv(report, out)
    rows = csv.DictReader(io.StringIO(out.getvalue().lstrip("\ufeff")), delimiter=";")
    return [{k: row[HEADERS["fr"][k]] for k in COLUMNS} for row in rows]


def cents(text: str) -> int:
    return int(Decimal(text.replace(",", ".")) * 100)


def test_each_physical_lot_once_given_apart_from_kept(hall):
    report = report_from_hall(hall)
    t = report.takings
    given = {(v.partie, v.label): v for v in t.given}
    kept = {(v.partie, v.label): v for v in t.not_given}
    assert (1, "Panier garni") in given and (2, "Jambon") in given
    assert given[(2, "Jambon")].carried_from == 1  # won where it was carried
    assert (2, "Vélo") in kept and kept[(2, "Vélo")].cents == 89900 and kept[(2, "Vélo")].fate == "kept"
    assert not any(v.partie == 1 and v.label in ("Jambon", "Vélo") for v in t.lots)  # counted once, in partie 2
    assert t.given_cents == GIVEN and t.kept_cents == KEPT and t.donated_cents == 4000
    assert t.balance_cents == RECEIPTS - 3500  # the ham was bought; the bike is kept
    panier = given[(1, "Panier garni")]
    assert panier.cards == ("000123",) and panier.buyers == (POLISH,) and len(panier.vouchers) == 1
    [money] = [v for v in t.lots if v.label == "50 € en espèces"]
    assert money.flags == ("cash",)
    first = report.parties[0]
    assert [(lot.label, lot.fate, lot.carried_to) for lot in first.lots] == [
        ("Panier garni", "given", None),
        ("Jambon", "carried", 2),
        ("Vélo", "carried", 2),
    ]
    totals = report.totals
    assert (totals["lots_awarded"], totals["lots_carried"]) == (len(t.given), 2)
    assert totals["lots_awarded"] + totals["lots_not_awarded"] == len(t.lots) == 5


def test_the_csv_says_given_and_kept_and_its_sale_rows_sum_to_the_takings(hall):
    rows = rows_of(report_from_hall(hall))
    sales = [r for r in rows if r["section"] == FRENCH["sale"]]
    assert len(sales) == 5 and sum(cents(r["amount"]) for r in sales) == RECEIPTS
    voided = [r for r in sales if r["status"] == FRENCH["voided"]]
    unpaid = [r for r in sales if r["status"] == FRENCH["reserved"]]
    assert [(r["amount"], r["detail"]) for r in voided + unpaid] == [
        ("0,00", "non compté dans la recette : 3,00"),
        ("0,00", "non compté dans la recette : 3,00"),
    ]
    given = [r for r in rows if r["section"] == FRENCH["lot_given"]]
    kept = [r for r in rows if r["section"] == FRENCH["lot_kept"]]
    balance = {r["label"]: cents(r["amount"]) for r in rows if r["section"] == FRENCH["balance"]}
    assert sum(cents(r["amount"] or "0") for r in given) == balance[FRENCH["lots_declared"]] == GIVEN
    assert sum(cents(r["amount"] or "0") for r in kept) == balance[FRENCH["lots_kept"]] == KEPT
    [panier] = [r for r in given if r["label"] == "Panier garni"]
    assert panier["card_id"] == "'000123" and "-" in panier["code"]  # the carton, kept as text; its voucher
    assert panier["detail"] == f"donateur Boulangerie Morel · gagnant {POLISH}"
    [ham] = [r for r in given if r["label"] == "Jambon"]
    assert (ham["partie"], ham["detail"]) == ("2", f"gagnant {LONG} · reporté de la partie 1")
    lots1 = {r["label"]: r["status"] for r in rows if r["section"] == FRENCH["lot"] and r["partie"] == "1"}
    assert lots1 == {"Jambon": "reporté à la partie 2", "Vélo": "reporté à la partie 2"}
    [bike] = [r for r in kept if r["label"] == "Vélo"]
    assert (bike["partie"], bike["status"], bike["amount"]) == ("2", FRENCH["kept"], "899,00")
    money = [r for r in given + kept if r["label"] == "50 € en espèces"]
    assert "interdit dans un loto traditionnel" in money[0]["detail"]


def test_text_that_looks_like_a_number_stays_text_in_the_csv(hall):
    rows = rows_of(report_from_hall(hall))
    sold = {r["card_id"] for r in rows if r["section"] == FRENCH["sale"]}
    assert {"'000123", "'0042..12E3"} <= sold or {"'000123"} <= sold
    claimed = {r["card_id"] for r in rows if r["section"] == FRENCH["winner"]}
    assert "'000123" in claimed
    # what LibreOffice Calc 7.4 turns into numbers, dates, times or truth values (hall/spreadsheet.py's note)
    for text in (
        *NUMBER_LIKE_IDS,
        "1e5",
        "-12",
        "1 234",
        "1,5",
        "50%",
        "3,50 €",
        "12/03",
        "2026-11-21",
        "12:30",
        "VRAI",
        "faux",
        "(12)",
        "mars 12",
    ):
        assert number_like(text) and protect_text(text) == "'" + text, text
    for text in ("A-00123K", "D-1", "12 cartons", "12-A", "1er", POLISH, LONG, "00042-7KQ4M2AB"):
        assert not number_like(text) and protect_text(text) == text, text
    assert protect_text('=HYPERLINK("x")') == '\'=HYPERLINK("x")' and protect_text(12) == 12


def pdf_text(path, *args: str) -> str:
    return subprocess.run(["pdftotext", *args, str(path), "-"], check=True, capture_output=True, text=True).stdout


def test_the_pdf_parts_given_from_kept_and_the_tax_page_keeps_the_money_flag(hall, tmp_path):
    write_report_pdf(report_from_hall(hall), tmp_path / "r.pdf")
    text = pdf_text(tmp_path / "r.pdf")
    flat = " ".join(text.split())
    for expected in (
        "Lots donnés ce soir",
        "Lots non donnés",
        "reporté à la partie 2",
        "reporté de la partie 1",
        "Valeur totale des lots 75,00 €",
        "gardé pour un autre loto",
        "899,00 €",
        "hors solde",
    ):
        assert expected in flat, expected
    tax = pdf_text(tmp_path / "r.pdf", "-layout").split("Relevé pour le service des impôts")[-1]
    tax_flat = " ".join(tax.split())
    assert "⚠ Lot en argent : interdit dans un loto traditionnel" in tax_flat and "50 € en espèces" in tax_flat
    assert "Lots non donnés, restés à l'association (hors solde) : 924,00 €" in tax_flat
    assert "− lots donnés achetés 35,00 €" in tax_flat and "Solde -20,00 €" in tax_flat
