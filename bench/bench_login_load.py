"""``GET /api/state`` while one client loops PIN logins (issue 22, item 3).

    python bench/bench_login_load.py [--seconds 20] [--addresses 1] [--tree PATH]

Starts the real server (``python -m hall.app serve --config …``: gunicorn's gevent worker) on a free port in a
temporary folder, changes the four PINs on /admin (so that, before issue 22, each login compared up to four
PBKDF2 hashes), then measures ``GET /api/state`` back to back from one client for ``--seconds``: alone, then
while another process loops ``POST /api/login`` with the controller's PIN as fast as it can, from ``--addresses``
loopback addresses (127.0.1.x) without cookies (an API client: a session per success before issue 22), and, as a
yardstick, while it loops ``GET /api/me`` instead (any request flood shares the one worker). Prints p50/p99 of
``/api/state`` in each phase, the requests answered by status, and the sessions in ``sessions.json``.
``--tree`` serves another checkout of the project (e.g. the code before the change, for a before/after).
Never run as a test.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.stats import summary  # noqa: E402

PINS = {"speaker": "424242", "controller": "515151", "desk": "626262", "admin": "737373"}
CHANGED = {"speaker": "135790", "controller": "246802", "desk": "975310", "admin": "864209"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(
    port: int, method: str, path: str, body: dict | None = None, token: str = "", source: str = "127.0.0.1"
) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null")
    finally:
        conn.close()


def loop(port: int, path: str, addresses: int, stop, out) -> None:
    """(child process) ``POST /api/login`` with the controller's PIN (or ``GET`` another path) until ``stop``,
    from the loopback addresses in turn; count the answers."""
    counts: dict[int, int] = {}
    n = 0
    while not stop.is_set():
        source = f"127.0.1.{n % addresses + 1}"
        if path == "/api/login":
            status, _ = call(port, "POST", path, {"pin": CHANGED["controller"]}, source=source)
        else:
            status, _ = call(port, "GET", path, source=source)
        counts[status] = counts.get(status, 0) + 1
        n += 1
    out.put(counts)


def while_looping(port: int, path: str, addresses: int, seconds: float) -> tuple[list[float], dict[int, int]]:
    """``/api/state``'s latencies while a child process loops ``path``; and the child's answers."""
    ctx = multiprocessing.get_context("spawn")
    stop, out = ctx.Event(), ctx.Queue()
    child = ctx.Process(target=loop, args=(port, path, addresses, stop, out))
    child.start()
    time.sleep(1.0)
    during = state_latencies(port, seconds)
    stop.set()
    counts = out.get(timeout=60)
    child.join(10)
    return during, counts


def state_latencies(port: int, seconds: float) -> list[float]:
    ms = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.perf_counter()
        status, _ = call(port, "GET", "/api/state")
        ms.append(1000 * (time.perf_counter() - t0))
        assert status == 200, status
    return ms


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--addresses", type=int, default=1)
    ap.add_argument("--tree", default=str(ROOT), help="the checkout to serve (default: this one)")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-login-"))
    port = free_port()
    config = folder / "loto-hall.toml"
    pins = "\n".join(f'{role}_pin = "{pin}"' for role, pin in PINS.items())
    config.write_text(
        f'[hall]\ndata_dir = "{folder / "data"}"\n[server]\nhost = "127.0.0.1"\nport = {port}\n[auth]\n{pins}\n',
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": args.tree}
    server = subprocess.Popen(
        [sys.executable, "-m", "hall.app", "serve", "--config", str(config)],
        cwd=args.tree,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(folder / "server.log", "w"),
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if call(port, "GET", "/api/state")[0] == 200:
                    break
            except (OSError, http.client.HTTPException):  # not listening yet
                if time.monotonic() > deadline:
                    raise SystemExit("the hall did not answer") from None
                time.sleep(0.2)
        admin = call(port, "POST", "/api/login", {"pin": PINS["admin"]})[1]["token"]
        for role in ("speaker", "controller", "desk", "admin"):  # admin last: its change ends its session
            status, body = call(port, "POST", "/api/pins", {"role": role, "pin": CHANGED[role]}, token=admin)
            assert status == 201, body
        print(
            f"tree {args.tree}; four PINs changed on /admin; {args.seconds:.0f} s per phase; "
            f"logins from {args.addresses} address(es); load {os.getloadavg()[0]:.2f}"
        )
        print(summary("GET /api/state alone", state_latencies(port, args.seconds)))
        for name, path in (("logins looping", "/api/login"), ("GET /api/me looping", "/api/me")):
            during, counts = while_looping(port, path, args.addresses, args.seconds)
            print(summary(f"GET /api/state, {name}", during))
            print(
                f"  {path}: {sum(counts.values())} answered in ~{args.seconds + 1:.0f} s "
                f"({', '.join(f'{k}: {v}' for k, v in sorted(counts.items()))})"
            )
        sessions = json.loads((folder / "data" / "sessions.json").read_text()).get("sessions", {})
        print(
            f"sessions.json: {len(sessions)} session(s), {(folder / 'data' / 'sessions.json').stat().st_size} bytes; "
            f"load {os.getloadavg()[0]:.2f}"
        )
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
