"""The treasurer's papers are one model (issue 41, item 4): the report built once as typed sections
(``hall.money.papers``), every heading once and in the catalogue; the workbook writes a sheet a section, and a
rubric added to the papers in one place (the tombola, here) comes out on every paper — the workbook, the CSV and
the PDF — typed as its cells say."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import openpyxl
import pypdfium2 as pdfium
import pytest
from babel.messages.pofile import read_po

from hall.app.paper.report_pdf import write_report_pdf
from hall.app.paper.report_xlsx import write_report_xlsx
from hall.money import papers as papers_module
from hall.money.paper_cells import N_, At, Column, Kind, Money, Said, Section, State, States, Text
from hall.money.papers import LAID_OUT, SECTIONS, papers
from hall.money.report import EveningReport, report_from_hall, written_in
from hall.money.report_csv import write_csv
from tests.paper.evening import NUMBER_LIKE_IDS, play

EURO = '#,##0.00 "€";-#,##0.00 "€"'
CATALOGUE = Path(__file__).resolve().parents[2] / "display/translations/en/LC_MESSAGES/messages.po"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> EveningReport:
    hall = play(tmp_path_factory.mktemp("papers") / "hall")
    try:
        return report_from_hall(hall)
    finally:
        hall.journal.close()


def test_the_sections_are_the_workbook_s_sheets_each_heading_once(report):
    sections = papers(report)
    keys = [s.key for s in sections]
    assert len(keys) == len(set(keys)) and LAID_OUT <= set(keys)  # LAID_OUT names only rubrics that exist
    for s in sections:
        assert all(len(row) == len(s.columns) for row in s.rows), s.key
    out = io.BytesIO()
    write_report_xlsx(report, out)
    wb = openpyxl.load_workbook(io.BytesIO(out.getvalue()))
    assert wb.sheetnames == [s.heading for s in sections]
    for s in sections:
        ws = wb[s.heading]
        assert [c.value for c in ws[1]] == [c.heading for c in s.columns]
        assert ws.max_row == len(s.rows) + 1


def test_every_heading_of_the_papers_is_in_the_english_catalogue(report):
    english = {m.id: m.string for m in read_po(CATALOGUE.open("rb")) if m.id}
    headings = {s.heading for s in papers(report)} | {c.heading for s in papers(report) for c in s.columns}
    missing = sorted(h for h in headings if not english.get(h))
    assert not missing
    said = {v for s in papers(report) for row in s.rows for v in row if isinstance(v, Said)}
    assert said and not sorted(w for w in said if not english.get(w))


def tombola(report: EveningReport) -> Section:
    """A rubric another engineer may add: the tombola's tickets, as the papers' cells say them."""
    return Section(
        "tombola",
        N_("Tombola"),
        (
            Column("code", N_("Billet")),
            Column("at", N_("Heure")),
            Column("kind", N_("Type")),
            Column("status", N_("État")),
            Column("amount", N_("Montant")),
            Column("drawn", N_("Tiré")),
            Column("flags", N_("Signalement")),
        ),
        (
            (Text(NUMBER_LIKE_IDS[0]), At(report.first_at), Kind("quine"), State("paid"), Money(250), True, States()),
            (Text("=1+1"), At(""), Kind("carton_plein"), State("voided"), Money(-1250), False, States(("cash",))),
        ),
    )


def test_a_rubric_added_in_one_place_comes_out_on_every_paper(report, monkeypatch, tmp_path):
    monkeypatch.setattr(papers_module, "SECTIONS", (*SECTIONS, tombola))
    assert papers(report)[-1].key == "tombola"

    out = io.BytesIO()
    write_report_xlsx(report, out)
    ws = openpyxl.load_workbook(io.BytesIO(out.getvalue()))["Tombola"]
    assert [c.value for c in ws[1]] == ["Billet", "Heure", "Type", "État", "Montant", "Tiré", "Signalement"]
    first, second = ws[2], ws[3]
    assert (first[0].value, first[0].data_type) == ("000123", "s")  # text, its zeros kept
    assert (second[0].value, second[0].data_type) == ("=1+1", "s")  # never a formula
    assert first[1].is_date and second[1].value is None
    assert [first[2].value, first[3].value, second[3].value] == ["Quine", "payée", "annulée"]
    assert (first[4].value, first[4].number_format, second[4].value) == (2.5, EURO, -12.5)
    assert (first[5].value, second[5].value) == (True, False)
    assert second[6].value.startswith("Lot en argent")

    text = io.StringIO()
    write_csv(report, text)
    rows = [r for r in csv.DictReader(io.StringIO(text.getvalue().lstrip("\ufeff")), delimiter=";")]
    tickets = [r for r in rows if r["rubrique"] == "tombola"]
    assert [(t["code"], t["type"], t["état"], t["montant (€)"]) for t in tickets] == [
        ("'000123", "Quine", "payée", "2,50"),  # kept as text, as every carton ID of the CSV (hall.spreadsheet)
        ("'=1+1", "Carton plein", "annulée", "-12,50"),  # never a formula
    ]
    assert tickets[0]["heure"] and "Tiré oui" in tickets[0]["détail"]

    pdf = tmp_path / "r.pdf"
    write_report_pdf(written_in(report, "en"), pdf)
    doc = pdfium.PdfDocument(pdf)
    words = "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    assert "Tombola" in words and "2,50 €" in words and "-12,50 €" in words
    assert "paid" in words and "voided" in words and "yes" in words  # the codes in the reader's language
