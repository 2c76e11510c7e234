"""The report's three files in one language, chosen explicitly (``loto-hall report --lang``, ``/api/report.*?lang=``)
and the hall's by default — never the page's for one and the hall's for another — and what each file says of itself:
the PDF's document information, its catalogue's /Lang and its XMP; the workbook's properties. Read back with
pypdfium2, pikepdf and openpyxl from the files the command line and the API write."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pikepdf
import pypdfium2 as pdfium
import pytest

from hall.app.cli import main
from hall.app.paper.report_pdf import write_report_pdf
from hall.app.paper.report_xlsx import write_report_xlsx
from hall.money.report_csv import HEADERS
from tests.display.conftest import PINS, make_app
from tests.paper.evening import play

HALL = "Comité des fêtes de Saint-Étienne-de-Saint-Geoirs"
WORDS = {  # (the PDF's title, its first heading, the CSV's first header, the workbook's first sheet)
    "fr": ("Rapport de la soirée — " + HALL, "Résumé", HEADERS["fr"]["section"], "Résumé"),
    "en": ("Report of the evening — " + HALL, "Summary", HEADERS["en"]["section"], "Summary"),
}


def first_page(pdf: bytes) -> str:
    doc = pdfium.PdfDocument(io.BytesIO(pdf))
    try:
        return doc[0].get_textpage().get_text_range()  # the tax office's page, the last, stays French
    finally:
        doc.close()


def check_language(pdf: bytes, csv_text: str, xlsx: bytes, lang: str) -> None:
    """The three files of one report all in ``lang``, and each saying so of itself."""
    title, heading, header, sheet = WORDS[lang]
    other = WORDS["en" if lang == "fr" else "fr"]
    page = first_page(pdf)
    assert title.split(" — ")[0] in page and heading in page and other[1] not in page
    assert csv_text.lstrip("\ufeff").split(";", 1)[0] == header
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        info = doc.docinfo
        assert str(info.Title) == title and str(info.Author) == HALL and str(info.Creator) == "loto-hall"
        assert str(info.Subject).startswith("Loto du " if lang == "fr" else "Loto of ")
        assert str(doc.Root.Lang) == lang
        meta = doc.open_metadata()
        assert meta["dc:title"] == title and meta["dc:creator"] == [HALL] and set(meta["dc:language"]) == {lang}
        assert meta["dc:description"] == str(info.Subject) and meta.pdfa_status == "2B"
    wb = openpyxl.load_workbook(io.BytesIO(xlsx))
    assert wb.sheetnames[0] == sheet
    props = wb.properties
    assert (props.title, props.creator, props.language) == (title, HALL, lang)
    assert props.subject == str(info.Subject)


@pytest.fixture(scope="module")
def halls(tmp_path_factory) -> dict[str, Path]:
    """A French hall's and an English hall's evening, each with its configuration file."""
    root = tmp_path_factory.mktemp("lang")
    out = {}
    for lang in ("fr", "en"):
        folder = root / lang
        play(folder / "hall", language=lang).journal.close()
        config = folder / "hall.toml"
        config.write_text(
            f'[hall]\nname = "{HALL}"\nlanguage = "{lang}"\ndata_dir = "{folder / "hall"}"\n', encoding="utf-8"
        )
        out[lang] = config
    return out


@pytest.mark.parametrize(
    ("hall", "asked", "expected"),
    [("fr", None, "fr"), ("en", None, "en"), ("fr", "en", "en"), ("en", "fr", "fr")],
)
def test_the_command_line_writes_the_three_files_in_one_language(halls, tmp_path, hall, asked, expected):
    args = ["report", "--config", str(halls[hall]), *(["--lang", asked] if asked else [])]
    out = {ext: tmp_path / f"r.{ext}" for ext in ("pdf", "csv", "xlsx")}
    assert main([*args, *(a for ext, path in out.items() for a in (f"--{ext}", str(path)))]) == 0
    check_language(
        out["pdf"].read_bytes(), out["csv"].read_text(encoding="utf-8-sig"), out["xlsx"].read_bytes(), expected
    )


def test_the_command_line_refuses_another_language(halls, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["report", "--config", str(halls["fr"]), "--lang", "de", "--pdf", str(tmp_path / "r.pdf")])
    assert exit_.value.code == 2 and "--lang" in capsys.readouterr().err
    assert not (tmp_path / "r.pdf").exists()


@pytest.fixture
def admin(tmp_path):
    """A French hall's /api with the real report makers, and an admin's headers."""
    h = play(tmp_path / "hall", auth=dict(PINS))
    app, _ = make_app(h, h.config, documents={"report_pdf": write_report_pdf, "report_xlsx": write_report_xlsx})
    token = app.test_client().post("/api/login", json={"pin": PINS["admin_pin"]}).get_json()["token"]
    yield app.test_client(), {"Authorization": "Bearer " + token}
    h.journal.close()


def downloads(client, headers: dict, query: str = "") -> tuple[bytes, str, bytes]:
    got = [client.get(f"/api/report.{ext}{query}", headers=headers) for ext in ("pdf", "csv", "xlsx")]
    assert [g.status_code for g in got] == [200, 200, 200]
    return got[0].get_data(), got[1].get_data(as_text=True), got[2].get_data()


def test_the_api_speaks_the_hall_s_language_whatever_the_page_speaks(admin):
    """An admin whose browser or /admin page is in English still gets the French hall's report in French, all
    three files (the PDF followed the page, the CSV and the workbook the hall)."""
    client, headers = admin
    check_language(*downloads(client, {**headers, "Accept-Language": "en"}), "fr")
    client.set_cookie("lang", "en")  # the page switched to English
    check_language(*downloads(client, headers), "fr")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_api_writes_the_language_asked(admin, lang):
    client, headers = admin
    check_language(*downloads(client, headers, f"?lang={lang}"), lang)


@pytest.mark.parametrize("bad", ["de", "EN", "", "fr-FR", "x" * 500])
def test_the_api_refuses_another_language_before_writing(admin, bad):
    client, headers = admin
    for ext in ("pdf", "csv", "xlsx"):
        got = client.get(f"/api/report.{ext}?lang={bad}", headers=headers)
        assert got.status_code == 422 and got.get_json()["error"] == "bad_field", (ext, bad)
