"""A hall full of phones against ``loto-hall serve`` (gunicorn, gevent worker), over loopback only.

    python bench/bench_crowd.py [--clients 2000] [--duration 300] [--attack] [--procs 2] [--server gunicorn]

(a) ``--clients`` Socket.IO clients (WebSocket) connect, a draw a second for ``--duration`` seconds:
    disconnects, missed events, draw → last client p50/p99, the worker's RSS.
(b) ``--attack`` adds, for the whole run, 400 slow-header connections (kept open, re-opened when the
    server cuts them) and 400 sockets opened in 3 s by one address; the speaker's draw, ``GET /api/state``
    and a new projector (connect → ``state``) are timed: p99 < 100 ms is the goal.

The clients are a minimal Engine.IO 4 / Socket.IO 5 client over raw WebSocket frames on asyncio, in
``--procs`` child processes, so the client side is cheap and does not share the server's CPU accounting.
Phones connect from distinct loopback addresses (127.0.1.1, 127.0.1.2, …, ten per address); the attacker
from 127.0.0.66; the speaker and the projector from 127.0.0.1. Nothing leaves 127.0.0.0/8.
Prints the figures; never run as a test.
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import json
import multiprocessing as mp
import os
import resource
import signal
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.stats import percentile, summary  # noqa: E402
from hall.app.demo import DEMO_PINS  # noqa: E402

PINS = DEMO_PINS
ATTACKER = "127.0.0.66"


def raise_nofile() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def phone_address(i: int) -> str:
    n = i // 10
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


# ------------------------------------------------------------------------ a tiny Socket.IO client
async def ws_connect(port: int, source: str, auth: dict | None = None):
    """Open a Socket.IO connection over WebSocket; returns (reader, writer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
    status = await reader.readuntil(b"\r\n\r\n")
    if b" 101 " not in status.split(b"\r\n", 1)[0]:
        raise ConnectionError(status[:80])
    opened = await ws_recv(reader, writer)
    if not opened.startswith("0"):
        raise ConnectionError(opened[:80])
    ws_send(writer, "40" + (json.dumps(auth) if auth else ""))
    return reader, writer


def ws_send(writer, text: str) -> None:
    data = text.encode()
    mask = os.urandom(4)
    n = len(data)
    head = bytes([0x81])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    writer.write(head + mask + masked)


async def ws_recv(reader, writer) -> str:
    """The next text message (answers engine.io pings on the way)."""
    while True:
        b1, b2 = await reader.readexactly(2)
        n = b2 & 0x7F
        if n == 126:
            n = struct.unpack("!H", await reader.readexactly(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", await reader.readexactly(8))[0]
        payload = await reader.readexactly(n)
        op = b1 & 0x0F
        if op == 8:
            raise ConnectionError("closed by the server")
        if op != 1:
            continue
        text = payload.decode()
        if text == "2":
            ws_send(writer, "3")
            continue
        return text


async def phone(i: int, port: int, out: dict, stop: asyncio.Event, source: str | None = None) -> None:
    """Phone ``i`` (from ``source``, else ten phones an address) counting the draws and the seq gaps it gets."""
    try:
        reader, writer = await ws_connect(port, source or phone_address(i))
    except (OSError, ConnectionError, asyncio.IncompleteReadError):
        out["refused"] += 1
        return
    out["connected"] += 1
    last_seq = None
    try:
        while not stop.is_set():
            text = await ws_recv(reader, writer)
            if not text.startswith("42"):
                continue
            name, payload = json.loads(text[2:])
            now = time.time()
            seq = payload.get("seq") if isinstance(payload, dict) else None
            if name == "state":
                last_seq = seq
                continue
            if last_seq is not None and seq is not None and seq != last_seq + 1:
                out["gaps"] += 1
            last_seq = seq
            if name == "draw":
                got = out["draws"].setdefault(seq, [0, 0.0])
                got[0] += 1
                got[1] = max(got[1], now)
    except (OSError, ConnectionError, asyncio.IncompleteReadError):
        if not stop.is_set():
            out["disconnects"] += 1
    finally:
        writer.close()


def run_phones(first: int, count: int, port: int, ready: mp.Queue, results: mp.Queue, stop_evt,
               source=None) -> None:
    """Phones ``first`` … ``first + count - 1`` (phone ``i`` from ``source(i)`` when given), until ``stop_evt``."""
    raise_nofile()

    async def main():
        out = {"connected": 0, "refused": 0, "disconnects": 0, "gaps": 0, "draws": {}}
        stop = asyncio.Event()
        tasks = []
        for i in range(first, first + count):
            tasks.append(asyncio.create_task(phone(i, port, out, stop, source(i) if source else None)))
            if i % 50 == 0:
                await asyncio.sleep(0.02)
        while out["connected"] + out["refused"] < count:
            await asyncio.sleep(0.1)
        ready.put((out["connected"], out["refused"]))
        while not stop_evt.is_set():
            await asyncio.sleep(0.2)
        await asyncio.sleep(1.0)
        stop.set()
        results.put({k: v for k, v in out.items()})
        for t in tasks:
            t.cancel()

    asyncio.run(main())


# ------------------------------------------------------------------------ the attacker
def run_attack(port: int, stop_evt, counts: mp.Queue) -> None:
    raise_nofile()

    async def slow_header(stats):
        while not stop_evt.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(ATTACKER, 0))
                writer.write(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")
                stats["slow_opened"] += 1
                opened = time.monotonic()
                while not stop_evt.is_set():
                    writer.write(b"X")                         # a trickle: one byte a second
                    await writer.drain()
                    try:
                        if await asyncio.wait_for(reader.read(1), 1.0) == b"":
                            break
                    except TimeoutError:
                        pass
                stats["slow_cut"] += 1
                writer.close()
                if time.monotonic() - opened < 0.5:
                    await asyncio.sleep(0.5)                  # refused at once (per-address cap): not a busy loop
            except (OSError, ConnectionError):
                await asyncio.sleep(0.2)

    async def socket_flood(i, stats):
        try:
            reader, writer = await ws_connect(port, ATTACKER)
            stats["flood_open"] += 1
            while not stop_evt.is_set():
                text = await ws_recv(reader, writer)
                if text.startswith("44"):
                    stats["flood_refused"] += 1
                    break
        except (OSError, ConnectionError, asyncio.IncompleteReadError):
            stats["flood_refused"] += 1

    async def main():
        stats = {"slow_opened": 0, "slow_cut": 0, "flood_open": 0, "flood_refused": 0}
        tasks = [asyncio.create_task(slow_header(stats)) for _ in range(400)]
        for i in range(400):                                      # 400 sockets in 3 s
            tasks.append(asyncio.create_task(socket_flood(i, stats)))
            await asyncio.sleep(3.0 / 400)
        while not stop_evt.is_set():
            await asyncio.sleep(0.2)
        counts.put(stats)
        for t in tasks:
            t.cancel()

    asyncio.run(main())


# ------------------------------------------------------------------------ the speaker and the projector
def http_json(url: str, data: dict | None = None, token: str | None = None) -> tuple[int, dict, float]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=json.dumps(data).encode() if data is not None else None, headers=headers)
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=15) as resp:
            body = json.loads(resp.read() or b"null")
            return resp.status, body, 1000 * (time.perf_counter() - started)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null"), 1000 * (time.perf_counter() - started)
    except OSError:                                   # no answer in 15 s: counted as 15 s, the run goes on
        return 0, {}, 1000 * (time.perf_counter() - started)


async def new_projector(port: int) -> float:
    started = time.perf_counter()

    async def connect():
        reader, writer = await ws_connect(port, "127.0.0.1")
        while True:
            text = await ws_recv(reader, writer)
            if text.startswith('42["state"'):
                break
        writer.close()
    try:
        await asyncio.wait_for(connect(), 15)
    except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError):
        pass                                          # no state in 15 s: counted as that long
    return 1000 * (time.perf_counter() - started)


def worker_rss_mb(arbiter: int) -> float:
    try:
        children = Path(f"/proc/{arbiter}/task/{arbiter}/children").read_text().split()
        pid = int(children[0]) if children else arbiter
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=2000)
    ap.add_argument("--duration", type=float, default=300.0)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--attack", action="store_true")
    ap.add_argument("--server", default="gunicorn", choices=("gunicorn", "gthread", "werkzeug"))
    args = ap.parse_args()
    raise_nofile()
    port = 18000 + os.getpid() % 1000
    data = tempfile.mkdtemp(prefix="bench-crowd-")
    config = Path(data) / "loto-hall.toml"
    config.write_text("[hall]\ndata_dir = \"%s/data\"\n[auth]\n%s\n[server]\nhost = \"127.0.0.1\"\n"
                      "worker_connections = 6000\nmax_public_sockets = 5000\nthreads = 3000\n"
                      "max_connections_per_address = 1000\n"
                      % (data, "\n".join(f'{k} = "{v}"' for k, v in PINS.items())))
    env = {**os.environ, "LOTO_HALL_SERVER": args.server, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-m", "hall.app", "serve", "--config", str(config), "--port", str(port)],
                              env=env, cwd=data, stdout=open(Path(data) / "serve.log", "wb"), stderr=subprocess.STDOUT,
                              start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if http_json(url + "/api/state")[0] == 200:
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start: see " + data)
                time.sleep(0.2)
        rss_idle = worker_rss_mb(server.pid)
        token = http_json(url + "/api/login", {"pin": PINS["speaker_pin"]})[1]["token"]
        http_json(url + "/api/partie/start", {}, token)

        ready, results, counts = mp.Queue(), mp.Queue(), mp.Queue()
        stop_evt = mp.Event()
        per = args.clients // args.procs
        procs = [mp.Process(target=run_phones, args=(k * per, per, port, ready, results, stop_evt))
                 for k in range(args.procs)]
        started = time.monotonic()
        for p in procs:
            p.start()
        connected = refused = 0
        for _ in procs:
            c, r = ready.get(timeout=600)
            connected, refused = connected + c, refused + r
        print(f"{connected} clients connected in {time.monotonic() - started:.1f} s ({refused} refused)")
        rss_connected = worker_rss_mb(server.pid)
        attacker = None
        if args.attack:
            attacker = mp.Process(target=run_attack, args=(port, stop_evt, counts))
            attacker.start()
            time.sleep(3.5)                                  # the 400 sockets are opened in the first 3 s

        draw_ms, state_ms, projector_ms, sent = [], [], [], {}
        numbers = list(range(1, 91))
        end = time.monotonic() + args.duration
        tick = time.monotonic()
        while time.monotonic() < end:
            if not numbers:
                http_json(url + "/api/partie/clear", {"force": True}, token)
                http_json(url + "/api/partie/start", {}, token)
                numbers = list(range(1, 91))
            n = numbers.pop(0)
            t0 = time.time()
            status, body, ms = http_json(url + "/api/draws", {"number": n, "request_id": f"bench-{n}-{t0:.3f}"}, token)
            if status == 201:
                sent[body["seq"]] = t0
            draw_ms.append(ms)
            state_ms.append(http_json(url + "/api/state")[2])
            projector_ms.append(asyncio.run(new_projector(port)))
            tick += 1.0
            time.sleep(max(0.0, tick - time.monotonic()))
        rss_end = worker_rss_mb(server.pid)
        stop_evt.set()
        outs = [results.get(timeout=60) for _ in procs]
        for p in procs:
            p.join(10)
        attack = counts.get(timeout=30) if attacker else None
        if attacker:
            attacker.join(10)

        missed, last_ms = 0, []
        for seq, t0 in sent.items():
            got = [o["draws"].get(seq, [0, 0.0]) for o in outs]
            missed += connected - sum(g[0] for g in got)
            last_ms.append(1000 * (max(g[1] for g in got) - t0))
        print(f"server: {args.server}, clients {connected}, draws {len(sent)} in {args.duration:.0f} s"
              + (" with the attack" if args.attack else ""))
        print(f"disconnects {sum(o['disconnects'] for o in outs)}, missed events {missed}, "
              f"seq gaps {sum(o['gaps'] for o in outs)}")
        print(summary("draw → last client", last_ms))
        print(summary("speaker's POST /api/draws", draw_ms))
        print(summary("GET /api/state", state_ms))
        print(summary("new projector (connect → state)", projector_ms))
        print(f"worker RSS: idle {rss_idle:.0f} MB, {connected} clients {rss_connected:.0f} MB, end {rss_end:.0f} MB")
        if attack:
            print(f"attack: slow headers opened {attack['slow_opened']} (cut by the server {attack['slow_cut']}), "
                  f"sockets from one address: {attack['flood_open']} handshakes, {attack['flood_refused']} refused")
        for name, ms in (("draw", draw_ms), ("state", state_ms), ("projector", projector_ms)):
            print(f"p99 {name} < 100 ms: {'yes' if percentile(ms, 99) < 100 else 'NO'}")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
