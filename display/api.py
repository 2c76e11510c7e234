"""The HTTP API (INTERFACE §4): parse → call ``Hall`` → answer. Roles by token or cookie session."""

from __future__ import annotations

import io

from flask import Blueprint, current_app, jsonify, request
from werkzeug.routing import BaseConverter

from display import auth as A
from display import views
from display.current import hall
from display.i18n import device_sentence
from display.idempotency import idempotent
from display.limits import MAX_UPLOAD_BYTES, field, json_body, read_body
from display.live import public_state, staff_state
from display.record import fingerprint_json
from display.relay_seal import RUN_HEADER
from display.services import services
from display.session_ref import session_ref
from hall import (
    ACTIONS,
    TIE_METHODS,
    TIE_WINS,
    CardBook,
    InvalidCardFile,
    InvalidNumber,
    LotTermsError,
    RangeTooLarge,
    as_plain_csv,
    browser_keymap,
    generate_cards,
    has_control_character,
    normalize_card_id,
    parse_amount,
    parse_int,
    read_terms,
)
from hall.events import LotSpec
from hall.refusal import Rejected
from hall.requests import DeviceTestRequested, DrawRequested

bp = Blueprint("api", __name__, url_prefix="/api")
MAX_GENERATE = 20000


class CardInPath(BaseConverter):
    """A carton's ID in ``/api/cards/{card_id}``, never the card book's own operations beside it: OpenAPI gives a
    fixed path precedence over a template, so ``/api/cards/generate`` is only ``POST`` (``GET``: 405 with
    ``Allow: POST, OPTIONS``); a carton named so is still read as ``/api/cards/GENERATE``."""

    regex = r"(?!(?:generate|import|sold)$)[^/]+"


@bp.record_once
def _card_converter(state) -> None:
    state.app.url_map.converters.setdefault("card_in_path", CardInPath)


def _int(data: dict, name: str, low: int, high: int, default: int | None = None) -> int:
    """The integer field ``name`` (JSON number or ASCII-digit text) within ``low..high``; 422 ``bad_field``."""
    value = data.get(name)
    if value is None and default is not None:
        return default
    try:
        return parse_int(value, low, high, name)
    except InvalidNumber:
        raise Rejected("bad_field", field=name, low=low, high=high) from None


@bp.post("/login")
def login():
    if request.mimetype != "application/json":
        # a form or a text/plain fetch of another web page needs no CORS preflight: it must not try PINs
        raise Rejected("json_required")
    data = json_body()
    return jsonify(A.login(data.get("pin"), data.get("name")))


@bp.post("/logout")
def logout():
    A.logout()
    return jsonify({"role": None})


@bp.get("/me")
def me():
    role = A.request_role()
    return jsonify({"role": role, "csrf": A.csrf_token() if role and "Authorization" not in request.headers else None})


@bp.get("/state")
def state():
    """The public state, its body encoded once per change (``display/live.py``); with relays, the core's queue run
    in ``X-Loto-Queue-Run`` (a relay believes a run only once the core says it is its own: ``relay_seal.py``)."""
    body = public_state(hall()).encoded("http", lambda state: jsonify(state).get_data())
    resp = current_app.response_class(body, mimetype="application/json")
    relay = services().relay
    if relay is not None:
        resp.headers[RUN_HEADER] = relay.run_id
    return resp


@bp.get("/keypad/keys")
def keypad_keys():
    """The speaker's keys for a browser: ``KeyboardEvent.code`` → digit or action, the Pi keypad's own table."""
    section = hall().config.keypad
    return jsonify({"keys": browser_keymap(section.keys if section is not None else None), "actions": list(ACTIONS)})


@bp.get("/speaker/state")
def speaker_view():
    role = A.require_right("speaker_state")
    return jsonify(staff_state(hall(), role, device_sentence))


def _lots(data: dict) -> tuple[LotSpec, ...] | None:
    lots = data.get("lots")
    if lots is None:
        return None
    if not isinstance(lots, list) or not lots or len(lots) > 20:
        raise Rejected("bad_lot")
    out = []
    for number, lot in enumerate(lots, 1):
        if not isinstance(lot, dict) or not isinstance(lot.get("kind"), str):
            raise Rejected("bad_lot")
        label = lot.get("label") or lot["kind"].replace("_", " ").capitalize()
        value = lot.get("value_eur")
        sponsor = lot.get("sponsor") or ""
        if not isinstance(label, str) or len(label) > 200 or not isinstance(sponsor, str) or len(sponsor) > 200:
            raise Rejected("bad_lot")
        if has_control_character(label):
            raise Rejected("label_control_character", where=f"lot {number}")
        if value is not None:
            try:
                value = parse_amount(value, name="value_eur")
            except InvalidNumber:
                raise Rejected("bad_field", field="value_eur") from None
        try:
            terms = read_terms(lot["kind"], lot)  # a named row, a ball limit and its fallback (RULES L20–L21)
        except LotTermsError as exc:
            raise Rejected(exc.code, where=f"lot {number}") from None
        out.append(LotSpec(lot["kind"], label.strip(), value, sponsor.strip(), **terms))
    return tuple(out)


@bp.post("/partie/start")
def partie_start():
    role = A.require_right("start_partie")
    data = json_body()
    consolation = field(data, "consolation", str, required=False)
    if consolation is not None and has_control_character(consolation):
        raise Rejected("label_control_character", where="consolation")
    drop = field(data, "drop_carried", bool, required=False, default=False)  # the carried lots left out, by choice
    record = hall().start_partie(
        lots=_lots(data), consolation=consolation, role=role, session=session_ref(), drop_carried=drop
    )
    return jsonify({"number": record.event.number, "seq": record.seq}), 201


@bp.post("/draws")
def draw():
    role = A.require_right("draw")
    data = json_body()
    if "number" not in data:
        raise Rejected("bad_field", field="number")

    def apply():
        record = hall().draw(data["number"], role=role, source="console")
        return jsonify(views.drawn(record)), 201

    return idempotent(role, data, repr(data["number"]), apply)  # a retried draw answers the first result


@bp.post("/draws/request")
def draw_request():
    """« Tirer » with nothing typed: the ball machine that waits for the speaker (the demo's) draws one ball."""
    hall().ask(DrawRequested(source="console"), role=A.require_right("draw"))
    return jsonify({"requested": True}), 202


@bp.post("/draws/undo")
def undo():
    role = A.require_right("undo")
    record = hall().undo(role=role)
    return jsonify(views.drawn(record))


@bp.post("/draws/confirm")
def confirm():
    role = A.require_right("draw")
    data = json_body()
    record = hall().confirm_proposed(data.get("number"), role=role)
    return jsonify(views.drawn(record)), 201


@bp.post("/draws/reject")
def reject():
    role = A.require_right("draw")
    hall().reject_proposed(role=role)
    return jsonify({"proposed": None})


@bp.post("/draws/resume")
def resume():
    role = A.require_right("resume")
    record = hall().resume(role=role)
    return jsonify({"status": "playing", "seq": record.seq})


@bp.post("/claims/announce")
def announce():
    role = A.require_right("announce_claim")
    record = hall().announce_claim(role=role, source="console")
    return jsonify({"status": "checking", "seq": record.seq if record else None})


@bp.post("/claims")
def claim():
    role = A.require_right("check_claim")
    data = json_body()
    card_id = field(data, "card_id", str)  # the hall refuses what cannot be an ID (bad_card_id), unjournalled
    return jsonify(views.verdict(hall().check_claim(card_id, role=role)))


@bp.get("/cards/<card_in_path:card_id>")
def card(card_id: str):
    A.require_right("card")
    view = views.card(hall().card(normalize_card_id(card_id)[:64]))
    if view is None:
        raise Rejected("unknown_card")
    return jsonify(view)


@bp.post("/lots/award")
def award():
    role = A.require_right("award")
    data = json_body()
    groups = field(data, "same_player", list, required=False, default=[])
    if not all(isinstance(g, list) and all(isinstance(c, str) for c in g) for g in groups):
        raise Rejected("bad_field", field="same_player")
    typed = field(data, "tie_break", dict, required=False)  # a physical draw: carton → number typed
    share = field(data, "share", bool, required=False, default=False)
    wins = field(data, "wins", str, required=False)  # only the hall's own direction (L14a)
    if wins is not None and wins not in TIE_WINS:  # refused whatever the hall's state, as every bad field
        raise Rejected("bad_tie_choice", wins=wins[:20])
    drawn = field(data, "draw", bool, required=False, default=False)  # the hall draws, whatever [rules] ties says
    return jsonify(
        views.award(
            hall().award(
                role=role,
                same_player=groups,  # RULES L13: one player's cartons are one claimant
                tie_break=typed,
                share=share,
                wins=wins,
                draw=drawn,
            )
        )
    )


@bp.post("/lots/tie")
def tie():
    """How the tie on the open lot is settled, said before the draw (docs/loto-rules.md L14c): fixed once said; a
    change needs ``reason`` and is journalled with it."""
    role = A.require_right("award")
    data = json_body()
    method = field(data, "method", str)
    reason = field(data, "reason", str, required=False, default="")
    if method not in TIE_METHODS:  # refused whatever the hall's state, as every bad field
        raise Rejected("bad_tie_choice", method=method[:20])
    record = hall().announce_tie(method, role=role, reason=reason, session=session_ref())
    if record is None:
        return jsonify({"method": method, "seq": None})
    return jsonify({"method": record.event.method, "previous": record.event.previous, "seq": record.seq}), 201


@bp.post("/partie/clear")
def clear():
    role = A.require_right("clear")
    data = json_body()
    force = field(data, "force", bool, required=False, default=False)
    carry = field(data, "carry", bool, required=False, default=False)  # the lots left go to the next partie
    record = hall().clear(role=role, force=force, carry=carry)
    return jsonify({"number": record.event.number, "status": "cleared", "seq": record.seq})


@bp.post("/vouchers/<code>/redeem")
def redeem(code: str):
    role = A.require_right("redeem")
    return jsonify(views.redemption(hall().redeem(code[:64], role=role)))


@bp.post("/vouchers/<code>/reprint")
def reprint(code: str):
    role = A.require_right("reprint")
    record = hall().request_reprint(code[:64], role=role)
    return jsonify({"code": record.event.code, "seq": record.seq}), 202


@bp.post("/cards/sold")
def sold():
    role = A.require_right("set_sold")
    data = json_body()
    ranges = field(data, "ranges", str)
    mark_sold = field(data, "sold", bool, required=False, default=True)
    h = hall()
    try:
        ids = CardBook.parse_id_ranges(ranges, limit=max(1, h.card_count()[0]))
    except RangeTooLarge as exc:
        raise Rejected("range_too_large", count=exc.count, limit=exc.limit) from None
    except ValueError as exc:
        raise Rejected("bad_ranges", why=str(exc)) from None
    if not ids:
        raise Rejected("bad_ranges", why="")
    record = h.set_sold(ids, mark_sold, role=role, session=session_ref())
    return jsonify({"count": len(ids), "sold": mark_sold, "seq": record.seq})


def _adopt(book: CardBook, added: int, role: str):
    record = hall().adopt_cards(book, role=role)
    return jsonify({"added": added, "total": record.event.total, "seq": record.seq}), 201


@bp.post("/cards/import")
def cards_import():
    role = A.require_right("import_cards")
    raw = read_body(MAX_UPLOAD_BYTES)  # the whole file or a 413: never a silent cut
    text = as_plain_csv(raw)  # a French spreadsheet's CSV too: semicolons, UTF-8 with BOM or Windows-1252
    try:
        book = CardBook.read_csv(io.StringIO(text), hall().config.cards.columns)
        return _adopt(book, len(book), role)
    except InvalidCardFile as exc:
        raise Rejected("bad_cards", errors=[[n, msg] for n, msg in exc.errors[:200]]) from None


@bp.post("/cards/generate")
def cards_generate():
    role = A.require_right("import_cards")
    data = json_body()
    count = _int(data, "count", 1, MAX_GENERATE)
    series = field(data, "series", str, required=False, default="A")
    seed = data.get("seed")
    start = _int(data, "start", 1, 99_999_999, default=1)
    if not isinstance(seed, (str, int, type(None))) or isinstance(seed, bool) or len(str(seed)) > 64:
        raise Rejected("bad_field", field="seed")
    try:
        cards = generate_cards(
            int(count), seed if seed is not None else series, series, hall().config.cards.columns, int(start)
        )
    except ValueError as exc:
        raise Rejected("bad_field", field="series", why=str(exc)) from None
    try:
        return _adopt(CardBook(dict(cards)), len(cards), role)
    except InvalidCardFile as exc:
        raise Rejected("bad_cards", errors=[[n, msg] for n, msg in exc.errors[:200]]) from None


@bp.get("/cards.csv")
def cards_csv():
    A.require_right("cards_csv")
    out = io.StringIO()
    hall().write_cards_csv(out)
    return current_app.response_class(
        out.getvalue(), mimetype="text/csv", headers={"Content-Disposition": "attachment; filename=cartons.csv"}
    )


@bp.get("/admin")
def admin_info():
    A.require_right("admin_info")
    h = hall()
    cfg = h.config
    tls = services().tls
    snap = h.snapshot()
    cards, sold = h.card_count()
    changed = h.pin_hashes()
    info = {
        "hall": cfg.hall.name,
        "programme": [
            {
                "number": i + 1,
                "consolation": h.partie_spec(i).consolation,
                "lots": [
                    {"kind": lot.kind, "label": lot.label, "value_eur": lot.value_eur, **views.lot_terms(lot)}
                    for lot in h.partie_spec(i).lots
                ],
            }
            for i in range(max(len(cfg.programme), snap.parties_played + 1))
        ],
        "parties_played": snap.parties_played,
        "cards": cards,
        "sold": sold,
        "sales_recorded": h.sales_recorded(),
        "pins": {r: ("" if r in changed else p) for r, p in A.auth().pins.items()},
        "devices": {d.device: views.device(d, device_sentence) for d in h.devices()},
        "tls": tls.info() if tls else None,
        "data_dir": str(cfg.data_dir),
        "rules": {"last_number": cfg.rules.last_number, "ties": cfg.rules.ties, "false_claim": cfg.rules.false_claim},
        "fingerprint": fingerprint_json(h.fingerprint()),  # the journal's, as paper prints it (docs/record.md)
    }
    return jsonify(info)


@bp.post("/devices/<name>/test")
def device_test(name: str):
    role = A.require_right("device_test")
    if name not in ("printer", "ball_machine", "keypad", "scanner"):
        raise Rejected("not_found")
    hall().ask(DeviceTestRequested(device=name), role=role)  # the printer answers with a test ticket
    status = hall().device(name)
    return jsonify(
        {"device": name, "requested": True, "status": None if status is None else views.device(status, device_sentence)}
    ), 202
