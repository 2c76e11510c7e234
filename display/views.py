"""What each audience may see, computed from the state (never cached per client, never raw state)."""
from __future__ import annotations

from hall.partie import Evening, Partie


def _lots(p: Partie) -> list[dict]:
    return [{"kind": lot.kind, "label": lot.label, "status": lot.status, "value_eur": lot.value_eur,
             "winners": list(lot.award.winners) if lot.award else [],
             "tie_break": [{"card_id": t.card_id, "number": t.number} for t in lot.award.tie_break] if lot.award else [],
             "consolation": list(lot.award.consolation) if lot.award else []}
            for lot in p.lots]


def public_state(evening: Evening) -> dict:
    """The public state (INTERFACE §4 ``GET /api/state``): what every projector shows."""
    p = evening.partie
    if p is None:
        return {"partie": None, "draws": [], "last": None, "status": "waiting", "seq": evening.last_seq}
    return {
        "partie": {"number": p.number, "lots": _lots(p), "current_lot": p.current, "consolation": p.consolation},
        "draws": list(p.draws) if not p.cleared else [],
        "last": p.last if not p.cleared else None,
        "status": "waiting" if p.cleared else p.status,
        "seq": evening.last_seq,
    }


def speaker_state(hall) -> dict:
    """The speaker's console: the public state plus the claims, the winner watch, devices, undo."""
    ev = hall.evening
    state = public_state(ev)
    p = ev.running
    watch = hall.watch
    state.update({
        "pending_claims": [{"card_id": c.card_id, "rows": list(c.rows)} for c in p.pending.values()] if p else [],
        "paused": bool(p and p.paused),
        "undo_available": bool(p and p.undo_available and p.draws and not p.drawn_at_last_award()),
        "watch": {"can_claim": watch.candidates[:50], "can_claim_count": len(watch.candidates),
                  "slept": [{"card_id": s.card_id, "lot_index": s.lot_index, "ball": s.ball}
                            for s in watch.sleepers[-50:]]},
        "recent_checks": _recent_checks(p) if p else [],
        "devices": dict(hall.devices),
        "proposed": hall.proposed,
        "next_partie": len(ev.parties) + 1 if p is None else None,
        "sold_count": sum(1 for cid in hall.book if hall.is_sold(cid)),
        "unprinted": len(ev.unprinted()),
    })
    return state


def _recent_checks(p: Partie, limit: int = 30) -> list[dict]:
    flat = [c for checks in p.checks.values() for c in checks]
    return [{"card_id": c.card_id, "verdict": c.verdict, "last": c.last, "lot_index": c.lot_index}
            for c in flat[-limit:]]


def card_view(hall, card_id: str) -> dict | None:
    """A carton as the controller sees it: its grid, the drawn numbers on it, complete rows, the last number."""
    card = hall.book.get(card_id)
    if card is None:
        return None
    p = hall.evening.partie
    drawn = set(p.draws) if p is not None and not p.cleared else set()
    last = p.last if p is not None and not p.cleared else None
    grid = card.grid(hall.config.cards.columns)
    return {"card_id": card_id, "grid": [list(row) for row in grid],
            "marked": sorted(n for n in card.numbers if n in drawn), "last": last if last in card.numbers else None,
            "complete_rows": [i for i, row in enumerate(card.rows) if drawn.issuperset(row)],
            "sold": hall.is_sold(card_id)}
