"""Bid Euchre values: options, the immutable state, contracts and hand scoring (RULES E9, E13–E17, E20)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from hall.minigames.euchre.cards import LOW_NO_TRUMP, NO_TRUMP, SUITS

PLAYERS = 4
TRICKS_PER_HAND = 8
PENALTY = 5  # RULES E18/E19: every penalty costs the offending team 5 points
CALL2, CALL1, MOON = 9, 10, 11  # contract levels above a bid of 8 (E14)
CALL_VALUES = {CALL2: 12, CALL1: 18, MOON: 24}  # E17
EXCHANGE = {CALL2: 2, CALL1: 1, MOON: 0}  # cards swapped with the partner (E13)

# The moves (``rules.py`` says when each is legal), as tuples; a phone's JSON lists are turned back into these.
Bid = tuple[Literal["bid"], int, str]  # a level 2–8 and a denomination
Call = tuple[Literal["call"], int]  # going alone: a call for 2 or 1 cards from the partner (E13)
Moon = tuple[Literal["moon"]]
Pass = tuple[Literal["pass"]]
BidMove = Bid | Call | Moon | Pass
Declare = tuple[Literal["declare"], str, tuple[str, ...]]  # a caller's denomination and discards
Give = tuple[Literal["give"], tuple[str, ...]]  # the partner's cards to the lone caller
Play = tuple[Literal["play"], str]
PlayerMove = BidMove | Declare | Give | Play
Deal = tuple[str, ...]  # the chance move: the 32 cards in the order dealt
# The official's actions (``officials.py``), never offered to players.
Penalty = tuple[Literal["penalty"], int, str]  # team, reason
Redeal = tuple[Literal["redeal"], str]  # reason
BidFault = tuple[Literal["bid_out_of_turn", "insufficient_bid"], int, str | None]  # offender, denomination named
Renege = tuple[Literal["renege"], int]  # offender
Time = tuple[Literal["time"]]
OfficialMove = Penalty | Redeal | BidFault | Renege | Time

PASS: Pass = ("pass",)


@dataclass(frozen=True, slots=True)
class EuchreOptions:
    """The table's rule flags (RULES E7, E12, E20); defaults are the OSGA rules."""

    all_pass: str = "dealer_stuck"  # E12: "dealer_stuck" | "redeal"
    low_no_trump: bool = False  # E7: off in OSGA play
    hands: int = 8  # E20: 8 hands, each player deals twice (4 for a playoff, E24)
    first_dealer: int = 0

    def __post_init__(self) -> None:
        if self.all_pass not in ("dealer_stuck", "redeal"):
            raise ValueError(f"all_pass must be 'dealer_stuck' or 'redeal', not {self.all_pass!r}")
        if self.hands < 1:
            raise ValueError(f"hands must be at least 1, not {self.hands!r}")
        if self.first_dealer not in range(PLAYERS):
            raise ValueError(f"first_dealer must be a seat 0–3, not {self.first_dealer!r}")

    def denominations(self) -> tuple[str, ...]:
        """Return what a bid may name: the four suits, no-trump, and low no-trump when enabled."""
        return SUITS + (NO_TRUMP,) + ((LOW_NO_TRUMP,) if self.low_no_trump else ())


@dataclass(frozen=True, slots=True)
class Contract:
    """The auction's result: ``level`` 2–8 or CALL2/CALL1/MOON; ``denom`` is None until a call names it."""

    seat: int
    level: int
    denom: str | None


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One line of the score sheet: who dealt, the contract, tricks per team and points per team."""

    dealer: int
    contract: Contract
    tricks: tuple[int, int]
    points: tuple[int, int]
    note: str = ""


@dataclass(frozen=True, slots=True)
class EuchreState:
    """A whole game of Bid Euchre; ``apply`` returns a new one (never mutated)."""

    options: EuchreOptions
    phase: str = "deal"  # deal | bid | declare | give | play | over
    hands_played: int = 0
    dealer: int = 0
    hands: tuple[tuple[str, ...], ...] = ((), (), (), ())
    turn: int = 0
    bids: tuple[tuple[int, BidMove], ...] = ()
    barred: tuple[tuple[int, str], ...] = ()  # (seat, denomination) a partner may not bid (E10, E11)
    forfeited: tuple[int, ...] = ()  # seats that lost their bid for this hand (E11)
    contract: Contract | None = None
    discards: tuple[str, ...] = ()  # the caller's face-down discards (E15)
    trick: tuple[tuple[int, str], ...] = ()
    played: tuple[tuple[tuple[int, str], ...], ...] = ()  # completed tricks of this hand
    tricks: tuple[int, int] = (0, 0)
    scores: tuple[int, int] = (0, 0)
    penalties: tuple[tuple[int, int, str], ...] = ()  # (team, points, reason) for the score sheet
    history: tuple[HandRecord, ...] = ()
    time_called: bool = False
    redeals: int = 0


def team_of(seat: int) -> int:
    """Return the team of ``seat``: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


def partner_of(seat: int) -> int:
    """Return the seat across the table."""
    return (seat + 2) % PLAYERS


def bid_level(move: BidMove) -> int:
    """Return the auction level of a bid move (2–8, CALL2, CALL1, MOON); 0 for a pass."""
    if move[0] == "bid":
        return move[1]
    if move[0] == "call":
        return CALL2 if move[1] == 2 else CALL1
    if move[0] == "moon":
        return MOON
    return 0


def high_bid(state: EuchreState) -> tuple[int, BidMove] | None:
    """Return the highest ``(seat, bid)`` so far, or None when everybody passed."""
    best: tuple[int, BidMove] | None = None
    for seat, move in state.bids:
        if bid_level(move) and (best is None or bid_level(move) > bid_level(best[1])):
            best = (seat, move)
    return best


def sitting_out(state: EuchreState) -> int | None:
    """Return the seat of a lone caller's partner, who sits out the play (E15); None otherwise."""
    if state.contract is not None and state.contract.level in CALL_VALUES:
        return partner_of(state.contract.seat)
    return None


def next_player(state: EuchreState, seat: int) -> int:
    """Return the seat after ``seat`` that plays in this hand (skipping a lone caller's partner)."""
    out = sitting_out(state)
    nxt = (seat + 1) % PLAYERS
    return (nxt + 1) % PLAYERS if nxt == out else nxt


def hand_points(contract: Contract, tricks: tuple[int, int]) -> tuple[int, int]:
    """Return the points each team scores for a finished hand (E16, E17)."""
    bidders = team_of(contract.seat)
    made, taken = tricks[bidders], tricks[1 - bidders]
    if contract.level in CALL_VALUES:
        value = CALL_VALUES[contract.level]
        mine = value if made == TRICKS_PER_HAND else -value
    else:
        mine = made if made >= contract.level else -contract.level
    points = [0, 0]
    points[bidders], points[1 - bidders] = mine, taken  # the opponents always score their tricks
    return points[0], points[1]


def contract_value(contract: Contract) -> int:
    """Return what a contract is worth: the bid for a number, 12/18/24 for the calls (E19)."""
    return CALL_VALUES.get(contract.level, contract.level)


def contract_of(state: EuchreState) -> Contract:
    """Return the hand's contract, settled by the bidding (the declare, give and play phases have one)."""
    assert state.contract is not None, f"no contract in phase {state.phase}"
    return state.contract


def add_points(scores: tuple[int, int], points: tuple[int, int]) -> tuple[int, int]:
    """Return ``scores`` plus ``points``, team by team."""
    return scores[0] + points[0], scores[1] + points[1]


def close_hand(state: EuchreState, points: tuple[int, int], note: str = "") -> EuchreState:
    """Return the state after a hand is scored: the next dealer deals, or the game is over (E20, E21)."""
    record = HandRecord(state.dealer, contract_of(state), state.tricks, points, note)
    played = state.hands_played + 1
    over = played >= state.options.hands or state.time_called
    return replace(
        state,
        phase="over" if over else "deal",
        hands_played=played,
        dealer=state.dealer if over else (state.dealer + 1) % PLAYERS,
        hands=((), (), (), ()),
        bids=(),
        barred=(),
        forfeited=(),
        contract=None,
        discards=(),
        trick=(),
        played=(),
        tricks=(0, 0),
        scores=add_points(state.scores, points),
        history=state.history + (record,),
    )


def redeal(state: EuchreState) -> EuchreState:
    """Return the state where the same dealer deals again; the hand does not count, tricks already taken
    included (E1, E12, E18).

    Once time is called no new hand starts (E21), and a redeal would be one: the hand is dropped and the
    game is over on the score so far.
    """
    over = state.time_called
    return replace(
        state,
        phase="over" if over else "deal",
        hands=((), (), (), ()),
        bids=(),
        barred=(),
        forfeited=(),
        contract=None,
        discards=(),
        trick=(),
        played=(),
        tricks=(0, 0),
        redeals=state.redeals + 1,
    )


def record_bid(state: EuchreState, seat: int, move: BidMove) -> EuchreState:
    """Return the state after ``seat`` bids or passes; the fourth bid closes the auction (E9, E12, E15)."""
    bids = state.bids + ((seat, move),)
    if len(bids) < PLAYERS:
        return replace(state, bids=bids, turn=(seat + 1) % PLAYERS)
    best = high_bid(replace(state, bids=bids))
    if best is None:  # only reachable with the "redeal" flag or when the stuck dealer had forfeited
        return redeal(replace(state, bids=bids))
    winner, bid = best
    level = bid_level(bid)
    contract = Contract(winner, level, bid[2] if bid[0] == "bid" else None)
    phase = "play" if contract.denom is not None else "declare"
    return replace(state, bids=bids, contract=contract, phase=phase, turn=winner)
