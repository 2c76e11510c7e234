"""The HTTP API (INTERFACE §4): parse → call ``Hall`` → answer. Roles by token or cookie session."""
from __future__ import annotations

import hashlib
import io

from flask import Blueprint, current_app, jsonify, request, session

from display import auth as A
from display.errors import ApiError
from display.live import projector_state, staff_state, verdict_payload
from hall.cardbook import CardBook
from hall.cards import generate_cards, normalize_card_id
from hall.errors import InvalidCardFile
from hall.events import LotSpec
from hall.keypad_keys import ACTIONS, browser_keymap
from display.views import card_view

bp = Blueprint("api", __name__, url_prefix="/api")
MAX_JSON_BYTES = 64 * 1024


def hall():
    return current_app.extensions["loto_hall"]


def body() -> dict:
    """The request's JSON object (``{}`` when empty); 400 ``bad_json`` for anything else, 413 when huge."""
    raw = request.get_data(cache=True)
    if len(raw) > MAX_JSON_BYTES:
        raise ApiError("too_large")
    if not raw.strip():
        return {}
    data = request.get_json(force=True, silent=True)
    if not isinstance(data, dict):
        raise ApiError("bad_json")
    return data


def field(data: dict, name: str, kind: type | tuple, required: bool = True, default=None):
    value = data.get(name, default)
    if value is None and not required:
        return default
    if kind is int and isinstance(value, str) and value.strip().isdigit():
        return value   # the hall parses number texts itself ("42")
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ApiError("bad_field", field=name)
    return value


@bp.post("/login")
def login():
    data = body()
    return jsonify(A.login(data.get("pin")))


@bp.post("/logout")
def logout():
    session.clear()
    return jsonify({"role": None})


@bp.get("/me")
def me():
    role = A.request_role()
    return jsonify({"role": role, "csrf": A.csrf_token() if role and "Authorization" not in request.headers else None})


@bp.get("/state")
def state():
    h = hall()
    with h.lock:
        return jsonify(projector_state(h))


@bp.get("/keypad/keys")
def keypad_keys():
    """The speaker's keys for a browser: ``KeyboardEvent.code`` → digit or action, the Pi keypad's own table."""
    section = hall().config.keypad
    return jsonify({"keys": browser_keymap(section.keys if section is not None else None),
                    "actions": list(ACTIONS)})


@bp.get("/speaker/state")
def speaker_view():
    role = A.require("speaker")
    h = hall()
    with h.lock:
        return jsonify(staff_state(h, role))


def _lots(data: dict) -> tuple[LotSpec, ...] | None:
    lots = data.get("lots")
    if lots is None:
        return None
    if not isinstance(lots, list) or not lots or len(lots) > 20:
        raise ApiError("bad_lot")
    out = []
    for lot in lots:
        if not isinstance(lot, dict) or not isinstance(lot.get("kind"), str):
            raise ApiError("bad_lot")
        label = lot.get("label") or lot["kind"].replace("_", " ").capitalize()
        value = lot.get("value_eur")
        if not isinstance(label, str) or len(label) > 200 or (value is not None and not isinstance(value, (int, float))):
            raise ApiError("bad_lot")
        out.append(LotSpec(lot["kind"], label, value))
    return tuple(out)


@bp.post("/partie/start")
def partie_start():
    role = A.require("speaker")
    data = body()
    consolation = field(data, "consolation", str, required=False)
    record = hall().start_partie(lots=_lots(data), consolation=consolation, role=role)
    return jsonify({"number": record.event.number, "seq": record.seq}), 201


@bp.post("/draws")
def draw():
    role = A.require("speaker")
    data = body()
    if "number" not in data:
        raise ApiError("bad_field", field="number")
    record = hall().draw(data["number"], role=role, source="console")
    return jsonify({"number": record.event.number, "index": record.event.index, "seq": record.seq}), 201


@bp.post("/draws/request")
def draw_request():
    """« Tirer » with nothing typed: the ball machine that waits for the speaker (the demo's) draws one ball."""
    A.require("speaker")
    hall().notify("draw:requested", {"source": "console"})
    return jsonify({"requested": True}), 202


@bp.post("/draws/undo")
def undo():
    role = A.require("speaker")
    record = hall().undo(role=role)
    return jsonify({"number": record.event.number, "index": record.event.index, "seq": record.seq})


@bp.post("/draws/confirm")
def confirm():
    role = A.require("speaker")
    data = body()
    record = hall().confirm_proposed(data.get("number"), role=role)
    return jsonify({"number": record.event.number, "index": record.event.index, "seq": record.seq}), 201


@bp.post("/draws/reject")
def reject():
    role = A.require("speaker")
    hall().reject_proposed(role=role)
    return jsonify({"proposed": None})


@bp.post("/draws/resume")
def resume():
    role = A.require("speaker")
    record = hall().resume(role=role)
    return jsonify({"status": "playing", "seq": record.seq})


@bp.post("/claims/announce")
def announce():
    role = A.require("speaker", "controller")
    record = hall().announce_claim(role=role, source="console")
    return jsonify({"status": "checking", "seq": record.seq if record else None})


@bp.post("/claims")
def claim():
    role = A.require("controller", "speaker")
    data = body()
    card_id = field(data, "card_id", str)
    if len(card_id) > 64:
        raise ApiError("bad_card_id")
    h = hall()
    with h.lock:
        result = h.check_claim(card_id, role=role)
        return jsonify(verdict_payload(h, result))


@bp.get("/cards/<card_id>")
def card(card_id: str):
    A.require("controller", "speaker", "desk")
    h = hall()
    with h.lock:
        view = card_view(h, normalize_card_id(card_id)[:64])
    if view is None:
        raise ApiError("unknown_card")
    return jsonify(view)


@bp.post("/lots/award")
def award():
    role = A.require("speaker")
    data = body()
    groups = field(data, "same_player", list, required=False, default=[])
    if not all(isinstance(g, list) and all(isinstance(c, str) for c in g) for g in groups):
        raise ApiError("bad_field", field="same_player")
    typed = field(data, "tie_break", dict, required=False)          # a physical draw: carton → number typed
    share = field(data, "share", bool, required=False, default=False)
    wins = field(data, "wins", str, required=False)                 # "lowest" or "highest"
    return jsonify(hall().award(role=role, same_player=groups,   # RULES L13: one player's cartons are one claimant
                                tie_break=typed, share=share, wins=wins))


@bp.post("/partie/clear")
def clear():
    role = A.require("speaker")
    data = body()
    force = field(data, "force", bool, required=False, default=False)
    carry = field(data, "carry", bool, required=False, default=False)   # the lots left go to the next partie
    record = hall().clear(role=role, force=force, carry=carry)
    return jsonify({"number": record.event.number, "status": "cleared", "seq": record.seq})


@bp.post("/vouchers/<code>/redeem")
def redeem(code: str):
    role = A.require("desk")
    return jsonify(hall().redeem(code[:64], role=role))


@bp.post("/vouchers/<code>/reprint")
def reprint(code: str):
    role = A.require("speaker", "desk")
    record = hall().request_reprint(code[:64], role=role)
    return jsonify({"code": record.event.code, "seq": record.seq}), 202


@bp.post("/cards/sold")
def sold():
    role = A.require("desk")
    data = body()
    ranges = field(data, "ranges", str)
    is_sold = field(data, "sold", bool, required=False, default=True)
    try:
        ids = CardBook.parse_id_ranges(ranges)
    except ValueError as exc:
        raise ApiError("bad_ranges", why=str(exc)) from None
    if not ids:
        raise ApiError("bad_ranges", why="")
    record = hall().set_sold(ids, is_sold, role=role)
    return jsonify({"count": len(ids), "sold": is_sold, "seq": record.seq})


def _adopt(book: CardBook, added: int, role: str):
    h = hall()
    data_dir = h.config.data_dir
    with h.lock:
        merged = h.book.merged(book)
        merged.save(data_dir)
        digest = hashlib.sha256((data_dir / "cards.csv").read_bytes()).hexdigest()
        record = h.replace_book(merged, digest, added, role=role)
    return jsonify({"added": added, "total": len(merged), "seq": record.seq}), 201


@bp.post("/cards/import")
def cards_import():
    role = A.require("admin")
    if request.content_length and request.content_length > current_app.config["MAX_CONTENT_LENGTH"]:
        raise ApiError("too_large")
    raw = request.get_data()
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise ApiError("bad_cards", errors=[[1, "le fichier n'est pas en UTF-8"]]) from None
    try:
        book = CardBook.read_csv(io.StringIO(text), hall().config.cards.columns)
        return _adopt(book, len(book), role)
    except InvalidCardFile as exc:
        raise ApiError("bad_cards", errors=[[n, msg] for n, msg in exc.errors[:200]]) from None


@bp.post("/cards/generate")
def cards_generate():
    role = A.require("admin")
    data = body()
    count = field(data, "count", int)
    series = field(data, "series", str, required=False, default="A")
    seed = data.get("seed")
    start = field(data, "start", int, required=False, default=1)
    if not 1 <= int(count) <= 20000 or not isinstance(seed, (str, int, type(None))) or isinstance(seed, bool):
        raise ApiError("bad_field", field="count")
    try:
        cards = generate_cards(int(count), seed if seed is not None else series, series,
                               hall().config.cards.columns, int(start))
    except ValueError as exc:
        raise ApiError("bad_field", field="series", why=str(exc)) from None
    try:
        return _adopt(CardBook(dict(cards)), len(cards), role)
    except InvalidCardFile as exc:
        raise ApiError("bad_cards", errors=[[n, msg] for n, msg in exc.errors[:200]]) from None


@bp.get("/cards.csv")
def cards_csv():
    A.require("admin")
    h = hall()
    out = io.StringIO()
    with h.lock:
        h.book.write_csv(out)
    return current_app.response_class(out.getvalue(), mimetype="text/csv",
                                       headers={"Content-Disposition": "attachment; filename=cartons.csv"})


@bp.get("/admin")
def admin_info():
    A.require("admin")
    h = hall()
    cfg = h.config
    tls = current_app.extensions.get("loto_tls")
    with h.lock:
        info = {
            "hall": cfg.hall.name,
            "programme": [{"number": i + 1, "consolation": cfg.partie_spec(i).consolation,
                           "lots": [{"kind": lot.kind, "label": lot.label, "value_eur": lot.value_eur}
                                    for lot in cfg.partie_spec(i).lots]}
                          for i in range(max(len(cfg.programme), len(h.evening.parties) + 1))],
            "parties_played": len(h.evening.parties),
            "cards": len(h.book), "sold": sum(1 for cid in h.book if h.is_sold(cid)),
            "pins": dict(A.auth().pins),
            "devices": dict(h.devices),
            "tls": tls.info() if tls else None,
            "data_dir": str(cfg.data_dir),
            "rules": {"last_number": cfg.rules.last_number, "ties": cfg.rules.ties, "false_claim": cfg.rules.false_claim},
        }
    return jsonify(info)


@bp.post("/devices/<name>/test")
def device_test(name: str):
    A.require("admin")
    if name not in ("printer", "ball_machine", "keypad", "scanner"):
        raise ApiError("not_found")
    hall().notify("device:test_requested", {"device": name})   # the printer answers with a test ticket
    return jsonify({"device": name, "requested": True, "status": hall().devices.get(name)}), 202
