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
from collections.abc import Mapping
from decimal import Decimal
from typing import IO
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from hall.events import LotSpec
from hall.loto.lots import KIND_LABELS
from hall.money.report import TOTAL_LABELS, EveningReport
from hall.money.report_rows import COLUMNS, Code, Notes, csv_rows, eur
from hall.record.durable import replacing
from hall.spreadsheet import protect_text

DELIMITER = ";"
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
    "rooms": "salles",
    "room_claim": "quine en salle annexe",
    "room_lost": "liaison perdue avec la salle annexe",
    "room_go_on": "continué sans la salle annexe",
    "room_back": "liaison rétablie",
    "went_on": "après avoir continué sans elle",
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
    "accounts": "comptes de la soirée",
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
    "yes": "oui",
    "no": "non",
    **{kind: label for kind, label in KIND_LABELS.items()},
}
TIMES = {"fr": "%d/%m/%Y %H:%M:%S", "en": "%Y-%m-%d %H:%M:%S"}


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
        cents = None if lot.value_eur is None else eur(round(lot.value_eur * 100))
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
