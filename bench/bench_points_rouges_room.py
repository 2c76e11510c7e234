"""The solitaire hint's budget (display/rooms/points_rouges.py HINT_NODES): time and search nodes of
``bounded_cover`` for random 8-piece racks on every 12- and 16-point board, and the time a search that
exhausts the budget takes (the longest any phone can make the hint work).

Also what a phone receives on its turn in a 2-player game (the `legal` list, the seat view): see seat_views;
and the legal list once a turn's three take-backs are spent (P7b: each piece offered must leave the figure
finishable, one exact-cover search per candidate): see figure_after_limit.

Run from the repository root:  python bench/bench_points_rouges_room.py [--racks 2000] [--games 30] [--figures 600]
[--only-figures]
Not a test. The whole-endpoint figure adds one HTTP request and a lock taken for microseconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import summary
from display.rooms.points_rouges import HINT_NODES
from hall.minigames.points_rouges.pieces import BOARD_MASKS, JOKER, SHAPE_IDS, SHAPES, all_pieces
from hall.minigames.points_rouges.solver import bounded_cover
from hall.minigames.points_rouges.state import SOLITAIRE_BOARDS


def nodes_needed(remaining: int, rack: Counter, jokers: int) -> int:
    """The smallest node budget (a power of two) under which the search answers."""
    budget = 16
    while bounded_cover(remaining, rack, jokers, budget)[0] is None:
        budget *= 2
    return budget


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racks", type=int, default=2000, help="racks per board")
    parser.add_argument("--games", type=int, default=30, help="2-player games for the seat views")
    parser.add_argument(
        "--figures", type=int, default=600, help="positions for the legal list once take-backs are spent"
    )
    parser.add_argument("--only-figures", action="store_true", help="measure only that legal list")
    if parser.parse_args().only_figures:
        figure_after_limit(parser.parse_args().figures)
        return
    racks = parser.parse_args().racks
    pieces = list(all_pieces())
    for letter in SOLITAIRE_BOARDS:
        rng = random.Random(letter)
        ms, needed, solvable = [], [], 0
        for _ in range(racks):
            rack = Counter(rng.sample(pieces, 8))
            jokers = rack.pop(JOKER, 0)
            started = time.perf_counter()
            found, _ = bounded_cover(BOARD_MASKS[letter], rack, jokers, HINT_NODES)
            ms.append(1000 * (time.perf_counter() - started))
            solvable += bool(found)
            needed.append(nodes_needed(BOARD_MASKS[letter], rack, jokers))
        print(
            summary(f"board {letter} ({bin(BOARD_MASKS[letter]).count('1')} pts), 8 random pieces", ms, width=40)
            + f"  solvable {100 * solvable / racks:.1f} %  nodes needed ≤ {max(needed)}"
        )
    # the worst a phone can cause: a search that never ends by itself (25 points, only 2-dot pieces)
    rack = Counter({sid: 3 for sid in SHAPE_IDS if len(SHAPES[sid]) == 2})
    started = time.perf_counter()
    answer = bounded_cover((1 << 25) - 1, rack, 0, HINT_NODES)
    print(f"budget exhausted ({HINT_NODES} nodes): answer {answer[0]}, {1000 * (time.perf_counter() - started):.0f} ms")
    seat_views(parser.parse_args().games)
    figure_after_limit(parser.parse_args().figures)


def seat_views(games: int) -> None:
    """What a phone receives on its turn in 2-player games (seats play a random move keeping their jokers when
    they can): the size of ``legal`` and of the seat view, and the time the room takes to build it (under the lock)."""
    import json

    from bench.stats import percentile
    from hall.minigames.lobby import Lobby, LobbySettings

    counts: list[float] = []
    sizes: list[float] = []
    ms: list[float] = []
    for seed in range(games):
        lobby = Lobby(LobbySettings(bot_delay_s=0, takeover_s=10), rng=random.Random(seed))
        code = lobby.open("points-rouges", {"players": 2}).code
        tokens = [lobby.join(code, f"P{i}")[2] for i in range(2)]
        room = lobby.start(code)
        rng = random.Random(seed)
        while room.status == "playing":
            seat = room.to_move[0]
            started = time.perf_counter()
            view = lobby.seat_view(code, tokens[seat])
            ms.append(1000 * (time.perf_counter() - started))
            counts.append(len(view["legal"]))
            sizes.append(len(json.dumps(view)) / 1024)
            thrifty = [m for m in view["legal"] if not (m[0] == "place" and any(p[0] == JOKER for p in m[2]))]
            lobby.play(code, tokens[seat], rng.choice(thrifty or view["legal"]), room.version)
            room = lobby.room(code)
    for name, values, unit in (
        ("legal moves", counts, ""),
        ("seat view size", sizes, " KiB"),
        ("build time", ms, " ms"),
    ):
        print(
            f"2 players, {games} games, {name:<15} p50 {percentile(values, 50):8.1f}{unit}  "
            f"p99 {percentile(values, 99):8.1f}{unit}  max {max(values):8.1f}{unit}"
        )


def figure_after_limit(positions: int) -> None:
    """The legal list of a seat whose take-backs are spent (P7b), on positions reached by play that lays and
    takes back figures as often as it places: built cold (its searches' cache emptied first, as for a new
    position) and again (what the move's own check and the bot then cost)."""
    from dataclasses import replace

    from bench.stats import percentile
    from hall.minigames.match import Match
    from hall.minigames.points_rouges import moves
    from hall.minigames.points_rouges.state import MAX_TAKE_BACKS
    from hall.minigames.registry import get_game

    game = get_game("points-rouges")
    import os

    cold: list[float] = []
    warm: list[float] = []
    cpu: list[float] = []
    counts: list[float] = []
    rng = random.Random(7)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    while len(cold) < positions:
        match = Match(game, rng.choice((2, 3, 4)), rng=rng)
        for _ in range(rng.randrange(0, 80)):
            if match.outcome() is not None:
                break
            seat = moves.to_move(match.state)[0]
            legal = moves.legal_moves(match.state, seat)
            kind = rng.choice(sorted({m[0] for m in legal}))
            match.play(seat, rng.choice([m for m in legal if m[0] == kind]))
        if match.outcome() is not None:
            continue
        state = replace(match.state, take_backs=MAX_TAKE_BACKS)
        seat = moves.to_move(state)[0]
        moves._coverable.cache_clear()
        for times in (cold, warm):
            started, started_cpu = time.perf_counter(), time.thread_time()
            listed = moves.legal_moves(state, seat)
            times.append(1000 * (time.perf_counter() - started))
            if times is cold:
                cpu.append(1000 * (time.thread_time() - started_cpu))
        counts.append(len(listed))
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    for name, values in (("cold", cold), ("cold CPU", cpu), ("again", warm)):
        print(
            f"take-backs spent, {positions} positions, legal list {name:<6} p50 {percentile(values, 50):7.2f} ms  "
            f"p99 {percentile(values, 99):7.2f} ms  max {max(values):7.2f} ms"
        )
    print(
        f"take-backs spent, legal moves p50 {percentile(counts, 50):.0f}  p99 {percentile(counts, 99):.0f}  "
        f"max {max(counts):.0f}"
    )


if __name__ == "__main__":
    main()
