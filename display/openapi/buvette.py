"""The OpenAPI paths of the buvette's till (RULES L25; docs/buvette.md): its state, its products (admin), a sale
(the buvette's role and those above it), the Z at the close. The bodies are bounded as ``hall/buvette/rules.py``
reads them (its ``LIMITS``): 1–40 products, 1–20 lines a ticket, 1–50 units a line, names of 30 characters."""

from __future__ import annotations

from display.openapi.parts import INT, STR, needing, obj, op
from hall import BUVETTE_LIMITS as L
from hall import BUVETTE_PAYMENTS, BUVETTE_PRINTS

B = "buvette"
NUM = {"type": "number"}
AMOUNT = {"type": ["number", "string"], "minimum": 0, "maxLength": 20, "pattern": "^[0-9]{1,6}([.,][0-9]{1,2})?$"}
"""An amount in euros to the cent: 2.5 or « 2,50 »."""
NAME = {"type": "string", "minLength": 1, "maxLength": L["name"]}
PRODUCT = needing(
    obj(name=NAME, price_eur=AMOUNT, stock={"type": "integer", "minimum": 0, "maximum": L["stock"]}),
    "name",
    "price_eur",
    "stock",
)
PRODUCTS = needing(
    obj(
        products={"type": "array", "items": PRODUCT, "minItems": 1, "maxItems": L["products"]},
        costs_eur=AMOUNT,
    ),
    "products",
)
LINE = needing(obj(product=NAME, qty={"type": "integer", "minimum": 1, "maximum": L["qty"]}), "product")
SALE = needing(
    obj(
        items={"type": "array", "items": LINE, "minItems": 1, "maxItems": L["lines"]},
        payment={"enum": list(BUVETTE_PAYMENTS)},
        tendered_eur=AMOUNT,
        print={"enum": list(BUVETTE_PRINTS)},
    ),
    "items",
    "payment",
)
CLOSE = obj(
    counted={
        "type": "object",
        "maxProperties": L["products"],
        "propertyNames": {"maxLength": L["name"]},
        "additionalProperties": {"type": "integer", "minimum": 0, "maximum": L["stock"]},
    }
)
TICKET = obj(ticket=INT, total_eur=NUM, change_eur=NUM, payment=STR, seq=INT)
Z = obj(
    z=INT,
    tickets={"type": "array", "items": INT},
    takings_eur=NUM,
    by_payment_eur={"type": "object", "additionalProperties": NUM},
    counted={
        "type": "array",
        "items": obj(
            product=STR, expected=INT, counted={"type": ["integer", "null"]}, difference={"type": ["integer", "null"]}
        ),
    },
    seq=INT,
)
STATE = obj(
    products={"type": "array", "items": obj(name=STR, price_eur=NUM, stock=INT, sold=INT)},
    next_ticket=INT,
    costs_eur=NUM,
)


def paths() -> dict:
    """The buvette's paths."""
    return {
        "/api/buvette": {
            "get": op(
                "La buvette : les produits et leur stock, le prochain ticket, les sommes depuis le dernier Z, les Z",
                "buvette",
                ok=STATE,
            )
        },
        "/api/buvette/products": {
            "post": op(
                "Les produits de la buvette, leurs prix et leur stock (compté maintenant), les achats de la buvette",
                "admin",
                PRODUCTS,
                STATE,
                "201",
                ("bad_products", "product_twice", "bad_name", "negative_price", "bad_amount", "bad_count"),
                area=B,
            )
        },
        "/api/buvette/sales": {
            "post": op(
                "Une vente à la buvette : un ticket numéroté (espèces avec le rendu, carte, offert)",
                "buvette",
                SALE,
                TICKET,
                "201",
                (
                    "bad_items",
                    "bad_name",
                    "bad_count",
                    "unknown_product",
                    "out_of_stock",
                    "bad_payment",
                    "bad_print",
                    "tendered_not_cash",
                    "short_tendered",
                    "bad_amount",
                    "negative_price",
                ),
                area=B,
            )
        },
        "/api/buvette/close": {
            "post": op(
                "Clôturer la buvette : le Z des tickets depuis le dernier, le stock compté contre le stock attendu",
                "buvette",
                CLOSE,
                Z,
                "201",
                ("bad_counted", "bad_count", "bad_name", "unknown_product"),
                area=B,
            )
        },
    }
