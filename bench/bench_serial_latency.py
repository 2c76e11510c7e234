"""Ball machine latency: last byte of a ball written on a pty → the draw durable in the journal (fsync'd).

    python bench/bench_serial_latency.py [--balls 500] [--dir DIR] [--protocol lines|stx]
    python bench/bench_serial_latency.py --sockets 20 [--balls 300]

A real pty, the real ``BallMachineReader`` thread, a real ``Hall`` over a SQLite journal (WAL,
synchronous=FULL) in DIR (default: a temporary folder). One ball in flight at a time; the clock
starts just before the ``write`` of the whole frame and stops in the hall's subscriber, which runs
after the event is on disk. The same number of direct ``Hall.draw`` calls is timed for comparison
(the journal's share of the latency). Prints the figures; never run as a test.

``--sockets N`` (issue 25): the ball on the pty → a screen's Socket.IO ``draw`` event, N clients (python-socketio,
WebSocket, in a child process), for ``loto-hall serve`` (gunicorn, gevent worker: the production server, the hall's
journal fsync'd) beside a bare Flask-SocketIO server on the same server stack reading a pty of its own
(``bench/bare_socketio.py``), one ball to each in turn, in the same run. The clock starts before the ``write``
and stops when a client gets the event (the wall clock, one machine).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import queue
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import percentile
from bench.stats import summary as stats_summary
from drivers.ball_machine import BallMachineReader
from drivers.ball_protocol import frame
from hall.cartons.cardbook import CardBook
from hall.config import BallMachineSection, parse_config
from hall.door.service import Hall
from hall.record.journal import Journal


def summary(name: str, ms: list[float]) -> str:
    return stats_summary(name, ms, width=34, p90=False)


def balls(rng: random.Random, hall: Hall):
    """Ball numbers forever: a new partie (démarquez) each time the 90 are out, outside the timed part."""
    while True:
        for n in rng.sample(range(1, 91), 90):
            yield n
        hall.clear(role="speaker", force=True)
        hall.start_partie(role="speaker")


def open_hall(folder: Path, name: str) -> Hall:
    hall = Hall(parse_config({"hall": {"data_dir": str(folder)}}), Journal(folder / name), CardBook({}))
    hall.start_partie(role="speaker")
    return hall


def bench_serial(folder: Path, count: int, protocol: str) -> list[float]:
    hall = open_hall(folder, "serial.sqlite")
    done: queue.Queue = queue.Queue()
    hall.subscribe(lambda record: done.put((time.perf_counter(), record)) if record.type == "draw:ball_drawn" else None)
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    os.close(slave)
    reader = BallMachineReader(hall, BallMachineSection(port=path, protocol=protocol, debounce_s=0.0))
    reader.start()
    if not reader.connected.wait(5):
        raise SystemExit(f"reader did not open {path}")
    latencies = []
    source = balls(random.Random(1), hall)
    try:
        for _ in range(count + 20):  # 20 warm-up balls, not counted
            n = next(source)
            data = frame(n, protocol)
            t0 = time.perf_counter()
            os.write(master, data)
            t1, record = done.get(timeout=5)
            assert record.event.number == n, (record, n)
            latencies.append((t1 - t0) * 1000)
    finally:
        reader.stop()
        os.close(master)
        hall.journal.close()
    return latencies[20:]


def bench_direct(folder: Path, count: int) -> list[float]:
    hall = open_hall(folder, "direct.sqlite")
    source = balls(random.Random(2), hall)
    latencies = []
    for _ in range(count + 20):
        n = next(source)
        t0 = time.perf_counter()
        hall.draw(n, role="device", source="bench")
        latencies.append((time.perf_counter() - t0) * 1000)
    hall.journal.close()
    return latencies[20:]


def _clients(urls: dict[str, str], count: int, got: mp.Queue, ready: mp.Queue) -> None:
    """``count`` clients on each server; every ``draw`` as (server, number, arrival wall time)."""
    import socketio

    clients = []
    for name, url in urls.items():
        for _ in range(count):
            client = socketio.Client()
            client.on("draw", lambda d, name=name: got.put((name, d["number"], time.time())))
            client.connect(url, transports=["websocket"], wait_timeout=20)
            clients.append(client)
    ready.put(len(clients))
    threading.Event().wait()


def _pty() -> tuple[int, str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    return master, path


def _wait_http(url: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not answer")


def _post(url: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read() or b"null")


def bench_sockets(folder: Path, count: int, balls: int) -> int:
    """The hall beside a bare Flask-SocketIO server: pty → every client's ``draw``, one ball to each in turn."""
    from hall.app.demo import DEMO_PINS

    root = Path(__file__).resolve().parents[1]
    ptys = {"hall": _pty(), "bare": _pty()}
    ports = {"hall": 18500 + os.getpid() % 400, "bare": 18900 + os.getpid() % 400}
    config = folder / "serial-sockets.toml"
    config.write_text(
        f'[hall]\ndata_dir = "{folder}/data"\n[auth]\n'
        + "".join(f'{k} = "{v}"\n' for k, v in DEMO_PINS.items())
        + '[server]\nhost = "127.0.0.1"\nmax_sockets_per_address = 1000\n'
        + f'[ball_machine]\nport = "{ptys["hall"][1]}"\ndebounce_s = 0.0\n'
    )
    env = {**os.environ, "PYTHONPATH": str(root)}
    log = open(folder / "servers.log", "wb")
    servers = [
        subprocess.Popen(
            [sys.executable, "-m", "hall.app", "serve", "--config", str(config), "--port", str(ports["hall"])],
            env=env,
            cwd=folder,
            stdout=log,
            stderr=log,
            start_new_session=True,
        ),
        subprocess.Popen(
            [
                sys.executable,
                str(root / "bench" / "bare_socketio.py"),
                "--port",
                str(ports["bare"]),
                "--tty",
                ptys["bare"][1],
            ],
            env=env,
            cwd=folder,
            stdout=log,
            stderr=log,
            start_new_session=True,
        ),
    ]
    urls = {name: f"http://127.0.0.1:{port}" for name, port in ports.items()}
    got: mp.Queue = mp.Queue()
    ready: mp.Queue = mp.Queue()
    crowd = None
    try:
        _wait_http(urls["hall"] + "/api/state")
        _wait_http(urls["bare"] + "/socket.io/?EIO=4&transport=polling")
        token = _post(urls["hall"] + "/api/login", {"pin": DEMO_PINS["speaker_pin"]})["token"]
        _post(urls["hall"] + "/api/partie/start", {}, token)
        crowd = mp.Process(target=_clients, args=(urls, count, got, ready), daemon=True)
        crowd.start()
        ready.get(timeout=120)
        load = os.getloadavg()[0]
        per_client: dict[str, list[float]] = {"hall": [], "bare": []}
        last: dict[str, list[float]] = {"hall": [], "bare": []}
        numbers = random.Random(3).sample(range(1, 91), 90)
        drawn = 0
        for i in range(balls + 10):  # 10 warm-up balls each, not counted
            if drawn == 90:
                _post(urls["hall"] + "/api/partie/clear", {"force": True}, token)
                _post(urls["hall"] + "/api/partie/start", {}, token)
                numbers, drawn = random.Random(i).sample(range(1, 91), 90), 0
            n = numbers[drawn]
            drawn += 1
            for name in ("bare", "hall") if i % 2 else ("hall", "bare"):
                t0 = time.time()
                os.write(ptys[name][0], frame(n, "lines"))
                arrivals = []
                while len(arrivals) < count:
                    server, number, at = got.get(timeout=10)
                    if server == name and number == n:
                        arrivals.append(at)
                if i >= 10:
                    per_client[name] += [(at - t0) * 1000 for at in arrivals]
                    last[name].append((max(arrivals) - t0) * 1000)
        print(
            f"{count} clients on each server, {balls} balls to each, load average {load:.2f} → {os.getloadavg()[0]:.2f}"
        )
        for name, title in (("bare", "bare Flask-SocketIO (no journal)"), ("hall", "loto-hall serve")):
            print(summary(f"{title}: pty → a client", per_client[name]))
            print(summary(f"{title}: pty → last client", last[name]))
        ratio = percentile(per_client["hall"], 99) / percentile(per_client["bare"], 99)
        print(f"p99 ratio hall / bare (a client): {ratio:.2f} — target ≤ 1.2: {'met' if ratio <= 1.2 else 'NOT met'}")
        return 0
    finally:
        if crowd is not None:
            crowd.terminate()
        for proc in servers:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(20)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--balls", type=int, default=500)
    parser.add_argument("--dir", help="folder for the journals (default: a new temporary folder)")
    parser.add_argument("--protocol", choices=("lines", "stx"), default="lines")
    parser.add_argument("--sockets", type=int, default=0, help="pty → Socket.IO clients, the hall beside a bare server")
    args = parser.parse_args()
    folder = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="loto-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    if args.sockets:
        return bench_sockets(folder, args.sockets, args.balls)
    print(f"journal folder: {folder}  python {sys.version.split()[0]}  {os.uname().machine}")
    serial_ms = bench_serial(folder, args.balls, args.protocol)
    direct_ms = bench_direct(folder, args.balls)
    print(summary(f"pty byte → durable draw ({args.protocol})", serial_ms))
    print(summary("Hall.draw alone (journal fsync)", direct_ms))
    p99 = percentile(serial_ms, 99)
    print(f"target p99 < 10 ms: {'met' if p99 < 10 else 'NOT met'} ({p99:.2f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
