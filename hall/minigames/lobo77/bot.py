"""Lobo 77 bots: dodge doublets and 77, keep the safe cards for when they are needed, squeeze the next player."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

from hall.minigames.lobo77 import rules

CHIP = 100.0  # the price of one lost chip
ELIMINATION = 1000.0  # losing while swimming ends the game for this seat
PRESSURE = 8.0  # how much a dangerous total for the next player is worth

# What holding a card is worth: the safe cards get a player out of a corner, so they are kept; the
# big numbers and doublet cards only get harder to lay as the total climbs, so they go first.
KEEP = {rules.ZERO: 6.0, rules.REVERSE: 6.0, rules.TWICE: 7.0, rules.MINUS_TEN: 5.0}


def keep_value(card: str) -> float:
    """What keeping ``card`` in hand is worth to the bot."""
    if card in KEEP:
        return KEEP[card]
    return -int(card) / 20.0


@cache
def danger(total: int, card_76: bool, repeat_costs: bool) -> float:
    """The share of the deck that would cost a chip if laid on ``total``."""
    options = rules.Lobo77Options(card_76=card_76, repeat_double_costs_chip=repeat_costs)
    cards = Counter(rules.deck(options))
    losing = sum(n for card, n in cards.items() if rules.announce(total, card, options)[1])
    return losing / sum(cards.values())


def _pressure(state: rules.Lobo77State, total: int, card: str) -> float:
    """The worth of leaving ``total`` to the next player (more after an "x2": two cards to lay)."""
    options = state.options
    share = danger(total, options.card_76, options.repeat_double_costs_chip)
    return PRESSURE * share * (1.6 if card == rules.TWICE else 1.0)


def _cost(loss: str, chips: int) -> float:
    """The price of ``loss`` for a player holding ``chips``."""
    if not loss:
        return 0.0
    return ELIMINATION if chips == 0 else CHIP


def _single(state: rules.Lobo77State, seat: int, card: str) -> float:
    """The bot's score for laying ``card`` as the only (or the last) card of its turn."""
    total, loss = rules.announce(state.total, card, state.options)
    return -_cost(loss, state.chips[seat]) - keep_value(card) + (0.0 if loss == "77" else _pressure(state, total, card))


def _pair(state: rules.Lobo77State, seat: int, first: str, second: str) -> float:
    """The bot's score for laying ``first`` then ``second`` in a double play (O7)."""
    options, chips = state.options, state.chips[seat]
    total, loss = rules.announce(state.total, first, options)
    score = -_cost(loss, chips) - keep_value(first)
    if loss == "77" or (loss and chips == 0):
        return score  # the round or the game ends before the second card
    chips -= 1 if loss else 0
    total2, loss2 = rules.announce(total, second, options)
    score += -_cost(loss2, chips) - keep_value(second)
    return score + (0.0 if loss2 == "77" else _pressure(state, total2, second))


def choose(state: rules.Lobo77State, seat: int, rng: random.Random) -> rules.Play:
    """The default bot's move: the best-scoring card, looking at both cards of a double play."""
    moves = rules.legal_moves(state, seat)
    if state.to_play == 2:
        hand = list(state.hands[seat])

        def score(move: rules.Play) -> float:
            rest = list(hand)
            rest.remove(move[1])
            return max((_pair(state, seat, move[1], second) for second in set(rest)), default=-ELIMINATION)
    else:

        def score(move: rules.Play) -> float:
            return _single(state, seat, move[1])

    scored = [(score(move), move) for move in moves]
    best = max(s for s, _ in scored)
    return rng.choice([move for s, move in scored if s == best])


def choose_easy(state: rules.Lobo77State, seat: int, rng: random.Random) -> rules.Play:
    """The easy bot's move: any card that costs nothing now, else any card."""
    moves = rules.legal_moves(state, seat)
    safe = [m for m in moves if not rules.announce(state.total, m[1], state.options)[1]]
    return rng.choice(safe or moves)
