"""The OpenAPI paths of the tombola (RULES L24; docs/interface.md §13)."""

from __future__ import annotations

from display.openapi.parts import BOOL, ERR, INT, STR, needing, obj, op

NUM = {"type": "number"}
TICKETS = {"type": "array", "items": INT}
NULLABLE = {"type": ["object", "null"]}
DRAFT = obj(
    authorisation=obj(number=STR, date=STR),
    price_eur=NUM,
    tickets=INT,
    carnet=INT,
    draw_at=STR,
    place=STR,
    collect_until=STR,
    unclaimed=STR,
    costs_eur=NUM,
    lots={"type": "array", "items": obj(label=STR, value_eur=NUM, donated=BOOL)},
    country={"enum": ["FR", "CH", "BE"]},
    association=STR,
    year_count=INT,
)
TOMBOLA = needing(
    DRAFT,
    "authorisation",
    "price_eur",
    "tickets",
    "draw_at",
    "collect_until",
    "lots",
)
SALE = needing(
    obj(
        count=INT,
        tickets=TICKETS,
        carnets=INT,
        buyer=STR,
        amount_eur=NUM,
        payment={"enum": ["especes", "carte", "cheque"]},
    ),
    "buyer",
    "payment",
)
DRAW = obj(president=STR, witnesses={"type": "array", "items": STR}, ticket=INT, all=BOOL)
T = "tombola"
READ = obj(
    kind={"enum": ["voucher", "tombola"]},
    code=STR,
    ticket={"type": ["integer", "null"]},
    lot=INT,
    label=STR,
    buyer=STR,
    collect_until=STR,
    refused=NULLABLE,
)


def paths() -> dict:
    """The tombola's paths."""
    pdf = op("Le règlement de la tombola (PDF)", None, media="application/pdf", errors=("no_tombola",), area=T)
    pdf["responses"]["404"] = ERR
    return {
        "/api/tombola": {
            "get": op("La tombola : préparée, le contrôle des 15 %, les billets vendus, les gagnants", None),
            "post": op(
                "Préparer la tombola (l'arrêté, le prix, les billets, les lots en nature, les frais)",
                "admin",
                TOMBOLA,
                ok_status="201",
                errors=("tombola_unauthorised", "cash_lot", "tombola_quota", "tombola_on_sale", "sales_closed"),
                area=T,
            ),
        },
        "/api/tombola/check": {
            "post": op(
                "Le contrôle des 15 % de la tombola en cours de saisie (rien n'est enregistré)",
                "admin",
                DRAFT,
                obj(check={"type": ["object", "null"]}, warnings={"type": "array", "items": STR}, refused=NULLABLE),
            )
        },
        "/api/tombola/sales": {
            "post": op(
                "Vendre des billets à un acheteur nommé",
                "desk",
                SALE,
                obj(sale_id=INT, tickets=TICKETS, codes={"type": "array", "items": STR}, seq=INT),
                "201",
                ("ticket_sold", "buyer_required", "wrong_amount", "not_enough_tickets", "sales_closed", "no_tombola"),
                area=T,
            )
        },
        "/api/tombola/close": {
            "post": op("Clore la vente des billets", "speaker", errors=("sales_closed", "no_tombola"), area=T)
        },
        "/api/tombola/draw": {
            "post": op(
                "Tirer le lot suivant (ou tous) parmi les billets vendus, devant le président et deux témoins",
                "speaker",
                DRAW,
                errors=(
                    "sales_open",
                    "witnesses_required",
                    "all_drawn",
                    "no_ticket_left",
                    "ticket_won",
                    "ticket_unsold",
                    "no_tombola",
                ),
                area=T,
            )
        },
        "/api/tombola/list": {
            "post": op(
                "Imprimer la liste des gagnants (journalisée, imprimée par la file d'impression)",
                "speaker",
                None,
                obj(winners=INT, seq=INT),
                "201",
                ("nothing_drawn", "no_tombola"),
                area=T,
            )
        },
        "/api/tombola/collect": {
            "post": op(
                "Remettre un lot contre le billet gagnant (son code signé)",
                "desk",
                needing(obj(code=STR), "code"),
                errors=("unknown_code", "no_lot", "not_drawn", "already_collected", "no_tombola"),
                area=T,
            )
        },
        "/api/lots/read": {
            "post": op(
                "Lire un code à la table des lots : un bon de partie ou un billet de tombola (selon sa forme), "
                "et pour un billet le lot dû ou le refus en clair ; n'écrit rien au journal",
                "desk",
                needing(obj(code={"type": "string", "minLength": 1, "maxLength": 200, "pattern": "\\S"}), "code"),
                ok=READ,
            )
        },
        "/api/tombola/reglement.pdf": {"get": pdf},
    }
