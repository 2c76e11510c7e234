"""The salle annexe in the evening's papers (issue 43, RULES L23): a fixed evening — one annex's claim, its link
lost, the speaker going on without it, its return — read back from the PDF's text, the workbook's sheet and the
CSV's rows (``rubrique`` ``salles``), in French and in English. Real journal, real files."""

from __future__ import annotations

import csv
import io

import pytest
from openpyxl import load_workbook

from hall.app.paper.report_pdf import draft_pdf
from hall.app.paper.report_xlsx import write_report_xlsx
from hall.money.report_csv import write_csv
from tests.display.test_rooms_main import annex, bearer, clock, join, open_room  # noqa: F401  (fixtures)


@pytest.fixture
def evening(annex, clock):  # noqa: F811
    """Salle B joined, claims a quine after the 4, is lost, gone on without, and back; Salle C opened, never joined."""
    c = annex.app.test_client()
    token = join(annex)
    open_room(annex, "Salle C")
    h = annex.hall
    h.start_partie(role="speaker")
    h.draw(4, role="speaker")
    assert c.post("/api/rooms/Salle B/claim", json={"kind": "quine"}, headers=bearer(token)).status_code == 200
    h.resume(role="speaker")
    clock.move(3.5)
    h.watch_rooms()
    assert c.post("/api/rooms/Salle B/go-on", headers=annex.headers("speaker")).status_code == 200
    h.draw(17, role="speaker")
    assert c.post("/api/rooms/Salle B/beat", json={"seq": 1}, headers=bearer(token)).status_code == 200
    return annex


def _pdf_text(report) -> str:
    import subprocess

    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=draft_pdf(report), capture_output=True, check=True)
    return out.stdout.decode()


def test_the_pdf_says_one_event_two_rooms_and_each_fact_of_the_annex(evening):
    text = _pdf_text(evening.hall.report())
    assert "1 événement, 3 salles, même tirage" in text
    assert "Salle B" in text and "Salle C" in text
    for words in ("quine en salle annexe", "liaison perdue", "continué sans la salle annexe", "liaison rétablie"):
        assert words in text, words
    table = text[text.index("Salles\n") :] if "Salles\n" in text else text
    assert "Dernière" in table and "Fait" in table and "Détail" in table


def test_the_workbook_has_a_sheet_of_the_rooms_one_row_a_fact(evening, tmp_path):
    path = tmp_path / "rapport.xlsx"
    write_report_xlsx(evening.hall.report(), path)
    book = load_workbook(path)
    sheet = next(ws for ws in book.worksheets if ws.title.startswith("Salles"))
    rows = [tuple(row) for row in sheet.iter_rows(values_only=True)]
    header = rows[0]
    assert header[:5] == ("Salle annexe", "Fait", "Partie", "Dernière boule", "Type")
    facts = [(r[0], r[1], r[2], r[3]) for r in rows[1:] if r[0]]
    assert facts == [
        ("Salle B", "quine en salle annexe", 1, 4),
        ("Salle B", "liaison perdue : le tirage a attendu", 1, 4),
        ("Salle B", "continué sans la salle annexe", 1, 4),
        ("Salle B", "liaison rétablie", None, None),
    ]
    assert rows[1][4] == "Quine" and rows[4][5] == "après avoir continué sans elle"
    summary = [r[0] for r in book.worksheets[0].iter_rows(values_only=True)]
    assert any(str(v).startswith("1 événement, 3 salles, même tirage : ") for v in summary), summary


def _csv(report) -> list[dict]:
    out = io.StringIO()
    write_csv(report, out)
    return list(csv.DictReader(io.StringIO(out.getvalue().lstrip("\ufeff")), delimiter=";"))


def test_the_csv_has_the_rubric_salles_with_each_claim_wait_go_on_and_return(evening):
    rows = _csv(evening.hall.report())
    meta = [r for r in rows if r["libellé"] == "salles"]
    assert len(meta) == 1 and meta[0]["nombre"] == "3"
    assert "1 événement, 3 salles, même tirage (Salle B · Salle C)" in meta[0]["détail"]
    salles = [r for r in rows if r["rubrique"] == "salles"]
    assert [(r["libellé"], r["état"], r["partie"], r["numéro"]) for r in salles] == [
        ("Salle B", "quine en salle annexe", "1", "4"),
        ("Salle B", "liaison perdue avec la salle annexe", "1", "4"),
        ("Salle B", "continué sans la salle annexe", "1", "4"),
        ("Salle B", "liaison rétablie", "", ""),
    ]
    assert salles[0]["type"] == "Quine" and salles[0]["rôle"] == "annex"
    assert salles[2]["rôle"] == "speaker" and salles[1]["rôle"] == "system"
    assert "après avoir continué sans elle" in salles[3]["détail"]
    assert all(r["heure"] for r in salles)
    assert not [r for r in rows if r["rubrique"].startswith("room")]  # one rubric, not one a fact


def test_an_english_hall_reads_the_rooms_in_english(evening):
    report = evening.hall.report()
    from dataclasses import replace

    english = replace(report, language="en")
    rows = _csv(english)
    salles = [r for r in rows if r["section"] == "salles"]
    assert [r["status"] for r in salles] == ["room_claim", "room_lost", "room_go_on", "room_back"]
    assert "1 event, 3 rooms, same draw: Salle des fêtes de Test · Salle B · Salle C" in _pdf_text(english)


def test_an_evening_in_one_room_has_no_rooms_rubric(tmp_path):
    from tests.display.conftest import make_room

    room = make_room(tmp_path)
    room.hall.start_partie(role="speaker")
    report = room.hall.report()
    assert not [r for r in _csv(report) if r["rubrique"] == "salles" or r["libellé"] == "salles"]
    assert "même tirage" not in _pdf_text(report)
    room.hall.journal.close()
