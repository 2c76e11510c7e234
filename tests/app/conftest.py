"""Helpers for running the real service as a child process, the way systemd does.

- ``NotifyListener``: an AF_UNIX datagram socket bound under a short ``/tmp/lhXXXX`` folder (AF_UNIX
  paths are limited to 107 bytes, which pytest's ``tmp_path`` can exceed), read like systemd does.
- ``HallProcess``: ``python -m hall.app serve`` with ``NOTIFY_SOCKET``/``WATCHDOG_USEC`` set, in its own
  process group (so a SIGKILL takes the arbiter and its worker together, as ``systemctl kill`` does).
Nothing here sleeps to wait: it polls the socket or the port with deadlines.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

START_TIMEOUT_S = 60.0


class NotifyListener:
    """What systemd would receive on ``$NOTIFY_SOCKET``."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="lh", dir="/tmp")
        self.path = os.path.join(self.dir, "notify")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.messages: list[tuple[float, str]] = []  # (monotonic arrival, datagram)

    def _receive(self, timeout_s: float) -> str | None:
        self.sock.settimeout(max(timeout_s, 0.001))
        try:
            data = self.sock.recv(4096).decode("utf-8")
        except TimeoutError:
            return None
        self.messages.append((time.monotonic(), data))
        return data

    def wait_for(self, line: str, timeout_s: float = 10.0) -> str:
        """The first new datagram holding ``line`` (e.g. ``READY=1``); fails the test after the timeout."""
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0:
            data = self._receive(left)
            if data is not None and line in data.split("\n"):
                return data
        pytest.fail(f"no {line} within {timeout_s} s; received: {[m for _, m in self.messages]}")

    def collect(self, duration_s: float) -> list[str]:
        """Every datagram received during the next ``duration_s`` seconds."""
        deadline = time.monotonic() + duration_s
        got = []
        while (left := deadline - time.monotonic()) > 0:
            data = self._receive(left)
            if data is not None:
                got.append(data)
        return got

    def close(self) -> None:
        self.sock.close()
        shutil.rmtree(self.dir, ignore_errors=True)


SERVER_PORTS = range(20000, 32000)  # below Linux's ephemeral range (32768-60999 by default)


def free_port() -> int:
    """A port for a server the test starts later. Never one of the kernel's ephemeral ports: between this check
    and the server's bind, any client's connection (or any socket bound to port 0) may be given that very port,
    and the hall then fails with « Address already in use » (seen under load on a kill-and-restart test)."""
    for port in random.sample(SERVER_PORTS, 50):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


def get_json(
    url: str, timeout_s: float = 5.0, headers: dict | None = None, data: dict | None = None
) -> tuple[int, dict]:
    request = urllib.request.Request(
        url,
        headers={"Content-Type": "application/json", **(headers or {})},
        data=json.dumps(data).encode() if data is not None else None,
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


class HallProcess:
    """``python -m hall.app serve …`` as systemd would run it."""

    def __init__(
        self,
        workdir: Path,
        args: list[str],
        port: int,
        notify: NotifyListener | None,
        watchdog_usec: int | None = None,
        env: dict | None = None,
    ):
        self.port = port
        self.log_path = workdir / f"service-{port}-{time.monotonic_ns()}.log"
        environ = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")}
        environ.update(PYTHONUNBUFFERED="1", LANG="C.UTF-8", **(env or {}))
        if notify is not None:
            environ["NOTIFY_SOCKET"] = notify.path
        if watchdog_usec is not None:
            environ["WATCHDOG_USEC"] = str(watchdog_usec)
        self.log = open(self.log_path, "wb")
        # cwd: a folder without ./loto-hall.toml, so only the given options count.
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hall.app", "serve", "--port", str(port), *args],
            cwd=workdir,
            env=environ,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def state(self) -> dict:
        status, body = get_json(self.url + "/api/state")
        assert status == 200, body
        return body

    def wait_answering(self, timeout_s: float = START_TIMEOUT_S) -> None:
        """Poll ``GET /api/state`` until it answers (for runs without a notify socket)."""
        deadline = time.monotonic() + timeout_s
        delay = 0.02
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, f"the service exited ({self.proc.returncode}):\n{self.output()}"
            try:
                if get_json(self.url + "/api/state", timeout_s=2)[0] == 200:
                    return
            except OSError:
                pass
            try:
                self.proc.wait(delay)  # wakes at once if the service dies
            except subprocess.TimeoutExpired:
                pass
            delay = min(delay * 2, 0.3)
        pytest.fail(f"the service did not answer within {timeout_s} s:\n{self.output()}")

    def signal(self, signum: int) -> None:
        self.proc.send_signal(signum)

    def kill_all(self) -> None:
        """SIGKILL the whole process group: the arbiter and its worker, like a power cut for the program."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(10)

    def wait(self, timeout_s: float = 30.0) -> int:
        return self.proc.wait(timeout_s)

    def output(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")[-6000:]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.kill_all()
        else:  # the worker may outlive a dead arbiter for a moment
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.log.close()


@pytest.fixture
def french(monkeypatch):
    """The command line in French, whatever this machine's locale says."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")


@pytest.fixture
def notify():
    listener = NotifyListener()
    yield listener
    listener.close()


@pytest.fixture
def run_hall(tmp_path):
    """Start ``loto-hall serve`` children; every one is killed at the end of the test."""
    started: list[HallProcess] = []

    def run(
        args: list[str],
        notify: NotifyListener | None = None,
        watchdog_usec: int | None = None,
        port: int | None = None,
        env: dict | None = None,
    ) -> HallProcess:
        proc = HallProcess(tmp_path, args, port or free_port(), notify, watchdog_usec, env)
        started.append(proc)
        return proc

    yield run
    for proc in started:
        proc.close()
