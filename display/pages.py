"""The pages: projector ``/`` (public), ``/speaker``, ``/controle``, ``/lots``, ``/admin`` (PIN login)."""
from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

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


def render_page(template: str, page: str, strings: Mapping[str, str], *, allowed: Collection[str] | None = None,
                login: str = "login.html", boot: Mapping[str, Any] | None = None, status: int = 200,
                **context: Any) -> tuple[str, int]:
    """Every page for people (the loto's, the rooms', the tournament's): its boot data (the page, the language,
    its words, the role and the CSRF token, then ``boot``), or the ``login`` page when ``allowed`` (admin always
    is) does not hold the caller's role. The role is the cookie's only while its server-side session lives: a
    session ended (a PIN changed, a logout elsewhere) is no role, and its page shows the login."""
    role = auth().role_for_cookie() if session.get("role") else None
    logged = allowed is None or role == "admin" or role in allowed
    data = {"page": page, "lang": str(get_locale()), "strings": strings, "role": role if logged else None,
            "csrf": csrf_token() if role else None, **(boot or {})}
    return render_template(template if logged else login, boot=data, page=page, role=role, allowed=allowed,
                           **context), status


def _render(template: str, page: str, allowed: tuple[str, ...] | None):
    hall = current.hall()
    speech = hall.config.speech
    boot = {"speech": {"enabled": speech.enabled, "rate": speech.rate, "nicknames": speech.nicknames},
            "columns": hall.config.cards.columns, "ties": hall.config.rules.ties, "kinds": list(LOT_KINDS)}
    return render_page(template, page, js_strings(), allowed=allowed, boot=boot, hall_name=hall.config.hall.name,
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
