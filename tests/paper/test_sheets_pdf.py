"""Carton sheets: rendered with pypdfium2, every QR and Code128 read back with zxing-cpp, every number checked."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
import zxingcpp

from hall.app.cli import main
from hall.app.paper.sheet_layout import PAGE_H, PAGE_W, layout
from hall.app.paper.sheets import write_cards_pdf
from hall.cartons.card_ids import display_card_id
from hall.cartons.planches import generate_cards
from hall.config import Config

SCALE = 3  # 216 dpi, about what a phone camera or a cheap scanner sees


def printed_id(card_id: str) -> str:
    """A carton's ID as the sheet prints it: the check character set apart by a space."""
    return display_card_id(card_id).replace("\u00a0", " ")


def read_back(path, cards, per_page: int, columns: str = "1-9", link: str = "") -> int:
    """Check every page of ``path`` against ``cards`` (each QR code ``link`` + the ID); the number checked."""
    pdf = pdfium.PdfDocument(path)
    lay = layout(per_page)
    checked = 0
    try:
        assert len(pdf) == -(-len(cards) // per_page)
        for page_no, page in enumerate(pdf):
            assert (round(page.get_width()), round(page.get_height())) == (round(PAGE_W), round(PAGE_H))
            expected = cards[page_no * per_page : (page_no + 1) * per_page]
            ids = sorted(cid for cid, _ in expected)
            found = zxingcpp.read_barcodes(page.render(scale=SCALE, grayscale=True).to_pil())
            assert sorted(r.text for r in found if r.format == zxingcpp.BarcodeFormat.QRCode) == [link + i for i in ids]
            assert sorted(r.text for r in found if r.format == zxingcpp.BarcodeFormat.Code128) == ids
            text = page.get_textpage()
            for index, (card_id, card) in enumerate(expected):
                ox, oy = lay.slot_origin(index)
                slot = text.get_text_bounded(ox, oy, ox + lay.slot_w, oy + lay.slot_h)
                assert printed_id(card_id) in slot  # the check character set apart: A-00412 K
                gx, gy, gw, gh = lay.grid
                cw, ch = gw / 9, gh / 3

                def cell(r: int, k: int) -> int | None:
                    left, bottom = ox + gx + k * cw, oy + gy + (2 - r) * ch
                    t = text.get_text_bounded(left + 1, bottom + 1, left + cw - 1, bottom + ch - 1).strip()
                    return int(t) if t else None

                printed = tuple(tuple(cell(r, k) for k in range(9)) for r in range(3))
                assert printed == card.grid(columns), card_id  # every number in its cell, blanks blank
                rows = [
                    sorted(int(n) for n in re.findall(r"\d+", line))
                    for line in text.get_text_bounded(ox + gx, oy + gy, ox + gx + gw, oy + gy + gh).splitlines()
                ]
                assert rows == [list(r) for r in card.rows]
                checked += 1
    finally:
        pdf.close()
    return checked


@pytest.mark.parametrize("per_page", [6, 12])
def test_every_qr_code128_and_number_read_back(tmp_path, per_page):
    cards = generate_cards(30, seed="sheets", series="B")
    calls = []
    pages = write_cards_pdf(
        cards,
        tmp_path / "c.pdf",
        "Salle des fêtes d'Égletons",
        "B",
        per_page=per_page,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert pages == -(-30 // per_page)
    assert calls[-1] == (30, 30) and len(calls) == pages and calls == sorted(calls)
    assert read_back(tmp_path / "c.pdf", cards, per_page) == 30
    pdf = pdfium.PdfDocument(tmp_path / "c.pdf")
    first = pdf[0].get_textpage().get_text_range()
    assert "Salle des fêtes d'Égletons" in first and "Série" in first and "Découper" in first
    pdf.close()


def test_column_convention_1_10_and_odd_ids(tmp_path):
    cards = generate_cards(12, seed=3, series="C", columns="1-10")
    cards[1] = ("Table-4-rouge", cards[1][1])
    cards[7] = ("z9", cards[7][1])
    write_cards_pdf(cards, tmp_path / "c.pdf", "Loto", "C", per_page=12, columns="1-10")
    assert read_back(tmp_path / "c.pdf", cards, 12, columns="1-10") == 12


def test_sheets_are_reproducible_and_reject_other_sizes(tmp_path):
    cards = generate_cards(7, seed=5)
    write_cards_pdf(cards, tmp_path / "a.pdf", "Loto", "A")
    write_cards_pdf(cards, tmp_path / "b.pdf", "Loto", "A")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    with pytest.raises(ValueError):
        write_cards_pdf(cards, tmp_path / "c.pdf", "Loto", "A", per_page=8)


def test_command_line_writes_the_planches(tmp_path, capsys):
    out = tmp_path / "planches.pdf"
    assert (
        main(
            [
                "cards",
                "generate",
                "--count",
                "18",
                "--series",
                "D",
                "--seed",
                "9",
                "--per-page",
                "12",
                "--pdf",
                str(out),
                "--csv",
                str(tmp_path / "c.csv"),
            ]
        )
        == 0
    )
    link = Config().hall_link("c/")  # the hall's address phones reach, never localhost (INTERFACE §9)
    assert "localhost" not in link and "127.0.0.1" not in link
    assert read_back(out, generate_cards(18, seed="9", series="D"), 12, link=link) == 18
