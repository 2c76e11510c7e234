"""The report's page for the tax office (SIE): the event's receipts by kind, the lots bought and donated with their
values, the balance, the lotos recorded this civil year, and the fingerprint of the journal the figures come from."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, Spacer, Table, TableStyle

from hall.app.paper.pdf_parts import BODY, H1, H2, H3, WARN, cell, euros, fingerprint_words, french, table, when
from hall.app.paper.report_money_pdf import FLAGS, PAYMENTS, SUMS, lot_label
from hall.app.paper.typeface import BOLD, FONT
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
        _receipts(t),
        Paragraph("Lots", H2),
    ]
    out += _lots(t)
    out += [Paragraph("Solde", H2), _balance(t), Spacer(1, 6), _year(report, tz)]
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


def _receipts(t: Takings) -> Table:
    totals = t.totals
    rows = [["Vente de cartons de loto", f"{totals['cards_sold']} cartons", "", euros(t.receipts_cents)]]
    rows += [
        ["", "", f"dont {label.lower()}", euros(totals["by_payment"].get(key, 0))] for key, label in PAYMENTS.items()
    ]
    rows.append(["Autres recettes (buvette, entrées, dons…)", "", "non tenues par loto-hall", "à compléter"])
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


def _balance(t: Takings) -> Table:
    balance = Table(
        [
            ["Recettes des cartons", euros(t.receipts_cents)],
            ["− lots donnés achetés", euros(t.bought_cents)],
            ["Solde", euros(t.balance_cents)],
            ["Autres dépenses (salle, impression, SACEM…)", "à compléter"],
        ],
        colWidths=[120 * mm, 50 * mm],
        hAlign="LEFT",
    )
    balance.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 9),
                ("FONT", (0, 2), (-1, 2), BOLD, 10),
                ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                ("LINEABOVE", (0, 2), (-1, 2), 1, colors.black),
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
