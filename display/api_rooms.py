"""The main hall's side of the salle annexe (RULES L23): the wire an annex follows the draw by.

- ``POST /api/rooms {"room"}`` (admin) → 201 ``{"room", "code"}``: a one-time code, as for a tablet
  (``display/enrolment.py``'s alphabet); ``POST /api/rooms/{room}/code`` (admin): a new one (its device replaced).
- ``POST /api/rooms/{room}/join {"code"}`` (no PIN) → ``{"room", "token"}``: the code is spent at once.
- ``POST /api/rooms/{room}/beat {"seq"}`` (``Authorization: Bearer TOKEN``, four times a second and at once after
  each ball shown) → ``{"seq"}``: ``seq`` is the last one the annex has shown, its ack (RULES L23a).
- ``POST /api/rooms/{room}/claim {"kind", "shown"?, "kept"?}`` (Bearer, ``Idempotency-Key``) → the draw held as for a claim in the
  main room; the same key again is answered the first claim.
- ``POST /api/rooms/{room}/go-on`` (speaker) → « continuer sans la salle annexe ».
- ``GET /api/rooms`` (speaker, admin): the rooms' links, as ``GET /api/state``'s ``rooms`` says them.

Parse → call the hall → answer: the rules are the hall's (``hall/door/rooms_desk.py``). A wrong code counts for
its address (``CODE_TRIES``), as the enrolment's do. The link is watched here too: a background task journals a
room newly lost (``hall.watch_rooms``), so the speaker's console hears of it before a ball is refused.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time

from flask import Blueprint, Flask, current_app, jsonify, request
from flask_babel import lazy_gettext as _l

from display import annex_words  # noqa: F401  (the pages' words of the salle annexe)
from display import auth as A
from display.current import hall
from display.enrolment import new_code, normal_code, shown_code
from display.errors import declare
from display.idempotency import idempotent
from display.limits import json_body
from display.login_guard import Budget
from display.services import Services, services, services_of
from display.views.state import room_links
from hall.refusal import Rejected

log = logging.getLogger("loto-hall.annex")
bp = Blueprint("annex_rooms", __name__, url_prefix="/api/rooms")
CODE_TRIES = (10, 60.0)  # wrong codes one address may send in a minute
WATCH_EVERY_S = 0.5  # how often the links are looked at (the limit is 3 s: RULES L23)

declare(
    "annex",
    {
        "bad_room": (422, _l("Nom de salle refusé : de 1 à %(max)s lettres, chiffres, espaces ou tirets.")),
        "room_exists": (409, _l("La salle « %(room)s » existe déjà.")),
        "too_many_rooms": (409, _l("%(max)s salles annexes au plus.")),
        "unknown_room": (404, _l("Salle annexe inconnue : « %(room)s ».")),
        "bad_code": (
            403,
            _l(
                "Code de la salle annexe faux ou déjà utilisé : demandez-en un nouveau sur /admin (« + Salle annexe »)."
            ),
        ),
        "too_many_codes": (
            429,
            _l("Trop de codes faux depuis cet appareil : réessayez dans %(retry_after)s secondes."),
        ),
        "bad_token": (403, _l("Salle annexe non reconnue : reliez-la de nouveau avec un code.")),
        "room_offline": (
            423,
            _l(
                "Liaison perdue avec la salle annexe « %(room)s » : attendez son retour, ou « continuer sans la "
                "salle annexe »."
            ),
        ),
        "room_behind": (
            423,
            _l(
                "La salle annexe « %(room)s » n'a pas encore montré le dernier numéro : la boule suivante l'attend "
                "(un instant, puis tirez de nouveau)."
            ),
        ),
        "room_online": (409, _l("La salle annexe « %(room)s » est en ligne : le tirage l'attend déjà.")),
        "not_joined": (409, _l("La salle annexe « %(room)s » n'est pas encore reliée.")),
        "already_going_on": (409, _l("Le tirage continue déjà sans la salle annexe « %(room)s ».")),
    },
    shown=("room", "ball", "max", "retry_after"),
)


class AnnexWeb:
    """One app's share of the annex's wire: the wrong codes' budget and the links' watch."""

    def __init__(self) -> None:
        self.codes = Budget(*CODE_TRIES)
        self._watching = False
        self._lock = threading.Lock()

    def watch(self, app: Flask) -> None:
        """Start the links' watch once (when a room is opened, or the app starts with rooms)."""
        with self._lock:
            if self._watching:
                return
            self._watching = True
        svc = services_of(app)
        svc.sockets.socketio.start_background_task(self._run, svc)

    @staticmethod
    def _run(svc: Services) -> None:
        while not svc.sockets.closed:
            try:
                svc.hall.watch_rooms()
            except Exception:
                log.exception("salle annexe : surveillance de la liaison")
            svc.sockets.socketio.sleep(WATCH_EVERY_S)


def install(app: Flask) -> None:
    """Register the blueprint; watch the links at once when the journal already holds rooms (a restart)."""
    svc = services_of(app)
    svc.annex = AnnexWeb()
    app.register_blueprint(bp)
    if svc.hall.room_links():
        svc.annex.watch(app)


def _annex() -> AnnexWeb:
    found = services().annex
    assert found is not None  # install() made it
    return found


def _room_made(room: str, code: str, status: int):
    _annex().watch(current_app._get_current_object())  # type: ignore[attr-defined]
    return jsonify({"room": room, "code": shown_code(code)}), status


@bp.post("")
def open_room():
    """``{"room": NAME}`` → 201 ``{"room", "code"}``."""
    role = A.require_right("room_open")
    code = new_code()
    record = hall().open_room(json_body().get("room"), code, role=role)
    return _room_made(record.event.room, code, 201)


@bp.post("/<room>/code")
def new_room_code(room: str):
    """A new one-time code for a room already open (its device replaced) → ``{"room", "code"}``."""
    role = A.require_right("room_open")
    code = new_code()
    record = hall().open_room(room, code, role=role, again=True)
    return _room_made(record.event.room, code, 200)


@bp.get("")
def links():
    """The rooms' links now (speaker, admin)."""
    A.require_right("speaker_state")
    return jsonify({"rooms": room_links(hall().room_links())})


@bp.post("/<room>/join")
def join(room: str):
    """``{"code"}`` → ``{"room", "token"}``; a wrong, spent or other hall's code is ``403 bad_code``."""
    data = json_body()
    address = request.remote_addr or "?"
    budget, now = _annex().codes, time.monotonic()
    wait = budget.wait(address, now)
    if wait:
        raise Rejected("annex/too_many_codes", retry_after=wait)
    token = secrets.token_urlsafe(32)
    try:
        record = hall().join_room(room, normal_code(data.get("code")), token)
    except Rejected as exc:
        if exc.code == "bad_code":
            budget.add(address, now)
        raise
    return jsonify({"room": record.event.room, "token": token})


def _token() -> str:
    token = A.bearer_token()
    if token is None:
        raise Rejected("annex/bad_token")
    return token


@bp.post("/<room>/beat")
def beat(room: str):
    """``{"seq": the annex's last seq}`` → ``{"seq": the hall's}``: the link is up."""
    seq = json_body().get("seq", 0)
    return jsonify({"seq": hall().room_beat(room, _token(), seq)})


@bp.post("/<room>/claim")
def claim(room: str):
    """``{"kind": "quine"|"double_quine"|"carton_plein"|null}``: the draw stops (RULES L10, L23). With an
    ``Idempotency-Key`` (the annex sends one with every claim), a claim sent again — a kept one after the link
    came back, a forward whose answer was lost — is answered the first one, never journalled twice (L23a)."""
    data = json_body()
    kind, shown, kept = data.get("kind"), data.get("shown"), data.get("kept", False)
    token = _token()

    def apply():
        record = hall().room_claim(room, token, kind, shown, kept)
        e = record.event
        return jsonify({"room": e.room, "partie": e.partie, "ball": e.ball, "kind": e.kind, "seq": record.seq})

    # the fingerprint leaves ``kept`` out: a forward unanswered, then kept and sent again, is the same claim
    return idempotent(f"annex:{room}:{token}", data, json.dumps([kind, shown]), apply)  # kept in memory only


@bp.post("/<room>/go-on")
def go_on(room: str):
    """« Continuer sans la salle annexe » (speaker): balls are drawn until the room is back."""
    role = A.require_right("room_go_on")
    record = hall().room_go_on(room, role=role)
    return jsonify({"room": record.event.room, "going_on": True, "seq": record.seq})
