"""Seeded whole games of Bid Euchre and Loto Points Rouges: invariants after every move, replays, views, bots."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from hall.minigames.base import CHANCE, random_bot
from hall.minigames.euchre.cards import DECK, hand_order, legal_follows
from hall.minigames.euchre.state import EuchreOptions, hand_points
from hall.minigames.match import Match, play_out
from hall.minigames.points_rouges.pieces import BOARD_MASKS, JOKER, SHAPES, mask_of
from hall.minigames.points_rouges.state import PointsRougesOptions
from hall.minigames.registry import get_game
from hall.refusal import Rejected
from tests.minigames.playout import each_move

pytestmark = pytest.mark.slow  # whole games played out by bots: see pytest --durations

EUCHRE, RULES = get_game("euchre"), get_game("points-rouges")
EUCHRE_BOT, EUCHRE_RANDOM = EUCHRE.bots["default"], random_bot(EUCHRE)
PR_BOT, PR_RANDOM = RULES.bots["default"], random_bot(RULES)


def euchre_check(seat, move, before, after) -> None:
    """Bid Euchre invariants: 32 cards, legal follows, 8 tricks a hand, scores by the table."""
    if after.phase != "deal" and after.phase != "over":
        cards = Counter(c for h in after.hands for c in h) + Counter(c for _, c in after.trick)
        cards += Counter(c for t in after.played for _, c in t) + Counter(after.discards)
        assert cards == Counter(DECK)
    if seat != CHANCE and move[0] == "play":
        assert move[1] in legal_follows(before.hands[seat], before.trick, before.contract.denom)
        assert len(before.trick) < (3 if before.contract.level > 8 else 4)
    if len(after.history) > len(before.history):
        record = after.history[-1]
        assert sum(record.tricks) == 8
        assert record.points == hand_points(record.contract, record.tricks)
        assert after.scores == (before.scores[0] + record.points[0], before.scores[1] + record.points[1])
        assert after.phase == ("over" if len(after.history) == 8 else "deal")


def pr_check(seat, move, before, after) -> None:
    """Points Rouges invariants: 70 pieces, 166 tokens, only blue points covered, each once."""
    aside = [after.held[1]] if after.held is not None else []  # a swapped piece waits for its replacement
    held = sum(len(r) for r in after.racks) + len(after.pile) + sum(after.jokers) + len(aside)
    assert held + after.used == 70
    on_boards = sum(b.tokens for b in after.boards)
    assert after.pot + on_boards + sum(after.won) == 166
    unused = list(after.pile) + [p for r in after.racks for p in r] + aside
    assert after.pot == sum(1 if p == JOKER else len(SHAPES[p]) for p in unused) + sum(after.jokers)
    for board in after.boards:
        assert board.covered & ~BOARD_MASKS[board.letter] == 0
        assert board.tokens == bin(board.covered).count("1")
    if seat != CHANCE and move[0] == "place":
        cells = [p for _, c in move[2] for p in c]
        old = next(b for b in before.boards if b.letter == move[1])
        assert len(set(cells)) == len(cells) and not old.covered & mask_of(cells)
        assert mask_of(cells) & ~old.remaining == 0


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("options", [EuchreOptions(), EuchreOptions(all_pass="redeal", low_no_trump=True)])
def test_euchre_playouts_keep_every_invariant(seed, options):
    bots = [EUCHRE_BOT, EUCHRE_RANDOM, EUCHRE_BOT, EUCHRE_RANDOM] if seed % 2 else [EUCHRE_RANDOM] * 4
    match = play_out(EUCHRE, 4, bots, random.Random(seed), options, on_move=each_move(EUCHRE, 4, options, euchre_check))
    assert len(match.state.history) == 8 and match.outcome() is not None
    assert [r.dealer for r in match.state.history] == [0, 1, 2, 3, 0, 1, 2, 3]


@pytest.mark.parametrize("players,seed", [(1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (4, 0), (4, 1)])
def test_points_rouges_playouts_keep_every_invariant(players, seed):
    bots = [PR_BOT if (s + seed) % 2 else PR_RANDOM for s in range(players)]
    options = PointsRougesOptions()
    match = play_out(
        RULES, players, bots, random.Random(seed), options, on_move=each_move(RULES, players, options, pr_check)
    )
    assert match.outcome() is not None


@pytest.mark.parametrize(
    "name,players", [("euchre", 4), ("points-rouges", 2), ("points-rouges", 1), ("points-rouges", 4)]
)
def test_replay_from_the_log_reaches_the_same_final_state(name, players):
    game = get_game(name)
    match = play_out(game, players, [game.bots["default"]] * players, random.Random(11))
    again = Match.replay(game, players, match.options, match.log)
    assert again.state == match.state and again.version == match.version and again.outcome() == match.outcome()


def test_replay_accepts_moves_that_went_through_json():
    match = play_out(EUCHRE, 4, [EUCHRE_BOT] * 4, random.Random(3))
    from hall.minigames.match import LoggedMove

    logged = [LoggedMove(e.seat, json.loads(json.dumps(e.move)), e.version) for e in match.log]
    assert Match.replay(EUCHRE, 4, match.options, logged).state == match.state
    pr = play_out(RULES, 3, [PR_BOT] * 3, random.Random(3))
    logged = [LoggedMove(e.seat, json.loads(json.dumps(e.move)), e.version) for e in pr.log]
    assert Match.replay(RULES, 3, pr.options, logged).state == pr.state


@pytest.mark.parametrize("name,players", [("euchre", 4), ("points-rouges", 2)])
def test_match_refuses_out_of_turn_illegal_and_stale_moves(name, players):
    game = get_game(name)
    match = Match(game, players, rng=random.Random(5))
    seat = game.to_move(match.state)[0]
    other = (seat + 1) % players
    move = game.bots["default"](match.state, seat, random.Random(0))
    codes = []
    for who, what, version in ((other, move, None), (seat, ("play", "XX"), None), (seat, move, match.version - 1)):
        with pytest.raises(Rejected) as refused:
            match.play(who, what, version)
        codes.append(refused.value.code)
    assert codes == ["not_your_turn", "illegal_move", "stale_version"]
    assert match.play(seat, move, match.version) == len(match.log)


def test_euchre_views_show_only_the_seats_own_hand():
    match, rng = Match(EUCHRE, 4, rng=random.Random(2)), random.Random(2)
    for _ in range(14):  # into the play of the first hand: the auction and a few tricks
        seat = EUCHRE.to_move(match.state)[0]
        match.play(seat, EUCHRE_BOT(match.state, seat, rng))
    state = match.state
    assert state.phase == "play"
    for seat in range(4):
        view = EUCHRE.view(state, seat)
        json.dumps(view)
        assert view["my_hand"] == list(hand_order(state.hands[seat], state.contract.denom))  # as held: trump first
        others = [s for s in range(4) if s != seat]
        # hand sizes differ by at most one mid-trick, so two of the three others hold as many cards
        a, b = next((x, y) for x in others for y in others if x < y and len(state.hands[x]) == len(state.hands[y]))
        swapped = list(state.hands)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        assert swapped != list(state.hands)
        assert EUCHRE.view(replace(state, hands=tuple(swapped)), seat) == view  # others' cards unseen
    public = EUCHRE.view(state, None)
    assert "my_hand" not in public and not any(k in json.dumps(public) for k in ("rng", "seed", "deck"))


def test_points_rouges_views_show_only_the_seats_own_rack_and_never_the_pile():
    match = Match(RULES, 3, rng=random.Random(8))
    state = match.state
    for seat in range(3):
        view = RULES.view(state, seat)
        json.dumps(view)
        assert view["my_rack"] == list(state.racks[seat]) and view["pile"] == len(state.pile)
        others = [s for s in range(3) if s != seat]
        racks = list(state.racks)
        racks[others[0]], racks[others[1]] = racks[others[1]], racks[others[0]]
        hidden = replace(state, racks=tuple(racks), pile=tuple(reversed(state.pile)))
        assert RULES.view(hidden, seat) == view
    assert "my_rack" not in RULES.view(state, None)


def _win_rate(game, players, bot, other, games: int, bot_seats) -> float:
    """The share of ``games`` seeded games the bot side wins outright (seats alternate between games)."""
    wins = 0
    for g in range(games):
        mine = bot_seats(g)
        bots = [bot if s in mine else other for s in range(players)]
        result = play_out(game, players, bots, random.Random(1000 + g)).outcome()
        wins += set(result.winners) == set(mine)
    return wins / games


def test_euchre_bot_team_beats_random_players_at_least_70_percent():
    rate = _win_rate(EUCHRE, 4, EUCHRE_BOT, EUCHRE_RANDOM, 200, lambda g: (g % 2, g % 2 + 2))
    assert rate >= 0.70, rate


def test_points_rouges_bot_beats_a_random_player_at_least_70_percent():
    rate = _win_rate(RULES, 2, PR_BOT, PR_RANDOM, 200, lambda g: (g % 2,))
    assert rate >= 0.70, rate


@pytest.mark.parametrize("name,players", [("euchre", 4), ("points-rouges", 2), ("points-rouges", 1)])
def test_is_legal_agrees_with_legal_moves_along_a_game(name, players):
    game = get_game(name)
    checked = {"moves": 0}

    def agree(match: Match) -> None:
        state = match.state
        for seat in game.to_move(state):
            if seat == CHANCE:
                continue
            moves = game.legal_moves(state, seat)
            assert moves and all(game.is_legal(state, seat, m) for m in moves)
            other = (seat + 1) % players
            assert other == seat or not any(game.is_legal(state, other, m) for m in moves[:5])
            checked["moves"] += len(moves)

    play_out(game, players, [game.bots["default"]] * players, random.Random(21), on_move=agree)
    assert checked["moves"] > 0
