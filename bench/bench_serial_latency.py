"""Ball machine latency: last byte of a ball written on a pty → the draw durable in the journal (fsync'd).

    python bench/bench_serial_latency.py [--balls 500] [--dir DIR] [--protocol lines|stx]

A real pty, the real ``BallMachineReader`` thread, a real ``Hall`` over a SQLite journal (WAL,
synchronous=FULL) in DIR (default: a temporary folder). One ball in flight at a time; the clock
starts just before the ``write`` of the whole frame and stops in the hall's subscriber, which runs
after the event is on disk. The same number of direct ``Hall.draw`` calls is timed for comparison
(the journal's share of the latency). Prints the figures; never run as a test.
"""
from __future__ import annotations

import argparse
import os
import queue
import random
import sys
import tempfile
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import percentile
from bench.stats import summary as stats_summary
from drivers.ball_machine import BallMachineReader
from drivers.ball_protocol import frame
from hall.cardbook import CardBook
from hall.config import BallMachineSection, parse_config
from hall.journal import Journal
from hall.service import Hall


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
        for _ in range(count + 20):               # 20 warm-up balls, not counted
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--balls", type=int, default=500)
    parser.add_argument("--dir", help="folder for the journals (default: a new temporary folder)")
    parser.add_argument("--protocol", choices=("lines", "stx"), default="lines")
    args = parser.parse_args()
    folder = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="loto-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
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
