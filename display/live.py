"""What each audience is told, computed from the hall's state: snapshots and one event per journal record.

Every journal record becomes exactly one event in each room, carrying the record's ``seq``, so a
client sees ``seq`` go up by one per event and can tell a gap (INTERFACE §5). Records that §5 does not
name (sales, vouchers) travel as ``tick`` so the count never jumps. Call these under ``hall.lock``.
"""
from __future__ import annotations

from hall.events import (BallDrawn, ClaimAnnounced, ClaimChecked, DrawResumed, DrawUndone, LotAwarded,
                         PartieCleared, PartieStarted, Record, VoucherIssued)
from display.views import card_view, public_state, speaker_state
from hall.partie import with_carried

PUBLIC, STAFF, SPEAKER = "public", "staff", "speaker"


def _lot(p, index: int | None) -> dict | None:
    if p is None or index is None or not 0 <= index < len(p.lots):
        return None
    lot = p.lots[index]
    return {"index": index, "kind": lot.kind, "label": lot.label}


def _next_partie(hall) -> dict:
    number = len(hall.evening.parties) + 1
    spec = hall.config.partie_spec(number - 1)
    return {"number": number, "consolation": spec.consolation,
            "lots": [{"kind": lot.kind, "label": lot.label, "value_eur": lot.value_eur}
                     for lot in with_carried(spec.lots, hall.evening.carried)]}


def _with_hall(hall, state: dict) -> dict:
    """Add what every screen shows between parties: the hall's name, the carton prices, the next partie."""
    state["hall"] = hall.config.hall.name
    state["prices"] = hall.config.hall.prices
    state["next_partie"] = _next_partie(hall) if hall.evening.running is None else None
    return state


def projector_state(hall) -> dict:
    """``GET /api/state``: the public state, plus the hall's name and, between parties, the next one."""
    return _with_winners(hall, _with_hall(hall, public_state(hall.evening)))


def _with_winners(hall, state: dict) -> dict:
    """Add the valid cartons waiting for their lot, as the projector draws them (a screen that joins mid-check)."""
    p = hall.evening.running
    state["winners"] = []
    for claim in (p.pending.values() if p is not None else ()):
        card = card_view(hall, claim.card_id)
        if card is not None:
            state["winners"].append({"card_id": claim.card_id, "card": {k: v for k, v in card.items() if k != "sold"},
                                     "rows": list(claim.rows)})
    return state


def staff_state(hall, role: str | None) -> dict:
    """The snapshot a socket gets: the speaker's superset for speaker/admin, else the public state."""
    if role in ("speaker", "admin"):
        return _with_hall(hall, speaker_state(hall))
    return projector_state(hall)


def verdict_payload(hall, result: dict) -> dict:
    """A controller's answer: the verdict (INTERFACE §4) and the carton as the controller sees it."""
    card = card_view(hall, result["card_id"]) if result["verdict"] not in ("unknown_card",) else None
    return {**result, "card": card}


def event_for(hall, record: Record, room: str) -> tuple[str, dict]:
    """The (event name, payload) that ``room`` gets for ``record`` — always exactly one."""
    e, seq = record.event, record.seq
    p = hall.evening.partie
    if isinstance(e, BallDrawn):
        return "draw", {"number": e.number, "index": e.index, "partie": p.number, "seq": seq}
    if isinstance(e, DrawUndone):
        return "undo", {"number": e.number, "index": e.index, "seq": seq}
    if isinstance(e, ClaimAnnounced):
        return "claim", {"status": "checking", "seq": seq}
    if isinstance(e, DrawResumed):
        return "resume", {"status": "playing", "seq": seq}
    if isinstance(e, ClaimChecked):
        payload = {"card_id": e.card_id, "verdict": e.verdict, "lot": _lot(p, e.lot_index), "seq": seq}
        if room == PUBLIC:
            # the hall sees who won, never who was wrong
            if e.verdict != "valid":
                payload["card_id"] = None
            else:   # the winner's carton, drawn large on the projector with its winning rows framed
                card = card_view(hall, e.card_id)
                payload["card"] = {k: v for k, v in card.items() if k != "sold"} if card else None
                payload["rows"] = list(e.rows)
        else:
            payload.update({"rows": list(e.rows), "complete_rows": list(e.complete_rows),
                            "missing": list(e.missing), "last": e.last, "reason": e.reason})
        payload["status"] = p.status if p is not None else "waiting"
        return "verdict", payload
    if isinstance(e, LotAwarded):
        return "award", {"lot": _lot(p, e.lot_index), "winner": e.winners[0], "winners": list(e.winners),
                         "shared": e.shared, "tie_mode": e.tie_mode, "tie_break": [{"card_id": t.card_id, "number": t.number}
                                                           for t in e.tie_break],
                         "consolation": list(e.consolation), "last": e.last,
                         "current_lot": p.current, "seq": seq}
    if isinstance(e, (PartieStarted, PartieCleared)):
        lots = public_state(hall.evening)["partie"]["lots"]
        return "partie", {"number": e.number, "status": "started" if isinstance(e, PartieStarted) else "cleared",
                          "lots": lots, "seq": seq}
    payload = {"type": record.type, "seq": seq}
    if room != PUBLIC and isinstance(e, VoucherIssued):
        payload.update({"code": e.code, "card_id": e.card_id, "label": e.lot_label, "consolation": e.consolation})
    elif room != PUBLIC and hasattr(e, "code"):
        payload["code"] = e.code
    return "tick", payload
