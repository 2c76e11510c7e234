"""The pages: projector ``/`` (public), ``/speaker``, ``/controle``, ``/lots``, ``/admin`` (PIN login)."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, session
from flask_babel import get_locale

from display.auth import auth, csrf_token
from display.i18n import js_strings
from display.network import wifi_warnings
from hall.cards import make_card_id, split_card_id
from hall.lots import KIND_LABELS
from hall.rights import roles_for

bp = Blueprint("pages", __name__)

# page → the roles that may use it (admin may use every page)
PAGES = {page: roles_for(f"page:{page}") for page in ("speaker", "controle", "lots", "admin", "caisse")}   # hall.rights


def card_hints(hall) -> dict:
    """The examples the card-ID fields show, in the hall's own series (the demo's cartons are series D: a hint
    saying A sent volunteers to cartons that do not exist). Worked out once per card book (its size and first ID)."""
    count = hall.card_count()[0]
    kept = current_app.extensions.get("loto_card_hints")
    if kept and kept[0] == count:
        return kept[1]
    ids = [cid for cid, _ in hall.cards()]
    series = sorted({parts[0] for parts in map(split_card_id, ids) if parts})
    first = split_card_id(ids[0]) if ids else None
    if first:
        s, n = first
        hints = {"id": ids[0], "short": f"{s}-{n}", "plaque": f"{s}-{n}..{s}-{n + 11}",
                 "range": f"{ids[0]}..{make_card_id(s, n + 59)}", "pdf_range": f"{s}-{n}..{s}-{n + 59}"}
    else:   # an imported book of free IDs: its first one, no range to suggest
        example = ids[0] if ids else "A-00001N"
        hints = {"id": example, "short": example, "plaque": example, "range": example, "pdf_range": example}
    hints["series"] = series[:30]
    current_app.extensions["loto_card_hints"] = (count, hints)
    return hints


def _render(template: str, page: str, allowed: tuple[str, ...] | None):
    hall = current_app.extensions["loto_hall"]
    role = auth().role_for_cookie() if session.get("role") else None   # a revoked session shows the login
    logged = allowed is None or role == "admin" or role in allowed
    speech = hall.config.speech
    boot = {"page": page, "lang": str(get_locale()), "strings": js_strings(), "role": role if logged else None,
            "csrf": csrf_token() if role else None,
            "speech": {"enabled": speech.enabled, "rate": speech.rate, "nicknames": speech.nicknames},
            "columns": hall.config.cards.columns, "ties": hall.config.rules.ties,
            "kind_labels": dict(KIND_LABELS)}       # a lot's default label, never shown beside its kind (common.js)
    return render_template(template if logged else "login.html", boot=boot, page=page,
                           hall_name=hall.config.hall.name, role=role, allowed=allowed,
                           tls=current_app.extensions.get("loto_tls"), port=hall.config.server.port,
                           wifi_ssid=hall.config.network.ssid, wifi_warnings=wifi_warnings(hall.config),
                           hints=card_hints(hall) if logged and page in ("admin", "caisse", "lots") else {})


@bp.get("/")
def projector():
    return _render("projector.html", "projector", None)


@bp.get("/speaker")
def speaker():
    return _render("speaker.html", "speaker", PAGES["speaker"])


@bp.get("/controle")
def controle():
    return _render("controle.html", "controle", PAGES["controle"])


@bp.get("/lots")
def lots():
    return _render("lots.html", "lots", PAGES["lots"])


@bp.get("/admin")
def admin():
    return _render("admin.html", "admin", PAGES["admin"])


@bp.get("/caisse")
def caisse():
    return _render("caisse.html", "caisse", PAGES["caisse"])
