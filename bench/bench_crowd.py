"""A hall full of phones against ``loto-hall serve`` (gunicorn, gevent worker), over loopback only.

    python bench/bench_crowd.py [--clients 2000] [--duration 300] [--attack] [--procs 2] [--server gunicorn]
                                [--relays N [--redis-outage 30] [--kill-relay S]] [--piclass CORES] [--idle-s S]
                                [--runs N]

(a) ``--clients`` Socket.IO clients (WebSocket) connect, a draw a second for ``--duration`` seconds:
    disconnects, missed events, draw → last client p50/p99, the worker's RSS.
(b) ``--attack`` adds, for the whole run, 400 slow-header connections (kept open, re-opened when the
    server cuts them) and 400 sockets opened in 3 s by one address; the speaker's draw, ``GET /api/state``
    and a new projector (connect → ``state``) are timed: p99 < 100 ms is the goal.

The clients are a minimal Engine.IO 4 / Socket.IO 5 client over raw WebSocket frames on asyncio, in
``--procs`` child processes, so the client side is cheap and does not share the server's CPU accounting.
``--relays N`` (issue 25): the hall with a queue, its core and N relays behind nginx, and its own Redis; the phones
connect on the relays' path. ``--redis-outage S`` stops Redis for S seconds in the middle of the run. A ball counts
as received by a phone when its event came, or a later ``state`` (a resync) held it. ``--piclass CORES`` runs the
whole hall (Redis included) under ``/work/shared/tools/piclass --cores CORES``, the clients outside.
``--idle-s S`` first holds the clients connected S seconds with no ball; the hall's CPU (its process group: core,
relays, nginx, Redis) is printed for that stretch and for the balls, as a share of one Pi core. ``--kill-relay S``
SIGKILLs the relay carrying the most phones S seconds into the balls: its phones' return (lost → their state again,
on which relay) and the balls missed are printed. ``--runs N``: N runs in a row, each a fresh hall, then each run's
p50/p99/max side by side; every run prints the phones per relay and each relay's last phone p50/p99/max (a relay that
carries no phone, or far more than its share, is the first thing to look at in a slow run).
Phones connect from distinct loopback addresses (127.0.1.1, 127.0.1.2, …, ten per address); the attacker
from 127.0.0.66; the speaker and the projector from 127.0.0.1. Nothing leaves 127.0.0.0/8.
Prints the figures; never run as a test.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.crowd_hall import BenchHall  # noqa: E402
from bench.crowd_phones import raise_nofile, start_crowd, ws_connect, ws_recv  # noqa: E402
from bench.stats import CpuMeter, percentile, summary  # noqa: E402
from hall.app.demo import DEMO_PINS  # noqa: E402

PINS = DEMO_PINS
ATTACKER = "127.0.0.66"


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
                    writer.write(b"X")  # a trickle: one byte a second
                    await writer.drain()
                    try:
                        if await asyncio.wait_for(reader.read(1), 1.0) == b"":
                            break
                    except TimeoutError:
                        pass
                stats["slow_cut"] += 1
                writer.close()
                if time.monotonic() - opened < 0.5:
                    await asyncio.sleep(0.5)  # refused at once (per-address cap): not a busy loop
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
        for i in range(400):  # 400 sockets in 3 s
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
    except OSError:  # no answer in 15 s: counted as 15 s, the run goes on
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
        pass  # no state in 15 s: counted as that long
    return 1000 * (time.perf_counter() - started)


def main() -> None:
    args = arguments()
    raise_nofile()
    runs = []
    for run in range(args.runs):
        if args.runs > 1:
            print(f"\n======== run {run + 1} of {args.runs}")
        runs.append(one_run(args))
    if args.runs > 1:
        print("\nrun  load start → end   draw → last phone p50 / p99 / max (ms)   phones per relay   missed")
        for i, r in enumerate(runs, 1):
            print(
                f"{i:>3}  {r['load'][0]:5.2f} → {r['load'][1]:5.2f}     {r['p50']:7.1f} / {r['p99']:7.1f} / "
                f"{r['max']:7.1f}            {' / '.join(str(n) for n in r['spread']) or '—':<16}   {r['missed']}"
            )


def arguments() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=2000)
    ap.add_argument("--duration", type=float, default=300.0)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--attack", action="store_true")
    ap.add_argument("--server", default="gunicorn", choices=("gunicorn", "gthread", "werkzeug"))
    ap.add_argument("--relays", type=int, default=0, help="relays (issue 25): the core, N relays, nginx, Redis")
    ap.add_argument("--redis-outage", type=float, default=0.0, help="seconds without Redis in the middle")
    ap.add_argument("--piclass", type=int, default=0, help="run the hall under piclass --cores N")
    ap.add_argument(
        "--idle-s",
        type=float,
        default=0.0,
        help="first, this long with the clients connected and no ball: the hall's CPU idle",
    )
    ap.add_argument("--kill-relay", type=float, default=0.0, help="SIGKILL the busiest relay this long into the balls")
    ap.add_argument("--runs", type=int, default=1, help="this many runs in a row, each a fresh hall")
    return ap.parse_args()


def one_run(args: argparse.Namespace) -> dict:
    """One hall, its phones, a ball a second for ``--duration``; prints the figures, returns the main ones."""
    data = Path(tempfile.mkdtemp(prefix="bench-crowd-"))
    hall = BenchHall(data, PINS, relays=args.relays, piclass_cores=args.piclass, server=args.server)
    url, port = hall.url, hall.port
    load = os.getloadavg()[0]
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if http_json(url + "/api/state")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start: see " + str(data))
            time.sleep(0.2)
        time.sleep(2.0 if args.relays else 0.0)  # the relays subscribe
        rss_idle = hall.rss()
        token = http_json(url + "/api/login", {"pin": PINS["speaker_pin"]})[1]["token"]
        http_json(url + "/api/partie/start", {}, token)
        partie = 1

        ready, results, counts = mp.Queue(), mp.Queue(), mp.Queue()
        sent_qs = [mp.Queue() for _ in range(args.procs)]
        stop_evt = mp.Event()
        per = args.clients // args.procs
        started = time.monotonic()
        procs, connected, refused = start_crowd(
            args.procs, per, port, hall.socket_path, ready, results, stop_evt, sent_qs
        )
        print(f"{connected} clients connected in {time.monotonic() - started:.1f} s ({refused} refused)")
        rss_connected = hall.rss()
        carried = hall.relay_clients()
        settle = time.monotonic() + 5  # the relays report every second
        while args.relays and sum(carried.values()) < connected and time.monotonic() < settle:
            time.sleep(0.2)
            carried = hall.relay_clients()
        spread = sorted(carried.values())
        if spread:
            print("phones per relay: " + ", ".join(str(n) for n in spread))
            if len(spread) < args.relays or min(spread) < 0.5 * connected / args.relays:
                print(f"  !! {args.relays} relays, phones on {len(spread)}: one was not serving when they came")
        attacker = None
        if args.attack:
            attacker = mp.Process(target=run_attack, args=(port, stop_evt, counts))
            attacker.start()
            time.sleep(3.5)  # the 400 sockets are opened in the first 3 s
        cpu_said = []
        if args.idle_s:
            meter = CpuMeter(hall.proc.pid)
            time.sleep(args.idle_s)
            cpu_said.append(meter.said("idle, the clients connected"))
        meter = CpuMeter(hall.proc.pid)

        draw_ms, state_ms, projector_ms, sent, posted = [], [], [], {}, {}
        outage_draw_ms: list[float] = []
        numbers = list(range(1, 91))
        begin, begin_wall = time.monotonic(), time.time()
        end = begin + args.duration
        outage = (begin + (args.duration - args.redis_outage) / 2, begin + (args.duration + args.redis_outage) / 2)
        redis_state = "up"
        redis_down_at = redis_back_at = None
        victim, killed_at = None, None
        tick = time.monotonic()
        while time.monotonic() < end:
            now = time.monotonic()
            if args.redis_outage and redis_state == "up" and now >= outage[0]:
                hall.stop_redis()
                redis_down_at = time.time()
                redis_state = "down"
                print(f"Redis stopped at {now - begin:.0f} s")
            elif redis_state == "down" and now >= outage[1]:
                hall.start_redis()
                redis_back_at = time.time()
                redis_state = "back"
                print(f"Redis started again at {now - begin:.0f} s")
            if args.kill_relay and victim is None and now >= begin + args.kill_relay:
                victim, killed_at = hall.kill_busiest_relay()
                print(f"relay {victim} SIGKILLed at {now - begin:.0f} s")
            if not numbers:
                http_json(url + "/api/partie/clear", {"force": True}, token)
                http_json(url + "/api/partie/start", {}, token)
                partie += 1
                numbers = list(range(1, 91))
            n = numbers.pop(0)
            t0 = time.time()
            status, body, ms = http_json(url + "/api/draws", {"number": n, "request_id": f"bench-{n}-{t0:.3f}"}, token)
            if status == 201:
                sent[body["seq"]] = (t0, partie, n)
                posted[body["seq"]] = ms
            draw_ms.append(ms)
            if redis_state == "down":
                outage_draw_ms.append(ms)
            state_ms.append(http_json(url + "/api/state")[2])
            projector_ms.append(asyncio.run(new_projector(port)))
            tick += 1.0
            time.sleep(max(0.0, tick - time.monotonic()))
        cpu_said.append(meter.said("a ball a second"))
        time.sleep(3.0)  # the last resyncs
        rss_end = hall.rss()
        stop_evt.set()
        for q in sent_qs:
            q.put(sent)
        outs = [results.get(timeout=300) for _ in procs]
        for p in procs:
            p.join(10)
        attack = counts.get(timeout=30) if attacker else None
        if attacker:
            attacker.join(10)

        missed, last_ms, after_return_ms = 0, [], []
        worst: list[tuple[float, float, int]] = []
        by_relay: dict[int, dict[str, float]] = {}
        for seq, (t0, _, _) in sent.items():
            got = [o["draws"].get(seq, [0, 0.0, {}]) for o in outs]
            missed += connected - sum(g[0] for g in got)
            latest = max(g[1] for g in got)
            for g in got:
                for relay, at in g[2].items():
                    by_relay.setdefault(seq, {})[relay] = max(by_relay.get(seq, {}).get(relay, 0.0), at)
            if redis_back_at is not None and redis_down_at <= t0 < redis_back_at:
                after_return_ms.append(1000 * (latest - redis_back_at))  # drawn while Redis was away
            elif latest:
                last_ms.append(1000 * (latest - t0))
                worst.append((1000 * (latest - t0), t0 - begin_wall, seq))
        hall_kind = f"the core + {args.relays} relays + nginx + Redis" if args.relays else "one process"
        print(
            f"server: {args.server}, {hall_kind}"
            + (f", under piclass --cores {args.piclass}" if args.piclass else "")
            + f"; load average at start {load:.2f}, at the end {os.getloadavg()[0]:.2f}"
        )
        print(
            f"clients {connected}, draws {len(sent)} in {args.duration:.0f} s"
            + (" with the attack" if args.attack else "")
            + (f", Redis stopped {args.redis_outage:.0f} s in the middle" if args.redis_outage else "")
        )
        print(
            f"disconnects {sum(o['disconnects'] for o in outs)} (reconnected {sum(o['reconnects'] for o in outs)}), "
            f"balls missed {missed}, seq gaps {sum(o['gaps'] for o in outs)}"
        )
        lags = [lag for o in outs for _, lag in o.get("late", [])]
        print(
            f"the phones' processes' loop late by more than 20 ms {len(lags)} times, at most "
            f"{1000 * max(lags, default=0.0):.0f} ms (their own CPU, not the hall's)"
        )
        print("slowest balls (ms, at s): " + ", ".join(f"{ms:.0f} at {at:.0f}" for ms, at, _ in sorted(worst)[-5:]))
        for ms, at, seq in sorted(worst)[-5:]:  # where the time went: the speaker's POST, then each relay's last phone
            t0 = sent[seq][0]
            relays = ", ".join(
                f"{r.rsplit(':', 1)[-1]} {1000 * (t - t0):.0f}" for r, t in sorted(by_relay.get(seq, {}).items())
            )
            late = max(
                (lag for o in outs for when, lag in o.get("late", []) if t0 <= when <= t0 + ms / 1000 + 0.1),
                default=0.0,
            )
            print(
                f"  ball at {at:.0f} s: POST answered in {posted.get(seq, 0):.0f} ms; last phone per relay (ms): "
                f"{relays}; the phones' own loop late by up to {1000 * late:.0f} ms meanwhile"
            )
        for relay, phones in sorted(carried.items()):
            ms = [1000 * (at[relay] - sent[seq][0]) for seq, at in by_relay.items() if relay in at]
            if ms:
                print(f"  relay {relay.rsplit(':', 1)[-1]}: {phones} phones, " + summary("its last phone", ms, width=0))
        if victim is not None:
            back = [1000 * (at - killed_at) for o in outs for _, at, was, _ in o["returns"] if was == victim]
            to = sorted({now for o in outs for _, _, was, now in o["returns"] if was == victim})
            print(f"relay {victim} killed: {len(back)} of its phones back, on {', '.join(to) or 'none'}")
            if back:
                print(summary("  killed → its phone's state again", back))
        for line in cpu_said:
            print(line)
        print(summary("draw → last client", last_ms) + (" (balls drawn while Redis was up)" if after_return_ms else ""))
        if after_return_ms:
            print(summary("  drawn while Redis was away: Redis back → last client", after_return_ms, width=0))
        print(summary("speaker's POST /api/draws", draw_ms))
        if outage_draw_ms:
            print(summary("  … while Redis was away", outage_draw_ms))
        print(summary("GET /api/state", state_ms))
        print(summary("new projector (connect → state)", projector_ms))
        for title, rows in (("idle", rss_idle), (f"{connected} clients", rss_connected), ("end", rss_end)):
            print(
                f"RSS {title}: "
                + ", ".join(f"{name} {mb:.0f} MB" for name, mb in rows)
                + f" — total {sum(mb for _, mb in rows):.0f} MB"
            )
        if attack:
            print(
                f"attack: slow headers opened {attack['slow_opened']} (cut by the server {attack['slow_cut']}), "
                f"sockets from one address: {attack['flood_open']} handshakes, {attack['flood_refused']} refused"
            )
        print(f"p99 draw → last client < 500 ms: {'yes' if last_ms and percentile(last_ms, 99) < 500 else 'NO'}")
        for name, ms in (("draw", draw_ms), ("state", state_ms), ("projector", projector_ms)):
            print(f"p99 {name} < 100 ms: {'yes' if percentile(ms, 99) < 100 else 'NO'}")
        return {
            "load": (load, os.getloadavg()[0]),
            "p50": percentile(last_ms, 50) if last_ms else 0.0,
            "p99": percentile(last_ms, 99) if last_ms else 0.0,
            "max": max(last_ms, default=0.0),
            "spread": spread,
            "missed": missed,
        }
    finally:
        hall.close()


if __name__ == "__main__":
    main()
