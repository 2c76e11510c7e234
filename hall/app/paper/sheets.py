"""Printable carton sheets (reportlab): A4 planches of 6 cartons (or 12), each with its ID in large print,
a QR code and a Code128 of the ID, the hall's name and the series, and cut marks (where each goes on the page:
``sheet_layout.py``).

Fast enough for a whole evening's book (10 000 cartons well under 30 s, see ``bench/bench_sheets.py``):
what is the same on every carton (frame, grid lines, hall name, series) and on every page (cut marks) is
drawn once as a PDF form and reused; the QR modules and Code128 bars of a carton are one path each.
QR matrices come from ``qrcode`` (already a python-escpos dependency) with a fixed mask pattern: any of
the 8 masks is valid QR, and skipping the mask search makes the encoding ~9× faster.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import IO, TYPE_CHECKING

import qrcode
from reportlab import rl_config
from reportlab.graphics.barcode.code128 import Code128
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as pdfcanvas

from hall.app.paper.pdf_parts import PdfTarget, Say, french
from hall.app.paper.sheet_layout import MARGIN_X, MARGIN_Y, PAGE_H, PAGE_W, layout
from hall.app.paper.typeface import BOLD, FONT, fit, fit_lines  # embedded: every name prints
from hall.cartons.card_ids import display_card_id, split_card_id
from hall.cartons.cards import Card
from hall.record.durable import replacing

if TYPE_CHECKING:
    from reportlab.lib.utils import ImageReader

GREY = 0.86  # empty cells


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR modules of ``text`` (EC level M, no quiet zone)."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0, mask_pattern=0)
    code.add_data(text)
    code.make(fit=True)
    return code.get_matrix()


def code128_bars(text: str) -> tuple[list[tuple[int, int]], int]:
    """The Code128 bars of ``text`` as (start module, width) and the symbol's width in modules."""
    symbol = Code128(text, barWidth=1, humanReadable=False, quiet=False)
    symbol.validate()
    symbol.encode()
    symbol.decompose()
    bars, x = [], 0
    for ch in symbol.decomposed:
        width = ord(ch.lower()) - ord("a") + 1
        if ch.isupper():
            bars.append((x, width))
        x += width
    return bars, x


class SheetWriter:
    """Draws cartons onto an A4 canvas, planche by planche."""

    def __init__(
        self,
        out: IO[bytes],
        hall_name: str,
        series: str,
        per_page: int = 6,
        columns: str = "1-9",
        evening: str = "",
        logo: str | None = None,
        say: Say = french,
        link: str = "",
        code: Callable[[str], str] | None = None,
    ):
        self.lay = layout(per_page)
        self.say = say  # the planche's few words in the hall's language (the players read them)
        self.link = link  # the QR code's text is link + ID: the hall's "{hall}/c/" (INTERFACE §9)
        self.code = code  # the carton's code (hall.cartons.card_ids.card_code): in the QR link, under it
        self.hall_name = hall_name
        self.series = series  # "" when the cartons are of several series: each carton shows its own
        self.columns = columns
        self.evening = evening
        self.logo = _logo(logo)
        self.c = pdfcanvas.Canvas(out, pagesize=A4, invariant=1, pageCompression=1, initialFontName=FONT)
        self.c.setTitle(say("Cartons %(series)s — %(hall)s") % {"series": series, "hall": hall_name})
        self.c.setAuthor("loto-hall")
        self.c.setSubject(say("planches de %(n)s cartons") % {"n": per_page})
        g = self.lay.number_size
        self._half = {n: stringWidth(str(n), BOLD, g) / 2 for n in range(1, 91)}
        # the carton's ID, top right: a longer ID (an imported book's) is printed smaller, never over the name
        self._id_room = stringWidth("W-00000 W", BOLD, self.lay.id_size)
        self._id_left = self.lay.slot_w - self.lay.grid[0] - self._id_room
        bold = pdfmetrics.getFont(BOLD)  # embedded TrueType: ASCII is its first subset, read as itself
        bold.splitString("0123456789", self.c._doc)
        self._font = bold.getSubsetInternalName(0, self.c._doc)  # its resource name, e.g. "/F1+0"
        self._forms()

    def _forms(self) -> None:
        lay, c = self.lay, self.c
        gx, gy, gw, gh = lay.grid
        c.beginForm("carton")
        c.setLineWidth(0.4)
        c.setStrokeGray(0.6)
        c.rect(2, 2, lay.slot_w - 4, lay.slot_h - 4, stroke=1, fill=0)
        c.setStrokeGray(0)
        c.setLineWidth(0.5)
        for i in range(1, 9):
            x = gx + i * gw / 9
            c.line(x, gy, x, gy + gh)
        for j in range(1, 3):
            c.line(gx, gy + j * gh / 3, gx + gw, gy + j * gh / 3)
        c.setLineWidth(1.2)
        c.rect(gx, gy, gw, gh, stroke=1, fill=0)
        pad = gx
        top = gy + gh
        band = lay.slot_h - pad - top  # the header band above the grid
        if self.logo is not None:
            lh = max(8.0, min(band - 4, 64.0))
            lw = lh * self.logo[1]
            c.drawImage(self.logo[0], pad, top + 2 + (band - 4 - lh), width=lw, height=lh, mask="auto")
            pad += lw + 6
        self._header(pad, band)
        if not self.series:
            pass  # each carton draws its own series (draw_carton)
        elif lay.series_at is None:
            c.setFont(FONT, lay.name_size)
            c.drawString(self._after_name, self._series_y, self.say("Série %(series)s") % {"series": self.series})
        else:
            sx, sy, ss = lay.series_at
            c.setFont(FONT, ss)
            c.drawString(sx, sy + ss * 2.6, self.say("Série"))
            c.setFont(BOLD, ss * 2.6)
            c.drawString(sx, sy, fit(self.series, lay.qr[0] - sx - 4, BOLD, ss * 2.6))
        c.endForm()
        c.beginForm("page")
        c.setLineWidth(0.5)
        c.setStrokeGray(0)
        tick = 10.0
        for row in range(lay.rows + 1):  # horizontal cut lines: ticks in both side margins
            y = PAGE_H - MARGIN_Y - row * lay.slot_h
            c.line(MARGIN_X - tick - 4, y, MARGIN_X - 4, y)
            c.line(PAGE_W - MARGIN_X + 4, y, PAGE_W - MARGIN_X + tick + 4, y)
        for col in range(lay.cols + 1):  # vertical cut lines: ticks in top and bottom margins
            x = MARGIN_X + col * lay.slot_w
            c.line(x, PAGE_H - MARGIN_Y + 4, x, PAGE_H - MARGIN_Y + tick + 4)
            c.line(x, MARGIN_Y - 4, x, MARGIN_Y - tick - 4)
        c.setFont(FONT, 6)
        c.drawCentredString(PAGE_W / 2, 8, self.say("Découper le long des traits - loto-hall"))
        c.endForm()

    def _header(self, left: float, band: float) -> None:
        """The hall's name and the evening's in the band above the grid, from ``left`` to the carton's ID. The name
        whole, smaller (down to 70 %), on two lines where the band has room, cut at the end only past that; the
        evening's name on every layout (docs/treasurer.md): on a line of its own under the name, else after it on
        the same line, else under the name made smaller to leave it the room (12 a page)."""
        lay, c = self.lay, self.c
        room = self._id_left - 10 - left
        if lay.series_at is None:  # the series after the name (two cartons across): its room kept
            room -= stringWidth(self.say("Série %(series)s") % {"series": self.series or "WW"}, FONT, lay.name_size) + 8
        size = lay.name_size
        top, floor = lay.slot_h - lay.grid[0], lay.grid[1] + lay.grid[3] + 2  # the band's top and bottom for text
        most = 2 if band >= 2 * size * 0.7 * 1.15 + 4 else 1
        lines, used = fit_lines(self.hall_name, room, BOLD, size, size * 0.7, most)
        # one line on the ID's baseline; two lines from the top of the band down
        y = lay.header_y if len(lines) == 1 else top - used * 0.95
        evening: tuple[float, float, float] | None = None  # where the evening's name goes: x, baseline, size
        if self.evening:
            small = size * 0.8
            below = y - (len(lines) - 1) * used * 1.15 - small - 3
            widest = max(stringWidth(line, BOLD, used) for line in lines)
            if below >= floor:
                evening = left, below, small
            elif len(lines) == 1 and room - widest - 6 >= 60:
                evening = left + widest + 6, y, small
            else:  # the largest name (on ``count`` lines) that leaves a line at 80 % of its size under it
                for count in (most, 1):
                    fits = (band - 3) / (1.15 * count + 0.9)
                    if count == 1 or fits >= size * 0.6:
                        lines, used = fit_lines(
                            self.hall_name, room, BOLD, min(size, fits), min(fits, size * 0.7), count
                        )
                        break
                y = top - used * 0.95
                evening = left, y - (len(lines) - 1) * used * 1.15 - used * 0.92, used * 0.8
        c.setFont(BOLD, used)
        for k, line in enumerate(lines):
            c.drawString(left, y - k * used * 1.15, line)
        self._after_name = left + max(stringWidth(line, BOLD, used) for line in lines) + 8
        self._series_y = y  # the series, when it follows the name, on the name's first line
        if evening is not None:
            x, baseline, small = evening
            c.setFont(FONT, small)
            c.drawString(x, baseline, fit(self.evening, left + room - x, FONT, small))

    def draw_carton(self, index: int, card_id: str, card: Card) -> None:
        lay, c = self.lay, self.c
        ox, oy = lay.slot_origin(index)
        gx, gy, gw, gh = lay.grid
        cw, ch = gw / 9, gh / 3
        grid = card.grid(self.columns)
        ops = [f"q 1 0 0 1 {ox:.2f} {oy:.2f} cm {GREY} g"]  # raw PDF operators: ~5x faster than paths
        for r, row in enumerate(grid):
            for k, n in enumerate(row):
                if n is None:
                    x, y = gx + k * cw + 0.6, gy + (2 - r) * ch + 0.6
                    ops.append(f"{x:.2f} {y:.2f} {cw - 1.2:.2f} {ch - 1.2:.2f} re")
        ops.append("f 0 g")
        c.addLiteral(" ".join(ops))
        c.doForm("carton")
        ops = [f"BT {self._font} {lay.number_size} Tf"]
        base = lay.number_size * 0.36
        for r, row in enumerate(grid):
            y = gy + (2.5 - r) * ch - base
            for k, n in enumerate(row):
                if n is not None:
                    ops.append(f"1 0 0 1 {gx + (k + 0.5) * cw - self._half[n]:.2f} {y:.2f} Tm ({n}) Tj")
        # printed with the check character set apart (``A-00412 K``), never read as a digit of the number
        shown = display_card_id(card_id).replace("\u00a0", " ")
        safe = shown.replace("\\", "").replace("(", "").replace(")", "")  # IDs are A-Z a-z 0-9 - anyway
        wide = stringWidth(safe, BOLD, lay.id_size)
        size = lay.id_size if wide <= self._id_room else lay.id_size * self._id_room / wide
        x = lay.slot_w - gx - stringWidth(safe, BOLD, size)
        ops.append(f"{self._font} {size:.2f} Tf 1 0 0 1 {x:.2f} {lay.header_y - 2:.2f} Tm ({safe}) Tj ET")
        c.addLiteral(" ".join(ops))
        code = self.code(card_id) if self.code and self.link else ""
        self._qr(self.link + card_id + (f"?k={code}" if code else ""))
        self._code128(card_id, self.say("%(id)s · code %(code)s") % {"id": card_id, "code": code} if code else card_id)
        if not self.series:
            self._series(series_of(card_id))
        c.addLiteral("Q")

    def _series(self, series: str) -> None:
        """The carton's own series, where the planche's would be (a book of several series printed at once)."""
        lay, c = self.lay, self.c
        if lay.series_at is None:
            c.setFont(FONT, lay.name_size)
            c.drawString(self._after_name, self._series_y, self.say("Série %(series)s") % {"series": series})
            return
        sx, sy, ss = lay.series_at
        c.setFont(FONT, ss)
        c.drawString(sx, sy + ss * 2.6, self.say("Série"))
        c.setFont(BOLD, ss * 2.6)
        c.drawString(sx, sy, fit(series, lay.qr[0] - sx - 4, BOLD, ss * 2.6))

    def _qr(self, text: str) -> None:
        """The QR as one fill of module-unit rectangles (one per dark run of a row), scaled into place."""
        qx, qy, side = self.lay.qr
        matrix = qr_matrix(text)
        n = len(matrix)
        quiet = 2
        m = side / (n + 2 * quiet)
        ops = [f"q {m:.4f} 0 0 {m:.4f} {qx + quiet * m:.2f} {qy + quiet * m:.2f} cm"]
        for r, row in enumerate(matrix):
            y = n - 1 - r
            k = 0
            while k < n:
                if row[k]:
                    start = k
                    while k < n and row[k]:
                        k += 1
                    ops.append(f"{start} {y} {k - start}.02 1.02 re")
                else:
                    k += 1
        ops.append("f Q")
        self.c.addLiteral(" ".join(ops))

    def _code128(self, text: str, label_text: str = "") -> None:
        bx, by, bw, bh = self.lay.bar
        bars, modules = code128_bars(text)
        quiet = 10
        m = bw / (modules + 2 * quiet)
        label = 9.0 if label_text else 7.0  # the carton's code is typed from it: bigger than the bare ID
        height = bh - label - 1
        ops = [f"q {m:.4f} 0 0 1 {bx + quiet * m:.2f} {by + label + 1:.2f} cm"]
        ops.extend(f"{start} 0 {width} {height:.2f} re" for start, width in bars)
        ops.append("f Q")
        self.c.addLiteral(" ".join(ops))
        self.c.setFont(FONT, label - 1)
        self.c.drawCentredString(bx + bw / 2, by, label_text or text)

    def page(self, cartons: list[tuple[str, Card]]) -> None:
        self.c.doForm("page")
        for index, (card_id, card) in enumerate(cartons):
            self.draw_carton(index, card_id, card)
        self.c.showPage()

    def save(self) -> None:
        self.c.save()


def series_of(card_id: str) -> str:
    """The series of a carton ID (``A-00412B`` → ``A``; an imported ``LOTO-12`` → ``LOTO``)."""
    split = split_card_id(card_id)
    if split is not None:
        return split[0]
    return card_id.rsplit("-", 1)[0] if "-" in card_id else ""


def _logo(path: str | None) -> tuple[ImageReader, float] | None:
    """The association's logo as (image, width/height), or None (no logo, or a file that cannot be read)."""
    if not path:
        return None
    try:
        from reportlab.lib.utils import ImageReader

        image = ImageReader(os.fspath(path))
        w, h = image.getSize()
        return image, w / h
    except Exception:  # a missing or broken logo never stops the printing: the cartons go without it
        import logging

        logging.getLogger("loto-hall.sheets").warning("logo illisible, cartons sans logo : %s", path)
        return None


def write_cards_pdf(
    cards: Iterable[tuple[str, Card]],
    path: PdfTarget,
    hall_name: str,
    series: str,
    per_page: int = 6,
    columns: str = "1-9",
    progress: Callable[[int, int], None] | None = None,
    evening: str = "",
    logo: str | None = None,
    say: Say = french,
    link: str = "",
    code: Callable[[str], str] | None = None,
) -> int:
    """Write ``cards`` (``(card_id, Card)`` pairs) as A4 planches to ``path`` (a file name or a binary file
    object such as ``io.BytesIO`` for a web download); the number of pages.

    ``progress(done, total)`` is called after each page when given. Each carton's QR code holds ``link`` + its ID:
    the hall gives ``{hall}/c/`` (a phone's camera opens the carton's page), the bare ID without it. ``code(card_id)``
    gives the carton's code (the hall's ``card_code``): the link carries it (``?k=``) and it is printed under the
    barcode, so that « Mes cartons » shows the grid to whoever holds the paper only.
    """
    if isinstance(path, (str, os.PathLike)):  # a file: written by the hall's durable writer (hall/record/durable.py)
        with replacing(path) as out:
            return write_cards_pdf(
                cards, out, hall_name, series, per_page, columns, progress, evening, logo, say, link, code
            )
    cards = list(cards)
    use_a85 = rl_config.useA85
    rl_config.useA85 = 0  # binary Flate streams: smaller, and skips a slow pure-Python ASCII85 pass
    try:
        writer = SheetWriter(path, hall_name, series, per_page, columns, evening, logo, say, link, code)
        starts = range(0, len(cards), per_page)
        pages = len(starts)
        for start in starts:
            writer.page(cards[start : start + per_page])
            if progress is not None:
                progress(min(start + per_page, len(cards)), len(cards))
        if not cards:
            writer.c.drawString(MARGIN_X, PAGE_H / 2, say("Aucun carton."))
            writer.c.showPage()
            pages = 1
        writer.save()
    finally:
        rl_config.useA85 = use_a85
    return pages
