"""The tournament's pages: the desk's ``/tournoi`` (its PIN first), the projector's ``/tournoi/classement``
(public, no codes), each captain's ``/tournoi/table/<n>`` (the code on the sheet opens it)."""
from __future__ import annotations

from flask import Blueprint, render_template, session
from flask.typing import ResponseReturnValue
from flask_babel import get_locale

from display import auth as A
from display.auth import csrf_token
from display.tournament.access import hall_name
from display.tournament.messages import _, words
from hall.minigames.osga.tournament import HAND_MAX, HAND_MIN, HANDS_PER_GAME

bp = Blueprint("tournament_pages", __name__)


def _page(template: str, page: str, desk_only: bool, **extra) -> ResponseReturnValue:
    role = A.auth().role_for_cookie() if session.get("role") else None   # a revoked session shows the login
    logged = not desk_only or role in ("desk", "admin")
    boot = {"page": page, "lang": str(get_locale()), "strings": {}, "words": words(),
            "role": role if logged else None, "csrf": csrf_token() if role else None,
            "hand_min": HAND_MIN, "hand_max": HAND_MAX, "hands": HANDS_PER_GAME, **extra}
    return render_template(template if logged else "tournoi_login.html", boot=boot, page=page, T=_,
                           hall_name=hall_name(), role=role)


@bp.get("/tournoi")
def desk_page() -> ResponseReturnValue:
    return _page("tournoi.html", "tournoi", True)


@bp.get("/tournoi/classement")
def projector_page() -> ResponseReturnValue:
    return _page("tournoi_classement.html", "tournoi_classement", False)


@bp.get("/tournoi/table/<int:table>")
def table_page(table: int) -> ResponseReturnValue:
    return _page("tournoi_table.html", "tournoi_table", False, table=table)
