"""The buvette's events (RULES L25): the products with their prices and stock set on /admin, each sale a numbered
ticket, its receipt printed, the Z total at the close with the stock counted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class BuvetteProduct:
    """One product of the buvette: its name, its price in cents, the count on hand when it was set."""

    name: str
    cents: int
    stock: int


@dataclass(frozen=True, slots=True)
class BuvetteProductsSet:
    """The buvette's products set on /admin: the list replaces the last, each stock is the count on hand now;
    ``costs_cents`` is what the buvette's goods cost the association (its account's costs)."""

    type: ClassVar[str] = "buvette:products_set"
    products: tuple[BuvetteProduct, ...]
    costs_cents: int = 0


@dataclass(frozen=True, slots=True)
class BuvetteLine:
    """A line of a buvette ticket: ``qty`` of ``product`` at ``cents`` each (the price at the sale)."""

    product: str
    qty: int
    cents: int


@dataclass(frozen=True, slots=True)
class BuvetteSold:
    """A sale at the buvette, ticket ``ticket`` (1, 2, … for the evening); ``free`` is given to volunteers
    (``total_cents`` is then its value, taken in by nobody)."""

    type: ClassVar[str] = "buvette:sale_recorded"
    ticket: int
    items: tuple[BuvetteLine, ...]
    total_cents: int
    payment: str  # cash, card, free
    tendered_cents: int | None = None  # the cash handed over, when the till worked out the change
    change_cents: int = 0
    printed_as: str = ""  # "" (not printed), "receipt" or "tokens" (one drink token per unit)
    seller: str = ""  # the name typed at the buvette's login
    session: str = ""  # the logged-in console's session (a short reference)


@dataclass(frozen=True, slots=True)
class BuvettePrinted:
    """The printer took ticket ``ticket``'s receipt (or its drink tokens)."""

    type: ClassVar[str] = "buvette:printed"
    ticket: int


@dataclass(frozen=True, slots=True)
class BuvetteClosed:
    """The Z total at the close: tickets ``first_ticket``..``last_ticket`` (none: 0, 0) since the last Z, the sums by
    payment and by product as they stood, the stock counted against the stock expected."""

    type: ClassVar[str] = "buvette:closed"
    z: int
    first_ticket: int
    last_ticket: int
    by_payment: tuple[tuple[str, int], ...]  # (cash|card|free, cents)
    by_product: tuple[tuple[str, int, int], ...]  # (product, units, cents)
    counted: tuple[tuple[str, int, int | None], ...] = ()  # (product, expected, counted or None: not counted)


@dataclass(frozen=True, slots=True)
class BuvetteZPrinted:
    """The printer took the Z total n° ``z`` (every Z closed prints once; the printer away, it waits)."""

    type: ClassVar[str] = "buvette:z_printed"
    z: int
