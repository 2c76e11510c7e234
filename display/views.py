"""Every JSON a client sees (INTERFACE §4–§5), for every audience and every socket payload, from the hall's
immutable snapshots and command results. Pure functions: called outside the hall's lock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import force_locale

from display.i18n import device_sentence
from hall import prize_at
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
    LotSpec,
    PartieCleared,
    PartieStarted,
    PlayersSet,
    Record,
    TieAnnounced,
    VoiceTested,
    VoucherIssued,
    VoucherPrinted,
    VoucherRedeemed,
    VoucherReprintRequested,
)
from hall.net.wifi import wifi_qr_payload
from hall.snapshots import (
    NOTICES,
    AwardResult,
    CardState,
    ClaimResult,
    DeviceStatus,
    HallSnapshot,
    LotRef,
    LotState,
    Notice,
    PartieState,
    Proposal,
    Redemption,
    SpeakerSnapshot,
)

PUBLIC, STAFF, SPEAKER = "public", "staff", "speaker"
Translate = Callable[[DeviceStatus], str]


def french_detail(d: DeviceStatus) -> str:
    """A device's sentence in French from the one catalogue: what is said where no reader's language is known."""
    with force_locale("fr"):
        return device_sentence(d)


def lot_terms(lot: LotSpec | LotRef) -> dict:
    """A lot's terms as the wire carries them, only when it has some (INTERFACE §4's extension: ``row``; ``within``
    with ``fallback``)."""
    out: dict[str, Any] = {}
    if lot.row is not None:
        out["row"] = lot.row
    if lot.within is not None and lot.fallback is not None:
        f = lot.fallback
        out["within"] = lot.within
        out["fallback"] = {"label": f.label, "value_eur": f.value_eur, "sponsor": f.sponsor}
    return out


def lines(lot: LotState) -> dict:
    """Which lines of a carton win the lot (``hall.loto.lots.lines_of``): ``need`` complete rows among ``among`` (from 0,
    top first). The phones read it here, never from a table of their own."""
    found = lot.lines
    return {"need": found.need, "among": list(found.among)}


def lot_ref(ref: LotRef | None) -> dict | None:
    return None if ref is None else {"index": ref.index, "kind": ref.kind, "label": ref.label, **lot_terms(ref)}


def _tie_break(award: LotAwarded) -> list[dict]:
    return [{"card_id": t.card_id, "number": t.number} for t in award.tie_break]


def lots(p: PartieState) -> list[dict]:
    return [
        {
            "kind": lot.kind,
            "label": lot.label,
            "status": lot.status,
            "value_eur": lot.value_eur,
            "winners": list(lot.award.winners) if lot.award else [],
            "rows": [list(r) for r in lot.award.rows] if lot.award else [],
            "tie_break": _tie_break(lot.award) if lot.award else [],
            "consolation": list(lot.award.consolation) if lot.award else [],
            "lines": lines(lot),
            **(lot_terms(lot.spec) if lot.spec is not None else {}),
            **_prize(lot),
        }
        for lot in p.lots
    ]


def _prize(lot: LotState) -> dict:
    """An awarded maxi-bingo's prize: ``jackpot`` or ``fallback`` (RULES L20), by the ball it was won on."""
    if lot.award is None or lot.spec is None or lot.spec.within is None:
        return {}
    return {"prize": "fallback" if prize_at(lot.spec, lot.award.draw_index + 1).fallback else "jackpot"}


def public_state(snap: HallSnapshot) -> dict:
    """The public state (INTERFACE §4 ``GET /api/state``): what every projector shows."""
    p = snap.partie
    if p is None:
        return {
            "partie": None,
            "draws": [],
            "last": None,
            "status": "waiting",
            "seq": snap.seq,
            "players": players(snap.players),
        }
    return {
        "partie": {"number": p.number, "lots": lots(p), "current_lot": p.current, "consolation": p.consolation},
        "draws": list(p.draws) if not p.cleared else [],
        "last": p.last if not p.cleared else None,
        "status": "waiting" if p.cleared else p.status,
        "seq": snap.seq,
        "players": players(snap.players),
    }


def players(e: PlayersSet) -> dict:
    """How much the players' phones help (INTERFACE §9): the ``players`` of the state and of its event."""
    return {"help": e.help, "one_to_go": e.one_to_go, "phone_call": e.phone_call, "max_cards": e.max_cards}


def _next_partie(snap: HallSnapshot) -> dict | None:
    n = snap.next_partie
    if n is None:
        return None
    return {
        "number": n.number,
        "consolation": n.spec.consolation,
        "lots": [
            {"kind": lot.kind, "label": lot.label, "value_eur": lot.value_eur, **lot_terms(lot)} for lot in n.spec.lots
        ],
    }


def _wifi(snap: HallSnapshot) -> dict | None:
    """The hall's Wi-Fi (name, password, the QR text phones join by scanning) and the page phones open."""
    w = snap.wifi
    if w is None:
        return None
    return {"ssid": w.ssid, "password": w.password, "qr": wifi_qr_payload(w.ssid, w.password), "url": w.url}


def _with_hall(snap: HallSnapshot, state: dict) -> dict:
    """Add what every screen shows between parties: the hall's name, the carton prices, the next partie, the Wi-Fi."""
    state["hall"] = snap.hall_name
    state["prices"] = snap.prices
    state["next_partie"] = _next_partie(snap)
    state["wifi"] = _wifi(snap)
    return state


def projector_state(snap: HallSnapshot) -> dict:
    """``GET /api/state``: the public state, plus the hall's name and, between parties, the next one, and the
    valid cartons waiting for their lot (drawn large on the projector; a screen that joins mid-check)."""
    return _with_winners(snap, _with_hall(snap, public_state(snap)))


def _public_card(c: CardState) -> dict:
    """A carton as the hall sees it on the projector (no sales information)."""
    shown = card(c) or {}
    return {k: v for k, v in shown.items() if k != "sold"}


def _with_winners(snap: HallSnapshot, state: dict) -> dict:
    p = snap.running
    rows = {c.card_id: c.rows for c in p.pending} if p is not None else {}
    state["winners"] = [
        {"card_id": w.card_id, "card": _public_card(w), "rows": list(rows.get(w.card_id, ()))} for w in snap.winners
    ]
    return state


def device(d: DeviceStatus, translate: Translate = french_detail) -> dict:
    """A device's state: ``detail`` is its sentence in the reader's language; ``code``/``params`` name it."""
    return {
        "device": d.device,
        "status": d.state,
        "detail": translate(d),
        "at": d.at,
        "code": d.code,
        "params": dict(d.params),
    }


def proposal(p: Proposal | None) -> dict | None:
    return None if p is None else {"number": p.number, "source": p.source, "at": p.at}


def console(s: SpeakerSnapshot, translate: Translate = french_detail) -> dict:
    """The speaker's staff-only part of the console (claims, watch, devices, sales, printing)."""
    p = s.public.running
    return {
        "pending_claims": [{"card_id": c.card_id, "rows": list(c.rows)} for c in p.pending] if p else [],
        "paused": bool(p and p.paused),
        "held": bool(p and p.held),  # stopped after an award until the speaker resumes (docs L11a)
        "tie": None
        if p is None or p.tie is None
        else {  # the way a tie is settled, once announced (L14c)
            "method": p.tie.method,
            "previous": p.tie.previous,
            "reason": p.tie.reason,
            "cards": list(p.tie.cards),
        },
        "undo_available": bool(p and p.undo_allowed),
        "watch": {
            "can_claim": list(s.can_claim),
            "can_claim_count": s.can_claim_count,
            "slept": [{"card_id": x.card_id, "lot_index": x.lot_index, "ball": x.ball} for x in s.slept],
        },
        "recent_checks": [
            {"card_id": c.card_id, "verdict": c.verdict, "last": c.last, "lot_index": c.lot_index}
            for c in s.recent_checks
        ],
        "devices": {d.device: device(d, translate) for d in s.devices},
        "proposed": proposal(s.proposed),
        "next_partie": s.public.parties_played + 1 if p is None else None,
        "sold_count": s.sold_count,
        "unprinted": s.unprinted,
    }


def speaker_state(s: SpeakerSnapshot, translate: Translate = french_detail) -> dict:
    """The speaker's console (``GET /api/speaker/state``): the public state plus ``console``'s part."""
    state = public_state(s.public)
    state.update(console(s, translate))
    return _with_hall(s.public, state)


def card(c: CardState | None) -> dict | None:
    """A carton as the controller sees it: its grid, the drawn numbers on it, complete rows, the last number."""
    if c is None:
        return None
    return {
        "card_id": c.card_id,
        "grid": [list(row) for row in c.grid],
        "marked": sorted(n for n in c.card.numbers if n in c.drawn),
        "last": c.last if c.last in c.card.numbers else None,
        "complete_rows": [i for i, row in enumerate(c.card.rows) if c.drawn.issuperset(row)],
        "sold": c.sold,
    }


def verdict(r: ClaimResult) -> dict:
    """A controller's answer (INTERFACE §4): the verdict, the carton's earlier checks, and the carton."""
    e = r.event
    out: dict[str, Any] = {
        "verdict": e.verdict,
        "card_id": e.card_id,
        "reason": e.reason,
        "lot": lot_ref(r.lot),
        "rows": list(e.rows),
        "complete_rows": list(e.complete_rows),
        "missing": list(e.missing),
        "last": e.last,
        "ball": e.ball,
        "prize": e.prize,
        "checked_before": [{"verdict": c.verdict, "last": c.last, "lot_index": c.lot_index} for c in r.checked_before],
        "seq": r.seq,
    }
    if e.verdict == "unknown_card":
        out["check_character_ok"] = r.check_character_ok
        out["suggestions"] = list(r.suggestions)
    out["card"] = card(r.card)
    return out


def award(r: AwardResult) -> dict:
    """The award's answer: the open lot's winner(s); for a draw that gave the stage's next lots too (docs L14b),
    ``stage`` lists each lot with its winner in the draw's order (empty for one lot)."""
    a = r.award
    stage = [{"lot": lot_ref(r.lot), "winner": a.winners[0]}] if r.more else []
    stage += [{"lot": lot_ref(ref), "winner": e.winners[0]} for e, ref in r.more]
    return {
        "winner": a.winners[0],
        "winners": list(a.winners),
        "shared": a.shared,
        "tie_mode": a.tie_mode,
        "ball": a.draw_index + 1,
        "tie_break": _tie_break(a),
        "consolation": list(r.consolation),
        "vouchers": list(r.vouchers),
        "lot": lot_ref(r.lot),
        "stage": stage,
    }


def redemption(r: Redemption) -> dict:
    v = r.issued
    return {
        "code": v.code,
        "redeemed": True,
        "partie": v.partie,
        "lot": v.lot_label,
        "kind": v.lot_kind,
        "card_id": v.card_id,
        "consolation": v.consolation,
        "seq": r.seq,
    }


def drawn(record: Record) -> dict:
    return {"number": record.event.number, "index": record.event.index, "seq": record.seq}


# ---- socket events: one per journal record, per room (INTERFACE §5) -------------------------------------
SHAPES = EventHandlers[tuple[str, dict]]()  # event type → its (name, payload) for a room, given the snapshot
TICKS = EventHandlers[dict]()  # records §5 does not name: what the staff rooms' tick adds


@SHAPES.on(BallDrawn)
def _draw(e: BallDrawn, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    p = snap.partie
    assert p is not None  # a ball is drawn in a partie
    return "draw", {"number": e.number, "index": e.index, "partie": p.number, "seq": seq}


@SHAPES.on(DrawUndone)
def _undo(e: DrawUndone, seq: int, snap: HallSnapshot, room: str) -> tuple[str, dict]:
    return "undo", {"number": e.number, "index": e.index, "seq": seq, "status": _status(snap)}


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
    if room == PUBLIC and e.verdict == "valid":
        # the winner's carton, drawn large on the projector with its winning rows framed
        won = next((w for w in snap.winners if w.card_id == e.card_id), None)
        payload["card"] = _public_card(won) if won is not None else None
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
        "tie_break": _tie_break(e),
        "consolation": list(e.consolation),
        "last": e.last,
        "current_lot": p.current,
        "seq": seq,
        "rank": e.rank,
        "status": _status(snap),
    }


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
    payload = {"number": e.number, "status": status, "lots": lots(snap.partie), "seq": seq}
    if status == "cleared":  # what the screens show between parties, without asking the state again
        payload["next_partie"] = _next_partie(snap)
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
    else:
        body = dict(payload)
    return NOTICE_NAMES.get(name, "notice"), {"name": name, **body}
