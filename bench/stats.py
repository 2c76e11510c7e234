"""Figures shared by the benchmark scripts: nearest-rank percentiles, a one-line summary, a server's CPU."""

from __future__ import annotations

import os
import random
import statistics
import time
from pathlib import Path

PI_CORE = 1 / 4.5  # piclass's share of one of this machine's cores that one Pi 4 core is worth


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def summary(name: str, ms: list[float], width: int = 34, p90: bool = False) -> str:
    """``name n=… p50=… [p90=…] p99=… max=… mean=…`` in milliseconds."""
    middle = f"p90={percentile(ms, 90):6.2f} ms  " if p90 else ""
    return (
        f"{name:<{width}} n={len(ms)}  p50={percentile(ms, 50):6.2f} ms  {middle}p99={percentile(ms, 99):6.2f} ms  "
        f"max={max(ms):6.2f} ms  mean={statistics.fmean(ms):6.2f} ms"
    )


def cpu_seconds(group: int) -> float:
    """User + system CPU seconds of the live processes of process group ``group`` (the server and its worker)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:
            total += int(fields[11]) + int(fields[12])
    return total / tick


class CpuMeter:
    """A process group's CPU (a server and its workers) over a stretch of wall time, as a share of one Pi core."""

    def __init__(self, group: int):
        self.group = group
        self.cpu, self.wall = cpu_seconds(group), time.monotonic()

    def read(self) -> tuple[float, float]:
        """(CPU seconds, wall seconds) since the meter started."""
        return cpu_seconds(self.group) - self.cpu, time.monotonic() - self.wall

    def said(self, what: str) -> str:
        cpu, wall = self.read()
        return (
            f"  server CPU {what}: {cpu:.1f} s in {wall:.0f} s = {100 * cpu / wall:.1f} % of one core here, "
            f"{100 * cpu / wall / PI_CORE:.0f} % of one Pi core (load {os.getloadavg()[0]:.2f})"
        )


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
    return {
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "games": games,
        "ms_per_game": 1000 * seconds / games,
    }
