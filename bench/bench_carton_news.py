"""The phones told by the hall (display/cartons.py): what the core spends, per record, on the standings of the
cartons the phones follow — the claim check for each carton a record may change, once whatever the phones following
it, then each standing shaped once (the JSON a socket and the relays' queue message carry).

    python bench/bench_carton_news.py [--book 12000] [--followed 6000] [--parties 3] [--seed 1]

A hall of ``--book`` cartons (in planches of 6), ``--followed`` of them followed (a thousand phones of six cartons),
parties of the default programme played to their end with a seeded draw, each valid claim checked and awarded (the
next lot opened on the same ball). Per ball and per award: the time of ``Hall.carton_news`` (the verdicts), of
shaping the changed standings and of the one queue message's JSON, and how many standings changed. Run it under
``/work/shared/tools/piclass`` for a Pi's figures. Prints the figures; never run as a test.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.stats import summary  # noqa: E402
from display.cartons import shaped  # noqa: E402
from hall.cartons.cardbook import CardBook  # noqa: E402
from hall.cartons.planches import generate_cards  # noqa: E402
from hall.config import parse_config  # noqa: E402
from hall.door.service import Hall  # noqa: E402
from hall.record.journal import Journal  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--book", type=int, default=12_000)
    ap.add_argument("--followed", type=int, default=6_000)
    ap.add_argument("--parties", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="carton-news-"))
    book = CardBook(dict(generate_cards(args.book, "B", "A", "1-9", 1)))
    hall = Hall(
        parse_config({"hall": {"data_dir": str(folder)}}),
        Journal(folder / "journal.sqlite"),
        book,
        voucher_secret=b"k" * 32,
        rng=rnd,
    )
    followed = rnd.sample(list(book), min(args.followed, len(book)))
    started = time.perf_counter()
    for i in range(0, len(followed), 500):  # as the relays ask: 500 keys at a time
        hall.follow([hall.follow_key(c) for c in followed[i : i + 500]])
    follow_ms = 1000 * (time.perf_counter() - started)
    timings: dict[str, list[float]] = {"ball": [], "award": []}
    shape_ms: list[float] = []
    queue_ms: list[float] = []
    changed: dict[str, list[int]] = {"ball": [], "award": []}

    records: list = []
    hall.subscribe(records.append)

    def measure() -> None:
        """Every record the last command journalled, as the phones' broadcaster reads it (after the command)."""
        picture = hall.snapshot().partie
        for record in records:
            kind = "ball" if record.type == "draw:ball_drawn" else "award"
            t0 = time.perf_counter()
            told = hall.carton_news(record, picture)
            t1 = time.perf_counter()
            if record.type not in ("draw:ball_drawn", "lot:awarded", "partie:started"):
                continue
            items = shaped(record.seq, told)
            t2 = time.perf_counter()
            json.dumps({"t": "cartons", "at": record.seq, "items": items}, separators=(",", ":"), ensure_ascii=False)
            t3 = time.perf_counter()
            timings[kind].append(1000 * (t1 - t0))
            shape_ms.append(1000 * (t2 - t1))
            queue_ms.append(1000 * (t3 - t2))
            changed[kind].append(len(told))
        records.clear()

    for _ in range(args.parties):
        hall.start_partie(role="speaker")
        measure()
        order = list(range(1, 91))
        rnd.shuffle(order)
        p = hall.evening.running
        for n in order:
            if p.current is None:
                break
            if p.held:
                hall.resume(role="speaker")
                records.clear()
            hall.draw(n, role="speaker")
            measure()
            while p.current is not None and hall.watch.candidates:
                for cid in list(hall.watch.candidates):
                    hall.check_claim(cid, role="controller")
                records.clear()  # a claim checked touches no standing but its carton's
                hall.award(role="speaker", draw=len(p.pending) > 1)
                measure()
        hall.clear(role="speaker", force=True)
        records.clear()
    print(f"book {args.book} cartons, {len(followed)} followed, {args.parties} parties; follow all: {follow_ms:.0f} ms")
    for kind in ("ball", "award"):
        n = changed[kind]
        print(
            summary(f"verdicts per {kind} (ms)", timings[kind]),
            f"  standings changed: mean {sum(n) / max(1, len(n)):.0f}, max {max(n or [0])}",
        )
    print(summary("shaping the changed standings (ms)", shape_ms))
    print(summary("the queue message's JSON (ms)", queue_ms))


if __name__ == "__main__":
    main()
