"""The evening's report as an A4 PDF (reportlab platypus), from ``hall.money.report.EveningReport``: a PDF/A-2b file for
the association's ten-year archive (``pdfa.py``)."""

from __future__ import annotations

import io
import os
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from hall.app.lang import in_language
from hall.app.paper.pdf_parts import (
    BODY,
    H1,
    H2,
    H3,
    OneLine,
    PdfTarget,
    Say,
    cell,
    fingerprint_words,
    table,
    when,
)
from hall.app.paper.pdfa import archival
from hall.app.paper.report_money_pdf import money_section
from hall.app.paper.report_sections_pdf import other_sections
from hall.app.paper.report_tax_pdf import tax_office_page
from hall.app.paper.report_words import described
from hall.app.paper.typeface import BOLD, FONT, fit
from hall.loto.lots import KIND_LABELS
from hall.marks import N_
from hall.money.paper_cells import VERDICTS
from hall.money.papers_rooms import headline as rooms_headline
from hall.money.report import TOTAL_LABELS as TOTALS
from hall.money.report import EveningReport, LotResult, PartieReport
from hall.money.report_lots import KEPT, TO_PLAY
from hall.record.durable import replacing

STATUS = {
    "playing": N_("en cours"),
    "checking": N_("vérification en cours"),
    "finished": N_("tous les lots gagnés"),
    "cleared": N_("démarquée"),
}


def lot_label(kind: str, label: str, say: Say) -> str:
    """A lot's label in the reader's language: the default one (its kind's French name) is said as its kind."""
    default = KIND_LABELS.get(kind)
    return say(default) if default is not None and label == default else label


def _not_won(lot: LotResult, say: Say) -> str:
    """What became of a lot not won in its partie (RULES L19: a carried lot is counted where it is played)."""
    if lot.carried_to:
        return say("reporté à la partie %(n)s") % {"n": lot.carried_to}
    if lot.fate == TO_PLAY:
        return say("à jouer")
    if lot.fate == KEPT:
        return say("non gagné : gardé pour un autre loto")
    return say("non gagné")


def _draw_table(numbers: list[int], per_row: int = 15) -> Table:
    """The numbers in draw order, 15 a row, each row headed by the order of its first ball."""
    rows = []
    for start in range(0, len(numbers), per_row):
        chunk = numbers[start : start + per_row]
        rows.append([f"{start + 1}–{start + len(chunk)}"] + [str(n) for n in chunk] + [""] * (per_row - len(chunk)))
    t = Table(rows or [["—"]], colWidths=[16 * mm] + [9 * mm] * per_row if rows else None, hAlign="LEFT")
    t.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), BOLD, 9),
                ("FONT", (0, 0), (0, -1), FONT, 7),
                ("TEXTCOLOR", (0, 0), (0, -1), colors.grey),
                ("ALIGN", (1, 0), (-1, -1), "CENTER"),
                ("GRID", (1, 0), (-1, -1), 0.3, colors.lightgrey),
            ]
        )
    )
    return t


def _partie(p: PartieReport, tz: str, say: Say) -> list:
    out = [Paragraph(say("Partie n° %(n)s") % {"n": p.number}, H2)]
    times = say("début %(at)s") % {"at": when(p.started_at, tz)} + (
        say(", fin %(at)s") % {"at": when(p.ended_at, tz)} if p.ended_at else ""
    )
    status = (
        say("démarquée avec des lots restants")
        if p.forced
        else say(STATUS[p.status])
        if p.status in STATUS
        else p.status
    )
    out.append(cell(f"{status} — {times} — " + say("%(n)s boules tirées") % {"n": len(p.draws)}, BODY))
    rows = []
    for lot in p.lots:
        kind = say(KIND_LABELS.get(lot.kind, lot.kind))
        terms = ", ".join(say(text) % dict(params) for text, params in lot.terms)  # RULES L20–L21
        label = lot_label(lot.kind, lot.label, say) + (f" ({terms})" if terms else "")
        if lot.carried_from:
            label += " (" + say("reporté de la partie %(n)s") % {"n": lot.carried_from} + ")"
        if not lot.awarded:
            rows.append([lot.lot, kind, label, _not_won(lot, say), "", "", "", ""])
            continue
        row = say("rangée %(rows)s")
        winners = ", ".join(
            f"{c} (" + row % {"rows": "+".join(map(str, r))} + ")" for c, r in zip(lot.winners, lot.rows)
        )
        if lot.shared:
            winners += " — " + say("partagé")
        tie = ", ".join(f"{c} : {n}" for c, n in lot.tie_break)
        rows.append(
            [
                lot.lot,
                kind,
                label,
                winners,
                lot.last,
                lot.balls,
                tie,
                ", ".join(lot.consolation) + (f" ({lot.consolation_label})" if lot.consolation else ""),
            ]
        )
    out.append(Paragraph(say("Lots"), H3))
    out.append(
        table(
            [
                say("Lot"),
                say("Type"),
                say("Libellé"),
                say("Gagnant(s)"),
                say("Dernière boule"),
                say("Boules"),
                say("Départage (boule tirée)"),
                say("Consolation"),
            ],
            rows,
            [10 * mm, 19 * mm, 23 * mm, 35 * mm, 19 * mm, 15 * mm, 33 * mm, 32 * mm],
        )
    )
    out.append(Paragraph(say("Numéros dans l'ordre du tirage"), H3))
    out.append(_draw_table(p.numbers))
    if p.undos:
        out.append(Paragraph(say("Boules annulées"), H3))
        out.append(
            table(
                [say("Boule"), say("Rang"), say("Heure"), say("Par")],
                [[u.number, u.order, when(u.at, tz), u.role] for u in p.undos],
                [20 * mm, 15 * mm, 25 * mm, 25 * mm],
            )
        )
    if p.claims:
        out.append(Paragraph(say("Réclamations refusées"), H3))
        out.append(
            table(
                [say("Carton"), say("Lot"), say("Verdict"), say("Dernière boule"), say("Heure"), say("Par")],
                [
                    [
                        c.card_id,
                        c.lot or "",
                        say(VERDICTS[c.verdict]) if c.verdict in VERDICTS else c.verdict,
                        c.last or "",
                        when(c.at, tz),
                        c.role,
                    ]
                    for c in p.claims
                ],
                [30 * mm, 12 * mm, 40 * mm, 22 * mm, 22 * mm, 22 * mm],
            )
        )
    return out


def shade(share: float) -> colors.Color:
    """The blue of a number drawn ``share`` as often as the most drawn one, opaque: the colour a translucent blue
    (0.2, 0.4, 0.8) would show over the white page, with no transparency for the archive file to carry."""
    alpha = 0.15 + 0.5 * share
    return colors.Color(1 - 0.8 * alpha, 1 - 0.6 * alpha, 1 - 0.2 * alpha)


def _frequencies(freq: dict[int, int]) -> Table:
    rows = [[f"{n} ×{freq[n]}" for n in range(start, min(start + 10, 91))] for start in range(1, 91, 10)]
    t = Table(rows, colWidths=[17 * mm] * 10, hAlign="LEFT")
    top = max(freq.values()) if freq else 0
    style = [
        ("FONT", (0, 0), (-1, -1), FONT, 8),
        ("GRID", (0, 0), (-1, -1), 0.3, colors.lightgrey),
        ("ALIGN", (0, 0), (-1, -1), "CENTER"),
    ]
    for n, count in freq.items():
        r, c = (n - 1) // 10, (n - 1) % 10
        if top and count:
            style.append(("BACKGROUND", (c, r), (c, r), shade(count / top)))
    t.setStyle(TableStyle(style))
    return t


def write_report_pdf(report: EveningReport, path: PdfTarget, timezone: str = "Europe/Paris") -> None:
    """Write ``report`` as an A4 PDF/A-2b file to ``path`` (a file name or a binary file object, e.g.
    ``io.BytesIO``), in the report's language (``written_in``: the hall's unless chosen), as its CSV and workbook;
    the page for the tax office stays French, as it is read by it."""
    if isinstance(path, (str, os.PathLike)):  # a file: written by the hall's durable writer (hall/record/durable.py)
        with replacing(path) as out:
            return write_report_pdf(report, out, timezone)
    path.write(archival(draft_pdf(report, timezone), language=report.language))


def draft_pdf(report: EveningReport, timezone: str = "Europe/Paris") -> bytes:
    """The report as reportlab writes it, before it is made an archive file (``pdfa.archival``). Its document
    information says what it is in its own words: the title, the hall as its author, the evening as its subject."""
    say = in_language(report.language)
    draft = io.BytesIO()
    tz = timezone
    about = described(report, tz)
    day = when(report.first_at, tz, "%d/%m/%Y")
    doc = SimpleDocTemplate(
        draft,
        pagesize=A4,
        leftMargin=12 * mm,
        rightMargin=12 * mm,
        topMargin=14 * mm,
        bottomMargin=14 * mm,
        title=about.title,
        author=about.author,
        subject=about.subject,
        creator="loto-hall",
        lang=about.language,
        initialFontName=FONT,
    )
    story: list = [Paragraph(escape(about.title), H1), cell(about.subject, BODY)]
    said_rooms = rooms_headline(report)  # the salle annexe (RULES L23): « 1 événement, 2 salles, même tirage : … »
    if said_rooms is not None:
        story.append(cell(said_rooms, BODY))
    story.append(Spacer(1, 4))
    story.append(Paragraph(say("Résumé"), H2))
    totals = [[say(label), report.totals.get(key, 0)] for key, label in TOTALS.items()]
    half = (len(totals) + 1) // 2
    left, right = totals[:half], totals[half:] + [["", ""]] * (2 * half - len(totals))
    summary = Table(
        [[a[0], a[1], b[0], b[1]] for a, b in zip(left, right)],
        colWidths=[52 * mm, 18 * mm, 52 * mm, 18 * mm],
        hAlign="LEFT",
    )
    summary.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 9),
                ("FONT", (1, 0), (1, -1), BOLD, 9),
                ("FONT", (3, 0), (3, -1), BOLD, 9),
                ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                ("ALIGN", (3, 0), (3, -1), "RIGHT"),
                ("LINEBELOW", (0, 0), (-1, -1), 0.3, colors.lightgrey),
            ]
        )
    )
    story.append(summary)
    if report.takings is not None:
        story.extend(money_section(report.takings, tz, say))
    for p in report.parties:
        story.extend(_partie(p, tz, say))
    story.append(
        KeepTogether(
            [
                Paragraph(say("Fréquence des boules (nombre de parties où chaque numéro est sorti)"), H2),
                _frequencies(report.frequencies),
            ]
        )
    )
    story.append(Paragraph(say("Bons d'échange"), H2))
    no = say("non")
    story.append(
        table(
            [
                say("Code"),
                say("Partie"),
                say("Lot"),
                say("Lot remis"),
                say("Carton"),
                say("Émis"),
                say("Imprimé"),
                say("Remis"),
            ],
            [
                [
                    OneLine(v.code),
                    v.partie,
                    f"{v.lot} {say(KIND_LABELS.get(v.kind, v.kind))}",
                    lot_label(v.kind, v.label, say) + (" (" + say("consolation") + ")" if v.consolation else ""),
                    OneLine(v.card_id),
                    when(v.issued_at, tz),
                    f"{v.printed}×" if v.printed else no,
                    when(v.redeemed_at, tz) if v.redeemed else no,
                ]
                for v in report.vouchers
            ]
            or [["—"] * 8],
            [30 * mm, 12 * mm, 24 * mm, 40 * mm, 24 * mm, 16 * mm, 17 * mm, 17 * mm],
        )
    )
    story.extend(other_sections(report, tz, say))  # a rubric added to the papers with no page of its own yet
    story.extend(tax_office_page(report, tz))  # last: a page of its own, handed to the tax office

    fp = report.fingerprint

    def footer(canvas: Canvas, document: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont(FONT, 7)
        canvas.setFillGray(0.4)
        canvas.drawString(
            12 * mm,
            8 * mm,
            fit(
                say("%(hall)s — rapport de la soirée %(day)s") % {"hall": report.hall_name, "day": day},
                A4[0] - 50 * mm,
                FONT,
                7,
            ),
        )
        canvas.drawRightString(A4[0] - 12 * mm, 8 * mm, say("page %(n)s") % {"n": document.page})
        if fp is not None:  # the journal's fingerprint on every page (docs/record.md)
            canvas.drawString(
                12 * mm,
                11 * mm,
                say("Empreinte du journal : %(fp)s (enregistrement n° %(seq)s, %(when)s) — loto-hall verify")
                % fingerprint_words(fp, tz),
            )
        canvas.restoreState()

    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return draft.getvalue()
