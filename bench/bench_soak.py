"""Soak: many Socket.IO clients connected while a ball is drawn every second; disconnects and missed events.

    python bench/bench_soak.py [--clients 300] [--seconds 60] [--interval 1.0] [--server werkzeug|gunicorn]

``--server werkzeug`` (default): ``display.create_app`` on Werkzeug's threaded server (127.0.0.1), balls
through ``Hall.draw``. ``--server gunicorn``: the production server, ``loto-hall serve`` in a child process
(one gthread worker, ``[server] threads``), balls through ``POST /api/draws`` as the speaker.
``--clients`` python-socketio clients on WebSocket, a ball a second (a new partie after 90). Every client checks that no ``seq``
is missing from what it received. At the end: how many clients dropped, how many draws each
missed, how many seq gaps, and the spread of a draw's arrival across all clients. Never run as a test.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from werkzeug.serving import make_server

from bench.bench_projector_latency import Crowd, open_hall, percentile
from display.app import create_app
from hall.app.runtime import lobby_settings, open_rooms


class InProcess:
    """The hall and its app in this process, on Werkzeug."""

    def __init__(self):
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        self.hall = open_hall(Path(tempfile.mkdtemp(prefix="loto-soak-")))
        self.hall.start_partie(role="speaker")
        config = self.hall.config
        app, _ = create_app(self.hall, config, lobby=open_rooms(config.data_dir, lobby_settings(config.games))[0])
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def draw(self, number: int) -> int:
        return self.hall.draw(number, role="speaker", source="soak").seq

    def new_partie(self) -> None:
        self.hall.clear(role="speaker", force=True)
        self.hall.start_partie(role="speaker")

    def close(self) -> None:
        self.server.shutdown()


class Served:
    """``loto-hall serve`` (gunicorn) in a child process, driven through the HTTP API."""

    def __init__(self, threads: int):
        folder = Path(tempfile.mkdtemp(prefix="loto-soak-"))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        (folder / "soak.toml").write_text(
            f'[hall]\ndata_dir = "{folder / "data"}"\n[server]\nhost = "127.0.0.1"\nport = {port}\n'
            f'threads = {threads}\n[auth]\nspeaker_pin = "111111"\nadmin_pin = "999999"\n'
            'controller_pin = "222222"\ndesk_pin = "333333"\n'
        )
        self.log = open(folder / "serve.log", "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hall", "serve", "--config", str(folder / "soak.toml")],
            cwd=folder,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                self._call("GET", "/api/state")
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise SystemExit(f"loto-hall serve did not answer; see {folder / 'serve.log'}")
                time.sleep(0.2)
        self.token = self._call("POST", "/api/login", {"pin": "111111"})["token"]
        self._call("POST", "/api/partie/start", {})

    def _call(self, method: str, path: str, body: dict | None = None) -> dict:
        headers = {"Content-Type": "application/json"}
        if getattr(self, "token", None):
            headers["Authorization"] = f"Bearer {self.token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        with urllib.request.urlopen(request, timeout=10) as res:
            return json.loads(res.read() or b"null")

    def draw(self, number: int) -> int:
        return self._call("POST", "/api/draws", {"number": number})["seq"]

    def new_partie(self) -> None:
        self._call("POST", "/api/partie/clear", {"force": True})
        self._call("POST", "/api/partie/start", {})

    def memory_mb(self) -> float:
        """Resident memory of the arbiter and its worker (VmRSS), in MB."""
        total = 0
        pids = [self.process.pid]
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        if children.exists():
            pids += [int(p) for p in children.read_text().split()]
        for pid in pids:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        return total / 1024

    def close(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(30)
        self.log.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--server", choices=("werkzeug", "gunicorn"), default="werkzeug")
    parser.add_argument("--threads", type=int, default=None, help="gunicorn: [server] threads (default: the config's)")
    args = parser.parse_args()
    from hall.config import ServerSection

    hall = InProcess() if args.server == "werkzeug" else Served(args.threads or ServerSection().threads)
    try:
        t = time.perf_counter()
        crowd = Crowd(hall.url, args.clients)
        print(
            f"{args.server}: {args.clients} clients connected in {time.perf_counter() - t:.1f} s; "
            f"python {sys.version.split()[0]}, {os.cpu_count()} CPU; {args.seconds:.0f} s, a ball every {args.interval} s"
        )

        sent: dict[int, float] = {}
        rng = random.Random(3)
        bag: list[int] = rng.sample(range(1, 91), 90)
        start = time.monotonic()
        tick = 0
        while time.monotonic() - start < args.seconds:
            if not bag:
                hall.new_partie()
                bag = rng.sample(range(1, 91), 90)
            t0 = time.time() * 1000
            sent[hall.draw(bag.pop())] = t0
            tick += 1
            time.sleep(max(0.0, start + tick * args.interval - time.monotonic()))  # the pace of a real evening

        if isinstance(hall, Served):
            print(f"loto-hall serve resident memory with {args.clients} clients: {hall.memory_mb():.0f} MB")
        report = crowd.report(len(sent))
    finally:
        hall.close()
    missed, gaps, disconnects = report["missed"], report["gaps"], report["disconnects"]
    dropped = args.clients - report["connected"]
    spread = [report["latest"][s] - t0 for s, t0 in sent.items() if s in report["latest"]]
    print(
        f"draws: {len(sent)}; clients still connected: {args.clients - dropped}/{args.clients}; "
        f"disconnects: {disconnects}; draws missed (all clients): {missed}; seqs missing: {gaps}"
    )
    if spread:
        print(
            f"draw → last of {args.clients} clients: p50={percentile(spread, 50):.1f} ms  "
            f"p99={percentile(spread, 99):.1f} ms  max={max(spread):.1f} ms  mean={statistics.fmean(spread):.1f} ms"
        )
    print(f"target 0 disconnects, 0 missed: {'met' if not (missed or disconnects or gaps) else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
