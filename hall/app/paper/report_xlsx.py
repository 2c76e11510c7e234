"""The evening's report as a spreadsheet workbook (openpyxl): the treasurer opens it and retypes nothing.

One sheet per rubric of the papers (``hall.money.papers``: the summary, the sales, the lots given, the lots not
given, the takings, what was done outside the rules, the parties, the winners, the draws, the refused claims, the
vouchers, the balls' frequencies), French headers (English for an English hall, ``[hall] language``). The cells are
typed: carton IDs, voucher codes and names are text (``000123`` stays ``000123``), amounts are numbers in euros with
a euro number format (they add up), counts are integers, times are dates in the hall's time zone.
"""

from __future__ import annotations

import os
from typing import IO

from hall.app.paper.xlsx_book import Book, Cell, in_euros
from hall.money.paper_cells import At, Kind, Money, Said, State, States
from hall.money.paper_cells import Cell as PaperCell
from hall.money.papers import papers
from hall.money.report import EveningReport
from hall.record.durable import replacing

XlsxTarget = str | os.PathLike[str] | IO[bytes]


def write_report_xlsx(report: EveningReport, target: XlsxTarget) -> None:
    """Write ``report`` as a workbook to ``target`` (a file name or a binary file object): a sheet a rubric."""
    b = Book(report)
    for section in papers(report):
        b.sheet(
            section.heading, [c.heading for c in section.columns], [[_cell(b, v) for v in row] for row in section.rows]
        )
    if hasattr(target, "write"):
        b.wb.save(target)
    else:  # a file: through the hall's durable writer (a cut leaves old or new)
        with replacing(target) as out:
            b.wb.save(out)


def _cell(b: Book, value: PaperCell | States) -> Cell:
    """A cell of the papers as the workbook holds it: euros, a local date, a word in the hall's language."""
    if isinstance(value, Money):
        return in_euros(value.cents)
    if isinstance(value, At):
        return b.when(value.iso)
    if isinstance(value, States):
        return " ; ".join(b.state(f) for f in value)
    if isinstance(value, State):
        return b.state(value)
    if isinstance(value, Kind):
        return b.kind(value)
    if isinstance(value, Said):
        return b.say(value)
    return value
