"""``create_app(hall, config) -> (Flask, SocketIO)``: the web face of the hall (pages, API, live events)."""

from __future__ import annotations

import logging
import mimetypes
import socket
from typing import TYPE_CHECKING, Any

from flask import Flask, jsonify, render_template, request
from flask_babel import Babel
from flask_socketio import SocketIO
from werkzeug.exceptions import HTTPException

from display import (
    api,
    api_buvette,
    api_door,
    api_evenings,
    api_programme,
    api_rooms,
    api_sales,
    api_tombola,
    cartons,
    network,
    pages,
    players,
    portal,
    record,
    rooms_admin,
    speech,
    stats,
)
from display import documents as documents_api
from display import preflight as preflight_api
from display import rooms as room_web
from display import setup as setup_web
from display import tournament as tournament_web
from display.auth import Auth, load_secret
from display.broadcast import engine_ping_s
from display.crowd import SocketCaps
from display.enrolment import enrollable
from display.errors import error_body, refusal_response
from display.i18n import language_switch, remember_locale, select_locale
from display.idempotency import Results
from display.limits import MAX_UPLOAD_BYTES, SocketJSON, StrictJSONProvider
from display.live import watch_setup
from display.openapi import spec
from display.pins import load_pins
from display.portal import own_hosts
from display.record import ArchiveVerdicts
from display.rooms import GameOnScreen
from display.rooms.hub import RoomsHub
from display.services import Services
from display.services import install as install_services
from display.sockets import LiveSockets
from display.speech_render import Voice
from display.staff_tls import install as install_staff_tls
from display.stats import BallCount
from display.tournament.code_guard import CodeGuard
from hall import load_or_create_secret
from hall.config import Config
from hall.minigames import Lobby, TournamentStore
from hall.ports import HallPort
from hall.refusal import Rejected

if TYPE_CHECKING:
    from display.relay_publisher import RelayPublisher

log = logging.getLogger("loto-hall.display")
mimetypes.add_type("application/wasm", ".wasm")  # WebAssembly.instantiateStreaming needs it
mimetypes.add_type("font/woff2", ".woff2")
MAX_BODY_BYTES = MAX_UPLOAD_BYTES  # a card CSV of ~60 000 cartons; JSON bodies are held to 64 KiB (limits.py)

HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
}


def _wants_json() -> bool:
    return request.path.startswith("/api") or request.path.startswith("/socket.io")


def create_app(
    hall: HallPort,
    config: Config,
    documents: dict | None = None,
    tournament: TournamentStore | None = None,
    async_mode: str = "threading",
    *,
    lobby: Lobby,
    setup: tuple[Any, Any] | None = None,
) -> tuple[Flask, SocketIO]:
    """The Flask app and its one SocketIO instance, wired to ``hall``.

    ``documents`` holds the PDF makers for the admin's downloads (``report_pdf``, ``cards_pdf``, ``table_tent_pdf``,
    the tournament's), handed in by the composition root; without them those downloads answer 404. The stores are
    the runtime's (``hall/app/runtime.py`` opens every durable file): ``tournament`` is the OSGA day's (``None``:
    its pages answer 404), ``lobby`` the mini-game rooms replayed from ``games.sqlite`` (the API draws through
    their break, as the devices do). ``setup``: the first start's wizard and the devices it tries (the program's,
    ``hall/app/setup_wizard.py``): the hall is in setup mode until it closes. ``async_mode`` is ``"gevent"`` under gunicorn's gevent worker,
    given explicitly (Flask-SocketIO would pick eventlet first when installed). Everything the app shares is built
    first (``build_services``: display/services.py's one typed object); the blueprints registered next only read it.
    """
    app = Flask(__name__)
    app.json = StrictJSONProvider(app)
    data_dir = config.data_dir
    app.config.update(
        SECRET_KEY=load_secret(data_dir),
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        JSON_SORT_KEYS=False,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_NAME="loto_session",
        SESSION_COOKIE_SECURE=bool(config.server.tls),
        LOTO_LANGUAGE=config.hall.language,
        BABEL_DEFAULT_LOCALE=config.hall.language,
        BABEL_DEFAULT_TIMEZONE=config.hall.timezone,
    )
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    Babel(app, locale_selector=select_locale)
    app.after_request(remember_locale)
    app.jinja_env.globals["language_switch"] = language_switch  # templates/_lang.html
    app.jinja_env.globals["enrol_roles"] = enrollable  # templates/_nav.html: « Ajouter une tablette »
    hall.add_hold(GameOnScreen(lobby))  # no draw while a game is on the projector, from the web or a device
    services = build_services(app, hall, config, documents, tournament, async_mode, lobby=lobby)
    socketio = services.sockets.socketio

    # then the blueprints, which only read the services (display/services.py): their order is the hooks' order
    install_staff_tls(app)  # the staff's pages and PINs over HTTPS, the phones' in HTTP
    app.register_blueprint(portal.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(documents_api.bp)
    app.register_blueprint(preflight_api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(setup_web.bp)
    if setup is not None:
        services.setup = setup
        watch_setup(hall, lambda: not setup[0].closed)
    app.register_blueprint(network.bp)
    app.register_blueprint(api_sales.bp)
    app.register_blueprint(api_tombola.bp)
    app.register_blueprint(api_tombola.page_bp)
    app.register_blueprint(api_tombola.lots_bp)
    app.register_blueprint(api_buvette.bp)
    app.register_blueprint(api_programme.bp)
    app.register_blueprint(api_evenings.bp)
    app.register_blueprint(record.bp)
    app.register_blueprint(api_door.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(cartons.bp)
    app.register_blueprint(speech.bp)
    app.register_blueprint(stats.bp)
    api_rooms.install(app)  # the salle annexe's wire (RULES L23)
    rooms_admin.install(app)  # its command line for /admin « + Salle annexe »
    tournament_web.install(app)

    @app.get("/api/openapi.json")
    def openapi():
        doc = spec()
        doc["paths"].update(room_web.openapi_paths())
        return jsonify(doc)

    @app.errorhandler(Rejected)
    def rejected(exc: Rejected):
        """Every refusal, whoever raised it: the loto core, the mini-games, the tournament, the web."""
        return refusal_response(exc)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        code = HTTP_CODES.get(exc.code or 400, "bad_request")
        status = exc.code if exc.code and 400 <= exc.code < 500 else 400
        if _wants_json():
            resp = jsonify(error_body(code))
        else:
            resp = app.make_response(
                render_template(
                    "error.html",
                    body=error_body(code),
                    hall_name=config.hall.name,
                    boot={"strings": {}, "page": "error"},
                )
            )
        allow = dict(exc.get_headers()).get("Allow")  # a 405 names the methods the address takes (RFC 9110)
        if allow:
            resp.headers["Allow"] = allow
        return resp, status

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("erreur inattendue sur %s %s", request.method, request.path)
        return jsonify(error_body("internal")), 500

    @app.after_request
    def headers(resp):
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "no-referrer")
        if not request.path.startswith("/static/"):
            resp.headers.setdefault("Cache-Control", "no-store")
        return resp

    room_web.install(app, socketio, services.rooms, services.sockets)
    if services.relay is not None:
        socketio.start_background_task(services.relay.run)
    if config.speech.enabled:
        socketio.start_background_task(speech.prerender, app)  # the first ball is not the slow one
    if services.relay is not None:  # outermost: every layer inside sees the phone's address
        app.wsgi_app = behind_front(app.wsgi_app)  # type: ignore[method-assign]
    return app, socketio


def build_services(
    app: Flask,
    hall: HallPort,
    config: Config,
    documents: dict | None,
    tournament: TournamentStore | None,
    async_mode: str,
    *,
    lobby: Lobby,
) -> Services:
    """Every service the app shares, in the order they need each other, kept as ``app``'s; the app's WSGI layers
    from the inside out: the phones' door, Socket.IO, the sockets' frame gate (``behind_front`` is put on last)."""
    data_dir = config.data_dir
    server = config.server
    auth = Auth(
        load_pins(config, data_dir),
        app.config["SECRET_KEY"],
        data_dir,
        idle_s=server.staff_idle_h * 3600,
        changed=hall.pin_hashes,
    )
    certificate = None
    if server.tls:
        from display.tls import ensure_certificate, hall_names

        certificate = ensure_certificate(data_dir, config.hall.name, hall_names(config))
        log.info("certificat TLS : empreinte SHA-256 %s", certificate.fingerprint)
    staff_certificate = None
    if server.message_queue and server.staff_port and not server.tls:
        from display.tls import ensure_certificate, hall_names

        app.config["LOTO_STAFF_PORT"] = server.staff_port  # nginx serves it (hall/app/front.py)
        staff_certificate = ensure_certificate(data_dir, config.hall.name, hall_names(config))
    gate = players.LinkGate(app.wsgi_app)  # a crowd's links, turned away first
    app.wsgi_app = gate  # type: ignore[method-assign]

    # one SocketIO for every broadcast; sessions and rooms hold per-connection state (message_queue-ready).
    # the public sockets hear a beat when nothing else went out for [server] ping_s (2 s): a phone hearing nothing
    # for 4.5 s says « hors ligne » (mes_cartons.js); Engine.IO's ping, one exchange per socket, only finds the
    # dead sockets (every 25 s); the hall waits 10 s for its answer, so a Pi slowed by a crowd drops no phone
    socketio = SocketIO(
        app,
        async_mode=async_mode,
        ping_interval=engine_ping_s(server.ping_s),
        ping_timeout=10,
        max_http_buffer_size=64 * 1024,
        json=SocketJSON,
    )
    relay = relay_queue(hall, server) if server.message_queue else None
    live = LiveSockets(
        app,
        socketio,
        hall,
        sessions=auth.sessions,
        caps=SocketCaps(server.max_sockets_per_address, server.max_public_sockets),
        beat_s=server.ping_s,
        relay=relay,
    )
    rooms = RoomsHub(lobby, socketio)
    rooms.relay = relay
    return install_services(
        app,
        Services(
            hall=hall,
            config=config,
            auth=auth,
            voice=Voice(data_dir),  # the hall's voice: clips and recordings (display/speech.py)
            documents=dict(documents or {}),
            tournament=tournament,
            tournament_codes=CodeGuard(app.config["SECRET_KEY"]),
            tls=certificate,
            staff_tls=staff_certificate,
            own_hosts=own_hosts(hall.config, socket.gethostname()),
            link_gate=gate,
            player_budgets=players.budgets(gate),
            voice_reports=players.Budget(1.0, 1),  # one report a second per address
            sockets=live,
            rooms=rooms,
            relay=relay,
            public_socket_path=public_socket_path() if relay is not None else None,
            record=ArchiveVerdicts(),
            idempotency=Results(),
            ball_count=BallCount(),
        ),
    )


def relay_queue(hall: HallPort, server) -> RelayPublisher:
    """INTERFACE §10: the core behind the front (nginx, on loopback) publishes the public events for the relays.

    The front tells the phone's address in ``X-Real-IP``: the core listens on 127.0.0.1 only then, so every peer
    is local and the header is the front's (``behind_front``). The audience pages get the relays' socket path in
    their boot (``public_socket_path``). Returns the publisher (its task is started once the app is built)."""
    from display.relay_publisher import RelayPublisher
    from display.relay_seal import KEY_FILE

    # the hall's queue key: made here if the program did not already (hall/app/cluster.py makes it before the relays)
    key = load_or_create_secret(hall.config.data_dir / KEY_FILE)
    return RelayPublisher(server.message_queue, hall, server.socket_workers, key=key)


def public_socket_path() -> str:
    """Where the audience's sockets connect with relays."""
    from display import relay_wire

    return "/" + relay_wire.PATH


def behind_front(wsgi_app):
    """The client's address from the front's ``X-Real-IP`` when the peer is loopback (the front itself), and its
    scheme from ``X-Forwarded-Proto`` (the staff's HTTPS port is nginx's then)."""

    def app(environ, start_response):
        real = environ.get("HTTP_X_REAL_IP", "").strip()
        if real and environ.get("REMOTE_ADDR") in ("127.0.0.1", "::1"):
            environ["REMOTE_ADDR"] = real
            if environ.get("HTTP_X_FORWARDED_PROTO") in ("http", "https"):
                environ["wsgi.url_scheme"] = environ["HTTP_X_FORWARDED_PROTO"]
        return wsgi_app(environ, start_response)

    return app
