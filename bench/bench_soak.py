"""Soak: many Socket.IO clients connected while a ball is drawn every second; disconnects and missed events.

    python bench/bench_soak.py [--clients 300] [--seconds 60] [--interval 1.0]

``display.create_app`` on Werkzeug's threaded server (127.0.0.1), ``--clients`` python-socketio clients on
WebSocket, a ball a second through ``Hall.draw`` (a new partie after 90). Every client checks that no ``seq``
is missing from what it received. At the end: how many clients dropped, how many draws each
missed, how many seq gaps, and the spread of a draw's arrival across all clients. Never run as a test.
"""
from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from werkzeug.serving import make_server  # noqa: E402

from bench.bench_projector_latency import Crowd, open_hall, percentile  # noqa: E402
from display.app import create_app  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--interval", type=float, default=1.0)
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    hall = open_hall(Path(tempfile.mkdtemp(prefix="loto-soak-")))
    hall.start_partie(role="speaker")
    app, _ = create_app(hall, hall.config)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"

    t = time.perf_counter()
    crowd = Crowd(url, args.clients)
    print(f"{args.clients} clients connected in {time.perf_counter() - t:.1f} s; python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPU; {args.seconds:.0f} s, a ball every {args.interval} s")

    sent: dict[int, float] = {}
    rng = random.Random(3)
    bag: list[int] = []
    start = time.monotonic()
    tick = 0
    while time.monotonic() - start < args.seconds:
        if not bag:
            if hall.evening.running.draws:
                hall.clear(role="speaker", force=True)
                hall.start_partie(role="speaker")
            bag = rng.sample(range(1, 91), 90)
        t0 = time.time() * 1000
        record = hall.draw(bag.pop(), role="speaker", source="soak")
        sent[record.seq] = t0
        tick += 1
        time.sleep(max(0.0, start + tick * args.interval - time.monotonic()))   # the pace of a real evening

    report = crowd.report(len(sent))
    missed, gaps, disconnects = report["missed"], report["gaps"], report["disconnects"]
    dropped = args.clients - report["connected"]
    spread = [report["latest"][s] - t0 for s, t0 in sent.items() if s in report["latest"]]
    print(f"draws: {len(sent)}; clients still connected: {args.clients - dropped}/{args.clients}; "
          f"disconnects: {disconnects}; draws missed (all clients): {missed}; seqs missing: {gaps}")
    if spread:
        print(f"draw → last of {args.clients} clients: p50={percentile(spread, 50):.1f} ms  "
              f"p99={percentile(spread, 99):.1f} ms  max={max(spread):.1f} ms  mean={statistics.fmean(spread):.1f} ms")
    print(f"target 0 disconnects, 0 missed: {'met' if not (missed or disconnects or gaps) else 'NOT met'}")
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
