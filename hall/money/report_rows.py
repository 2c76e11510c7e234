"""The evening's report as rows, one per fact, the first column saying which (``section``): the evening and its
totals, each partie with its balls, undos, lots, winners, ties and claims, the numbers' frequency, the vouchers;
then the money (each sale, each lot's declared value, the takings, the balance, what changed outside the caisse);
then any other rubric of the papers (``hall.money.papers``), column for column. Codes are left for the writer to
say in the hall's language (``hall/money/report_csv.py``); amounts are decimals, never text. Pure, stdlib only.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from hall.cartons.sales import NO_TIER
from hall.money.paper_cells import At, Kind, Money, State
from hall.money.papers import LAID_OUT, papers
from hall.money.report import FALSE_CLAIM, EveningReport, LotResult, PartieReport, VoucherLine
from hall.money.takings import LotChangeLine, LotValueLine, SaleLine, Takings

# The CSV's columns, in order (``report_csv.HEADERS`` names them in each language).
COLUMNS = (
    "section",
    "partie",
    "lot",
    "order",
    "kind",
    "label",
    "card_id",
    "number",
    "code",
    "count",
    "status",
    "amount",
    "detail",
    "role",
    "session",
    "at",
)


class Code(str):
    """A word of the report's own (``parties``, ``forced``…), written in the hall's language; other text as it is."""


class Notes(tuple):
    """Remarks on a row as (code, free text) pairs: ``donateur Boulangerie Morel · gagnant Anne Roux`` (the code in
    the hall's language, the text as typed)."""


def eur(cents: int | None) -> Decimal | None:
    """Cents as a decimal number (``1550`` → ``15.50``), written with the hall's decimal separator."""
    return None if cents is None else Decimal(cents).scaleb(-2).quantize(Decimal("0.01"))


def csv_rows(report: EveningReport) -> Iterable[dict]:
    """The report as rows (dicts keyed by ``COLUMNS``), its codes not yet translated: the evening, each partie with
    its facts, the frequencies, the money, the vouchers, then any rubric of the papers the CSV lays out no other way."""
    yield {"section": "meta", "label": Code("hall"), "detail": report.hall_name, "at": report.first_at}
    yield {"section": "meta", "label": Code("last_event"), "at": report.last_at}
    yield {"section": "meta", "label": Code("lotos_this_year"), "count": report.lotos_this_year}
    if report.rooms is not None:
        yield from rooms_rows(report)
    for key, value in report.totals.items():
        yield {"section": "total", "label": Code(key), "count": value}
    for p in report.parties:
        yield from _partie_rows(p)
    for n, count in report.frequencies.items():
        yield {"section": "frequency", "number": n, "count": count}
    if report.takings is not None:
        yield from takings_rows(report.takings)
    yield from (_voucher_row(v) for v in report.vouchers)
    yield from _other_rows(report)


def rooms_rows(report: EveningReport) -> Iterable[dict]:
    """The salle annexe (RULES L23): « 1 événement, 2 salles, même tirage » naming the rooms, among the evening's
    rows; each annex's claims, waits, go-ons and returns are the papers' rubric ``salles`` (``_other_rows``)."""
    rooms = report.rooms
    assert rooms is not None
    names = " · ".join(rooms.rooms)
    yield {
        "section": "meta",
        "label": Code("rooms"),
        "count": len(rooms.rooms) + 1,
        "detail": rooms.headline(report.language) + f" ({names})",
    }


def _partie_rows(p: PartieReport) -> Iterable[dict]:
    """A partie, then its balls in draw order, its undos, its lots and their winners, its refused claims."""
    yield {
        "section": "partie",
        "partie": p.number,
        "count": len(p.draws),
        "status": p.status,
        "detail": Code("forced") if p.forced else "",
        "label": p.consolation_label,
        "at": p.started_at,
    }
    for order, (n, at) in enumerate(p.draws, 1):
        yield {"section": "draw", "partie": p.number, "order": order, "number": n, "at": at}
    for u in p.undos:
        yield {"section": "undo", "partie": p.number, "order": u.order, "number": u.number, "at": u.at, "role": u.role}
    for lot in p.lots:
        yield from _lot_rows(lot)
    for c in p.claims:
        yield {
            "section": "false_claim" if c.verdict == FALSE_CLAIM else "refused_claim",
            "partie": p.number,
            "lot": c.lot,
            "card_id": c.card_id,
            "number": c.last,
            "status": c.verdict,
            "role": c.role,
            "at": c.at,
        }


def _lot_rows(lot: LotResult) -> Iterable[dict]:
    """A lot not won (and what became of it), or its winners, its tie-break's draws and its consolations."""
    base = {"partie": lot.partie, "lot": lot.lot, "kind": lot.kind, "label": lot.label}
    came = ("carried_from", str(lot.carried_from)) if lot.carried_from else ()
    if not lot.awarded:
        yield {"section": "lot", **base, "status": _fate(lot.fate, lot.carried_to), "detail": came}
        return
    status = "shared" if lot.shared else ("tie_break" if lot.tie_break else "single")
    for card_id, rows in zip(lot.winners, lot.rows):
        yield {
            "section": "winner",
            **base,
            "card_id": card_id,
            "number": lot.last,
            "count": lot.balls,
            "status": status,
            "detail": ("rows", " ".join(map(str, rows)), *came),
            "at": lot.at,
        }
    for card_id, number in lot.tie_break:
        yield {
            "section": "tie_break",
            **base,
            "card_id": card_id,
            "number": number,
            "status": "winner" if card_id in lot.winners else "consolation",
        }
    for card_id in lot.consolation:
        yield {"section": "consolation", **base, "card_id": card_id, "detail": lot.consolation_label}


def _voucher_row(v: VoucherLine) -> dict:
    flags = [x for x in ("consolation" if v.consolation else "", "shared" if v.shared else "") if x]
    return {
        "section": "voucher",
        "partie": v.partie,
        "lot": v.lot,
        "order": v.serial,
        "kind": v.kind,
        "label": v.label,
        "card_id": v.card_id,
        "code": v.code,
        "count": v.printed,
        "status": "redeemed" if v.redeemed else "not_redeemed",
        "detail": (*flags, *(("reprints", str(v.reprints)) if v.reprints else ())),
        "at": v.issued_at,
    }


def _other_rows(report: EveningReport) -> Iterable[dict]:
    """Each rubric of the papers not laid out above: a row a row, each cell in the CSV's column of its key (a
    column the CSV has not goes in ``detail``, after its heading)."""
    for section in papers(report):
        if section.key in LAID_OUT:
            continue
        for row in section.rows:
            out: dict = {"section": section.key}
            extra: list[object] = []
            for column, value in zip(section.columns, row):
                if column.key in COLUMNS and column.key not in out:
                    out[column.key] = _plain(value)
                elif value not in (None, ""):
                    extra += [Code(column.heading), _plain(value)]
            if extra:
                out["detail"] = tuple(extra)
            yield out


def _plain(value: object) -> object:
    """A cell of the papers as the CSV's writer takes it: an amount in euros, a time as the journal has it."""
    if isinstance(value, Money):
        return eur(value.cents)
    if isinstance(value, At):
        return value.iso
    if isinstance(value, bool):
        return Code("yes" if value else "no")
    if isinstance(value, (State, Kind)):
        return Code(value)
    return value


def _cards(cards: tuple[str, ...]) -> str:
    return f"{cards[0]}..{cards[-1]}" if len(cards) > 1 else (cards[0] if cards else "")


def _fate(fate: str, carried_to: int | None) -> object:
    """A lot's fate as a state: « reporté à la partie N » when carried (RULES L19), else its word."""
    return ("carried_to", str(carried_to)) if carried_to else fate


def _lot_notes(v: LotValueLine) -> Notes:
    """What the treasurer reads beside a lot: its donor, the winners' names, where it came from, a money flag."""
    notes: list[tuple[str, str]] = []
    if v.sponsor:
        notes.append(("donor", v.sponsor))
    if any(v.buyers):
        notes.append(("winner_name", ", ".join(b for b in v.buyers if b)))
    if v.carried_from:
        notes.append(("carried_from", str(v.carried_from)))
    return Notes(notes + [(f"flag_{f}", "") for f in v.flags])


def takings_rows(t: Takings) -> Iterable[dict]:
    """The money: each sale, each lot's declared value, the totals and the balance, then what changed outside the
    caisse and the programme (sales off the tiers' price, lots changed at the console, cartons marked by hand)."""
    yield from (_sale_row(s) for s in t.sales)
    yield from _lot_value_rows(t)
    yield from _sum_rows(t)
    yield from (_price_row(s) for s in t.price_differs)
    yield from (_change_row(c) for c in t.changes)
    for m in t.marks:
        yield {
            "section": "hand_mark",
            "count": len(m.cards),
            "status": "sold" if m.sold else "unsold",
            "card_id": _cards(m.cards),
            "detail": " ".join(m.cards[:200]),
            "role": m.role,
            "session": m.session,
            "at": m.at,
        }


def _sale_row(s: SaleLine) -> dict:
    counted = s.paid and not s.voided  # the amount column of the sale rows adds up to the takings
    return {
        "section": "sale",
        "order": s.sale_id,
        "partie": s.partie,
        "count": len(s.cards),
        "kind": s.payment,
        "status": "voided" if s.voided else ("paid" if s.paid else "reserved"),
        "label": s.seller,
        "card_id": _cards(s.cards),
        "code": s.buyer,
        "amount": eur(s.cents if counted else 0),
        "detail": () if counted else ("not_counted", eur(s.cents)),
        "role": s.role,
        "session": s.session,
        "at": s.at,
    }


def _lot_value_rows(t: Takings) -> Iterable[dict]:
    for v in t.given:  # the lots given tonight: to which carton, by which voucher (amounts: the lots' value)
        yield {
            "section": "lot_given",
            "partie": v.partie,
            "lot": v.lot,
            "kind": v.kind,
            "label": v.label,
            "card_id": " ".join(v.cards),
            "code": " ".join(v.vouchers),
            "status": "awarded",
            "amount": eur(v.cents),
            "detail": _lot_notes(v),
        }
    for v in t.not_given:  # not given: kept for another loto (or still to play), their value apart
        yield {
            "section": "lot_kept",
            "partie": v.partie,
            "lot": v.lot,
            "kind": v.kind,
            "label": v.label,
            "status": _fate(v.fate, v.carried_to),
            "amount": eur(v.cents),
            "detail": _lot_notes(v),
        }


def _sum_rows(t: Takings) -> Iterable[dict]:
    """The takings by payment, seller and partie, then the balance."""
    totals = t.totals
    yield {
        "section": "takings",
        "label": Code("cards_sold"),
        "count": totals["cards_sold"],
        "amount": eur(t.receipts_cents),
    }
    for payment, cents in totals["by_payment"].items():
        yield {"section": "takings", "label": Code("payment"), "kind": payment, "amount": eur(cents)}
    for seller, cents in totals["by_seller"].items():
        yield {"section": "takings", "label": Code("seller"), "code": seller, "amount": eur(cents)}
    for partie, cents in totals["by_partie"].items():
        yield {"section": "takings", "label": Code("partie"), "partie": partie or None, "amount": eur(cents)}
    yield {
        "section": "takings",
        "label": Code("reserved_unpaid"),
        "count": totals["cards_reserved"],
        "amount": eur(totals["reserved_cents"]),
    }
    yield {"section": "balance", "label": Code("receipts"), "amount": eur(t.receipts_cents)}
    yield {"section": "balance", "label": Code("lots_declared"), "count": len(t.given), "amount": eur(t.given_cents)}
    yield {"section": "balance", "label": Code("lots_donated"), "amount": eur(t.donated_cents)}
    yield {"section": "balance", "label": Code("lots_bought"), "amount": eur(t.bought_cents)}
    yield {"section": "balance", "label": Code("balance"), "amount": eur(t.balance_cents)}
    yield {"section": "balance", "label": Code("lots_kept"), "count": len(t.not_given), "amount": eur(t.kept_cents)}


def _price_row(s: SaleLine) -> dict:
    offered = ("no_tier",) if s.offered_cents == NO_TIER else ("offered", eur(s.offered_cents))
    return {
        "section": "price_differs",
        "order": s.sale_id,
        "count": len(s.cards),
        "card_id": _cards(s.cards),
        "label": s.seller,
        "amount": eur(s.cents),
        "detail": offered,
        "role": s.role,
        "session": s.session,
        "at": s.at,
    }


def _change_row(c: LotChangeLine) -> dict:
    what = "added" if c.planned is None else "dropped" if c.played is None else "replaced"
    lot = c.played or c.planned
    assert lot is not None  # a change names at least one lot
    return {
        "section": "lot_changed",
        "partie": c.partie,
        "kind": lot.kind,
        "status": what,
        "label": c.played,
        "detail": c.planned,
        "role": c.role,
        "session": c.session,
        "at": c.at,
    }
