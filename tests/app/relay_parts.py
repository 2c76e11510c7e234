"""Real parts for the relays' tests (INTERFACE §10): Debian's redis-server on a free port, and phones.

``RedisServer``: ``redis-server`` in the foreground on 127.0.0.1, no persistence, stopped and started again on the
same port. ``LoopbackCore``: the core's HTTP API as a relay asks it (``GET /api/state``…), a real HTTP server on
loopback answering what a test says. ``Phone``: a python-socketio client on the relays' path through the front, keeping its own picture as
the phones' page does (``common.js``: a state, then events with ``seq`` + 1; a gap → ``resync``).
Nothing sleeps to wait: conditions with deadlines.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import socketio

from display import relay_wire as wire
from display.relay_seal import PUBLIC, RUN_HEADER, seal, stamped
from tests.app.conftest import free_port

REDIS = shutil.which("redis-server")
needs_redis = pytest.mark.skipif(
    REDIS is None, reason="redis-server absent (Debian package redis-server; .ci/run installs it)"
)
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
needs_nginx = pytest.mark.skipif(NGINX is None, reason="nginx absent (Debian package nginx-light; .ci/run installs it)")


class RedisServer:
    """Debian's redis-server on a free localhost port."""

    def __init__(self, workdir: Path, bind: str = "127.0.0.1"):
        self.port = free_port()
        self.bind = bind
        self.workdir = workdir
        self.proc: subprocess.Popen | None = None
        self.log = open(workdir / f"redis-{self.port}.log", "ab")
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self):
        import redis

        return redis.Redis(port=self.port, socket_connect_timeout=1, socket_timeout=3, decode_responses=True)

    def start(self) -> None:
        assert REDIS is not None
        self.proc = subprocess.Popen(
            [
                REDIS,
                "--port",
                str(self.port),
                "--bind",
                self.bind,
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "yes",
            ],
            cwd=self.workdir,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        wait_until(self._answers, 10, "redis-server did not answer")

    def _answers(self) -> bool:
        try:
            return bool(self.client().ping())
        except Exception:
            return False

    def stop(self) -> None:
        """SIGTERM, as ``systemctl stop redis-server`` sends: Redis drops its clients and exits."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def close(self) -> None:
        self.stop()
        self.log.close()


class LoopbackCore:
    """A real HTTP server on 127.0.0.1 standing for the core: each ``GET`` is answered by ``answer(path)``, a
    status and the body's bytes (``answer`` may block: each request has its own thread), with the core's queue run
    in its header (``run``, which a test may change: the core restarted)."""

    def __init__(self, answer: Callable[[str], tuple[int, bytes]], run: str = "run-1"):
        self.run = run
        core = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                status, body = answer(self.path)
                self.send_response(status)
                self.send_header(RUN_HEADER, core.run)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


QUEUE_KEY = bytes(range(32))  # the hall's queue key in the in-process tests (a hall makes its own: queue.key)


def sealed(message: dict, k: int, run: str = "run-1", key: bytes = QUEUE_KEY) -> bytes:
    """A channel message as the core publishes it: stamped with its run and number, sealed with ``key``."""
    return seal(key, PUBLIC, stamped(run, k, wire.encode(message)))


def wait_until(condition, timeout_s: float, message: str, step_s: float = 0.05):
    """Poll ``condition`` (a cheap read) until it is true; fail with ``message`` after the deadline."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        threading.Event().wait(step_s)
    pytest.fail(f"{message} (after {timeout_s} s)")


def from_address(source: str) -> type:
    """A websocket-client ``WebSocket`` whose TCP connection leaves from ``source`` (a loopback address of its own:
    the front tells the relays each phone's address in ``X-Real-IP``, as the hall's Wi-Fi does)."""
    import socket
    from urllib.parse import urlsplit

    import websocket

    class FromAddress(websocket.WebSocket):
        def connect(self, url, **options):
            where = urlsplit(url)
            options["socket"] = socket.create_connection(
                (where.hostname, where.port), timeout=options.get("timeout"), source_address=(source, 0)
            )
            super().connect(url, **options)

    return FromAddress


PHONE_ADDRESSES = 8  # the test phones come from 127.0.0.10 … 127.0.0.17, dealt in turn


def phone_address(i: int) -> str:
    return f"127.0.0.{10 + i % PHONE_ADDRESSES}"


class Phone:
    """A phone following the public events on the relays, as ``common.js`` does, from ``source`` (a loopback address;
    default: the next of ``PHONE_ADDRESSES``)."""

    made = 0

    def __init__(self, url: str, path: str = "live/socket.io", source: str | None = None):
        if source is None:
            source, Phone.made = phone_address(Phone.made), Phone.made + 1
        self.source = source
        self.cond = threading.Condition()
        self.seq: int | None = None
        self.draws: list[int] = []
        self.heard: list[int] = []  # every ball an event brought, whatever a state said since
        self.relays: list[str] = []  # the relay of each state received (a reconnection adds one)
        self.states_at: list[float] = []
        self.gaps = 0
        self.beats_at: list[float] = []  # when each beat came (the relay's liveness, INTERFACE §5 extension)
        self.screens: list[dict] = []  # what the projector shows, as the audience hears it
        self.client = socketio.Client(
            reconnection_delay=0.2,
            reconnection_delay_max=1.0,
            randomization_factor=0.2,
            websocket_extra_options={"class_": from_address(source)},
        )
        self.client.on("*", self._event)
        self.client.on("state", self._state)
        self.client.on("beat", lambda data=None: self.beats_at.append(time.monotonic()))
        self.client.on("screen", self.screens.append)
        self.client.connect(url, socketio_path=path, transports=["websocket"], wait_timeout=10)

    def _state(self, state: dict) -> None:
        with self.cond:
            self.seq = state["seq"]
            self.draws = list(state["draws"])
            self.relays.append(state.get("relay", "core"))
            self.states_at.append(time.monotonic())
            self.cond.notify_all()

    def _event(self, name: str, data=None) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("seq"), int):
            return
        with self.cond:
            if self.seq is None or data["seq"] <= self.seq:
                return
            if data["seq"] != self.seq + 1:
                self.gaps += 1
                self.seq = None
                self.client.emit("resync")
                return
            self.seq = data["seq"]
            if name == "draw":
                self.draws.append(data["number"])
                self.heard.append(data["number"])
            elif name == "undo":
                self.draws = self.draws[:-1]
            elif name == "partie":
                self.draws = []
            self.cond.notify_all()

    @property
    def relay(self) -> str:
        return self.relays[-1] if self.relays else ""

    def has(self, draws: list[int], timeout_s: float) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: self.draws == draws, timeout_s)

    def close(self) -> None:
        self.client.shutdown()


def close_all(phones: list[Phone]) -> None:
    """Disconnect every phone at once (each waits for its read loop to end)."""
    closing = [threading.Thread(target=p.close) for p in phones]
    for thread in closing:
        thread.start()
    for thread in closing:
        thread.join(15)
