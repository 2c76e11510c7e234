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
    from hall.minigames.match import play_out
    bot = game.bots["default"]
    started = time.perf_counter()
    for seed in range(games):
        play_out(game, players, [bot] * players, random.Random(seed))
    return 1000 * (time.perf_counter() - started) / games


def head_to_head(game, players: int, bot_seats, games: int, bot=None, yardstick=None, options=None) -> dict:
    """Wins, draws and losses of the bot side (seats ``bot_seats(seed)``) against the yardstick (default: a
    random player) over ``games`` seeded games, with the time per game."""
    from hall.minigames.base import random_bot
    from hall.minigames.match import play_out
    bot = bot or game.bots["default"]
    yardstick = yardstick or random_bot(game)
    wins = draws = 0
    started = time.perf_counter()
    for seed in range(games):
        mine = set(bot_seats(seed))
        bots = [bot if s in mine else yardstick for s in range(players)]
        winners = set(play_out(game, players, bots, random.Random(seed), options).outcome().winners)
        if winners == mine:
            wins += 1
        elif winners & mine:
            draws += 1
    seconds = time.perf_counter() - started
    return {"wins": wins, "draws": draws, "losses": games - wins - draws, "games": games,
            "ms_per_game": 1000 * seconds / games}
