"""The rooms' pages: ``/j`` asks for a code, ``/j/<code>`` is the phone's (the QR code's target), ``/jeux/<code>``
always shows that room, ``/jeux/<code>/qr.svg`` is its QR code. The projector page ``/`` includes the room's
screen too (``templates/_room_screen.html``); each game adds its own script and style sheet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, jsonify

from display.errors import error_body, message_of
from display.page_words import js_strings
from display.pages import render_page
from display.qrcode_svg import qr_response
from display.rooms import euchre, points_rouges
from display.rooms.hub import hub
from display.rooms.links import join_url
from display.rooms.messages import ROOM_STRINGS
from display.services import services
from hall.minigames import RoomSnapshot
from hall.refusal import Rejected

bp = Blueprint("room_pages", __name__)
GAME_MODULES = (euchre, points_rouges)  # each game's own strings, routes and OpenAPI paths
STATIC = Path(__file__).resolve().parent.parent / "static"


def room_strings() -> dict[str, str]:
    """Every word the room scripts may ask for, in the request's language."""
    strings = {**ROOM_STRINGS}
    for module in GAME_MODULES:
        strings.update(module.STRINGS)
    return {**js_strings(), **{key: str(value) for key, value in strings.items()}}


def room_game_assets(kind: str) -> list[str]:
    """The games' own scripts (``js``) or style sheets (``css``) under ``static/{kind}/games/``, by name."""
    folder = STATIC / kind / "games"
    return sorted(f"{kind}/games/{path.name}" for path in folder.glob(f"*.{kind}")) if folder.is_dir() else []


def _room(code: str) -> RoomSnapshot | None:
    try:
        return hub().lobby.room(code)
    except Rejected:
        return None


def _page(template: str, page: str, status: int = 200, **extra: Any):  # boot data and template context, of any type
    config = services().config
    boot = {"socket_path": services().public_socket_path, **extra}  # the audience: relays
    return render_page(template, page, room_strings(), boot=boot, status=status, hall_name=config.hall.name, **extra)


@bp.get("/j")
def ask_code():
    return _page("room_phone.html", "room_ask", code=None)


@bp.get("/j/<code>")
def phone(code: str):
    room = _room(code)
    if room is None:
        return _page("room_phone.html", "room_ask", 404, code=None, error=message_of("rooms/unknown_room"))
    return _page("room_phone.html", "room_phone", code=room.code, game=room.game)


@bp.get("/jeux/<code>")
def screen_page(code: str):
    room = _room(code)
    if room is None:
        return jsonify(error_body("rooms/unknown_room")), 404
    return _page("room_screen.html", "room_screen", code=room.code)


@bp.get("/jeux/<code>/qr.svg")
def qr(code: str):
    room = _room(code)
    if room is None:
        return jsonify(error_body("rooms/unknown_room")), 404
    url = join_url(room.code)
    return qr_response(url, headers={"X-Join-Url": url})
