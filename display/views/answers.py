"""The answers to the staff's commands (INTERFACE §4): a claim's verdict, an award, a redemption, a ball drawn."""

from __future__ import annotations

from typing import Any

from display.views.state import card, given, lot_ref, tie_break
from hall.events import Record
from hall.snapshots import AwardResult, ClaimResult, Redemption


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
        "to_go": list(r.to_go),  # a missed carton may still win the lot with another row
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
    stage = [{"lot": lot_ref(r.lot), "winner": a.winners[0], **given(r.lot.spec, a)}] if r.more else []
    stage += [{"lot": lot_ref(ref), "winner": e.winners[0], **given(ref.spec, e)} for e, ref in r.more]
    return {
        "winner": a.winners[0],
        "winners": list(a.winners),
        "shared": a.shared,
        "tie_mode": a.tie_mode,
        "ball": a.draw_index + 1,
        "tie_break": tie_break(a),
        "consolation": list(r.consolation),
        "vouchers": list(r.vouchers),
        "lot": lot_ref(r.lot),
        "stage": stage,
        **given(r.lot.spec, a),
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
