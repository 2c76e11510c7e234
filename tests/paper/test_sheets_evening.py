"""The evening's name on every carton of every layout (docs/treasurer.md: « le nom de la soirée … sont imprimés sur
chaque carton »), whatever the hall's name and its logo: from the PDF's own text, slot by slot, as the command line,
the writer and /admin print them."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from PIL import Image

from display.services import services_of
from hall.app.cli import main
from hall.app.paper.sheet_layout import PER_PAGE, layout
from hall.app.paper.sheets import write_cards_pdf
from hall.cartons.planches import generate_cards
from tests.display.test_sales_api import sales_room

EVENING = "Grand loto du 14 février 2027"
NAMES = (
    "Club",
    "Comité des fêtes de Saint-Médard-en-Jalles",
    "Association sportive et culturelle des anciens élèves de l'école Jean-Jaurès de Villeneuve-sur-Lot",
)


def slots_text(pdf_bytes: bytes, per_page: int) -> list[str]:
    """The text printed in each carton's slot of the first page, read from the PDF (lines joined by spaces)."""
    pdf = pdfium.PdfDocument(io.BytesIO(pdf_bytes))
    try:
        text, lay = pdf[0].get_textpage(), layout(per_page)
        out = []
        for index in range(per_page):
            ox, oy = lay.slot_origin(index)
            out.append(" ".join(text.get_text_bounded(ox, oy, ox + lay.slot_w, oy + lay.slot_h).split()))
        return out
    finally:
        pdf.close()


@pytest.mark.parametrize("per_page", PER_PAGE)
@pytest.mark.parametrize("name", NAMES, ids=("short", "medium", "long"))
@pytest.mark.parametrize("with_logo", (False, True), ids=("", "logo"))
def test_every_layout_prints_the_evening_on_every_carton(tmp_path, per_page, name, with_logo):
    logo = tmp_path / "logo.png"
    Image.new("RGB", (120, 80), (200, 30, 30)).save(logo)
    out = io.BytesIO()
    cards = generate_cards(per_page, seed="soir", series="E")
    write_cards_pdf(cards, out, name, "E", per_page=per_page, evening=EVENING, logo=str(logo) if with_logo else None)
    for slot in slots_text(out.getvalue(), per_page):
        assert EVENING in slot, slot  # whole, never cut
        assert name.split()[0] in slot and "Série E" in slot


def test_a_planche_without_an_evening_prints_none(tmp_path):
    out = io.BytesIO()
    write_cards_pdf(generate_cards(12, seed="x", series="E"), out, "Club", "E", per_page=12)
    assert all("Grand loto" not in slot and "Club" in slot for slot in slots_text(out.getvalue(), 12))


@pytest.mark.parametrize("per_page", (2, 6, 12))
def test_the_command_line_prints_the_configured_evening(tmp_path, per_page):
    config = tmp_path / "loto-hall.toml"
    config.write_text(
        f'[hall]\nname = "Comité des fêtes de Saint-Médard"\nevening = "{EVENING}"\ndata_dir = "{tmp_path}"\n',
        encoding="utf-8",
    )
    out = tmp_path / "planches.pdf"
    args = ["cards", "generate", "--count", str(per_page), "--series", "S", "--per-page", str(per_page)]
    assert main([*args, "--pdf", str(out), "--config", str(config)]) == 0
    assert all(EVENING in slot for slot in slots_text(out.read_bytes(), per_page))


@pytest.mark.parametrize("per_page", (2, 6, 12))
def test_admin_prints_the_evening_on_every_layout(tmp_path, per_page):
    room = sales_room(tmp_path / str(per_page), count=12, extra={"hall": {"evening": EVENING}})
    services_of(room.app).documents["cards_pdf"] = write_cards_pdf
    try:
        resp = room.app.test_client().get(f"/api/cards.pdf?per_page={per_page}", headers=room.headers("admin"))
        assert resp.status_code == 200
        assert all(EVENING in slot and "Foyer rural" in slot for slot in slots_text(resp.data, per_page))
    finally:
        room.hall.journal.close()
