"""The treasurer's report holds the tombola's and the buvette's accounts beside the cartons' (issue 44 item 3):
takings by payment, costs (lots bought included), balance, and the evening's total — checked by hand on a fixed
evening."""

from __future__ import annotations

import csv
import io

from hall.money.papers import papers
from hall.money.papers_accounts import evening_accounts
from hall.money.report_csv import write_csv
from hall.tombola.account import account
from tests.conftest import cards_from
from tests.hall.test_tombola import CONDUCTED, body

CARDS = cards_from({"A-1": "4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90"})


def evening(make_hall):
    h = make_hall(cards=CARDS)
    h.sell(["A-1"], role="desk", payment="especes", cents=1500)
    h.prepare_tombola(body(), role="admin")  # 2 € a ticket; costs 5 €; lots bought 20 € + 6 €, the ham given
    h.sell_tombola(buyer="Mme Roux", payment="especes", count=10, role="desk")  # 20 €
    h.sell_tombola(buyer="M. Abel", payment="carte", carnets=1, role="desk")  # 20 €
    h.sell_tombola(buyer="Famille Lenoir", payment="cheque", tickets=[99], role="desk")  # 2 €
    h.close_tombola_sales(role="speaker")
    h.draw_tombola(role="speaker", every=True, **CONDUCTED)
    return h


def test_the_tombola_account_by_hand(make_hall):
    h = evening(make_hall)
    a = account(h.records())
    assert a.rubrique == "tombola"
    assert a.takings_cents == {"especes": 2000, "carte": 2000, "cheque": 200}
    assert a.costs_cents == 500 + 2000 + 600 and a.balance_cents == 4200 - 3100


def test_no_tombola_no_account_and_the_report_unchanged(make_hall):
    h = make_hall(cards=CARDS)
    h.sell(["A-1"], role="desk", payment="especes", cents=1500)
    assert account(h.records()) is None
    report = h.report()
    assert report.accounts == () and "accounts" not in {s.key for s in papers(report)}


def test_the_report_lays_the_accounts_side_by_side(make_hall):
    report = evening(make_hall).report()
    cartons, tombola = evening_accounts(report)
    assert (cartons.rubrique, sum(cartons.takings_cents.values()), cartons.costs_cents) == ("cartons", 1500, 0)
    section = next(s for s in papers(report) if s.key == "accounts")
    total = section.rows[-1]
    assert [m.cents for m in total[1:]] == [1500 + 4200, 3100, 1500 + 1100]


def test_the_csv_has_the_tombola_rows_under_its_rubrique(make_hall):
    out = io.StringIO()
    write_csv(evening(make_hall).report(), out)
    rows = list(csv.reader(io.StringIO(out.getvalue().lstrip("\ufeff")), delimiter=";"))
    tombola = [r for r in rows if r[0] == "tombola"]
    amounts = [r[rows[0].index("montant (€)")] for r in tombola]
    assert amounts == ["20,00", "2,00", "20,00", "31,00", "11,00"]  # carte, chèque, espèces; costs; balance
    assert any(r[0] == "comptes de la soirée" for r in rows)


def test_the_pdf_and_the_workbook_carry_the_accounts(make_hall, tmp_path):
    import subprocess

    import openpyxl

    from hall.app.paper.report_pdf import write_report_pdf
    from hall.app.paper.report_xlsx import write_report_xlsx

    report = evening(make_hall).report()
    write_report_pdf(report, tmp_path / "r.pdf")
    text = subprocess.run(["pdftotext", "-layout", tmp_path / "r.pdf", "-"], capture_output=True, text=True).stdout
    assert "Comptes de la soirée" in text and "Tombola" in text
    write_report_xlsx(report, tmp_path / "r.xlsx")
    assert {"Comptes de la soirée", "Tombola"} <= set(openpyxl.load_workbook(tmp_path / "r.xlsx").sheetnames)


BAR = [{"name": "Bière", "price_eur": 2.5, "stock": 48}, {"name": "Café", "price_eur": 1, "stock": 100}]


def test_the_buvette_s_account_stands_beside_the_tombola_s_in_the_report_s_words(make_hall):
    h = evening(make_hall)
    h.set_buvette_products(BAR, 12, role="admin")  # 12 € of goods bought
    h.buvette_sell([{"product": "Bière", "qty": 2}], "cash", 5, role="buvette")  # 5 €
    h.buvette_sell([{"product": "Café", "qty": 3}], "card", role="buvette")  # 3 €
    h.buvette_sell([{"product": "Café", "qty": 1}], "free", role="buvette")  # given: no takings
    report = h.report()
    cartons, tombola, buvette = evening_accounts(report)
    assert (buvette.rubrique, buvette.takings_cents, buvette.costs_cents) == (
        "buvette",
        {"especes": 500, "carte": 300},
        1200,
    )
    section = next(s for s in papers(report) if s.key == "accounts")
    total = section.rows[-1]
    assert [m.cents for m in total[1:]] == [1500 + 4200 + 800, 3100 + 1200, 1500 + 1100 - 400]
    bar = next(s for s in papers(report) if s.key == "buvette")
    assert [str(row[1]) for row in bar.rows if row[1] is not None] == ["carte", "especes"]  # never the « cash » lot


def test_an_evening_without_a_buvette_has_no_buvette_account(make_hall):
    assert [a.rubrique for a in evening(make_hall).report().accounts] == ["tombola"]


def test_the_buvette_s_rubric_says_purchases_and_carries_the_stock_counted_at_the_close(make_hall):
    h = evening(make_hall)
    h.set_buvette_products(BAR, 12, role="admin")
    h.buvette_sell([{"product": "Bière", "qty": 2}], "cash", 5, role="buvette")  # 46 beers expected after
    h.buvette_close({"Bière": 43, "Café": 100}, role="buvette")  # 3 beers gone: 3 × 2,50 € = 7,50 €
    report = h.report()
    bar = next(s for s in papers(report) if s.key == "buvette")
    labels = [str(row[0]) for row in bar.rows]
    assert "Achats de la buvette (boissons, nourriture)" in labels and "Frais (lots achetés compris)" not in labels
    tombola = next(s for s in papers(report) if s.key == "tombola")
    assert "Frais (lots achetés compris)" in [str(row[0]) for row in tombola.rows]  # a tombola's costs hold its lots
    gaps = [(str(row[1]), row[2].cents) for row in bar.rows if str(row[0]).startswith("Écart de stock")]
    assert gaps == [("Z 1 · Bière : 46 → 43 (-3)", -750), ("Z 1 · Café : 100 → 100 (+0)", 0)]
    balance = next(row for row in bar.rows if str(row[0]) == "Solde")
    assert balance[2].cents == 500 - 1200  # the gap is outside the balance: money counts money
    out = io.StringIO()
    write_csv(report, out)
    rows = list(csv.reader(io.StringIO(out.getvalue().lstrip("\ufeff")), delimiter=";"))
    amount = rows[0].index("montant (€)")
    gap_rows = [r for r in rows if r[0] == "buvette" and "Bière : 46 → 43" in ";".join(r)]
    assert len(gap_rows) == 1 and gap_rows[0][amount] == "-7,50"


def test_the_tax_page_fills_the_buvette_and_the_tombola_from_their_accounts(make_hall, tmp_path):
    import subprocess

    from hall.app.paper.report_pdf import write_report_pdf

    h = evening(make_hall)  # cartons 15 €; tombola 42 €, its costs 31 €
    h.set_buvette_products(BAR, 12, role="admin")  # 12 € of drinks bought
    h.buvette_sell([{"product": "Bière", "qty": 2}], "cash", 5, role="buvette")  # 5 €
    h.buvette_sell([{"product": "Café", "qty": 3}], "card", role="buvette")  # 3 €
    h.buvette_sell([{"product": "Café", "qty": 1}], "free", role="buvette")  # given: no receipt
    write_report_pdf(h.report(), tmp_path / "r.pdf")
    text = subprocess.run(["pdftotext", "-layout", tmp_path / "r.pdf", "-"], capture_output=True, text=True).stdout
    tax = " ".join(text.split("Relevé pour le service des impôts")[-1].split())
    assert "Buvette : ventes (hors offert) tenue par loto-hall 8,00 €" in tax
    assert "Tombola : billets vendus tenue par loto-hall 42,00 €" in tax
    assert "Autres recettes (entrées, dons…) non tenues par loto-hall à compléter" in tax  # the buvette is kept now
    assert "Recettes tenues par loto-hall 65,00 €" in tax  # 15 + 42 + 8
    assert "− achats de la buvette 12,00 €" in tax and "Solde 22,00 €" in tax  # 15 + (42 − 31) + (8 − 12)


def test_the_tax_page_without_a_buvette_still_asks_for_its_receipts(make_hall, tmp_path):
    import subprocess

    from hall.app.paper.report_pdf import write_report_pdf

    h = make_hall(cards=CARDS)
    h.sell(["A-1"], role="desk", payment="especes", cents=1500)
    write_report_pdf(h.report(), tmp_path / "r.pdf")
    text = subprocess.run(["pdftotext", "-layout", tmp_path / "r.pdf", "-"], capture_output=True, text=True).stdout
    tax = " ".join(text.split("Relevé pour le service des impôts")[-1].split())
    assert "Autres recettes (buvette, entrées, dons…) non tenues par loto-hall à compléter" in tax
    assert "Recettes des cartons 15,00 €" in tax and "tenue par loto-hall" not in tax
