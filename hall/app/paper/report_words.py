"""What the report's files say of themselves, the same in the PDF's document information and the workbook's
properties: the title, the subject (the evening, its day and hours), the author (the hall) and the language, in
the report's language (``hall.money.report.written_in``); and a journal time as a local time."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from hall.app.lang import in_language
from hall.money.report import EveningReport


def when(iso: str, tz: str, fmt: str = "%H:%M:%S") -> str:
    """A journal time (ISO 8601, UTC) in the time zone ``tz`` as ``fmt`` says; the text itself if it is no time."""
    if not iso:
        return ""
    try:
        return dt.datetime.fromisoformat(iso).astimezone(ZoneInfo(tz)).strftime(fmt)
    except (ValueError, KeyError, OSError):
        return iso


@dataclass(frozen=True, slots=True)
class Described:
    title: str  # « Rapport de la soirée — Foyer rural »
    subject: str  # « Loto du 14/11/2026, de 20:31 à 23:05 (heure locale, Europe/Paris) »
    author: str  # the hall's name
    language: str  # fr, en


def described(report: EveningReport, timezone: str) -> Described:
    """What ``report``'s files say of themselves, in its language."""
    say = in_language(report.language)
    held = say("Loto du %(day)s, de %(start)s à %(end)s (heure locale, %(tz)s)") % {
        "day": when(report.first_at, timezone, "%d/%m/%Y") or "—",
        "start": when(report.first_at, timezone, "%H:%M"),
        "end": when(report.last_at, timezone, "%H:%M"),
        "tz": timezone,
    }
    title = say("Rapport de la soirée — %(hall)s") % {"hall": report.hall_name}
    return Described(title, held, report.hall_name, report.language)
