"""The evening's report: what a treasurer and the authorities ask for, from the journal alone.

``build_report(evening, records, hall_name)`` turns the replayed ``Evening`` and the journal's records
into plain values: each partie with its lots, winners, tie-breaks and consolations, the numbers in draw
order, undos and refused claims; ball frequencies; vouchers issued, printed and redeemed; totals.
``write_csv`` writes it as one long CSV (one row per fact, a ``section`` column saying which).
Pure: no PDF here (``drivers/report_pdf.py`` draws it).
"""
from __future__ import annotations

import csv
import io
import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import IO, Any

from hall.events import Record
from hall.partie import AWARDED, Evening
from hall.spreadsheet import safe_cell

FALSE_CLAIM = "incomplete"


@dataclass(frozen=True, slots=True)
class LotResult:
    partie: int
    lot: int                                  # 1-based position in the partie
    kind: str
    label: str
    value_eur: float | None
    awarded: bool
    winners: tuple[str, ...] = ()
    rows: tuple[tuple[int, ...], ...] = ()    # the winning rows (1-based) of each winner
    last: int | None = None                   # the ball it was won on
    balls: int | None = None                  # how many balls were out then
    tie_break: tuple[tuple[str, int], ...] = ()
    consolation: tuple[str, ...] = ()
    consolation_label: str = ""
    shared: bool = False
    at: str = ""


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
    order: int                                # the position the ball had in the draw (1-based)
    at: str
    role: str


@dataclass(frozen=True, slots=True)
class VoucherLine:
    code: str
    serial: int
    partie: int
    lot: int
    kind: str
    label: str                                # what it is exchanged for (the consolation's label for one)
    card_id: str
    consolation: bool
    shared: bool
    printed: int                              # times it came out of the printer (duplicates included)
    reprints: int
    redeemed: bool
    issued_at: str = ""
    redeemed_at: str = ""


@dataclass
class PartieReport:
    number: int
    status: str                               # playing, checking, finished, cleared
    forced: bool = False                      # démarquée with lots left
    consolation_label: str = ""
    started_at: str = ""
    ended_at: str = ""
    draws: list[tuple[int, str]] = field(default_factory=list)     # (number, time) in draw order
    lots: list[LotResult] = field(default_factory=list)
    undos: list[UndoLine] = field(default_factory=list)
    claims: list[ClaimLine] = field(default_factory=list)           # every claim that was not valid

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
    frequencies: dict[int, int]               # ball → in how many parties it was drawn (1..90, zeros included)
    vouchers: list[VoucherLine]
    totals: dict[str, int]
    takings: Takings | None = None            # the money: sales, lots' declared values, balance (issue 16)


def build_report(evening: Evening, records: Iterable[Record], hall_name: str) -> EveningReport:
    """The report of the evening whose journal is ``records`` and whose replayed state is ``evening``."""
    parties: dict[int, PartieReport] = {}
    current: PartieReport | None = None
    issued_at: dict[str, str] = {}
    redeemed_at: dict[str, str] = {}
    awarded_at: dict[tuple[int, int], str] = {}
    first_at = last_at = ""
    records_seen: list[Record] = []
    for record in records:
        records_seen.append(record)
        e, at, kind = record.event, record.at, record.type
        first_at = first_at or at
        last_at = at
        if kind == "voucher:issued":
            issued_at[e.code] = at
        elif kind == "voucher:redeemed":
            redeemed_at[e.code] = at
        elif kind == "partie:started":
            current = parties[e.number] = PartieReport(e.number, "playing", consolation_label=e.consolation,
                                                       started_at=at)
        elif current is None:
            continue
        elif kind == "draw:ball_drawn":
            current.draws.append((e.number, at))
        elif kind == "draw:undone":
            current.draws.pop()
            current.undos.append(UndoLine(current.number, e.number, e.index + 1, at, record.role))
        elif kind == "claim:checked" and e.verdict != "valid":
            lot = None if e.lot_index is None else e.lot_index + 1
            current.claims.append(ClaimLine(current.number, lot, e.card_id, e.verdict, e.last, at, record.role))
        elif kind == "lot:awarded":
            awarded_at[(current.number, e.lot_index)] = at
        elif kind == "partie:cleared":
            current.ended_at, current.forced = at, e.forced

    for p in evening.parties:
        report = parties.setdefault(p.number, PartieReport(p.number, p.status, consolation_label=p.consolation))
        report.status = p.status
        if report.numbers != p.draws:          # the journal and the state disagree: trust the state, keep it visible
            report.draws = [(n, "") for n in p.draws]
        for index, lot in enumerate(p.lots):
            a = lot.award if lot.status == AWARDED else None
            if a is None:
                report.lots.append(LotResult(p.number, index + 1, lot.kind, lot.label, lot.value_eur, False))
                continue
            report.lots.append(LotResult(
                p.number, index + 1, lot.kind, lot.label, lot.value_eur, True, a.winners,
                tuple(tuple(r + 1 for r in rows) for rows in a.rows), a.last, a.draw_index + 1,
                tuple((t.card_id, t.number) for t in a.tie_break), a.consolation,
                p.consolation if a.consolation else "", a.shared, awarded_at.get((p.number, index), "")))
    ordered = [parties[n] for n in sorted(parties)]

    frequencies = {n: 0 for n in range(1, 91)}
    for pr in ordered:
        for n in pr.numbers:
            frequencies[n] += 1

    vouchers = [VoucherLine(v.issued.code, v.issued.serial, v.issued.partie, v.issued.lot_index + 1, v.issued.lot_kind,
                            v.issued.lot_label, v.issued.card_id, v.issued.consolation, v.issued.shared, v.printed,
                            v.reprints_requested, v.redeemed, issued_at.get(code, ""), redeemed_at.get(code, ""))
                for code, v in evening.vouchers.items()]
    vouchers.sort(key=lambda v: v.serial)

    verdicts = Counter(c.verdict for p in ordered for c in p.claims)
    lots = [lot for p in ordered for lot in p.lots]
    totals = {
        "parties": len(ordered),
        "balls_drawn": sum(len(p.draws) for p in ordered),
        "undos": sum(len(p.undos) for p in ordered),
        "lots_awarded": sum(lot.awarded for lot in lots),
        "lots_not_awarded": sum(not lot.awarded for lot in lots),
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
    return EveningReport(hall_name, first_at, last_at, ordered, frequencies, vouchers, totals,
                         takings_of(evening, records_seen))


def report_from_hall(hall: Any) -> EveningReport:
    """The report of a running hall (for the admin page), from one consistent reading (``Hall.report``)."""
    return hall.report()


CSV_HEADER = ("section", "partie", "lot", "order", "kind", "label", "card_id", "number", "code", "count",
              "status", "detail", "at")


def csv_rows(report: EveningReport) -> Iterable[dict]:
    """The report as CSV rows (dicts keyed by ``CSV_HEADER``)."""
    yield {"section": "meta", "label": "hall", "detail": report.hall_name, "at": report.first_at}
    yield {"section": "meta", "label": "last_event", "at": report.last_at}
    for key, value in report.totals.items():
        yield {"section": "total", "label": key, "count": value}
    for p in report.parties:
        yield {"section": "partie", "partie": p.number, "count": len(p.draws), "status": p.status,
               "detail": "forced" if p.forced else "", "label": p.consolation_label, "at": p.started_at}
        for order, (n, at) in enumerate(p.draws, 1):
            yield {"section": "draw", "partie": p.number, "order": order, "number": n, "at": at}
        for u in p.undos:
            yield {"section": "undo", "partie": p.number, "order": u.order, "number": u.number, "at": u.at,
                   "detail": u.role}
        for lot in p.lots:
            base = {"partie": p.number, "lot": lot.lot, "kind": lot.kind, "label": lot.label}
            if not lot.awarded:
                yield {"section": "lot", **base, "status": "not_awarded"}
                continue
            status = "shared" if lot.shared else ("tie_break" if lot.tie_break else "single")
            for card_id, rows in zip(lot.winners, lot.rows):
                yield {"section": "winner", **base, "card_id": card_id, "number": lot.last, "count": lot.balls,
                       "status": status, "detail": "rows " + " ".join(map(str, rows)), "at": lot.at}
            for card_id, number in lot.tie_break:
                yield {"section": "tie_break", **base, "card_id": card_id, "number": number,
                       "status": "winner" if card_id in lot.winners else "consolation"}
            for card_id in lot.consolation:
                yield {"section": "consolation", **base, "card_id": card_id, "detail": lot.consolation_label}
        for c in p.claims:
            yield {"section": "false_claim" if c.verdict == FALSE_CLAIM else "refused_claim", "partie": p.number,
                   "lot": c.lot, "card_id": c.card_id, "number": c.last, "status": c.verdict, "detail": c.role,
                   "at": c.at}
    for n, count in report.frequencies.items():
        yield {"section": "frequency", "number": n, "count": count}
    if report.takings is not None:
        yield from takings_rows(report.takings)
    for v in report.vouchers:
        yield {"section": "voucher", "partie": v.partie, "lot": v.lot, "order": v.serial, "kind": v.kind,
               "label": v.label, "card_id": v.card_id, "code": v.code, "count": v.printed,
               "status": "redeemed" if v.redeemed else "not_redeemed",
               "detail": ";".join(x for x in ("consolation" if v.consolation else "", "shared" if v.shared else "",
                                              f"reprints={v.reprints}" if v.reprints else "") if x),
               "at": v.issued_at}


def write_csv(report: EveningReport, target: str | os.PathLike | io.TextIOBase) -> None:
    """Write the report as CSV (UTF-8 with a BOM so that a spreadsheet opens the accents right)."""
    if isinstance(target, io.TextIOBase):
        _write(report, target)
        return
    with open(target, "w", encoding="utf-8-sig", newline="") as fh:
        _write(report, fh)


def _write(report: EveningReport, fh: IO[str] | io.TextIOBase) -> None:
    writer = csv.DictWriter(fh, fieldnames=CSV_HEADER, extrasaction="raise", lineterminator="\r\n")
    writer.writeheader()
    for row in csv_rows(report):
        writer.writerow({k: ("" if row.get(k) is None else safe_cell(row.get(k, ""))) for k in CSV_HEADER})


# ---- the money (issue 16): what the treasurer hands to the board ------------------------------------
@dataclass(frozen=True, slots=True)
class SaleLine:
    sale_id: int
    at: str
    cards: tuple[str, ...]
    cents: int
    payment: str
    paid: bool
    buyer: str
    seller: str
    partie: int | None
    voided: bool
    voided_at: str = ""


@dataclass(frozen=True, slots=True)
class LotValueLine:
    partie: int
    lot: int
    kind: str
    label: str
    cents: int | None                         # declared value; None when not declared
    sponsor: str                              # a lot given by a sponsor costs the association nothing
    awarded: bool


@dataclass(frozen=True, slots=True)
class Takings:
    sales: tuple[SaleLine, ...]
    lots: tuple[LotValueLine, ...]
    totals: dict                              # hall.sales.totals() of the live sales: cents by payment, seller…
    declared_cents: int                       # every lot played tonight with a declared value
    donated_cents: int                        # of which given by sponsors
    undeclared_lots: int

    @property
    def receipts_cents(self) -> int:
        return self.totals["total_cents"]

    @property
    def bought_cents(self) -> int:
        return self.declared_cents - self.donated_cents

    @property
    def balance_cents(self) -> int:
        """Receipts less the lots the association paid for (declared value of the lots without a sponsor)."""
        return self.receipts_cents - self.bought_cents


def takings_of(evening: Evening, records: Iterable[Record]) -> Takings:
    """The evening's money from its replayed state and journal (sale times, the lots as started, with sponsors)."""
    from hall.sales import totals as sales_totals
    sold_at: dict[int, str] = {}
    voided_at: dict[int, str] = {}
    started: dict[int, tuple] = {}
    for record in records:
        if record.type == "sales:sale_recorded":
            sold_at[record.event.sale_id] = record.at
        elif record.type == "sales:sale_voided":
            voided_at[record.event.sale_id] = record.at
        elif record.type == "partie:started":
            started[record.event.number] = record.event.lots
    sales = tuple(SaleLine(s.sale_id, sold_at.get(s.sale_id, ""), s.card_ids, s.cents, s.payment, s.paid, s.buyer,
                           s.seller or s.role, s.partie, s.voided, voided_at.get(s.sale_id, ""))
                  for s in evening.sales.sales.values())
    lots = []
    for p in evening.parties:
        specs = started.get(p.number, ())
        for i, lot in enumerate(p.lots):
            sponsor = specs[i].sponsor if i < len(specs) else ""
            cents = None if lot.value_eur is None else round(lot.value_eur * 100)
            lots.append(LotValueLine(p.number, i + 1, lot.kind, lot.label, cents, sponsor, lot.status == AWARDED))
    declared = sum(v.cents or 0 for v in lots)
    donated = sum(v.cents or 0 for v in lots if v.sponsor)
    return Takings(sales, tuple(lots), sales_totals(evening.sales.live()), declared, donated,
                   sum(v.cents is None for v in lots))


def _eur(cents: int | None) -> Decimal | str:
    """Cents as a decimal number a spreadsheet reads (``1550`` → ``15.50``, ``-1200`` → ``-12.00``).

    A number, not text: the CSV writer neutralises text starting with ``-`` as a possible formula."""
    if cents is None:
        return ""
    return Decimal(cents).scaleb(-2).quantize(Decimal("0.01"))


def takings_rows(t: Takings) -> Iterable[dict]:
    """The money as CSV rows: each sale, each lot's declared value, the totals and the balance (``detail`` in €)."""
    for s in t.sales:
        yield {"section": "sale", "order": s.sale_id, "partie": s.partie, "count": len(s.cards),
               "kind": s.payment, "status": "voided" if s.voided else ("paid" if s.paid else "reserved"),
               "label": s.seller, "card_id": f"{s.cards[0]}..{s.cards[-1]}" if len(s.cards) > 1 else s.cards[0],
               "code": s.buyer, "detail": _eur(s.cents), "at": s.at}
    for v in t.lots:
        yield {"section": "lot_value", "partie": v.partie, "lot": v.lot, "kind": v.kind, "label": v.label,
               "code": v.sponsor, "status": "awarded" if v.awarded else "not_awarded", "detail": _eur(v.cents)}
    totals = t.totals
    yield {"section": "takings", "label": "cards_sold", "count": totals["cards_sold"], "detail": _eur(t.receipts_cents)}
    for payment, cents in totals["by_payment"].items():
        yield {"section": "takings", "label": "payment", "kind": payment, "detail": _eur(cents)}
    for seller, cents in totals["by_seller"].items():
        yield {"section": "takings", "label": "seller", "code": seller, "detail": _eur(cents)}
    for partie, cents in totals["by_partie"].items():
        yield {"section": "takings", "label": "partie", "partie": partie or None, "detail": _eur(cents)}
    yield {"section": "takings", "label": "reserved_unpaid", "count": totals["cards_reserved"],
           "detail": _eur(totals["reserved_cents"])}
    yield {"section": "balance", "label": "receipts", "detail": _eur(t.receipts_cents)}
    yield {"section": "balance", "label": "lots_declared", "count": len(t.lots) - t.undeclared_lots,
           "detail": _eur(t.declared_cents)}
    yield {"section": "balance", "label": "lots_donated", "detail": _eur(t.donated_cents)}
    yield {"section": "balance", "label": "lots_bought", "detail": _eur(t.bought_cents)}
    yield {"section": "balance", "label": "balance", "detail": _eur(t.balance_cents)}
