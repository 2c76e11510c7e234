"""The staff's door on the web: enrolling a new console, the page it opens, and the live consoles on /admin.

``POST /api/enrolments {"role"}`` (a console already in: ``display/enrolment.may_enrol``) → a one-time code and
its QR code; ``POST /api/enrol {"code", "name"?}`` (JSON only, like the login) lets the new tablet in;
``GET /ajout`` is the page the QR code opens; ``GET /api/consoles`` and ``POST /api/consoles/{ref}/end`` (admin)
list the live consoles and end one.
"""

from __future__ import annotations

import ipaddress
import time

from flask import Blueprint, jsonify, request

from display import auth as A
from display.current import hall
from display.enrolment import CODE_TTL_S, enrollable, may_enrol, shown_code
from display.limits import field, json_body
from display.page_words import js_strings
from display.pages import render_page
from display.qrcode_svg import qr_svg
from display.session_ref import session_ref
from display.sessions import RECENT_USE_S
from hall.refusal import Rejected

bp = Blueprint("door", __name__)
CONSOLES_RIGHT = "consoles"  # admin only (hall/rights.py lists no role for it)
ROLE_PAGES = {"speaker": "/speaker", "controller": "/controle", "desk": "/caisse", "admin": "/admin"}


def _json_only() -> dict:
    if request.mimetype != "application/json":
        # a form or a text/plain fetch of another web page needs no CORS preflight: it must not try codes
        raise Rejected("json_required")
    return json_body()


def enrol_link(code: str) -> str:
    """The address the QR code gives: this console's own (the new tablet is on the same network), the hall's
    address when this console is the Pi itself."""
    host = (request.host or "").rsplit(":", 1)[0].strip("[]")
    try:
        local = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        local = False
    base = hall().config.hall_link("ajout") if local else request.host_url + "ajout"
    return f"{base}#{code}"


@bp.post("/api/enrolments")
def make_enrolment():
    """``{"role": "controller"}`` → a code that lets one new console in as that role, for five minutes."""
    by = A.request_role()
    if by is None:
        raise Rejected("unauthorized")
    role = json_body().get("role")
    if not isinstance(role, str) or not may_enrol(by, role):
        raise Rejected("forbidden", role=by)
    code, _until = A.auth().enrolments.make(role)
    link = enrol_link(code)
    return jsonify(
        {
            "code": shown_code(code),
            "role": role,
            "expires_in": int(CODE_TTL_S),
            "url": link,
            "qr_svg": qr_svg(link, border=4),
            "roles": enrollable(by),
        }
    ), 201


@bp.post("/api/enrol")
def enrol():
    """``{"code", "name"?}``: the new console is in (a known console of the code's role from now on)."""
    data = _json_only()
    answer = A.enrol(data.get("code"), data.get("name"))
    return jsonify({**answer, "page": ROLE_PAGES.get(answer["role"], "/")})


@bp.get("/ajout")
def enrol_page():
    """The page a console's enrolment QR code opens (the code in the link's fragment never reaches a log)."""
    return render_page("login.html", "ajout", js_strings(), hall_name=hall().config.hall.name)


@bp.get("/api/consoles")
def consoles():
    """The live consoles: role, name typed at login, console, address, browser, last use."""
    A.require_right(CONSOLES_RIGHT)
    now, mine = time.time(), session_ref()
    rows = [
        {
            **row,
            "seen_s": max(0, int(now - row["seen"])),
            "opened_s": max(0, int(now - row["opened"])),
            "self": row["ref"] == mine,
        }
        for row in A.auth().sessions.live()
    ]
    return jsonify(
        {"consoles": rows, "max_per_role": A.auth().sessions.max_per_role, "recent_use_s": int(RECENT_USE_S)}
    )


@bp.post("/api/consoles/<reference>/end")
def end_console(reference: str):
    """End one console's session (``{"forget": true}``: it is no longer a known console either)."""
    A.require_right(CONSOLES_RIGHT)
    forget = field(json_body(), "forget", bool, required=False, default=False)
    if not A.auth().sessions.close_ref(reference[:16], forget=forget):
        raise Rejected("unknown_console")
    return jsonify({"ended": reference[:16], "forgotten": forget})
