"""Bot strength for Bid Euchre and Loto Points Rouges: win rates against random players over seeded games.

Run from the repository root:  python bench/bench_bots_ii.py [--games 1000]
Euchre: a bot team (seats 0&2 or 1&3, alternating) against two random players; a tie counts as not won.
Points Rouges: one bot against one random player, seats alternating; a shared win counts as a draw.
Also times an OSGA day (``simulate_day``) and bot-only games. Not a test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import bot_only_ms, head_to_head
from hall.minigames.match import play_out
from hall.minigames.osga.day import simulate_day
from hall.minigames.registry import get_game


def main() -> None:
    """Print the figures as Markdown table rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    games = parser.parse_args().games
    rows = [
        ("Bid Euchre, bot team vs 2 random", head_to_head(get_game("euchre"), 4, lambda s: (s % 2, s % 2 + 2), games)),
        (
            "Points Rouges, bot vs random (2 players)",
            head_to_head(get_game("points-rouges"), 2, lambda s: (s % 2,), games),
        ),
    ]
    print("| match-up | games | bot wins | draws | losses | win rate | ms/game |")
    print("|---|---|---|---|---|---|---|")
    for name, r in rows:
        print(
            f"| {name} | {r['games']} | {r['wins']} | {r['draws']} | {r['losses']} | "
            f"{100 * r['wins'] / r['games']:.1f} % | {r['ms_per_game']:.1f} |"
        )
    print()
    sample = max(1, games // 10)
    print(
        f"Bot-only games ({sample} each): euchre {bot_only_ms(get_game('euchre'), 4, sample):.1f} ms, "
        f"points-rouges 4 players {bot_only_ms(get_game('points-rouges'), 4, sample):.1f} ms, "
        f"solitaire {bot_only_ms(get_game('points-rouges'), 1, sample):.1f} ms"
    )
    bot = get_game("points-rouges").bots["default"]
    patience = [play_out(get_game("points-rouges"), 1, [bot], random.Random(s)) for s in range(sample)]
    done = sum(m.outcome().winners == (0,) for m in patience)
    swaps = sum(m.state.swaps for m in patience) / sample
    print(f"Solitaire (board F, {sample} games): completed {100 * done / sample:.1f} %, {swaps:.2f} swaps on average")
    started = time.perf_counter()
    simulate_day(20, seed=1)
    print(f"OSGA day, 20 teams (10 tables x 12 games): {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
