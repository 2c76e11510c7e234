"""Cartons benchmark: generating 10 000 cartons, reading a 100 000-carton CSV, memory of that book.

Run: ``python bench/bench_cards.py`` (figures go to docs/bench/cards.md). Not a test.
"""

from __future__ import annotations

import gc
import os
import platform
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards


def best_of(runs: int, fn) -> float:
    """Return the fastest of ``runs`` timings of fn(), in seconds."""
    times = []
    for _ in range(runs):
        gc.collect()
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def rss_mib() -> float:
    """Return this process's resident memory in MiB (Linux /proc; peak RSS elsewhere)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def child(csv_path: str) -> None:
    """In a fresh process: print the RSS taken by reading the book, cold then with every numbers cache filled."""
    before = rss_mib()
    book = CardBook.read_csv(csv_path)
    loaded = rss_mib()
    for card_id in book:
        book.get(card_id).numbers  # noqa: B018 - fills the per-carton cache
    warm = rss_mib()
    print(f"{loaded - before:.1f} {warm - before:.1f} {before:.1f}")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
        return
    print(f"Python {platform.python_version()} on {platform.machine()} ({platform.processor() or 'unknown cpu'})")

    for columns in ("1-9", "1-10"):
        t = best_of(5, lambda: generate_cards(10_000, seed="bench", columns=columns))
        print(f"generate 10 000 cartons ({columns}): {t * 1000:.0f} ms (best of 5)")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cards.csv"
        big = CardBook(dict(generate_cards(100_000, seed="bench")))
        t = best_of(3, lambda: big.write_csv(path))
        print(f"write 100 000-carton CSV: {t * 1000:.0f} ms, {path.stat().st_size / 1e6:.1f} MB on disk")

        t = best_of(3, lambda: CardBook.read_csv(path))
        print(f"read 100 000-carton CSV (every line validated): {t * 1000:.0f} ms (best of 3)")
        t = best_of(3, lambda: CardBook.read_csv(path).save(tmp))
        print(f"read + atomic save of 100 000 cartons: {t * 1000:.0f} ms")

        gc.collect()
        tracemalloc.start()
        book = CardBook.read_csv(path)
        gc.collect()
        cold, peak = tracemalloc.get_traced_memory()
        for card_id in book:
            book.get(card_id).numbers  # noqa: B018
        warm, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(
            f"tracemalloc, 100 000-carton book: {cold / 2**20:.1f} MiB "
            f"(peak while reading {peak / 2**20:.1f} MiB); "
            f"{warm / 2**20:.1f} MiB once every carton's numbers set is cached"
        )
        del book

        out = subprocess.run(
            [sys.executable, __file__, "--child", str(path)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        loaded, warm_rss, base = map(float, out.stdout.split())
        print(
            f"RSS, 100 000-carton book (fresh process): +{loaded:.1f} MiB over {base:.1f} MiB at start; "
            f"+{warm_rss:.1f} MiB with every numbers set cached"
        )


if __name__ == "__main__":
    main()
