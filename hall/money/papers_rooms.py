"""The salle annexe's rubric of the papers (RULES L23): « 1 événement, 2 salles, même tirage », then each annex's
claims, each time the draw waited for its lost link, went on without it, or had it back — one row a fact, in the
journal's order. The workbook writes it a sheet, the PDF a table, the CSV its rows (``rubrique`` ``salles``).
Pure, stdlib only."""

from __future__ import annotations

from hall.money.paper_cells import AT, KIND, LAST, N_, PARTIE, ROLE, At, Column, Kind, Section, State, Text
from hall.money.report import EveningReport

ROOMS = "salles"
ROOM = Column("label", N_("Salle annexe"))
FACT = Column("status", N_("Fait"))
DETAIL = Column("detail", N_("Détail"))
COLUMNS = (ROOM, FACT, PARTIE, LAST, KIND, DETAIL, AT, ROLE)
# the PDF's widths (mm, of the 186 mm between the margins): a room's name and a fact's words are long, a ball short
WIDTHS_MM = (28, 50, 12, 18, 20, 26, 17, 15)


def headline(report: EveningReport) -> str | None:
    """« 1 événement, 2 salles, même tirage : Salle des fêtes · Salle B » in the report's language; ``None`` for an
    evening in one room."""
    rooms = report.rooms
    if rooms is None:
        return None
    colon = ": " if report.language == "en" else " : "
    return f"{rooms.headline(report.language)}{colon}{' · '.join([report.hall_name, *rooms.rooms])}"


def rooms_section(report: EveningReport) -> Section | None:
    """The annex rooms' facts; none for an evening in one room."""
    rooms = report.rooms
    if rooms is None:
        return None
    rows = tuple(
        (
            Text(f.room),
            State(f.what),
            f.partie,
            f.ball,
            Kind(f.detail) if f.what == "room_claim" and f.detail else None,
            State(f.detail) if f.what != "room_claim" and f.detail else None,
            At(f.at),
            f.role,
        )
        for f in rooms.facts
    )
    return Section(ROOMS, N_("Salles"), COLUMNS, rows)
