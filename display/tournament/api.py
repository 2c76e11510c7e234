"""The tournament's API under ``/api/tournoi``: the day's picture, the desk's registration and movement, the
hands the desk or a table's captain enters (docs/osga.md). Every change is an event of the day's store."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from display.limits import json_body
from display.tournament.access import desk, desk_or_captain, public, store, with_codes
from hall.refusal import Rejected

bp = Blueprint("tournament", __name__)


@bp.get("/api/tournoi")
def state() -> ResponseReturnValue:
    """The public picture: phase, current game, tables with their sheets, live standings (no codes)."""
    return jsonify(public(store().day))


@bp.get("/api/tournoi/desk")
def desk_state() -> ResponseReturnValue:
    """The desk's picture: the public one plus each table's code for the current game."""
    desk()
    return jsonify(with_codes(store().day))


@bp.get("/api/tournoi/tables/<int:table>")
def table_state(table: int) -> ResponseReturnValue:
    """One table's sheet for its captain (the code is checked, so the page can say when it is wrong)."""
    desk_or_captain(table)
    day = store().day
    data = public(day)
    found = next((t for t in data.get("tables", []) if t["table"] == table), None)
    if found is None:
        if day.tournament is None:
            raise Rejected("tournoi/not_started")
        if day.tournament.finished:
            raise Rejected("tournoi/day_over")
        raise Rejected("tournoi/bad_number", field="table", low=1, high=len(data["tables"]))
    return jsonify(
        {
            "phase": data["phase"],
            "game": data["game"],
            "games": data["games"],
            "session": data["session"],
            "table": found,
            "events": data["events"],
        }
    )


def _submit(kind: str, data: dict[str, object]) -> ResponseReturnValue:
    day = store().submit(kind, data)
    return jsonify(public(day))


@bp.post("/api/tournoi/day")
def new_day() -> ResponseReturnValue:
    """Open a new day: ``{title, games_per_session, sessions}`` (the seed's 2 × 6 games by default)."""
    desk()
    data = json_body()
    day_store = store()
    day_store.new_day(str(data.get("title") or ""), data.get("games_per_session"), data.get("sessions"))
    return jsonify(public(day_store.day))


@bp.post("/api/tournoi/teams")
def register() -> ResponseReturnValue:
    """Register a team: ``{name, players: [a, b], arrived}`` (``arrived: false`` for a pre-registered team)."""
    desk()
    data = json_body()
    return _submit(
        "register", {"name": data.get("name"), "players": data.get("players"), "arrived": data.get("arrived", True)}
    )


@bp.post("/api/tournoi/teams/<team>/<action>")
def team_action(team: str, action: str) -> ResponseReturnValue:
    """A team checks in (``arrive``), is marked ``absent``, or ``default``s during the day."""
    desk()
    json_body()
    if action not in ("arrive", "absent", "default"):
        raise Rejected("tournoi/unknown_event", kind=action[:20])
    return _submit(action, {"team": team})


@bp.post("/api/tournoi/floater")
def floater() -> ResponseReturnValue:
    """Name the organisers' spare team: ``{players: [a, b]}``."""
    desk()
    return _submit("floater", {"players": json_body().get("players")})


@bp.post("/api/tournoi/start")
def start() -> ResponseReturnValue:
    """Close registration and seat the first game."""
    desk()
    json_body()
    return _submit("start", {})


@bp.post("/api/tournoi/tables/<int:table>/hands")
def hand(table: int) -> ResponseReturnValue:
    """Enter (or correct) one hand: ``{hand, ns, ew}``, by the desk or the table's captain (``X-Table-Code``)."""
    desk_or_captain(table)
    data = json_body()
    return _submit("hand", {"table": table, "hand": data.get("hand"), "ns": data.get("ns"), "ew": data.get("ew")})


@bp.post("/api/tournoi/tables/<int:table>/close")
def close(table: int) -> ResponseReturnValue:
    """Time is called at this table (E21): its game ends on the hands entered."""
    desk_or_captain(table)
    json_body()
    return _submit("close", {"table": table})


@bp.post("/api/tournoi/tables/<int:table>/reopen")
def reopen(table: int) -> ResponseReturnValue:
    """The desk reopens a sheet closed by mistake."""
    desk()
    json_body()
    return _submit("reopen", {"table": table})


@bp.post("/api/tournoi/tables/<int:table>/code")
def recode(table: int) -> ResponseReturnValue:
    """The desk gives table ``table`` a fresh captain's code (its wrong-code count starts again): for a table whose
    captains strangers hold, or whose printed code got about; the printed one no longer opens the sheet."""
    desk()
    json_body()
    store().submit("recode", {"table": table})
    return jsonify(with_codes(store().day))


@bp.post("/api/tournoi/next")
def next_game() -> ResponseReturnValue:
    """Every table is done: record the game, compute the movement (E22) and seat the next one."""
    desk()
    json_body()
    return _submit("next", {})


@bp.post("/api/tournoi/playoffs")
def playoff() -> ResponseReturnValue:
    """Record a 4-hand playoff between two tied teams (E24): ``{winner, loser}``."""
    desk()
    data = json_body()
    return _submit("playoff", {"winner": data.get("winner"), "loser": data.get("loser")})
