"""``loto-hall games simulate`` and ``games tournament``: bot games to the end, results printed."""

from __future__ import annotations

import argparse

from hall.minigames import play_bot_games, simulate_day


def run(args: argparse.Namespace) -> int:
    """Run the ``games`` sub-command; returns the exit code."""
    if args.games_command == "tournament":
        print(simulate_day(args.teams, args.seed))
        return 0
    try:
        result = play_bot_games(args.game, args.players, args.games, args.seed)
    except ValueError as exc:
        print(f"loto-hall: {exc}")
        return 2
    print(f"{result['game']} — {result['games']} parties, {result['players']} joueurs, graine {result['seed']}")
    for seat, count in enumerate(result["wins"]):
        print(f"  siège {seat} : {count} victoire(s) ({100 * count / max(1, result['games']):.1f} %)")
    if result["shared"]:
        print(f"  victoires partagées / égalités : {result['shared']}")
    print(f"  longueur moyenne : {result['average_moves']:.1f} coups")
    return 0
