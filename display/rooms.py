"""The mini-game rooms on the web (INTERFACE §7): ``/api/games/…``, ``/api/screen``, the pages ``/j``, ``/j/<code>``,
``/jeux/<code>``, and the Socket.IO ``game_watch`` → ``game`` events.

One :class:`~display.rooms_hub.RoomsHub` per app holds the :class:`~hall.minigames.room.Lobby` under one lock
(``display/rooms_hub.py``: the broadcasts, the seats' sockets, the bots' task); every route here calls the lobby
through it.
"""
from __future__ import annotations

import ipaddress
import json
import socket
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, session
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from flask_socketio import SocketIO, join_room, leave_room

from display import auth as A
from display import rooms_euchre, rooms_points_rouges
from display.errors import MESSAGES, STATUS, ApiError, error_body
from display.i18n import js_strings
from display.qrcode_svg import qr_svg
from display.rooms_hub import RoomsHub
from hall.minigames.room import Lobby, LobbySettings
from hall.minigames.room_store import RoomStore, open_lobby
from hall.minigames.table import ROOM_GAMES
from hall.rights import may

bp = Blueprint("rooms", __name__)
MAX_BODY_BYTES = 16 * 1024
GATED_PATHS = ("/api/draws", "/api/draws/confirm")      # no draw by accident while a game is on screen

# The refusals of the rooms, added to the app's table (HTTP status and the sentence for people).
STATUS.update({
    "unknown_room": 404, "unknown_game": 422, "bad_options": 422, "bad_name": 422, "illegal_move": 422,
    "bad_version": 422, "bad_screen": 422, "room_full": 409, "already_started": 409, "not_your_turn": 409,
    "stale_version": 409, "room_closed": 409, "game_over": 409, "not_started": 409, "too_many_rooms": 409,
    "game_disabled": 403, "audience_full": 409, "games_on_screen": 423,
    "too_many_seats": 409, "unknown_seat": 422, "seat_changed": 409, "seat_removed": 409,
})
MESSAGES.update({
    "unknown_room": _l("Salle de jeu inconnue : vérifiez le code."),
    "unknown_game": _l("Jeu inconnu."),
    "bad_options": _l("Option de jeu incorrecte (« %(key)s »)."),
    "bad_name": _l("Prénom refusé : de 1 à 20 caractères, sans caractères spéciaux."),
    "illegal_move": _l("Ce coup n'est pas permis maintenant."),
    "bad_version": _l("Requête incorrecte : version manquante."),
    "bad_screen": _l("Affichage inconnu : « loto » ou « game »."),
    "room_full": _l("La table est complète : vous suivez la partie en spectateur."),
    "already_started": _l("La partie a commencé : vous la suivez en spectateur."),
    "not_your_turn": _l("Ce n'est pas votre tour."),
    "stale_version": _l("Le jeu a changé entre-temps : regardez la table et rejouez."),
    "room_closed": _l("Cette salle de jeu est fermée."),
    "game_over": _l("La partie est terminée."),
    "not_started": _l("La partie n'a pas encore commencé."),
    "too_many_rooms": _l("Trop de salles de jeu ouvertes : fermez-en une d'abord."),
    "game_disabled": _l("Ce jeu est désactivé par l'administrateur."),
    "audience_full": _l("Trop de spectateurs pour cette table."),
    "games_on_screen": _l("Entracte jeux à l'écran : revenez au loto avant de tirer."),
    "too_many_seats": _l("Ce téléphone a déjà %(max)s place(s) à cette table : laissez-en aux autres."),
    "unknown_seat": _l("Place inconnue à cette table."),
    "seat_changed": _l("Les places ont changé entre-temps : regardez la liste et recommencez."),
    "seat_removed": _l("L'annonceur a libéré votre place : vous suivez la partie en spectateur."),
})

ROOM_STRINGS = {
    "your_turn": _l("À vous !"),
    "turn_of": _l("À %(name)s de jouer"),
    "waiting_players": _l("En attente des joueurs…"),
    "joined": _l("%(n)s inscrit(s) sur %(max)s places"),
    "lobby_hint": _l("Scannez le QR code avec l'appareil photo du téléphone, tapez votre prénom : c'est parti. "
                     "Les robots prennent les places libres."),
    "waiting_start": _l("Vous êtes inscrit : la partie commence bientôt."),
    "audience": _l("Vous suivez la partie en spectateur."),
    "winner": _l("%(name)s gagne !"),
    "winners": _l("Gagnants : %(names)s"),
    "draw": _l("Égalité : %(names)s"),
    "game_over": _l("Partie terminée"),
    "total": _l("Total"),
    "chips": _l("%(n)s jeton(s)"),
    "swimming": _l("nage"),
    "out": _l("éliminé"),
    "clockwise": _l("Sens horaire ↻"),
    "anticlockwise": _l("Sens inverse ↺"),
    "double_play": _l("Double coup : encore %(n)s carte(s)"),
    "round": _l("Manche %(n)s"),
    "lost_chip": _l("%(name)s perd un jeton"),
    "eliminated": _l("%(name)s est éliminé"),
    "played": _l("%(name)s joue %(card)s"),
    "bot": _l("robot"),
    "away": _l("un robot joue pour vous"),
    "back": _l("Je reprends la main"),
    "join": _l("Rejoindre la table"),
    "name": _l("Votre prénom"),
    "seat": _l("Place %(n)s"),
    "hand": _l("Votre main"),
    "roll": _l("Relancer"),
    "rolls_left": _l("Lancer %(n)s sur 3"),
    "keep_hint": _l("Touchez les dés à garder, puis relancez."),
    "appel": _l("Appel"),
    "appel_none": _l("Sans appel"),
    "sec": _l("Sec !"),
    "stop": _l("Passer"),
    "place": _l("Posez votre pion sur une case libre :"),
    "score": _l("%(n)s pt(s)"),
    "pawns_left": _l("%(n)s pions"),
    "scan": _l("Scannez pour jouer"),
    "code": _l("Code"),
    "lobo77": _l("Lobo 77"),
    "linotte": _l("La Linotte"),
    "euchre": _l("Bid Euchre"),
    "points-rouges": _l("Loto Points Rouges"),
    "lobby": _l("Inscriptions"),
    "playing": _l("En jeu"),
    "over": _l("Terminée"),
    "closed": _l("Fermée"),
    "open": _l("Ouvrir"),
    "start": _l("Lancer"),
    "close": _l("Fermer"),
    "on_screen": _l("À l'écran"),
    "show": _l("Afficher"),
    "confirm_close": _l("Fermer la salle %(code)s ?"),
    "remove_seat": _l("Libérer la place de %(name)s"),
    "confirm_remove": _l("Libérer la place de %(name)s (salle %(code)s) ?"),
    "players_n": _l("%(n)s joueurs"),
    "solitaire": _l("Solitaire (1 joueur)"),
    "no_rooms": _l("Aucune salle de jeu"),
    "refused": _l("Coup refusé"),
    "last_dice": _l("%(name)s : %(dice)s"),
    "FULL": _l("Full"), "QUINTE": _l("Quinte"), "CARRE": _l("Carré"), "SMALL": _l("Petite"), "YAM": _l("Yam"),
    "SEC": _l("Sec"), "APPEL": _l("Appel"),
}


def lobby_settings(games) -> LobbySettings:
    """The lobby's settings from the config's ``[games]`` section."""
    return LobbySettings(bot_delay_s=float(games.bot_delay_s), takeover_s=float(games.takeover_s),
                         enabled=tuple(games.enabled), max_rooms=int(games.max_rooms),
                         seats_per_address=int(games.seats_per_address))


def open_rooms(config) -> tuple[Lobby, RoomStore]:
    """The lobby replayed from ``games.sqlite`` in the data folder (the composition root closes the store)."""
    return open_lobby(config.data_dir, lobby_settings(config.games))


GAME_MODULES = (rooms_euchre, rooms_points_rouges)   # each game's own strings, routes and OpenAPI paths
STATIC = Path(__file__).resolve().parent / "static"


def room_strings() -> dict[str, str]:
    strings = {**ROOM_STRINGS}
    for module in GAME_MODULES:
        strings.update(module.STRINGS)
    return {**js_strings(), **{key: str(value) for key, value in strings.items()}}


def room_game_assets(kind: str) -> list[str]:
    """The games' own scripts (``js``) or style sheets (``css``) under ``static/{kind}/games/``, by name."""
    folder = STATIC / kind / "games"
    return sorted(f"{kind}/games/{path.name}" for path in folder.glob(f"*.{kind}")) if folder.is_dir() else []


def hub() -> RoomsHub:
    return current_app.extensions["loto_rooms"]


def _body() -> dict:
    """The JSON object sent (``{}`` when empty); 413 beyond 16 KiB, 400 for anything not a JSON object."""
    if (request.content_length or 0) > MAX_BODY_BYTES:
        raise ApiError("too_large")
    raw = request.get_data(cache=True)
    if len(raw) > MAX_BODY_BYTES:
        raise ApiError("too_large")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise ApiError("bad_json") from None
    if not isinstance(data, dict):
        raise ApiError("bad_json")
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _seat_or_401(room) -> int:
    seat = room.seat_of(_bearer())
    if seat is None:
        raise ApiError("bad_token")
    return seat


def lan_address() -> str | None:
    """This machine's address on the hall's network (no packet is sent), or ``None``."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if ipaddress.ip_address(address).is_loopback else address


def join_url(code: str) -> str:
    """The phones' address of a room: ``[server] host`` if set, else the LAN address, else the request's host."""
    server = current_app.extensions["loto_config"].server
    host_header = request.host
    port = request.host.rsplit(":", 1)[1] if ":" in host_header.rsplit("]", 1)[-1] else ""
    scheme = request.scheme
    if server.tls and port == str(server.local_port):   # the kiosk's plain loopback port: phones use HTTPS
        scheme, port = "https", str(server.port)
    host = server.host if server.host not in ("", "0.0.0.0", "::") else (lan_address() or request.host.split(":")[0])
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    default = (scheme == "http" and port == "80") or (scheme == "https" and port == "443")
    return f"{scheme}://{host}{'' if not port or default else ':' + port}/j/{code}"


# ---------------------------------------------------------------- API
@bp.get("/api/games")
def games():
    return jsonify(hub().lobby.games())


@bp.post("/api/games/switch")
def switch():
    A.require_right("games_switch")
    data = _body()
    h = hub()
    with h.lock:
        h.call(h.lobby.set_enabled, data.get("game"), data.get("enabled"))
        return jsonify(h.lobby.games())


@bp.post("/api/games/rooms")
def open_room():
    A.require_right("games")
    data = _body()
    h = hub()
    with h.lock:
        room = h.call(h.lobby.open, data.get("game"), data.get("options"))
        h.broadcast_list()
        return jsonify({"code": room.code, "join_url": join_url(room.code), "game": room.game_name,
                        "status": room.status, "options": room.options}), 201


@bp.get("/api/games/rooms")
def list_rooms():
    """The staff's list of every room; for anyone else, only what the projector shows (the room on screen)."""
    try:
        role = A.request_role()
    except ApiError:             # a phone's seat token, or a dead session: the public answer
        role = None
    h = hub()
    with h.lock:
        return jsonify(h.lobby.listing() if may(role, "games") else h.lobby.public_listing())


@bp.get("/api/games/rooms/<code>")
def get_room(code: str):
    h = hub()
    with h.lock:
        room = h.call(h.lobby.get, code)
        return jsonify({**room.public(), "join_url": join_url(room.code)})


@bp.post("/api/games/rooms/<code>/join")
def join(code: str):
    data = _body()
    h = hub()
    with h.lock:
        room, seat, token = h.call(h.lobby.join, code, data.get("name"), request.remote_addr or "")
        h.broadcast(room.code)
        h.broadcast_list()
        return jsonify({"seat": seat, "token": token, "code": room.code}), 201


@bp.get("/api/games/rooms/<code>/seat")
def seat_view(code: str):
    h = hub()
    with h.lock:
        room = h.call(h.lobby.get, code)
        seat = _seat_or_401(room)
        was_away = room.seats[seat].away
        h.lobby.touch(room, seat)
        if was_away:
            h.broadcast(room.code)
        return jsonify(room.seat_view(seat))


@bp.post("/api/games/rooms/<code>/start")
def start(code: str):
    A.require_right("games")
    h = hub()
    with h.lock:
        room = h.call(h.lobby.start, code, h.clock())
        h.broadcast(room.code)
        h.broadcast_list()
        return jsonify(room.public())


@bp.post("/api/games/rooms/<code>/moves")
def move(code: str):
    data = _body()
    h = hub()
    with h.lock:
        room = h.call(h.lobby.get, code)
        if room.seat_of(_bearer()) is None:
            raise ApiError("bad_token")
        if "move" not in data:
            raise ApiError("illegal_move")
        h.call(h.lobby.play, room.code, _bearer(), data.get("move"), data.get("version"), h.clock())
        h.moves += 1
        h.broadcast(room.code)
        if room.status == "over":
            h.broadcast_list()
        return jsonify({"version": room.match.version})


@bp.post("/api/games/rooms/<code>/remove")
def remove_seat(code: str):
    """``{"seat": n, "name"?}``: the speaker frees a seat before the start (journalled); later seats move up."""
    A.require_right("games")
    data = _body()
    h = hub()
    with h.lock:
        room, _ = h.call(h.lobby.remove_seat, code, data.get("seat"), data.get("name"))
        h.seat_removed(room.code, data["seat"])
        h.broadcast(room.code)
        h.broadcast_list()
        return jsonify(room.public())


@bp.post("/api/games/rooms/<code>/close")
def close(code: str):
    A.require_right("games")
    h = hub()
    with h.lock:
        screen_before = dict(h.lobby.screen)
        room = h.call(h.lobby.close, code)
        h.broadcast(room.code)
        h.broadcast_list()
        if h.lobby.screen != screen_before:
            h.emit_public("screen", h.lobby.screen)
        return jsonify({"code": room.code, "status": room.status})


@bp.get("/api/screen")
def get_screen():
    return jsonify(hub().lobby.screen)


@bp.post("/api/screen")
def set_screen():
    A.require_right("games")
    data = _body()
    h = hub()
    with h.lock:
        screen = h.call(h.lobby.show, data.get("show"), data.get("code"))
        h.emit_public("screen", screen)
        h.broadcast_list()
        return jsonify(screen)


@bp.before_app_request
def no_draw_during_a_break():
    """While a game is on the projector, a draw from the console is refused: the speaker comes back first."""
    if request.method == "POST" and request.path in GATED_PATHS and hub().lobby.is_break():
        raise ApiError("games_on_screen")


# ---------------------------------------------------------------- pages
def _page(template: str, page: str, status: int = 200, **extra: Any):
    config = current_app.extensions["loto_config"]
    boot = {"page": page, "lang": str(get_locale()), "strings": room_strings(), "role": session.get("role"),
            "socket_path": current_app.extensions.get("loto_public_socket_path"),   # the audience: on the relays
            "csrf": A.csrf_token() if session.get("role") else None, **extra}
    return render_template(template, boot=boot, page=page, hall_name=config.hall.name, **extra), status


@bp.get("/j")
def ask_code():
    return _page("room_phone.html", "room_ask", code=None)


@bp.get("/j/<code>")
def phone(code: str):
    h = hub()
    with h.lock:
        room = h.lobby.rooms.get(code.strip().upper()) if len(code) <= 10 else None
        if room is None:
            return _page("room_phone.html", "room_ask", 404, code=None,
                         error=str(MESSAGES["unknown_room"]))
        return _page("room_phone.html", "room_phone", code=room.code, game=room.game_name)


@bp.get("/jeux/<code>")
def screen_page(code: str):
    h = hub()
    with h.lock:
        room = h.lobby.rooms.get(code.strip().upper()) if len(code) <= 10 else None
    if room is None:
        return jsonify(error_body("unknown_room")), 404
    return _page("room_screen.html", "room_screen", code=room.code)


@bp.get("/jeux/<code>/qr.svg")
def qr(code: str):
    h = hub()
    with h.lock:
        room = h.lobby.rooms.get(code.strip().upper()) if len(code) <= 10 else None
    if room is None:
        return jsonify(error_body("unknown_room")), 404
    url = join_url(room.code)
    return Response(qr_svg(url), mimetype="image/svg+xml", headers={"X-Join-Url": url})


# ---------------------------------------------------------------- Socket.IO
def install(app, socketio: SocketIO, lobby: Lobby, config) -> RoomsHub:
    """Register the blueprint, the ``game_watch`` handlers and start the bot task."""
    h = RoomsHub(lobby, socketio, max_audience=config.games.max_audience)
    h.relay = app.extensions.get("loto_relay")
    app.extensions["loto_rooms"] = h
    app.extensions["loto_config"] = config
    app.jinja_env.globals["room_strings"] = room_strings
    app.jinja_env.globals["room_game_assets"] = room_game_assets
    app.register_blueprint(bp)
    for module in GAME_MODULES:
        module.install(app, h)

    def leave(sid: str) -> None:
        watched = h.watchers.pop(sid, None)
        if watched is None:
            return
        code, seat = watched
        room = h.lobby.rooms.get(code)
        if room is None:
            return
        if seat is None:
            room.audience = max(0, room.audience - 1)
            leave_room(f"g:{code}:a", sid=sid)
        else:
            room.seats[seat].watching = max(0, room.seats[seat].watching - 1)
            leave_room(f"g:{code}:s{seat}", sid=sid)
            if room.seats[seat].watching == 0:
                h.broadcast(code)

    @socketio.on("game_watch")
    def game_watch(data=None):
        sid = request.sid
        data = data if isinstance(data, dict) else {}
        with h.lock:
            room = h.lobby.rooms.get(data["code"].strip().upper()) \
                if isinstance(data.get("code"), str) and len(data["code"]) <= 10 else None
            if room is None:
                socketio.emit("game_error", error_body("unknown_room"), to=sid)
                return
            seat = room.seat_of(data.get("token")) if data.get("token") else None
            if data.get("token") and seat is None:
                socketio.emit("game_error", error_body("bad_token"), to=sid)
            leave(sid)
            if seat is None:
                if room.audience >= h.max_audience:
                    socketio.emit("game_error", error_body("audience_full"), to=sid)
                    return
                room.audience += 1
                join_room(f"g:{room.code}:a", sid=sid)
                socketio.emit("game", {"code": room.code, "version": room.public()["version"],
                                       "room": room.public()}, to=sid)
            else:
                was = (room.seats[seat].watching, room.seats[seat].away)
                room.seats[seat].watching += 1
                h.lobby.touch(room, seat)
                join_room(f"g:{room.code}:s{seat}", sid=sid)
                if was[0] == 0 or was[1]:
                    h.broadcast(room.code)       # the others see the seat connected again
                else:
                    socketio.emit("game", {"code": room.code, "version": room.public()["version"],
                                           "room": room.public(), "seat_view": room.seat_view(seat)}, to=sid)
            h.watchers[sid] = (room.code, seat)

    @socketio.on("rooms_watch")
    def rooms_watch(data=None):
        if may(session.get("socket_role"), "games"):
            join_room("rooms:staff")
            with h.lock:
                socketio.emit("rooms", {"rooms": h.lobby.listing(), "screen": h.lobby.screen}, to=request.sid)

    def disconnect(sid: str) -> None:
        with h.lock:
            leave(sid)

    # one Socket.IO disconnect handler for the whole app (display/sockets.py): a second would replace it
    app.extensions.setdefault("loto_on_disconnect", []).append(disconnect)

    socketio.start_background_task(h.run)
    return h


# ---------------------------------------------------------------- OpenAPI
def openapi_paths() -> dict:
    """The rooms' part of ``GET /api/openapi.json`` (INTERFACE §7), with the document's own operation maker."""
    from display.openapi import _obj as obj
    from display.openapi import _op as op
    from display.openapi import _path

    code = (_path("code", "le code de la salle, 4 lettres", "^[A-Za-z]{4}$"),)
    room = "/api/games/rooms/{code}"
    paths = {
        "/api/games": {"get": op("Les jeux des salles, et s'ils peuvent être ouverts", None, ok={"type": "array"})},
        "/api/games/switch": {"post": op("Activer ou couper un jeu", "admin",
                                         obj(game={"type": "string"}, enabled={"type": "boolean"}),
                                         ok={"type": "array"}, errors=("unknown_game",))},
        "/api/games/rooms": {
            "post": op("Ouvrir une salle", "speaker", obj(game={"enum": list(ROOM_GAMES)}, options={"type": "object"}),
                       ok_status="201",
                       errors=("unknown_game", "bad_options", "game_disabled", "too_many_rooms")),
            "get": op("Les salles ouvertes et récentes (équipe) ; pour les autres, la salle au projecteur seule",
                      None, ok={"type": "array"})},
        room: {"get": op("La salle, vue publique", None, errors=("unknown_room",), params=code)},
        room + "/join": {"post": op("Une place et son jeton pour un prénom", None,
                                    obj(name={"type": "string", "maxLength": 20}), ok_status="201",
                                    errors=("unknown_room", "bad_name", "room_full", "already_started", "room_closed",
                                            "audience_full", "too_many_seats"),
                                    params=code)},
        room + "/seat": {"get": op("La vue de la place et ses coups permis (jeton de place en Bearer)", "seat",
                                   errors=("unknown_room", "bad_token"), params=code)},
        room + "/remove": {"post": op("Libérer une place avant le début (les suivantes avancent d'un rang)", "speaker",
                                      obj(seat={"type": "integer"}, name={"type": "string"}),
                                      errors=("unknown_room", "unknown_seat", "seat_changed", "already_started",
                                              "room_closed"), params=code)},
        room + "/start": {"post": op("Les robots prennent les places vides ; la partie commence", "speaker",
                                     errors=("unknown_room", "already_started", "room_closed"), params=code)},
        room + "/moves": {"post": op("Jouer un coup de la liste permise de la place (jeton de place en Bearer)", "seat",
                                     obj(move={}, version={"type": "integer"}),
                                     errors=("unknown_room", "bad_token", "not_your_turn", "stale_version",
                                             "illegal_move", "game_over", "not_started"), params=code)},
        room + "/close": {"post": op("Fermer la salle", "speaker", errors=("unknown_room",), params=code)},
        "/api/screen": {"get": op("Ce que montre le projecteur", None),
                        "post": op("Mettre le loto ou une salle au projecteur", "speaker",
                                   obj(show={"enum": ["loto", "game"]}, code={"type": "string"}),
                                   errors=("unknown_room", "bad_screen"))},
    }
    for module in GAME_MODULES:
        paths.update(module.openapi_paths())
    return paths
