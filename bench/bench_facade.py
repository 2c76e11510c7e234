"""What the door costs: reads and a command through ``Hall`` (its lock, and since the split its facade over the
desks), and the replay of an evening that the state's event handlers rebuild.

Run: python bench/bench_facade.py            (prints one line per call: microseconds per call, best of 5 runs)
Point PYTHONPATH at another checkout of the project to measure it the same way (the script uses only the
public API of ``Hall``).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import random
import tempfile
import time

from hall.cardbook import CardBook
from hall.config import parse_config
from hall.errors import Rejected
from hall.journal import Journal
from hall.service import Hall

try:
    from hall.planches import generate_cards
except ImportError:        # a checkout from before the cards were split
    from hall.cards import generate_cards  # type: ignore[attr-defined,no-redef]

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


def an_evening(folder: Path, cards) -> tuple:
    """Ten parties played with sales, claims and awards, journalled in ``folder``; returns (config, book)."""
    config = parse_config({"hall": {"data_dir": str(folder)}})
    book = CardBook(dict(cards))
    hall = Hall(config, Journal(folder / "journal.sqlite"), book, voucher_secret=b"k" * 32, rng=random.Random(1))
    ids = list(book)
    hall.sell(ids[:600], role="desk", payment="especes", cents=0)
    rng = random.Random(2)
    for _ in range(10):
        hall.start_partie(role="speaker")
        for n in rng.sample(range(1, 91), 60):
            try:
                hall.draw(n, role="speaker")
            except Rejected:
                break
            if n % 9 == 0:
                hall.check_claim(ids[n], role="controller")
                try:
                    hall.award(role="speaker")
                except Rejected:
                    hall.resume(role="speaker") if hall.snapshot().partie.paused else None
        try:
            hall.clear(role="speaker", force=True)
        except Rejected:
            pass
    hall.journal.close()
    return config, book


def main() -> None:
    cards = generate_cards(3000, "bench", "A")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config, book = an_evening(folder, cards)
        replays = []
        for _ in range(RUNS):
            started = time.perf_counter()
            hall = Hall(config, Journal(folder / "journal.sqlite"), book, voucher_secret=b"k" * 32)
            replays.append(time.perf_counter() - started)
            events = hall.last_seq()
            hall.journal.close()
        print(f"replay of a 10-partie evening ({events} events, {len(book):,} cartons): best {min(replays) * 1e3:.1f} ms")
        hall = Hall(config, Journal(folder / "journal.sqlite"), book, voucher_secret=b"k" * 32)
        some = next(iter(book))
        for name, fn in [("snapshot()", hall.snapshot), ("speaker_snapshot()", hall.speaker_snapshot),
                         ("card_count()", hall.card_count), ("card(id)", lambda: hall.card(some)),
                         ("price_tiers()", hall.price_tiers), ("sales_totals()", hall.sales_totals),
                         ("drawable_numbers()", hall.drawable_numbers), ("device('printer')", lambda: hall.device("printer"))]:
            print(f"Hall.{name:<22} {per_call_us(fn):8.2f} µs per call")
        hall.journal.close()


if __name__ == "__main__":
    main()
