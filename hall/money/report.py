"""The evening's report: what a treasurer and the authorities ask for, from the journal alone.

``build_report(evening, records, hall_name)`` turns the replayed ``Evening`` and the journal's records
into plain values: each partie with its lots, winners, tie-breaks and consolations, the numbers in draw
order, undos and refused claims; ball frequencies; vouchers issued, printed and redeemed; totals; the money
(``hall/money/takings.py``). ``hall/money/report_rows.py`` lays it out as rows, ``hall/money/report_csv.py``
writes them as a spreadsheet's CSV; ``hall/app/paper/report_pdf.py`` draws the PDF. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from hall.events import (
    BallDrawn,
    ClaimChecked,
    DrawUndone,
    EventHandlers,
    LotAwarded,
    PartieCleared,
    PartieStarted,
    Record,
    VoucherIssued,
    VoucherRedeemed,
)
from hall.loto.lots import Said, terms_of
from hall.loto.partie import AWARDED, Evening, Lot, Partie
from hall.marks import N_
from hall.money.accounts import Account
from hall.money.report_lots import CARRIED, GIVEN, NOT_GIVEN, LotFate, lot_fates
from hall.money.report_rooms import RoomsReport, rooms_of
from hall.money.takings import Takings, takings_of
from hall.record.evenings import CARRIED_ROLE, lotos_in_year, past_evenings, year_of
from hall.snapshots import Fingerprint

FALSE_CLAIM = "incomplete"


# the evening's totals as the treasurer reads them (the PDF's summary, the French CSV's labels)
TOTAL_LABELS = {
    "parties": N_("Parties jouées"),
    "balls_drawn": N_("Boules tirées"),
    "undos": N_("Boules annulées"),
    "lots_awarded": N_("Lots donnés (gagnés)"),
    "lots_not_awarded": N_("Lots non donnés"),
    "lots_carried": N_("Lots reportés (comptés une fois)"),
    "tie_breaks": N_("Départages"),
    "shared_lots": N_("Lots partagés"),
    "consolations": N_("Lots de consolation"),
    "false_claims": N_("Fausses réclamations"),
    "missed_claims": N_("Boules laissées passer"),
    "other_refused_claims": N_("Autres réclamations refusées"),
    "vouchers_issued": N_("Bons émis"),
    "vouchers_printed": N_("Bons imprimés"),
    "vouchers_unprinted": N_("Bons non imprimés"),
    "duplicates_printed": N_("Duplicatas imprimés"),
    "vouchers_redeemed": N_("Bons remis (lot donné)"),
    "vouchers_outstanding": N_("Bons non remis"),
}


@dataclass(frozen=True, slots=True)
class LotResult:
    partie: int
    lot: int  # 1-based position in the partie
    kind: str
    label: str
    value_eur: float | None
    awarded: bool
    winners: tuple[str, ...] = ()
    rows: tuple[tuple[int, ...], ...] = ()  # the winning rows (1-based) of each winner
    last: int | None = None  # the ball it was won on
    balls: int | None = None  # how many balls were out then
    tie_break: tuple[tuple[str, int], ...] = ()
    consolation: tuple[str, ...] = ()
    consolation_label: str = ""
    shared: bool = False
    at: str = ""
    fate: str = ""  # hall.money.report_lots: given, carried, to_play, kept
    carried_to: int | None = None  # carried by « Démarquez »: the partie it is played in
    carried_from: int | None = None  # came carried: the partie it was first promised in
    terms: Said = ()  # a named row, a ball limit (hall.loto.lots.terms_of), and which prize


@dataclass(frozen=True, slots=True)
class ClaimLine:
    partie: int
    lot: int | None
    card_id: str
    verdict: str
    last: int | None
    at: str
    role: str


@dataclass(frozen=True, slots=True)
class UndoLine:
    partie: int
    number: int
    order: int  # the position the ball had in the draw (1-based)
    at: str
    role: str


@dataclass(frozen=True, slots=True)
class VoucherLine:
    code: str
    serial: int
    partie: int
    lot: int
    kind: str
    label: str  # what it is exchanged for (the consolation's label for one)
    card_id: str
    consolation: bool
    shared: bool
    printed: int  # times it came out of the printer (duplicates included)
    reprints: int
    redeemed: bool
    issued_at: str = ""
    redeemed_at: str = ""


@dataclass
class PartieReport:
    number: int
    status: str  # playing, checking, finished, cleared
    forced: bool = False  # démarquée with lots left
    consolation_label: str = ""
    started_at: str = ""
    ended_at: str = ""
    draws: list[tuple[int, str]] = field(default_factory=list)  # (number, time) in draw order
    lots: list[LotResult] = field(default_factory=list)
    undos: list[UndoLine] = field(default_factory=list)
    claims: list[ClaimLine] = field(default_factory=list)  # every claim that was not valid

    @property
    def numbers(self) -> list[int]:
        return [n for n, _ in self.draws]

    @property
    def false_claims(self) -> list[ClaimLine]:
        return [c for c in self.claims if c.verdict == FALSE_CLAIM]


@dataclass
class EveningReport:
    hall_name: str
    first_at: str
    last_at: str
    parties: list[PartieReport]
    frequencies: dict[int, int]  # ball → in how many parties it was drawn (1..90, zeros included)
    vouchers: list[VoucherLine]
    totals: dict[str, int]
    takings: Takings | None = None  # the money: sales, lots' declared values, balance
    language: str = "fr"  # the hall's unless chosen (written_in): the words of the PDF, the CSV and the workbook
    timezone: str = "Europe/Paris"  # the hall's: the CSV's and the PDF's times
    lotos_this_year: int = 0  # lotos recorded this civil year, this one included (the SIE page)
    fingerprint: Fingerprint | None = None  # the journal's last record's hash (hall/record/chain.py): printed on paper
    rooms: RoomsReport | None = None  # the salle annexe (RULES L23): None for an evening in one room
    accounts: tuple[Account, ...] = ()  # the evening's other accounts (tombola, buvette), beside the cartons'


@dataclass
class _JournalReading:
    """What only the journal says, read record by record: when each thing happened, and who did it."""

    parties: dict[int, PartieReport] = field(default_factory=dict)
    current: PartieReport | None = None  # the partie the records are in (none before the first)
    issued_at: dict[str, str] = field(default_factory=dict)
    redeemed_at: dict[str, str] = field(default_factory=dict)
    awarded_at: dict[tuple[int, int], str] = field(default_factory=dict)


_READ = EventHandlers[None]()


@_READ.on(VoucherIssued)
def _issued(r: _JournalReading, record: Record) -> None:
    r.issued_at[record.event.code] = record.at


@_READ.on(VoucherRedeemed)
def _redeemed(r: _JournalReading, record: Record) -> None:
    r.redeemed_at[record.event.code] = record.at


@_READ.on(PartieStarted)
def _started(r: _JournalReading, record: Record) -> None:
    e = record.event
    r.current = r.parties[e.number] = PartieReport(
        e.number, "playing", consolation_label=e.consolation, started_at=record.at
    )


@_READ.on(BallDrawn)
def _drawn(r: _JournalReading, record: Record) -> None:
    if r.current is not None:
        r.current.draws.append((record.event.number, record.at))


@_READ.on(DrawUndone)
def _undone(r: _JournalReading, record: Record) -> None:
    if r.current is not None:
        e = record.event
        r.current.draws.pop()
        r.current.undos.append(UndoLine(r.current.number, e.number, e.index + 1, record.at, record.role))


@_READ.on(ClaimChecked)
def _checked(r: _JournalReading, record: Record) -> None:
    e = record.event
    if r.current is not None and e.verdict != "valid":
        lot = None if e.lot_index is None else e.lot_index + 1
        r.current.claims.append(ClaimLine(r.current.number, lot, e.card_id, e.verdict, e.last, record.at, record.role))


@_READ.on(LotAwarded)
def _awarded(r: _JournalReading, record: Record) -> None:
    if r.current is not None:
        r.awarded_at[(r.current.number, record.event.lot_index)] = record.at


@_READ.on(PartieCleared)
def _cleared(r: _JournalReading, record: Record) -> None:
    if r.current is not None:
        r.current.ended_at, r.current.forced = record.at, record.event.forced


def build_report(
    evening: Evening,
    records: Iterable[Record],
    hall_name: str,
    *,
    language: str = "fr",
    timezone: str = "Europe/Paris",
    accounts: Iterable[Account] = (),
) -> EveningReport:
    """The report of the evening whose journal is ``records`` and whose replayed state is ``evening``."""
    reading = _JournalReading()
    first_at = last_at = ""
    records_seen: list[Record] = []
    for record in records:
        records_seen.append(record)
        if record.role != CARRIED_ROLE:  # the settings a new evening starts with are the last one's
            first_at = first_at or record.at
            last_at = record.at
        _READ.dispatch(record.type, reading, record)
    ordered = _parties(evening, reading)
    vouchers = _vouchers(evening, reading)
    last = records_seen[-1] if records_seen else None
    return EveningReport(
        hall_name,
        first_at,
        last_at,
        ordered,
        _frequencies(ordered),
        vouchers,
        _totals(ordered, vouchers),
        takings_of(evening, records_seen),
        language,
        timezone,
        1 if ordered else 0,
        Fingerprint(last.seq, last.at, last.hash) if last and last.hash else None,
        rooms_of(records_seen),
        tuple(accounts),
    )


def _parties(evening: Evening, reading: _JournalReading) -> list[PartieReport]:
    """Each partie of the state, with the journal's times, its lots as results, in the order of their numbers."""
    parties = reading.parties
    fates = lot_fates(evening.parties)
    for p in evening.parties:
        report = parties.setdefault(p.number, PartieReport(p.number, p.status, consolation_label=p.consolation))
        report.status = p.status
        if report.numbers != p.draws:  # the journal and the state disagree: trust the state, keep it visible
            report.draws = [(n, "") for n in p.draws]
        for index in range(len(p.lots)):
            report.lots.append(_lot_result(p, index, fates[(p.number, index)], reading.awarded_at))
    return [parties[n] for n in sorted(parties)]


def _lot_result(p: Partie, index: int, fate: LotFate, awarded_at: dict[tuple[int, int], str]) -> LotResult:
    """Lot ``index`` of partie ``p``: what it was, what became of it, and who won it on which ball."""
    lot = p.lots[index]
    a = lot.award if lot.status == AWARDED else None
    promised = LotResult(
        p.number,
        index + 1,
        lot.kind,
        lot.label,
        lot.value_eur,
        False,
        fate=fate.fate,
        carried_to=fate.carried_to,
        carried_from=fate.carried_from,
        terms=terms_of(lot.spec),
    )
    if a is None:
        return promised
    prize = lot.prize  # a maxi-bingo won after its ball N: the fallback (RULES L20)
    return replace(
        promised,
        label=prize.label,
        value_eur=prize.value_eur,
        awarded=True,
        winners=a.winners,
        rows=tuple(tuple(r + 1 for r in rows) for rows in a.rows),
        last=a.last,
        balls=a.draw_index + 1,
        tie_break=tuple((t.card_id, t.number) for t in a.tie_break),
        consolation=a.consolation,
        consolation_label=p.consolation if a.consolation else "",
        shared=a.shared,
        at=awarded_at.get((p.number, index), ""),
        terms=_won_terms(lot, promised.terms),
    )


def _won_terms(lot: Lot, terms: Said) -> Said:
    """The terms a won lot is printed with: a fallback says which jackpot it stood for, a jackpot that it was won."""
    if lot.prize.fallback:  # the label is the fallback's
        return (
            (
                N_("lot de repli : jackpot « %(jackpot)s » non gagné en %(n)s boules"),
                {"jackpot": lot.label, "n": lot.within},
            ),
        )
    if lot.within is not None:
        return (*terms, (N_("jackpot gagné"), {}))
    return terms


def _frequencies(parties: list[PartieReport]) -> dict[int, int]:
    """Ball → in how many parties it was drawn, 1..90, zeros included."""
    frequencies = {n: 0 for n in range(1, 91)}
    for pr in parties:
        for n in pr.numbers:
            frequencies[n] += 1
    return frequencies


def _vouchers(evening: Evening, reading: _JournalReading) -> list[VoucherLine]:
    """Every voucher of the evening, with the journal's times, in the order of their serials."""
    vouchers = [
        VoucherLine(
            v.issued.code,
            v.issued.serial,
            v.issued.partie,
            v.issued.lot_index + 1,
            v.issued.lot_kind,
            v.issued.lot_label,
            v.issued.card_id,
            v.issued.consolation,
            v.issued.shared,
            v.printed,
            v.reprints_requested,
            v.redeemed,
            reading.issued_at.get(code, ""),
            reading.redeemed_at.get(code, ""),
        )
        for code, v in evening.vouchers.items()
    ]
    vouchers.sort(key=lambda v: v.serial)
    return vouchers


def _totals(ordered: list[PartieReport], vouchers: list[VoucherLine]) -> dict[str, int]:
    """The evening's totals, keyed as ``TOTAL_LABELS``."""
    verdicts = Counter(c.verdict for p in ordered for c in p.claims)
    lots = [lot for p in ordered for lot in p.lots]
    return {
        "parties": len(ordered),
        "balls_drawn": sum(len(p.draws) for p in ordered),
        "undos": sum(len(p.undos) for p in ordered),
        "lots_awarded": sum(lot.fate == GIVEN for lot in lots),  # each physical lot once (RULES L19)
        "lots_not_awarded": sum(lot.fate in NOT_GIVEN for lot in lots),
        "lots_carried": sum(lot.fate == CARRIED for lot in lots),
        "tie_breaks": sum(bool(lot.tie_break) for lot in lots),
        "shared_lots": sum(lot.shared for lot in lots),
        "consolations": sum(len(lot.consolation) for lot in lots),
        "false_claims": verdicts[FALSE_CLAIM],
        "missed_claims": verdicts["missed"],
        "other_refused_claims": sum(verdicts.values()) - verdicts[FALSE_CLAIM] - verdicts["missed"],
        "vouchers_issued": len(vouchers),
        "vouchers_printed": sum(v.printed > 0 for v in vouchers),
        "vouchers_unprinted": sum(v.printed == 0 for v in vouchers),
        "duplicates_printed": sum(max(0, v.printed - 1) for v in vouchers),
        "vouchers_redeemed": sum(v.redeemed for v in vouchers),
        "vouchers_outstanding": sum(not v.redeemed for v in vouchers),
    }


REPORT_LANGUAGES = ("fr", "en")  # the words of the report's three files: French, or English


def written_in(report: EveningReport, language: str | None) -> EveningReport:
    """``report`` to be written in ``language`` (``fr`` or ``en``), every file of it alike: its PDF, its CSV and its
    workbook; ``None`` keeps the hall's. ``ValueError`` for another language."""
    if language is None:
        return report
    if language not in REPORT_LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(REPORT_LANGUAGES)}, not {language!r}")
    return replace(report, language=language)


def with_year(report: EveningReport, data_dir: str | Path) -> EveningReport:
    """``report`` counting the lotos recorded in its civil year: the archived evenings (``hall.record.evenings``) and,
    when a partie was played, this one."""
    year = year_of(report.first_at, report.timezone)
    report.lotos_this_year = lotos_in_year(past_evenings(data_dir), year, report.timezone) + (
        1 if report.parties else 0
    )
    return report


class _Reporting(Protocol):
    def report(self) -> EveningReport: ...


def report_from_hall(hall: _Reporting) -> EveningReport:
    """The report of a running hall (for the admin page), from one consistent reading (``Hall.report``)."""
    return hall.report()
