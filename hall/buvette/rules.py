"""The buvette's rules, pure: what a product list and a sale may hold, each refusal named (area ``buvette``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation

from hall.events.buvette import BuvetteProduct
from hall.refusal import Rejected

PAYMENTS = ("cash", "card", "free")  # free: given to a volunteer (its value kept, taken in by nobody)
TAKEN_IN = ("cash", "card")  # the payments that are takings
PRINTS = ("", "receipt", "tokens")
MAX_PRODUCTS = 40
MAX_NAME = 30
MAX_PRICE_CENTS = 100_00  # 100 € a unit: a buvette's dearest is a bottle
MAX_STOCK = 10_000
MAX_LINES = 20  # lines of one ticket
MAX_QTY = 50  # units of one line
MAX_TENDERED_CENTS = 500_00
MAX_COSTS_CENTS = 100_000_00
LIMITS = {
    "products": MAX_PRODUCTS,
    "name": MAX_NAME,
    "stock": MAX_STOCK,
    "lines": MAX_LINES,
    "qty": MAX_QTY,
}
"""The bounds above as the API's document states them (``display/openapi/buvette.py``)."""


def cents_of(value: object, *, field: str, limit: int) -> int:
    """Cents of an amount in euros (a JSON number or ``"2,50"``): ``negative_price`` below zero, ``bad_amount``
    when it is not an amount to the cent or above ``limit``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)) or len(str(value)) > 20:
        raise Rejected("buvette/bad_amount", field=field)
    try:
        amount = Decimal(str(value).strip().replace(",", ".").removesuffix("€").strip())
    except InvalidOperation:
        raise Rejected("buvette/bad_amount", field=field) from None
    if not amount.is_finite():
        raise Rejected("buvette/bad_amount", field=field)
    if amount < 0:
        raise Rejected("buvette/negative_price", field=field)
    cents = amount * 100
    if cents != cents.to_integral_value() or cents > limit:
        raise Rejected("buvette/bad_amount", field=field)
    return int(cents)


def count_of(value: object, *, field: str, low: int, high: int) -> int:
    """A whole count from ``low`` to ``high`` (a JSON integer): ``bad_count`` naming ``field`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Rejected("buvette/bad_count", field=field, low=low, high=high)
    return value


def product_name(value: object) -> str:
    """A product's name as kept: one printable line, 1 to ``MAX_NAME`` characters."""
    if not isinstance(value, str):
        raise Rejected("buvette/bad_name", max=MAX_NAME)
    name = " ".join("".join(ch for ch in value[: 4 * MAX_NAME] if ch.isprintable()).split())
    if not name or len(name) > MAX_NAME or len(value) > 4 * MAX_NAME:
        raise Rejected("buvette/bad_name", max=MAX_NAME)
    return name


def read_products(raw: object) -> tuple[BuvetteProduct, ...]:
    """``[{"name", "price_eur", "stock"}…]`` as products, each name once; refused whole otherwise."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_PRODUCTS:
        raise Rejected("buvette/bad_products", max=MAX_PRODUCTS)
    products = []
    for item in raw:
        if not isinstance(item, Mapping) or set(item) - {"name", "price_eur", "stock"}:
            raise Rejected("buvette/bad_products", max=MAX_PRODUCTS)
        name = product_name(item.get("name"))
        cents = cents_of(item.get("price_eur"), field=f"price_eur ({name})", limit=MAX_PRICE_CENTS)
        stock = count_of(item.get("stock"), field=f"stock ({name})", low=0, high=MAX_STOCK)
        products.append(BuvetteProduct(name, cents, stock))
    names = [p.name.casefold() for p in products]
    twice = sorted({p.name for p in products if names.count(p.name.casefold()) > 1})
    if twice:
        raise Rejected("buvette/product_twice", product=twice[0])
    return tuple(products)


def read_items(raw: object) -> tuple[tuple[str, int], ...]:
    """``[{"product", "qty"}…]`` as (name, units), one product's lines added together; bounded before any work."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_LINES:
        raise Rejected("buvette/bad_items", max=MAX_LINES)
    units: dict[str, int] = {}
    for item in raw:
        if not isinstance(item, Mapping) or set(item) - {"product", "qty"}:
            raise Rejected("buvette/bad_items", max=MAX_LINES)
        name = product_name(item.get("product"))
        qty = count_of(item.get("qty", 1), field=f"qty ({name})", low=1, high=MAX_QTY)
        units[name] = units.get(name, 0) + qty
        if units[name] > MAX_QTY:
            raise Rejected("buvette/bad_count", field=f"qty ({name})", low=1, high=MAX_QTY)
    return tuple(units.items())


def change_for(payment: str, total_cents: int, tendered: object) -> tuple[int | None, int]:
    """(the cash tendered, the change) of a sale: only cash has change; ``short_tendered`` when it does not cover
    the total."""
    if payment not in PAYMENTS:
        raise Rejected("buvette/bad_payment", payment=str(payment)[:20])
    if tendered in (None, ""):
        return None, 0
    if payment != "cash":
        raise Rejected("buvette/tendered_not_cash")
    cents = cents_of(tendered, field="tendered_eur", limit=MAX_TENDERED_CENTS)
    if cents < total_cents:
        raise Rejected("buvette/short_tendered", tendered=cents, total=total_cents)
    return cents, cents - total_cents


def sums(lines: Sequence[tuple[str, int, int, str]]) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
    """From (product, units, cents, payment) lines: cents by payment (every payment named), and by product
    (units, cents) in the order they first came."""
    by_payment = dict.fromkeys(PAYMENTS, 0)
    by_product: dict[str, tuple[int, int]] = {}
    for product, units, cents, payment in lines:
        by_payment[payment] += cents
        had = by_product.get(product, (0, 0))
        by_product[product] = (had[0] + units, had[1] + cents)
    return by_payment, by_product
