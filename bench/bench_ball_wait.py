"""How long a ball waits for the journal's writer while the door sells and the phones link (issue 45 item 2).

A real hall and journal in this process; ``--sellers`` threads sell cartons back to back (each sale a flushed
write, as a burst of sales or of the phones' links is), one thread draws a ball every ``--every`` seconds; each
draw's time is its wait for the writer plus its own flush. Run it with a Pi's SD card (the flushes are what
queues):

    ../shared/tools/slowdisk/slowdisk --profile sd -- python bench/bench_ball_wait.py
    ../shared/tools/slowdisk/slowdisk --profile sd -- python bench/bench_ball_wait.py --plain   (no ball first)

``--plain`` takes the writer's lock for a ball as for any command (the writer before the ball went first).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import tempfile
import threading
import time

from bench.stats import summary
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sellers", type=int, default=8, help="threads selling back to back (8)")
    ap.add_argument("--balls", type=int, default=60, help="balls drawn (60)")
    ap.add_argument("--every", type=float, default=0.25, help="seconds between balls (0.25)")
    ap.add_argument("--plain", action="store_true", help="a ball waits its turn like any command")
    opts = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-ball-wait-"))
    cards = generate_cards(20_000, "A", "A", "1-9", 1)
    config = parse_config({"hall": {"data_dir": str(folder)}})
    h = Hall(config, Journal(folder / "journal.sqlite"), CardBook(dict(cards)), voucher_secret=b"k" * 32)
    lock = h._writer._lock
    if opts.plain:
        lock.first = lambda: lock  # type: ignore[method-assign]
    h.start_partie(role="speaker")
    ids = iter(cid for cid, _ in cards)
    ids_lock = threading.Lock()
    stop = threading.Event()
    sales: list[float] = []

    def seller() -> None:
        while not stop.is_set():
            with ids_lock:
                cid = next(ids)
            t0 = time.perf_counter()
            h.sell([cid], role="desk", payment="especes", seller="Anne")
            sales.append(1000 * (time.perf_counter() - t0))

    threads = [threading.Thread(target=seller, daemon=True) for _ in range(opts.sellers)]
    for t in threads:
        t.start()
    balls, queued = [], []
    for n in range(1, min(opts.balls, 89) + 1):
        stop.wait(opts.every)
        queued.append(lock.waiting[0])
        t0 = time.perf_counter()
        h.draw(n, role="speaker")
        balls.append(1000 * (time.perf_counter() - t0))
    stop.set()
    for t in threads:
        t.join(10)
    mode = "plain lock" if opts.plain else "the ball first"
    print(
        f"{opts.sellers} sellers back to back, a ball every {opts.every} s ({mode}); writes queued at each ball: "
        f"median {sorted(queued)[len(queued) // 2]}, max {max(queued)}"
    )
    print(summary("a ball drawn: its wait + its flush", balls, width=40, p90=True))
    print(summary("a sale meanwhile", sales, width=40, p90=True))
    h.journal.close()


if __name__ == "__main__":
    main()
