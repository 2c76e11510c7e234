"""The rubrics of the papers (``hall.money.papers``) the report's PDF has no page of its own for (a rubric added
after the first ones: the tombola, the buvette): each a heading and a table of its columns as they are, amounts in
euros, times local, codes in the reader's language."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Paragraph

from hall.app.paper.pdf_parts import H2, OneLine, Say, euros, table, when
from hall.loto.lots import KIND_LABELS
from hall.money.paper_cells import STATES, At, Kind, Money, Said, Section, State, States, Text
from hall.money.papers import LAID_OUT, papers
from hall.money.papers_rooms import ROOMS, WIDTHS_MM
from hall.money.report import EveningReport


def other_sections(report: EveningReport, tz: str, say: Say) -> list:
    """Each rubric of ``report``'s papers not laid out elsewhere in the PDF: its heading, then its table."""
    out: list = []
    for section in papers(report):
        if section.key not in LAID_OUT:
            out += [Paragraph(say(section.heading), H2), section_table(section, tz, say)]
    return out


# the widths (mm) of a rubric whose columns would not share the page well by themselves
WIDTHS = {ROOMS: WIDTHS_MM}


def section_table(section: Section, tz: str, say: Say) -> object:
    """``section`` as a table across the page, a column each, its headings said in the reader's language."""
    rows = [[_shown(value, tz, say) for value in row] for row in section.rows]
    widths = WIDTHS.get(section.key)
    return table(
        [say(c.heading) for c in section.columns],
        rows or [["—"] * len(section.columns)],
        None if widths is None else [w * mm for w in widths],
    )


def _shown(value: object, tz: str, say: Say) -> object:
    """A cell of the papers as the PDF prints it."""
    if isinstance(value, Money):
        return euros(value.cents)
    if isinstance(value, At):
        return when(value.iso, tz)
    if isinstance(value, bool):
        return say("oui") if value else say("non")
    if isinstance(value, States):
        return " ; ".join(say(STATES.get(code, code)) for code in value)
    if isinstance(value, State):
        return say(STATES[value]) if value in STATES else value
    if isinstance(value, Kind):
        return say(KIND_LABELS.get(value, value))
    if isinstance(value, Said):
        return say(value)
    if isinstance(value, Text):  # a code or an ID: never cut in two
        return OneLine(value)
    return "" if value is None else value
