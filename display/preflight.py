"""The pre-flight before the doors open, on /admin (``POST /api/preflight``, admin only): the program's checks
(``hall/app/preflight.py``, handed in by the composition root as ``documents["preflight"]``, so the web imports
nothing of the program), said in the page's language, each kept in the record (``preflight:run``)."""

from __future__ import annotations

from typing import cast

from flask import Blueprint, jsonify
from flask_babel import gettext

from display import auth as A
from display.current import hall
from display.limits import json_body
from display.services import services
from hall.events.settings import PREFLIGHT_CHECKS, PREFLIGHT_DETAIL_CHARS
from hall.refusal import Rejected

bp = Blueprint("preflight", __name__, url_prefix="/api")
STATES = {True: "ok", False: "problem", None: "advice"}


@bp.post("/preflight")
def run_preflight():
    """Run the checks (``{"only": [key, …]}``: some of them; ``{}``: every one), keep them, answer them."""
    role = A.require_right("preflight")
    data = json_body()
    if set(data) - {"only"}:
        raise Rejected("bad_field", field=sorted(set(data) - {"only"})[0][:40])
    only = data.get("only", list(PREFLIGHT_CHECKS))
    if not isinstance(only, list) or not only or len(only) > len(PREFLIGHT_CHECKS):
        raise Rejected("bad_field", field="only")
    if any(not isinstance(key, str) or key not in PREFLIGHT_CHECKS for key in only) or len(set(only)) != len(only):
        raise Rejected("bad_field", field="only")
    maker = services().documents.get("preflight")
    if maker is None:
        raise Rejected("not_found")
    checks = cast(list, maker(hall().config, gettext, tuple(only)))  # [(key, Finding)]: hall/app/preflight.py
    record = hall().record_preflight(
        tuple((key, f.ok, f.detail[:PREFLIGHT_DETAIL_CHARS]) for key, f in checks), role=role
    )
    return jsonify(
        seq=record.seq,
        at=record.at,
        ready=all(f.ok is not False for _, f in checks),
        checks=[
            {"key": key, "name": f.name, "state": STATES[f.ok], "detail": f.detail, "fix": f.fix} for key, f in checks
        ],
    )
