"""PDFs that print every name (issue 32, item 6): a TrueType font embedded in the report, the tax office's page,
the cartons, the tournament's sheets and standings and the table tent (``pdffonts``: every font embedded); the
names in the text (``pdftotext``): ``Łukasz Wałęsa``, a 40-character buyer; voucher codes never split; a long
hall name whole on the cartons."""

from __future__ import annotations

import io
import re
import subprocess

import pytest

from hall.app.paper.report_pdf import write_report_pdf
from hall.app.paper.sheets import write_cards_pdf
from hall.app.paper.table_tent import write_table_tent_pdf
from hall.app.paper.tournament_pdf import write_sheets_pdf, write_standings_pdf
from hall.app.paper.typeface import fit, fit_lines, lines, width
from hall.cartons.planches import generate_cards
from hall.money.report import report_from_hall
from tests.paper.evening import LONG, POLISH, play

HALL = "Comité des fêtes et d'animation de Saint-Étienne-de-Saint-Geoirs — Łódź"


def fonts(path) -> list[dict]:
    """``pdffonts``' table: one dict per font (name, type, emb)."""
    out = subprocess.run(["pdffonts", str(path)], check=True, capture_output=True, text=True).stdout.splitlines()
    rows = []
    for line in out[2:]:
        cells = line.split()
        name, kind, emb = cells[0], " ".join(cells[1:3]), cells[-5]
        rows.append({"name": name, "type": kind, "emb": emb})
    return rows


def text(path, *args: str) -> str:
    return subprocess.run(["pdftotext", *args, str(path), "-"], check=True, capture_output=True, text=True).stdout


def embedded_only(path) -> None:
    found = fonts(path)
    assert found and all(f["emb"] == "yes" and f["type"].startswith("TrueType") for f in found), found


@pytest.fixture(scope="module")
def report_pdf(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fonts")
    h = play(folder / "hall")
    codes = [v.code for v in report_from_hall(h).vouchers]
    write_report_pdf(report_from_hall(h), folder / "r.pdf")
    h.journal.close()
    return folder / "r.pdf", codes


def test_the_report_embeds_its_font_and_prints_every_name(report_pdf):
    path, codes = report_pdf
    embedded_only(path)
    plain = text(path)
    assert POLISH in plain and "Saint-Étienne-de-Saint-Geoirs" in plain
    # every letter of the long name, in order (wrapped after one of its hyphens, pdftotext joins the two lines)
    assert re.sub(r"[\s-]", "", LONG) in re.sub(r"[\s-]", "", plain)
    layout = text(path, "-layout")
    for code in codes:  # a voucher code is never split: whole on one line, wherever it is printed
        assert code in layout and all(line.count(code[:6]) == line.count(code) for line in layout.splitlines())
    tax = layout.split("Relevé pour le service des impôts")[-1]
    assert "Comité des fêtes de Saint-Étienne-de-Saint-Geoirs" in tax


def test_the_cartons_embed_their_font_and_keep_a_long_hall_name_whole(tmp_path):
    cards = generate_cards(12, seed="fonts", series="A")
    for per_page in (2, 6, 12):
        out = tmp_path / f"c{per_page}.pdf"
        write_cards_pdf(cards, out, HALL, "A", per_page, evening="Grand loto de la Saint-Valentin")
        embedded_only(out)
        joined = " ".join(text(out).split())
        assert joined.count(HALL) >= per_page or joined.count("Łódź") == per_page, per_page
        assert "…" not in text(out), per_page  # the name fits: smaller or on two lines, never cut


WORDS = {
    k: k
    for k in (
        "north",
        "east",
        "south",
        "west",
        "floater",
        "ns",
        "ew",
        "hand",
        "initials",
        "total",
        "code",
        "scan",
        "dealer",
        "rules",
        "place",
        "team",
        "ranking",
        "game_points",
        "note",
        "tied",
        "out",
        "absent",
        "default",
    )
}
WORDS.update(
    {
        "sheet_title": "Feuille de pointage",
        "assign_title": "Placement des tables",
        "standings_title": "Classement",
        "final_title": "Classement final",
        "game": "Partie %(n)s sur %(total)s",
        "session": "Séance %(n)s",
        "table": "Table %(n)s",
        "playoff_wins": "%(n)s barrages gagnés",
    }
)


def test_the_tournament_sheets_and_standings_embed_their_font(tmp_path):
    seats = [{"team": f"T{i}", "name": name} for i, name in enumerate((POLISH, LONG, "Zoë Ørsted", "Ştefan Iğdır"))]
    data = {
        "title": "Tournoi d'euchre",
        "game": 1,
        "games": 3,
        "session": 1,
        "phase": "playing",
        "games_played": 1,
        "tables": [{"table": 1, "code": "K7M2", "seats": seats}],
        "standings": [
            {"place": 1, "name": f"{POLISH} & {LONG}", "players": [POLISH, LONG], "ranking": 3, "game_points": 120}
        ],
    }
    sheets, standings = tmp_path / "s.pdf", tmp_path / "c.pdf"
    with open(sheets, "wb") as fh:
        write_sheets_pdf(data, fh, base_url="http://loto.local", hall_name=HALL, words=WORDS)
    with open(standings, "wb") as fh:
        write_standings_pdf(data, fh, hall_name=HALL, words=WORDS)
    for path in (sheets, standings):
        embedded_only(path)
        assert POLISH in text(path)
    assert "Ştefan Iğdır" in text(sheets)


def test_the_table_tent_embeds_its_font(tmp_path):
    out = io.BytesIO()
    write_table_tent_pdf(out, hall_name=HALL, ssid="Loto-Łódź", password="", wifi_qr="WIFI:S:x;;", url="http://x/")
    (tmp_path / "t.pdf").write_bytes(out.getvalue())
    embedded_only(tmp_path / "t.pdf")
    assert "Łódź" in text(tmp_path / "t.pdf")


def test_text_is_fitted_by_width_not_by_characters():
    wide, narrow = "WWWWWWWWWW", "iiiiiiiiii"  # as many characters, not as wide
    assert fit(narrow, width(narrow)) == narrow and fit(wide, width(narrow)).endswith("…")
    assert width(fit(wide, 30)) <= 30
    [one], size = fit_lines(LONG, width(LONG) * 0.9)  # a little too wide: smaller, on one line
    assert one == LONG and size < 8 and width(LONG, size=size) <= width(LONG) * 0.9
    two, size = fit_lines(LONG, width(LONG) * 0.55)  # much too wide: two lines, cut at a hyphen
    assert len(two) == 2 and "".join(two).replace(" ", "") == LONG.replace(" ", "") and size == 6.5
    assert lines("00042-7KQ4M2AB", 1000) == ["00042-7KQ4M2AB"]
