"""Loto Points Rouges solitaire: the solver's time for a hint on every 12- and 16-point board with 8 random pieces.

Run from the repository root:  python bench/bench_pr_hint.py [--draws 500] [--seed 1] [--json] [--pi-factor]

For each solitaire board (RULES P11: the boards of 12 or 16 points, ``SOLITAIRE_BOARDS``), ``--draws`` seeded
draws of 8 pieces out of the 70 (57 shaped pieces and 13 jokers, P3/P8/P11), and for each draw, timed alone with
``time.perf_counter_ns``:

- ``hint(board, rack, jokers)``: the solver-backed hint of the solitaire (a completion with the fewest jokers);
- ``first_cover`` through the bot's ``cheapest_cover`` (what the solitaire bot asks);
- every completion (``solve`` enumerated to the end: what ``legal_moves`` lists for the solitaire, so what the
  room computes for the phone's ``legal`` after each change).

Also ``board_completable`` of each board (its whole cover search with the full box), and a sweep for the tail:
for each board and each joker count 0–8 forced, ``--sweep`` racks (default 40) of that many jokers plus random
shaped pieces: the slowest hint and the slowest enumeration of every completion. ``--pi-factor`` also runs
the n-body calibration of bench/pi_factor.py and prints the judged Raspberry Pi 4 figures. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import percentile
from hall.minigames.points_rouges.bot import cheapest_cover
from hall.minigames.points_rouges.pieces import BOARD_MASKS, BOARD_VALUES, JOKER, all_pieces
from hall.minigames.points_rouges.solver import board_completable, hint, solve
from hall.minigames.points_rouges.state import SOLITAIRE_BOARDS, SOLITAIRE_RACK

CPU_MS: list[float] = []  # the thread's CPU time of the last timed call, appended by _timed


def _timed(call: Callable[[], Any]) -> tuple[float, Any]:
    """Wall-clock milliseconds spent in ``call()``, and what it returned (its CPU milliseconds go to CPU_MS)."""
    on_cpu = time.thread_time_ns()
    started = time.perf_counter_ns()
    result = call()
    spent = time.perf_counter_ns() - started
    CPU_MS.append((time.thread_time_ns() - on_cpu) / 1e6)
    return spent / 1e6, result


def _figures(ms: list[float]) -> dict:
    return {
        "n": len(ms),
        "p50_ms": percentile(ms, 50),
        "p90_ms": percentile(ms, 90),
        "p99_ms": percentile(ms, 99),
        "max_ms": max(ms),
        "mean_ms": statistics.fmean(ms),
    }


def bench_board(board: str, draws: int, seed: int) -> dict:
    """Hint, bot and all-completions timings for ``draws`` random racks of 8 on ``board``."""
    rng = random.Random(f"{seed}:{board}")
    box = all_pieces()
    points = BOARD_MASKS[board]
    timings: dict[str, list[float]] = {"hint": [], "bot": [], "all_covers": []}
    hint_cpu: list[float] = []
    all_cpu: list[float] = []
    solvable = 0
    jokers_used: Counter = Counter()
    slowest: dict = {"ms": -1.0}
    for _ in range(draws):
        drawn = rng.sample(box, SOLITAIRE_RACK)
        rack = Counter(p for p in drawn if p != JOKER)
        jokers = drawn.count(JOKER)
        ms, found = _timed(lambda: hint(points, rack, jokers))
        timings["hint"].append(ms)
        hint_cpu.append(CPU_MS[-1])
        if found is not None:
            solvable += 1
            jokers_used[sum(1 for sid, _ in found if sid == JOKER)] += 1
        if ms > slowest["ms"]:
            slowest = {"ms": ms, "rack": sorted(drawn), "solvable": found is not None}
        timings["bot"].append(_timed(lambda: cheapest_cover(points, Counter(drawn), jokers))[0])
        timings["all_covers"].append(_timed(lambda: sum(1 for _ in solve(points, rack, jokers)))[0])
        all_cpu.append(CPU_MS[-1])
    completable_ms = min(_timed(lambda: board_completable(board))[0] for _ in range(5))
    return {
        "board": board,
        "points": BOARD_VALUES[board],
        "draws": draws,
        "solvable": solvable,
        "solvable_share": solvable / draws,
        "jokers_in_hint": dict(sorted(jokers_used.items())),
        **{name: _figures(ms) for name, ms in timings.items()},
        "board_completable_ms": completable_ms,
        "hint_cpu": _figures(hint_cpu),
        "all_covers_cpu": _figures(all_cpu),
        "slowest_hint": slowest,
        "_hint_ms": timings["hint"],
        "_all_ms": timings["all_covers"],
        "_hint_cpu_ms": hint_cpu,
        "_all_cpu_ms": all_cpu,
    }


def sweep(racks: int, seed: int) -> dict:
    """The slowest hint and all-completions time per board over racks with 0 … 8 jokers forced."""
    rng = random.Random(f"{seed}:sweep")
    shaped = [p for p in all_pieces() if p != JOKER]
    worst: dict = {}
    for board in SOLITAIRE_BOARDS:
        points = BOARD_MASKS[board]
        hint_ms, all_ms, where, most, hint_cpu, all_cpu = 0.0, 0.0, {}, 0, 0.0, 0.0
        for jokers in range(SOLITAIRE_RACK + 1):
            for _ in range(racks):
                rack = Counter(rng.sample(shaped, SOLITAIRE_RACK - jokers))
                ms = _timed(lambda: hint(points, rack, jokers))[0]
                hint_cpu = max(hint_cpu, CPU_MS[-1])
                if ms > hint_ms:
                    hint_ms, where = ms, {"jokers": jokers, "rack": sorted(rack.elements())}
                ms, covers = _timed(lambda: sum(1 for _ in solve(points, rack, jokers)))
                all_ms, most, all_cpu = max(all_ms, ms), max(most, covers), max(all_cpu, CPU_MS[-1])
        worst[board] = {
            "hint_max_ms": hint_ms,
            "all_covers_max_ms": all_ms,
            "most_completions": most,
            "hint_cpu_max_ms": hint_cpu,
            "all_covers_cpu_max_ms": all_cpu,
            "slowest_hint": where,
        }
    return {
        "racks_per_joker_count": racks,
        "boards": worst,
        "hint_max_ms": max(w["hint_max_ms"] for w in worst.values()),
        "all_covers_max_ms": max(w["all_covers_max_ms"] for w in worst.values()),
        "hint_cpu_max_ms": max(w["hint_cpu_max_ms"] for w in worst.values()),
        "all_covers_cpu_max_ms": max(w["all_covers_cpu_max_ms"] for w in worst.values()),
    }


def machine() -> dict:
    """Where and when the figures were taken: CPU count, Python, load average before the run."""
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "loadavg": list(os.getloadavg()),
        "utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def main() -> None:
    """Parse the options and print the figures (a table, or one JSON document)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=500, help="racks drawn per board (default 500)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON document instead of the table")
    parser.add_argument("--sweep", type=int, default=40, help="racks per board and joker count in the sweep")
    parser.add_argument(
        "--pi-factor", action="store_true", help="also calibrate this machine against a Raspberry Pi 4 (n-body, ~30 s)"
    )
    args = parser.parse_args()
    if args.draws < 1 or args.sweep < 0:
        parser.error("--draws must be at least 1 and --sweep at least 0")
    where = machine()
    rows = [bench_board(board, args.draws, args.seed) for board in SOLITAIRE_BOARDS]
    tail = sweep(args.sweep, args.seed) if args.sweep else None
    where["loadavg_after"] = list(os.getloadavg())
    every_hint = [ms for r in rows for ms in r.pop("_hint_ms")]
    every_all = [ms for r in rows for ms in r.pop("_all_ms")]
    every_cpu = [ms for r in rows for ms in r.pop("_hint_cpu_ms")]
    every_all_cpu = [ms for r in rows for ms in r.pop("_all_cpu_ms")]
    overall = {
        "hint": _figures(every_hint),
        "hint_cpu": _figures(every_cpu),
        "all_covers": _figures(every_all),
        "all_covers_cpu": _figures(every_all_cpu),
        "solvable_share": sum(r["solvable"] for r in rows) / (args.draws * len(rows)),
    }
    judged = None
    if args.pi_factor:
        from bench.pi_factor import judge

        figures = {
            "hint p99 (wall clock)": overall["hint"]["p99_ms"],
            "hint p99": overall["hint_cpu"]["p99_ms"],
            "every completion p99": overall["all_covers_cpu"]["p99_ms"],
            "every completion max": overall["all_covers_cpu"]["max_ms"],
        }
        if tail is not None:
            figures |= {
                "slowest hint of the sweep": tail["hint_cpu_max_ms"],
                "slowest enumeration of the sweep": tail["all_covers_cpu_max_ms"],
            }
        judged = judge(figures)
    if args.json:
        print(
            json.dumps(
                {
                    "machine": where,
                    "draws": args.draws,
                    "seed": args.seed,
                    "boards": rows,
                    "overall": overall,
                    "sweep": tail,
                    "pi": judged,
                },
                ensure_ascii=False,
                allow_nan=False,
                indent=1,
            )
        )
        return
    print(
        f"# Points Rouges solitaire hint, {args.draws} racks of {SOLITAIRE_RACK} per board, seed {args.seed}; "
        f"Python {where['python']} {where['machine']}, {where['cpus']} CPUs, load average "
        f"{_load(where['loadavg'])} before, {_load(where['loadavg_after'])} after"
    )
    print(
        f"{'board':5} {'pts':>3} {'solvable':>8} {'hint p50':>9} {'p90':>8} {'p99':>8} {'max':>8} "
        f"{'cpu p99':>8} {'bot p99':>8} {'all p50':>8} {'all p99':>8} {'all max':>8} {'cpu max':>8} "
        f"{'whole':>8}   (ms)"
    )
    for r in rows:
        h, b, a = r["hint"], r["bot"], r["all_covers"]
        print(
            f"{r['board']:5} {r['points']:3d} {r['solvable_share']:8.1%} {h['p50_ms']:9.3f} {h['p90_ms']:8.3f} "
            f"{h['p99_ms']:8.3f} {h['max_ms']:8.3f} {r['hint_cpu']['p99_ms']:8.3f} {b['p99_ms']:8.3f} "
            f"{a['p50_ms']:8.3f} {a['p99_ms']:8.3f} "
            f"{a['max_ms']:8.3f} {r['all_covers_cpu']['max_ms']:8.3f} {r['board_completable_ms']:8.3f}"
        )
    h, a = overall["hint"], overall["all_covers"]
    print(
        f"{'all':5} {'':3} {overall['solvable_share']:8.1%} {h['p50_ms']:9.3f} {h['p90_ms']:8.3f} "
        f"{h['p99_ms']:8.3f} {h['max_ms']:8.3f} {overall['hint_cpu']['p99_ms']:8.3f} {'':8} {a['p50_ms']:8.3f} "
        f"{a['p99_ms']:8.3f} {a['max_ms']:8.3f} {overall['all_covers_cpu']['max_ms']:8.3f}"
    )
    print(
        "hint = solver.hint, cpu p99 its thread CPU time (not inflated by the other processes' load); "
        "bot = the solitaire bot's cheapest_cover; all = every completion (the solitaire's legal moves), "
        "cpu max its slowest in CPU time; whole = board_completable (best of 5)"
    )
    for r in rows:
        s = r["slowest_hint"]
        print(
            f"slowest hint on {r['board']}: {s['ms']:.3f} ms, rack {' '.join(s['rack'])}, "
            f"{'solvable' if s['solvable'] else 'no completion'}; jokers in the hints: {r['jokers_in_hint']}"
        )
    if tail is not None:
        print(
            f"sweep, {args.sweep} racks per board and joker count 0–{SOLITAIRE_RACK}: slowest hint "
            + ", ".join(f"{b} {w['hint_max_ms']:.1f}" for b, w in tail["boards"].items())
            + " ms; slowest enumeration of every completion "
            + ", ".join(f"{b} {w['all_covers_max_ms']:.1f}" for b, w in tail["boards"].items())
            + f" ms (in CPU time: hint {tail['hint_cpu_max_ms']:.1f}, every completion "
            f"{tail['all_covers_cpu_max_ms']:.1f} ms); most completions of one rack (the solitaire's legal moves) "
            + ", ".join(f"{b} {w['most_completions']}" for b, w in tail["boards"].items())
        )
    if judged is not None:
        print(judged["text"])


def _load(values: list[float]) -> str:
    return " ".join(f"{v:.2f}" for v in values)


if __name__ == "__main__":
    main()
