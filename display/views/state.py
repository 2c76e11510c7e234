"""The states a screen is given (INTERFACE §4): the public state every projector shows, the speaker's console, a
carton as the controller sees it, a device; the audiences' room names. Pure functions of the hall's snapshots."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask_babel import force_locale

from display.i18n import device_sentence
from hall import balls_left, default_wins, prize_at
from hall.events import LotAwarded, LotSpec, PlayersSet
from hall.net.wifi import wifi_qr_payload
from hall.snapshots import (
    CardState,
    DeviceStatus,
    HallSnapshot,
    LotRef,
    LotState,
    PartieState,
    Proposal,
    RoomLink,
    SpeakerSnapshot,
    Standing,
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


def tie_break(award: LotAwarded) -> list[dict]:
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
            "tie_break": tie_break(lot.award) if lot.award else [],
            "consolation": list(lot.award.consolation) if lot.award else [],
            "lines": lines(lot),
            **(lot_terms(lot.spec) if lot.spec is not None else {}),
            **_prize(lot),
        }
        for lot in p.lots
    ]


def jackpots(p: PartieState) -> list[dict]:
    """The partie's maxi-bingos not yet won, each as the hall counts it (RULES L20, from the partie's first ball,
    whichever lot is open): ``lot`` its index, ``within`` its N, ``left`` the balls still to come with the jackpot
    to win (0: the last one is out), ``lost`` once ball N + 1 is out (it plays for its fallback then)."""
    out = []
    for i, lot in enumerate(p.lots):
        spec = lot.spec
        if spec is None or spec.within is None or lot.award is not None:
            continue
        left = balls_left(spec, len(p.draws))
        out.append({"lot": i, "within": spec.within, "left": left or 0, "lost": left is None})
    return out


def given(spec: LotSpec, award: LotAwarded) -> dict:
    """What an award's winner takes home (RULES L20): ``given``, the prize itself (the lot, or a maxi-bingo's
    fallback won after its ball N), and for a maxi-bingo ``prize``, ``jackpot`` or ``fallback``: no page works it out
    from the ball (the ``award`` event and answer)."""
    won = prize_at(spec, award.draw_index + 1)
    out: dict[str, Any] = {"given": {"label": won.label, "value_eur": won.value_eur, "sponsor": won.sponsor}}
    if spec.within is not None:
        out["prize"] = "fallback" if won.fallback else "jackpot"
    return out


def _prize(lot: LotState) -> dict:
    """An awarded maxi-bingo's prize: ``jackpot`` or ``fallback`` (RULES L20), by the ball it was won on."""
    if lot.award is None or lot.spec is None or lot.spec.within is None:
        return {}
    return {"prize": "fallback" if prize_at(lot.spec, lot.award.draw_index + 1).fallback else "jackpot"}


def public_state(snap: HallSnapshot) -> dict:
    """The public state (INTERFACE §4 ``GET /api/state``): what every projector shows, with the evening's rules
    the hall announces (§4's extension): ``tie_mode`` (``[rules] ties``), ``wins`` (who wins a tie's draw:
    ``lowest`` or ``highest``) and ``carry`` (the lots carried by « Démarquez » to the next partie)."""
    p = snap.partie
    rules = {
        "wins": default_wins(snap.tie_mode),
        "tie_mode": snap.tie_mode,
        "carry": [announced_lot(x) for x in snap.carried],
    }
    if p is None:
        return {
            "partie": None,
            "draws": [],
            "last": None,
            "status": "waiting",
            "seq": snap.seq,
            "players": players(snap.players),
            **rules,
        }
    return {
        "partie": {
            "number": p.number,
            "lots": lots(p),
            "current_lot": p.current,
            "consolation": p.consolation,
            **({"jackpots": found} if (found := jackpots(p)) and not p.cleared else {}),
        },
        "draws": list(p.draws) if not p.cleared else [],
        "last": p.last if not p.cleared else None,
        "status": "waiting" if p.cleared else p.status,
        "seq": snap.seq,
        "players": players(snap.players),
        **rules,
    }


def announced_lot(lot: LotSpec) -> dict:
    """A lot not yet played (the next partie's, a lot carried to it), as it is announced."""
    return {"kind": lot.kind, "label": lot.label, "value_eur": lot.value_eur, **lot_terms(lot)}


def players(e: PlayersSet) -> dict:
    """How much the players' phones help (INTERFACE §9): the ``players`` of the state and of its event."""
    return {"help": e.help, "one_to_go": e.one_to_go, "phone_call": e.phone_call, "max_cards": e.max_cards}


def next_partie(snap: HallSnapshot) -> dict | None:
    n = snap.next_partie
    if n is None:
        return None
    return {
        "number": n.number,
        "consolation": n.spec.consolation,
        "lots": [announced_lot(lot) for lot in n.spec.lots],
    }


def _wifi(snap: HallSnapshot) -> dict | None:
    """The hall's Wi-Fi (name, password, the QR text phones join by scanning) and the page phones open."""
    w = snap.wifi
    if w is None:
        return None
    return {"ssid": w.ssid, "password": w.password, "qr": wifi_qr_payload(w.ssid, w.password), "url": w.url}


def room_links(links: tuple[RoomLink, ...]) -> list[dict]:
    """The annex rooms' links (RULES L23): ``GET /api/state``'s ``rooms``, empty when the hall has none."""
    return [{"room": r.room, "online": r.online, "last_seen_s": r.last_seen_s, "going_on": r.going_on} for r in links]


def _with_hall(snap: HallSnapshot, state: dict) -> dict:
    """Add what every screen shows between parties: the hall's name, the carton prices, the next partie, the Wi-Fi;
    and the annex rooms' links, at every moment."""
    state["rooms"] = room_links(snap.rooms)
    state["hall"] = snap.hall_name
    state["prices"] = snap.prices
    state["next_partie"] = next_partie(snap)
    state["wifi"] = _wifi(snap)
    return state


def projector_state(snap: HallSnapshot) -> dict:
    """``GET /api/state``: the public state, plus the hall's name and, between parties, the next one, and the
    valid cartons waiting for their lot (drawn large on the projector; a screen that joins mid-check), and after a
    « Démarquez » the journal's fingerprint then (``journal``: the partie, the groups to read aloud, the record's
    number), for the hall to photograph: ``loto-hall verify --fingerprint`` accepts it (docs/record.md)."""
    state = _with_winners(snap, _with_hall(snap, public_state(snap)))
    if snap.after_partie is not None:
        number, fp = snap.after_partie
        state["journal"] = {"partie": number, "shown": fp.shown, "seq": fp.seq}
    return state


def public_card(c: CardState) -> dict:
    """A carton as the hall sees it on the projector (no sales information)."""
    shown = card(c) or {}
    return {k: v for k, v in shown.items() if k != "sold"}


def _with_winners(snap: HallSnapshot, state: dict) -> dict:
    p = snap.running
    rows = {c.card_id: c.rows for c in p.pending} if p is not None else {}
    state["winners"] = [
        {"card_id": w.card_id, "card": public_card(w), "rows": list(rows.get(w.card_id, ()))} for w in snap.winners
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
            {"card_id": c.card_id, "verdict": c.verdict, "last": c.last, "lot_index": c.lot_index, "reason": c.reason}
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


def carton(at: int, card_id: str, s: Standing) -> dict:
    """A followed carton's standing as its phone is told it (« Mes cartons »): the claim check's verdict
    for the open lot ``lot`` (``valid``, ``incomplete``, ``missed``; ``closed``; ``cancelled_card``), its
    ``reason``, the rows that make it, the complete rows, ``to_go`` (the fewest numbers still to come for a valid
    claim), a maxi-bingo's ``prize``, and the rows paid per kind of lot, at record ``at``."""
    return {
        "card_id": card_id,
        "at": at,
        "lot": s.lot,
        "verdict": s.verdict,
        "reason": s.reason,
        "rows": list(s.rows),
        "complete_rows": list(s.complete_rows),
        "to_go": list(s.to_go),
        "prize": s.prize,
        "paid": {kind: list(rows) for kind, rows in s.paid},
    }


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
