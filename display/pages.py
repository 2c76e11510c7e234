"""The pages: projector ``/`` (public), ``/speaker``, ``/controle``, ``/lots``, ``/admin`` (PIN login)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from flask import Blueprint, current_app, render_template, session
from flask_babel import get_locale

from display import current
from display.auth import auth, csrf_token
from display.network import wifi_warnings
from display.page_words import js_strings
from display.services import services
from display.setup import SCREEN_BALL, VOICES, projector_qr, setup_open, setup_wifi
from hall import KIND_LABELS, LOT_KINDS, kinds_table, make_card_id, split_card_id
from hall.rights import roles_for

bp = Blueprint("pages", __name__)

# page → the roles that may use it (admin may use every page)
PAGES = {
    page: roles_for(f"page:{page}") for page in ("speaker", "controle", "lots", "admin", "caisse", "buvette")
}  # hall.rights


def card_hints(hall) -> dict:
    """The examples the card-ID fields show, in the hall's own series (the demo's cartons are series D: a hint
    saying A sent volunteers to cartons that do not exist). Worked out once per card book (its size and first ID)."""
    count = hall.card_count()[0]
    kept = services().card_hints
    if kept and kept[0] == count:
        return kept[1]
    ids = [cid for cid, _ in hall.cards()]
    series = sorted({parts[0] for parts in map(split_card_id, ids) if parts})
    first = split_card_id(ids[0]) if ids else None
    if first:
        s, n = first
        hints = {
            "id": ids[0],
            "short": f"{s}-{n}",
            "plaque": f"{s}-{n}..{s}-{n + 11}",
            "range": f"{ids[0]}..{make_card_id(s, n + 59)}",
            "pdf_range": f"{s}-{n}..{s}-{n + 59}",
        }
    else:  # an imported book of free IDs: its first one, no range to suggest
        example = ids[0] if ids else "A-00001N"
        hints = {"id": example, "short": example, "plaque": example, "range": example, "pdf_range": example}
    hints["series"] = series[:30]
    services().card_hints = (count, hints)
    return hints


def render_page(
    template: str,
    page: str,
    strings: Mapping[str, str],
    *,
    allowed: Collection[str] | None = None,
    login: str = "login.html",
    boot: Mapping[str, object] | None = None,
    status: int = 200,
    **context: object,
) -> tuple[str, int]:
    """Every page for people (the loto's, the rooms', the tournament's): its boot data (the page, the language,
    its words, the role and the CSRF token, then ``boot``), or the ``login`` page when ``allowed`` (admin always
    is) does not hold the caller's role. The role is the cookie's only while its server-side session lives: a
    session ended (a PIN changed, a logout elsewhere) is no role, and its page shows the login."""
    role = auth().role_for_cookie() if session.get("role") else None
    logged = allowed is None or role == "admin" or role in allowed
    data = {
        "page": page,
        "lang": str(get_locale()),
        "strings": strings,
        "role": role if logged else None,
        "csrf": csrf_token() if role else None,
        **(boot or {}),
    }
    return render_template(
        template if logged else login, boot=data, page=page, role=role, allowed=allowed, **context
    ), status


def _render(template: str, page: str, allowed: tuple[str, ...] | None):
    hall = current.hall()
    speech = hall.config.speech
    boot = {
        "speech": {"enabled": speech.enabled, "rate": speech.rate, "nicknames": speech.nicknames},
        "columns": hall.config.cards.columns,
        "ties": hall.config.rules.ties,
        "kinds": list(LOT_KINDS),
        "kind_labels": dict(KIND_LABELS),  # a lot's default label, never shown beside its kind (common.js)
        "lot_kinds": kinds_table(),
    }  # each kind's lines and terms (lot_terms.js), the hall's table
    return render_page(
        template,
        page,
        js_strings(),
        allowed=allowed,
        boot=boot,
        hall_name=hall.config.hall.name,
        tls=services().tls or services().staff_tls,
        port=hall.config.server.port if services().tls else current_app.config.get("LOTO_STAFF_PORT"),
        wifi_ssid=hall.config.network.ssid,
        setup_voices=VOICES,
        wifi_warnings=wifi_warnings(hall.config),
        hints=card_hints(hall) if page in ("admin", "caisse", "lots") else {},
        max_consoles=auth().sessions.max_per_role,
        seller_name=auth().sessions.name(session.get("sid")),
    )


@bp.get("/")
def projector():
    if setup_open():  # the first start: one QR code to /setup, and the screen check's ball
        hall = current.hall()
        boot = {"page": "setup-projector", "lang": str(get_locale()), "strings": {}}
        return render_template(
            "setup_projector.html",
            boot=boot,
            hall_name=hall.config.hall.name,
            qr=projector_qr(hall.config),
            setup_wifi=setup_wifi(),
            screen_ball=SCREEN_BALL,
        )
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


@bp.get("/buvette")
def buvette():
    return _render("buvette.html", "buvette", PAGES["buvette"])
