"""Lobo 77 (Thomas Pauli, Amigo 1993): the rules engine of RULES §3 (O1–O16) as data plus pure functions.

Cards are short strings: ``"2"``…``"10"``, the doublet cards ``"11"``…``"66"``, ``"76"`` (option), and the
action cards ``"0"``, ``"-10"``, ``"x2"`` and ``"rev"`` (changement de sens). A player's move is
``("play", card)``; chance moves are ``("deal", order)`` (the whole deck, shuffled) and
``("shuffle", order)`` (the discard pile but its top card, shuffled into a new draw pile, O13).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

from hall.minigames.base import CHANCE, JSON, Game, Outcome

ZERO, MINUS_TEN, TWICE, REVERSE = "0", "-10", "x2", "rev"
DOUBLETS = frozenset({11, 22, 33, 44, 55, 66})
LIMIT = 77  # announcing LIMIT or more ends the round (O3)
HAND_SIZE = 5  # O2

# The order cards are shown in a hand: action cards first, then by value.
CARD_ORDER = (
    MINUS_TEN,
    ZERO,
    REVERSE,
    TWICE,
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "11",
    "22",
    "33",
    "44",
    "55",
    "66",
    "76",
)
_RANK = {card: i for i, card in enumerate(CARD_ORDER)}

Play = tuple[Literal["play"], str]
"""A player's move: ``("play", card)``."""
Order = tuple[Literal["deal", "shuffle"], tuple[str, ...]]
"""A chance move: the cards of a deal, or of a reshuffled discard pile, in the order drawn."""
Lobo77Move = Play | Order
T = TypeVar("T")
LastCard = tuple[int, str, int, str, bool]
"""The last card laid: (seat, card, total announced, loss ``""``/``"doublet"``/``"77"``, eliminated)."""


@dataclass(frozen=True, slots=True)
class Lobo77Options:
    """The RULES §3 flags: the "76" card (O1), whether repeating a doublet costs a chip (O6), chips each (O16)."""

    card_76: bool = False
    repeat_double_costs_chip: bool = False
    chips: int = 3

    def __post_init__(self) -> None:
        if self.chips < 1:
            raise ValueError(f"lobo77: chips must be at least 1, got {self.chips!r}")


@dataclass(frozen=True, slots=True)
class Lobo77State:
    """One moment of a Lobo 77 game; every field is an immutable value."""

    options: Lobo77Options
    players: int
    chips: tuple[int, ...]
    out: tuple[bool, ...]  # eliminated seats (O10, O11)
    hands: tuple[tuple[str, ...], ...]  # sorted by CARD_ORDER
    draw: tuple[str, ...]  # index 0 is the top of the draw pile
    discard: tuple[str, ...]  # the last card is the top of the pile de jeu
    total: int = 0
    turn: int = 0
    direction: int = 1  # +1 clockwise (to the left), -1 after an odd number of reverses
    to_play: int = 0  # cards still to lay this turn: 2 after an "x2" (O7), else 1
    played: int = 0  # cards laid this turn, drawn back when the turn ends
    owed: tuple[int, int] | None = None  # (seat, cards) still to draw once the discard pile is reshuffled
    phase: str = "deal"  # deal | play | shuffle | over
    opener: int = 0  # who starts the round; the dealer sits just before (O12)
    round: int = 0
    last: LastCard | tuple[()] = ()  # the last card laid, none since the deal


def sort_key(card: str) -> int:
    """The position of ``card`` in a sorted hand."""
    return _RANK[card]


def deck(options: Lobo77Options) -> tuple[str, ...]:
    """The 55 cards of the seed (56 with the "76" card), sorted (O1)."""
    cards = (
        [ZERO] * 4
        + [MINUS_TEN] * 4
        + [TWICE] * 4
        + [REVERSE] * 5
        + [str(d) for d in sorted(DOUBLETS)]
        + ["10"] * 8
        + [str(v) for v in range(2, 10) for _ in range(3)]
    )
    if options.card_76:
        cards.append("76")
    return tuple(sorted(cards, key=sort_key))


def added(card: str) -> int:
    """What ``card`` adds to the running total (0 for "0", "x2" and reverse)."""
    if card in (ZERO, TWICE, REVERSE):
        return 0
    return int(card)  # "-10" included


def announce(total: int, card: str, options: Lobo77Options) -> tuple[int, str]:
    """The total announced after ``card`` and what it costs: ``""``, ``"doublet"`` or ``"77"`` (O3–O6)."""
    new = total + added(card)
    if new >= LIMIT:
        return new, "77"
    # O6: a card that leaves a doublet unchanged does not charge again unless the flag says so.
    if new in DOUBLETS and (new != total or options.repeat_double_costs_chip):
        return new, "doublet"
    return new, ""


def active(state: Lobo77State) -> tuple[int, ...]:
    """The seats still in the game (with chips or swimming)."""
    return tuple(seat for seat in range(state.players) if not state.out[seat])


def next_seat(state: Lobo77State, seat: int, direction: int) -> int:
    """The next seat still in the game after ``seat`` going ``direction``."""
    for step in range(1, state.players + 1):
        candidate = (seat + direction * step) % state.players
        if not state.out[candidate]:
            return candidate
    return seat


def setup(players: int, options: Lobo77Options | None = None) -> Lobo77State:
    """A game before the first deal: 3 chips each (O16), the last seat deals so seat 0 opens."""
    options = options if options is not None else Lobo77Options()
    return Lobo77State(
        options=options,
        players=players,
        chips=(options.chips,) * players,
        out=(False,) * players,
        hands=((),) * players,
        draw=deck(options),
        discard=(),
    )


def to_move(state: Lobo77State) -> tuple[int, ...]:
    """``(CHANCE,)`` for a deal or reshuffle, the seat on turn while playing, ``()`` once over."""
    if state.phase in ("deal", "shuffle"):
        return (CHANCE,)
    if state.phase == "play":
        return (state.turn,)
    return ()


def legal_moves(state: Lobo77State, seat: int) -> list[Play]:
    """Every ``("play", card)`` open to ``seat``: any card in hand (O14), but no "x2" first in a double play (O7)."""
    if state.phase != "play" or seat != state.turn:
        return []
    cards = set(state.hands[seat])
    if state.to_play == 2 and cards - {TWICE}:
        cards.discard(TWICE)
    return [("play", card) for card in sorted(cards, key=sort_key)]


def is_legal(state: Lobo77State, seat: int, move: object) -> bool:
    """Whether ``move`` (a tuple or its JSON list form) is legal for ``seat`` now."""
    try:
        return _normal(move) in legal_moves(state, seat)
    except (TypeError, ValueError):
        return False


def chance(state: Lobo77State, rng: random.Random) -> Order:
    """The chance move due now: the whole deck shuffled for a deal, or the discard pile but its top card."""
    if state.phase == "deal":
        cards = list(deck(state.options))
        rng.shuffle(cards)
        return ("deal", tuple(cards))
    cards = list(state.discard[:-1])
    rng.shuffle(cards)
    return ("shuffle", tuple(cards))


def apply(state: Lobo77State, seat: int, move: object) -> Lobo77State:
    """The state after ``seat`` plays ``move`` (chance moves come with seat ``CHANCE``)."""
    normal = _normal(move)
    if normal[0] == "play":
        if is_legal(state, seat, move):
            return _play(state, seat, normal[1])
    elif seat == CHANCE and normal[0] == state.phase:  # a deal in the deal phase, a shuffle in the shuffle phase
        return _deal(state, normal[1]) if normal[0] == "deal" else _reshuffle(state, normal[1])
    raise ValueError(f"lobo77: move {move!r} is not legal for seat {seat} in phase {state.phase!r}")


def _normal(move: object) -> Lobo77Move:
    """``move`` as a tuple (JSON turns tuples into lists); raises ``TypeError`` for anything but a pair, and
    ``ValueError`` for a pair that is no move of this game."""
    if not isinstance(move, (list, tuple)):
        raise TypeError(f"lobo77: a move is a pair, got {move!r}")
    kind, arg = move
    if kind == "play" and isinstance(arg, str):
        return ("play", arg)
    if kind in ("deal", "shuffle"):
        cards = tuple(arg)
        if all(isinstance(card, str) for card in cards):
            return ("deal" if kind == "deal" else "shuffle", tuple(str(card) for card in cards))
    raise ValueError("lobo77: not a move of this game")  # no repr: a phone's JSON may nest deep


def _deal(state: Lobo77State, order: tuple[str, ...]) -> Lobo77State:
    """The round dealt from ``order``: 5 cards to each seat still in, from the opener on; the rest is the draw pile."""
    if Counter(order) != Counter(deck(state.options)):
        raise ValueError("lobo77: a deal must be an ordering of the whole deck")
    hands: list[tuple[str, ...]] = [()] * state.players
    at = 0
    for step in range(state.players):
        seat = (state.opener + step) % state.players
        if not state.out[seat]:
            hands[seat] = tuple(sorted(order[at : at + HAND_SIZE], key=sort_key))
            at += HAND_SIZE
    return replace(
        state,
        hands=tuple(hands),
        draw=order[at:],
        discard=(),
        total=0,
        turn=state.opener,
        direction=1,
        to_play=1,
        played=0,
        owed=None,
        phase="play",
        round=state.round + 1,
        last=(),
    )


def _reshuffle(state: Lobo77State, order: tuple[str, ...]) -> Lobo77State:
    """The discard pile but its top card turned into the draw pile (O13), then the owed cards drawn."""
    if Counter(order) != Counter(state.discard[:-1]):
        raise ValueError("lobo77: a reshuffle must be an ordering of the discard pile without its top card")
    assert state.owed is not None  # the shuffle phase comes with owed cards
    seat, count = state.owed
    state = replace(state, draw=state.draw + order, discard=state.discard[-1:], owed=None, phase="play")
    if not order:  # nothing left to shuffle: the player stays short rather than the game stalling
        return state
    return _draw(state, seat, count)


def _play(state: Lobo77State, seat: int, card: str) -> Lobo77State:
    """The state after ``seat`` lays ``card``: total announced, chips paid, then the turn goes on or passes."""
    hand = list(state.hands[seat])
    hand.remove(card)
    total, loss = announce(state.total, card, state.options)
    direction = -state.direction if card == REVERSE else state.direction
    state = replace(
        state,
        hands=_with(state.hands, seat, tuple(hand)),
        discard=state.discard + (card,),
        total=total,
        direction=direction,
        to_play=state.to_play - 1,
        played=state.played + 1,
    )
    eliminated = False
    if loss:
        chips, out = list(state.chips), list(state.out)
        if chips[seat] > 0:
            chips[seat] -= 1  # down to no chip the player swims and stays in (O10)
        else:
            out[seat] = eliminated = True
        state = replace(state, chips=tuple(chips), out=tuple(out))
    state = replace(state, last=(seat, card, total, loss, eliminated))
    following = 2 if card == TWICE else 1  # an "x2" laid as the second card still doubles, never to 4 (O7)
    if len(active(state)) == 1:
        return replace(state, phase="over", to_play=0, played=0)
    if loss == "77":
        return _end_round(state)
    if eliminated:
        # O11: the hand goes under the draw pile and the next player in the current direction plays.
        return replace(
            state,
            hands=_with(state.hands, seat, ()),
            draw=state.draw + tuple(hand),
            turn=next_seat(state, seat, direction),
            to_play=following,
            played=0,
        )
    if state.to_play > 0:
        return state  # the second card of a double play (O7)
    laid = state.played  # one card drawn back per card laid: 1, or 2 after a double play (O2, O7)
    state = replace(state, turn=next_seat(state, seat, direction), to_play=following, played=0)
    return _draw(state, seat, laid)


def _draw(state: Lobo77State, seat: int, count: int) -> Lobo77State:
    """``seat`` draws ``count`` cards; when the pile runs dry the rest is owed until a reshuffle (O13)."""
    taken = state.draw[:count]
    state = replace(
        state,
        hands=_with(state.hands, seat, tuple(sorted(state.hands[seat] + taken, key=sort_key))),
        draw=state.draw[count:],
    )
    if len(taken) < count:
        return replace(state, phase="shuffle", owed=(seat, count - len(taken)))
    return state


def _end_round(state: Lobo77State) -> Lobo77State:
    """The state waiting for the next deal: the deal moves one seat on, skipping eliminated seats (O12)."""
    opener = next_seat(state, state.opener, 1)
    return replace(state, phase="deal", opener=opener, turn=opener, to_play=0, played=0, owed=None)


def _with(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``items`` with ``items[index]`` replaced by ``value``."""
    return items[:index] + (value,) + items[index + 1 :]


def outcome(state: Lobo77State) -> Outcome | None:
    """The last player in the game wins; scores are chips left (−1 for eliminated seats)."""
    if state.phase != "over":
        return None
    scores = tuple(-1.0 if state.out[s] else float(state.chips[s]) for s in range(state.players))
    return Outcome(winners=active(state), scores=scores, reason="last player with chips or swimming")


def view(state: Lobo77State, seat: int | None) -> JSON:
    """The public table (``seat=None``), or it plus that seat's own hand; never another hand nor the pile order."""
    last = None
    if state.last:
        who, card, total, loss, eliminated = state.last
        last = {"seat": who, "card": card, "total": total, "loss": loss or None, "eliminated": eliminated}
    table = {
        "game": "lobo77",
        "phase": state.phase,
        "round": state.round,
        "total": state.total,
        "turn": state.turn if state.phase == "play" else None,
        "to_play": state.to_play,
        "direction": "clockwise" if state.direction == 1 else "anticlockwise",
        "opener": state.opener,
        "players": [
            {
                "seat": s,
                "chips": state.chips[s],
                "swimming": state.chips[s] == 0 and not state.out[s],
                "out": state.out[s],
                "hand_size": len(state.hands[s]),
            }
            for s in range(state.players)
        ],
        "draw_size": len(state.draw),
        "discard_top": state.discard[-1] if state.discard else None,
        "discard_size": len(state.discard),
        "last": last,
    }
    if seat is not None and 0 <= seat < state.players:
        table["seat"] = seat
        table["hand"] = list(state.hands[seat])
        table["playable"] = [card for _, card in legal_moves(state, seat)]
    return table


RULES = Game(
    name="lobo77",
    min_players=2,
    max_players=8,
    options_type=Lobo77Options,
    setup=setup,
    to_move=to_move,
    legal_moves=legal_moves,
    apply=apply,
    chance=chance,
    outcome=outcome,
    view=view,
    is_legal=is_legal,
)
