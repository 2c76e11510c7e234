"""The buvette's API (RULES L25): its products (admin), a sale (the buvette's role and those above it),
the Z at the close, the till's state; parse → ``Hall`` → answer. Every refusal is the area ``buvette``'s."""

from __future__ import annotations

from flask import Blueprint, jsonify
from flask_babel import lazy_gettext as _l

from display import auth as A
from display.current import hall
from display.errors import declare
from display.limits import field, json_body
from display.session_ref import caller_session, session_ref
from hall import BuvettePicture, as_eur
from hall.events import BuvetteClosed, BuvetteSold

bp = Blueprint("buvette", __name__, url_prefix="/api/buvette")

declare(
    "buvette",
    {
        "bad_products": (
            422,
            _l(
                "Liste des produits refusée : de 1 à %(max)s produits, chacun avec « name », « price_eur » et « stock »."
            ),
        ),
        "product_twice": (422, _l("Le produit « %(product)s » est deux fois dans la liste.")),
        "bad_name": (422, _l("Nom de produit refusé : une ligne de texte, %(max)s caractères au plus.")),
        "negative_price": (422, _l("Prix négatif refusé (%(field)s) : un prix est de 0 € ou plus.")),
        "bad_amount": (
            422,
            _l("Montant incorrect (%(field)s) : un nombre d'euros, au centime (par exemple 2 ou 1,50)."),
        ),
        "bad_count": (422, _l("Nombre incorrect (%(field)s) : un entier de %(low)s à %(high)s.")),
        "bad_items": (422, _l("Ticket refusé : de 1 à %(max)s lignes, chacune avec « product » et « qty ».")),
        "unknown_product": (422, _l("Produit inconnu à la buvette : « %(product)s ».")),
        "out_of_stock": (
            409,
            _l("Plus assez de « %(product)s » : il en reste %(left)s, %(asked)s demandé(s). Rien n'a été vendu."),
        ),
        "bad_payment": (422, _l("Paiement incorrect : espèces (cash), carte (card) ou offert (free).")),
        "bad_print": (422, _l("Impression incorrecte : aucune, « receipt » (ticket) ou « tokens » (jetons).")),
        "tendered_not_cash": (422, _l("La somme donnée ne se compte qu'en espèces.")),
        "short_tendered": (422, _l("La somme donnée ne couvre pas le total : rien n'a été vendu.")),
        "bad_counted": (422, _l("Comptage refusé : un nombre par produit, %(max)s produits au plus.")),
    },
)


def _eur(cents: int | None) -> float | int | None:
    return None if cents is None else as_eur(cents)


def ticket_view(t: BuvetteSold) -> dict:
    """A ticket as the till and the admin read it (euros as JSON numbers, cents alongside)."""
    return {
        "ticket": t.ticket,
        "items": [{"product": x.product, "qty": x.qty, "price_eur": as_eur(x.cents)} for x in t.items],
        "total_eur": as_eur(t.total_cents),
        "total_cents": t.total_cents,
        "payment": t.payment,
        "tendered_eur": _eur(t.tendered_cents),
        "change_eur": as_eur(t.change_cents),
        "print": t.printed_as,
        "seller": t.seller,
    }


def z_view(z: BuvetteClosed) -> dict:
    """A Z total: its tickets, the sums by payment and by product, the stock counted against the stock expected."""
    return {
        "z": z.z,
        "tickets": [z.first_ticket, z.last_ticket] if z.first_ticket else [],
        "by_payment_eur": {p: as_eur(c) for p, c in z.by_payment},
        "takings_eur": as_eur(sum(c for p, c in z.by_payment if p != "free")),
        "by_product": [{"product": n, "qty": q, "total_eur": as_eur(c)} for n, q, c in z.by_product],
        "counted": [
            {"product": n, "expected": e, "counted": c, "difference": None if c is None else c - e}
            for n, e, c in z.counted
        ],
    }


def buvette_view(b: BuvettePicture) -> dict:
    """``GET /api/buvette``: the products, the next ticket, the sums since the last Z, the latest tickets, the Z's."""
    return {
        "products": [
            {"name": p.name, "price_eur": as_eur(p.cents), "price_cents": p.cents, "stock": p.left, "sold": p.sold}
            for p in b.products
        ],
        "next_ticket": b.next_ticket,
        "open": {
            "first_ticket": b.first_open,
            "by_payment_eur": {p: as_eur(c) for p, c in b.open_by_payment},
            "takings_eur": as_eur(sum(c for p, c in b.open_by_payment if p != "free")),
            "by_product": [{"product": n, "qty": q, "total_eur": as_eur(c)} for n, q, c in b.open_by_product],
        },
        "recent": [ticket_view(t) for t in b.recent],
        "closes": [z_view(z) for z in b.closes],
        "costs_eur": as_eur(b.costs_cents),
    }


@bp.get("")
def state():
    A.require_right("buvette_read")
    return jsonify(buvette_view(hall().buvette()))


@bp.post("/products")
def products():
    """``{"products": [{"name", "price_eur", "stock"}…], "costs_eur"?}`` (admin): journalled, on sale at once."""
    role = A.require_right("buvette_products")
    data = json_body()
    h = hall()
    record = h.set_buvette_products(data.get("products"), data.get("costs_eur") or 0, role=role)
    return jsonify({**buvette_view(h.buvette()), "seq": record.seq}), 201


@bp.post("/sales")
def sell():
    """``{"items": [{"product", "qty"}…], "payment": "cash"|"card"|"free", "tendered_eur"?, "print"?}`` → the
    ticket's number, its total and the change."""
    role = A.require_right("buvette_sell")
    data = json_body()
    printed_as = field(data, "print", str, required=False, default="")
    record = hall().buvette_sell(
        data.get("items"),
        data.get("payment"),
        data.get("tendered_eur"),
        printed_as,
        role=role,
        seller=A.auth().sessions.name(caller_session()),
        session=session_ref(),
    )
    return jsonify({**ticket_view(record.event), "seq": record.seq}), 201


@bp.post("/close")
def close():
    """``{"counted"?: {"product": units}}`` → the Z of the tickets since the last one, journalled."""
    role = A.require_right("buvette_close")
    record = hall().buvette_close(json_body().get("counted"), role=role)
    return jsonify({**z_view(record.event), "seq": record.seq}), 201
