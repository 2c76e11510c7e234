"""The OSGA tournament day on paper (A4, reportlab): each game's table assignments and score sheets (with the
table's code and a QR code opening its phone page), and the standings.

The makers take plain data (the day's summary from ``display.tournament``) and the printed words in the
request's language, so this driver imports neither the web nor the mini-games.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, BinaryIO

from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from hall.app.paper.typeface import BOLD, FONT, fit, fit_lines  # embedded: every player's name prints

WIDTH, HEIGHT = A4
MARGIN = 15 * mm
SEATS = ("north", "east", "south", "west")


def _fit(text: str, font: str, size: float, width: float) -> str:
    """Return ``text`` cut with an ellipsis so it fits ``width`` points (by width)."""
    return fit(text, width, font, size)


def _name(c: Canvas, x: float, y: float, text: str, font: str, size: float, width: float) -> None:
    """A name on one line: whole, else smaller (down to 60 %), else cut at the end — fitted by width."""
    [line], used = fit_lines(text, width, font, size, size * 0.6, 1)
    c.setFont(font, used)
    c.drawString(x, y, line)
    c.setFont(font, size)


def _fill(template: str, **values: object) -> str:
    return template % values if "%(" in template else template


def _qr(c: Canvas, url: str, x: float, y: float, size: float) -> None:
    widget = QrCodeWidget(url, barLevel="M")
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    drawing.add(widget)
    drawing.initialFontName = FONT  # never Helvetica: every font of the PDF embedded
    renderPDF.draw(drawing, c, x, y)


def _header(c: Canvas, data: Mapping[str, Any], hall_name: str, title: str, words: Mapping[str, str]) -> float:
    c.setFont(BOLD, 20)
    _name(c, MARGIN, HEIGHT - MARGIN - 6 * mm, title, BOLD, 20, WIDTH - 2 * MARGIN)
    c.setFont(FONT, 11)
    line = " · ".join(x for x in (data.get("title", ""), hall_name) if x)
    _name(c, MARGIN, HEIGHT - MARGIN - 13 * mm, line, FONT, 11, WIDTH - 2 * MARGIN)
    return HEIGHT - MARGIN - 20 * mm


def _game_line(data: Mapping[str, Any], words: Mapping[str, str]) -> str:
    return (
        _fill(words["game"], n=data["game"], total=data["games"]) + " — " + _fill(words["session"], n=data["session"])
    )


def _seat_label(seat: Mapping[str, Any], words: Mapping[str, str], floater_ids: tuple[str, ...]) -> str:
    extra = f" ({words['floater']})" if seat["team"] in floater_ids or seat["team"].startswith("SUB") else ""
    return f"{seat['name']}{extra}"


def _assignments(c: Canvas, data: Mapping[str, Any], hall_name: str, words: Mapping[str, str]) -> None:
    """One or more pages: every table with its four players, big enough to read on a wall."""
    tables = data["tables"]
    per_page = 10
    for start in range(0, len(tables), per_page):
        y = _header(c, data, hall_name, words["assign_title"], words)
        c.setFont(BOLD, 14)
        c.drawString(MARGIN, y, _game_line(data, words))
        y -= 10 * mm
        row_h = (y - MARGIN) / per_page
        for table in tables[start : start + per_page]:
            seats = table["seats"]
            c.setFillColor(colors.HexColor("#e6e6e6"))
            c.rect(MARGIN, y - row_h + 2 * mm, 28 * mm, row_h - 3 * mm, stroke=0, fill=1)
            c.setFillColor(colors.black)
            c.setFont(BOLD, 22)
            c.drawCentredString(MARGIN + 14 * mm, y - row_h / 2 - 2 * mm, str(table["table"]))
            col = MARGIN + 32 * mm
            half = (WIDTH - MARGIN - col) / 2
            c.setFont(BOLD, 10)
            c.drawString(col, y - 5 * mm, words["ns"])
            c.drawString(col + half, y - 5 * mm, words["ew"])
            c.setFont(FONT, 13)
            for i, seat_index in enumerate((0, 2)):
                text = f"{words[SEATS[seat_index]][0]} · {_seat_label(seats[seat_index], words, ('FLOATER',))}"
                _name(c, col, y - 11 * mm - i * 6 * mm, text, FONT, 13, half - 4 * mm)
            for i, seat_index in enumerate((1, 3)):
                text = f"{words[SEATS[seat_index]][0]} · {_seat_label(seats[seat_index], words, ('FLOATER',))}"
                _name(c, col + half, y - 11 * mm - i * 6 * mm, text, FONT, 13, half - 4 * mm)
            c.setStrokeColor(colors.grey)
            c.line(MARGIN, y - row_h + 1 * mm, WIDTH - MARGIN, y - row_h + 1 * mm)
            y -= row_h
        c.showPage()


def _sheet(
    c: Canvas,
    data: Mapping[str, Any],
    table: Mapping[str, Any],
    base_url: str,
    hall_name: str,
    words: Mapping[str, str],
) -> None:
    """One table's score sheet: seats, 8 hand lines, totals, the code and the QR code."""
    y = _header(c, data, hall_name, words["sheet_title"], words)
    c.setFont(BOLD, 40)
    c.drawString(MARGIN, y - 14 * mm, _fill(words["table"], n=table["table"]))
    c.setFont(BOLD, 14)
    c.drawString(MARGIN, y - 22 * mm, _game_line(data, words))
    # the code and the QR code, top right
    qr_size = 42 * mm
    url = f"{base_url}/tournoi/table/{table['table']}?code={table['code']}"
    _qr(c, url, WIDTH - MARGIN - qr_size, y - qr_size + 8 * mm, qr_size)
    c.setFont(FONT, 9)
    c.drawRightString(WIDTH - MARGIN, y - qr_size + 4 * mm, words["code"])
    c.setFont(BOLD, 24)
    c.drawRightString(WIDTH - MARGIN, y - qr_size - 5 * mm, table["code"])
    y -= 36 * mm
    # seats
    seats = table["seats"]
    c.setFont(FONT, 12)
    half = (WIDTH - 2 * MARGIN - qr_size - 6 * mm) / 2
    for i, (index, side) in enumerate(((0, "ns"), (2, "ns"), (1, "ew"), (3, "ew"))):
        x = MARGIN + (0 if side == "ns" else half)
        line = y - (i % 2) * 6 * mm
        if i % 2 == 0:
            c.setFont(BOLD, 11)
            c.drawString(x, line + 6 * mm, words[side])
            c.setFont(FONT, 12)
        text = f"{words[SEATS[index]]} : {_seat_label(seats[index], words, ('FLOATER',))}"
        _name(c, x, line, text, FONT, 12, half - 3 * mm)
    y -= 26 * mm
    # the hand lines
    columns = [
        (words["hand"], 22 * mm),
        (words["ns"], 45 * mm),
        (words["initials"], 25 * mm),
        (words["ew"], 45 * mm),
        (words["initials"], 25 * mm),
    ]
    row_h = 12 * mm
    x0 = MARGIN
    c.setFillColor(colors.HexColor("#e6e6e6"))
    c.rect(x0, y - row_h, sum(w for _, w in columns), row_h, stroke=0, fill=1)
    c.setFillColor(colors.black)
    c.setFont(BOLD, 12)
    x = x0
    for title, width in columns:
        c.drawCentredString(x + width / 2, y - row_h + 4 * mm, _fit(title, BOLD, 12, width - 2 * mm))
        x += width
    rows = [str(n) for n in range(1, 9)] + [words["total"]]
    hands = table.get("hands", [])
    for r, label in enumerate(rows):
        top = y - row_h * (r + 1)
        c.setFont(BOLD if r == 8 else FONT, 14)
        c.drawCentredString(x0 + columns[0][1] / 2, top - row_h + 4 * mm, label)
        if r < len(hands):  # a sheet printed again after some hands: what the hall already has
            c.setFont(FONT, 14)
            c.drawCentredString(x0 + columns[0][1] + columns[1][1] / 2, top - row_h + 4 * mm, str(hands[r][0]))
            c.drawCentredString(
                x0 + sum(w for _, w in columns[:3]) + columns[3][1] / 2, top - row_h + 4 * mm, str(hands[r][1])
            )
    c.setStrokeColor(colors.black)
    total_w = sum(w for _, w in columns)
    for r in range(len(rows) + 2):
        c.setLineWidth(1.2 if r in (0, 1, len(rows)) else 0.5)
        c.line(x0, y - row_h * r, x0 + total_w, y - row_h * r)
    x = x0
    for _, width in columns + [("", 0)]:
        c.setLineWidth(0.8)
        c.line(x, y, x, y - row_h * (len(rows) + 1))
        x += width
    y -= row_h * (len(rows) + 1) + 8 * mm
    c.setFont(FONT, 10)
    for text in (words["scan"], words["dealer"], words["rules"]):
        for line in simpleSplit(text, FONT, 10, WIDTH - 2 * MARGIN):
            c.drawString(MARGIN, y, line)
            y -= 5 * mm
    c.setFont(FONT, 8)
    c.drawString(MARGIN, MARGIN - 4 * mm, _fit(url, FONT, 8, WIDTH - 2 * MARGIN))
    c.showPage()


def write_sheets_pdf(
    data: Mapping[str, Any], out: BinaryIO, *, base_url: str, hall_name: str = "", words: Mapping[str, str]
) -> None:
    """Write the current game's table assignments, then one score sheet per table, to ``out``."""
    c = Canvas(out, pagesize=A4, pageCompression=1, initialFontName=FONT)
    c.setTitle(f"{words['sheet_title']} — {_game_line(data, words)}")
    _assignments(c, data, hall_name, words)
    for table in data["tables"]:
        _sheet(c, data, table, base_url, hall_name, words)
    c.save()


def write_standings_pdf(
    data: Mapping[str, Any], out: BinaryIO, *, hall_name: str = "", words: Mapping[str, str]
) -> None:
    """Write the standings (the final standings once every game is played) to ``out``."""
    c = Canvas(out, pagesize=A4, pageCompression=1, initialFontName=FONT)
    final = data["phase"] in ("finished", "playoffs")
    title = words["final_title"] if final else words["standings_title"]
    c.setTitle(title)
    columns = [
        (words["place"], 14 * mm),
        (words["team"], 94 * mm),
        (words["ranking"], 18 * mm),
        (words["game_points"], 26 * mm),
        (words["note"], 28 * mm),
    ]
    rows = data["standings"]
    row_h = 11 * mm

    def page_top() -> float:
        y = _header(c, data, hall_name, title, words)
        c.setFont(FONT, 10)
        played = f"{data.get('games_played', 0)} / {data['games']}"
        c.drawRightString(WIDTH - MARGIN, y, played)
        for line in simpleSplit(words["rules"], FONT, 10, WIDTH - 2 * MARGIN - 30 * mm):
            c.drawString(MARGIN, y, line)
            y -= 5 * mm
        y -= 3 * mm
        c.setFillColor(colors.HexColor("#e6e6e6"))
        c.rect(MARGIN, y - row_h, WIDTH - 2 * MARGIN, row_h, stroke=0, fill=1)
        c.setFillColor(colors.black)
        c.setFont(BOLD, 11)
        x = MARGIN
        for name, width in columns:
            c.setFont(BOLD, 10)
            c.drawString(x + 1.5 * mm, y - row_h + 2.5 * mm, _fit(name, BOLD, 10, width - 3 * mm))
            x += width
        return y - row_h

    y = page_top()
    for row in rows:
        if y - row_h < MARGIN + 10 * mm:
            c.showPage()
            y = page_top()
        note = (
            words["tied"]
            if row.get("playoff_needed")
            else (_fill(words["playoff_wins"], n=row["playoff_wins"]) if row.get("playoff_wins") else "")
        )
        cells = [str(row["place"]), row["name"], str(row["ranking"]), str(row["game_points"]), note]
        font = BOLD if row["place"] <= 3 else FONT
        x = MARGIN
        for i, (text, (_, width)) in enumerate(zip(cells, columns)):
            size = 9 if i == len(cells) - 1 else 12
            _name(c, x + 1.5 * mm, y - 5 * mm, text, font, size, width - 3 * mm)
            if i == 1:  # the players under the team's name
                c.setFont(FONT, 9)
                c.setFillColor(colors.HexColor("#444444"))
                _name(c, x + 1.5 * mm, y - 9.2 * mm, " & ".join(row["players"]), FONT, 9, width - 3 * mm)
                c.setFillColor(colors.black)
            x += width
        c.setStrokeColor(colors.lightgrey)
        c.line(MARGIN, y - row_h, WIDTH - MARGIN, y - row_h)
        y -= row_h
    if data.get("out"):
        y -= 6 * mm
        c.setFont(BOLD, 12)
        c.drawString(MARGIN, y, words["out"])
        c.setFont(FONT, 11)
        for row in data["out"]:
            y -= 6 * mm
            if y < MARGIN:
                c.showPage()
                y = HEIGHT - MARGIN
                c.setFont(FONT, 11)
            _name(
                c,
                MARGIN,
                y,
                f"{row['name']} — {words['absent'] if row['why'] == 'absent' else words['default']}",
                FONT,
                11,
                WIDTH - 2 * MARGIN,
            )
    c.save()
