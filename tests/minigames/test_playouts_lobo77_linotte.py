"""Seeded whole games of Lobo 77 and La Linotte: invariants after every move, replays, bot strength."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from hall.minigames.base import CHANCE, random_bot
from hall.minigames.linotte import rules as linotte
from hall.minigames.lobo77 import rules as lobo77
from hall.minigames.match import Match, play_out
from hall.minigames.registry import get_game
from tests.minigames.playout import each_move

pytestmark = pytest.mark.slow  # whole games played out by bots: see pytest --durations

LOBO_BOT, LOBO_EASY, LOBO_RANDOM = (
    get_game("lobo77").bots["default"],
    get_game("lobo77").bots["easy"],
    random_bot(get_game("lobo77")),
)
LINOTTE_BOT, LINOTTE_RANDOM = get_game("linotte").bots["default"], random_bot(get_game("linotte"))


def lobo_checks(players: int, options: lobo77.Lobo77Options):
    """A check of Lobo 77's invariants on one move, from the state before to the state after."""
    full_deck = Counter(lobo77.deck(options))
    losses = [0]

    def check(seat, move, before, state) -> None:
        assert Counter(c for h in state.hands for c in h) + Counter(state.draw) + Counter(state.discard) == full_deck
        assert all(0 <= c <= options.chips for c in state.chips)
        if seat != CHANCE:
            assert state.total == before.total + lobo77.added(move[1])
            lost = [s for s in range(players) if state.chips[s] != before.chips[s] or state.out[s] != before.out[s]]
            assert lost == ([seat] if state.last[3] else [])
            if lost:
                losses[0] += 1
                assert state.chips[seat] == before.chips[seat] - 1 or (before.chips[seat] == 0 and state.out[seat])
        # chips only leave: each loss is one chip, or the elimination of a swimmer
        assert sum(state.chips) + losses[0] - sum(state.out) == players * options.chips
        if state.phase == "play":
            for s in lobo77.active(state):
                in_double = s == state.turn and state.to_play == 1 and state.played == 1
                assert len(state.hands[s]) == lobo77.HAND_SIZE - (1 if in_double else 0)
            assert not state.out[state.turn]
        if state.phase == "over":
            assert len(lobo77.active(state)) == 1

    return check


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_lobo77_playouts_keep_cards_chips_hands_and_totals(players):
    for seed in range(60):
        rng = random.Random(seed * 10 + players)
        options = lobo77.Lobo77Options(card_76=seed % 3 == 0, repeat_double_costs_chip=seed % 4 == 1)
        bots = [rng.choice([LOBO_BOT, LOBO_EASY, LOBO_RANDOM]) for _ in range(players)]
        match = play_out(
            get_game("lobo77"),
            players,
            bots,
            rng,
            options,
            on_move=each_move(get_game("lobo77"), players, options, lobo_checks(players, options)),
        )
        assert len(match.outcome().winners) == 1


def linotte_check(seat, move, before, state) -> None:
    """A check of La Linotte's invariants on one move, from the state before to the state after."""
    assert all(state.board.count(s) <= linotte.PAWNS for s in (0, 1))
    assert state.board.count(linotte.EMPTY) >= 1  # N12: the 25th cell stays empty
    changed = [c for c in range(25) if state.board[c] != before.board[c]]
    assert changed == ([move[1]] if move[0] == "place" else [])
    assert all(before.board[c] == linotte.EMPTY and state.board[c] == seat for c in changed)
    # the score recounted another way: every window of 3 own pawns in a line is one point (N3)
    for who in (0, 1):
        windows = sum(
            1
            for line in linotte.LINES
            for i in range(len(line) - 2)
            if all(state.board[c] == who for c in line[i : i + 3])
        )
        assert state.scores[who] == windows
    if state.phase == "choose":
        assert len(state.dice) == 5 and 1 <= state.rolls <= 3 and all(1 <= d <= 6 for d in state.dice)
    assert state.idle <= state.options.idle_turn_cap


@pytest.mark.parametrize("strict", [False, True])
def test_linotte_playouts_keep_pawns_cells_and_scores(strict):
    options = linotte.LinotteOptions(strict_appel=strict)
    for seed in range(120):
        rng = random.Random(seed)
        bots = [rng.choice([LINOTTE_BOT, LINOTTE_RANDOM]) for _ in range(2)]
        hook = each_move(get_game("linotte"), 2, options, linotte_check)
        match = play_out(get_game("linotte"), 2, bots, rng, options, on_move=hook)
        result = match.outcome()
        assert result.scores == (float(match.state.scores[0]), float(match.state.scores[1]))
        assert set(result.winners) == {s for s in (0, 1) if result.scores[s] == max(result.scores)}


@pytest.mark.parametrize(
    "game, players, bots",
    [
        (get_game("lobo77"), 4, [LOBO_BOT, LOBO_RANDOM, LOBO_EASY, LOBO_BOT]),
        (get_game("linotte"), 2, [LINOTTE_BOT, LINOTTE_RANDOM]),
    ],
)
def test_replay_from_the_log_alone_reaches_the_same_state(game, players, bots):
    for seed in range(5):
        match = play_out(game, players, bots, random.Random(seed))
        again = Match.replay(game, players, match.options, match.log)
        assert again.state == match.state and again.version == match.version
        assert again.outcome() == match.outcome()


def win_rate(game, players_bot, yardstick, games: int) -> float:
    """The share of ``games`` two-player games the bot wins outright, seats alternating."""
    wins = 0
    for seed in range(games):
        bot_seat = seed % 2
        bots = [players_bot, yardstick] if bot_seat == 0 else [yardstick, players_bot]
        if play_out(game, 2, bots, random.Random(10_000 + seed)).outcome().winners == (bot_seat,):
            wins += 1
    return wins / games


def test_lobo77_bot_beats_a_random_player_at_least_70_percent():
    assert win_rate(get_game("lobo77"), LOBO_BOT, LOBO_RANDOM, 200) >= 0.70


def test_linotte_bot_beats_a_random_player_at_least_70_percent():
    assert win_rate(get_game("linotte"), LINOTTE_BOT, LINOTTE_RANDOM, 200) >= 0.70


def test_lobo77_bot_beats_the_easy_bot():
    assert win_rate(get_game("lobo77"), LOBO_BOT, LOBO_EASY, 200) > 0.5
