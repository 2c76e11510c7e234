"""The report as a workbook (issue 32, item 6): ``loto-hall report --xlsx`` and ``GET /api/report.xlsx`` (admin),
read back with openpyxl — carton IDs and codes as text, amounts as numbers in euros, dates as dates, one sheet per
rubric, French headers (English for an English hall) — and the CSV read back with Python's csv."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal

import openpyxl
import pytest

from hall.app.cli import main
from hall.money.report_csv import COLUMNS, FRENCH, HEADERS
from tests.display.conftest import PINS, make_app
from tests.paper.evening import GIVEN, KEPT, LONG, NUMBER_LIKE_IDS, POLISH, RECEIPTS, play

EURO = '#,##0.00 "€";-#,##0.00 "€"'


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The evening played, closed, then written by the command line as a workbook and a CSV."""
    folder = tmp_path_factory.mktemp("xlsx")
    play(folder / "hall").journal.close()
    assert (
        main(
            [
                "report",
                "--data-dir",
                str(folder / "hall"),
                "--xlsx",
                str(folder / "r.xlsx"),
                "--csv",
                str(folder / "r.csv"),
            ]
        )
        == 0
    )
    return folder


def table(ws) -> list[dict]:
    """A sheet as dicts keyed by its header row (each value the openpyxl cell, for its type and format)."""
    rows = list(ws.iter_rows())
    head = [c.value for c in rows[0]]
    return [dict(zip(head, row)) for row in rows[1:]]


def test_the_workbook_has_a_sheet_per_rubric_with_typed_cells(written):
    wb = openpyxl.load_workbook(written / "r.xlsx")
    assert wb.sheetnames[:4] == ["Résumé", "Ventes", "Lots donnés", "Lots non donnés"]
    assert {"Recette", "Parties", "Gagnants", "Tirages", "Bons", "Fréquences"} <= set(wb.sheetnames)
    sales = table(wb["Ventes"])
    first = sales[0]
    assert (first["Cartons"].value, first["Cartons"].data_type) == ("000123", "s")  # text, zeros kept
    assert first["Acheteur"].value == POLISH and sales[1]["Acheteur"].value == LONG
    assert sales[1]["Cartons"].value == "0042 12E3" and sales[1]["Cartons"].data_type == "s"
    assert isinstance(first["Heure"].value, dt.datetime) and first["Heure"].is_date
    assert first["Nombre"].value == 1 and first["Nombre"].data_type == "n"
    for row in sales:
        for column in ("Encaissé", "Montant de la vente"):
            assert row[column].data_type == "n" and row[column].number_format == EURO
    assert sum(Decimal(str(r["Encaissé"].value)) for r in sales) * 100 == RECEIPTS  # the takings, numbers
    assert [r["État"].value for r in sales] == ["payée", "payée", "annulée", "réservée, non payée", "payée"]
    given, kept = table(wb["Lots donnés"]), table(wb["Lots non donnés"])
    assert sum(Decimal(str(r["Valeur"].value or 0)) for r in given) * 100 == GIVEN
    assert sum(Decimal(str(r["Valeur"].value or 0)) for r in kept) * 100 == KEPT
    panier = next(r for r in given if r["Libellé"].value == "Panier garni")
    assert (panier["Carton"].value, panier["Carton"].data_type, panier["Gagnant"].value) == ("000123", "s", POLISH)
    assert panier["Bon"].value.startswith("00001-") and panier["Bon"].data_type == "s"
    assert next(r for r in given if r["Libellé"].value == "Jambon")["Reporté de la partie"].value == 1
    vouchers = table(wb["Bons"])
    assert {r["Carton"].value for r in vouchers} >= {"000123"} and all(r["Code"].data_type == "s" for r in vouchers)
    assert all(isinstance(r["Émis"].value, dt.datetime) for r in vouchers)
    summary = {r["Rubrique"].value: r for r in table(wb["Résumé"])}
    assert summary["Valeur totale des lots"]["Montant"].value * 100 == GIVEN
    assert summary["Valeur totale des lots"]["Montant"].number_format == EURO
    draws = table(wb["Tirages"])
    assert all(r["Numéro"].data_type == "n" and 1 <= r["Numéro"].value <= 90 for r in draws)


def test_the_csv_reads_back_with_semicolons_and_sums(written):
    with open(written / "r.csv", encoding="utf-8-sig", newline="") as fh:
        rows = [{k: row[HEADERS["fr"][k]] for k in COLUMNS} for row in csv.DictReader(fh, delimiter=";")]
    sales = [r for r in rows if r["section"] == FRENCH["sale"]]
    amount = sum(Decimal(r["amount"].replace(",", ".")) for r in sales)
    assert amount * 100 == RECEIPTS
    assert {r["card_id"] for r in sales} >= {"'" + NUMBER_LIKE_IDS[0]}


def test_an_english_hall_gets_english_headers(tmp_path):
    play(tmp_path / "hall", language="en").journal.close()
    config = tmp_path / "hall.toml"
    config.write_text(f'[hall]\nlanguage = "en"\ndata_dir = "{tmp_path / "hall"}"\n', encoding="utf-8")
    assert main(["report", "--config", str(config), "--xlsx", str(tmp_path / "r.xlsx")]) == 0
    wb = openpyxl.load_workbook(tmp_path / "r.xlsx")
    assert wb.sheetnames[:4] == ["Summary", "Sales", "Lots given", "Lots not given"]
    sales = table(wb["Sales"])
    assert sales[0]["Cards"].value == "000123" and sales[2]["State"].value == "voided"


def test_the_admin_downloads_the_workbook(tmp_path):
    from hall.app.paper.report_xlsx import write_report_xlsx

    h = play(tmp_path / "hall", auth=dict(PINS))
    try:
        app, _ = make_app(h, h.config, documents={"report_xlsx": write_report_xlsx})

        def login(role: str) -> dict:
            token = app.test_client().post("/api/login", json={"pin": PINS[f"{role}_pin"]}).get_json()["token"]
            return {"Authorization": "Bearer " + token}

        c = app.test_client()
        assert c.get("/api/report.xlsx", headers=login("desk")).status_code == 403
        got = c.get("/api/report.xlsx", headers=login("admin"))
        assert got.status_code == 200 and got.mimetype.endswith("spreadsheetml.sheet")
        assert "rapport-soiree.xlsx" in got.headers["Content-Disposition"]
        wb = openpyxl.load_workbook(io.BytesIO(got.get_data()))
        assert table(wb["Ventes"])[0]["Cartons"].value == "000123"
    finally:
        h.journal.close()
