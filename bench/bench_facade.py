"""What the door costs: reads and a command through ``Hall`` (its lock, and since the split its facade over the
desks), and the replay of an evening that the state's event handlers rebuild.

Run: python bench/bench_facade.py            (prints one line per call: microseconds per call, best of 5 runs)
Copy it into another checkout of the project (``git archive``) to measure that one the same way: it uses only
the public API of ``Hall`` and ``bench/bench_core.py``'s evening.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tempfile
import time

from bench.bench_core import build_evening
from hall.door.service import Hall
from hall.record.journal import Journal

try:
    from hall.cartons.planches import generate_cards
except ImportError:  # a checkout from before the cards were split
    from hall.cartons.cards import generate_cards

CALLS = 20_000
RUNS = 5


def per_call_us(fn) -> float:
    """Microseconds per call of ``fn``, best of ``RUNS`` runs of ``CALLS`` calls."""
    best = float("inf")
    for _ in range(RUNS):
        started = time.perf_counter()
        for _ in range(CALLS):
            fn()
        best = min(best, (time.perf_counter() - started) / CALLS)
    return best * 1e6


def main() -> None:
    cards = generate_cards(3000, "bench", "A")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config, book = build_evening(folder, cards)  # bench_core's: ten parties, claims, awards
        replays = []
        for _ in range(RUNS):
            started = time.perf_counter()
            hall = Hall(config, Journal(folder / "journal.sqlite"), book, voucher_secret=b"k" * 32)
            replays.append(time.perf_counter() - started)
            events = hall.last_seq()
            hall.journal.close()
        print(
            f"replay of a 10-partie evening ({events} events, {len(book):,} cartons): best {min(replays) * 1e3:.1f} ms"
        )
        hall = Hall(config, Journal(folder / "journal.sqlite"), book, voucher_secret=b"k" * 32)
        some = next(iter(book))
        for name, fn in [
            ("snapshot()", hall.snapshot),
            ("speaker_snapshot()", hall.speaker_snapshot),
            ("card_count()", hall.card_count),
            ("card(id)", lambda: hall.card(some)),
            ("price_tiers()", hall.price_tiers),
            ("sales_totals()", hall.sales_totals),
            ("drawable_numbers()", hall.drawable_numbers),
            ("device('printer')", lambda: hall.device("printer")),
        ]:
            print(f"Hall.{name:<22} {per_call_us(fn):8.2f} µs per call")
        hall.journal.close()


if __name__ == "__main__":
    main()
