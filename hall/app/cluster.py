"""``loto-hall serve`` with a queue and relays (INTERFACE §10): the core, the relays and the front, kept running.

Three children of this process, each restarted when it dies (after ``RESTART_S``), all stopped on SIGTERM/SIGINT:
- the core: the hall as without relays (``gunicorn_app.py``: one gevent worker, the one writer: journal, devices,
  API, staff consoles, projectors), listening on 127.0.0.1:``core_port``; it publishes the public events to Redis;
- the relays (``relays.py``): ``socket_workers`` gevent workers on ``socket_port``, the phones' sockets;
- the front (``front.py``): Debian's nginx on ``host:port``, the one address everybody uses.
systemd's notifications come from the core's worker (``NotifyAccess=all``): READY=1 once the front answers
``/api/state`` (through it to the core), the watchdog from its supervisor. Redis is Debian's own service.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType

from hall.app.front import nginx_command, write_front
from hall.app.nginx_path import nginx_binary
from hall.app.sdnotify import Notifier
from hall.app.wiring import ServeOptions
from hall.config import Config

log = logging.getLogger("loto-hall")

RESTART_S = 1.0  # a child that died is started again after this
STOP_S = 20.0  # each child's time to stop after SIGTERM before SIGKILL (the unit's TimeoutStopSec is 30)
WATCH_S = 0.2


@dataclass
class Child:
    """One child process: how to start it, its pid, how many times it was started."""

    name: str
    start: Callable[[], int]
    stop_signal: int = signal.SIGTERM
    pid: int | None = None
    starts: int = 0

    def spawn(self) -> None:
        self.pid = self.start()
        self.starts += 1
        log.info("%s démarré (pid %s)", self.name, self.pid)


def _forked(run: Callable[[], int]) -> int:
    """Run ``run`` in a child process of its own; the parent gets the pid."""
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, signal.SIG_DFL)
        code = run()
    except SystemExit as exc:  # gunicorn's arbiter leaves through sys.exit
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        log.exception("processus enfant en échec")
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def serve_cluster(config: Config, options: ServeOptions, notifier: Notifier) -> int:
    """Run the core, the relays and the front until SIGTERM/SIGINT; 0 on a clean stop."""
    from display.relay_wire import PATH
    from hall.app.gunicorn_app import run_gunicorn
    from hall.app.relays import run_relays

    binary = nginx_binary()
    if binary is None:
        log.error(
            "[server] message_queue : le frontal nginx est absent (sudo apt-get install nginx-light), "
            "ou videz message_queue pour un seul processus"
        )
        return 2
    prefix, conf = write_front(config, PATH)
    check = subprocess.run([*nginx_command(binary, prefix, conf), "-t", "-q"], capture_output=True, text=True)
    if check.returncode != 0:
        log.error("configuration du frontal refusée par nginx : %s", check.stderr.strip())
        return 2
    from hall.net.values import queue_has_password, queue_is_local

    if not queue_is_local(config.server.message_queue) and not queue_has_password(config.server.message_queue):
        log.warning(
            "!!! La file %s écoute sur le réseau de la salle SANS mot de passe : les téléphones de ce "
            "réseau peuvent s'y connecter. Mettez requirepass dans redis.conf et "
            "redis://:MOT_DE_PASSE@… dans message_queue (docs/install-pi.md) !!!",
            config.server.message_queue,
        )

    from display.relay_seal import KEY_FILE
    from hall import load_or_create_secret

    load_or_create_secret(config.data_dir / KEY_FILE)  # the queue's key, before the core and the relays read it
    children = [Child("cœur", lambda: _forked(lambda: run_gunicorn(config, options, notifier, behind_front=True)))]
    if config.server.socket_workers:
        children.append(Child(f"relais ×{config.server.socket_workers}", lambda: _forked(lambda: run_relays(config))))
    children.append(
        Child(
            "frontal nginx",
            lambda: subprocess.Popen(nginx_command(binary, prefix, conf)).pid,
            stop_signal=signal.SIGQUIT,
        )
    )
    stopping = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if not stopping.is_set():
            log.info("signal %s : arrêt du cœur, des relais et du frontal", signal.Signals(signum).name)
            notifier.stopping("arrêt en cours : fin de l'écriture du journal")
        stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    for child in children:
        child.spawn()
    died: dict[int, float] = {}
    while not stopping.wait(WATCH_S):
        _reap(children, died)
        for child in children:
            if child.pid is None and time.monotonic() - died.get(id(child), 0.0) >= RESTART_S:
                child.spawn()
    return _stop_all(children)


def _reap(children: list[Child], died: dict[int, float]) -> None:
    """Notice the children that ended (their pid set to None, the time noted)."""
    for child in children:
        if child.pid is None:
            continue
        try:
            pid, status = os.waitpid(child.pid, os.WNOHANG)
        except ChildProcessError:
            pid, status = child.pid, 0
        if pid:
            log.error("%s arrêté (%s) : redémarrage", child.name, _status(status))
            child.pid = None
            died[id(child)] = time.monotonic()


def _status(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {signal.Signals(os.WTERMSIG(status)).name}"
    return f"code {os.WEXITSTATUS(status)}" if os.WIFEXITED(status) else str(status)


def _stop_all(children: list[Child]) -> int:
    """The front first (no new request), then the relays, the core last (it closes the journal)."""
    code = 0
    for child in reversed(children):
        if child.pid is None:
            continue
        try:
            os.kill(child.pid, child.stop_signal)
        except ProcessLookupError:
            continue
        deadline = time.monotonic() + STOP_S
        while time.monotonic() < deadline:
            pid, status = os.waitpid(child.pid, os.WNOHANG)
            if pid:
                if child is children[0] and not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
                    code = 1
                break
            time.sleep(0.05)
        else:
            log.error("%s ne s'arrête pas : SIGKILL", child.name)
            os.kill(child.pid, signal.SIGKILL)
            os.waitpid(child.pid, 0)
            code = 1
    log.info("arrêt propre du cœur, des relais et du frontal")
    return code
