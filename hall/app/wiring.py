"""Wires the hall, the devices, the printer and the web together (the composition root of ``loto-hall serve``).

Started by ``hall/app/serve.py`` under gunicorn (``hall/app/gunicorn_app.py``) or Werkzeug.

systemd's notify protocol: ``READY=1`` once the HTTP port answers (the drivers are started before),
``WATCHDOG=1`` from the supervisor while the hall works, ``STOPPING=1`` on SIGTERM; then the drivers
stop, the journal write in flight finishes under the hall's lock, the journal closes, exit 0.
"""

from __future__ import annotations

import argparse
import http.client
import importlib
import ipaddress
import logging
import ssl
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hall.app.ball_archive import archived_draws
from hall.app.demo import DEMO_PINS
from hall.app.runtime import Runtime
from hall.app.sdnotify import Notifier
from hall.app.supervisor import Supervisor
from hall.config import DEFAULT_PATHS, Config, HallSection, load_config

log = logging.getLogger("loto-hall")

READY_PATH = "/api/state"  # INTERFACE §4: always there, no role needed
READY_TIMEOUT_S = 120.0  # the unit's TimeoutStartSec kills us before that anyway


@dataclass(frozen=True, slots=True)
class ServeOptions:
    """What ``serve`` needs besides the config: picked in the parent, used in the worker after fork."""

    demo: bool = False
    interval_s: float | None = None  # demo: seconds between balls; None: a ball when the speaker asks for one
    async_mode: str = "threading"  # "gevent" under gunicorn's gevent worker (set by gunicorn_app)
    setup: bool = False  # the first start (INTERFACE §12): no configuration anywhere, set up from a phone
    own_config: bool = False  # the hall's own configuration (setup closed): /admin re-runs a device's step


def config_from_args(args: argparse.Namespace) -> Config:
    """The config file with the command line's ``--data-dir``, ``--host``, ``--port`` on top."""
    overrides: dict = {}
    if getattr(args, "data_dir", None):
        overrides.setdefault("hall", {})["data_dir"] = args.data_dir
    elif getattr(args, "demo", False):
        overrides.setdefault("hall", {})["data_dir"] = tempfile.mkdtemp(prefix="loto-hall-demo-")
    if getattr(args, "demo", False):
        # The demo reads its config as ``serve`` does (--config, else ./loto-hall.toml, else /etc/…): the hall's
        # name, programme and prices; its PINs stay the demo's whatever the file says (README).
        overrides["auth"] = dict(DEMO_PINS)
        if not getattr(args, "config", None) and not any(p.exists() for p in DEFAULT_PATHS):
            overrides.setdefault("hall", {})["name"] = "Loto de démonstration"
    if getattr(args, "host", None):
        overrides.setdefault("server", {})["host"] = args.host
    if getattr(args, "port", None):
        overrides.setdefault("server", {})["port"] = args.port
    if getattr(args, "demo", False) and not getattr(args, "config", None):
        overrides["games"] = {"seats_per_address": 8}  # a demo is tried from one computer: all its tabs, one address
    return load_config(getattr(args, "config", None) or _own_config(args, overrides), overrides)


def _only_own_config(args: argparse.Namespace) -> bool:
    """No configuration but the one the hall writes itself (``--config``, ``./loto-hall.toml``, ``/etc/…``)."""
    return (
        not getattr(args, "demo", False)
        and not getattr(args, "config", None)
        and not any(p.exists() for p in DEFAULT_PATHS)
    )


def _own_config(args: argparse.Namespace, overrides: dict) -> str | None:
    """The configuration the hall wrote in its data folder at its first start, when there is no other."""
    from hall.app.setup_wizard import own_config

    if not _only_own_config(args):
        return None
    own = own_config(overrides.get("hall", {}).get("data_dir") or HallSection().data_dir)
    return str(own) if own.exists() else None


def setup_wanted(args: argparse.Namespace, config: Config) -> bool:
    """Whether this start is (still) the first one: no configuration but the hall's own, and setup not closed."""
    from hall.app.setup_wizard import setup_closed

    return _only_own_config(args) and not setup_closed(config.data_dir)


def own_config_only(args: argparse.Namespace) -> bool:
    """The hall runs from the configuration it wrote itself (or none yet): /admin may re-run a device's step."""
    return _only_own_config(args)


def _setup(config: Config, first_start: bool) -> tuple[Any, Any]:
    """The wizard and the devices it tries; at the first start, « Loto-Setup » up when no wired network answers."""
    from hall.app.setup_devices import SetupDevices
    from hall.app.setup_wizard import SetupWizard

    hotspot = None
    if first_start:
        from hall.app.setup_hotspot import SetupHotspot

        hotspot = SetupHotspot(config.network)
        hotspot.open()
    return SetupWizard(config.data_dir, hotspot=hotspot), SetupDevices()


def tls_files(config: Config) -> tuple[str, str] | None:
    """(certificate, key) for HTTPS when ``[server] tls`` is on, made on first start by the web layer."""
    if not config.server.tls:
        return None
    from display.tls import ensure_certificate, hall_names  # the display's area: it also shows the fingerprint

    return ensure_certificate(config.data_dir, config.hall.name, hall_names(config)).ssl_context


DOCUMENTS = {  # the papers /admin downloads, by name: (module, function), imported at the first download
    "report_pdf": ("hall.app.paper.report_pdf", "write_report_pdf"),
    "report_xlsx": ("hall.app.paper.report_xlsx", "write_report_xlsx"),
    "cards_pdf": ("hall.app.paper.sheets", "write_cards_pdf"),
    "table_tent_pdf": ("hall.app.paper.table_tent", "write_table_tent_pdf"),
    "tombola_reglement_pdf": ("hall.app.paper.tombola_pdf", "write_reglement_pdf"),
    "tournament_sheets_pdf": ("hall.app.paper.tournament_pdf", "write_sheets_pdf"),
    "tournament_standings_pdf": ("hall.app.paper.tournament_pdf", "write_standings_pdf"),
    "preflight": ("hall.app.preflight", "preflight"),  # not a paper: the pre-flight's checks, run from /admin
}


def lazy(module: str, name: str) -> Callable[..., Any]:
    """``module.name``, imported at its first call: reportlab and openpyxl cost a Pi 4 about a second at every
    start, and the start needs none of them to draw: a restart after a power cut is ready to draw sooner."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


def documents() -> dict[str, Callable[..., Any]]:
    """The makers handed to the web (``create_app(documents=...)``), each importing its module when first used."""
    return {key: lazy(module, name) for key, (module, name) in DOCUMENTS.items()}


@dataclass
class Wiring:
    """One running hall: the runtime with its services, the web app, the supervisor, systemd's notifier."""

    runtime: Runtime
    app: Any
    socketio: Any
    notifier: Notifier
    supervisor: Supervisor
    _closed: threading.Event = field(default_factory=threading.Event)
    _local: Any = None
    _staff: Any = None
    async_mode: str = "threading"
    demo: bool = False  # a demonstration: a port already taken is worth a warning, not an error

    def _side_server(self, host: str, port: int, tls: tuple[str, str] | None) -> Any:
        """The app on one more listener, served in a thread (a greenlet under gevent); ``tls``: (certificate, key)."""
        if self.async_mode == "gevent":
            options = {"certfile": tls[0], "keyfile": tls[1]} if tls else {}
            side = _side_wsgi_server()((host, port), self.app, log=None, **options)
            side.init_socket()
            side.shutdown = side.stop
        else:
            from werkzeug.serving import make_server

            side = make_server(host, port, self.app, threaded=True, ssl_context=tls)
        threading.Thread(target=side.serve_forever, name=f"loto-hall-port-{port}", daemon=True).start()
        return side

    def serve_staff_tls(self) -> None:
        """Without ``[server] tls``: the staff's pages and logins over HTTPS on ``[server] staff_port`` with the
        hall's own certificate (display/staff_tls.py sends a stranger's browser there); the phones stay on HTTP."""
        server = self.runtime.config.server
        if server.tls or not server.staff_port or self._staff is not None or server.message_queue:
            return  # with relays, nginx serves the staff's port too (hall/app/front.py)
        from display.services import services_of
        from display.tls import ensure_certificate, hall_names

        config = self.runtime.config
        certificate = ensure_certificate(config.data_dir, config.hall.name, hall_names(config))
        try:
            self._staff = self._side_server(server.host, server.staff_port, certificate.ssl_context)
        except OSError as exc:
            # a real hall's staff would type their PINs in clear: an error; a demo on a computer where the port
            # is taken (another demo, another program) goes on, its staff's pages on plain HTTP: a warning
            (log.warning if self.demo else log.error)(
                "port %s indisponible pour l'équipe en HTTPS : les pages de l'équipe restent en clair (%s)",
                server.staff_port,
                exc,
            )
            return
        self.app.config["LOTO_STAFF_PORT"] = server.staff_port
        services_of(self.app).staff_tls = certificate  # its fingerprint on /admin
        log.info(
            "pages de l'équipe : https://…:%s/ (certificat de la salle, empreinte SHA-256 %s)",
            server.staff_port,
            certificate.fingerprint,
        )

    def serve_local_http(self) -> None:
        """With ``[server] tls``: the same app in plain HTTP on 127.0.0.1 only, so the projector kiosk on the
        Pi keeps ``http://localhost:LOCAL_PORT`` (phones need HTTPS for their cameras; the kiosk does not).
        Without it, the staff's HTTPS port (``serve_staff_tls``)."""
        self.serve_staff_tls()
        server = self.runtime.config.server
        if not server.tls or not server.local_port or self._local is not None or server.message_queue:
            return  # with relays, nginx serves the local port too (hall/app/front.py)
        try:
            self._local = self._side_server("127.0.0.1", server.local_port, None)
        except OSError as exc:
            log.error("port local %s indisponible pour le projecteur : %s", server.local_port, exc)
            self._local = None
            return
        log.info("projecteur local : http://localhost:%s/", server.local_port)

    @classmethod
    def build(cls, config: Config, options: ServeOptions, notifier: Notifier) -> Wiring:
        """Open the data folder, start the drivers and the print queue, build the web app."""
        from display.app import create_app
        from display.services import services_of
        from drivers.inputs import start_inputs
        from drivers.printer import start_printing
        from hall.app.collector import QuietCollector
        from hall.minigames import inline

        notifier.status("ouverture du journal")
        gevent = options.async_mode == "gevent"
        threads = real_threads() if gevent else None  # blocking C calls out of the event loop (see real_threads)
        # every durable file: the journal, the rooms', the tournament's
        runtime = Runtime.open(config, offload=threads, think=threads or inline)
        try:
            if options.demo:
                from hall.app.demo import prepare_demo

                prepare_demo(runtime)
            # the devices call the hall itself: the games' break is a hold on it (create_app registers it below,
            # before any device starts)
            runtime.services += start_inputs(
                runtime.hall, config, demo=options.demo, data_dir=runtime.data_dir, interval_s=options.interval_s
            )
            runtime.services += start_printing(runtime.hall, config, demo=options.demo, data_dir=runtime.data_dir)
            runtime.services.append(QuietCollector(runtime.hall))  # full collections between balls
            app, socketio = create_app(
                runtime.hall,
                config,
                documents=documents(),
                tournament=runtime.tournament,
                async_mode=options.async_mode,
                lobby=runtime.lobby,
                setup=_setup(config, options.setup) if options.setup or options.own_config else None,
            )
            services_of(app).archived_draws = archived_draws  # the ball count reads the archived journals
            if threads:
                offload_pin_checks(app, threads)
                from display.sessions import run_writes_in

                services_of(app).record.offload = threads  # an archived journal's hashes out of the event loop
                run_writes_in(threads)  # and the side files' fsyncs
                services_of(app).voice.offload = threads  # espeak-ng and the clips' fsync
            notifier.status("démarrage des appareils")
            runtime.start_services()
        except BaseException:
            runtime.close()
            raise
        log.info("données : %s", runtime.data_dir.resolve())
        return cls(
            runtime,
            app,
            socketio,
            notifier,
            Supervisor(runtime.hall, runtime.services, notifier),
            async_mode=options.async_mode,
            demo=options.demo,
        )

    def announce_when_answering(self, host: str, port: int, tls: bool) -> threading.Thread:
        """In a thread: wait until the HTTP port answers, then READY=1 and start the watchdog pings."""

        def run() -> None:
            started = time.monotonic()
            if not wait_until_answering(host, port, tls, READY_TIMEOUT_S, stop=self._closed):
                log.error("le port %s ne répond pas : READY=1 non envoyé", port)
                return
            log.info("prêt en %.2f s (http%s://%s:%s)", time.monotonic() - started, "s" if tls else "", host, port)
            auth = self.runtime.config.auth
            if auth.speaker_pin == DEMO_PINS["speaker_pin"]:
                scheme = "https" if tls else "http"
                log.info(
                    "démo : projecteur %s://localhost:%s/ · /speaker (PIN %s) · /controle (PIN %s) · "
                    "/lots (PIN %s) · /admin (PIN %s)",
                    scheme,
                    port,
                    auth.speaker_pin,
                    auth.controller_pin,
                    auth.desk_pin,
                    auth.admin_pin,
                )
            self.notifier.ready()
            self._keep_start_time()
            self.supervisor.start()  # its first tick sends STATUS= with the partie and the devices

        thread = threading.Thread(target=run, name="loto-hall-ready", daemon=True)
        thread.start()
        return thread

    def _keep_start_time(self) -> None:
        """How long this start took, kept for ``loto-hall doctor`` (``hall/app/start_record.py``)."""
        from hall.app.start_record import record_ready

        try:
            log.info("démarrage complet en %.2f s", record_ready(self.runtime.data_dir))
        except OSError as exc:  # a full or read-only card: the hall serves anyway, the doctor will not know
            log.warning("durée du démarrage non gardée : %s", exc)

    def stopping(self) -> None:
        """Tell systemd the stop has begun (called from the SIGTERM handler: no lock taken here)."""
        self.notifier.stopping("arrêt en cours : fin de l'écriture du journal")

    def close(self) -> None:
        """Stop the pings and the drivers, finish the journal write in flight, close the journal. Idempotent."""
        if self._closed.is_set():
            return
        self._closed.set()
        from display.services import services_of

        for side in (self._local, self._staff):
            if side is not None:
                side.shutdown()
        relay = services_of(self.app).relay
        if relay is not None:
            relay.stop()  # whatever Redis did not take is in the journal: the relays resync on return
        try:
            self.supervisor.stop()
        finally:
            services_of(self.app).rooms.stop()  # the bots' task
            # stops the services, then takes the hall lock before closing the journal; the rooms' file after the
            # room change in flight, the tournament's: every event is already committed, this only releases them
            self.runtime.close()
        log.info("journal fermé proprement (dernier événement n° %s)", self.runtime.hall.last_seq())


def _side_wsgi_server() -> type:
    """gevent's WSGI server for a side port, quiet about a browser that refuses the hall's certificate: a tablet
    not yet told to trust it closes the handshake (« certificate unknown »), several times a page, and gevent
    would print each as a failed greenlet with its traceback."""
    from gevent.pywsgi import WSGIServer

    class SideServer(WSGIServer):
        def wrap_socket_and_handle(self, client_socket: Any, address: Any) -> Any:
            try:
                return super().wrap_socket_and_handle(client_socket, address)
            except ssl.SSLError as exc:
                log.debug("HTTPS : poignée de main refusée par %s (%s)", address[0], exc.reason or exc)
                return None

    return SideServer


def real_threads() -> Callable[[Callable[[], Any]], Any]:
    """Under gevent: a runner of blocking calls in gevent's pool of real threads; the calling greenlet waits
    there while every other connection is served. Handed to the journal (SQLite's commit and fsync, C calls
    that would hold the whole event loop: the greenlet that draws waits there, holding the hall's lock) and
    to the lobby (a bot's search of tens of milliseconds, hundreds on a Pi; the interpreter's switch interval
    shares the CPU with the connections meanwhile). Serial, evdev and printer waits already yield
    (gevent's ``select``/sockets)."""
    import gevent

    pool = gevent.get_hub().threadpool
    return lambda fn: pool.apply(fn)


def offload_pin_checks(app: Any, threads: Callable[[Callable[[], Any]], Any]) -> None:
    """Under gevent: a login's PBKDF2 (a PIN changed on /admin whose fast check is missing, display/pins.py)
    runs in gevent's pool of real threads; hashlib releases the GIL meanwhile, so every connection is served."""
    from display.services import services_of

    services_of(app).auth.book.offload = threads


def probe_host(host: str) -> str:
    """Where to knock to see our own port: loopback when listening on every address."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "::1"
    return host


def answers(host: str, port: int, tls: bool, timeout_s: float = 2.0) -> bool:
    """Whether ``GET /api/state`` gets an HTTP answer below 500."""
    host = probe_host(host)
    try:
        conn: http.client.HTTPConnection
        if tls:
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE  # our own self-signed certificate, on loopback
            conn = http.client.HTTPSConnection(host, port, timeout=timeout_s, context=context)
        else:
            conn = http.client.HTTPConnection(host, port, timeout=timeout_s)
        try:
            conn.request("GET", READY_PATH)
            return conn.getresponse().status < 500
        finally:
            conn.close()
    except (OSError, http.client.HTTPException):
        return False


def wait_until_answering(
    host: str, port: int, tls: bool, timeout_s: float, stop: threading.Event | None = None
) -> bool:
    """Poll the port (backing off from 20 ms to 0.5 s) until it answers, the timeout passes or ``stop`` is set."""
    stop = stop or threading.Event()
    deadline = time.monotonic() + timeout_s
    delay = 0.02
    while time.monotonic() < deadline and not stop.is_set():
        if answers(host, port, tls):
            return True
        stop.wait(delay)
        delay = min(delay * 2, 0.5)
    return False


def bind_host(host: str) -> str:
    """``host`` unchanged when it is an address or a name; brackets for IPv6 in a gunicorn bind."""
    try:
        return f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:
        return host
