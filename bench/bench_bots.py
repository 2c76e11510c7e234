"""Mini-game bots: decision time per move for the four games, and (--strength) Lobo 77 / La Linotte win rates.

Run from the repository root:  python bench/bench_bots.py [--games 300] [--seed 1] [--json] [--strength]

Decision time: seeded bot-only games of each game (the player count cycles through the game's range with the
seed); each ``game.bots["default"](state, seat, rng)`` call is timed alone with ``time.perf_counter_ns`` (the
rules engine, the ``Match`` checks and the chance moves are outside the clock). Figures per game: count, p50,
p90, p99, max, and the situation of the slowest decision (seed, players, ply, seat, legal moves, the move chosen).
``--strength`` prints the former bench_bots_i table instead (win rates of the Lobo 77 and La Linotte bots).
Not a test.
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import bot_only_ms, head_to_head, percentile
from hall.minigames.base import Game, random_bot
from hall.minigames.linotte import rules as linotte
from hall.minigames.match import Match
from hall.minigames.registry import GAME_NAMES, get_game

MAX_MOVES = 100_000


def _short(value: Any, limit: int = 160) -> str:
    """``repr(value)`` cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def time_game(game: Game, players: int, seed: int, into: list[int], cpu: list[int]) -> dict:
    """Play one bot-only game, appending each decision's wall-clock nanoseconds to ``into`` (and its CPU
    nanoseconds, which other processes on the machine do not inflate, to ``cpu``); returns its slowest decision."""
    rng = random.Random(f"{seed}:{game.name}")
    bot = game.bots["default"]
    match = Match(game, players, rng=rng)
    slowest: dict = {"ns": -1}
    moves = 0
    while match.outcome() is None:
        seat = game.to_move(match.state)[0]
        state = match.state
        on_cpu = time.thread_time_ns()
        started = time.perf_counter_ns()
        move = bot(state, seat, rng)
        spent = time.perf_counter_ns() - started
        cpu.append(time.thread_time_ns() - on_cpu)
        into.append(spent)
        if spent > slowest["ns"]:
            slowest = {
                "ns": spent,
                "seed": seed,
                "players": players,
                "ply": match.version,
                "seat": seat,
                "state": state,
                "move": move,
            }
        match.play(seat, move, match.version)
        moves += 1
        if moves > MAX_MOVES:
            raise RuntimeError(f"{game.name}: no end after {MAX_MOVES} moves")
    return slowest


def bench_game(name: str, games: int, seed: int) -> dict:
    """Decision-time figures of one game's default bot over ``games`` seeded games."""
    game = get_game(name)
    counts = range(game.min_players, game.max_players + 1)
    ns: list[int] = []
    cpu_ns: list[int] = []
    slowest: dict = {"ns": -1}
    started = time.perf_counter()
    for g in range(games):
        players = counts[g % len(counts)]
        worst = time_game(game, players, seed * 1_000_003 + g, ns, cpu_ns)
        if g == 0:
            first_game = len(ns)  # the first game pays the bots' one-time tables (e.g. La Linotte's odds)
        if worst["ns"] > slowest["ns"]:
            slowest = worst
    wall = time.perf_counter() - started
    state = slowest.pop("state")
    slowest["legal_moves"] = len(game.legal_moves(state, slowest["seat"]))
    slowest["view"] = game.view(state, slowest["seat"])
    slowest["move"] = json.loads(json.dumps(slowest["move"]))  # tuples → lists: strict JSON
    slowest["ms"] = slowest.pop("ns") / 1e6
    ms = [n / 1e6 for n in ns]
    cpu = [n / 1e6 for n in cpu_ns]
    return {
        "game": name,
        "games": games,
        "players": list(counts),
        "decisions": len(ns),
        "p50_ms": percentile(ms, 50),
        "p90_ms": percentile(ms, 90),
        "p99_ms": percentile(ms, 99),
        "max_ms": max(ms),
        "max_ms_after_first_game": max(ms[first_game:], default=None),
        "mean_ms": statistics.fmean(ms),
        "wall_s": wall,
        "cpu_p50_ms": percentile(cpu, 50),
        "cpu_p99_ms": percentile(cpu, 99),
        "cpu_max_ms": max(cpu),
        "slowest": slowest,
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


def decision_times(games: int, seed: int, as_json: bool) -> None:
    """Print the decision-time table (or one JSON document) of the four games."""
    where = machine()
    rows = [bench_game(name, games, seed) for name in GAME_NAMES]
    where["loadavg_after"] = list(os.getloadavg())
    if as_json:
        print(
            json.dumps(
                {"machine": where, "games": games, "seed": seed, "bots": rows},
                ensure_ascii=False,
                allow_nan=False,
                indent=1,
            )
        )
        return
    print(
        f"# bot decision time, default bots, {games} games each, seed {seed}; Python {where['python']} "
        f"{where['machine']}, {where['cpus']} CPUs, load average {_load(where['loadavg'])} before, "
        f"{_load(where['loadavg_after'])} after"
    )
    print(
        f"{'game':14} {'players':>7} {'decisions':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8} "
        f"{'max*':>8} {'cpu p99':>8} {'cpu max':>8} {'wall s':>7}"
    )
    for r in rows:
        span = f"{r['players'][0]}–{r['players'][-1]}" if len(r["players"]) > 1 else str(r["players"][0])
        print(
            f"{r['game']:14} {span:>7} {r['decisions']:9d} {r['p50_ms']:8.3f} {r['p90_ms']:8.3f} "
            f"{r['p99_ms']:8.3f} {r['max_ms']:8.3f} {_ms(r['max_ms_after_first_game'])} "
            f"{r['cpu_p99_ms']:8.3f} {r['cpu_max_ms']:8.3f} {r['wall_s']:7.1f}"
        )
    print(
        "max*: the slowest decision after the first game (the first one builds the bots' cached tables); "
        "cpu: the thread's CPU time, which other processes' load does not inflate"
    )
    for r in rows:
        s = r["slowest"]
        print(
            f"slowest {r['game']}: {s['ms']:.3f} ms, seed {s['seed']}, {s['players']} players, ply {s['ply']}, "
            f"seat {s['seat']}, {s['legal_moves']} legal moves, played {_short(s['move'])}"
        )


def _ms(value: float | None) -> str:
    return f"{value:8.3f}" if value is not None else f"{'–':>8}"


def _load(values: list[float]) -> str:
    return " ".join(f"{v:.2f}" for v in values)


def strength(games: int) -> None:
    """Print the win rates of the Lobo 77 and La Linotte bots (the former bench_bots_i table)."""
    lobo, lino = get_game("lobo77"), get_game("linotte")
    pairings = [
        ("lobo77", "default vs random", lobo, lobo.bots["default"], random_bot(lobo), None),
        ("lobo77", "easy vs random", lobo, lobo.bots["easy"], random_bot(lobo), None),
        ("lobo77", "default vs easy", lobo, lobo.bots["default"], lobo.bots["easy"], None),
        ("linotte", "default vs random", lino, lino.bots["default"], random_bot(lino), None),
        (
            "linotte",
            "default vs random, strict appel",
            lino,
            lino.bots["default"],
            random_bot(lino),
            linotte.LinotteOptions(strict_appel=True),
        ),
    ]
    print(f"{'game':8} {'pairing':34} {'win':>7} {'draw':>6} {'loss':>6} {'ms/game':>8}")
    for name, label, game, bot, yardstick, options in pairings:
        r = head_to_head(game, 2, lambda seed: (seed % 2,), games, bot, yardstick, options)
        print(
            f"{name:8} {label:34} {r['wins'] / games:7.1%} {r['draws'] / games:6.1%} "
            f"{r['losses'] / games:6.1%} {r['ms_per_game']:8.2f}"
        )
    for name, game in (("lobo77", lobo), ("linotte", lino)):
        print(
            f"{name:8} {'default vs default (speed only)':34} {'':>7} {'':>6} {'':>6} "
            f"{bot_only_ms(game, 2, min(games, 200)):8.2f}"
        )


def main() -> None:
    """Parse the options and print the chosen figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=None, help="games per game (default 300; 1000 per pairing with --strength)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON document instead of the table")
    parser.add_argument("--strength", action="store_true", help="Lobo 77 / La Linotte win rates instead")
    args = parser.parse_args()
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.strength:
        strength(args.games or 1000)
    else:
        decision_times(args.games or 300, args.seed, args.json)


if __name__ == "__main__":
    main()
