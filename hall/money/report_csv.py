"""The evening's report as a CSV a French spreadsheet opens as it is: ``;`` between cells, a decimal comma, UTF-8
with a BOM, the hall's local times, French headers and words (English ones when the hall is English).

One row per fact, the first column saying which (``rubrique``). Amounts are in their own column, written as
numbers (``-527,50``), never as text, so a spreadsheet adds them; every text cell goes through
``hall.spreadsheet.protect_text`` (a cell starting with ``=``, ``+``, ``-``, ``@``… is kept as text). Pure, stdlib only.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import IO
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from hall.cartons.sales import NO_TIER
from hall.events import LotSpec
from hall.loto.lots import KIND_LABELS
from hall.money.report import FALSE_CLAIM, TOTAL_LABELS, EveningReport
from hall.money.takings import LotValueLine, Takings
from hall.record.durable import replacing
from hall.spreadsheet import protect_text

DELIMITER = ";"
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
HEADERS: Mapping[str, Mapping[str, str]] = {
    "fr": {
        "section": "rubrique",
        "partie": "partie",
        "lot": "lot",
        "order": "ordre",
        "kind": "type",
        "label": "libellé",
        "card_id": "carton",
        "number": "numéro",
        "code": "code",
        "count": "nombre",
        "status": "état",
        "amount": "montant (€)",
        "detail": "détail",
        "role": "rôle",
        "session": "session",
        "at": "heure",
    },
    "en": {
        "section": "section",
        "partie": "partie",
        "lot": "lot",
        "order": "order",
        "kind": "kind",
        "label": "label",
        "card_id": "card_id",
        "number": "number",
        "code": "code",
        "count": "count",
        "status": "status",
        "amount": "amount_eur",
        "detail": "detail",
        "role": "role",
        "session": "session",
        "at": "time",
    },
}
# The codes of the rows (sections, states, labels of the totals) in French; in English they are written as they are.
FRENCH = {
    "meta": "soirée",
    "hall": "salle",
    "last_event": "dernier événement",
    "total": "total",
    "partie": "partie",
    "draw": "tirage",
    "undo": "boule annulée",
    "lot": "lot",
    "winner": "gagnant",
    "tie_break": "départage",
    "consolation": "consolation",
    "false_claim": "fausse annonce",
    "refused_claim": "réclamation refusée",
    "frequency": "fréquence",
    "voucher": "bon",
    "sale": "vente",
    "lot_value": "valeur des lots",
    "takings": "recette",
    "balance": "solde",
    "lot_changed": "lot changé à la console",
    "hand_mark": "marqué à la main",
    "price_differs": "prix hors tarif",
    # states and details
    "playing": "en cours",
    "checking": "vérification",
    "finished": "tous les lots gagnés",
    "cleared": "démarquée",
    "forced": "démarquée avec des lots restants",
    "not_awarded": "non gagné",
    "awarded": "gagné",
    "shared": "partagé",
    "single": "seul gagnant",
    "redeemed": "remis",
    "not_redeemed": "non remis",
    "paid": "payée",
    "reserved": "réservée, non payée",
    "voided": "annulée",
    "sold": "vendu",
    "unsold": "invendu",
    "replaced": "remplacé",
    "added": "ajouté",
    "dropped": "retiré",
    "incomplete": "fausse annonce",
    "lot_given": "lot donné",
    "lot_kept": "lot non donné",
    "given": "donné",
    "kept": "non donné, gardé",
    "to_play": "à jouer",
    "carried": "reporté",
    "carried_to": "reporté à la partie",
    "carried_from": "reporté de la partie",
    "donor": "donateur",
    "winner_name": "gagnant",
    "not_counted": "non compté dans la recette :",
    "lots_kept": "lots non donnés (gardés)",
    "flag_cash": "lot en argent : interdit dans un loto traditionnel (art. L322-4)",
    "flag_over_limit": "au-dessus du plafond de la salle",
    "missed": "boule laissée passer",
    "unknown_card": "carton inconnu",
    "unsold_card": "carton non vendu",
    "cancelled_card": "carton annulé",
    "closed": "aucun lot ouvert",
    # labels of the totals, the takings and the balance
    **TOTAL_LABELS,
    "cards_sold": "cartons vendus",
    "payment": "paiement",
    "seller": "vendeur",
    "reserved_unpaid": "réservé non payé",
    "receipts": "recette totale",
    "lots_declared": "valeur des lots donnés",
    "lots_donated": "dont lots offerts",
    "lots_bought": "dont lots achetés",
    "especes": "espèces",
    "carte": "carte bancaire",
    "cheque": "chèque",
    "no_tier": "aucun tarif",
    "rows": "rangées",
    "reprints": "réimpressions",
    "offered": "tarif",
    "lotos_this_year": "lotos de l'année",
    **{kind: label for kind, label in KIND_LABELS.items()},
}
TIMES = {"fr": "%d/%m/%Y %H:%M:%S", "en": "%Y-%m-%d %H:%M:%S"}


class Code(str):
    """A word of the report's own (``parties``, ``forced``…), written in the hall's language; other text as it is."""


class Notes(tuple):
    """Remarks on a row as (code, free text) pairs: ``donateur Boulangerie Morel · gagnant Anne Roux`` (the code in
    the hall's language, the text as typed)."""


def _eur(cents: int | None) -> Decimal | None:
    """Cents as a decimal number (``1550`` → ``15.50``), written with the hall's decimal separator."""
    return None if cents is None else Decimal(cents).scaleb(-2).quantize(Decimal("0.01"))


def csv_rows(report: EveningReport) -> Iterable[dict]:
    """The report as rows (dicts keyed by ``COLUMNS``), its codes not yet translated."""
    yield {"section": "meta", "label": Code("hall"), "detail": report.hall_name, "at": report.first_at}
    yield {"section": "meta", "label": Code("last_event"), "at": report.last_at}
    yield {"section": "meta", "label": Code("lotos_this_year"), "count": report.lotos_this_year}
    for key, value in report.totals.items():
        yield {"section": "total", "label": Code(key), "count": value}
    for p in report.parties:
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
            yield {
                "section": "undo",
                "partie": p.number,
                "order": u.order,
                "number": u.number,
                "at": u.at,
                "role": u.role,
            }
        for lot in p.lots:
            base = {"partie": p.number, "lot": lot.lot, "kind": lot.kind, "label": lot.label}
            came = ("carried_from", str(lot.carried_from)) if lot.carried_from else ()
            if not lot.awarded:
                yield {"section": "lot", **base, "status": _fate(lot.fate, lot.carried_to), "detail": came}
                continue
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
    for n, count in report.frequencies.items():
        yield {"section": "frequency", "number": n, "count": count}
    if report.takings is not None:
        yield from takings_rows(report.takings)
    for v in report.vouchers:
        flags = [x for x in ("consolation" if v.consolation else "", "shared" if v.shared else "") if x]
        yield {
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
    for s in t.sales:
        counted = s.paid and not s.voided  # the amount column of the sale rows adds up to the takings
        yield {
            "section": "sale",
            "order": s.sale_id,
            "partie": s.partie,
            "count": len(s.cards),
            "kind": s.payment,
            "status": "voided" if s.voided else ("paid" if s.paid else "reserved"),
            "label": s.seller,
            "card_id": _cards(s.cards),
            "code": s.buyer,
            "amount": _eur(s.cents if counted else 0),
            "detail": () if counted else ("not_counted", _eur(s.cents)),
            "role": s.role,
            "session": s.session,
            "at": s.at,
        }
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
            "amount": _eur(v.cents),
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
            "amount": _eur(v.cents),
            "detail": _lot_notes(v),
        }
    totals = t.totals
    yield {
        "section": "takings",
        "label": Code("cards_sold"),
        "count": totals["cards_sold"],
        "amount": _eur(t.receipts_cents),
    }
    for payment, cents in totals["by_payment"].items():
        yield {"section": "takings", "label": Code("payment"), "kind": payment, "amount": _eur(cents)}
    for seller, cents in totals["by_seller"].items():
        yield {"section": "takings", "label": Code("seller"), "code": seller, "amount": _eur(cents)}
    for partie, cents in totals["by_partie"].items():
        yield {"section": "takings", "label": Code("partie"), "partie": partie or None, "amount": _eur(cents)}
    yield {
        "section": "takings",
        "label": Code("reserved_unpaid"),
        "count": totals["cards_reserved"],
        "amount": _eur(totals["reserved_cents"]),
    }
    yield {"section": "balance", "label": Code("receipts"), "amount": _eur(t.receipts_cents)}
    yield {"section": "balance", "label": Code("lots_declared"), "count": len(t.given), "amount": _eur(t.given_cents)}
    yield {"section": "balance", "label": Code("lots_donated"), "amount": _eur(t.donated_cents)}
    yield {"section": "balance", "label": Code("lots_bought"), "amount": _eur(t.bought_cents)}
    yield {"section": "balance", "label": Code("balance"), "amount": _eur(t.balance_cents)}
    yield {"section": "balance", "label": Code("lots_kept"), "count": len(t.not_given), "amount": _eur(t.kept_cents)}
    for s in t.price_differs:
        offered = ("no_tier",) if s.offered_cents == NO_TIER else ("offered", _eur(s.offered_cents))
        yield {
            "section": "price_differs",
            "order": s.sale_id,
            "count": len(s.cards),
            "card_id": _cards(s.cards),
            "label": s.seller,
            "amount": _eur(s.cents),
            "detail": offered,
            "role": s.role,
            "session": s.session,
            "at": s.at,
        }
    for c in t.changes:
        what = "added" if c.planned is None else "dropped" if c.played is None else "replaced"
        lot = c.played or c.planned
        assert lot is not None  # a change names at least one lot
        yield {
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


class _Writing:
    """How one report's cells are written: its language's words, numbers and times."""

    def __init__(self, language: str, timezone: str):
        self.french = language != "en"
        self.language = "fr" if self.french else "en"
        try:
            self.zone: dt.tzinfo = ZoneInfo(timezone)
        except (ZoneInfoNotFoundError, ValueError):
            self.zone = dt.UTC

    def word(self, code: object) -> str:
        text = str(code)
        return FRENCH.get(text, text) if self.french else text

    def time(self, iso: str) -> str:
        try:
            return dt.datetime.fromisoformat(iso).astimezone(self.zone).strftime(TIMES[self.language])
        except ValueError:
            return iso

    def number(self, value: Decimal) -> str:
        return str(value).replace(".", ",") if self.french else str(value)

    def lot(self, lot: LotSpec) -> str:
        """A lot as the programme had it: label, declared value, donor (``Jambon 25,00 € (Boucherie Roux)``)."""
        cents = None if lot.value_eur is None else _eur(round(lot.value_eur * 100))
        value = "" if cents is None else f" {self.number(cents)} €"
        return f"{lot.label}{value}" + (f" ({lot.sponsor})" if lot.sponsor else "")

    def cell(self, key: str, value: object) -> object:
        if value is None or value == "":
            return ""
        if isinstance(value, Decimal):
            return self.number(value)
        if isinstance(value, LotSpec):
            return protect_text(self.lot(value))
        if isinstance(value, int):
            return value
        if isinstance(value, Notes):
            return protect_text(" · ".join(f"{self.word(code)} {text}".strip() for code, text in value))
        if key == "at":
            return self.time(str(value))
        if isinstance(value, tuple):  # a code and its figures: ("rows", "1 2") → "rangées 1 2"
            return protect_text(" ".join(self.number(v) if isinstance(v, Decimal) else self.word(v) for v in value))
        if key in ("section", "status", "kind") or isinstance(value, Code):
            return protect_text(self.word(value))
        return protect_text(value)


def write_csv(report: EveningReport, target: str | os.PathLike | io.TextIOBase) -> None:
    """Write the report as CSV: UTF-8 with a BOM (in a file or a text stream alike), ``;``, the hall's words."""
    if isinstance(target, io.TextIOBase):
        _write(report, target)
        return
    with replacing(target, text=True, newline="") as fh:
        _write(report, fh)


def _write(report: EveningReport, fh: IO[str] | io.TextIOBase) -> None:
    how = _Writing(report.language, report.timezone)
    fh.write("\ufeff")
    writer = csv.writer(fh, delimiter=DELIMITER, lineterminator="\r\n")
    writer.writerow([HEADERS[how.language][k] for k in COLUMNS])
    for row in csv_rows(report):
        writer.writerow([how.cell(k, row.get(k)) for k in COLUMNS])
