"""The production server: gunicorn's arbiter with one gevent worker, in which the whole hall is built.

Why this shape (docs/install-pi.md, ECOSYSTEM §3, Flask-SocketIO's deployment guide):
- one worker (``-w 1``): Socket.IO without sticky sessions, and one writer for the journal;
- gevent: a connection is a greenlet, not a thread (a thread per websocket froze the hall at 400 phones).
  The worker monkey-patches the standard library before the hall is built, so the driver threads are
  greenlets whose serial/evdev/printer waits go through gevent's ``select``; the one C call that cannot
  yield, SQLite's commit and fsync, runs in gevent's pool of real threads (``Journal``'s ``offload``, handed
  in by ``wiring``). Flask-SocketIO gets ``async_mode="gevent"`` explicitly (it would pick eventlet first);
  websockets go through simple-websocket. ``header_timeout_s`` bounds the wait for a request's headers and
  an idle keep-alive (gunicorn's ``keepalive`` is the gevent worker's timeout around the header parser);
  ``max_connections_per_address`` closes a flood from one address before it is parsed;
- ``LOTO_HALL_SERVER=gthread`` keeps the former thread-per-connection worker for comparison;
- the app is built in the worker (no preload) so the driver threads and SQLite live after the fork;
- no control socket (gunicorn 27 would create ``~/.gunicorn/gunicorn.ctl``, read-only under the unit);
- ``$NOTIFY_SOCKET`` is taken out of the environment before the arbiter starts (it would send
  READY=1 as soon as it binds); the worker sends READY/WATCHDOG/STOPPING itself, hence the unit's
  ``NotifyAccess=all``.

Stop: SIGTERM reaches the arbiter (``KillMode=mixed``), which passes it to the worker. The worker
says STOPPING=1, lets requests in flight finish for ``DRAIN_S``, then (``worker_exit``) stops the
drivers, finishes the journal write in flight under the hall lock, closes the journal and exits 0
without waiting for open websockets. The arbiter then exits 0. The pages still open when the drain ends are cut
quietly: their connections end where gunicorn kills their handlers (``handle_request``, ``handle_error``), with
no traceback in the log.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
from dataclasses import replace
from types import FrameType
from typing import Any

from gunicorn.app.base import BaseApplication
from gunicorn.workers.gthread import ThreadWorker

from hall.app.sdnotify import Notifier
from hall.app.wiring import ServeOptions, Wiring, bind_host, tls_files
from hall.config import Config

log = logging.getLogger("loto-hall")

DRAIN_S = 3  # worker: seconds for HTTP requests in flight after SIGTERM (websockets are cut)
GRACEFUL_S = 15  # arbiter: seconds before it kills a worker that did not stop (unit: TimeoutStopSec=30)
WORKER_TIMEOUT_S = 30  # arbiter: a worker whose main loop stays silent that long is killed and respawned

_worker: dict = {}  # the worker process's Wiring (one per process, set in load())


class _StopMixin:
    """What both workers do on a stop: tell systemd it began, and drain briefly."""

    stop_requested = False
    alive: bool  # gunicorn's Worker, the other base, sets these (declared for the type checker)
    cfg: Any

    def _begin_stop(self) -> None:
        if not self.stop_requested:
            self.stop_requested = True
            wiring = _worker.get("wiring")
            if wiring is not None:
                wiring.stopping()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.alive:
            self._begin_stop()
            # This process's copy of the config only: the arbiter keeps its longer GRACEFUL_S,
            # so the worker always reaches worker_exit() (journal closed) before any SIGKILL.
            self.cfg.set("graceful_timeout", DRAIN_S)
        super().handle_exit(sig, frame)  # type: ignore[misc]  # gunicorn's Worker, the next base in the MRO, has it

    def handle_quit(self, sig: int, frame: FrameType | None) -> None:
        # SIGINT/SIGQUIT (Ctrl-C): a short graceful stop too. gthread's own handle_quit shuts the
        # thread pool down inside the signal handler, which deadlocks when the signal lands while the
        # main thread is inside ThreadPoolExecutor.submit() (its lock is not reentrant): seen here.
        self.handle_exit(sig, frame)


class HallWorker(_StopMixin, ThreadWorker):
    """gunicorn's gthread worker (``LOTO_HALL_SERVER=gthread``): a thread per connection."""


def _gevent_worker_class() -> type:
    """gunicorn's gevent worker with the hall's stop and a cap of open connections per address
    (imported only when used: importing gunicorn's gevent worker imports gevent)."""
    from gunicorn.workers.ggevent import GeventWorker

    class HallGeventWorker(_StopMixin, GeventWorker):
        per_address: dict[str, int] = {}

        def init_process(self) -> None:
            raise_open_files_limit()
            super().init_process()

        def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
            import gevent

            try:  # gunicorn's async worker, under the gevent worker's own (which swallows the kill and reads on)
                return super(GeventWorker, self).handle_request(listener_name, req, sock, addr)
            except gevent.GreenletExit:
                # The stop killed this connection's handler: an open page's websocket, after DRAIN_S. The
                # connection ends here. Read on for a next request, as gunicorn does, and two greenlets would
                # wait on one socket, this one and the websocket's reader: gevent refuses (ConcurrentObjectUseError)
                # and gunicorn logs it as an ERROR with its traceback, once per page left open.
                raise StopIteration from None
            except SystemExit:
                return None

        def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
            import gevent

            if isinstance(exc, gevent.GreenletExit):  # a kept-alive connection waiting for its next request when
                client.close()  # the stop killed it (a page's long poll between two): closed, nothing went wrong
                return
            super().handle_error(req, client, addr, exc)

        def handle(self, listener: Any, client: socket.socket, addr: Any) -> None:
            limit = _per_address_limit()
            host = addr[0] if isinstance(addr, tuple) else str(addr)
            count = self.per_address.get(host, 0)
            if count >= limit:
                client.close()  # refused before a byte is parsed: one address cannot fill the pool
                return
            self.per_address[host] = count + 1
            try:
                super().handle(listener, client, addr)
            finally:
                left = self.per_address.get(host, 1) - 1
                if left > 0:
                    self.per_address[host] = left
                else:
                    self.per_address.pop(host, None)

    return HallGeventWorker


def _per_address_limit() -> int:
    wiring = _worker.get("wiring")
    if wiring is None or wiring.runtime.config.server.message_queue:
        return 1 << 30  # behind the front every peer is nginx on loopback: nginx's limit_conn counts instead
    return wiring.runtime.config.server.max_connections_per_address


def raise_open_files_limit() -> None:
    """The soft limit of open files raised to the hard one: every connection is a file descriptor."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))
        except (ValueError, OSError):
            log.warning("limite de fichiers ouverts non relevée (%s)", soft)


def _post_worker_init(worker: Any) -> None:
    wiring = _worker.get("wiring")
    if wiring is not None:
        app: HallApplication = worker.app
        wiring.serve_local_http()
        wiring.announce_when_answering(
            app.hall_config.server.host, app.hall_config.server.port, app.hall_config.server.tls
        )


def _worker_exit(server: Any, worker: Any) -> None:
    wiring = _worker.pop("wiring", None)
    if wiring is None:
        return  # never built: let gunicorn report the boot error (exit 3)
    for signum in (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)  # nothing interrupts the journal's closing now
    wiring.close()
    if getattr(worker, "stop_requested", False):
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        # Journal closed, nothing left to save: don't let open websocket threads hold the exit
        # (the thread pool's threads are joined at interpreter exit).
        os._exit(0)


class HallApplication(BaseApplication):
    """gunicorn configured in code, so ``loto-hall serve`` and the systemd unit run the same server."""

    def __init__(
        self,
        config: Config,
        options: ServeOptions,
        notifier: Notifier,
        worker: str = "gevent",
        behind_front: bool = False,
    ):
        self.hall_config = config
        self.worker = worker
        self.behind_front = behind_front  # the core of a hall with relays: on loopback, nginx in front
        self.options = replace(options, async_mode="gevent" if worker == "gevent" else "threading")
        self.notifier = notifier
        super().__init__()

    def settings(self) -> dict:
        server = self.hall_config.server
        values = {
            "bind": [
                f"127.0.0.1:{server.core_port}" if self.behind_front else f"{bind_host(server.host)}:{server.port}"
            ],
            "workers": 1,
            "control_socket_disable": True,
        }
        if self.worker == "gevent":
            values.update(
                worker_class=_gevent_worker_class(),
                worker_connections=server.worker_connections,
                keepalive=max(1, round(server.header_timeout_s)),
            )  # gevent worker: timeout around each header parse
        else:
            values.update(
                worker_class=HallWorker, threads=server.threads, keepalive=max(1, round(server.header_timeout_s))
            )
        values.update(
            {
                "graceful_timeout": GRACEFUL_S,
                "timeout": WORKER_TIMEOUT_S,
                "proc_name": "loto-hall",
                "errorlog": "-",
                "loglevel": "info",
                "post_worker_init": _post_worker_init,
                "worker_exit": _worker_exit,
            }
        )
        tls = None if self.behind_front else tls_files(self.hall_config)  # behind the front, nginx holds TLS
        if tls is not None:
            values["certfile"], values["keyfile"] = tls
        return values

    def load_config(self) -> None:
        for key, value in self.settings().items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        """Called in the worker after the fork: build the hall there (drivers, SQLite, threads)."""
        try:
            wiring = Wiring.build(self.hall_config, self.options, self.notifier)
        except Exception as exc:
            self.notifier.status(f"échec au démarrage : {exc}")
            raise
        _worker["wiring"] = wiring
        return wiring.app


def run_gunicorn(
    config: Config, options: ServeOptions, notifier: Notifier, worker: str = "gevent", behind_front: bool = False
) -> int:
    """Run the arbiter until it stops (it leaves through ``sys.exit``: 0 on a clean stop)."""
    HallApplication(config, options, notifier, worker, behind_front).run()
    return 0
