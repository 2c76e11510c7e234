"""``loto-hall relays``: the processes that carry the phones' sockets (INTERFACE §10), on the Pi or on a laptop.

One gunicorn arbiter, ``[server] socket_workers`` gevent workers, each on a port of its own (``socket_port``,
``socket_port + 1``, …, ``relay_ports``), which it binds itself once forked: the front (nginx) deals the phones between
them with ``least_conn``, so they spread evenly — with one shared port, the kernel handed the connections to whichever
worker was waiting, and one relay took 17 phones of the same address before the second got one. With WebSocket only,
no sticky session is needed (python-socketio's deployment notes). Each worker is a ``display.relay.Relay`` with its
``Ear`` on the queue. The arbiter replaces a worker that dies (a SIGKILL, a deaf relay ending itself) at once — the new
one takes the port left free (``_slots``); meanwhile that port refuses, and the front sends the phones to the others —
and kills one whose main loop stays silent ``RELAY_TIMEOUT_S``. On the Pi, ``loto-hall serve`` starts this beside the core and the front (``cluster.py``);
on a laptop of the hall's network, ``loto-hall relays --config FILE`` alone, pointed at the Pi's Redis and core.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import socket
import time
from typing import Any

from gunicorn.app.base import BaseApplication

from hall.app.collector import QuietCollector
from hall.app.gunicorn_app import raise_open_files_limit
from hall.app.wiring import config_from_args
from hall.config import Config

log = logging.getLogger("loto-hall")

RELAY_TIMEOUT_S = 10  # a relay whose main loop is silent this long is killed and replaced
RELAY_GRACEFUL_S = 3

_relay: dict = {}


def core_url(config: Config) -> str:
    """Where a relay fetches the state: the config's (a laptop: the Pi), else the core on this machine."""
    return config.server.core_url or f"http://127.0.0.1:{config.server.core_port}"


def trusted_fronts(config: Config) -> frozenset[str]:
    """Whose ``X-Real-IP`` a relay believes: loopback (the Pi's front), and the Pi's address for a laptop."""
    from urllib.parse import urlsplit

    hosts = {"127.0.0.1", "::1"}
    if config.server.core_url:
        hosts.add(urlsplit(config.server.core_url).hostname or "")
    return frozenset(h for h in hosts if h)


def relay_ports(config: Config, workers: int | None = None) -> list[int]:
    """The ports of this machine's relays: ``socket_port`` and the next ones, one per worker."""
    server = config.server
    return [server.socket_port + i for i in range(max(1, workers or server.socket_workers))]


def _slots(count: int) -> Any:
    """gunicorn's ``pre_fork``: the worker about to start takes the first of ``count`` ports no live worker holds."""

    def pre_fork(server: Any, worker: Any) -> None:
        taken = {getattr(w, "slot", None) for w in server.WORKERS.values()}
        worker.slot = next(i for i in range(count) if i not in taken)

    return pre_fork


def _worker_class(host: str, ports: list[int]) -> type:
    from gunicorn.sock import TCP6Socket, TCPSocket
    from gunicorn.workers.ggevent import GeventWorker

    kind = TCP6Socket if ":" in host else TCPSocket

    class RelayWorker(GeventWorker):
        """A relay binds its own port once forked (the arbiter holds none of them), and only once it is built and can
        serve: a relay that dies takes its port with it, and its replacement opens it only when a phone's handshake
        gets its state at once. Until then the port refuses, and the front sends the phones to the other relays
        (``proxy_next_upstream``) — a replacement that listened while it was still importing held the killed
        relay's 667 phones (dealt to it by ``least_conn``: it had none) for 5–8 s, until their page gave up."""

        sockets: list[Any]

        def init_process(self) -> None:
            raise_open_files_limit()
            for inherited in self.sockets:  # the arbiter's placeholder
                inherited.close()
            self.sockets = []  # bound in load_wsgi, once the relay is built
            _relay["port"] = ports[getattr(self, "slot", 0)]
            super().init_process()

        def load_wsgi(self) -> None:
            super().load_wsgi()  # the relay and its ear (RelaysApplication.load)
            from gunicorn import util

            port = _relay["port"]
            bound = _listen(kind, (host, port), self.cfg, self.log)
            # as GeventWorker.patch does for the sockets it is handed before the load (socket is gevent's by now)
            listener = socket.socket(bound.FAMILY, socket.SOCK_STREAM, fileno=bound.sock.detach())
            util.close_on_exec(listener)
            self.sockets = [listener]
            self.wait_fds = [*self.sockets, self.PIPE[0]]
            self.log.info("relais %s à l'écoute sur %s:%s (pour le frontal)", os.getpid(), host, port)

    return RelayWorker


def _listen(kind: type, address: tuple[str, int], cfg: Any, log: Any) -> Any:
    """A listening socket on ``address``, retried a moment while the relay it replaces lets the port go."""
    for attempt in range(50):
        try:
            return kind(address, cfg, log)
        except OSError as exc:
            if attempt == 49:
                # said here: gunicorn logs only « Worker exiting », and the front deals this relay's phones to the
                # others meanwhile (a bench whose relay port was another socket's lost a relay for 47 s that way)
                log.error("relais : port %s indisponible (%s) : nouvel essai par un nouveau processus", address[1], exc)
                raise SystemExit(f"relais : port {address[1]} indisponible ({exc})") from None
            time.sleep(0.1)
    raise AssertionError("unreachable")


def _worker_exit(server: Any, worker: Any) -> None:
    ear = _relay.pop("ear", None)
    if ear is not None:
        ear.stop()
    collector = _relay.pop("collector", None)
    if collector is not None:
        collector.stop()


class RelaysApplication(BaseApplication):
    """gunicorn configured in code: N relay workers, each on its own port."""

    def __init__(self, config: Config, workers: int, key: bytes):
        self.hall_config = config
        self.workers = workers
        self.key = key  # the hall's queue key: what the core sealed is all a relay believes
        super().__init__()

    def load_config(self) -> None:
        server = self.hall_config.server
        ports = relay_ports(self.hall_config, self.workers)
        for key, value in {
            "bind": ["127.0.0.1:0"],  # a placeholder: each relay binds its own port (RelayWorker)
            "workers": self.workers,
            "pre_fork": _slots(len(ports)),
            "worker_class": _worker_class(server.socket_host, ports),
            "worker_connections": server.worker_connections,
            "keepalive": max(1, round(server.header_timeout_s)),
            "timeout": RELAY_TIMEOUT_S,
            "graceful_timeout": RELAY_GRACEFUL_S,
            "control_socket_disable": True,
            "proc_name": "loto-hall-relays",
            "errorlog": "-",
            "loglevel": "info",
            "worker_exit": _worker_exit,
        }.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        """In each worker after the fork: the relay and its ear."""
        from display.relay import Relay
        from display.relay_listen import Ear

        config = self.hall_config
        relay = Relay(
            config,
            core_url=core_url(config),
            relay_id=f"{socket.gethostname()}:{os.getpid()}",
            key=self.key,
            trusted=trusted_fronts(config),
        )
        relay.port = _relay.get("port")
        ear = Ear(relay, config.server.message_queue)
        ear.start()
        relay.sio.start_background_task(relay.beat_forever)
        _relay["ear"] = ear
        # full collections between balls only, as in the core: 500 phones' sockets are ~250 000 objects
        gc.freeze()
        collector = _relay["collector"] = QuietCollector(None)
        relay.on_event = collector.activity
        collector.start()
        return relay.app


def run_relays(config: Config, workers: int | None = None) -> int:
    """Run the relays' arbiter until it stops (SIGTERM); 0 on a clean stop."""
    if not config.server.message_queue:
        log.error("relais : [server] message_queue est vide (« redis://ADRESSE_DU_PI:6379/0 »)")
        return 2
    from display.relay_seal import KEY_FILE, KeyMissing, read_key

    try:
        key = read_key(config.data_dir)  # never made here: a relay's own key would believe nobody
    except KeyMissing as exc:
        log.error(
            "relais : la clé de la file est illisible (%s). Sur le Pi, loto-hall serve la crée ; sur une seconde "
            "machine, copiez celle du Pi (/var/lib/loto-hall/%s, mode 0600, à loto-hall) : docs/install-pi.md",
            exc,
            KEY_FILE,
        )
        return 2
    RelaysApplication(config, workers or config.server.socket_workers or 1, key).run()
    return 0


def relays(args: argparse.Namespace) -> int:
    """``loto-hall relays``: the relays alone (a laptop beside the Pi)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True)
    return run_relays(config_from_args(args), getattr(args, "workers", None))
