"""The table tent: an A4 sheet folded in two and stood on the tables, the same face on both sides: the Wi-Fi QR
code, then the hall's page QR code, with short instructions (French, then English smaller)."""

from __future__ import annotations

from typing import BinaryIO

from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from hall.app.paper.typeface import BOLD, FONT, fit_lines  # embedded: every hall's name prints

QR_MM = 62  # a phone reads a code this size from across a table


def _qr(canvas: Canvas, text: str, x: float, y: float, size: float) -> None:
    widget = QrCodeWidget(text, barLevel="M", barBorder=4)
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    drawing.add(widget)
    drawing.initialFontName = FONT  # never Helvetica: every font of the PDF embedded
    renderPDF.draw(drawing, canvas, x, y)


def _centred(canvas: Canvas, x: float, y: float, text: str, font: str, size: float, room: float = 270 * mm) -> None:
    """``text`` centred at ``x``: whole, else smaller (down to 60 %), else cut — fitted to ``room`` points."""
    [line], used = fit_lines(text, room, font, size, size * 0.6, 1)
    canvas.setFont(font, used)
    canvas.drawCentredString(x, y, line)


def _face(
    canvas: Canvas, width: float, height: float, *, hall_name: str, ssid: str, password: str, wifi_qr: str, url: str
) -> None:
    """One face of the tent, in a ``width`` × ``height`` box whose origin is its lower-left corner: the hall's
    name, then two columns (QR code, its words beside it), then one line on mobile data."""
    _centred(canvas, width / 2, height - 12 * mm, hall_name, BOLD, 18)
    size = QR_MM * mm
    top = height - 18 * mm
    columns = (
        (
            0,
            wifi_qr,
            "1. Scannez",
            "le Wi-Fi de la salle",
            "1. Scan: the hall's Wi-Fi",
            [ssid] + ([f"mot de passe : {password}"] if password else []),
        ),
        (width / 2, url, "2. Puis scannez", "la page du loto", "2. Then scan: the loto", [url]),
    )
    for x0, text, title, subtitle, english, lines in columns:
        _qr(canvas, text, x0 + 10 * mm, top - size, size)
        x, y = x0 + 14 * mm + size, top - 12 * mm
        canvas.setFont(BOLD, 16)
        canvas.drawString(x, y, title)
        canvas.drawString(x, y - 7 * mm, subtitle)
        canvas.setFont(FONT, 9)
        canvas.drawString(x, y - 13 * mm, english)
        canvas.setFont(BOLD, 11)
        for i, line in enumerate(lines):
            canvas.drawString(x, y - (24 + 6 * i) * mm, line)
    _centred(
        canvas,
        width / 2,
        11 * mm,
        "Gardez vos données mobiles. La page du loto s'ouvre d'elle-même ; sinon, "
        "touchez la notification « Se connecter au réseau ».",
        FONT,
        10,
    )
    _centred(
        canvas,
        width / 2,
        6 * mm,
        'Keep mobile data on. The loto\'s page opens by itself; if not, tap the "Sign in to network" notification.',
        FONT,
        8,
    )


def write_table_tent_pdf(out: BinaryIO, *, hall_name: str, ssid: str, password: str, wifi_qr: str, url: str) -> None:
    """One A4 landscape page: two faces, the top one upside down, to fold along the dashed middle line."""
    width, height = landscape(A4)
    half = height / 2
    canvas = Canvas(out, pagesize=(width, height), initialFontName=FONT)
    canvas.setTitle(f"{hall_name} — Wi-Fi")
    face = dict(hall_name=hall_name, ssid=ssid, password=password, wifi_qr=wifi_qr, url=url)
    _face(canvas, width, half, **face)
    canvas.saveState()
    canvas.translate(width, height)
    canvas.rotate(180)
    _face(canvas, width, half, **face)
    canvas.restoreState()
    canvas.setDash(4, 4)
    canvas.setLineWidth(0.5)
    canvas.line(10 * mm, half, width - 10 * mm, half)
    canvas.showPage()
    canvas.save()
