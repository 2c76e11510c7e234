"""The admin's documents: the evening's report (PDF, CSV, workbook) and the cartons as printable PDF planches.

The PDF makers live with the other paper outputs (``drivers/``); the composition root hands them in
through ``create_app(..., documents=...)``, so the web never imports a driver.
"""

from __future__ import annotations

import io
import re

from flask import Blueprint, current_app, request
from flask_babel import gettext

from display import auth as A
from display import current
from display.services import services
from hall import REPORT_LANGUAGES, RangeError, expand_ranges, write_csv, written_in
from hall.refusal import Rejected

bp = Blueprint("documents", __name__, url_prefix="/api")
MAX_PDF_CARDS = 20_000


def _maker(name: str):
    maker = services().documents.get(name)
    if maker is None:
        raise Rejected("not_found")
    return maker


def _download(data: bytes | str, mimetype: str, filename: str):
    return current_app.response_class(
        data, mimetype=mimetype, headers={"Content-Disposition": f"attachment; filename={filename}"}
    )


def _report():
    """The evening's report, read under the hall's lock (a consistent picture while balls keep coming), in the
    language ``?lang=`` chooses (``fr`` or ``en``), else the hall's: never the page's, so that the PDF, the CSV and
    the workbook of one evening say the same words."""
    A.require_right("report")
    hall = current.hall()
    lang = request.args.get("lang")
    if lang is not None and lang not in REPORT_LANGUAGES:
        raise Rejected("bad_field", field="lang")
    return hall, written_in(hall.report(), lang)


@bp.get("/report.csv")
def report_csv():
    _, report = _report()
    out = io.StringIO()
    write_csv(report, out)
    return _download(out.getvalue(), "text/csv", "rapport-soiree.csv")


@bp.get("/report.xlsx")
def report_xlsx():
    _, report = _report()
    out = io.BytesIO()
    _maker("report_xlsx")(report, out)
    return _download(
        out.getvalue(), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "rapport-soiree.xlsx"
    )


@bp.get("/report.pdf")
def report_pdf():
    hall, report = _report()
    out = io.BytesIO()
    _maker("report_pdf")(report, out, timezone=hall.config.hall.timezone)
    return _download(out.getvalue(), "application/pdf", "rapport-soiree.pdf")


@bp.get("/cards.pdf")
def cards_pdf():
    """The book's cartons as planches; ``?series=A`` keeps one series, ``?range=A-1..A-60`` an ID range,
    ``?per_page=`` 2, 3, 4, 6 or 12 a page."""
    A.require_right("cards_pdf")
    hall = current.hall()
    series = request.args.get("series", "").strip().upper()
    if series and not re.fullmatch(r"[A-Z0-9-]{1,32}", series):
        raise Rejected("bad_field", field="series")
    per_page = request.args.get("per_page", "6")
    if per_page not in ("2", "3", "4", "6", "12"):
        raise Rejected("bad_field", field="per_page")
    wanted = None
    if request.args.get("range", "").strip():
        try:
            wanted = set(expand_ranges(request.args["range"][:400], MAX_PDF_CARDS))
        except RangeError as exc:
            raise Rejected(exc.code, part=exc.text, why=exc.why, limit=MAX_PDF_CARDS) from None
    cards = [(cid, card) for cid, card in hall.cards(series or None) if wanted is None or cid in wanted]
    if not cards:  # a series or a range the book lacks: said on /admin, with the series it holds
        raise Rejected(
            "no_cards_to_print",
            what=series or request.args.get("range", "")[:40],
            known=", ".join(sorted({cid.rsplit("-", 1)[0] for cid, _ in hall.cards() if "-" in cid})[:12]),
        )
    if len(cards) > MAX_PDF_CARDS:
        raise Rejected("too_large")
    out = io.BytesIO()
    _maker("cards_pdf")(
        cards,
        out,
        hall_name=hall.config.hall.name,
        series=series or "",
        per_page=int(per_page),
        columns=hall.config.cards.columns,
        evening=hall.config.hall.evening,
        logo=hall.config.hall.logo or None,
        say=gettext,
        link=hall.config.hall_link("c/"),
        code=hall.card_code,
    )
    return _download(out.getvalue(), "application/pdf", f"cartons{'-' + series if series else ''}.pdf")
