"""The programme editor and PIN changes on /admin: parse → ``Hall`` → answer."""

from __future__ import annotations

from flask import Blueprint, jsonify

from display import auth as A
from display import views
from display.current import hall
from display.limits import field, json_body
from hall import ProgrammeError, legal_flags, parse_parties
from hall.ports import HallPort
from hall.refusal import Rejected

bp = Blueprint("programme", __name__, url_prefix="/api")
SHOWN_AHEAD = 1  # the editor shows the programme's parties, and at least this many after the last one played


def _lot_view(lot, limit: float) -> dict:
    return {
        "kind": lot.kind,
        "label": lot.label,
        "value_eur": lot.value_eur,
        "sponsor": lot.sponsor,
        **views.lot_terms(lot),
        "flags": legal_flags(lot, limit),
    }


def programme_view(h: HallPort) -> dict:
    """The evening's programme: the parties played (fixed) and the ones to come (editable), with legal flags."""
    state = h.programme_state()
    played = len(state.played)
    edit = state.edit
    configured = len(h.config.programme)
    planned = max(configured, played + SHOWN_AHEAD, (edit.first - 1 + len(edit.parties)) if edit else 0)
    limit = h.config.sales.lot_value_limit_eur
    parties: list[dict[str, object]] = []
    declared: list[float] = []  # every lot's value, in order: summed once as before
    for i in range(planned):
        spec = state.played[i] if i < played else h.partie_spec(i)
        # "played" (kept for the editor: not editable) is every partie started; "status" says which is in play
        status = "planned" if i >= played else "running" if state.running and i == played - 1 else "played"
        declared.extend(lot.value_eur or 0 for lot in spec.lots)
        parties.append(
            {
                "number": i + 1,
                "played": i < played,
                "status": status,
                "consolation": spec.consolation,
                "lots": [_lot_view(lot, limit) for lot in spec.lots],
            }
        )
    return {
        "parties": parties,
        "played": played,
        "first_editable": played + 1,
        "edited": edit is not None,
        "lot_value_limit_eur": limit,
        "declared_total_eur": sum(declared),
    }


@bp.get("/programme")
def programme():
    A.require_right("edit_programme")
    return jsonify(programme_view(hall()))


@bp.post("/programme")
def edit_programme():
    """``{"parties": [{lots: [{kind, label, value_eur?, sponsor?, row?, within?, fallback?}], consolation}]}``: the
    parties from the next one on."""
    role = A.require_right("edit_programme")
    data = json_body()
    try:
        parties = parse_parties(data.get("parties"))
    except ProgrammeError as exc:
        if exc.code in ("label_control_character", "bad_lot_row", "bad_lot_within"):  # own codes: which lot
            raise Rejected(exc.code, where=exc.where) from None
        raise Rejected("bad_programme", where=exc.where, why=exc.why) from None
    h = hall()
    record = h.edit_programme(parties, role=role)
    return jsonify({**programme_view(h), "seq": record.seq}), 201


@bp.post("/pins")
def change_pin():
    """``{"role": "desk", "pin": "482193"}``: journalled as a salted hash; the old PIN stops opening sessions and
    the sessions it opened end."""
    role = A.require_right("change_pin")
    data = json_body()
    target = field(data, "role", str)
    pin = field(data, "pin", str)
    holder = A.auth().role_for_pin(pin)  # the hall refuses a bad role or PIN itself (Hall.change_pin)
    if holder not in (None, target):
        raise Rejected("pin_taken")
    record = hall().change_pin(target, pin, role=role)
    A.auth().book.remember(target, pin, record.event)  # logins compare it without PBKDF2 (display/pins.py)
    ended = A.auth().sessions.end_role(target)  # the old PIN's sessions end with it
    return jsonify({"role": target, "changed": True, "sessions_ended": ended, "seq": record.seq}), 201
