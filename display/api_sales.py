"""The sales desk's API (INTERFACE §8): sell, void, pay a reservation, the takings; parse → ``Hall`` → answer."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from display import auth as A
from display.current import hall
from display.limits import field, json_body
from display.session_ref import caller_session, session_ref
from hall import (
    MAX_RANGE,
    NO_TIER,
    STAKE_LIMIT_CENTS,
    RangeError,
    Sale,
    TierError,
    as_eur,
    expand_ranges,
    is_ascii_digits,
    parse_eur,
    parse_tiers,
)
from hall.ports import HallPort
from hall.refusal import Rejected

bp = Blueprint("sales", __name__, url_prefix="/api/sales")
RECENT = 30
MAX_PARTIE_DIGITS = 3  # "partie": 1 to 999, read only once it is that short (a 5 000-digit text is a 422)


def sale_view(sale: Sale) -> dict:
    """A sale as the desk and the admin see it (euros as JSON numbers, cents alongside)."""
    return {
        "sale_id": sale.sale_id,
        "cards": list(sale.card_ids),
        "count": len(sale.card_ids),
        "amount_eur": as_eur(sale.cents),
        "amount_cents": sale.cents,
        "payment": sale.payment,
        "paid": sale.paid,
        "buyer": sale.buyer,
        "seller": sale.seller or sale.role,
        "role": sale.role,
        "partie": sale.partie,
        "voided": sale.voided,
        "note": sale.note,
        "offered_eur": None if sale.offered_cents in (None, NO_TIER) else as_eur(sale.offered_cents),
        "session": sale.session,
    }


def summary_view(h: HallPort) -> dict:
    """``GET /api/sales/summary``: cartons sold and the takings (INTERFACE §8), with the desk's extras."""
    t = h.sales_totals()
    money = {k: as_eur(v) for k, v in t["by_payment"].items()}
    return {
        "cards_sold": t["cards_sold"],
        "cards_reserved": t["cards_reserved"],
        "sales": t["sales"],
        "takings_eur": {
            "total": as_eur(t["total_cents"]),
            "by_payment": money,
            "by_seller": {k: as_eur(v) for k, v in t["by_seller"].items()},
            "by_partie": {k: as_eur(v) for k, v in t["by_partie"].items()},
            "reserved": as_eur(t["reserved_cents"]),
        },
        "takings_cents": {
            "total": t["total_cents"],
            "by_payment": t["by_payment"],
            "by_seller": t["by_seller"],
            "by_partie": t["by_partie"],
            "reserved": t["reserved_cents"],
        },
        "tiers": tiers_view(h),
        "recording": h.caisse_sells(),
        "book": h.card_count()[0],
        "recent": [sale_view(s) for s in h.sales()[-RECENT:]][::-1],
    }


def tiers_view(h: HallPort) -> list[dict]:
    """The price tiers the caisse offers now (euros as JSON numbers, cents alongside)."""
    return [{"cards": p.cards, "eur": as_eur(p.cents), "cents": p.cents} for p in h.price_tiers()]


def _partie(value) -> int | None:
    """The partie a sale is for (1–999), from a JSON number or ASCII digits; 422 ``bad_partie`` before any work."""
    if value in ("", None):
        return None
    if isinstance(value, str) and len(value) <= MAX_PARTIE_DIGITS and is_ascii_digits(value):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 999:
        return value
    raise Rejected("bad_partie", partie=str(value)[:20])


def _card_ids(data: dict, limit: int) -> list[str]:
    """The cartons of a sale: ``cards`` (IDs, ranges allowed in each) and/or ``range``, bounded before expanding."""
    cards = data.get("cards")
    text = field(data, "range", str, required=False, default="")
    if cards is not None:
        if (
            not isinstance(cards, list)
            or not all(isinstance(c, str) and len(c) <= 80 for c in cards)
            or len(cards) > MAX_RANGE
        ):
            raise Rejected("bad_field", field="cards")
        text = ", ".join([*cards, text])
    try:
        ids = expand_ranges(text, limit)
    except RangeError as exc:
        raise Rejected(exc.code, part=exc.text, why=exc.why, limit=limit) from None
    if not ids:
        raise Rejected("no_cards")
    return ids


def named(exc: Rejected) -> None:
    """Refusals that name cartons, said with their IDs; ``unknown_card`` is a 422 here (INTERFACE §8)."""
    cards = exc.detail.get("cards")
    if not isinstance(cards, list):
        return
    more = exc.detail.get("count", len(cards)) - len(cards)
    names = ", ".join(cards) + (f" (+{more})" if more > 0 else "")
    if exc.code == "unknown_card":
        raise Rejected("sales/unknown_card", **exc.detail, names=names)
    exc.detail["names"] = names


@bp.post("")
def sell():
    role = A.require_right("sell")
    data = json_body()
    partie = _partie(data.get("partie"))  # bounded first: a huge "partie" costs nothing
    h = hall()
    ids = _card_ids(data, min(max(h.card_count()[0], 1), MAX_RANGE))
    amount = data.get("amount_eur")
    cents = None
    if amount not in (None, ""):
        try:
            cents = parse_eur(amount)
        except ValueError:
            raise Rejected("bad_amount") from None
    paid = field(data, "paid", bool, required=False, default=True)
    payment = field(data, "payment", str, required=False, default="especes")
    buyer = field(data, "buyer", str, required=False, default="")
    # the seller is the logged-in desk (the name typed at its login): the body may only add a note ("seller" from
    # a page of an older version is taken as one)
    note = field(data, "note", str, required=False, default="") or field(
        data, "seller", str, required=False, default=""
    )
    seller = A.auth().sessions.name(caller_session())
    try:
        record = h.sell(
            ids,
            role=role,
            payment=payment,
            cents=cents,
            paid=paid,
            buyer=buyer,
            seller=seller,
            partie=partie,
            session=session_ref(),
            note=note,
        )
    except Rejected as exc:
        named(exc)
        raise
    e = record.event
    return jsonify(
        {
            "sale_id": e.sale_id,
            "cards": list(e.card_ids),
            "amount_eur": as_eur(e.cents),
            "amount_cents": e.cents,
            "payment": e.payment,
            "paid": e.paid,
            "buyer": e.buyer,
            "seller": e.seller or role,
            "note": e.note,
            "seq": record.seq,
            "phones_url": f"/s/{h.sale_code(e.sale_id)}",  # the sale's cartons on the buyer's phone (§9)
            "offered_eur": None if e.offered_cents in (None, NO_TIER) else as_eur(e.offered_cents),
        }
    ), 201


@bp.get("/check")
def check():
    """``?cards=`` one basket line (an ID, a short form, a plaque ``D-1..D-12``) as a sale would read it: its
    cartons, those the book lacks with the real ones one keystroke away, those already sold. Nothing is written."""
    A.require_right("sell")
    h = hall()
    ids = _card_ids({"range": request.args.get("cards", "")[:400]}, min(max(h.card_count()[0], 1), MAX_RANGE))
    found = h.check_basket(ids)
    return jsonify(
        {
            "cards": list(found.card_ids),
            "count": len(found.card_ids),
            "unknown": [{"card_id": c, "suggestions": list(near)} for c, near in found.unknown],
            "sold": list(found.taken),
        }
    )


@bp.get("/price")
def price():
    """The suggested price of ``?count=N`` cartons by the hall's tiers."""
    A.require_right("sales_summary")
    count = request.args.get("count", "")
    if not is_ascii_digits(count) or not 0 <= int(count) <= MAX_RANGE:
        raise Rejected("bad_field", field="count")
    cents = hall().suggested_cents(int(count))
    return jsonify({"count": int(count), "amount_eur": None if cents is None else as_eur(cents), "amount_cents": cents})


@bp.get("/prices")
def prices():
    """The price tiers the caisse offers now: public, the prices are on the projector too."""
    return jsonify({"tiers": tiers_view(hall()), "stake_limit_eur": as_eur(STAKE_LIMIT_CENTS)})


@bp.post("/prices")
def set_prices():
    """``{"tiers": [{"cards": 1, "eur": 3}, …]}`` (admin): journalled, offered from the next sale on."""
    role = A.require_right("edit_prices")
    try:
        tiers = parse_tiers(json_body().get("tiers"))
    except TierError as exc:
        raise Rejected(exc.code, where=exc.where, why=exc.why, eur=exc.why) from None
    h = hall()
    record = h.set_prices(tiers, role=role)
    return jsonify({"tiers": tiers_view(h), "seq": record.seq}), 201


@bp.post("/<int:sale_id>/void")
def void(sale_id: int):
    role = A.require_right("void_sale")
    reason = field(json_body(), "reason", str, required=False, default="")
    h = hall()
    try:
        record = h.void_sale(sale_id, role=role, reason=reason)
    except Rejected as exc:
        named(exc)
        raise
    sale = h.sale(sale_id)
    assert sale is not None  # just voided: it stays in the ledger
    return jsonify({**sale_view(sale), "seq": record.seq})


@bp.post("/<int:sale_id>/pay")
def pay(sale_id: int):
    role = A.require_right("pay_sale")
    payment = field(json_body(), "payment", str, required=False, default="especes")
    h = hall()
    record = h.pay_sale(sale_id, payment, role=role)
    sale = h.sale(sale_id)
    assert sale is not None  # just paid: it is in the ledger
    # the buyer who just paid gets his cartons' QR code on the desk's screen, as at a sale paid at once
    return jsonify({**sale_view(sale), "seq": record.seq, "phones_url": f"/s/{h.sale_code(sale_id)}"})


@bp.get("/summary")
def summary():
    A.require_right("sales_summary")
    return jsonify(summary_view(hall()))


@bp.get("")
def list_sales():
    """Every sale of the evening (``?buyer=`` filters the pré-vente list by name)."""
    A.require_right("sales_summary")
    who = request.args.get("buyer", "").strip().casefold()
    sales = [sale_view(s) for s in hall().sales() if not who or who in s.buyer.casefold()]
    return jsonify({"sales": sales})
