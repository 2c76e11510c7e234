"""The report's page for the tax office (SIE): the event's receipts by kind (the cartons, and the tombola's and the
buvette's when loto-hall kept them), the lots bought and donated with their values, the balance, the lotos recorded
this civil year, and the fingerprint of the journal the figures come from."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, Spacer, Table, TableStyle

from hall.app.paper.pdf_parts import BODY, H1, H2, H3, WARN, cell, euros, fingerprint_words, french, table, when
from hall.app.paper.report_money_pdf import FLAGS, PAYMENTS, SUMS, lot_label
from hall.app.paper.typeface import BOLD, FONT
from hall.money.accounts import Account
from hall.money.report import EveningReport
from hall.money.takings import LotValueLine, Takings


def tax_office_page(report: EveningReport, tz: str) -> list:
    """A page of its own for the tax office (SIE): the event's receipts by kind, the lots bought and donated with
    their values, the balance, and how many lotos were recorded this civil year (CGI 261-7-1°-c)."""
    t = report.takings
    if t is None:
        return []
    day = when(report.first_at, tz, "%d/%m/%Y")
    out: list = [
        PageBreak(),
        Paragraph("Relevé pour le service des impôts (SIE)", H1),
        cell(
            f"{report.hall_name} — loto du {day or '—'}, de {when(report.first_at, tz, '%H:%M')} à "
            f"{when(report.last_at, tz, '%H:%M')}. Montants en euros, tirés du journal de la soirée.",
            BODY,
        ),
        Spacer(1, 4),
        Paragraph("Recettes", H2),
        _receipts(t, report.accounts),
        Paragraph("Lots", H2),
    ]
    out += _lots(t)
    out += [Paragraph("Solde", H2), _balance(t, report.accounts), Spacer(1, 6), _year(report, tz)]
    if report.fingerprint is not None:  # the journal these figures come from (docs/record.md)
        words = fingerprint_words(report.fingerprint, tz)
        out.append(
            cell(
                f"Empreinte du journal de la soirée : {words['fp']} (enregistrement n° {words['seq']}, "
                f"{words['when']}) ; loto-hall verify --fingerprint la compare au journal.",
                BODY,
            )
        )
    return out


KEPT = {"tombola": "Tombola : billets vendus", "buvette": "Buvette : ventes (hors offert)"}
"""The other receipts loto-hall keeps, by the account's rubrique, as the tax office reads them."""
COSTS = {"tombola": "− frais de la tombola (lots achetés compris)", "buvette": "− achats de la buvette"}


def _takings(a: Account) -> int:
    return sum(a.takings_cents.values())


def _receipts(t: Takings, accounts: tuple[Account, ...] = ()) -> Table:
    """The receipts by kind: the cartons by payment, each other account loto-hall kept by payment, what it did not
    keep (to complete by hand), and the total it kept."""
    totals = t.totals
    rows = [["Vente de cartons de loto", f"{totals['cards_sold']} cartons", "", euros(t.receipts_cents)]]
    rows += [
        ["", "", f"dont {label.lower()}", euros(totals["by_payment"].get(key, 0))] for key, label in PAYMENTS.items()
    ]
    for a in accounts:
        rows.append([KEPT.get(a.rubrique, a.rubrique), "", "tenue par loto-hall", euros(_takings(a))])
        rows += [
            ["", "", f"dont {label.lower()}", euros(a.takings_cents[key])]
            for key, label in PAYMENTS.items()
            if a.takings_cents.get(key)
        ]
    kept = {a.rubrique for a in accounts}
    others = ", ".join([*(["buvette"] if "buvette" not in kept else []), "entrées", "dons…"])
    rows.append([f"Autres recettes ({others})", "", "non tenues par loto-hall", "à compléter"])
    if accounts:
        rows.append(["Recettes tenues par loto-hall", "", "", euros(t.receipts_cents + sum(map(_takings, accounts)))])
    else:
        rows.append(["Recettes des cartons", "", "", euros(t.receipts_cents)])
    receipts = Table(rows, colWidths=[62 * mm, 24 * mm, 50 * mm, 34 * mm], hAlign="LEFT")
    receipts.setStyle(SUMS)
    return receipts


def _lot_table(lots: list[LotValueLine]) -> Table:
    return table(
        ["Partie", "Lot", "Libellé", "Donateur", "Valeur déclarée"],
        [[v.partie, v.lot, lot_label(v, french), v.sponsor or "—", euros(v.cents)] for v in lots],
        [14 * mm, 10 * mm, 80 * mm, 40 * mm, 28 * mm],
    )


def _lots(t: Takings) -> list:
    """The lots given tonight, bought then donated, the lots kept, and the warnings the tax office must read."""
    out: list = []
    bought = [v for v in t.given if not v.sponsor]
    donated = [v for v in t.given if v.sponsor]
    for title, lots, total in (
        ("Lots donnés ce soir, achetés par l'association", bought, t.bought_cents),
        ("Lots donnés ce soir, offerts par des donateurs", donated, t.donated_cents),
    ):
        out.append(Paragraph(f"{title} : {euros(total)}", H3))
        if lots:
            out.append(_lot_table(lots))
    if t.not_given:
        out.append(Paragraph(f"Lots non donnés, restés à l'association (hors solde) : {euros(t.kept_cents)}", H3))
        out.append(_lot_table(list(t.not_given)))
    flagged = [v for v in t.lots if "cash" in v.flags]
    if flagged:  # signalled on /admin before the evening: said again where the tax office reads
        out.append(
            Paragraph(
                "⚠ "
                + escape(FLAGS["cash"])
                + " : "
                + escape(", ".join(f"partie {v.partie}, lot {v.lot} « {v.label} »" for v in flagged))
                + ". Les lots ne sont jamais de "
                "l'argent ; des bons d'achat non remboursables sont permis.",
                WARN,
            )
        )
    if t.undeclared_lots:
        out.append(cell(f"{t.undeclared_lots} lot(s) sans valeur déclarée, comptés 0 € : à compléter.", BODY))
    return out


def _balance(t: Takings, accounts: tuple[Account, ...] = ()) -> Table:
    """The cartons' balance (the receipts less the lots bought); with the other accounts kept, each one's takings
    less its costs, and the evening's balance."""
    rows = [["Recettes des cartons", euros(t.receipts_cents)], ["− lots donnés achetés", euros(t.bought_cents)]]
    for a in accounts:
        rows.append([f"+ {KEPT.get(a.rubrique, a.rubrique).lower()}", euros(_takings(a))])
        rows.append([COSTS.get(a.rubrique, "− frais"), euros(a.costs_cents)])
    rows.append(["Solde", euros(t.balance_cents + sum(a.balance_cents for a in accounts))])
    rows.append(["Autres dépenses (salle, impression, SACEM…)", "à compléter"])
    bold = len(rows) - 2
    balance = Table(
        rows,
        colWidths=[120 * mm, 50 * mm],
        hAlign="LEFT",
    )
    balance.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 9),
                ("FONT", (0, bold), (-1, bold), BOLD, 10),
                ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                ("LINEABOVE", (0, bold), (-1, bold), 1, colors.black),
            ]
        )
    )
    return balance


def _year(report: EveningReport, tz: str) -> KeepTogether:
    """The lotos recorded this civil year, the law's six a year, and the treasurer's signature."""
    year = when(report.first_at, tz, "%Y") or "l'année"
    return KeepTogether(
        [
            Paragraph(f"Lotos enregistrés par loto-hall en {year} : {report.lotos_this_year} (celui-ci compris)", H3),
            cell(
                "Rappel : l'exonération d'impôt sur les sociétés et de TVA des recettes de manifestations de "
                "bienfaisance ou de soutien (code général des impôts, art. 261-7-1°-c) vaut pour six manifestations "
                "par an, tous types confondus (lotos, vide-greniers, repas, concerts, kermesses…) : ce compte ne voit que "
                "les lotos tenus avec loto-hall. Le service des impôts peut demander un état des recettes et des "
                "dépenses de chaque manifestation ; pièces justificatives à conserver dix ans.",
                BODY,
            ),
            Spacer(1, 14),
            cell("Fait à ……………………………… le ……………………   Le trésorier (nom, signature) : ……………………………………", BODY),
        ]
    )
