"""Printing part of the book: one series or an ID range, 2 to 12 a page, the series label, logo and evening's name."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from PIL import Image

from display.services import services_of
from hall.app.paper.sheet_layout import layout
from hall.app.paper.sheets import write_cards_pdf
from hall.cartons.card_ids import make_card_id
from hall.cartons.planches import generate_cards
from tests.display.test_sales_api import sales_room
from tests.paper.test_sheets_pdf import read_back


@pytest.mark.parametrize("per_page", [2, 3, 4])
def test_the_new_sizes_read_back_with_logo_and_evening(tmp_path, per_page):
    logo = tmp_path / "logo.png"
    Image.new("RGB", (120, 80), (200, 30, 30)).save(logo)
    cards = generate_cards(per_page * 2 + 1, seed="big", series="C")
    write_cards_pdf(
        cards,
        tmp_path / "c.pdf",
        "Amicale laïque",
        "",
        per_page=per_page,
        evening="Grand loto du 14 février",
        logo=str(logo),
    )
    assert read_back(tmp_path / "c.pdf", cards, per_page) == len(cards)
    pdf = pdfium.PdfDocument(tmp_path / "c.pdf")
    page = pdf[0]
    text = page.get_textpage()
    lay = layout(per_page)
    for index in range(per_page):
        ox, oy = lay.slot_origin(index)
        slot = text.get_text_bounded(ox, oy, ox + lay.slot_w, oy + lay.slot_h)
        assert "Amicale laïque" in slot and "Grand loto du 14 février" in slot
        assert "Série" in slot and "C" in slot.split("Série", 1)[1][:6]  # the label is filled, not empty
    assert len([o for o in page.get_objects(max_depth=3) if o.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE]) >= 1
    pdf.close()


def test_an_unreadable_logo_prints_the_cartons_without_it(tmp_path):
    (tmp_path / "logo.png").write_bytes(b"not an image")
    cards = generate_cards(6, seed="x", series="D")
    assert write_cards_pdf(cards, tmp_path / "c.pdf", "Club", "", logo=str(tmp_path / "logo.png")) == 1
    assert read_back(tmp_path / "c.pdf", cards, 6) == 6


def test_admin_prints_one_series_or_an_id_range_only(tmp_path):
    from hall.app.paper.sheets import write_cards_pdf as maker

    room = sales_room(tmp_path, count=36)
    services_of(room.app).documents["cards_pdf"] = maker
    c, admin = room.app.test_client(), room.headers("admin")
    resp = c.get("/api/cards.pdf?range=A-7..A-12&per_page=3", headers=admin)
    assert resp.status_code == 200
    pdf = pdfium.PdfDocument(io.BytesIO(resp.data))
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert len(pdf) == 2
    assert all(make_card_id("A", n) in text for n in range(7, 13))
    assert make_card_id("A", 6) not in text and make_card_id("A", 13) not in text
    assert "Série" in text
    pdf.close()
    assert c.get("/api/cards.pdf?per_page=5", headers=admin).status_code == 422
    assert c.get("/api/cards.pdf?range=A-1..A-99999", headers=admin).get_json()["error"] == "range_too_large"
    assert c.get("/api/cards.pdf?series=Z", headers=admin).status_code == 404
    room.hall.journal.close()
