"""The OpenAPI paths of the salle annexe (RULES L23, docs/interface.md): a room opened with a one-time code
(admin), joined by its device with that code, its beats and its « Quine ! » with the token the join gave
(``Authorization: Bearer``), « continuer sans la salle annexe » (speaker), and the rooms' links."""

from __future__ import annotations

from display import api_rooms  # noqa: F401  (declares the annex's refusals, named below)
from display.errors import status_of
from display.openapi.parts import BOOL, ERR, INT, STR, needing, obj, op, or_null, path_param
from hall import LOT_KINDS
from hall.refusal import LOTO

A = "annex"
# the hall's bounds (hall/door/rooms_state.ROOM_NAME_CHARS, rooms_desk.MAX_ANNEX_SEQ), said again here because the
# web reaches the core through its face only; tests/display/test_rooms_admin.py keeps them equal
ROOM_NAME_CHARS = 32
MAX_ANNEX_SEQ = 2**53
# a room's name: letters, digits, spaces or dashes, no space at either end (hall/door/rooms_state.room_name)
NAME = {"type": "string", "minLength": 1, "maxLength": ROOM_NAME_CHARS, "pattern": r"^[^\s/](?:[^/]*[^\s/])?$"}
ROOM = path_param("room", "Le nom de la salle annexe (1 à 32 lettres, chiffres, espaces ou tirets)")
CODE = {"type": "string", "minLength": 1, "maxLength": 40}
MADE = needing(obj(room=STR, code=STR), "room", "code")
LINK = needing(
    obj(room=STR, online=BOOL, last_seen_s=or_null({"type": "integer", "minimum": 0}), going_on=BOOL),
    "room",
    "online",
    "last_seen_s",
    "going_on",
)
BALL = or_null({"type": "integer", "minimum": 1, "maximum": 90})
TOKEN: list[dict[str, list[str]]] = [
    {"bearer": []}
]  # the annex's token from its join, never a PIN: the device is in the room


def _also(operation: dict, *codes: str) -> dict:
    """``operation`` with the hall's own refusals it can meet too (no partie, all its lots won, the evening closed)."""
    for code in codes:
        operation["responses"][str(status_of(f"{LOTO}/{code}"))] = ERR
    return operation


def _by_token(operation: dict) -> dict:
    """An operation the annex calls with its token: a missing, wrong or replaced one is ``403 bad_token``."""
    operation["security"] = TOKEN
    operation["x-role"] = "annex"
    return operation


def paths() -> dict:
    """The salle annexe's paths."""
    return {
        "/api/rooms": {
            "get": op(
                "Les salles annexes et leur liaison (en ligne, vue il y a N s, le tirage continue sans elle)",
                "speaker",
                ok=needing(obj(rooms={"type": "array", "items": LINK}), "rooms"),
            ),
            "post": _also(
                op(
                    "« + Salle annexe » : ouvrir une salle et lui donner un code à usage unique",
                    "admin",
                    needing(obj(room=NAME), "room"),
                    MADE,
                    "201",
                    ("bad_room", "room_exists", "too_many_rooms"),
                    area=A,
                ),
                "evening_closed",
            ),
        },
        "/api/rooms/{room}/code": {
            "post": op(
                "Un nouveau code pour une salle déjà ouverte (son appareil remplacé)",
                "admin",
                ok=MADE,
                errors=("unknown_room", "bad_room"),
                params=(ROOM,),
                area=A,
            )
        },
        "/api/rooms/{room}/command": {
            "post": op(
                "La commande à lancer sur l'appareil de la salle annexe (adresse de la salle, nom, code), et son QR code",
                "admin",
                needing(obj(code={"type": "string", "minLength": 8, "maxLength": 40}), "code"),
                needing(obj(room=STR, code=STR, url=STR, command=STR, qr_svg=STR), "room", "code", "url", "command"),
                errors=("unknown_room",),
                params=(ROOM,),
                area=A,
            )
        },
        "/api/rooms/{room}/join": {
            "post": op(
                "L'appareil de la salle annexe se relie avec son code (dépensé aussitôt) et reçoit son jeton",
                None,
                needing(obj(code=CODE), "code"),
                needing(obj(room=STR, token=STR), "room", "token"),
                errors=("unknown_room", "bad_code", "too_many_codes"),
                params=(ROOM,),
                area=A,
            )
        },
        "/api/rooms/{room}/beat": {
            "post": _by_token(
                op(
                    "La salle annexe est là (chaque seconde) ; répond le dernier seq de la salle principale",
                    None,
                    obj(seq={"type": "integer", "minimum": 0, "maximum": MAX_ANNEX_SEQ}),
                    needing(obj(seq=INT), "seq"),
                    errors=("unknown_room", "bad_token"),
                    params=(ROOM,),
                    area=A,
                )
            )
        },
        "/api/rooms/{room}/claim": {
            "post": _by_token(
                _also(
                    op(
                        "« Quine ! » en salle annexe : le tirage s'arrête comme pour une annonce dans la salle",
                        None,
                        obj(kind={"enum": list(LOT_KINDS)}),
                        needing(
                            obj(room=STR, partie=INT, ball=BALL, kind=or_null({"enum": list(LOT_KINDS)}), seq=INT),
                            "room",
                            "partie",
                            "ball",
                            "seq",
                        ),
                        errors=("unknown_room", "bad_token"),
                        params=(ROOM,),
                        area=A,
                    ),
                    "no_partie",
                    "partie_finished",
                    "evening_closed",
                )
            )
        },
        "/api/rooms/{room}/go-on": {
            "post": _also(
                op(
                    "« Continuer sans la salle annexe » : le tirage reprend tant que sa liaison est perdue",
                    "speaker",
                    ok=needing(obj(room=STR, going_on={"const": True}, seq=INT), "room", "going_on", "seq"),
                    errors=("unknown_room", "not_joined", "already_going_on", "room_online"),
                    params=(ROOM,),
                    area=A,
                ),
                "evening_closed",
            )
        },
    }
