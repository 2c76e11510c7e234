"""The card book's CSV through LibreOffice Calc as a volunteer uses it: /api/cards.csv downloaded, double-clicked
(Calc's « Import de texte » with its first-run settings), saved with Ctrl+S in the same format, imported again.

LibreOffice headless stands in for the volunteer: ``--infilter`` gives the text-import dialog's choices, the
``--convert-to csv`` filter what « Conserver le format actuel » writes (comma, ``"``, UTF-8, cells as shown).
The dialog's defaults are Calc's own (share/registry/main.xcd, Dialogs/CSVImport): separators ``, ; TAB``, quote
``"``, « Évaluer les formules » and « Détecter les nombres spéciaux » off, the user's language. A volunteer may
have ticked « Détecter les nombres spéciaux » once (Calc remembers it): both are tried, in French and English.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from tests.display.test_sales_api import sales_room
from tests.helpers import refused

SOFFICE = shutil.which("soffice")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(SOFFICE is None, reason="LibreOffice absent (apt-get install libreoffice-calc-nogui)"),
]

# IDs a spreadsheet takes for something else: leading zeros, an exponent, more digits than a double holds, a
# date (with « nombres spéciaux »), a truth value, a plain number; and the generated form beside them
TRICKY = ["000123", "12E3", "0042", "1e5", "12345678901234567", "MAR-12", "JAN-2024", "true", "vrai", "7"]
LANGUAGES = {"fr": 1036, "en": 1033}


def libreoffice_saves(tmp_path, raw: bytes, language: int, special_numbers: bool) -> bytes:
    """``raw`` opened in Calc with the text-import dialog's choices, then saved as CSV: the file as saved."""
    work = tmp_path / f"lo-{language}-{special_numbers}"
    (work / "out").mkdir(parents=True)
    (work / "cartons.csv").write_bytes(raw)
    # separators , ; TAB · quote " · UTF-8 · from line 1 · no column types · language · quoted field as text off ·
    # special numbers · (export-only tokens) · evaluate formulas off
    infilter = f"CSV:44/59/9,34,76,1,,{language},false,{str(special_numbers).lower()},false,false,false,-1,false"
    subprocess.run(
        [
            SOFFICE,
            "--headless",
            f"-env:UserInstallation=file://{work / 'profile'}",
            f"--infilter={infilter}",
            "--convert-to",
            "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true",
            "--outdir",
            str(work / "out"),
            str(work / "cartons.csv"),
        ],
        check=True,
        capture_output=True,
        timeout=180,
        env={"HOME": str(work), "PATH": "/usr/bin:/bin"},
    )
    return (work / "out" / "cartons.csv").read_bytes()


@pytest.fixture
def exported(tmp_path):
    """A hall whose book holds the tricky IDs (some sold) beside generated ones: the room and its CSV."""
    room = sales_room(tmp_path / "hall", count=4)
    cards = [card for _, card in generate_cards(len(TRICKY), "lo", "L", "1-9", 1)]
    lines = ["card_id,row1,row2,row3,sold"]
    for n, (card_id, card) in enumerate(zip(TRICKY, cards, strict=True)):
        lines.append(",".join([card_id, *(" ".join(map(str, row)) for row in card.rows), str(n % 2)]))
    admin = room.headers("admin")
    resp = room.app.test_client().post("/api/cards/import", data="\n".join(lines).encode(), headers=admin)
    assert resp.status_code == 201, resp.get_json()
    yield room, room.app.test_client().get("/api/cards.csv", headers=admin).get_data()
    room.hall.journal.close()


@pytest.mark.parametrize("special_numbers", [False, True], ids=["dialog-defaults", "special-numbers"])
@pytest.mark.parametrize("language", LANGUAGES.values(), ids=LANGUAGES.keys())
def test_the_card_book_opened_and_saved_in_libreoffice_imports_unchanged(tmp_path, exported, language, special_numbers):
    room, original = exported
    saved = libreoffice_saves(tmp_path, original, language, special_numbers)
    other = sales_room(tmp_path / "other", count=0)
    try:
        c, admin = other.app.test_client(), other.headers("admin")
        resp = c.post("/api/cards/import", data=saved, headers={**admin, "Content-Type": "text/csv"})
        assert resp.status_code == 201, (resp.get_json(), saved.decode())
        assert list(other.hall.book.items()) == list(room.hall.book.items())
        assert all(other.hall.book.is_sold(i) == room.hall.book.is_sold(i) for i in room.hall.book)
        assert c.get("/api/cards.csv", headers=admin).get_data() == original
    finally:
        other.hall.journal.close()


def test_a_card_book_a_spreadsheet_made_numbers_of_is_refused_line_by_line(tmp_path, exported):
    """The file as a spreadsheet left it when nothing protected its IDs: imported again into the same hall, each
    line is refused, naming it: 123 is not a new carton beside 000123."""
    room, original = exported
    c, admin = room.app.test_client(), room.headers("admin")
    bare = "\n".join(line.removeprefix("'") for line in original.decode().splitlines())  # as written unprotected
    lines = libreoffice_saves(tmp_path, bare.encode(), LANGUAGES["fr"], False).decode().splitlines()
    before = list(room.hall.book.items())
    # the file's own faults first: 12345678901234567 came back as 1.23456789012346E+016
    body = refused(c.post("/api/cards/import", data="\n".join(lines), headers=admin), 422, "bad_cards")
    assert [n for n, _ in body["errors"]] == [n for n, line in enumerate(lines, 1) if "E+" in line]
    assert "tableur" in body["errors"][0][1]
    # that line put right, every line names the carton it was: the zeros lost, the exponent read
    lines = [line for line in lines if "E+" not in line]
    body = refused(c.post("/api/cards/import", data="\n".join(lines), headers=admin), 422, "bad_cards")
    said = dict((n, message) for n, message in body["errors"])
    at = {line.split(",")[0]: n for n, line in enumerate(lines, 1)}
    assert "000123 du carnet" in said[at["123"]] and "12E3 du carnet" in said[at["12000"]]
    assert "0042 du carnet" in said[at["42"]] and "1e5 du carnet" in said[at["100000"]]
    assert "existe déjà" in said[at["7"]] and "existe déjà" in said[at["A-00001N"]]
    assert sorted(said) == list(range(2, len(lines) + 1))  # nothing added, not one line
    assert list(room.hall.book.items()) == before and len(CardBook.load(room.config.data_dir)) == len(before)
