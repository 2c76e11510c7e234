"""What the PDFs share: where one is written (``PdfTarget``); for the report's pages (report_pdf.py,
report_money_pdf.py) the styles, cells, tables, local times and euros written the French way, and the words'
translation (``say``: the web hands in its gettext, French by default)."""
from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from typing import IO
from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.platypus import Paragraph, Table, TableStyle

Say = Callable[[str], str]
"""A French sentence of a PDF in the reader's language: the web hands in its catalogue (``flask_babel.gettext``);
the command line and the tests keep the French (``french``). The words are the catalogue's message ids: each is
written ``say("…")`` (or ``N_("…")`` where it is only named), and ``pybabel extract -k say -k N_`` finds them."""


def french(text: str) -> str:
    return text


def N_(text: str) -> str:
    """A French word named here and said later (``say(VERDICTS[kind])``): marked for the catalogue only."""
    return text


_styles = getSampleStyleSheet()
H1 = ParagraphStyle("h1", parent=_styles["Title"], fontSize=18, spaceAfter=4)
H2 = ParagraphStyle("h2", parent=_styles["Heading2"], fontSize=13, spaceBefore=10, spaceAfter=4, keepWithNext=1)
H3 = ParagraphStyle("h3", parent=_styles["Heading4"], fontSize=10, spaceBefore=6, spaceAfter=2, keepWithNext=1)
BODY = ParagraphStyle("body", parent=_styles["BodyText"], fontSize=9, leading=11)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=8, leading=10)
HEAD = ParagraphStyle("head", parent=CELL, fontName="Helvetica-Bold", splitLongWords=0)   # never "Dernièr/e"
SMALL = ParagraphStyle("small", parent=BODY, fontSize=8, textColor=colors.grey, alignment=TA_CENTER)
GRID = TableStyle([("FONT", (0, 0), (-1, -1), "Helvetica", 8), ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
                   ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6e6e6")),
                   ("GRID", (0, 0), (-1, -1), 0.4, colors.grey), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                   ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2)])

PdfTarget = str | os.PathLike[str] | IO[bytes]    # a file name, or a binary file open for writing


def when(iso: str, tz: str, fmt: str = "%H:%M:%S") -> str:
    if not iso:
        return ""
    try:
        return dt.datetime.fromisoformat(iso).astimezone(ZoneInfo(tz)).strftime(fmt)
    except (ValueError, KeyError, OSError):
        return iso


def cell(text: object, style: ParagraphStyle = CELL) -> Paragraph:
    return Paragraph(escape(str(text)), style)


def table(header: list[str], rows: list[list], widths: list[float] | None = None) -> Table:
    data = [[cell(h, HEAD) for h in header]] + [[c if isinstance(c, Paragraph) else cell(c) for c in row] for row in rows]
    t = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    t.setStyle(GRID)
    return t




def euros(cents: int | None) -> str:
    """``-52750`` → ``-527,50 €`` (``—`` when not declared)."""
    if cents is None:
        return "—"
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return sign + f"{whole:,}".replace(",", " ") + f",{rest:02d} €"
