"""The salle annexe's own web face (RULES L23, INTERFACE §12): ``create_annex_app(config, annex) -> (Flask, SocketIO)``.

It never writes anything of the evening: what it shows is the main hall's (``display/annex_link.py``).

- ``/``: the main's projector page (the same template and scripts), fed by the annex's own Socket.IO with the main's
  state and events in ``seq`` order, plus « liaison perdue — attendez » while the link is lost and a big « Quine ! »
  (``annex.js``); ``GET /api/state``: the main's state as last received (same ``seq``, same draws) plus
  ``"annex": {"room", "link"}``;
- ``POST /api/room/claim`` (public, no PIN: the device is in the room), and a key of the room's keypad or its USB
  push button (``key_claim``, wired by ``hall/app/annex.py``; the same ``press_claim``, never a copy): forwarded to the main's
  ``POST /api/rooms/{room}/claim`` with the annex's token and an ``Idempotency-Key``, bounded: JSON only, one claim
  per address every ``CLAIM_EVERY_S``, at most one forward pending; while the link is lost (or the forward goes
  unanswered) the claim is kept and sent once the link is back (``202 {"kept": true}``, ``display/annex_claims.py``);
- the voice: ``/speech/…wav`` are the main's clips with this room's ``delay_ms`` (``display/annex_voice.py``),
  ``/api/speech`` the main's settings;
- ``/controle``, « Mes cartons » (``/mes-cartons``, ``/c/…``, ``/s/…``): redirected to the main hall, whose
  address the phones of the building's network reach: a controller logs in there with the main's PINs and its
  one session table (a proxy would hold staff sessions on a second origin, past the main's PIN guard and Host
  check), and a phone follows its cartons on the main's stream (or its relays) like every other phone;
- the main's other public reads the projector asks (the prices, the Wi-Fi QR codes, the ball count) passed through.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from flask import Flask, Response, jsonify, redirect, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import Babel, get_locale
from flask_socketio import SocketIO

from display import annex_words
from display.annex_claims import Claim, KeptClaims, forward, new_claim
from display.annex_link import Link, MainAway, MainRefused, call, fetch_bytes
from display.annex_voice import Clips
from display.errors import error_body, refusal_response, status_of
from display.i18n import language_switch, remember_locale, select_locale
from display.limits import SocketJSON, StrictJSONProvider, json_body
from display.page_words import js_strings
from display.rooms.pages import room_game_assets, room_strings
from hall import KIND_LABELS, LOT_KINDS, kinds_table
from hall.config import Config
from hall.refusal import Rejected

log = logging.getLogger("loto-hall.annex")

CLAIM_EVERY_S = 3.0  # one « Quine ! » per address this often (a button pressed twice is one claim)
ADDRESSES_KEPT = 4096
MAX_CLAIM_BYTES = 1024
PASSED = {  # the main's public reads the projector's page asks, and how many bytes each may be
    "/api/sales/prices": 64 * 1024,
    "/api/screen": 64 * 1024,
    "/api/stats/balls": 256 * 1024,
    "/wifi/qr.svg": 256 * 1024,
    "/wifi/page-qr.svg": 256 * 1024,
}
TO_MAIN = ("/controle", "/mes-cartons", "/c/<card_id>", "/s/<code>", "/speaker", "/admin", "/stats")


@dataclass
class Annex:
    """What the annex's app is handed: the link to the main, its clips, and who it is."""

    link: Link
    clips: Clips
    main_url: str
    room: str
    folder: str | Path | None = None  # the data folder: a claim kept while the link is lost survives a restart
    kept: KeptClaims | None = None  # made by create_annex_app
    guard: ClaimGuard | None = None  # made by create_annex_app: the bounds every « Quine ! » of the room passes
    press_key: Callable[[str | None], tuple[dict, int]] | None = None  # a key's « Quine ! » (made by create_annex_app)


class ClaimGuard:
    """One claim per address every ``CLAIM_EVERY_S`` (the table bounded), and one forward at a time."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self._last: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()
        self.pending = threading.Lock()

    def admit(self, address: str) -> int:
        """0 when ``address`` may claim now (and it is counted), else the seconds to wait."""
        now = self._clock()
        with self._lock:
            last = self._last.get(address)
            if last is not None and now - last < CLAIM_EVERY_S:
                return max(1, round(CLAIM_EVERY_S - (now - last)))
            self._last[address] = now
            self._last.move_to_end(address)
            while len(self._last) > ADDRESSES_KEPT:
                self._last.popitem(last=False)
        return 0


def create_annex_app(config: Config, annex: Annex) -> tuple[Flask, SocketIO]:
    """The annex's Flask app and its one SocketIO instance; ``annex.link.publish`` is set to broadcast on it."""
    app = Flask(__name__, template_folder=str(Path(__file__).parent / "templates"))
    app.json = StrictJSONProvider(app)
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    app.config.update(
        LOTO_LANGUAGE=config.hall.language,
        BABEL_DEFAULT_LOCALE=config.hall.language,
        BABEL_DEFAULT_TIMEZONE=config.hall.timezone,
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    Babel(app, locale_selector=select_locale)
    app.after_request(remember_locale)
    app.jinja_env.globals.update(
        language_switch=language_switch, room_strings=room_strings, room_game_assets=room_game_assets
    )
    socketio = SocketIO(app, async_mode="threading", json=SocketJSON, cors_allowed_origins=[])
    annex.link.publish = lambda name, payload: socketio.emit(name, payload)
    annex.kept = KeptClaims(annex.link, annex.folder, annex.link.publish)
    _sockets(socketio, annex.link)
    _pages(app, config, annex)
    annex.guard = ClaimGuard()
    annex.press_key = lambda kind: key_claim(app, annex, kind)
    _api(app, annex)
    _to_main(app, annex.main_url)

    @app.errorhandler(Rejected)
    def refused(exc: Rejected):
        return refusal_response(exc)

    return app, socketio


def _sockets(socketio: SocketIO, link: Link) -> None:
    def send_state() -> None:
        view = link.view()
        if view is not None:
            socketio.emit("state", view, to=request.sid)  # type: ignore[attr-defined]  # Flask-SocketIO's request

    socketio.on_event("connect", lambda auth=None: send_state())
    socketio.on_event("resync", lambda data=None: send_state())


def _pages(app: Flask, config: Config, annex: Annex) -> None:
    @app.get("/")
    def projector():
        view = annex.link.view() or {}
        words = {**js_strings(), **{k: str(v) for k, v in annex_words.ANNEX_STRINGS.items()}}
        boot = {
            "page": "projector",
            "lang": str(get_locale()),
            "strings": words,
            "role": None,
            "speech": {},  # the main's settings come from /api/speech, as on the main's projector
            "columns": config.cards.columns,
            "ties": view.get("tie_mode", config.rules.ties),
            "kinds": list(LOT_KINDS),
            "kind_labels": dict(KIND_LABELS),
            "lot_kinds": kinds_table(),
            "annex": {
                "room": annex.room,
                "link": annex.link.link,
                "kept": annex.kept is not None and annex.kept.kept is not None,
            },
        }
        return render_template("annex.html", boot=boot, page="projector", hall_name=view.get("hall") or annex.room)


def _api(app: Flask, annex: Annex) -> None:
    link = annex.link

    @app.get("/api/state")
    def state():
        view = link.view()
        if view is None:
            raise Rejected("annex/link_lost")
        return jsonify(view)

    @app.post("/api/room/claim")
    def claim():
        data = json_body(MAX_CLAIM_BYTES)
        body, status = press_claim(annex, request.remote_addr or "?", data.get("kind", None))
        return jsonify(body), status

    @app.get("/api/speech")
    def speech_settings():
        try:
            settings = call(annex.main_url + "/api/speech")
        except MainRefused as exc:
            return jsonify(exc.body), exc.status
        except MainAway:
            raise Rejected("annex/link_lost") from None
        annex.clips.renew(settings.get("clips"))
        return jsonify({**settings, "delay_ms": annex.clips.delay_ms})

    @app.post("/api/speech/report")
    def speech_report():
        return "", 204  # the main's console hears its own screens; the annex's says nothing there

    def clip(path: str) -> ResponseReturnValue:
        data = annex.clips.get(path)
        if data is None:
            return jsonify(error_body("not_found")), 404
        return Response(data, mimetype="audio/wav", headers={"Cache-Control": "no-cache"})

    app.add_url_rule("/speech/<int:n>.wav", "ball_clip", lambda n: clip(f"/speech/{n}.wav"))
    app.add_url_rule(
        "/speech/phrase/<key>.wav", "phrase_clip", lambda key: clip(f"/speech/phrase/{quote(key, safe='')}.wav")
    )

    for path, limit in PASSED.items():
        app.add_url_rule(path, "passed" + path, _passed(annex.main_url, path, limit))


def press_claim(annex: Annex, source: str, kind: object = None) -> tuple[dict, int]:
    """The room's « Quine ! », whatever pressed it (its page's button, a key of its keypad, a USB push button): the
    one path to the main hall, bounded per ``source`` (an address, or the key device), kept while the link is lost.
    ``(body, status)`` as the API answers it; raises ``Rejected`` (``bad_field``, ``annex/not_enrolled``,
    ``annex/too_many_claims``, ``annex/claim_pending``)."""
    link, guard = annex.link, annex.guard
    assert guard is not None and annex.kept is not None  # create_annex_app made them
    if kind is not None and kind not in LOT_KINDS:
        raise Rejected("bad_field", field="kind")
    if not link.token:
        raise Rejected("annex/not_enrolled")
    wait = guard.admit(source)
    if wait:
        raise Rejected("annex/too_many_claims", retry_after=wait)
    shown = (link.view() or {}).get("last")
    chosen = kind if isinstance(kind, str) else link.current_kind() or LOT_KINDS[0]
    made = new_claim(chosen, shown if isinstance(shown, int) else None)
    if annex.kept.kept is not None or link.judge() != "ok":
        return _kept(annex, annex.kept.keep(made))  # the link lost: kept, sent on its return (L23a)
    if not guard.pending.acquire(blocking=False):
        raise Rejected("annex/claim_pending")
    try:
        return _forward_claim(annex, made)
    finally:
        guard.pending.release()


def key_claim(app: Flask, annex: Annex, kind: str | None, source: str = "keypad") -> tuple[dict, int]:
    """A key's « Quine ! » (``drivers/annex_keys.py``): ``press_claim`` as the button's, outside any request; a
    refusal (a second press within the bound…) is logged and said on the room's screens, never raised."""
    with app.test_request_context("/api/room/claim", method="POST"):  # the refusal's words: the hall's language
        try:
            body, status = press_claim(annex, source, kind)
        except Rejected as exc:
            body, status = error_body(exc.key, exc.detail), status_of(exc.key)
        if status >= 400:
            log.info("salle annexe %s : « Quine ! » de %s refusé (%s)", annex.room, source, body.get("error"))
            annex.link.publish("annex_claim", {"state": "refused", "message": str(body.get("message", ""))})
    return body, status


def _forward_claim(annex: Annex, claim: Claim) -> tuple[dict, int]:
    try:
        answer = forward(annex.link, claim)
    except MainRefused as exc:
        if exc.status >= 500:  # the main restarting: kept, sent again with the same key
            assert annex.kept is not None
            return _kept(annex, annex.kept.keep(claim))
        return exc.body or error_body("bad_request"), exc.status
    except MainAway:  # unanswered: it may have reached the main; sent again with its key, it is one claim
        assert annex.kept is not None
        return _kept(annex, annex.kept.keep(claim))
    return {**answer, "room": annex.room, "kept": False}, 202


def _kept(annex: Annex, claim: Claim) -> tuple[dict, int]:
    return {"room": annex.room, "kind": claim.kind, "ball": claim.ball, "kept": True}, 202


def _passed(main_url: str, path: str, limit: int) -> Callable[[], Response]:
    def passed() -> Response:
        query = request.query_string.decode("ascii", "replace")[:512]
        try:
            data = fetch_bytes(main_url + path + ("?" + query if query else ""), limit)
        except MainRefused as exc:
            return Response(status=exc.status)
        except MainAway:
            return Response(status=503)
        mimetype = "image/svg+xml" if path.endswith(".svg") else "application/json"
        return Response(data, mimetype=mimetype)

    return passed


def _to_main(app: Flask, main_url: str) -> None:
    """The staff's pages and the phones' « Mes cartons », at the main hall (see the module's docstring)."""

    def go() -> ResponseReturnValue:
        query = request.query_string.decode("ascii", "replace")[:512]
        return redirect(main_url + request.path + ("?" + query if query else ""), code=303)

    for rule in TO_MAIN:
        app.add_url_rule(rule, "to_main" + rule, lambda **_: go())
