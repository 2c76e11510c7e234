"""Bid Euchre for 4 players, OSGA Ontario 55+ rules (RULES E1–E19): a pure rules engine.

Seats 0 and 2 play against seats 1 and 3. Moves are tuples:
``("bid", n, denom)``, ``("call", 2)``, ``("call", 1)``, ``("moon",)``, ``("pass",)`` in the auction;
``("declare", denom, discards)`` by a winning caller; ``("give", cards)`` by the caller's partner;
``("play", card)``. The deal is the chance move: the 32 shuffled cards, dealt one at a time.
The official's actions (``euchre_officials``) are accepted but never offered.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace
from itertools import combinations
from typing import cast

from hall.minigames.base import CHANCE, JSON, Game, Outcome
from hall.minigames.euchre.cards import DECK, effective_suit, hand_order, legal_follows, sort_hand, trick_winner
from hall.minigames.euchre.officials import apply_official, is_official, official_is_legal, official_moves
from hall.minigames.euchre.state import (
    CALL1,
    CALL2,
    CALL_VALUES,
    EXCHANGE,
    MOON,
    PASS,
    PLAYERS,
    TRICKS_PER_HAND,
    BidMove,
    Call,
    Deal,
    Declare,
    EuchreOptions,
    EuchreState,
    Give,
    Moon,
    OfficialMove,
    Play,
    PlayerMove,
    bid_level,
    close_hand,
    contract_of,
    hand_points,
    high_bid,
    next_player,
    partner_of,
    record_bid,
    sitting_out,
    team_of,
)

__all__ = ["RULES", "EuchreOptions", "EuchreState"]

_CALL_MOVES: dict[int, Call | Moon] = {CALL2: ("call", 2), CALL1: ("call", 1), MOON: ("moon",)}
_CARDS = frozenset(DECK)


def setup(players: int, options: EuchreOptions | None = None) -> EuchreState:
    """Return a new game waiting for its first deal."""
    if players != PLAYERS:
        raise ValueError(f"Bid Euchre needs exactly 4 players, not {players}")
    options = options if options is not None else EuchreOptions()
    return EuchreState(options=options, dealer=options.first_dealer)


def to_move(state: EuchreState) -> tuple[int, ...]:
    """Return the seats that may move now: ``(CHANCE,)`` to deal, ``()`` when the game is over."""
    if state.phase == "over":
        return ()
    if state.phase == "deal":
        return (CHANCE,)
    if state.phase == "give":
        return (partner_of(contract_of(state).seat),)
    return (state.turn,)


def bid_moves(state: EuchreState, seat: int) -> list[BidMove]:
    """Return the bids ``seat`` (on turn in the auction) may make: one bid, higher than the current one (E9, E10–E12, E14)."""
    if seat in state.forfeited:
        return [PASS]
    best = high_bid(state)
    floor = (0 if best is None else bid_level(best[1])) + 1
    barred = {denom for who, denom in state.barred if who == seat}
    moves: list[BidMove] = [
        ("bid", n, denom)
        for n in range(max(2, floor), 9)
        for denom in state.options.denominations()
        if denom not in barred
    ]
    moves += [_CALL_MOVES[level] for level in (CALL2, CALL1, MOON) if level >= floor]
    stuck = best is None and seat == state.dealer and state.options.all_pass == "dealer_stuck"
    return moves if stuck else [PASS] + moves


def declare_moves(state: EuchreState) -> list[Declare]:
    """Return the caller's choices: trump (or no-trump) and the 2, 1 or 0 cards to discard (E13, E15)."""
    contract = contract_of(state)
    hand = state.hands[contract.seat]
    barred = {denom for who, denom in state.barred if who == contract.seat}
    discards = sorted(set(combinations(hand, EXCHANGE[contract.level])))
    return [("declare", denom, d) for denom in state.options.denominations() if denom not in barred for d in discards]


def give_moves(state: EuchreState) -> list[Give]:
    """Return the sets of cards the partner may pass to the lone caller (E13, E15)."""
    partner = partner_of(contract_of(state).seat)
    return [("give", g) for g in sorted(set(combinations(state.hands[partner], EXCHANGE[contract_of(state).level])))]


def play_moves(state: EuchreState, seat: int) -> list[Play]:
    """Return the cards ``seat`` (on turn in the play) may play (E4)."""
    return [("play", c) for c in legal_follows(state.hands[seat], state.trick, contract_of(state).denom)]


def legal_moves(state: EuchreState, seat: int) -> list[PlayerMove]:
    """Return every legal player move of ``seat`` now (official actions are never listed)."""
    if seat not in to_move(state) or seat == CHANCE:
        return []
    if state.phase == "bid":
        return [*bid_moves(state, seat)]
    if state.phase == "declare":
        return [*declare_moves(state)]
    if state.phase == "give":
        return [*give_moves(state)]
    return [*play_moves(state, seat)]


def normalise(move: object) -> object:
    """Return ``move`` with JSON lists turned back into tuples, so it compares equal to the listed moves.

    Never raises: cards given or discarded are put in hand order only when every one is a card of the deck
    (anything else stays as sent, and matches no listed move)."""
    if isinstance(move, list):
        move = tuple(move)
    if isinstance(move, tuple):
        move = tuple(normalise(m) for m in move)
        cards = move[-1] if len(move) >= 2 and move[0] in ("declare", "give") else None
        if isinstance(cards, tuple) and all(isinstance(c, str) and c in _CARDS for c in cards):
            move = move[:-1] + (sort_hand(cards),)  # the cards given or discarded form a set
    return move


def is_legal(state: EuchreState, seat: int, move: object) -> bool:
    """Return whether ``seat`` may make ``move`` now (a player move, or an official's action)."""
    move = normalise(move)
    if not isinstance(move, tuple) or not _plain(move) or seat not in to_move(state) or seat == CHANCE:
        return False
    if is_official(move):
        return official_is_legal(state, move)
    return move in legal_moves(state, seat)


def _plain(move: object) -> bool:
    """Whether ``move`` is made only of what a move of this game holds: tuples, texts, ``None`` and plain ints
    (``2.0`` and ``True`` compare equal to ``2`` and ``1`` but are no bid and no seat)."""
    if isinstance(move, tuple):
        return all(_plain(part) for part in move)
    return move is None or type(move) in (str, int)


def chance(state: EuchreState, rng: random.Random) -> Deal:
    """Return the shuffled deck for the next deal."""
    deck = list(DECK)
    rng.shuffle(deck)
    return tuple(deck)


def _deal(state: EuchreState, deck: Deal) -> EuchreState:
    """Return the state after dealing ``deck`` one card at a time from the dealer's left (E1)."""
    if sorted(deck) != list(DECK):
        raise ValueError("a deal must be a permutation of the 32-card deck")
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    for i, card in enumerate(deck):
        hands[(state.dealer + 1 + i) % PLAYERS].append(card)
    return replace(state, phase="bid", hands=tuple(sort_hand(h) for h in hands), turn=(state.dealer + 1) % PLAYERS)


def _without(hand: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    """Return ``hand`` with one copy of each of ``cards`` removed."""
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return tuple(rest)


def _set_hand(hands: tuple[tuple[str, ...], ...], seat: int, hand: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Return ``hands`` with ``seat``'s hand replaced."""
    return tuple(sort_hand(hand) if s == seat else h for s, h in enumerate(hands))


def _play(state: EuchreState, seat: int, card: str) -> EuchreState:
    """Return the state after ``seat`` plays ``card``; a full trick goes to its winner, who leads (E4, E8)."""
    hands = _set_hand(state.hands, seat, _without(state.hands[seat], [card]))
    trick = state.trick + ((seat, card),)
    size = PLAYERS - (1 if sitting_out(state) is not None else 0)
    if len(trick) < size:
        return replace(state, hands=hands, trick=trick, turn=next_player(state, seat))
    winner = trick_winner(trick, contract_of(state).denom)
    tricks = list(state.tricks)
    tricks[team_of(winner)] += 1
    state = replace(
        state, hands=hands, trick=(), played=state.played + (trick,), tricks=(tricks[0], tricks[1]), turn=winner
    )
    if len(state.played) == TRICKS_PER_HAND:
        return close_hand(state, hand_points(contract_of(state), state.tricks))
    return state


def apply(state: EuchreState, seat: int, move: object) -> EuchreState:
    """Return the state after ``seat`` makes ``move`` (already checked legal)."""
    normal = normalise(move)  # the base's contract: what chance() dealt, or a move is_legal accepted
    if seat == CHANCE:
        return _deal(state, cast(Deal, normal))
    if is_official(normal):
        return apply_official(state, cast(OfficialMove, normal))
    move = cast(PlayerMove, normal)
    if move[0] == "declare":
        _, denom, discards = move
        hands = _set_hand(state.hands, seat, _without(state.hands[seat], discards))
        contract = replace(contract_of(state), denom=denom)
        phase = "give" if contract_of(state).level != MOON else "play"
        return replace(state, hands=hands, contract=contract, discards=tuple(discards), phase=phase, turn=seat)
    if move[0] == "give":
        caller = contract_of(state).seat
        hands = _set_hand(state.hands, seat, _without(state.hands[seat], move[1]))
        hands = _set_hand(hands, caller, state.hands[caller] + tuple(move[1]))
        return replace(state, hands=hands, phase="play", turn=caller)
    if move[0] == "play":
        return _play(state, seat, move[1])
    return record_bid(state, seat, move)  # the auction's moves (legal in the bid phase alone)


def outcome(state: EuchreState) -> Outcome | None:
    """Return the result once all hands are played (or time was called): the higher team wins, a tie shares."""
    if state.phase != "over":
        return None
    s0, s1 = state.scores
    winners = (0, 2) if s0 > s1 else (1, 3) if s1 > s0 else (0, 1, 2, 3)
    reason = (
        "time called"
        if state.time_called and state.hands_played < state.options.hands
        else f"{state.hands_played} hands played"
    )
    return Outcome(winners=winners, scores=(s0, s1, s0, s1), reason=reason)


def _contract_view(state: EuchreState) -> JSON | None:
    """Return the contract as plain data."""
    c = state.contract
    if c is None:
        return None
    return {"seat": c.seat, "level": c.level, "denom": c.denom, "value": CALL_VALUES.get(c.level, c.level)}


def view(state: EuchreState, seat: int | None) -> JSON:
    """Return what ``seat`` may see (``None``: the projector); only a seat's own hand, never the deck order."""
    data: JSON = {
        "game": "euchre",
        "phase": state.phase,
        "hand": state.hands_played + 1,
        "hands": state.options.hands,
        "dealer": state.dealer,
        "to_move": list(to_move(state)),
        "bids": [[s, list(m)] for s, m in state.bids],
        "forfeited": list(state.forfeited),
        "barred": [list(b) for b in state.barred],
        "contract": _contract_view(state),
        "sitting_out": sitting_out(state),
        "trick": [list(p) for p in state.trick],
        "last_trick": [list(p) for p in state.played[-1]] if state.played else [],
        "tricks": list(state.tricks),
        "scores": list(state.scores),
        "hand_sizes": [len(h) for h in state.hands],
        "discards": len(state.discards),
        "penalties": [list(p) for p in state.penalties],
        "time_called": state.time_called,
        "history": [
            {
                "dealer": r.dealer,
                "contract": {"seat": r.contract.seat, "level": r.contract.level, "denom": r.contract.denom},
                "tricks": list(r.tricks),
                "points": list(r.points),
                "note": r.note,
            }
            for r in state.history
        ],
    }
    if seat is not None and 0 <= seat < PLAYERS:
        denom = state.contract.denom if state.contract is not None else None
        data["seat"] = seat
        held = hand_order(state.hands[seat], denom)  # trump first, the left bower with it
        data["my_hand"] = list(held)
        data["my_suits"] = [effective_suit(card, denom) for card in held]
        if state.contract is not None and seat == contract_of(state).seat:
            data["my_discards"] = list(state.discards)
    return data


RULES = Game(
    name="euchre",
    min_players=4,
    max_players=4,
    options_type=EuchreOptions,
    setup=setup,
    to_move=to_move,
    legal_moves=legal_moves,
    apply=apply,
    chance=chance,
    outcome=outcome,
    view=view,
    is_legal=is_legal,
    officials=official_moves,
)
