"""Bid Euchre cards: the 32-card double deck, bowers, suit following and trick winners (RULES E1–E7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

SUITS = ("S", "H", "D", "C")
RANKS = ("J", "Q", "K", "A")
NO_TRUMP = "NT"
LOW_NO_TRUMP = "LOW"  # RULES E7 variant, only offered when the option is on
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
DECK: tuple[str, ...] = tuple(sorted(rank + suit for suit in SUITS for rank in RANKS for _ in range(2)))

_PLAIN_RANK = {"A": 4, "K": 3, "Q": 2, "J": 1}
_LOW_RANK = {"J": 4, "Q": 3, "K": 2, "A": 1}
_TRUMP_RANK = {"A": 14, "K": 13, "Q": 12}
RIGHT, LEFT = 16, 15


def is_trump_suit(denom: str | None) -> TypeGuard[str]:
    """Return whether ``denom`` names a trump suit (not no-trump)."""
    return denom in SUITS


def effective_suit(card: str, denom: str | None) -> str:
    """Return the suit ``card`` belongs to under ``denom``: the left bower is trump for every purpose (E5)."""
    if is_trump_suit(denom) and card[0] == "J" and card[1] == SAME_COLOUR[denom]:
        return denom
    return card[1]


def trump_rank(card: str, denom: str | None) -> int:
    """Return the card's order among trumps (right 16, left 15, A 14, K 13, Q 12); 0 when not a trump (E3)."""
    if effective_suit(card, denom) != denom:
        return 0
    if card[0] == "J":
        return RIGHT if card[1] == denom else LEFT
    return _TRUMP_RANK[card[0]]


def power(card: str, denom: str | None, led: str) -> int:
    """Return how strongly ``card`` bids for a trick led in suit ``led``; 0 means it cannot win (E3, E6, E7)."""
    if is_trump_suit(denom):
        rank = trump_rank(card, denom)
        if rank:
            return 100 + rank
    if effective_suit(card, denom) != led:
        return 0
    table = _LOW_RANK if denom == LOW_NO_TRUMP else _PLAIN_RANK
    return 50 + table[card[0]]


def trick_winner(plays: Sequence[tuple[int, str]], denom: str | None) -> int:
    """Return the seat that wins ``plays`` (in play order); of two identical cards the first played wins (E4)."""
    led = effective_suit(plays[0][1], denom)
    best_seat, best = plays[0][0], power(plays[0][1], denom, led)
    for seat, card in plays[1:]:
        strength = power(card, denom, led)
        if strength > best:  # strictly greater: an identical card played later never beats the first
            best_seat, best = seat, strength
    return best_seat


def legal_follows(hand: Sequence[str], plays: Sequence[tuple[int, str]], denom: str | None) -> tuple[str, ...]:
    """Return the distinct cards of ``hand`` that may be played to the trick ``plays`` (must follow suit, E5)."""
    distinct = tuple(sorted(set(hand)))
    if not plays:
        return distinct
    led = effective_suit(plays[0][1], denom)
    following = tuple(c for c in distinct if effective_suit(c, denom) == led)
    return following or distinct


def sort_hand(cards: Sequence[str]) -> tuple[str, ...]:
    """Return ``cards`` in a stable display order (by suit, then rank)."""
    return tuple(sorted(cards, key=lambda c: (SUITS.index(c[1]), RANKS.index(c[0]))))


_COLOUR_CYCLE = ("S", "H", "C", "D")  # black, red, black, red: neighbouring suits never share a colour


def hand_order(cards: Sequence[str], denom: str | None) -> tuple[str, ...]:
    """Return ``cards`` as a player holds them: grouped by effective suit, trump first, strongest first (E3, E5).

    The left bower sits among the trumps, just below the right bower. Before trump is named (``denom`` None or a
    no-trump), the suits come in black/red alternation from spades.
    """
    first = denom if is_trump_suit(denom) else "S"
    start = _COLOUR_CYCLE.index(first)
    order = _COLOUR_CYCLE[start:] + _COLOUR_CYCLE[:start]
    table = _LOW_RANK if denom == LOW_NO_TRUMP else _PLAIN_RANK

    def key(card: str) -> tuple[int, int]:
        rank = trump_rank(card, denom) if is_trump_suit(denom) else 0
        return order.index(effective_suit(card, denom)), -(rank or table[card[0]])

    return tuple(sorted(cards, key=key))
