"""A workbook of typed sheets for the report (openpyxl): amounts as euro numbers (``Money``), codes and IDs as text
that stays text (``Text``), times as dates in the hall's time zone, the report's states and kinds in the hall's
language, bold headers, fitted columns, frozen first row and filters. The report's own sheets are report_xlsx.py's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from hall.app.lang import in_language
from hall.app.paper.report_words import described
from hall.loto.lots import KIND_LABELS
from hall.money.paper_cells import STATES
from hall.money.report import EveningReport

EURO = '#,##0.00 "€";-#,##0.00 "€"'
TEXT = "@"
DATES = {"fr": "dd/mm/yyyy hh:mm:ss", "en": "yyyy-mm-dd hh:mm:ss"}


class Money(Decimal):
    """An amount in euros: a number cell with the euro format."""


Cell = str | int | float | Money | dt.datetime | None
"""What one cell of a sheet may hold."""


def in_euros(cents: int | None) -> Money | None:
    """Cents as an amount cell (``1550`` → 15.50 €); ``None`` stays an empty cell."""
    return None if cents is None else Money(Decimal(cents).scaleb(-2))


class Book:
    """The workbook being written: the hall's words, its time zone, a sheet per rubric."""

    def __init__(self, report: EveningReport):
        self.say: Callable[[str], str] = in_language(report.language)
        self.language = "en" if report.language == "en" else "fr"
        try:
            self.zone: dt.tzinfo = ZoneInfo(report.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            self.zone = dt.UTC
        self.wb = Workbook()
        self.first = True
        about = described(report, report.timezone)  # the PDF's document information, word for word
        props = self.wb.properties
        props.title, props.subject, props.language = about.title, about.subject, about.language
        props.creator, props.lastModifiedBy = about.author, about.author

    def when(self, iso: str) -> dt.datetime | None:
        """A journal time as the hall's local date and time (a spreadsheet's dates carry no zone)."""
        try:
            return dt.datetime.fromisoformat(iso).astimezone(self.zone).replace(tzinfo=None)
        except (ValueError, TypeError):
            return None

    def state(self, code: str) -> str:
        """A state, a verdict or a means of payment in the hall's language (an unknown code as it is)."""
        return self.say(STATES[code]) if code in STATES else code

    def kind(self, kind: str) -> str:
        """A lot kind's label in the hall's language."""
        return self.say(KIND_LABELS.get(kind, kind))

    def sheet(self, title: str, headers: Sequence[str], rows: Iterable[Sequence[Cell]]) -> None:
        """Add the sheet ``title``: bold headers, each cell typed by its value, columns fitted, filters on."""
        ws = self.wb.active if self.first else self.wb.create_sheet()
        self.first = False
        ws.title = self.say(title)[:31]
        ws.append([self.say(h) for h in headers])
        for cell in ws[1]:
            cell.font = Font(bold=True)
        widths = [len(self.say(h)) for h in headers]
        for r, row in enumerate(rows, 2):
            for c, value in enumerate(row, 1):
                cell = ws.cell(row=r, column=c)
                if isinstance(value, Money):
                    cell.value, cell.number_format = value, EURO
                elif isinstance(value, dt.datetime):
                    cell.value, cell.number_format = value, DATES[self.language]
                elif isinstance(value, str):
                    cell.value = ILLEGAL_CHARACTERS_RE.sub("", value)  # a control character: dropped, not fatal
                    cell.data_type = "s"  # never read as a formula, a number or a date
                    cell.number_format = TEXT
                else:
                    cell.value = value
                widths[c - 1] = max(widths[c - 1], 19 if isinstance(value, dt.datetime) else len(str(value or "")))
        for c, w in enumerate(widths, 1):
            ws.column_dimensions[get_column_letter(c)].width = min(60, max(8, w + 2))
        ws.freeze_panes = "A2"
        if ws.max_row > 1:
            ws.auto_filter.ref = ws.dimensions
