"""Core figures: claim verdict and winner-watch update with 100 000 cartons, replay of an evening, memory, and what
the journal's hash chain costs (a draw of the busy hall with and without it, in one run; a record's hash; verify).

Run: python bench/bench_core.py            (prints the figures recorded in docs/benchmarks.md)
     python bench/bench_core.py --chain [--dir /dev/shm]   (the chain's figures only; tmpfs: the CPU alone)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gc
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.stats import percentile
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.config import parse_config
from hall.door.service import Hall
from hall.loto.claims import verify
from hall.loto.watch import WinnerWatch
from hall.record.journal import Journal
from hall.refusal import Rejected

N = 100_000


def bench_claims_and_watch(cards):
    book = CardBook(dict(cards))
    ids = list(book)
    rnd = random.Random(1)
    order = list(range(1, 91))
    rnd.shuffle(order)
    draws = order[:40]
    # claim verdict: look-up in the book + the rules
    times = []
    for _ in range(5000):
        cid = rnd.choice(ids)
        t0 = time.perf_counter()
        verify(book.get(cid), draws, "quine")
        times.append(time.perf_counter() - t0)
    print(
        f"claim verdict (book of {len(book):,}): p50 {percentile(times, 50) * 1e6:.1f} µs, "
        f"p99 {percentile(times, 99) * 1e6:.1f} µs"
    )
    # winner watch: one draw, incremental vs a rescan of every sold carton
    t0 = time.perf_counter()
    watch = WinnerWatch({cid: book.get(cid) for cid in ids})
    build = time.perf_counter() - t0
    gc.freeze()  # as the service does once the book is loaded (hall/app/runtime.py)
    per_draw = []
    for i, n in enumerate(order[:60]):
        t0 = time.perf_counter()
        watch.on_draw(n, 0, "quine", {}, ())
        per_draw.append(time.perf_counter() - t0)
    late = per_draw[30:]
    per_draw = per_draw[:30]
    drawn = order[:30]
    t0 = time.perf_counter()
    for cid in ids:
        verify(book.get(cid), drawn, "quine")
    rescan = time.perf_counter() - t0
    mean = statistics.mean(per_draw)
    print(
        f"winner watch over {len(ids):,} sold cartons: index built in {build:.2f} s; per draw mean "
        f"{mean * 1e3:.2f} ms, p99 {percentile(per_draw, 99) * 1e3:.2f} ms; full rescan {rescan * 1e3:.0f} ms "
        f"(ratio {rescan / mean:.0f}×) — first 30 draws; draws 31–60 with the quine still unclaimed and "
        f"thousands of sleepers: mean {statistics.mean(late) * 1e3:.2f} ms, max {max(late) * 1e3:.1f} ms"
    )


def build_evening(folder: Path, cards, parties=10):
    config = parse_config({})
    book = CardBook(dict(cards))
    hall = Hall(config, Journal(folder / "journal.sqlite"), book, voucher_secret=b"k" * 32, rng=random.Random(2))
    rnd = random.Random(3)
    for _ in range(parties):
        hall.start_partie(role="speaker")
        order = list(range(1, 91))
        rnd.shuffle(order)
        for n in order:
            p = hall.evening.running
            if p.current is None:
                break
            hall.draw(n, role="speaker")
            for cid in list(hall.watch.candidates)[:3]:
                hall.check_claim(cid, role="controller")
            if p.pending:
                hall.award(role="speaker")
                if p.held and p.current is not None:  # the draw waits after each award (docs/loto-rules.md L11a)
                    hall.resume(role="speaker")
            elif rnd.random() < 0.03:
                hall.check_claim(rnd.choice(list(book)), role="controller")  # a false claim now and then
        try:
            hall.clear(role="speaker", force=True)
        except Rejected:
            pass
    hall.journal.close()
    return config, book


def bench_replay(cards):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        t0 = time.perf_counter()
        config, book = build_evening(folder, cards)
        built = time.perf_counter() - t0
        events = Journal(folder / "journal.sqlite").last_seq
        times = []
        for _ in range(5):
            t0 = time.perf_counter()
            hall = Hall(config, Journal(folder / "journal.sqlite"), book, voucher_secret=b"k" * 32)
            times.append(time.perf_counter() - t0)
            hall.journal.close()
        print(
            f"replay of a 10-partie evening ({events} events, {len(book):,} sold cartons): "
            f"best {min(times) * 1e3:.0f} ms, median {statistics.median(times) * 1e3:.0f} ms "
            f"(live evening with fsync per event took {built:.1f} s)"
        )


def bench_durable_check(cards):
    with tempfile.TemporaryDirectory() as tmp:
        book = CardBook(dict(cards))
        hall = Hall(parse_config({}), Journal(Path(tmp) / "j.sqlite"), book, voucher_secret=b"k" * 32)
        hall.start_partie(role="speaker")
        for n in range(1, 41):
            hall.draw(n, role="speaker")
        ids = list(book)
        times = []
        for i in range(300):
            t0 = time.perf_counter()
            hall.check_claim(ids[(i * 7) % len(ids)], role="controller")
            times.append(time.perf_counter() - t0)
        print(
            f"Hall.check_claim including the fsync'd journal write: p50 {percentile(times, 50) * 1e3:.2f} ms, "
            f"p99 {percentile(times, 99) * 1e3:.2f} ms"
        )
        hall.journal.close()


def bench_chain(cards, rounds: int = 3, balls: int = 60, folder: str | None = None):
    """The busy hall (every one of ``cards`` sold, the winner watch, the fsync'd journal) drawing with the chain and
    without it (its hash replaced by nothing): two halls side by side, each ball drawn in both, the order alternating,
    so that both see the same machine (``rounds`` parties of ``balls`` balls)."""
    from hall.events import BallDrawn, SaleRecorded, to_payload
    from hall.record import chain

    real = chain.text_hash
    book = CardBook(dict(cards), set(dict(cards)))
    config = parse_config({})
    times: dict[str, list[float]] = {"without": [], "with": []}
    rnd = random.Random(5)
    try:
        with tempfile.TemporaryDirectory(dir=folder or Path(__file__).resolve().parent) as tmp:  # on disk by default
            halls = {
                mode: Hall(config, Journal(Path(tmp) / f"{mode}.sqlite"), book, voucher_secret=b"k" * 32)
                for mode in times
            }
            for _ in range(rounds):
                order = list(range(1, 91))
                rnd.shuffle(order)
                for hall in halls.values():
                    hall.start_partie(role="speaker")
                for i, n in enumerate(order[:balls]):
                    for mode in ("without", "with") if i % 2 == 0 else ("with", "without"):
                        chain.text_hash = real if mode == "with" else (lambda *args: "")
                        t0 = time.perf_counter()
                        halls[mode].draw(n, role="speaker")
                        times[mode].append(time.perf_counter() - t0)
                for hall in halls.values():
                    hall.clear(role="speaker", force=True)
            for hall in halls.values():
                hall.journal.close()
    finally:
        chain.text_hash = real
    for mode, label in (("without", "before (no chain)"), ("with", "after (hash chain)")):
        t = times[mode]
        print(
            f"busy hall's draw, {len(book):,} sold cartons, journal in {folder or 'bench/ (disk)'}, {len(t)} draws — {label}: "
            f"p50 {percentile(t, 50) * 1e3:.2f} ms, p99 {percentile(t, 99) * 1e3:.2f} ms, "
            f"max {max(t) * 1e3:.2f} ms"
        )
    appends: dict[str, list[float]] = {"without": [], "with": []}  # the journal's append alone, same order
    try:
        for r in range(rounds):
            for mode in ("without", "with") if r % 2 == 0 else ("with", "without"):
                chain.text_hash = real if mode == "with" else (lambda *args: "")
                with tempfile.TemporaryDirectory(dir=Path(__file__).resolve().parent) as tmp:
                    journal = Journal(Path(tmp) / "j.sqlite")
                    for i in range(100):
                        t0 = time.perf_counter()
                        journal.append(BallDrawn(i % 90 + 1, i, "console"), "speaker", "2026-11-21T20:14:00.000+00:00")
                        appends[mode].append(time.perf_counter() - t0)
                    journal.close()
    finally:
        chain.text_hash = real
    for mode, label in (("without", "before"), ("with", "after")):
        t = appends[mode]
        print(
            f"journal append alone (fsync'd), {len(t)} appends — {label}: p50 {percentile(t, 50) * 1e3:.2f} ms, "
            f"p99 {percentile(t, 99) * 1e3:.2f} ms"
        )
    for name, event in (
        ("a ball", BallDrawn(42, 17, "console")),
        (
            "a sale of 50 cartons",
            SaleRecorded(7, tuple(f"A-{i:05d}X" for i in range(50)), 15000, "especes", buyer="Mme Dupont"),
        ),
    ):
        text = json.dumps(to_payload(event), ensure_ascii=False, separators=(",", ":"))
        spent = []
        for _ in range(2000):
            t0 = time.perf_counter()
            real(chain.GENESIS, 123, event.type, text, "speaker", "2026-11-21T20:14:00.000+00:00")
            spent.append(time.perf_counter() - t0)
        print(
            f"one record's hash ({name}, {len(text)} bytes of payload): p50 {percentile(spent, 50) * 1e6:.1f} µs, "
            f"p99 {percentile(spent, 99) * 1e6:.1f} µs"
        )
    with tempfile.TemporaryDirectory() as tmp:
        build_evening(Path(tmp), cards[:3000])
        journal = Journal(Path(tmp) / "journal.sqlite")
        t0 = time.perf_counter()
        verdict = chain.verify(journal.rows())
        spent = time.perf_counter() - t0
        journal.close()
        print(
            f"verify of a 10-partie evening ({verdict.records} records): {spent * 1e3:.0f} ms "
            f"({verdict.records / spent:,.0f} records/s), chain {'intact' if verdict.ok else 'BROKEN'}"
        )


MEMORY_CHILD = """
import sys, tempfile
from pathlib import Path
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.config import parse_config
from hall.record.journal import Journal
from hall.door.service import Hall
def rss_kb():
    # VmRSS, not ru_maxrss: a forked child's ru_maxrss starts from its parent's size
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
before = rss_kb()
book = CardBook(dict(generate_cards(int(sys.argv[1]), seed=1)))
tmp = tempfile.mkdtemp()
hall = Hall(parse_config({}), Journal(Path(tmp) / "j.sqlite"), book, voucher_secret=b"k" * 32)
hall.start_partie(role="speaker")
for n in range(1, 31):
    hall.draw(n, role="speaker")
print(before, rss_kb())
"""


def bench_memory():
    out = subprocess.run([sys.executable, "-c", MEMORY_CHILD, str(N)], capture_output=True, text=True, check=True)
    before, after = map(int, out.stdout.split())
    print(
        f"resident memory, hall with {N:,} sold cartons in play: {after / 1024:.0f} MB "
        f"(interpreter and imports alone: {before / 1024:.0f} MB)"
    )


def main():
    t0 = time.perf_counter()
    cards = generate_cards(N, seed="bench")
    print(f"generated {N:,} cartons in {time.perf_counter() - t0:.2f} s")
    if "--chain" in sys.argv[1:]:  # --chain [--dir /dev/shm]: the journal's fsync out of the figure
        args = sys.argv[1:]
        bench_chain(cards, rounds=5, folder=args[args.index("--dir") + 1] if "--dir" in args else None)
        return
    bench_claims_and_watch(cards)
    bench_durable_check(cards[:2000])
    bench_replay(cards[:3000])
    bench_chain(cards)
    bench_memory()


if __name__ == "__main__":
    main()
