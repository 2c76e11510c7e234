"""The report's money pages: the takings, the lots' values and the balance for the board, what was
changed outside the caisse and the programme, and the words a page needs to name a lot (the tax office's page is report_tax_pdf.py)."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, Table, TableStyle

from hall.app.paper.pdf_parts import (
    BODY,
    CELL,
    GRID,
    H2,
    H3,
    Name,
    OneLine,
    Say,
    cell,
    euros,
    french,
    table,
    when,
)
from hall.app.paper.typeface import BOLD, FONT, fit_lines
from hall.cartons.sales import NO_TIER
from hall.events import LotSpec
from hall.loto.lots import KIND_LABELS
from hall.marks import N_
from hall.money.report_lots import TO_PLAY
from hall.money.takings import LotValueLine, Takings

PAYMENTS = {"especes": N_("Espèces"), "carte": N_("Carte bancaire"), "cheque": N_("Chèques")}
SALES_SHOWN = 400  # sale lines printed; beyond, the CSV holds them all (the totals always cover all)
CHANGES = {"replaced": N_("remplacé"), "added": N_("ajouté"), "dropped": N_("retiré")}
SUMS = TableStyle(
    [
        ("FONT", (0, 0), (-1, -1), FONT, 9),
        ("FONT", (3, 0), (3, -1), BOLD, 9),
        ("FONT", (0, -1), (-1, -1), BOLD, 10),
        ("ALIGN", (1, 0), (1, -1), "RIGHT"),
        ("ALIGN", (3, 0), (3, -1), "RIGHT"),
        ("LINEABOVE", (0, -1), (-1, -1), 1, colors.black),
        ("LINEBELOW", (0, 0), (-1, -2), 0.3, colors.lightgrey),
    ]
)


FLAGS = {
    "cash": N_("Lot en argent : interdit dans un loto traditionnel (art. L322-4 du code de la sécurité intérieure)"),
    "over_limit": N_("Au-dessus du plafond que la salle s'est fixé"),
}


def _some(cards: tuple[str, ...], most: int = 40) -> str:
    """The first ``most`` cartons of a list (the CSV names them all)."""
    return " ".join(cards[:most]) + (f" … (+{len(cards) - most})" if len(cards) > most else "")


def _who(role: str, session: str) -> str:
    return role + (f" · {session}" if session else "")


def _lot(lot: LotSpec | None, say: Say = french) -> str:
    if lot is None:
        return "—"
    value = "" if lot.value_eur is None else " — " + euros(round(lot.value_eur * 100))
    return f"{say(KIND_LABELS.get(lot.kind, lot.kind))} « {lot.label} »{value}" + (
        f" ({lot.sponsor})" if lot.sponsor else ""
    )


def money_section(t: Takings, tz: str, say: Say = french) -> list:
    """Recettes, the lots given tonight and their values, the balance, then the lots not given (kept for another
    loto, their value apart): the pages the treasurer hands to the board."""
    out: list = [Paragraph(say("Recettes, valeur des lots et solde"), H2), _sums(t, say)]
    if t.not_given:
        out.append(
            cell(
                say(
                    "Lots non donnés ce soir (gardés pour un autre loto, ou encore à jouer) : %(n)s, valeur "
                    "%(eur)s — hors solde."
                )
                % {"n": len(t.not_given), "eur": euros(t.kept_cents)},
                BODY,
            )
        )
    if t.undeclared_lots:
        out.append(cell(say("%(n)s lot(s) sans valeur déclarée (comptés 0 €).") % {"n": t.undeclared_lots}, BODY))
    out += _by_seller_and_partie(t, say)
    if t.given:
        out += [Paragraph(say("Lots donnés ce soir"), H3), _given(t, say)]
    if t.not_given:
        out.append(Paragraph(say("Lots non donnés (valeur hors solde)"), H3))
        out.append(
            table(
                [say("Partie"), say("Lot"), say("Libellé"), say("Pourquoi"), say("Donateur"), say("Valeur")],
                [
                    [v.partie, v.lot, lot_label(v, say), _why(v, say), v.sponsor or "—", euros(v.cents)]
                    for v in t.not_given
                ],
                [12 * mm, 9 * mm, 56 * mm, 48 * mm, 40 * mm, 21 * mm],
            )
        )
    out += outside_the_rules(t, tz, say)
    if t.sales:
        out += _sales(t, tz, say)
    return out


def _sums(t: Takings, say: Say) -> Table:
    """The takings by payment, the reservations, the lots' values and the balance, in two columns of sums."""
    totals = t.totals
    rows = [[say("Cartons vendus (payés)"), str(totals["cards_sold"]), say("Recette totale"), euros(t.receipts_cents)]]
    for key, label in PAYMENTS.items():
        rows.append(
            ["", "", say("dont %(what)s") % {"what": say(label).lower()}, euros(totals["by_payment"].get(key, 0))]
        )
    rows.append(
        [
            say("Cartons réservés non payés"),
            str(totals["cards_reserved"]),
            say("à encaisser (hors recette)"),
            euros(totals["reserved_cents"]),
        ]
    )
    rows.append([say("Lots donnés ce soir"), str(len(t.given)), say("Valeur totale des lots"), euros(t.given_cents)])
    rows.append(["", "", say("dont lots offerts (donateurs)"), euros(t.donated_cents)])
    rows.append(["", "", say("dont lots achetés"), euros(t.bought_cents)])
    rows.append([say("Solde (recette − lots achetés donnés)"), "", "", euros(t.balance_cents)])
    sums = Table(rows, colWidths=[58 * mm, 16 * mm, 58 * mm, 34 * mm], hAlign="LEFT")
    sums.setStyle(SUMS)
    return sums


def _by_seller_and_partie(t: Takings, say: Say) -> list:
    """The takings by seller, and by partie when cartons were sold for one."""
    totals, out = t.totals, []
    if totals["by_seller"]:
        out.append(Paragraph(say("Recette par vendeur"), H3))
        out.append(
            table(
                [say("Vendeur"), say("Montant")],
                [[k, euros(v)] for k, v in sorted(totals["by_seller"].items())],
                [60 * mm, 30 * mm],
            )
        )
    if len(totals["by_partie"]) > 1 or "" not in totals["by_partie"] and totals["by_partie"]:
        out.append(Paragraph(say("Recette par partie (cartons vendus pour une partie)"), H3))
        out.append(
            table(
                [say("Partie"), say("Montant")],
                [[k or say("toute la soirée"), euros(v)] for k, v in sorted(totals["by_partie"].items())],
                [60 * mm, 30 * mm],
            )
        )
    return out


def _given(t: Takings, say: Say) -> Table:
    return table(
        [
            say("Partie"),
            say("Lot"),
            say("Libellé"),
            say("Carton"),
            say("Gagnant"),
            say("Bon"),
            say("Donateur"),
            say("Valeur"),
        ],
        [
            [
                v.partie,
                v.lot,
                lot_label(v, say),
                OneLine(" ".join(v.cards)),
                Name(", ".join(b for b in v.buyers if b)),
                OneLine(" ".join(v.vouchers) or "—"),
                Name(v.sponsor or "—"),
                euros(v.cents),
            ]
            for v in t.given
        ],
        [11 * mm, 8 * mm, 38 * mm, 19 * mm, 36 * mm, 25 * mm, 30 * mm, 19 * mm],
    )


def lot_label(v: LotValueLine, say: Say) -> Paragraph:
    """A lot as the tables show it: its kind and label, where it came from, the law's warning when it is money."""
    text = escape(f"{say(KIND_LABELS.get(v.kind, v.kind))} « {v.label} »")
    if v.carried_from:
        text += "<br/>" + escape(say("reporté de la partie %(n)s") % {"n": v.carried_from})
    for flag in v.flags:
        text += '<br/><font color="#9a4a00">⚠ ' + escape(say(FLAGS.get(flag, flag))) + "</font>"
    return Paragraph(text, CELL)


def _why(v: LotValueLine, say: Say) -> str:
    if v.fate == TO_PLAY and v.carried_to:
        return say("reporté à la partie %(n)s (pas encore jouée)") % {"n": v.carried_to}
    if v.fate == TO_PLAY:
        return say("partie en cours : encore à jouer")
    return say("non gagné : gardé pour un autre loto")


def _sales(t: Takings, tz: str, say: Say) -> list:
    """Each sale, the first ``SALES_SHOWN`` (the CSV holds them all): plain strings (hundreds of lines stay fast,
    bench/bench_sales.py), names fitted to their column by width — smaller, then on two lines."""
    shown = t.sales[:SALES_SHOWN]
    out: list = [
        Paragraph(
            say("Ventes (%(n)s)") % {"n": len(t.sales)}
            + (
                say(", les %(n)s premières : le CSV les détaille toutes") % {"n": SALES_SHOWN}
                if len(t.sales) > SALES_SHOWN
                else ""
            ),
            H3,
        )
    ]
    pay = {key: say(label) for key, label in PAYMENTS.items()}
    reserved, voided = " (" + say("réservé") + ")", say("annulée") + " "
    widths = [9 * mm, 14 * mm, 30 * mm, 7 * mm, 24 * mm, 25 * mm, 36 * mm, 17 * mm, 24 * mm]
    style = list(GRID.getCommands())
    lines = []
    for r, s in enumerate(shown, 1):
        row = [
            str(s.sale_id),
            when(s.at, tz),
            s.cards[0] + (f"..{s.cards[-1]}" if len(s.cards) > 1 else ""),
            str(len(s.cards)),
            pay.get(s.payment, s.payment) + ("" if s.paid else reserved),
            s.seller,
            s.buyer,
            "—" if s.offered_cents in (None, NO_TIER) else euros(s.offered_cents),
            (voided if s.voided else "") + euros(s.cents),
        ]
        for c in (2, 4, 5, 6, 8):  # cartons, payment, amount on one line (smaller); names smaller, then two lines
            names = c in (5, 6)
            shown_lines, size = fit_lines(row[c], widths[c] - 12, FONT, 8, 6.5 if names else 5, 2 if names else 1)
            row[c] = "\n".join(shown_lines)
            if size != 8:
                style += [("FONTSIZE", (c, r), (c, r), size), ("LEADING", (c, r), (c, r), size + 1.5)]
        lines.append(row)
    sales = Table(
        [
            [
                say("N°"),
                say("Heure"),
                say("Cartons"),
                say("Nb"),
                say("Paiement"),
                say("Vendeur"),
                say("Acheteur"),
                say("Tarif"),
                say("Montant"),
            ],
            *lines,
        ],
        colWidths=widths,
        repeatRows=1,
        hAlign="LEFT",
    )
    sales.setStyle(TableStyle(style))
    out.append(sales)
    return out


def outside_the_rules(t: Takings, tz: str, say: Say = french) -> list:
    """What a desk or a console did outside the tiers and the programme: always said, never hidden in the totals."""
    out: list = []
    differs = t.price_differs
    if differs:
        out.append(
            KeepTogether(
                [
                    Paragraph(say("Ventes hors tarif (%(n)s)") % {"n": len(differs)}, H3),
                    table(
                        [
                            say("N°"),
                            say("Heure"),
                            say("Cartons"),
                            say("Nb"),
                            say("Tarif"),
                            say("Encaissé"),
                            say("Écart"),
                            say("Vendeur"),
                            say("Par"),
                        ],
                        [
                            [
                                s.sale_id,
                                when(s.at, tz),
                                s.cards[0] + (f"..{s.cards[-1]}" if len(s.cards) > 1 else ""),
                                len(s.cards),
                                say("aucun tarif") if s.offered_cents == NO_TIER else euros(s.offered_cents),
                                euros(s.cents),
                                "" if s.offered_cents in (None, NO_TIER) else euros(s.cents - (s.offered_cents or 0)),
                                s.seller,
                                _who(s.role, s.session),
                            ]
                            for s in differs
                        ],
                        [9 * mm, 17 * mm, 32 * mm, 8 * mm, 20 * mm, 20 * mm, 18 * mm, 26 * mm, 36 * mm],
                    ),
                ]
            )
        )
    if t.changes:
        out.append(
            KeepTogether(
                [
                    Paragraph(say("Lots changés à la console au démarrage d'une partie"), H3),
                    table(
                        [say("Partie"), say("Heure"), "", say("Au programme"), say("Joué"), say("Par")],
                        [
                            [
                                c.partie,
                                when(c.at, tz),
                                say(
                                    CHANGES[
                                        "added" if c.planned is None else "dropped" if c.played is None else "replaced"
                                    ]
                                ),
                                _lot(c.planned, say),
                                _lot(c.played, say),
                                _who(c.role, c.session),
                            ]
                            for c in t.changes
                        ],
                        [13 * mm, 17 * mm, 16 * mm, 55 * mm, 55 * mm, 30 * mm],
                    ),
                ]
            )
        )
    if t.marks:
        out.append(
            KeepTogether(
                [
                    Paragraph(say("Cartons marqués vendus ou invendus à la main (hors caisse)"), H3),
                    table(
                        [say("Heure"), say("Marqués"), say("Nb"), say("Cartons"), say("Par")],
                        [
                            [
                                when(m.at, tz),
                                say("vendus") if m.sold else say("invendus"),
                                len(m.cards),
                                _some(m.cards),
                                _who(m.role, m.session),
                            ]
                            for m in t.marks
                        ],
                        [17 * mm, 18 * mm, 10 * mm, 105 * mm, 36 * mm],
                    ),
                ]
            )
        )
    return out
