"""Past evenings: each one archived whole under a dated folder of the data folder, never overwritten.

``loto-hall evening new`` (hall/app/evening.py) moves the evening's journal and voucher key into
``<data_dir>/soirees/<date>_<heure>/`` with its report (PDF, CSV) and a summary (``soiree.json``); the next evening
begins a journal holding only the hall's own settings given on /admin (``hall_settings``: the price tiers, the
programme, the phones' help, the PINs changed), journalled with the role ``carried``. This module reads those
summaries (the /admin list, the count of lotos of a civil year for the tax office's page), names the folders and
says which settings a new evening keeps. Pure, stdlib only (JSON files, no SQLite).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import MISSING, asdict, dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from hall.events import (
    Event,
    EventHandlers,
    LotSpec,
    PinChanged,
    PlayersSet,
    PricesSet,
    ProgrammeEdited,
    ProgrammePartie,
    Record,
)

ARCHIVE_DIR = "soirees"
SUMMARY_FILE = "soiree.json"
REPORT_PDF = "rapport.pdf"
REPORT_CSV = "rapport.csv"
JOURNAL_FILE = "journal.sqlite"  # the evening's journal, moved in whole (hall/app/runtime.py names it the same)
NAME = re.compile(r"\d{4}-\d{2}-\d{2}_\d{2}h\d{2}(-\d{1,3})?")
MAX_LISTED = 500
CARRIED_ROLE = "carried"  # the role of the settings a new evening starts with (never the evening's first event)


@dataclass(frozen=True, slots=True)
class EveningSummary:
    """What /admin lists of a past evening (amounts in cents)."""

    name: str  # the folder: 2026-11-21_20h15, then 2026-11-21_20h15-2 … never reused
    hall_name: str
    first_at: str
    last_at: str
    parties: int
    cards_sold: int
    receipts_cents: int
    lots_declared_cents: int
    lots_bought_cents: int
    balance_cents: int
    fingerprint: str = ""  # its journal's last hash when archived (hall/record/chain.py; "" before the chain)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def zone(timezone: str) -> dt.tzinfo:
    try:
        return ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        return dt.UTC


def local(iso: str, timezone: str) -> dt.datetime | None:
    """An ISO time of the journal in the hall's zone (``None`` when unreadable)."""
    try:
        return dt.datetime.fromisoformat(iso).astimezone(zone(timezone))
    except ValueError:
        return None


def folder_name(first_at: str, timezone: str, taken: Iterable[str]) -> str:
    """The dated name of an evening that began at ``first_at``, unused among ``taken``."""
    when = local(first_at, timezone) or dt.datetime.now(zone(timezone))
    return unused(when.strftime("%Y-%m-%d_%Hh%M"), taken)


def unused(base: str, taken: Iterable[str]) -> str:
    """``base``, or ``base-2``, ``base-3``… the first not in ``taken`` (an archive is never overwritten)."""
    used = set(taken)
    name, n = base, 1
    while name in used:
        n += 1
        name = f"{base}-{n}"
    return name


def archive_dir(data_dir: str | Path) -> Path:
    return Path(data_dir) / ARCHIVE_DIR


def archived_journal(data_dir: str | Path, name: str) -> Path | None:
    """The journal of the archived evening ``name`` (``None`` for a name that is not an evening's folder)."""
    return archive_dir(data_dir) / name / JOURNAL_FILE if NAME.fullmatch(name) else None


def _summary(path: Path) -> EveningSummary | None:
    try:
        raw = json.loads((path / SUMMARY_FILE).read_text(encoding="utf-8"))
        values = {
            k: raw[k]
            for k, f in EveningSummary.__dataclass_fields__.items()
            if k != "name" and (k in raw or f.default is MISSING)
        }
        return EveningSummary(name=path.name, **values)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def evening_summary(data_dir: str | Path, name: str) -> EveningSummary | None:
    """The summary of the archived evening ``name`` (``None``: no such evening, or its summary is unreadable)."""
    return _summary(archive_dir(data_dir) / name) if NAME.fullmatch(name) else None


def past_evenings(data_dir: str | Path) -> tuple[EveningSummary, ...]:
    """The archived evenings, newest first (a folder without a readable summary is left out)."""
    root = archive_dir(data_dir)
    try:
        names = sorted((p.name for p in root.iterdir() if p.is_dir() and NAME.fullmatch(p.name)), reverse=True)
    except OSError:
        return ()
    found = (_summary(root / name) for name in names[:MAX_LISTED])
    return tuple(s for s in found if s is not None)


def lotos_in_year(evenings: Iterable[EveningSummary], year: int, timezone: str) -> int:
    """How many of ``evenings`` (with at least one partie) took place in the civil ``year``."""
    count = 0
    for e in evenings:
        when = local(e.first_at, timezone)
        if e.parties and when is not None and when.year == year:
            count += 1
    return count


def year_of(iso: str, timezone: str) -> int:
    """The civil year of a journal time (this year when it is empty or unreadable)."""
    when = local(iso, timezone) if iso else None
    return (when or dt.datetime.now(zone(timezone))).year


@dataclass
class _Settings:
    """The hall's own settings as the journal's records leave them."""

    tiers: PricesSet | None = None
    players: PlayersSet | None = None
    pins: dict[str, PinChanged] = field(default_factory=dict)
    programme: dict[int, ProgrammePartie] = field(default_factory=dict)  # partie index (from 0) → as last edited


_SETTINGS = EventHandlers[None]()


@_SETTINGS.on(PricesSet)
def _tiers(s: _Settings, e: PricesSet) -> None:
    s.tiers = e


@_SETTINGS.on(PlayersSet)
def _players(s: _Settings, e: PlayersSet) -> None:
    s.players = e


@_SETTINGS.on(PinChanged)
def _pin(s: _Settings, e: PinChanged) -> None:
    s.pins[e.role] = e


@_SETTINGS.on(ProgrammeEdited)
def _programme(s: _Settings, e: ProgrammeEdited) -> None:
    """An edit replaces the programme from partie ``first`` on."""
    s.programme = {k: v for k, v in s.programme.items() if k < e.first - 1}
    s.programme.update({e.first - 1 + j: partie for j, partie in enumerate(e.parties)})


def hall_settings(
    records: Iterable[Record], configured: int, spec: Callable[[int], tuple[tuple[LotSpec, ...], str]]
) -> list[Event]:
    """The events a new evening's journal starts with: the hall's own settings as the last evening left them on
    /admin — the price tiers, the phones' help, each PIN changed (a salted hash), and the programme as it stood
    (each partie as the latest edit covering it had it, the config file's for the others: ``configured`` parties
    there, ``spec(index)`` their lots and consolation), from partie 1. Nothing when nothing was set on /admin."""
    s = _Settings()
    for record in records:
        _SETTINGS.dispatch(record.type, s, record.event)
    out: list[Event] = []
    if s.programme:
        count = max(configured, max(s.programme) + 1)
        out.append(ProgrammeEdited(1, tuple(s.programme.get(k) or ProgrammePartie(*spec(k)) for k in range(count))))
    out += [x for x in (s.tiers, s.players) if x is not None]
    return out + [s.pins[role] for role in sorted(s.pins)]
