"""Past evenings on /admin: the archived evenings with their totals, and each one's report as it was
written when it was archived (``loto-hall evening new``, hall/app/evening.py): read, never rewritten."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from display import auth as A
from display.current import hall
from display.record import archived_verdict
from hall import REPORT_CSV, REPORT_PDF, archive_dir, as_eur, lotos_in_year, past_evenings, year_of
from hall.refusal import Rejected

bp = Blueprint("evenings", __name__, url_prefix="/api/evenings")
FILES = {REPORT_PDF: "application/pdf", REPORT_CSV: "text/csv"}


@bp.get("")
def evenings():
    """The archived evenings, newest first, with their totals (euros as JSON numbers) and the lotos of this year."""
    A.require_right("evenings")
    h = hall()
    tz = h.config.hall.timezone
    past = past_evenings(h.config.data_dir)
    this_year = year_of("", tz)
    return jsonify(
        {
            "evenings": [
                {
                    **e.to_json(),
                    **{k.replace("_cents", "_eur"): as_eur(v) for k, v in e.to_json().items() if k.endswith("_cents")},
                    "record": archived_verdict(h.config.data_dir, e),
                }
                for e in past
            ],
            "year": this_year,
            "archived_this_year": lotos_in_year(past, this_year, tz),
        }
    )


@bp.get("/<name>/<filename>")
def report_file(name: str, filename: str):
    """An archived evening's report, byte for byte as it was written."""
    A.require_right("evenings")
    h = hall()
    if filename not in FILES or name not in {e.name for e in past_evenings(h.config.data_dir)}:
        raise Rejected("not_found")
    try:
        data = (archive_dir(h.config.data_dir) / name / filename).read_bytes()
    except OSError:
        raise Rejected("not_found") from None
    return current_app.response_class(
        data, mimetype=FILES[filename], headers={"Content-Disposition": f"attachment; filename={name}-{filename}"}
    )
