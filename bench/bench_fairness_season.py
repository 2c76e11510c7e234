"""The fairness count over a season (RULES L26): how often an honest machine is ever named when the count is read
after every evening, and how soon a faulty one is.

Each partie is drawn as a ball machine draws it (without putting any back) and stops where a real partie stops: at
the first carton plein among the evening's cartons (``--cartons``, real planches from hall/cartons/planches.py; the
lengths are taken from a pool of such parties). The hall's own check (hall/loto/fairness.py) is read after each
evening, as the speaker shows /stats at the break; the one-look chi-square rule the hall used before is read beside
it on the same seasons.

Run: python bench/bench_fairness_season.py                  (the figures in docs/benchmarks.md: 1 000 seasons)
     python bench/bench_fairness_season.py --seasons 100     (a quicker look)
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from hall.cartons.planches import generate_planche
from hall.loto import fairness

BALLS = range(1, fairness.BALLS + 1)


def partie_lengths(rng: random.Random, cartons: int, pool: int) -> list[int]:
    """``pool`` parties' lengths: the ball on which the first of ``cartons`` cartons is full."""
    planches = -(-cartons // 6)
    cards = [card for _ in range(planches) for card in generate_planche(rng)][:cartons]
    numbers = [[n for row in card.rows for n in row] for card in cards]
    lengths = []
    for _ in range(pool):
        order = rng.sample(list(BALLS), len(BALLS))
        at = {n: i + 1 for i, n in enumerate(order)}
        lengths.append(min(max(at[n] for n in card) for card in numbers))
    return lengths


def draw(rng: random.Random, size: int, weights: dict[int, float]) -> list[int]:
    """A partie of ``size`` balls, ball n weighted ``weights.get(n, 1)`` (0: not in the machine): the order of
    a weighted draw without replacement (each ball's exponential clock, rate its weight)."""
    if not weights:
        return rng.sample(list(BALLS), size)
    clocks = sorted((rng.expovariate(w), n) for n in BALLS if (w := weights.get(n, 1.0)) > 0)
    return [n for _, n in clocks[:size]]


def one_look_flags(parties: list[list[int]]) -> bool:
    """The rule the hall used before (a chi-square p under 1 %, or a number whose normal p, times 90, is under
    5 %), read once: whether it names something."""
    counts = fairness.counts(parties)
    chi2, p, expected, variance = fairness.chi_square(counts, [len(d) for d in parties])
    if expected < fairness.MIN_EXPECTED:
        return False
    sd = math.sqrt(variance)
    named = any(90 * math.erfc(abs(counts[n] - expected) / sd / math.sqrt(2)) < 0.05 for n in BALLS)
    return named or p < 0.01


def season(args: tuple[int, list[int], int, int, dict[int, float], int | None]) -> dict:
    """One season: whether the hall's check (and the one-look rule) ever named anything at an evening's end, and
    the partie after which the faulty ``target`` was first named."""
    seed, lengths, evenings, per_evening, weights, target = args
    rng = random.Random(seed)
    found = fairness.Evidence()
    parties: list[list[int]] = []
    flagged = one_look = False
    named_after = None
    for _ in range(evenings):
        for _ in range(per_evening):
            balls = draw(rng, rng.choice(lengths), weights)
            parties.append(balls)
            found.add(balls)
            if target is not None and named_after is None and found.log_e(target) >= fairness.NAMED_AT:
                named_after = len(parties)
        if target is not None:
            if named_after is not None:
                break
            continue
        flagged = flagged or fairness.check(parties, found).verdict == "stands_out"
        one_look = one_look or one_look_flags(parties)
    return {"flagged": flagged, "one_look": one_look, "named_after": named_after}


def run(kind: str, n: int, lengths: list[int], opts, weights: dict[int, float], target: int | None) -> list[dict]:
    jobs = [(opts.seed * 100_003 + i, lengths, opts.evenings, opts.parties, weights, target) for i in range(n)]
    with ProcessPoolExecutor(opts.jobs) as pool:
        return list(pool.map(season, jobs, chunksize=8))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seasons", type=int, default=1000, help="honest seasons (1 000)")
    ap.add_argument("--faulty", type=int, default=200, help="seasons of each faulty machine (200)")
    ap.add_argument("--evenings", type=int, default=100, help="evenings a season (100)")
    ap.add_argument("--parties", type=int, default=12, help="parties an evening (12)")
    ap.add_argument("--cartons", type=int, default=600, help="cartons in play in a partie (600)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    opts = ap.parse_args()
    lengths = partie_lengths(random.Random(opts.seed), opts.cartons, 2000)
    q = statistics.quantiles(lengths, n=20)
    print(
        f"a partie ends at its first carton plein among {opts.cartons} cartons: ball {min(lengths)}–{max(lengths)}, "
        f"median {statistics.median(lengths):.0f} (p5 {q[0]:.0f}, p95 {q[-1]:.0f})"
    )
    print(f"a season: {opts.evenings} evenings of {opts.parties} parties, read after every evening")
    t0 = time.perf_counter()
    honest = run("honest", opts.seasons, lengths, opts, {}, None)
    ever = sum(r["flagged"] for r in honest)
    before = sum(r["one_look"] for r in honest)
    print(
        f"honest machine, {opts.seasons} seasons: ever named by the hall's check {ever} ({100 * ever / opts.seasons:.1f} %,"
        f" bound 5 %); by the one-look rule {before} ({100 * before / opts.seasons:.1f} %)"
    )
    for label, weights in (("never draws 90", {90: 0.0}), ("draws 90 at half weight", {90: 0.5})):
        faulty = run(label, opts.faulty, lengths, opts, weights, 90)
        after = sorted(r["named_after"] for r in faulty if r["named_after"] is not None)
        missed = len(faulty) - len(after)
        if after:
            q = statistics.quantiles(after, n=10) if len(after) > 1 else [after[0]] * 9
            print(
                f"machine that {label}, {opts.faulty} seasons: 90 named after {statistics.median(after):.0f} parties"
                f" (median; p10 {q[0]:.0f}, p90 {q[-1]:.0f}, max {after[-1]}), never in the season: {missed}"
            )
        else:
            print(f"machine that {label}: never named in {opts.faulty} seasons")
    print(f"({time.perf_counter() - t0:.0f} s on {opts.jobs} processes)")


if __name__ == "__main__":
    main()
