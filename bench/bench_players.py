"""« Mes cartons »: a hall of phones following their own cartons, against ``loto-hall serve`` on a Pi-class CPU.

    sudo python bench/bench_players.py [--phones 1000] [--cards 12] [--link-s 60] [--duration 300] [--idle-s 30] [--ping-s 2] [--no-piclass]

The server runs under ``/work/shared/tools/piclass --cores 1`` (one Pi 4 core; root is needed for its cgroup),
the phones outside it, in ``--procs`` child processes, each phone from its own loopback address (127.0.x.y):
(a) linking: every phone scans its ``--cards`` cartons one by one over ``--link-s`` seconds, as a player does
    (``POST /api/players/cards`` with its list so far, 1 to 12 IDs: 12 000 requests in a minute for 1 000 phones),
    while the speaker draws a ball a second: each link's time, the refusals, and the speaker's draw time;
(b) following: the phones' sockets (a minimal Engine.IO 4 client, answering the pings), first ``--idle-s`` seconds
    without a ball (the server's CPU for keeping them: pings, beats), then a ball a second for ``--duration``
    seconds: ball → last phone p50/p99, balls missed, seq gaps, disconnects, and the server's CPU meanwhile, read
    from /proc as a share of the Pi core.
Also, in this process, the time a link of 12 cartons holds the hall's lock (12 000 cartons in the book).
Prints the figures; never run as a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_crowd import http_json  # noqa: E402
from bench.crowd_hall import unused_port  # noqa: E402
from bench.crowd_phones import raise_nofile, start_crowd  # noqa: E402
from bench.stats import CpuMeter, summary  # noqa: E402
from hall.app.demo import DEMO_PINS  # noqa: E402
from hall.cartons.cardbook import CardBook  # noqa: E402
from hall.cartons.planches import generate_cards  # noqa: E402

PICLASS = "/work/shared/tools/piclass"


# the server with its gunicorn worker under cProfile from its fork to its exit (the worker's greenlets all run on
# its main thread, which the profiler follows; a greenlet switch shows as a call, own times stay right)
PROFILED = """import cProfile, os, runpy
def profile_the_worker():
    profiler, leave = cProfile.Profile(), os._exit
    def dump_and_leave(code):            # the worker leaves through os._exit (hall/app/gunicorn_app.py)
        profiler.disable()
        profiler.dump_stats(%r)
        leave(code)
    os._exit = dump_and_leave
    profiler.enable()
os.register_at_fork(after_in_child=profile_the_worker)
runpy.run_module("hall.app", run_name="__main__", alter_sys=True)
"""


def print_profile(data: Path, top: int) -> None:
    import pstats

    dumped = data / "worker.prof"
    if not dumped.exists():
        print(f"no profile written ({dumped}): the worker did not leave through os._exit")
        return
    stats = pstats.Stats(str(dumped))
    stats.sort_stats("tottime").print_stats(top)


def address(i: int) -> str:
    """Phone ``i``'s own loopback address (one phone, one address, as on the hall's Wi-Fi)."""
    return f"127.0.{2 + i // 250}.{1 + i % 250}"


async def post(port: int, source: str, path: str, body: dict) -> tuple[int, float, dict]:
    """A JSON POST from ``source``: (status, milliseconds, the answer)."""
    data = json.dumps(body).encode()
    started = time.perf_counter()
    try:
        reader, writer = await ws_open(port, source)
        writer.write(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode()
            + data
        )
        head = await reader.readuntil(b"\r\n")
        rest = await reader.read()
        writer.close()
        try:
            answer = json.loads(rest.split(b"\r\n\r\n", 1)[1] or b"{}")
        except (ValueError, IndexError):
            answer = {}
        return int(head.split()[1]), 1000 * (time.perf_counter() - started), answer
    except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
        return 0, 1000 * (time.perf_counter() - started), {}


async def ws_open(port: int, source: str):
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


def run_linking(
    first: int, count: int, port: int, ids: list[dict], cards: int, spread_s: float, results: mp.Queue
) -> None:
    """Each phone scans its cartons one by one, its scans spread over ``spread_s`` seconds."""
    raise_nofile()

    async def one(i: int, out: dict, start: float) -> None:
        mine = ids[i * cards : (i + 1) * cards]
        step = spread_s / cards
        for k in range(cards):
            at = start + (i % 97) / 97 * step + k * step  # phones out of step with each other
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            first = time.perf_counter()
            while True:  # as the page does: a phone turned away waits its turn
                status, ms, answer = await post(port, address(i), "/api/players/cards", {"card_ids": mine[: k + 1]})
                out["ms"].append(ms)
                out["status"][status] = out["status"].get(status, 0) + 1
                if status != 429 or answer.get("error") != "hall_busy":
                    break
                await asyncio.sleep(answer.get("retry_after", 5))
            out["linked_s"].append(time.perf_counter() - first)

    async def main():
        out: dict = {"ms": [], "status": {}, "linked_s": []}
        start = time.monotonic()
        await asyncio.gather(*(one(i, out, start) for i in range(first, first + count)))
        results.put(out)

    asyncio.run(main())


class Speaker:
    """A ball a second from the speaker's token; a new partie every 90 balls."""

    def __init__(self, url: str):
        self.url = url
        self.token = http_json(url + "/api/login", {"pin": DEMO_PINS["speaker_pin"]})[1]["token"]
        http_json(url + "/api/partie/start", {}, self.token)
        self.numbers = list(range(1, 91))
        self.sent: dict[int, float] = {}
        self.ms: list[float] = []

    def draw(self) -> None:
        if not self.numbers:
            http_json(self.url + "/api/partie/clear", {"force": True}, self.token)
            http_json(self.url + "/api/partie/start", {}, self.token)
            self.numbers = list(range(1, 91))
        n = self.numbers.pop(0)
        t0 = time.time()
        status, body, ms = http_json(
            self.url + "/api/draws", {"number": n, "request_id": f"b-{n}-{t0:.3f}"}, self.token
        )
        if status == 201:
            self.sent[body["seq"]] = (t0, body.get("partie"), n)
        self.ms.append(ms)

    def every_second_while(self, alive) -> None:
        tick = time.monotonic()
        while alive():
            self.draw()
            tick += 1.0
            time.sleep(max(0.0, tick - time.monotonic()))


def lock_held_by_a_link(book_size: int, cards: int) -> None:
    """In this process: how long a link of ``cards`` cartons takes, and how long it holds the hall's lock."""
    import random

    from hall.config import parse_config
    from hall.door.service import Hall
    from hall.record.journal import Journal

    folder = Path(tempfile.mkdtemp(prefix="bench-players-lock-"))
    book = CardBook(dict(generate_cards(book_size, seed="bench", series="A")))
    hall = Hall(
        parse_config({"hall": {"data_dir": str(folder)}}),
        Journal(folder / "j.sqlite"),
        book,
        voucher_secret=b"k" * 32,
        rng=random.Random(1),
    )
    ids = list(book)[:cards]
    lock = hall._writer._lock
    held: list[float] = []

    class Timed:
        def __enter__(self):
            lock.acquire()
            self.t = time.perf_counter()

        def __exit__(self, *exc):
            held.append(1e3 * (time.perf_counter() - self.t))
            lock.release()

    hall._writer._lock = Timed()  # type: ignore[assignment]
    total = []
    for _ in range(2000):
        t = time.perf_counter()
        hall.link_cards(ids)
        total.append(1e3 * (time.perf_counter() - t))
    near = []
    for _ in range(500):
        t = time.perf_counter()
        hall.link_cards([i[:-1] + ("Z" if i[-1] != "Z" else "Y") for i in ids])  # 12 near misses: no lock at all
        near.append(1e3 * (time.perf_counter() - t))
    print(summary(f"link of {cards} cartons (book {book_size})", total, width=44))
    print(summary("  of which the hall's lock held", held, width=44))
    print(summary(f"link of {cards} near misses (suggestions for 2)", near, width=44))
    hall.journal.close()
    shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--phones", type=int, default=1000)
    ap.add_argument("--cards", type=int, default=12)
    ap.add_argument("--link-s", type=float, default=60.0)
    ap.add_argument("--duration", type=float, default=300.0)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--no-piclass", action="store_true")
    ap.add_argument("--ping-s", type=float, default=2.0, help="[server] ping_s")
    ap.add_argument("--skip-linking", action="store_true")
    ap.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="run the server's worker under cProfile and print its N costliest functions (own time)",
    )
    ap.add_argument("--port", type=int, default=0, help="the server's port (default: a free one of 18750-18799)")
    ap.add_argument(
        "--idle-s", type=float, default=30.0, help="seconds without a ball before (b), the server's CPU read"
    )
    args = ap.parse_args()
    raise_nofile()
    lock_held_by_a_link(args.phones * args.cards, args.cards)
    port = args.port or unused_port(18750, 18799)
    data = Path(tempfile.mkdtemp(prefix="bench-players-"))
    (data / "data").mkdir()
    cards = generate_cards(args.phones * args.cards, seed="bench", series="A")
    CardBook(dict(cards)).write_csv(data / "data" / "cards.csv")
    ids = [cid for cid, _ in cards]
    config = data / "loto-hall.toml"
    config.write_text(
        '[hall]\ndata_dir = "%s/data"\n[auth]\n%s\n[server]\nhost = "0.0.0.0"\n'
        "worker_connections = 6000\nmax_public_sockets = 5000\nmax_connections_per_address = 1000\n"
        "ping_s = %s\n" % (data, "\n".join(f'{k} = "{v}"' for k, v in DEMO_PINS.items()), args.ping_s)
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "hall.app", "serve", "--config", str(config), "--port", str(port)]
    if args.profile:
        command[1:3] = ["-c", PROFILED % str(data / "worker.prof")]
    if not args.no_piclass:
        command = [PICLASS, "--cores", "1", "--", *command]
    server = subprocess.Popen(
        command,
        env=env,
        cwd=data,
        stdout=open(data / "serve.log", "wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    print(
        f"load before: {os.getloadavg()[0]:.2f}; server {'under piclass --cores 1' if not args.no_piclass else 'unbounded'}"
    )
    try:
        deadline = time.monotonic() + 120
        while http_json(url + "/api/state")[0] != 200:
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start: see " + str(data))
            time.sleep(0.3)
        speaker = Speaker(url)
        per = args.phones // args.procs
        # each phone shows the code printed on its cartons (the QR code's ?k=), made with the hall's own key
        from hall.cartons.card_ids import card_code

        secret = (data / "data" / "voucher.key").read_bytes()
        linked = [{"card_id": cid, "code": card_code(secret, cid)} for cid in ids]

        # (a) linking, a ball a second meanwhile
        results: mp.Queue = mp.Queue()
        if not args.skip_linking:
            procs = [
                mp.Process(target=run_linking, args=(k * per, per, port, linked, args.cards, args.link_s, results))
                for k in range(args.procs)
            ]
            linking = time.monotonic()
            for p in procs:
                p.start()
            speaker.every_second_while(lambda: any(p.is_alive() for p in procs) and results.qsize() < len(procs))
            outs = [results.get(timeout=600) for _ in procs]
            for p in procs:
                p.join(10)
            statuses: dict = {}
            for o in outs:
                for k, v in o["status"].items():
                    statuses[k] = statuses.get(k, 0) + v
            link_ms = [ms for o in outs for ms in o["ms"]]
            linked_ms = [1000 * s for o in outs for s in o["linked_s"]]
            print(
                f"(a) {args.phones} phones × {args.cards} cartons scanned one by one over {args.link_s:.0f} s: "
                f"{len(link_ms)} requests, answers {statuses}, all linked in {time.monotonic() - linking:.0f} s"
            )
            print(summary("  one request (POST /api/players/cards)", link_ms, width=44))
            print(summary("  a scan → its carton linked (waits included)", linked_ms, width=44))
            print(summary("  the speaker's POST /api/draws meanwhile", speaker.ms, width=44))
            print(f"  load now: {os.getloadavg()[0]:.2f}")

        # (b) following
        results = mp.Queue()
        speaker.sent.clear()
        speaker.ms.clear()
        ready: mp.Queue = mp.Queue()
        stop_evt = mp.Event()
        sent_qs = [mp.Queue() for _ in range(args.procs)]
        procs, connected, refused = start_crowd(
            args.procs, per, port, "/socket.io/", ready, results, stop_evt, sent_qs, address
        )
        print(f"(b) {connected} phones following ({refused} refused)")
        if args.idle_s:
            meter = CpuMeter(server.pid)
            time.sleep(args.idle_s)  # no ball: what keeping 1 000 sockets alive costs
            print(meter.said(f"idle, {connected} phones, ping_s {args.ping_s:g}"))
        meter = CpuMeter(server.pid)
        end = time.monotonic() + args.duration
        speaker.every_second_while(lambda: time.monotonic() < end)
        print(meter.said("following, a ball a second"))
        stop_evt.set()
        for q in sent_qs:
            q.put(dict(speaker.sent))
        outs = [results.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(10)
        missed, last_ms = 0, []
        for seq, (t0, _, _) in speaker.sent.items():
            got = [o["draws"].get(seq, [0, 0.0]) for o in outs]
            missed += connected - sum(g[0] for g in got)
            if any(g[0] for g in got):
                last_ms.append(1000 * (max(g[1] for g in got) - t0))
        print(
            f"  balls {len(speaker.sent)} in {args.duration:.0f} s; missed {missed}, seq gaps "
            f"{sum(o['gaps'] for o in outs)}, disconnects {sum(o['disconnects'] for o in outs)}"
        )
        print(summary("  ball → last phone", last_ms))
        print(summary("  the speaker's POST /api/draws", speaker.ms))
        print(f"  load after: {os.getloadavg()[0]:.2f}")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        print(f"server log: {data / 'serve.log'}")
        if args.profile:
            print_profile(data, args.profile)


if __name__ == "__main__":
    main()
