"""Bid Euchre official's actions: penalties, redeals, bidding faults, renege and time (RULES E10, E11, E18, E19, E21).

The controller enforces legal play, so these moves are never offered to players or bots; the table's
device submits them for the official, from the seat whose turn it is.
"""

from __future__ import annotations

from dataclasses import replace

from hall.minigames.euchre.state import (
    PASS,
    PENALTY,
    PLAYERS,
    EuchreState,
    OfficialMove,
    add_points,
    close_hand,
    contract_of,
    contract_value,
    partner_of,
    record_bid,
    redeal,
    sitting_out,
    team_of,
)

PENALTY_REASONS = ("out_of_turn", "exposed_card", "hesitation")  # E18
REDEAL_REASONS = ("exposed_card", "hesitation")  # E1, E18
# When each redeal may be ordered: a card exposed *during the deal* (rule 11, E1) right after it, in the
# bidding; a player who hesitates (rule 6) "once the game has begun", so at any point of the hand (E18a).
REDEAL_PHASES = {"exposed_card": ("bid",), "hesitation": ("bid", "declare", "give", "play")}
OFFICIAL_KINDS = ("penalty", "redeal", "bid_out_of_turn", "insufficient_bid", "renege", "time")


def is_official(move: object) -> bool:
    """Return whether ``move`` (a move in its tuple form, or anything sent) is one of the official's actions."""
    return isinstance(move, tuple) and bool(move) and move[0] in OFFICIAL_KINDS


def official_moves(state: EuchreState) -> list[OfficialMove]:
    """Return every official's action that fits the current state (what a referee's console may offer)."""
    if state.phase in ("deal", "over"):
        return []
    moves: list[OfficialMove] = [("penalty", team, reason) for team in (0, 1) for reason in PENALTY_REASONS]
    moves += [("redeal", reason) for reason in REDEAL_REASONS]
    if state.phase == "bid":
        denoms = (None,) + state.options.denominations()
        moves += [("bid_out_of_turn", seat, denom) for seat in range(PLAYERS) for denom in denoms]
        moves += [("insufficient_bid", state.turn, denom) for denom in denoms]
    if state.phase == "play":
        moves += [("renege", seat) for seat in range(PLAYERS)]
    moves.append(("time",))
    return [move for move in moves if official_is_legal(state, move)]


def official_is_legal(state: EuchreState, move: tuple[object, ...]) -> bool:
    """Return whether the official's action ``move`` (checked here, whatever was sent) fits the current state."""
    kind, args = move[0], move[1:]
    if state.phase in ("deal", "over"):
        return False
    if kind == "penalty":
        return len(args) == 2 and _int_in(args[0], (0, 1)) and args[1] in PENALTY_REASONS
    if kind == "redeal":
        return len(args) == 1 and args[0] in REDEAL_REASONS and state.phase in REDEAL_PHASES[args[0]]
    if kind == "time":
        return not args and not state.time_called
    if kind in ("bid_out_of_turn", "insufficient_bid"):
        return _bid_fault_legal(state, kind, args)
    if kind == "renege":
        return (
            state.phase == "play"
            and len(args) == 1
            and _int_in(args[0], range(PLAYERS))
            and args[0] != sitting_out(state)
        )
    return False


def _bid_fault_legal(state: EuchreState, kind: object, args: tuple[object, ...]) -> bool:
    """A bid out of turn or an insufficient bid: by a seat that has not bid yet, of a denomination of the game."""
    if state.phase != "bid" or len(args) != 2 or not _int_in(args[0], range(PLAYERS)):
        return False
    offender, denom = args
    if denom is not None and denom not in state.options.denominations():
        return False
    if any(seat == offender for seat, _ in state.bids):
        return False
    if kind == "insufficient_bid":  # E10: the bid just made, by the seat on turn, did not raise
        return offender == state.turn and denom is not None
    return offender != state.turn and offender not in state.forfeited


def _int_in(value: object, allowed: range | tuple[int, ...]) -> bool:
    """Whether ``value`` is a plain ``int`` among ``allowed`` (``True`` and ``1.0`` are not seat 1)."""
    return type(value) is int and value in allowed


def apply_official(state: EuchreState, move: OfficialMove) -> EuchreState:
    """Return the state after the official's action ``move`` (checked by :func:`official_is_legal`)."""
    if move[0] == "penalty":
        _, team, reason = move
        points = (-PENALTY, 0) if team == 0 else (0, -PENALTY)
        return replace(
            state, scores=add_points(state.scores, points), penalties=state.penalties + ((team, -PENALTY, reason),)
        )
    if move[0] == "redeal":
        return redeal(state)
    if move[0] == "time":  # E21: the current hand is finished, no new hand starts
        return replace(state, time_called=True)
    if move[0] == "bid_out_of_turn" or move[0] == "insufficient_bid":
        kind, offender, denom = move
        barred = state.barred + (((partner_of(offender), denom),) if denom is not None else ())
        if kind == "insufficient_bid":  # E10: the bid is cancelled, it counts as a pass
            return record_bid(replace(state, barred=barred), offender, PASS)
        return replace(state, barred=barred, forfeited=state.forfeited + (offender,))  # E11
    return _renege(state, move[1])


def _renege(state: EuchreState, offender: int) -> EuchreState:
    """Return the state after a renege stops the hand (E19, our reading of rule 14)."""
    # One rule for both sides (our decision, docs/osga.md): the offending team pays 5 and its tricks count
    # for nothing (the bidders also lose their contract); the innocent team keeps the best it had secured:
    # defenders their tricks already taken (E16), bidders their contract (rule 14) or more if they already
    # took more tricks on a numeric bid (E16 counts overtricks).
    contract = contract_of(state)
    bidders = team_of(contract.seat)
    points = [0, 0]
    if team_of(offender) != bidders:
        points[bidders], points[1 - bidders] = max(contract_value(contract), state.tricks[bidders]), -PENALTY
    else:
        points[bidders], points[1 - bidders] = -contract_value(contract) - PENALTY, state.tricks[1 - bidders]
    return close_hand(state, (points[0], points[1]), note=f"renege seat {offender}")
