"""What the PDFs share: where one is written (``PdfTarget``); for the report's pages (report_pdf.py,
report_money_pdf.py, report_tax_pdf.py) the styles (the embedded typeface, ``typeface.py``), cells, tables, local
times and euros written the French way, a fingerprint's printed line, and the words' translation (``say``: the web
hands in its gettext, French by default).

Cells are fitted by width: a paragraph cell wraps at its spaces (a longer word cut where the column ends); a code
or a carton ID (``OneLine``) is never cut in two: it is printed smaller until it fits its column."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import IO
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from hall.app.paper.report_words import when
from hall.app.paper.typeface import BOLD, FONT, fit, fit_lines, width
from hall.snapshots import Fingerprint

Say = Callable[[str], str]
"""A French sentence of a PDF in the reader's language: the web hands in its catalogue (``flask_babel.gettext``);
the command line and the tests keep the French (``french``). The words are the catalogue's message ids: each is
written ``say("…")`` (or ``N_("…")`` where it is only named), and ``pybabel extract -k say -k N_`` finds them."""


def french(text: str) -> str:
    return text


_styles = getSampleStyleSheet()
H1 = ParagraphStyle("h1", parent=_styles["Title"], fontName=BOLD, fontSize=18, spaceAfter=4)
H2 = ParagraphStyle(
    "h2", parent=_styles["Heading2"], fontName=BOLD, fontSize=13, spaceBefore=10, spaceAfter=4, keepWithNext=1
)
H3 = ParagraphStyle(
    "h3", parent=_styles["Heading4"], fontName=BOLD, fontSize=10, spaceBefore=6, spaceAfter=2, keepWithNext=1
)
BODY = ParagraphStyle("body", parent=_styles["BodyText"], fontName=FONT, fontSize=9, leading=11)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=8, leading=10)
HEAD = ParagraphStyle("head", parent=CELL, fontName=BOLD, splitLongWords=0)  # never "Dernièr/e"
WARN = ParagraphStyle("warn", parent=BODY, textColor=colors.HexColor("#9a4a00"))
SMALL = ParagraphStyle("small", parent=BODY, fontSize=8, textColor=colors.grey, alignment=TA_CENTER)
GRID = TableStyle(
    [
        ("FONT", (0, 0), (-1, -1), FONT, 8),
        ("FONT", (0, 0), (-1, 0), BOLD, 8),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6e6e6")),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
)

PdfTarget = str | os.PathLike[str] | IO[bytes]  # a file name, or a binary file open for writing


def cell(text: object, style: ParagraphStyle = CELL) -> Paragraph:
    return Paragraph(escape(str(text)), style)


class OneLine(Flowable):
    """Text never cut in two — a voucher code, a carton ID: printed on one line, smaller (down to ``smallest``)
    when its column is too narrow, and only past that cut at the end with an ellipsis."""

    def __init__(self, text: object, size: float = 8, font: str = FONT, smallest: float = 5.0):
        super().__init__()
        self.text, self.font, self.size, self.smallest = str(text), font, size, smallest
        self.shown, self.used = self.text, size

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        room = max(availWidth, 1.0)
        full = width(self.text, self.font, self.size)
        self.used = self.size if full <= room else max(self.smallest, self.size * room / full - 0.05)
        self.shown = fit(self.text, room, self.font, self.used)
        self.width = availWidth
        return availWidth, self.size * 1.25

    def draw(self) -> None:
        self.canv.setFont(self.font, self.used)
        self.canv.drawString(0, self.size * 0.3, self.shown)


class Name(Flowable):
    """A person's or a donor's name in a table cell: whole on one line, else smaller, else on two lines (cut at the
    end only when even two lines at the smallest size cannot hold it) — fitted by width."""

    def __init__(self, text: object, size: float = 8, font: str = FONT, smallest: float = 6.5, most: int = 2):
        super().__init__()
        self.text, self.font, self.size, self.smallest, self.most = str(text), font, size, smallest, most
        self.shown: list[str] = [self.text]
        self.used = size

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self.shown, self.used = fit_lines(
            self.text, max(availWidth, 1.0), self.font, self.size, self.smallest, self.most
        )
        self.width = availWidth
        return availWidth, max(self.size * 1.25, len(self.shown) * self.used * 1.2)

    def draw(self) -> None:
        self.canv.setFont(self.font, self.used)
        top = max(self.size * 1.25, len(self.shown) * self.used * 1.2)
        for k, line in enumerate(self.shown):
            self.canv.drawString(0, top - (k + 1) * self.used * 1.2 + self.used * 0.25, line)


KEEP = (Paragraph, OneLine, Name)


def table(header: list[str], rows: list[list], widths: list[float] | None = None) -> Table:
    data = [[cell(h, HEAD) for h in header]] + [[c if isinstance(c, KEEP) else cell(c) for c in row] for row in rows]
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


def fingerprint_words(fp: Fingerprint, tz: str) -> dict[str, str]:
    """The values of a printed fingerprint line: the groups, the record's number, its local time."""
    return {"fp": fp.shown, "seq": str(fp.seq), "when": when(fp.at, tz, "%d/%m/%Y %H:%M")}
