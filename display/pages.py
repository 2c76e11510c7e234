"""The pages: projector ``/`` (public), ``/speaker``, ``/controle``, ``/lots``, ``/admin`` (PIN login)."""
from __future__ import annotations

from flask import Blueprint, current_app, render_template, session
from flask_babel import get_locale

from display import current
from display.auth import auth, csrf_token
from display.i18n import js_strings
from display.network import wifi_warnings
from hall.lots import LOT_KINDS
from hall.rights import roles_for

bp = Blueprint("pages", __name__)

# page → the roles that may use it (admin may use every page)
PAGES = {page: roles_for(f"page:{page}") for page in ("speaker", "controle", "lots", "admin", "caisse")}   # hall.rights


def _render(template: str, page: str, allowed: tuple[str, ...] | None):
    hall = current.hall()
    role = auth().role_for_cookie() if session.get("role") else None   # a revoked session shows the login
    logged = allowed is None or role == "admin" or role in allowed
    speech = hall.config.speech
    boot = {"page": page, "lang": str(get_locale()), "strings": js_strings(), "role": role if logged else None,
            "csrf": csrf_token() if role else None,
            "speech": {"enabled": speech.enabled, "rate": speech.rate, "nicknames": speech.nicknames},
            "columns": hall.config.cards.columns, "ties": hall.config.rules.ties, "kinds": list(LOT_KINDS)}
    return render_template(template if logged else "login.html", boot=boot, page=page,
                           hall_name=hall.config.hall.name, role=role, allowed=allowed,
                           tls=current_app.extensions.get("loto_tls"), port=hall.config.server.port,
                           wifi_ssid=hall.config.network.ssid, wifi_warnings=wifi_warnings(hall.config))


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
