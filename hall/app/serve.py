"""``loto-hall serve``: the production server is gunicorn (``gunicorn_app.py``), started by the command itself
so that the systemd unit, a terminal and the tests run the same thing; ``LOTO_HALL_SERVER=werkzeug`` runs
Werkzeug's threaded server in one process instead (debugging), ``LOTO_HALL_SERVER=gthread`` gunicorn's former
thread-per-connection worker (comparison); the default is gunicorn's gevent worker.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import signal
import threading
from types import FrameType

from hall.app.annex import annex_section, run_annex
from hall.app.gunicorn_app import run_gunicorn
from hall.app.lang import _
from hall.app.sdnotify import Notifier
from hall.app.start_record import mark_began
from hall.app.wiring import ServeOptions, Wiring, config_from_args, own_config_only, setup_wanted, tls_files
from hall.config import Config
from hall.net import address

log = logging.getLogger("loto-hall")

SERVER_ENV = "LOTO_HALL_SERVER"  # "gunicorn" (default, gevent worker), "gthread" or "werkzeug"


def serve(args: argparse.Namespace) -> int:
    """Run the hall until SIGTERM/SIGINT; returns 0 on a clean stop."""
    mark_began()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True)
    # Taken out of the environment: gunicorn's arbiter would send its own READY=1 far too early.
    notifier = Notifier.from_env(take=True)
    config = config_from_args(args)
    annex = annex_section(args, config)
    if annex is not None:  # a salle annexe: a follower of the main hall, no hall of its own (RULES L23)
        return run_annex(config, annex)
    interval = getattr(args, "interval", None)
    options = ServeOptions(
        demo=bool(args.demo),
        interval_s=float(interval) if interval else None,
        setup=setup_wanted(args, config),
        own_config=own_config_only(args),
    )
    if options.setup:
        log.info(_("Première mise en route : scannez le code QR du projecteur (/setup)."))
    temporary = bool(args.demo) and not getattr(args, "data_dir", None)
    if address.phones_cannot_reach(listen=config.server.host, url=config.network.url):  # QR codes to nowhere
        log.warning(
            _("Attention : %(what)s.")
            % {"what": _(address.UNREACHABLE_TEXT) % {"host": config.server.host, "url": config.hall_url}}
        )
    if args.demo:
        log.info(
            "démo : données dans %s (%s)",
            config.data_dir,
            "effacées à l'arrêt ; --data-dir DOSSIER pour les garder" if temporary else "gardées",
        )
        log.info(
            "démo : %s",
            f"une boule toutes les {options.interval_s:.1f} s"
            if options.interval_s
            else "la machine simulée tire quand l'animateur appuie sur « Tirer » (/speaker, sans numéro tapé)",
        )
    try:
        server = os.environ.get(SERVER_ENV, "gunicorn").strip().lower()
        if server == "werkzeug":
            return serve_werkzeug(config, options, notifier)
        if config.server.message_queue:
            from hall.app.cluster import serve_cluster  # INTERFACE §10: the core, the relays, the front

            return serve_cluster(config, options, notifier)
        if server not in ("gunicorn", "gevent", "gthread"):
            log.error("%s=%r : valeurs possibles gunicorn, gthread, werkzeug", SERVER_ENV, server)
            return 2
        return run_gunicorn(config, options, notifier, "gthread" if server == "gthread" else "gevent")
    finally:
        if temporary:  # the demo's temporary folder goes with it
            shutil.rmtree(config.data_dir, ignore_errors=True)
            log.info("démo : %s effacé", config.data_dir)


def serve_werkzeug(config: Config, options: ServeOptions, notifier: Notifier) -> int:
    """One process, Werkzeug's threaded server: for debugging (a thread per connection, no worker restart)."""
    from werkzeug.serving import make_server

    wiring = Wiring.build(config, options, notifier)
    try:
        tls = tls_files(config)
        server = make_server(config.server.host, config.server.port, wiring.app, threaded=True, ssl_context=tls)
    except BaseException:
        wiring.close()
        raise
    # open websockets must not hold the exit
    server.daemon_threads = True  # type: ignore[attr-defined]  # werkzeug's threaded server has it at run time

    def on_signal(signum: int, frame: FrameType | None) -> None:
        log.info("signal %s : arrêt propre", signal.Signals(signum).name)
        wiring.stopping()
        # shutdown() waits for serve_forever(), which runs in this very thread: ask from another.
        threading.Thread(target=server.shutdown, name="loto-hall-shutdown", daemon=True).start()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    wiring.serve_local_http()
    wiring.announce_when_answering(config.server.host, server.server_port, tls is not None)
    try:
        server.serve_forever()
    finally:
        server.server_close()
        wiring.close()
    return 0
