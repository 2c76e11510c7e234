"""The evening's report as an A4 PDF (reportlab platypus), from ``hall.report.EveningReport``."""
from __future__ import annotations

import datetime as dt
import os
from xml.sax.saxutils import escape
from zoneinfo import ZoneInfo

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from hall.lots import KIND_LABELS
from hall.report import EveningReport, PartieReport

VERDICTS = {"incomplete": "fausse réclamation", "missed": "boule laissée passer", "unknown_card": "carton inconnu",
            "unsold_card": "carton non vendu", "cancelled_card": "carton annulé", "closed": "aucun lot ouvert"}
STATUS = {"playing": "en cours", "checking": "vérification en cours", "finished": "tous les lots gagnés",
          "cleared": "démarquée"}
TOTALS = {
    "parties": "Parties jouées", "balls_drawn": "Boules tirées", "undos": "Boules annulées",
    "lots_awarded": "Lots gagnés", "lots_not_awarded": "Lots non gagnés", "tie_breaks": "Départages",
    "shared_lots": "Lots partagés", "consolations": "Lots de consolation", "false_claims": "Fausses réclamations",
    "missed_claims": "Boules laissées passer", "other_refused_claims": "Autres réclamations refusées",
    "vouchers_issued": "Bons émis", "vouchers_printed": "Bons imprimés", "vouchers_unprinted": "Bons non imprimés",
    "duplicates_printed": "Duplicatas imprimés", "vouchers_redeemed": "Bons remis (lot donné)",
    "vouchers_outstanding": "Bons non remis",
}

_styles = getSampleStyleSheet()
H1 = ParagraphStyle("h1", parent=_styles["Title"], fontSize=18, spaceAfter=4)
H2 = ParagraphStyle("h2", parent=_styles["Heading2"], fontSize=13, spaceBefore=10, spaceAfter=4)
H3 = ParagraphStyle("h3", parent=_styles["Heading4"], fontSize=10, spaceBefore=6, spaceAfter=2)
BODY = ParagraphStyle("body", parent=_styles["BodyText"], fontSize=9, leading=11)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=8, leading=10)
HEAD = ParagraphStyle("head", parent=CELL, fontName="Helvetica-Bold", splitLongWords=0)   # never "Dernièr/e"
SMALL = ParagraphStyle("small", parent=BODY, fontSize=8, textColor=colors.grey, alignment=TA_CENTER)
GRID = TableStyle([("FONT", (0, 0), (-1, -1), "Helvetica", 8), ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
                   ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e6e6e6")),
                   ("GRID", (0, 0), (-1, -1), 0.4, colors.grey), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                   ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2)])


def _when(iso: str, tz: str, fmt: str = "%H:%M:%S") -> str:
    if not iso:
        return ""
    try:
        return dt.datetime.fromisoformat(iso).astimezone(ZoneInfo(tz)).strftime(fmt)
    except (ValueError, KeyError, OSError):
        return iso


def _p(text, style=CELL) -> Paragraph:
    return Paragraph(escape(str(text)), style)


def _table(header: list[str], rows: list[list], widths: list[float] | None = None) -> Table:
    data = [[_p(h, HEAD) for h in header]] + [[c if isinstance(c, Paragraph) else _p(c) for c in row] for row in rows]
    t = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    t.setStyle(GRID)
    return t


def _draw_table(numbers: list[int], per_row: int = 15) -> Table:
    """The numbers in draw order, 15 a row, each row headed by the order of its first ball."""
    rows = []
    for start in range(0, len(numbers), per_row):
        chunk = numbers[start:start + per_row]
        rows.append([f"{start + 1}–{start + len(chunk)}"] + [str(n) for n in chunk] + [""] * (per_row - len(chunk)))
    t = Table(rows or [["—"]], colWidths=[16 * mm] + [9 * mm] * per_row if rows else None, hAlign="LEFT")
    t.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), "Helvetica-Bold", 9), ("FONT", (0, 0), (0, -1), "Helvetica", 7),
                           ("TEXTCOLOR", (0, 0), (0, -1), colors.grey), ("ALIGN", (1, 0), (-1, -1), "CENTER"),
                           ("GRID", (1, 0), (-1, -1), 0.3, colors.lightgrey)]))
    return t


def _partie(p: PartieReport, tz: str) -> list:
    out = [Paragraph(f"Partie n° {p.number}", H2)]
    times = f"début {_when(p.started_at, tz)}" + (f", fin {_when(p.ended_at, tz)}" if p.ended_at else "")
    status = "démarquée avec des lots restants" if p.forced else STATUS.get(p.status, p.status)
    out.append(_p(f"{status} — {times} — {len(p.draws)} boules tirées", BODY))
    rows = []
    for lot in p.lots:
        kind = KIND_LABELS.get(lot.kind, lot.kind)
        if not lot.awarded:
            rows.append([lot.lot, kind, lot.label, "non gagné", "", "", "", ""])
            continue
        winners = ", ".join(f"{c} (rangée {'+'.join(map(str, r))})" for c, r in zip(lot.winners, lot.rows))
        if lot.shared:
            winners += " — partagé"
        tie = ", ".join(f"{c} : {n}" for c, n in lot.tie_break)
        rows.append([lot.lot, kind, lot.label, winners, lot.last, lot.balls, tie,
                     ", ".join(lot.consolation) + (f" ({lot.consolation_label})" if lot.consolation else "")])
    out.append(Paragraph("Lots", H3))
    out.append(_table(["Lot", "Type", "Libellé", "Gagnant(s)", "Dernière boule", "Boules",
                       "Départage (boule tirée)", "Consolation"], rows,
                      [10 * mm, 19 * mm, 23 * mm, 35 * mm, 19 * mm, 15 * mm, 33 * mm, 32 * mm]))
    out.append(Paragraph("Numéros dans l'ordre du tirage", H3))
    out.append(_draw_table(p.numbers))
    if p.undos:
        out.append(Paragraph("Boules annulées", H3))
        out.append(_table(["Boule", "Rang", "Heure", "Par"], [[u.number, u.order, _when(u.at, tz), u.role]
                                                               for u in p.undos], [20 * mm, 15 * mm, 25 * mm, 25 * mm]))
    if p.claims:
        out.append(Paragraph("Réclamations refusées", H3))
        out.append(_table(["Carton", "Lot", "Verdict", "Dernière boule", "Heure", "Par"],
                          [[c.card_id, c.lot or "", VERDICTS.get(c.verdict, c.verdict), c.last or "",
                            _when(c.at, tz), c.role] for c in p.claims],
                          [30 * mm, 12 * mm, 40 * mm, 22 * mm, 22 * mm, 22 * mm]))
    return out


def _frequencies(freq: dict[int, int]) -> Table:
    rows = [[f"{n} ×{freq[n]}" for n in range(start, min(start + 10, 91))] for start in range(1, 91, 10)]
    t = Table(rows, colWidths=[17 * mm] * 10, hAlign="LEFT")
    top = max(freq.values()) if freq else 0
    style = [("FONT", (0, 0), (-1, -1), "Helvetica", 8), ("GRID", (0, 0), (-1, -1), 0.3, colors.lightgrey),
             ("ALIGN", (0, 0), (-1, -1), "CENTER")]
    for n, count in freq.items():
        r, c = (n - 1) // 10, (n - 1) % 10
        if top and count:
            style.append(("BACKGROUND", (c, r), (c, r), colors.Color(0.2, 0.4, 0.8, alpha=0.15 + 0.5 * count / top)))
    t.setStyle(TableStyle(style))
    return t


def write_report_pdf(report: EveningReport, path, timezone: str = "Europe/Paris") -> None:
    """Write ``report`` as an A4 PDF to ``path`` (a file name or a binary file object, e.g. ``io.BytesIO``)."""
    tz = timezone
    doc = SimpleDocTemplate(path if hasattr(path, "write") else os.fspath(path), pagesize=A4,
                            leftMargin=12 * mm, rightMargin=12 * mm, topMargin=14 * mm, bottomMargin=14 * mm,
                            title=f"Rapport de la soirée — {report.hall_name}", author="loto-hall")
    day = _when(report.first_at, tz, "%d/%m/%Y")
    story: list = [Paragraph(escape(f"Rapport de la soirée — {report.hall_name}"), H1),
                   _p(f"Loto du {day or '—'}, de {_when(report.first_at, tz, '%H:%M')} à "
                      f"{_when(report.last_at, tz, '%H:%M')} (heure locale, {tz})", BODY), Spacer(1, 4)]
    story.append(Paragraph("Résumé", H2))
    totals = [[label, report.totals.get(key, 0)] for key, label in TOTALS.items()]
    half = (len(totals) + 1) // 2
    left, right = totals[:half], totals[half:] + [["", ""]] * (2 * half - len(totals))
    summary = Table([[a[0], a[1], b[0], b[1]] for a, b in zip(left, right)],
                    colWidths=[52 * mm, 18 * mm, 52 * mm, 18 * mm], hAlign="LEFT")
    summary.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), "Helvetica", 9),
                                 ("FONT", (1, 0), (1, -1), "Helvetica-Bold", 9),
                                 ("FONT", (3, 0), (3, -1), "Helvetica-Bold", 9),
                                 ("ALIGN", (1, 0), (1, -1), "RIGHT"), ("ALIGN", (3, 0), (3, -1), "RIGHT"),
                                 ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.lightgrey)]))
    story.append(summary)
    if report.takings is not None:
        story.extend(money_section(report.takings, tz))
    for p in report.parties:
        story.extend(_partie(p, tz))
    story.append(KeepTogether([Paragraph("Fréquence des boules (nombre de parties où chaque numéro est sorti)", H2),
                               _frequencies(report.frequencies)]))
    story.append(Paragraph("Bons d'échange", H2))
    story.append(_table(["Code", "Partie", "Lot", "Lot remis", "Carton", "Émis", "Imprimé", "Remis"],
                        [[v.code, v.partie, f"{v.lot} {KIND_LABELS.get(v.kind, v.kind)}",
                          v.label + (" (consolation)" if v.consolation else ""), v.card_id, _when(v.issued_at, tz),
                          f"{v.printed}×" if v.printed else "non", _when(v.redeemed_at, tz) if v.redeemed else "non"]
                         for v in report.vouchers] or [["—"] * 8],
                        [30 * mm, 12 * mm, 24 * mm, 44 * mm, 24 * mm, 16 * mm, 14 * mm, 16 * mm]))

    def footer(canvas, document):
        canvas.saveState()
        canvas.setFont("Helvetica", 7)
        canvas.setFillGray(0.4)
        canvas.drawString(12 * mm, 8 * mm, f"{report.hall_name} — rapport de la soirée {day}")
        canvas.drawRightString(A4[0] - 12 * mm, 8 * mm, f"page {document.page}")
        canvas.restoreState()

    doc.build(story, onFirstPage=footer, onLaterPages=footer)


# ---- the money (issue 16) ------------------------------------------------------------------------------
PAYMENTS = {"especes": "Espèces", "carte": "Carte bancaire", "cheque": "Chèques"}
SALES_SHOWN = 400        # sale lines printed; beyond, the CSV holds them all (the totals always cover all)


def _euros(cents: int | None) -> str:
    if cents is None:
        return "—"
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return sign + f"{whole:,}".replace(",", " ") + f",{rest:02d} €"


def money_section(t, tz: str) -> list:
    """Recettes, lots' declared values and the balance: the page the treasurer hands to the board."""
    totals = t.totals
    out: list = [Paragraph("Recettes, valeur des lots et solde", H2)]
    rows = [["Cartons vendus (payés)", str(totals["cards_sold"]), "Recette totale", _euros(t.receipts_cents)]]
    for key, label in PAYMENTS.items():
        rows.append(["", "", f"dont {label.lower()}", _euros(totals["by_payment"].get(key, 0))])
    rows.append(["Cartons réservés non payés", str(totals["cards_reserved"]), "à encaisser (hors recette)",
                 _euros(totals["reserved_cents"])])
    rows.append(["Lots joués, valeur déclarée", str(len(t.lots) - t.undeclared_lots), "Valeur totale des lots",
                 _euros(t.declared_cents)])
    rows.append(["", "", "dont lots offerts (donateurs)", _euros(t.donated_cents)])
    rows.append(["", "", "dont lots achetés", _euros(t.bought_cents)])
    rows.append(["Solde (recette − lots achetés)", "", "", _euros(t.balance_cents)])
    table = Table(rows, colWidths=[58 * mm, 16 * mm, 58 * mm, 34 * mm], hAlign="LEFT")
    table.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), "Helvetica", 9),
                               ("FONT", (3, 0), (3, -1), "Helvetica-Bold", 9),
                               ("FONT", (0, -1), (-1, -1), "Helvetica-Bold", 10),
                               ("ALIGN", (1, 0), (1, -1), "RIGHT"), ("ALIGN", (3, 0), (3, -1), "RIGHT"),
                               ("LINEABOVE", (0, -1), (-1, -1), 1, colors.black),
                               ("LINEBELOW", (0, 0), (-1, -2), 0.3, colors.lightgrey)]))
    out.append(table)
    if t.undeclared_lots:
        out.append(_p(f"{t.undeclared_lots} lot(s) sans valeur déclarée (comptés 0 €).", BODY))
    if totals["by_seller"]:
        out.append(Paragraph("Recette par vendeur", H3))
        out.append(_table(["Vendeur", "Montant"], [[k, _euros(v)] for k, v in sorted(totals["by_seller"].items())],
                          [60 * mm, 30 * mm]))
    if len(totals["by_partie"]) > 1 or "" not in totals["by_partie"] and totals["by_partie"]:
        out.append(Paragraph("Recette par partie (cartons vendus pour une partie)", H3))
        out.append(_table(["Partie", "Montant"], [[k or "toute la soirée", _euros(v)]
                                                  for k, v in sorted(totals["by_partie"].items())], [60 * mm, 30 * mm]))
    if t.lots:
        out.append(Paragraph("Lots et valeurs déclarées", H3))
        out.append(_table(["Partie", "Lot", "Type", "Libellé", "Donateur", "Valeur", "Gagné"],
                          [[v.partie, v.lot, KIND_LABELS.get(v.kind, v.kind), v.label, v.sponsor or "—",
                            _euros(v.cents), "oui" if v.awarded else "non"] for v in t.lots],
                          [14 * mm, 10 * mm, 24 * mm, 56 * mm, 34 * mm, 24 * mm, 14 * mm]))
    if t.sales:
        shown = t.sales[:SALES_SHOWN]
        out.append(Paragraph(f"Ventes ({len(t.sales)})" + (f", les {SALES_SHOWN} premières : le CSV les détaille toutes"
                                                          if len(t.sales) > SALES_SHOWN else ""), H3))
        # plain strings, not paragraphs: hundreds of lines stay fast (see bench/bench_sales.py)
        fit = lambda text, width: text if len(text) <= width else text[:width - 1] + "…"   # noqa: E731
        lines = [[str(s.sale_id), _when(s.at, tz), s.cards[0] + (f"..{s.cards[-1]}" if len(s.cards) > 1 else ""),
                  str(len(s.cards)), PAYMENTS.get(s.payment, s.payment) + ("" if s.paid else " (réservé)"),
                  fit(s.seller, 14), fit(s.buyer, 18), ("annulée " if s.voided else "") + _euros(s.cents)]
                 for s in shown]
        sales = Table([["N°", "Heure", "Cartons", "Nb", "Paiement", "Vendeur", "Acheteur", "Montant"], *lines],
                      colWidths=[9 * mm, 17 * mm, 40 * mm, 9 * mm, 29 * mm, 24 * mm, 30 * mm, 28 * mm],
                      repeatRows=1, hAlign="LEFT")
        sales.setStyle(GRID)
        out.append(sales)
    return out
