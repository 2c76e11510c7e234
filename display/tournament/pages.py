"""The tournament's pages: the desk's ``/tournoi`` (its PIN first), the projector's ``/tournoi/classement``
(public, no codes), each captain's ``/tournoi/table/<n>`` (the code on the sheet opens it)."""

from __future__ import annotations

from flask import Blueprint
from flask.typing import ResponseReturnValue

from display.pages import render_page
from display.tournament.access import hall_name
from display.tournament.messages import words
from hall.minigames import HAND_MAX, HAND_MIN, HANDS_PER_GAME

bp = Blueprint("tournament_pages", __name__)


def _page(template: str, page: str, desk_only: bool, **extra) -> ResponseReturnValue:
    boot = {"words": words(), "hand_min": HAND_MIN, "hand_max": HAND_MAX, "hands": HANDS_PER_GAME, **extra}
    return render_page(
        template,
        page,
        {},
        allowed=("desk",) if desk_only else None,
        login="tournoi_login.html",
        boot=boot,
        hall_name=hall_name(),
    )


@bp.get("/tournoi")
def desk_page() -> ResponseReturnValue:
    return _page("tournoi.html", "tournoi", True)


@bp.get("/tournoi/classement")
def projector_page() -> ResponseReturnValue:
    return _page("tournoi_classement.html", "tournoi_classement", False)


@bp.get("/tournoi/table/<int:table>")
def table_page(table: int) -> ResponseReturnValue:
    return _page("tournoi_table.html", "tournoi_table", False, table=table)
