"""The rooms' API (INTERFACE §7): ``/api/games…`` and ``/api/screen``. Each route reads its request, calls one
command or snapshot of the lobby (which takes its own lock, journals, and publishes the change to the sockets),
and answers with what it returned.
"""

from __future__ import annotations

from functools import partial

from flask import Blueprint, jsonify, request

from display import auth as A
from display.limits import json_body
from display.rooms.hub import hub
from display.rooms.links import join_url
from hall.minigames import NO_MOVE, ROOM_GAMES
from hall.refusal import Rejected
from hall.rights import may

bp = Blueprint("rooms", __name__)
MAX_BODY_BYTES = 16 * 1024  # every room endpoint: a move is far shorter


@bp.get("/api/games")
def games():
    return jsonify(hub().lobby.games())


@bp.post("/api/games/switch")
def switch():
    A.require_right("games_switch")
    data = json_body(MAX_BODY_BYTES)
    return jsonify(hub().lobby.set_enabled(data.get("game"), data.get("enabled")))


@bp.post("/api/games/rooms")
def open_room():
    A.require_right("games")
    data = json_body(MAX_BODY_BYTES)
    room = hub().lobby.open(data.get("game"), data.get("options"))
    return jsonify(
        {
            "code": room.code,
            "join_url": join_url(room.code),
            "game": room.game,
            "status": room.status,
            "options": room.options,
        }
    ), 201


@bp.get("/api/games/rooms")
def list_rooms():
    """The staff's list of every room; for anyone else, only what the projector shows (the room on screen)."""
    try:
        role = A.request_role()
    except Rejected:  # a phone's seat token, or a dead session: the public answer
        role = None
    lobby = hub().lobby
    return jsonify(lobby.listing() if may(role, "games") else lobby.public_listing())


@bp.get("/api/games/rooms/<code>")
def get_room(code: str):
    room = hub().lobby.room(code)
    return jsonify({**room.public, "join_url": join_url(room.code)})


@bp.post("/api/games/rooms/<code>/join")
def join(code: str):
    data = json_body(MAX_BODY_BYTES)
    room, seat, token = hub().lobby.join(code, data.get("name"), request.remote_addr or "")
    return jsonify({"seat": seat, "token": token, "code": room.code}), 201


@bp.get("/api/games/rooms/<code>/seat")
def seat_view(code: str):
    return jsonify(hub().lobby.seat_view(code, A.bearer_token()))


@bp.post("/api/games/rooms/<code>/start")
def start(code: str):
    A.require_right("games")
    h = hub()
    return jsonify(h.lobby.start(code, h.clock()).public)


@bp.post("/api/games/rooms/<code>/moves")
def move(code: str):
    data = json_body(MAX_BODY_BYTES)
    h = hub()
    room = h.lobby.play(code, A.bearer_token(), data.get("move", NO_MOVE), data.get("version"), h.clock())
    return jsonify({"version": room.version})


@bp.post("/api/games/rooms/<code>/remove")
def remove_seat(code: str):
    """``{"seat": n, "name"?}``: the speaker frees a seat before the start (journalled); later seats move up."""
    A.require_right("games")
    data = json_body(MAX_BODY_BYTES)
    return jsonify(hub().lobby.remove_seat(code, data.get("seat"), data.get("name")).public)


@bp.post("/api/games/rooms/<code>/close")
def close(code: str):
    A.require_right("games")
    room = hub().lobby.close(code)
    return jsonify({"code": room.code, "status": room.status})


@bp.get("/api/screen")
def get_screen():
    return jsonify(hub().lobby.screen())


@bp.post("/api/screen")
def set_screen():
    A.require_right("games")
    data = json_body(MAX_BODY_BYTES)
    code = data.get("code")
    if code is not None and not isinstance(code, str):  # refused even where « loto » would not read it
        raise Rejected("bad_field", field="code")
    return jsonify(hub().lobby.show(data.get("show"), code))


# ---------------------------------------------------------------- OpenAPI
def openapi_paths() -> dict:
    """The rooms' part of ``GET /api/openapi.json`` (INTERFACE §7), with the document's own operation maker."""
    from display.openapi.parts import needing, obj, path_param
    from display.openapi.parts import op as loto_op

    op = partial(loto_op, area="rooms")
    code = (path_param("code", "le code de la salle, 4 lettres", "^[A-Za-z]{4}$"),)
    room = "/api/games/rooms/{code}"
    return {
        "/api/games": {"get": op("Les jeux des salles, et s'ils peuvent être ouverts", None, ok={"type": "array"})},
        "/api/games/switch": {
            "post": op(
                "Activer ou couper un jeu",
                "admin",
                needing(obj(game={"enum": list(ROOM_GAMES)}, enabled={"type": "boolean"}), "game", "enabled"),
                ok={"type": "array"},
                errors=("unknown_game",),
            )
        },
        "/api/games/rooms": {
            "post": op(
                "Ouvrir une salle",
                "speaker",
                needing(obj(game={"enum": list(ROOM_GAMES)}, options={"type": "object"}), "game"),
                ok_status="201",
                errors=("unknown_game", "bad_options", "game_disabled", "too_many_rooms"),
            ),
            "get": op(
                "Les salles ouvertes et récentes (équipe) ; pour les autres, la salle au projecteur seule",
                None,
                ok={"type": "array"},
            ),
        },
        room: {"get": op("La salle, vue publique", None, errors=("unknown_room",), params=code)},
        room + "/join": {
            "post": op(
                "Une place et son jeton pour un prénom",
                None,
                obj(name={"type": "string", "maxLength": 20}),
                ok_status="201",
                errors=(
                    "unknown_room",
                    "bad_name",
                    "room_full",
                    "already_started",
                    "room_closed",
                    "audience_full",
                    "name_taken",
                    "too_many_seats",
                ),
                params=code,
            )
        },
        room + "/seat": {
            "get": op(
                "La vue de la place et ses coups permis (jeton de place en Bearer)",
                "seat",
                errors=("unknown_room", "bad_token"),
                params=code,
            )
        },
        room + "/remove": {
            "post": op(
                "Libérer une place avant le début (les suivantes avancent d'un rang)",
                "speaker",
                obj(seat={"type": "integer"}, name={"type": "string"}),
                errors=("unknown_room", "unknown_seat", "seat_changed", "already_started", "room_closed"),
                params=code,
            )
        },
        room + "/start": {
            "post": op(
                "Les robots prennent les places vides ; la partie commence",
                "speaker",
                errors=("unknown_room", "already_started", "room_closed"),
                params=code,
            )
        },
        room + "/moves": {
            "post": op(
                "Jouer un coup de la liste permise de la place (jeton de place en Bearer)",
                "seat",
                obj(move={}, version={"type": "integer"}),
                errors=(
                    "unknown_room",
                    "bad_token",
                    "not_your_turn",
                    "stale_version",
                    "illegal_move",
                    "game_over",
                    "not_started",
                ),
                params=code,
            )
        },
        room + "/close": {"post": op("Fermer la table", "speaker", errors=("unknown_room",), params=code)},
        "/api/screen": {
            "get": op("Ce que montre le projecteur", None),
            "post": op(
                "Mettre le loto ou une salle au projecteur",
                "speaker",
                needing(obj(show={"enum": ["loto", "game"]}, code={"type": "string"}), "show"),
                errors=("unknown_room", "bad_screen"),
            ),
        },
    }
