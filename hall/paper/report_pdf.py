"""The evening's report as an A4 PDF (reportlab platypus), from ``hall.report.EveningReport``."""
from __future__ import annotations

import os
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from hall.lots import KIND_LABELS
from hall.paper.pdf_parts import BODY, H1, H2, H3, PdfTarget, cell, table, when
from hall.paper.report_money_pdf import money_section, tax_office_page
from hall.report import TOTAL_LABELS as TOTALS
from hall.report import EveningReport, PartieReport

VERDICTS = {"incomplete": "fausse réclamation", "missed": "boule laissée passer", "unknown_card": "carton inconnu",
            "unsold_card": "carton non vendu", "cancelled_card": "carton annulé", "closed": "aucun lot ouvert"}
STATUS = {"playing": "en cours", "checking": "vérification en cours", "finished": "tous les lots gagnés",
          "cleared": "démarquée"}

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
    times = f"début {when(p.started_at, tz)}" + (f", fin {when(p.ended_at, tz)}" if p.ended_at else "")
    status = "démarquée avec des lots restants" if p.forced else STATUS.get(p.status, p.status)
    out.append(cell(f"{status} — {times} — {len(p.draws)} boules tirées", BODY))
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
    out.append(table(["Lot", "Type", "Libellé", "Gagnant(s)", "Dernière boule", "Boules",
                       "Départage (boule tirée)", "Consolation"], rows,
                      [10 * mm, 19 * mm, 23 * mm, 35 * mm, 19 * mm, 15 * mm, 33 * mm, 32 * mm]))
    out.append(Paragraph("Numéros dans l'ordre du tirage", H3))
    out.append(_draw_table(p.numbers))
    if p.undos:
        out.append(Paragraph("Boules annulées", H3))
        out.append(table(["Boule", "Rang", "Heure", "Par"], [[u.number, u.order, when(u.at, tz), u.role]
                                                               for u in p.undos], [20 * mm, 15 * mm, 25 * mm, 25 * mm]))
    if p.claims:
        out.append(Paragraph("Réclamations refusées", H3))
        out.append(table(["Carton", "Lot", "Verdict", "Dernière boule", "Heure", "Par"],
                          [[c.card_id, c.lot or "", VERDICTS.get(c.verdict, c.verdict), c.last or "",
                            when(c.at, tz), c.role] for c in p.claims],
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


def write_report_pdf(report: EveningReport, path: PdfTarget, timezone: str = "Europe/Paris") -> None:
    """Write ``report`` as an A4 PDF to ``path`` (a file name or a binary file object, e.g. ``io.BytesIO``)."""
    tz = timezone
    doc = SimpleDocTemplate(path if hasattr(path, "write") else os.fspath(path), pagesize=A4,
                            leftMargin=12 * mm, rightMargin=12 * mm, topMargin=14 * mm, bottomMargin=14 * mm,
                            title=f"Rapport de la soirée — {report.hall_name}", author="loto-hall")
    day = when(report.first_at, tz, "%d/%m/%Y")
    story: list = [Paragraph(escape(f"Rapport de la soirée — {report.hall_name}"), H1),
                   cell(f"Loto du {day or '—'}, de {when(report.first_at, tz, '%H:%M')} à "
                      f"{when(report.last_at, tz, '%H:%M')} (heure locale, {tz})", BODY), Spacer(1, 4)]
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
    story.append(table(["Code", "Partie", "Lot", "Lot remis", "Carton", "Émis", "Imprimé", "Remis"],
                        [[v.code, v.partie, f"{v.lot} {KIND_LABELS.get(v.kind, v.kind)}",
                          v.label + (" (consolation)" if v.consolation else ""), v.card_id, when(v.issued_at, tz),
                          f"{v.printed}×" if v.printed else "non", when(v.redeemed_at, tz) if v.redeemed else "non"]
                         for v in report.vouchers] or [["—"] * 8],
                        [30 * mm, 12 * mm, 24 * mm, 44 * mm, 24 * mm, 16 * mm, 14 * mm, 16 * mm]))

    story.extend(tax_office_page(report, tz))      # last: a page of its own, handed to the tax office

    def footer(canvas: Canvas, document: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 7)
        canvas.setFillGray(0.4)
        canvas.drawString(12 * mm, 8 * mm, f"{report.hall_name} — rapport de la soirée {day}")
        canvas.drawRightString(A4[0] - 12 * mm, 8 * mm, f"page {document.page}")
        canvas.restoreState()

    doc.build(story, onFirstPage=footer, onLaterPages=footer)


