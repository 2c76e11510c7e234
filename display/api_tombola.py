"""The tombola's API (RULES L24): prepared by the admin, sold at the desk, drawn by the speaker in public,
its lots handed over at the prize desk; parse → ``Hall`` → answer. Its refusals are the ``tombola`` area's."""

from __future__ import annotations

import io

from flask import Blueprint, current_app, jsonify
from flask_babel import lazy_gettext as _l

from display import auth as A
from display.current import hall
from display.errors import declare, error_body
from display.limits import json_body
from display.pages import render_page
from display.services import services
from display.session_ref import session_ref
from hall import as_eur, read_prize_code
from hall.ports import HallPort
from hall.refusal import Rejected
from hall.rights import may

bp = Blueprint("tombola", __name__, url_prefix="/api/tombola")
lots_bp = Blueprint("lots_desk", __name__, url_prefix="/api/lots")  # the prize desk's reading of a code
page_bp = Blueprint("tombola_page", __name__)

declare(
    "tombola",
    {
        "tombola_unauthorised": (
            422,
            _l(
                "Tombola refusée : le numéro et la date de l'arrêté du maire (ou de l'annonce à la Préfecture, "
                "ou de l'accord de la commune) sont demandés avant tout billet (article L322-3 du code de la "
                "sécurité intérieure)."
            ),
        ),
        "cash_lot": (
            422,
            _l("Lot n° %(lot)s refusé : « %(label)s » est de l'argent. Une tombola ne fait gagner que des objets."),
        ),
        "tombola_quota": (422, _l("Belgique : %(max)s petites tombolas par an au plus pour une association.")),
        "no_tombola": (409, _l("Aucune tombola n'est préparée : l'administrateur la prépare d'abord.")),
        "tombola_on_sale": (
            409,
            _l("Des billets sont déjà vendus (%(sold)s) : le prix et les billets émis ne changent plus."),
        ),
        "sales_closed": (409, _l("La vente des billets de tombola est close.")),
        "sales_open": (409, _l("Le tirage commence quand la vente des billets est close.")),
        "buyer_required": (
            422,
            _l("Le nom de l'acheteur est écrit sur la souche : un billet de tombola n'est jamais « au porteur »."),
        ),
        "ticket_sold": (409, _l("Billet déjà vendu : %(names)s. Rien n'a été vendu.")),
        "not_enough_tickets": (409, _l("Il ne reste que %(left)s billets à vendre.")),
        "wrong_amount": (422, _l("Montant incorrect : %(count)s billets font %(expected)s.")),
        "witnesses_required": (
            422,
            _l("Avant le tirage, nommez le président et deux témoins (trois personnes différentes)."),
        ),
        "all_drawn": (409, _l("Les %(lots)s lots sont tirés.")),
        "no_ticket_left": (409, _l("Plus aucun billet vendu n'attend de lot.")),
        "ticket_won": (409, _l("Le billet n° %(ticket)s a déjà gagné : un billet ne gagne qu'une fois.")),
        "ticket_unsold": (422, _l("Le billet n° %(ticket)s n'est pas vendu : il ne peut pas gagner.")),
        "unknown_code": (404, _l("Billet inconnu ou falsifié.")),
        "no_lot": (409, _l("Le billet n° %(ticket)s n'a pas gagné de lot.")),
        "not_drawn": (
            409,
            _l(
                "Le tirage n'est pas terminé : le billet n° %(ticket)s peut encore gagner (%(left)s lots à tirer). "
                "Rendez-le à son porteur pour après le tirage."
            ),
        ),
        "nothing_drawn": (409, _l("Aucun lot n'est encore tiré : la liste des gagnants est vide.")),
        "already_collected": (409, _l("Le lot du billet n° %(ticket)s est déjà remis.")),
    },
)


def _amount_cents(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100_000:
        raise Rejected("bad_field", field="amount_eur")
    return round(value * 100)


def check_view(c) -> dict:
    """The 15 % check as the API says it (``GET /api/tombola`` and ``POST /api/tombola/check``)."""
    return {
        "issued_eur": as_eur(c.issued_cents),
        "limit_eur": as_eur(c.limit_cents),
        "spent_eur": as_eur(c.spent_cents),
        "percent": c.percent,
        "over": c.over,
    }


def tombola_view(h: HallPort, *, staff: bool) -> dict:
    """The tombola as ``GET /api/tombola`` says it: prepared, the 15 % check, sold, the draw and its winners; the
    buyers' names to the staff only (the projector shows the winning numbers)."""
    t = h.tombola()
    p = t.prepared
    if p is None:
        return {"prepared": False, "sold": 0, "winners": []}
    c = t.check
    assert c is not None
    lots = p.tombola_lots
    return {
        "prepared": True,
        "country": p.country,
        "currency": "CHF" if p.country == "CH" else "EUR",
        "authorisation": {"number": p.authority_number, "date": p.authority_date},
        "association": p.association,
        "price_eur": as_eur(p.price_cents),
        "tickets": p.tickets,
        "carnet": p.carnet,
        "draw_at": p.draw_at,
        "place": p.place,
        "collect_until": p.collect_until,
        "unclaimed": p.unclaimed,
        "costs_eur": as_eur(p.costs_cents),
        "lots": [{"label": lot.label, "value_eur": as_eur(lot.value_cents), "donated": lot.donated} for lot in lots],
        "check": check_view(c),
        "warnings": list(t.warnings),
        "sold": len(t.sold),
        "takings_eur": as_eur(sum(s.cents for s in t.sales)),
        "closed": t.closed,
        "president": t.president,
        "witnesses": list(t.witnesses),
        "next_lot": t.next_lot,
        "winners": [
            {
                "lot": w.lot_index + 1,
                "label": lots[w.lot_index].label,
                "ticket": w.ticket,
                "source": w.source,
                "collected": w.lot_index in t.collected,
                **({"buyer": w.buyer} if staff else {}),
            }
            for w in t.wins
        ],
        **({"sales": [_sale(s) for s in t.sales]} if staff else {}),
    }


def _sale(s) -> dict:
    return {
        "sale_id": s.sale_id,
        "tickets": list(s.numbers),
        "buyer": s.buyer,
        "amount_eur": as_eur(s.cents),
        "payment": s.payment,
    }


@bp.get("")
def state():
    role = A.request_role()
    return jsonify(tombola_view(hall(), staff=may(role, "tombola_sell") or may(role, "tombola_draw")))


@bp.post("")
def prepare():
    role = A.require_right("tombola_prepare")
    h = hall()
    record = h.prepare_tombola(json_body(), role=role)
    return jsonify({**tombola_view(h, staff=True), "seq": record.seq}), 201


@bp.post("/check")
def check():
    """The 15 % check of the tombola /admin is typing (the preparation's body), journalling nothing: the check
    from the preparation's own core, its warnings, and what the preparation would be refused for, in words."""
    A.require_right("tombola_prepare")
    d = hall().tombola_check(json_body())
    refused = None if d.refused is None else error_body(d.refused.key, d.refused.detail)
    return jsonify(
        {"check": None if d.check is None else check_view(d.check), "warnings": list(d.warnings), "refused": refused}
    )


@bp.post("/sales")
def sell():
    role = A.require_right("tombola_sell")
    data = json_body()
    h = hall()
    record = h.sell_tombola(
        buyer=data.get("buyer"),
        payment=data.get("payment"),
        tickets=data.get("tickets"),
        count=data.get("count"),
        carnets=data.get("carnets"),
        amount_cents=_amount_cents(data.get("amount_eur")),
        role=role,
        session=session_ref(),
    )
    sale = record.event
    body = {**_sale(sale), "codes": [h.tombola_code(n) for n in sale.numbers], "seq": record.seq}
    return jsonify(body), 201


@bp.post("/close")
def close():
    role = A.require_right("tombola_draw")
    h = hall()
    record = h.close_tombola_sales(role=role)
    return jsonify({**tombola_view(h, staff=True), "seq": record.seq})


@bp.post("/draw")
def draw():
    role = A.require_right("tombola_draw")
    data = json_body()
    every = data.get("all", False)
    if not isinstance(every, bool):
        raise Rejected("bad_field", field="all")
    h = hall()
    before = len(h.tombola().wins)
    record = h.draw_tombola(
        president=data.get("president"),
        witnesses=data.get("witnesses"),
        ticket=data.get("ticket"),
        every=every,
        role=role,
    )
    view = tombola_view(h, staff=True)
    return jsonify({"drawn": view["winners"][before:], "tombola": view, "seq": record.seq})


@bp.post("/list")
def winners_list():
    """The winners' list on paper: journalled, then printed by the print queue (a printer away loses it not)."""
    role = A.require_right("tombola_draw")
    record = hall().request_tombola_list(role=role)
    return jsonify({"winners": record.event.winners, "seq": record.seq}), 201


@bp.post("/collect")
def collect():
    role = A.require_right("tombola_collect")
    code = json_body().get("code")
    if not isinstance(code, str) or len(code) > 40:
        raise Rejected("bad_field", field="code")
    h = hall()
    record = h.collect_tombola_lot(code, role=role)
    prepared = h.tombola().prepared
    label = prepared.tombola_lots[record.event.lot_index].label if prepared is not None else ""
    return jsonify(
        {"lot": record.event.lot_index + 1, "label": label, "ticket": record.event.ticket, "seq": record.seq}
    )


@lots_bp.post("/read")
def read_code():
    """What the prize desk scanned or typed, read once in Python: a voucher's code (/lots then redeems it) or a
    tombola ticket's, with the lot it is owed or the refusal in words (journals nothing: « Remettre le lot »
    then calls ``POST /api/tombola/collect``)."""
    role = A.require_right("tombola_collect")
    text = json_body().get("code")
    if not isinstance(text, str) or not text.strip() or len(text) > 200:
        raise Rejected("bad_field", field="code")
    kind, code = read_prize_code(text)
    if kind != "tombola":
        return jsonify({"kind": kind, "code": code})
    h = hall()
    try:
        win = h.tombola_lot_of(code, role=role)
    except Rejected as refused:
        ticket = refused.detail.get("ticket")
        return jsonify(
            {"kind": kind, "code": code, "ticket": ticket, "refused": error_body(refused.key, refused.detail)}
        )
    prepared = h.tombola().prepared
    assert prepared is not None
    return jsonify(
        {
            "kind": kind,
            "code": code,
            "ticket": win.ticket,
            "lot": win.lot_index + 1,
            "label": prepared.tombola_lots[win.lot_index].label,
            "buyer": win.buyer,
            "collect_until": prepared.collect_until,
            "refused": None,
        }
    )


@bp.get("/reglement.pdf")
def reglement_pdf():
    """The règlement generated from the tombola prepared (public: it is posted in the hall)."""
    prepared = hall().tombola().prepared
    if prepared is None:
        raise Rejected("tombola/no_tombola")
    maker = services().documents.get("tombola_reglement_pdf")
    if maker is None:
        raise Rejected("not_found")
    out = io.BytesIO()
    maker(prepared, out)
    return current_app.response_class(
        out.getvalue(),
        mimetype="application/pdf",
        headers={"Content-Disposition": "attachment; filename=reglement-tombola.pdf"},
    )


@page_bp.get("/tombola")
def projector_draw():
    """The projector's draw: each lot in order with its winning ticket, who conducts the draw (public, refreshed)."""
    view = tombola_view(hall(), staff=False)
    wins = {w["lot"]: w for w in view["winners"]}
    last = view["winners"][-1] if view["winners"] else None
    voice = hall().config.speech.enabled
    return render_page(
        "tombola.html", "tombola", {}, t=view, wins=wins, last=last, voice=voice, hall_name=hall().config.hall.name
    )
