"""The claim check and the winner watch in CPU time, for a loaded machine (lots as lines, issue 34 item 5).

    python bench/bench_lines.py [--cards 100000] [--repeat 5]

``time.process_time`` over whole loops: a ``WinnerWatch`` over the sold cartons, 30 draws with a quine open (best
of ``--repeat`` mean per draw), and ``verify`` on 40 balls for a plain quine, a quine on a named row and a
maxi-bingo (best of 3 means). Wall-clock percentiles are ``bench_core.py``'s; these figures move much less when
other processes share the cores. Prints the figures; never run as a test.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.loto.claims import verify
from hall.loto.watch import WinnerWatch


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    book = CardBook(dict(generate_cards(args.cards, seed="bench")))
    ids = list(book)
    order = list(range(1, 91))
    random.Random(1).shuffle(order)
    per_draw = []
    for _ in range(args.repeat):
        watch = WinnerWatch({c: book.get(c) for c in ids})
        gc.freeze()
        t0 = time.process_time()
        for n in order[:30]:
            watch.on_draw(n, 0, "quine", {}, ())
        per_draw.append((time.process_time() - t0) / 30)
    print(
        f"winner watch over {len(ids):,} sold cartons, CPU per draw (best of {args.repeat}): "
        f"{min(per_draw) * 1e3:.2f} ms"
    )
    lots: list[object] = ["quine"]
    try:  # the lots' terms, where the tree has them (the same script runs on a tree before them)
        from hall.events import Fallback, LotSpec

        lots += [LotSpec("quine", "Q", row=2), LotSpec("carton_plein", "CP", within=45, fallback=Fallback("J"))]
    except ImportError:
        pass
    draws = order[:40]
    for lot in lots:
        means = []
        for _ in range(3):
            t0 = time.process_time()
            for i in range(20_000):
                verify(book.get(ids[i % len(ids)]), draws, lot)
            means.append((time.process_time() - t0) / 20_000)
        name = lot if isinstance(lot, str) else f"{lot.kind} (row {lot.row}, within {lot.within})"  # type: ignore[attr-defined]
        print(f"claim verdict, {name}: CPU {min(means) * 1e6:.2f} µs (best of 3)")


if __name__ == "__main__":
    main()
