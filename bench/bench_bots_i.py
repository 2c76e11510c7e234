"""Bot strength for Lobo 77 and La Linotte: win rates over seeded two-player games, seats alternating.

Run from the repository root:  python bench/bench_bots_i.py [--games 1000]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import bot_only_ms, head_to_head
from hall.minigames.base import random_bot
from hall.minigames.linotte import rules as linotte
from hall.minigames.registry import get_game


def main() -> None:
    """Print one line per pairing."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    games = parser.parse_args().games
    pairings = [
        ("lobo77", "default vs random", get_game('lobo77'), get_game('lobo77').bots["default"], random_bot(get_game('lobo77')), None),
        ("lobo77", "easy vs random", get_game('lobo77'), get_game('lobo77').bots["easy"], random_bot(get_game('lobo77')), None),
        ("lobo77", "default vs easy", get_game('lobo77'), get_game('lobo77').bots["default"], get_game('lobo77').bots["easy"], None),
        ("linotte", "default vs random", get_game('linotte'), get_game('linotte').bots["default"], random_bot(get_game('linotte')), None),
        ("linotte", "default vs random, strict appel", get_game('linotte'), get_game('linotte').bots["default"],
         random_bot(get_game('linotte')), linotte.LinotteOptions(strict_appel=True)),
    ]
    print(f"{'game':8} {'pairing':34} {'win':>7} {'draw':>6} {'loss':>6} {'ms/game':>8}")
    for name, label, game, bot, yardstick, options in pairings:
        r = head_to_head(game, 2, lambda seed: (seed % 2,), games, bot, yardstick, options)
        print(f"{name:8} {label:34} {r['wins'] / games:7.1%} {r['draws'] / games:6.1%} "
              f"{r['losses'] / games:6.1%} {r['ms_per_game']:8.2f}")
    for name, game in (("lobo77", get_game('lobo77')), ("linotte", get_game('linotte'))):
        print(f"{name:8} {'default vs default (speed only)':34} {'':>7} {'':>6} {'':>6} "
              f"{bot_only_ms(game, 2, min(games, 200)):8.2f}")


if __name__ == "__main__":
    main()
