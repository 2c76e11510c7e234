"""Figures shared by the benchmark scripts: nearest-rank percentiles and a one-line summary."""
from __future__ import annotations

import random
import statistics
import time


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def summary(name: str, ms: list[float], width: int = 34, p90: bool = False) -> str:
    """``name n=… p50=… [p90=…] p99=… max=… mean=…`` in milliseconds."""
    middle = f"p90={percentile(ms, 90):6.2f} ms  " if p90 else ""
    return (f"{name:<{width}} n={len(ms)}  p50={percentile(ms, 50):6.2f} ms  {middle}p99={percentile(ms, 99):6.2f} ms  "
            f"max={max(ms):6.2f} ms  mean={statistics.fmean(ms):6.2f} ms")


def bot_only_ms(game, players: int, games: int) -> float:
    """Milliseconds per mini-game with the default bot in every seat (seeds 0 … games-1)."""
    from hall.games.match import play_out
    bot = game.bots["default"]
    started = time.perf_counter()
    for seed in range(games):
        play_out(game, players, [bot] * players, random.Random(seed))
    return 1000 * (time.perf_counter() - started) / games
