"""The report's money pages: the takings, the lots' values and the balance for the board, what was
changed outside the caisse and the programme, and a page the association can hand to the tax office."""
from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, PageBreak, Paragraph, Spacer, Table, TableStyle

from hall.app.paper.pdf_parts import BODY, GRID, H1, H2, H3, N_, Say, cell, euros, french, table, when
from hall.events import LotSpec
from hall.lots import KIND_LABELS
from hall.report import EveningReport
from hall.sales import NO_TIER
from hall.snapshots import Fingerprint
from hall.takings import Takings

PAYMENTS = {"especes": N_("Espèces"), "carte": N_("Carte bancaire"), "cheque": N_("Chèques")}
SALES_SHOWN = 400        # sale lines printed; beyond, the CSV holds them all (the totals always cover all)
CHANGES = {"replaced": N_("remplacé"), "added": N_("ajouté"), "dropped": N_("retiré")}
SUMS = TableStyle([("FONT", (0, 0), (-1, -1), "Helvetica", 9), ("FONT", (3, 0), (3, -1), "Helvetica-Bold", 9),
                   ("FONT", (0, -1), (-1, -1), "Helvetica-Bold", 10),
                   ("ALIGN", (1, 0), (1, -1), "RIGHT"), ("ALIGN", (3, 0), (3, -1), "RIGHT"),
                   ("LINEABOVE", (0, -1), (-1, -1), 1, colors.black),
                   ("LINEBELOW", (0, 0), (-1, -2), 0.3, colors.lightgrey)])


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def _who(role: str, session: str) -> str:
    return role + (f" · {session}" if session else "")


def _lot(lot: LotSpec | None, say: Say = french) -> str:
    if lot is None:
        return "—"
    value = "" if lot.value_eur is None else " — " + euros(round(lot.value_eur * 100))
    return f"{say(KIND_LABELS.get(lot.kind, lot.kind))} « {lot.label} »{value}" + (f" ({lot.sponsor})" if lot.sponsor else "")


def money_section(t: Takings, tz: str, say: Say = french) -> list:
    """Recettes, lots' declared values and the balance: the page the treasurer hands to the board."""
    totals = t.totals
    out: list = [Paragraph(say("Recettes, valeur des lots et solde"), H2)]
    rows = [[say("Cartons vendus (payés)"), str(totals["cards_sold"]), say("Recette totale"), euros(t.receipts_cents)]]
    for key, label in PAYMENTS.items():
        rows.append(["", "", say("dont %(what)s") % {"what": say(label).lower()}, euros(totals["by_payment"].get(key, 0))])
    rows.append([say("Cartons réservés non payés"), str(totals["cards_reserved"]), say("à encaisser (hors recette)"),
                 euros(totals["reserved_cents"])])
    rows.append([say("Lots joués, valeur déclarée"), str(len(t.lots) - t.undeclared_lots), say("Valeur totale des lots"),
                 euros(t.declared_cents)])
    rows.append(["", "", say("dont lots offerts (donateurs)"), euros(t.donated_cents)])
    rows.append(["", "", say("dont lots achetés"), euros(t.bought_cents)])
    rows.append([say("Solde (recette − lots achetés)"), "", "", euros(t.balance_cents)])
    sums = Table(rows, colWidths=[58 * mm, 16 * mm, 58 * mm, 34 * mm], hAlign="LEFT")
    sums.setStyle(SUMS)
    out.append(sums)
    if t.undeclared_lots:
        out.append(cell(say("%(n)s lot(s) sans valeur déclarée (comptés 0 €).") % {"n": t.undeclared_lots}, BODY))
    if totals["by_seller"]:
        out.append(Paragraph(say("Recette par vendeur"), H3))
        out.append(table([say("Vendeur"), say("Montant")], [[k, euros(v)] for k, v in sorted(totals["by_seller"].items())],
                         [60 * mm, 30 * mm]))
    if len(totals["by_partie"]) > 1 or "" not in totals["by_partie"] and totals["by_partie"]:
        out.append(Paragraph(say("Recette par partie (cartons vendus pour une partie)"), H3))
        out.append(table([say("Partie"), say("Montant")], [[k or say("toute la soirée"), euros(v)]
                                                           for k, v in sorted(totals["by_partie"].items())],
                         [60 * mm, 30 * mm]))
    if t.lots:
        out.append(Paragraph(say("Lots et valeurs déclarées"), H3))
        out.append(table([say("Partie"), say("Lot"), say("Type"), say("Libellé"), say("Donateur"), say("Valeur"),
                          say("Gagné")],
                         [[v.partie, v.lot, say(KIND_LABELS.get(v.kind, v.kind)), v.label, v.sponsor or "—",
                           euros(v.cents), say("oui") if v.awarded else say("non")] for v in t.lots],
                         [14 * mm, 10 * mm, 24 * mm, 56 * mm, 34 * mm, 24 * mm, 14 * mm]))
    out += outside_the_rules(t, tz, say)
    if t.sales:
        shown = t.sales[:SALES_SHOWN]
        out.append(Paragraph(say("Ventes (%(n)s)") % {"n": len(t.sales)} +
                             (say(", les %(n)s premières : le CSV les détaille toutes") % {"n": SALES_SHOWN}
                              if len(t.sales) > SALES_SHOWN else ""), H3))
        # plain strings, not paragraphs: hundreds of lines stay fast (see bench/bench_sales.py)
        pay = {key: say(label) for key, label in PAYMENTS.items()}
        reserved, voided = " (" + say("réservé") + ")", say("annulée") + " "
        lines = [[str(s.sale_id), when(s.at, tz), s.cards[0] + (f"..{s.cards[-1]}" if len(s.cards) > 1 else ""),
                  str(len(s.cards)), pay.get(s.payment, s.payment) + ("" if s.paid else reserved),
                  _fit(s.seller, 14), _fit(s.buyer, 14),
                  "—" if s.offered_cents in (None, NO_TIER) else euros(s.offered_cents),
                  (voided if s.voided else "") + euros(s.cents)]
                 for s in shown]
        sales = Table([[say("N°"), say("Heure"), say("Cartons"), say("Nb"), say("Paiement"), say("Vendeur"),
                        say("Acheteur"), say("Tarif"), say("Montant")], *lines],
                      colWidths=[9 * mm, 16 * mm, 34 * mm, 8 * mm, 27 * mm, 24 * mm, 22 * mm, 20 * mm, 26 * mm],
                      repeatRows=1, hAlign="LEFT")
        sales.setStyle(GRID)
        out.append(sales)
    return out


def outside_the_rules(t: Takings, tz: str, say: Say = french) -> list:
    """What a desk or a console did outside the tiers and the programme: always said, never hidden in the totals."""
    out: list = []
    differs = t.price_differs
    if differs:
        out.append(KeepTogether([Paragraph(say("Ventes hors tarif (%(n)s)") % {"n": len(differs)}, H3), table(
                         [say("N°"), say("Heure"), say("Cartons"), say("Nb"), say("Tarif"), say("Encaissé"),
                          say("Écart"), say("Vendeur"), say("Par")],
                         [[s.sale_id, when(s.at, tz), s.cards[0] + (f"..{s.cards[-1]}" if len(s.cards) > 1 else ""),
                           len(s.cards), say("aucun tarif") if s.offered_cents == NO_TIER else euros(s.offered_cents),
                           euros(s.cents), "" if s.offered_cents in (None, NO_TIER) else
                           euros(s.cents - (s.offered_cents or 0)), _fit(s.seller, 14), _who(s.role, s.session)]
                          for s in differs],
                         [9 * mm, 17 * mm, 32 * mm, 8 * mm, 20 * mm, 20 * mm, 18 * mm, 26 * mm, 36 * mm])]))
    if t.changes:
        out.append(KeepTogether([Paragraph(say("Lots changés à la console au démarrage d'une partie"), H3), table(
                         [say("Partie"), say("Heure"), "", say("Au programme"), say("Joué"), say("Par")],
                         [[c.partie, when(c.at, tz), say(CHANGES["added" if c.planned is None else "dropped"
                                                                 if c.played is None else "replaced"]),
                           _lot(c.planned, say), _lot(c.played, say), _who(c.role, c.session)] for c in t.changes],
                         [13 * mm, 17 * mm, 16 * mm, 55 * mm, 55 * mm, 30 * mm])]))
    if t.marks:
        out.append(KeepTogether([Paragraph(say("Cartons marqués vendus ou invendus à la main (hors caisse)"), H3), table(
                         [say("Heure"), say("Marqués"), say("Nb"), say("Cartons"), say("Par")],
                         [[when(m.at, tz), say("vendus") if m.sold else say("invendus"), len(m.cards),
                           _fit(" ".join(m.cards), 120), _who(m.role, m.session)] for m in t.marks],
                         [17 * mm, 18 * mm, 10 * mm, 105 * mm, 36 * mm])]))
    return out


def tax_office_page(report: EveningReport, tz: str) -> list:
    """A page of its own for the tax office (SIE): the event's receipts by kind, the lots bought and donated with
    their values, the balance, and how many lotos were recorded this civil year (CGI 261-7-1°-c)."""
    t = report.takings
    if t is None:
        return []
    totals = t.totals
    day = when(report.first_at, tz, "%d/%m/%Y")
    out: list = [PageBreak(), Paragraph("Relevé pour le service des impôts (SIE)", H1),
                 cell(f"{report.hall_name} — loto du {day or '—'}, de {when(report.first_at, tz, '%H:%M')} à "
                      f"{when(report.last_at, tz, '%H:%M')}. Montants en euros, tirés du journal de la soirée.", BODY),
                 Spacer(1, 4), Paragraph("Recettes", H2)]
    rows = [["Vente de cartons de loto", f"{totals['cards_sold']} cartons", "", euros(t.receipts_cents)]]
    rows += [["", "", f"dont {label.lower()}", euros(totals["by_payment"].get(key, 0))]
             for key, label in PAYMENTS.items()]
    rows.append(["Autres recettes (buvette, entrées, dons…)", "", "non tenues par loto-hall", "à compléter"])
    rows.append(["Recettes des cartons", "", "", euros(t.receipts_cents)])
    receipts = Table(rows, colWidths=[62 * mm, 24 * mm, 50 * mm, 34 * mm], hAlign="LEFT")
    receipts.setStyle(SUMS)
    out.append(receipts)
    out.append(Paragraph("Lots", H2))
    bought = [v for v in t.lots if not v.sponsor]
    donated = [v for v in t.lots if v.sponsor]
    for title, lots, total in (("Lots achetés par l'association", bought, t.bought_cents),
                               ("Lots offerts par des donateurs", donated, t.donated_cents)):
        out.append(Paragraph(f"{title} : {euros(total)}", H3))
        if lots:
            out.append(table(["Partie", "Lot", "Libellé", "Donateur", "Valeur déclarée"],
                             [[v.partie, v.lot, v.label, v.sponsor or "—", euros(v.cents)] for v in lots],
                             [14 * mm, 10 * mm, 80 * mm, 40 * mm, 28 * mm]))
    if t.undeclared_lots:
        out.append(cell(f"{t.undeclared_lots} lot(s) sans valeur déclarée, comptés 0 € : à compléter.", BODY))
    balance = Table([["Recettes des cartons", euros(t.receipts_cents)], ["− lots achetés", euros(t.bought_cents)],
                     ["Solde", euros(t.balance_cents)],
                     ["Autres dépenses (salle, impression, SACEM…)", "à compléter"]],
                    colWidths=[120 * mm, 50 * mm], hAlign="LEFT")
    balance.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), "Helvetica", 9), ("FONT", (0, 2), (-1, 2), "Helvetica-Bold", 10),
                                 ("ALIGN", (1, 0), (1, -1), "RIGHT"), ("LINEABOVE", (0, 2), (-1, 2), 1, colors.black)]))
    out += [Paragraph("Solde", H2), balance, Spacer(1, 6)]
    year = when(report.first_at, tz, "%Y") or "l'année"
    out.append(KeepTogether([
        Paragraph(f"Lotos enregistrés par loto-hall en {year} : {report.lotos_this_year} (celui-ci compris)", H3),
        cell("Rappel : l'exonération d'impôt sur les sociétés et de TVA des recettes de manifestations de "
             "bienfaisance ou de soutien (code général des impôts, art. 261-7-1°-c) vaut pour six manifestations "
             "par an, tous types confondus (lotos, vide-greniers, repas, concerts, kermesses…) : ce compte ne voit que "
             "les lotos tenus avec loto-hall. Le service des impôts peut demander un état des recettes et des "
             "dépenses de chaque manifestation ; pièces justificatives à conserver dix ans.", BODY),
        Spacer(1, 14), cell("Fait à ……………………………… le ……………………   Le trésorier (nom, signature) : ……………………………………", BODY)]))
    if report.fingerprint is not None:     # the journal these figures come from (docs/record.md)
        words = fingerprint_words(report.fingerprint, tz)
        out.append(cell(f"Empreinte du journal de la soirée : {words['fp']} (enregistrement n° {words['seq']}, "
                        f"{words['when']}) ; loto-hall verify --fingerprint la compare au journal.", BODY))
    return out


def fingerprint_words(fp: Fingerprint, tz: str) -> dict[str, str]:
    """The values of a printed fingerprint line: the groups, the record's number, its local time."""
    return {"fp": fp.shown, "seq": str(fp.seq), "when": when(fp.at, tz, "%d/%m/%Y %H:%M")}
