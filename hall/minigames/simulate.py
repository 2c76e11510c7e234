"""Bot games played to the end, for ``loto-hall games simulate``: wins per seat, shared wins, length."""

from __future__ import annotations

import random
from collections import Counter
from typing import TypedDict

from hall.minigames.match import play_out
from hall.minigames.registry import BY_NAME, get_game


class Simulation(TypedDict):
    """What ``loto-hall games simulate`` prints: wins per seat, wins shared outside a team, the length in moves."""

    game: str
    players: int
    games: int
    seed: int
    wins: list[int]
    shared: int
    average_moves: float


def simulate(name: str, players: int, games: int, seed: int) -> Simulation:
    """Play ``games`` bot games; returns wins per seat, draws and the average length in moves."""
    game = get_game(name)
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{name}: {game.min_players}–{game.max_players} joueurs, pas {players}")
    bot = game.bots["default"]
    wins: Counter[int] = Counter()
    lengths: list[int] = []
    shared = 0
    for g in range(games):
        rng = random.Random(f"{seed}:{g}")
        match = play_out(game, players, [bot] * players, rng)
        outcome = match.outcome()
        assert outcome is not None  # play_out plays to the end
        lengths.append(len(match.log))
        # partners win together: one team's win is not a shared win
        team_win = any(set(outcome.winners) == set(team) for team in BY_NAME[name].teams)
        if len(outcome.winners) > 1 and not team_win:
            shared += 1
        for seat in outcome.winners:
            wins[seat] += 1
    return {
        "game": name,
        "players": players,
        "games": games,
        "seed": seed,
        "wins": [wins[s] for s in range(players)],
        "shared": shared,
        "average_moves": sum(lengths) / max(1, len(lengths)),
    }
