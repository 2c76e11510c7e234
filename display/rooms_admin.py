"""/admin « + Salle annexe » (RULES L23): what the admin reads to start an annex device — the command line with the
hall's own address, the room and its one-time code, and a QR code of it — and the words of the admin's panel and
of the speaker's « continuer sans la salle annexe ».

- ``POST /api/rooms/{room}/command {"code"}`` (admin) → ``{"room", "code", "url", "command", "qr_svg"}``: the room
  must be open (``404 unknown_room``); the code is the one ``POST /api/rooms`` (or ``/{room}/code``) just answered,
  shown again, never checked here (the join spends it, ``display/api_rooms.py``).

The room is opened, and its code made, by ``display/api_rooms.py``: this module only says how to use them. The
address is the hall's one address (``[network] url``, else the hotspot's, else this machine's on the LAN: the one
every QR code gives), never ``localhost``: the annex is another machine of the hall's network.
"""

from __future__ import annotations

import shlex

from flask import Blueprint, Flask, jsonify
from flask_babel import lazy_gettext as _l

from display import auth as A
from display.current import config, hall
from display.enrolment import CODE_ALPHABET, CODE_LENGTH, normal_code, shown_code
from display.limits import json_body
from display.page_words import JS_STRINGS
from display.qrcode_svg import qr_svg
from hall.refusal import Rejected

bp = Blueprint("rooms_admin", __name__, url_prefix="/api/rooms")


def command_line(url: str, room: str, code: str) -> str:
    """``loto-hall serve --annex-of URL --room NAME --code CODE``, each part quoted for a shell (a room's name may
    hold spaces)."""
    return " ".join(
        ["loto-hall", "serve", "--annex-of", shlex.quote(url), "--room", shlex.quote(room), "--code", shlex.quote(code)]
    )


@bp.post("/<room>/command")
def command(room: str):
    """``{"code"}`` → the command line the annex device runs, and its QR code."""
    A.require_right("room_open")
    names = [r.room for r in hall().room_links()]
    if room not in names:
        raise Rejected("annex/unknown_room", room=room[:32])
    code = normal_code(json_body().get("code"))
    if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):  # as POST /api/rooms made it
        raise Rejected("bad_field", field="code")
    url = config().hall_url.rstrip("/")
    line = command_line(url, room, shown_code(code))
    return jsonify({"room": room, "code": shown_code(code), "url": url, "command": line, "qr_svg": qr_svg(line)})


def install(app: Flask) -> None:
    """Register the command's route (beside ``display/api_rooms.py``'s)."""
    app.register_blueprint(bp)


JS_STRINGS.update(
    {
        "rooms_admin_online": _l("en ligne"),
        "rooms_admin_lost": _l("liaison perdue : le tirage attend"),
        "rooms_admin_never": _l("pas encore reliée : lancez la commande sur son appareil"),
        "rooms_admin_going_on": _l("liaison perdue : le tirage continue sans elle"),
        "rooms_admin_seen": _l("il y a %(s)s s"),
        "rooms_admin_made": _l("Salle « %(room)s » ouverte : son code ne sert qu'une fois."),
        "rooms_admin_new_code": _l("Nouveau code"),
        "rooms_admin_new_code_ask": _l("Un nouveau code pour « %(room)s » ?"),
        "rooms_admin_new_code_text": _l(
            "Pour un appareil remplacé : l'ancien continue tant que le nouveau ne s'est pas relié avec ce code."
        ),
        "rooms_admin_copied": _l("Commande copiée."),
        "rooms_admin_none": _l("Aucune salle annexe ce soir."),
        "annex_go_on_ask": _l("Continuer sans la salle annexe « %(room)s » ?"),
        "annex_go_on_text": _l(
            "Sa liaison est perdue : ses joueurs peuvent manquer une boule, et une quine annoncée là-bas n'arrête "
            "plus le tirage. Elle reprend dès que la liaison revient."
        ),
    }
)
