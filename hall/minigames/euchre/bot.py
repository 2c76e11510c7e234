"""The Bid Euchre bot: bids from hand strength, plays sound cards (follow, trump, count, mind the partner)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from hall.minigames.euchre.cards import (
    DECK,
    NO_TRUMP,
    SUITS,
    effective_suit,
    is_trump_suit,
    power,
    trick_winner,
    trump_rank,
)
from hall.minigames.euchre.rules import bid_moves, declare_moves, give_moves, play_moves
from hall.minigames.euchre.state import (
    CALL1,
    CALL2,
    MOON,
    Bid,
    BidMove,
    Declare,
    EuchreState,
    Give,
    PlayerMove,
    bid_level,
    contract_of,
    high_bid,
    partner_of,
    sitting_out,
    team_of,
)

_TRUMP_TRICKS = {16: 0.95, 15: 0.8, 14: 0.6, 13: 0.4, 12: 0.25}
_PARTNER_SHARE = 1.6  # the tricks a silent partner brings on average (8 tricks, 4 hands)
_CALL_THRESHOLDS = ((MOON, 7.4), (CALL1, 6.9), (CALL2, 6.3))  # own tricks needed to go alone


def expected_tricks(hand: Sequence[str], denom: str) -> float:
    """Return a rough count of the tricks ``hand`` takes by itself with ``denom`` as trump or no-trump."""
    if is_trump_suit(denom):
        ranks = [trump_rank(c, denom) for c in hand if trump_rank(c, denom)]
        total = sum(_TRUMP_TRICKS[r] for r in ranks) + 0.45 * max(0, len(ranks) - 3)
        for card in hand:
            if not trump_rank(card, denom):
                total += 0.55 if card[0] == "A" else 0.1 if card[0] == "K" else 0.0
        return total
    top = "J" if denom == "LOW" else "A"  # RULES E7: low no-trump reverses the order
    second = "Q" if denom == "LOW" else "K"
    total = 0.0
    for card in hand:
        if card[0] == top:
            total += 0.75
        elif card[0] == second:
            total += 0.45 if top + card[1] in hand else 0.2
    return total


def keep_value(card: str, denom: str | None) -> int:
    """Return how much ``card`` is worth keeping under ``denom`` (trumps, then aces, then the rest)."""
    if is_trump_suit(denom) and trump_rank(card, denom):
        return 20 + trump_rank(card, denom)
    order = "JQKA" if denom != "LOW" else "AKQJ"
    return (10 if card[0] == order[-1] else 0) + order.index(card[0])


def _unseen(state: EuchreState, seat: int) -> Counter[str]:
    """Return the cards ``seat`` has not seen yet (not in its hand, not played)."""
    seen = Counter(state.hands[seat])
    for trick in state.played + (state.trick,):
        seen.update(card for _, card in trick)
    return Counter(DECK) - seen


def _is_boss(card: str, state: EuchreState, seat: int) -> bool:
    """Return whether no unseen card of ``card``'s suit can beat it when it is led (a copy played later cannot)."""
    denom = contract_of(state).denom
    suit = effective_suit(card, denom)
    mine = power(card, denom, suit)
    return all(power(c, denom, suit) <= mine for c in _unseen(state, seat) if effective_suit(c, denom) == suit)


def _best_denom(hand: Sequence[str], denoms: Iterable[str]) -> tuple[str, float]:
    """Return the denomination where ``hand`` is strongest, with its expected tricks."""
    return max(((d, expected_tricks(hand, d)) for d in denoms), key=lambda de: de[1])


def _bid(state: EuchreState, seat: int, moves: list[BidMove]) -> BidMove:
    """Return the bot's bid: the cheapest winning bid its team can make, a call with a near-perfect hand."""
    hand = state.hands[seat]
    numeric: list[Bid] = [m for m in moves if m[0] == "bid"]
    calls = {bid_level(m): m for m in moves if m[0] in ("call", "moon")}
    denoms = sorted({m[2] for m in numeric}) or list(SUITS) + [NO_TRUMP]
    denom, own = _best_denom(hand, denoms)
    for level, needed in _CALL_THRESHOLDS:
        if level in calls and own >= needed:
            return calls[level]
    best = high_bid(state)
    partner_bid = best is not None and best[0] == partner_of(seat)
    team = own + _PARTNER_SHARE + (0.6 if partner_bid else 0.0)
    options = sorted((m for m in numeric if m[2] == denom), key=lambda m: m[1])
    if ("pass",) not in moves:  # the stuck dealer (E12) names its best suit at the lowest level
        return options[0] if options else min(moves, key=bid_level)
    if options and options[0][1] <= int(team) and not (partner_bid and own < 3.0):
        return options[0]
    return ("pass",)


def _declare(state: EuchreState, seat: int, moves: list[Declare]) -> Declare:
    """Return the caller's trump and discards: the denomination whose kept cards are strongest."""

    def score(move: Declare) -> tuple[float, int]:
        _, denom, discards = move
        kept = list(state.hands[seat])
        for card in discards:
            kept.remove(card)
        return expected_tricks(kept, denom), -sum(keep_value(c, denom) for c in discards)

    return max(moves, key=score)


def _give(state: EuchreState, seat: int, moves: list[Give]) -> Give:
    """Return the partner's gift: the cards most useful to the lone caller under the named trump."""
    denom = contract_of(state).denom
    return max(moves, key=lambda m: sum(keep_value(c, denom) for c in m[1]))


def _lead(state: EuchreState, seat: int, cards: list[str]) -> str:
    """Return the card to lead: draw trumps when bidding, cash sure winners, else lead low off-suit."""
    denom = contract_of(state).denom
    bidding = team_of(seat) == team_of(contract_of(state).seat)
    trumps = [c for c in cards if is_trump_suit(denom) and trump_rank(c, denom)]
    plain = [c for c in cards if c not in trumps]
    if bidding and trumps:
        enemy_trumps = any(trump_rank(c, denom) for c in _unseen(state, seat))
        boss = [c for c in trumps if _is_boss(c, state, seat)]
        if enemy_trumps and (boss or (seat == contract_of(state).seat and len(trumps) >= 3)):
            return max(trumps, key=lambda c: trump_rank(c, denom))
    winners = [c for c in plain if _is_boss(c, state, seat)]
    if winners:
        return max(winners, key=lambda c: keep_value(c, denom))
    if plain:
        return min(plain, key=lambda c: keep_value(c, denom))
    return max(trumps, key=lambda c: trump_rank(c, denom))


def _follow(state: EuchreState, seat: int, cards: list[str]) -> str:
    """Return the card to follow with: let a winning partner have it, else win as cheaply as possible."""
    denom = contract_of(state).denom
    trick = state.trick
    led = effective_suit(trick[0][1], denom)
    leader_seat = trick_winner(trick, denom)
    winning_card = dict(trick)[leader_seat]
    best = power(winning_card, denom, led)
    players = 3 if sitting_out(state) is not None else 4
    last = len(trick) == players - 1
    cheapest = min(cards, key=lambda c: (keep_value(c, denom), power(c, denom, led)))
    partner_winning = leader_seat == partner_of(seat)
    if partner_winning and (last or _is_boss(winning_card, state, seat)):
        return cheapest
    beating = [c for c in cards if power(c, denom, led) > best]
    if not beating:
        return cheapest
    if not last and effective_suit(beating[0], denom) == led:
        bosses = [c for c in beating if _is_boss(c, state, seat)]
        if bosses:
            return min(bosses, key=lambda c: power(c, denom, led))
    return min(beating, key=lambda c: power(c, denom, led))


def bot(state: EuchreState, seat: int, rng: random.Random) -> PlayerMove:
    """Return the bot's move for ``seat`` (the seat on turn): always one of the legal moves."""
    if state.phase == "bid":
        return _bid(state, seat, bid_moves(state, seat))
    if state.phase == "declare":
        return _declare(state, seat, declare_moves(state))
    if state.phase == "give":
        return _give(state, seat, give_moves(state))
    cards = [m[1] for m in play_moves(state, seat)]
    card = _lead(state, seat, cards) if not state.trick else _follow(state, seat, cards)
    return ("play", card)
