"""Who may write on the day, and the day as each one reads it: the desk (its PIN, the admin's too), a table's
captain (the code printed on its sheet for this game, or the pass that code earned), the public (no codes).
The day's store and the PDF makers are handed in by the composition root (``create_app(..., tournament=…)``).
"""

from __future__ import annotations

from typing import Any

from flask import after_this_request, request, session

from display import auth as A
from display.services import services
from display.tournament.code_guard import CodeGuard, game_key
from hall.minigames import Day, TournamentStore, check_code, code_generation, summary, table_code
from hall.refusal import Rejected

DESK_RIGHT = "tournament_desk"  # hall/rights.py: the desk (and the admin)


def store() -> TournamentStore:
    """The day's store; ``no_tournament`` when this server has none."""
    found = services().tournament
    if found is None:
        raise Rejected("tournoi/no_tournament")
    return found


def codes() -> CodeGuard:
    """The app's guard of the captains' codes (it counts the failures of this process)."""
    return services().tournament_codes


def is_desk() -> bool:
    """Whether the caller signed in as desk or admin (raises for a bad token or a missing CSRF token)."""
    role = A.request_role()
    return role in ("desk", "admin")


def desk() -> None:
    """Refuse anyone but the desk and the admin (401/403)."""
    A.require_right(DESK_RIGHT)


def desk_or_captain(table: int) -> str:
    """Return who writes on table ``table``'s sheet: ``desk``, or ``table`` for the holder of its code."""
    if request.headers.get("Authorization") or session.get("role"):
        if is_desk():
            return "desk"
    code = request.headers.get("X-Table-Code", "")
    day, guard, address = store().day, codes(), request.remote_addr or "?"
    game = game_key(day)
    generation = code_generation(day, table) if isinstance(table, int) else 0
    if not guard.holds_pass(request.headers.get("X-Table-Pass", ""), game, table):
        wait = guard.wait(address, game, table, generation)
        if wait:
            raise Rejected("tournoi/too_many_attempts", retry_after=wait)
    if not check_code(day, table, code):
        guard.failed(address, game, table, generation)  # a right code clears nothing: failures only age out
        raise Rejected("tournoi/bad_code", table=table)
    sheet_pass = guard.make_pass(game, table)

    @after_this_request
    def give_pass(resp):
        resp.headers["X-Table-Pass"] = sheet_pass  # this phone is held by no count for this sheet
        return resp

    return "table"


# ``Any`` as the core's ``summary`` (hall/minigames/osga/tournament.py): the desk adds each table's code below and the
# PDFs read it deep by key; one TypedDict for it would type the core, this desk and the PDFs together.
def public(day: Day) -> dict[str, Any]:
    """The day as anyone reads it: phase, game, tables with their sheets, live standings (no codes)."""
    return summary(day)


def with_codes(day: Day) -> dict[str, Any]:
    """The day as the desk reads it: each table's code for the current game too, whether it is the printed one,
    and how long strangers' guessing holds its captains who have not opened their sheet (``held_s``)."""
    data = summary(day)
    game, guard = game_key(day), codes()
    for table in data.get("tables", []):
        generation = code_generation(day, table["table"])
        table["code"] = table_code(day, table["table"])
        table["printed"] = generation == 0
        table["held_s"] = guard.held(game, table["table"], generation)
    return data


def hall_name() -> str:
    """The hall's name, printed on the pages and the documents."""
    return services().hall.config.hall.name
