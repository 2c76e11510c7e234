"""Simultaneous winners (RULES L13–L14): the hall draws, the players draw tokens and the speaker types the numbers,
or the lot is shared. Pure: the claimants, the rule and the speaker's choice in, a ``TieOutcome`` out.

Who wins a draw — the lowest or the highest number — is the hall's rule (``[rules] ties``), fixed for the evening
and announced before it (docs/loto-rules.md, L14a): the speaker chooses how the tie is settled, never the direction.
How (``METHODS``) is fixed once announced (L14c): a later choice of another way is refused unless given with a
reason, and then journalled. A draw orders the claimants, who take the stage's lots in that order (L14b).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from hall.cartons.card_ids import normalize_card_id
from hall.cartons.cards import parse_number
from hall.errors import InvalidNumber
from hall.events import ClaimChecked, LotAwarded, TieAnnounced, TieBreakDraw
from hall.loto.claims import Verdict
from hall.refusal import Rejected
from hall.sources import Rng

RULES = ("draw_lowest", "draw_highest", "share", "physical_lowest", "physical_highest")
WINS = ("lowest", "highest")
METHODS = ("draw", "physical", "share")  # how a tie is settled: the hall draws, tokens drawn by hand, sharing
MAX_REASON = 200


@dataclass(frozen=True, slots=True)
class TieOutcome:
    """Who wins: ``winners`` (several only when ``shared``), the numbers drawn, the consolation cartons, and
    ``mode``: ``draw_lowest``/``draw_highest`` (the hall drew), ``physical_lowest``/``physical_highest`` (tokens
    drawn in the hall, typed), ``share``, or ``""`` for a single claimant."""

    winners: tuple[str, ...]
    tie_break: tuple[TieBreakDraw, ...] = ()
    consolation: tuple[str, ...] = ()
    shared: bool = False
    mode: str = ""
    order: tuple[str, ...] = ()  # a draw: every claimant, the best number first (who takes the stage's lots)


def default_wins(rule: str) -> str:
    """The direction a rule gives when the speaker says none: the highest for ``*_highest``, else the lowest."""
    return "highest" if rule.endswith("_highest") else "lowest"


def one_claim_per_player(
    pending: Mapping[str, ClaimChecked], same_player: Sequence[Sequence[str]]
) -> list[ClaimChecked]:
    """One valid claim per claimant (RULES L13): a player's several valid cartons, grouped by ``same_player``, count
    once — the group's first carton plays. A carton outside ``pending`` or in two groups is refused."""
    grouped: dict[str, str] = {}
    for group in same_player:
        ids = [normalize_card_id(c) for c in group if isinstance(c, str)]
        stray = [c for c in ids if c not in pending]
        if stray:
            raise Rejected("not_a_valid_claim", cards=stray)
        for cid in ids:
            if cid in grouped:
                raise Rejected("card_in_two_groups", card_id=cid)
            grouped[cid] = ids[0]
    return [claim for cid, claim in pending.items() if grouped.get(cid, cid) == cid]


def settle(
    card_ids: Sequence[str],
    rule: str,
    rng: Rng,
    *,
    typed: Mapping[str, object] | None = None,
    share: bool = False,
    wins: str | None = None,
    draw: bool = False,
    resolve: Callable[[str], str] = lambda c: c,
) -> TieOutcome:
    """Settle the lot between ``card_ids`` (one carton per claimant, in claim order).

    ``typed``: the numbers drawn by hand, carton → 1–90 (a physical draw); ``share``: the lot is shared; ``draw``:
    the hall draws; none: as ``rule`` says (a ``physical_*`` rule then needs the numbers). ``wins`` may only
    repeat the rule's direction (``tie_direction_fixed`` otherwise). Raises ``Rejected`` for any bad choice,
    before anything is decided.
    """
    if sum((typed is not None, share, draw)) > 1:
        raise Rejected("bad_tie_choice")
    if wins is not None and wins not in WINS:
        raise Rejected("bad_tie_choice", wins=wins)
    if wins is not None and wins != default_wins(rule):
        raise Rejected("tie_direction_fixed", wins=wins, rule=default_wins(rule))
    if len(card_ids) == 1:
        if typed or share or draw:
            raise Rejected("no_tie", card_id=card_ids[0])
        return TieOutcome((card_ids[0],))
    if share or (typed is None and not draw and rule == "share"):
        return TieOutcome(tuple(card_ids), shared=True, mode="share")
    direction = default_wins(rule)
    if typed is None:
        if rule.startswith("physical") and not draw:
            raise Rejected("tie_numbers_needed", cards=list(card_ids))
        numbers = rng.sample(range(1, 91), len(card_ids))  # a separate full 1–90 bag
        draws = tuple(TieBreakDraw(c, n) for c, n in zip(card_ids, numbers))
        mode = "draw_" + direction
    else:
        draws = tuple(TieBreakDraw(c, n) for c, n in _typed_numbers(card_ids, typed, resolve))
        mode = "physical_" + direction
    order = tuple(t.card_id for t in sorted(draws, key=lambda t: t.number, reverse=direction == "highest"))
    return TieOutcome((order[0],), draws, order[1:], False, mode, order)


def method_of(typed: Mapping[str, object] | None, share: bool, draw: bool) -> str | None:
    """The way a request asks for (``physical``, ``share``, ``draw``), or ``None`` when it names none."""
    return "physical" if typed is not None else "share" if share else "draw" if draw else None


def as_announced(announced: str, typed: Mapping[str, object] | None, share: bool, draw: bool) -> tuple[bool, bool]:
    """The award's ``(share, draw)`` for a tie announced ``announced`` (L14c): the announced way when the request
    names none; ``tie_method_fixed`` when it names another."""
    asked = method_of(typed, share, draw)
    if asked is not None and asked != announced:
        raise Rejected("tie_method_fixed", method=announced, asked=asked)
    if announced == "physical" and typed is None:
        raise Rejected("tie_numbers_needed")  # drawn by hand: the numbers, never the hall's own draw
    return announced == "share", announced == "draw"


def check_method(method: object, reason: object) -> tuple[str, str]:
    """A tie's way as announced at the console, and the reason given for changing it (stripped, bounded)."""
    if not isinstance(method, str) or method not in METHODS:
        raise Rejected("bad_tie_choice", method=str(method)[:20])
    if not isinstance(reason, str):
        raise Rejected("bad_field", field="reason")
    return method, " ".join(reason.split())[:MAX_REASON]


def announce(
    said: TieAnnounced | None,
    method: object,
    reason: object,
    lot_index: int,
    draw_index: int,
    cards: tuple[str, ...],
    session: str,
) -> TieAnnounced | None:
    """How the tie on the open lot is settled, as the speaker says it before the draw (docs L14c): the way and
    the cartons; ``None`` when ``said`` already says that way; another way is ``tie_method_fixed`` unless a
    ``reason`` comes with it, and then the new announcement names the one it replaces and why."""
    method, reason = check_method(method, reason)
    if len(cards) < 2:
        raise Rejected("no_tie", cards=list(cards))
    if said is not None and said.method == method:
        return None
    if said is not None and not reason:
        raise Rejected("tie_method_fixed", method=said.method, asked=method)
    return TieAnnounced(
        lot_index, draw_index, cards, method, said.method if said else "", reason if said else "", str(session)[:40]
    )


def lots_given(
    outcome: TieOutcome,
    rows: Mapping[str, tuple[int, ...]],
    kinds: Sequence[str],
    current: int,
    draws: Sequence[int],
    verdict: Callable[[int, str], Verdict],
) -> list[LotAwarded]:
    """The award's events. One lot: its winner (or sharers), the other claimants consoled. A draw between
    claimants while the stage has more lots of the open one's kind (docs L14b): one event per lot given in the
    draw's order (``rank``), each claim checked again for its lot by ``verdict(lot_index, card)``, the claimants
    left consoled on the last one."""
    last, at = draws[-1], len(draws) - 1
    given: list[tuple[int, str, tuple[int, ...]]] = []
    stage = stage_lots(kinds, current)
    if len(outcome.order) > 1 and len(stage) > 1:
        for index, cid in zip(stage, outcome.order):
            v = verdict(index, cid)
            if v.kind != "valid":
                break  # never with lots of one kind: the row that made the first lot makes the next
            given.append((index, cid, tuple(v.rows)))
    if len(given) < 2:
        return [
            LotAwarded(
                current,
                outcome.winners,
                tuple(rows[w] for w in outcome.winners),
                outcome.tie_break,
                outcome.consolation,
                last,
                at,
                outcome.shared,
                outcome.mode,
            )
        ]
    left = outcome.order[len(given) :]
    return [
        LotAwarded(
            index,
            (cid,),
            (won,),
            outcome.tie_break,
            left if rank == len(given) - 1 else (),
            last,
            at,
            False,
            outcome.mode,
            rank,
        )
        for rank, (index, cid, won) in enumerate(given)
    ]


def stage_lots(kinds: Sequence[str], current: int) -> list[int]:
    """The open lot and the lots right after it of the same kind (one stage, RULES L7): the lots a tie's draw
    gives out in its order (L14b)."""
    out = [current]
    while out[-1] + 1 < len(kinds) and kinds[out[-1] + 1] == kinds[current]:
        out.append(out[-1] + 1)
    return out


def _typed_numbers(
    card_ids: Sequence[str], typed: Mapping[str, object], resolve: Callable[[str], str]
) -> list[tuple[str, int]]:
    """(carton, number) in claim order from the speaker's typing; every carton of the tie, each 1–90, all different."""
    if not isinstance(typed, Mapping) or not typed:
        raise Rejected("bad_tie_break", why="empty")
    numbers: dict[str, int] = {}
    for raw, value in typed.items():
        cid = resolve(raw) if isinstance(raw, str) else raw
        if cid not in card_ids:
            raise Rejected("not_a_valid_claim", cards=[raw])
        if cid in numbers:
            raise Rejected("bad_tie_break", why="twice", card_id=cid)
        if isinstance(value, bool):
            raise Rejected("tie_number_out_of_range", card_id=cid, number=value)
        try:
            numbers[cid] = parse_number(value)
        except (InvalidNumber, TypeError):
            raise Rejected("tie_number_out_of_range", card_id=cid, number=value) from None
    missing = [c for c in card_ids if c not in numbers]
    if missing:
        raise Rejected("tie_numbers_needed", cards=missing)
    if len(set(numbers.values())) != len(numbers):
        raise Rejected("tie_numbers_equal", numbers=sorted(numbers.values()))
    return [(c, numbers[c]) for c in card_ids]
