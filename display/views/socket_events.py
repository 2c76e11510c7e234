"""The socket events (INTERFACE §5): one (name, payload) per journal record, per room, from the snapshot taken
right after it; records §5 does not name travel as ``tick``; and the speaker room's passing notices."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from display.views.state import (
    PUBLIC,
    Translate,
    device,
    french_detail,
    given,
    jackpots,
    lot_ref,
    lots,
    next_partie,
    players,
    proposal,
    public_card,
    room_links,
    tie_break,
)
from hall.events import (
    BallDrawn,
    BallRepeated,
    CallingSet,
    ClaimAnnounced,
    ClaimChecked,
    CountShown,
    DrawResumed,
    DrawUndone,
    EventHandlers,
    LotAwarded,
    PartieCleared,
    PartieStarted,
    PlayersSet,
    Record,
    RoomBack,
    RoomClaimed,
    RoomEnrolled,
    RoomGoOn,
    RoomLost,
    RoomOpened,
    TieAnnounced,
    VoiceTested,
    VoucherIssued,
    VoucherPrinted,
    VoucherRedeemed,
    VoucherReprintRequested,
)
from hall.requests import DeviceTestRequested, DrawRequested
from hall.snapshots import NOTICES, DeviceStatus, HallSnapshot, Notice, PartieState

SHAPES = EventHandlers[tuple[str, dict]]()  # event type → its (name, payload) for a room, given the snapshot
TICKS = EventHandlers[dict]()  # records §5 does not name: what the staff rooms' tick adds


@SHAPES.on(BallDrawn)
def _draw(e: BallDrawn, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    p = snap.partie
    assert p is not None  # a ball is drawn in a partie
    return "draw", {"number": e.number, "index": e.index, "partie": p.number, "seq": seq, **_jackpots(snap)}


@SHAPES.on(DrawUndone)
def _undo(e: DrawUndone, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    return "undo", {"number": e.number, "index": e.index, "seq": seq, "status": _status(snap), **_jackpots(snap)}


def _jackpots(snap: HallSnapshot) -> dict:
    """The partie's maxi-bingos as the hall counts them after the event (``jackpots``), when it has any: a page
    shows the balls left from the partie's first ball and never counts them itself."""
    p = snap.running
    found = jackpots(p) if p is not None else []
    return {"jackpots": found} if found else {}


def _status(snap: HallSnapshot) -> str:
    """The partie's status after an event, as the state says it: a page applies it without a refetch."""
    p = snap.partie
    return "waiting" if p is None or p.cleared else p.status


@SHAPES.on(ClaimAnnounced)
def _claim(e: ClaimAnnounced, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    return "claim", {"status": "checking", "seq": seq}


@SHAPES.on(DrawResumed)
def _resume(e: DrawResumed, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    return "resume", {"status": "playing", "seq": seq}


@SHAPES.on(ClaimChecked)
def _verdict(e: ClaimChecked, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    p = snap.partie
    payload: dict[str, object]
    payload = {
        "card_id": e.card_id,
        "verdict": e.verdict,
        "lot": lot_ref(p.lot(e.lot_index) if p else None),
        "seq": seq,
    }
    if room == PUBLIC:
        # the hall sees who won, never who was wrong
        if e.verdict != "valid":
            payload["card_id"] = None
    else:
        payload.update(
            {
                "rows": list(e.rows),
                "complete_rows": list(e.complete_rows),
                "missing": list(e.missing),
                "last": e.last,
                "reason": e.reason,
            }
        )
    payload["status"] = p.status if p is not None else "waiting"
    if e.prize:  # a maxi-bingo's valid carton plein: the jackpot, or the fallback from ball N + 1
        payload.update({"prize": e.prize, "ball": e.ball})
    if room == PUBLIC and e.verdict == "incomplete":
        payload["missing"] = list(e.missing)[:15]  # « le 8 n'est pas sorti »: the numbers, never the carton
    if room == PUBLIC and e.verdict in ("incomplete", "missed"):
        payload.update({"reason": e.reason, "last": e.last})  # why, said on the projector and the phones (L12a)
    if room == PUBLIC and e.verdict == "valid":
        # the winner's carton, drawn large on the projector with its winning rows framed
        won = next((w for w in snap.winners if w.card_id == e.card_id), None)
        payload["card"] = public_card(won) if won is not None else None
        payload["rows"] = list(e.rows)
    return "verdict", payload


@SHAPES.on(LotAwarded)
def _award(e: LotAwarded, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    p = snap.partie
    assert p is not None  # a lot is awarded in a partie
    return "award", {
        "lot": lot_ref(p.lot(e.lot_index)),
        "winner": e.winners[0],
        "winners": list(e.winners),
        "rows": [list(r) for r in e.rows],
        "ball": e.draw_index + 1,
        "shared": e.shared,
        "tie_mode": e.tie_mode,
        "tie_break": tie_break(e),
        "consolation": list(e.consolation),
        "last": e.last,
        "current_lot": p.current,
        "seq": seq,
        "rank": e.rank,
        "status": _status(snap),
        **_given(p, e),
        **_jackpots(snap),
    }


def _given(p: PartieState, e: LotAwarded) -> dict:
    spec = p.lots[e.lot_index].spec
    return {} if spec is None else given(spec, e)


@SHAPES.on(TieAnnounced)
def _tie(e: TieAnnounced, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    """How a tie will be settled, said before the draw (docs L14c): the projector says it to the hall."""
    p = snap.partie
    payload: dict[str, Any] = {
        "lot": lot_ref(p.lot(e.lot_index) if p else None),
        "method": e.method,
        "cards": list(e.cards),
        "seq": seq,
    }
    if room != PUBLIC:
        payload.update({"previous": e.previous, "reason": e.reason})
    return "tie", payload


def _partie(e: PartieStarted | PartieCleared, status: str, seq: int, snap: HallSnapshot) -> tuple[str, dict]:
    assert snap.partie is not None  # the partie just started or cleared
    payload = {"number": e.number, "status": status, "lots": lots(snap.partie), "seq": seq, **_jackpots(snap)}
    if status == "cleared":  # what the screens show between parties, without asking the state again
        payload["next_partie"] = next_partie(snap)
    return "partie", payload


@SHAPES.on(PartieStarted)
def _started(e: PartieStarted, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    return _partie(e, "started", seq, snap)


@SHAPES.on(PartieCleared)
def _cleared(e: PartieCleared, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    return _partie(e, "cleared", seq, snap)


@SHAPES.on(PlayersSet)
def _players(e: PlayersSet, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    return "players", {**players(e), "seq": seq}


@SHAPES.on(CallingSet)
def _calling(e: CallingSet, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    """The calling changed on /admin: every screen asks ``GET /api/speech`` again (flash, nicknames, pace)."""
    return "calling", {"flash": e.flash, "nicknames_on": e.nicknames_on, "seq": seq}


@SHAPES.on(BallRepeated)
def _again(e: BallRepeated, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    return "again", {"number": e.number, "seq": seq}


@SHAPES.on(CountShown)
def _count(e: CountShown, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    return "count", {"shown": e.shown, "seq": seq}


@SHAPES.on(VoiceTested)
def _voice_test(e: VoiceTested, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    return "voice_test", {"seq": seq}


@SHAPES.on(RoomClaimed)
def _room_claim(e: RoomClaimed, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    """« Quine ! » in the salle annexe (RULES L23): every screen says so, the main room hears its own chime."""
    return "room:claim", {"room": e.room, "ball": e.ball, "kind": e.kind, "partie": e.partie, "seq": seq}


@SHAPES.on(RoomOpened, RoomEnrolled, RoomLost, RoomGoOn, RoomBack)
def _room_link(
    e: RoomOpened | RoomEnrolled | RoomLost | RoomGoOn | RoomBack, seq: int, snap: HallSnapshot, room: str
) -> tuple[str, dict]:
    """An annex room opened, joined, lost, gone on without or back: its ``type`` and every room's link now."""
    return "rooms", {"type": e.type, "room": e.room, "rooms": room_links(snap.rooms), "seq": seq}


@TICKS.on(VoucherIssued)
def _voucher_tick(e: VoucherIssued) -> dict:
    return {"code": e.code, "card_id": e.card_id, "label": e.lot_label, "consolation": e.consolation}


@TICKS.on(VoucherPrinted, VoucherReprintRequested, VoucherRedeemed)
def _code_tick(e: VoucherPrinted | VoucherReprintRequested | VoucherRedeemed) -> dict:
    return {"code": e.code}


def event(record: Record, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    """The (event name, payload) that ``room`` gets for ``record`` (``snap`` taken right after it) — always one.

    Records that §5 does not name (sales, vouchers) travel as ``tick`` so the ``seq`` count never jumps."""
    shaped = SHAPES.dispatch(record.type, record.event, record.seq, snap, room)
    if shaped is not None:
        return shaped
    tick: dict[str, Any] = {"type": record.type, "seq": record.seq}
    if room != PUBLIC:
        tick.update(TICKS.dispatch(record.type, record.event) or {})
    return "tick", tick


NOTICE_NAMES = {
    "device:status_changed": "device",
    "draw:proposed": "proposed",
    "draw:refused": "refused",
    "players:call": "phone_call",
}


def notice(
    name: str, payload: Any, translate: Translate = french_detail, words: Callable[[str, Any], dict] | None = None
) -> tuple[str, dict]:
    """The speaker room's (event name, payload) for a passing notice; ``words(name, notice)`` says a driver's
    notice (a ``Notice``: a code and its parameters) as ``message``, ``tone`` and ``entry`` in the reader's
    language (display/notices.py)."""
    if isinstance(payload, DeviceStatus):
        body = device(payload, translate)
    elif name == "draw:proposed":
        body = proposal(payload) or {"number": None}
    elif isinstance(payload, Notice) or (name in NOTICES and isinstance(payload, dict)):
        if not isinstance(payload, Notice):  # a driver's notice sent as a plain dict: the same words
            payload = Notice(name, str(payload.get("code", "")), {k: v for k, v in payload.items() if k != "code"})
        body = {"code": payload.code, **payload.params}
        if words is not None:
            body.update(words(name, payload))
    elif isinstance(payload, (DrawRequested, DeviceTestRequested)):
        body = asdict(payload)
    else:
        body = dict(payload)
    return NOTICE_NAMES.get(name, "notice"), {"name": name, **body}
