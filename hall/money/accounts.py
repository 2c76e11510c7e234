"""One account of the evening's money, as the treasurer's report lays the accounts side by side.

Each table the association keeps on the evening (the cartons, the tombola, the buvette) gives one
``Account``: its ``rubrique`` (the CSV's ``rubrique`` column: ``cartons``, ``tombola``, ``buvette``), its
takings by payment in cents (``{"cash": 12000, "card": 3000}``) and its costs in cents. The balance is
the takings less the costs. ``hall/tombola/account.py`` and ``hall/buvette/account.py`` each give one. An account
whose goods are counted at the close (the buvette) also carries each count against the stock expected
(``StockGap``): outside the balance, in the report beside it. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StockGap:
    """A product counted at a close (Z n° ``z``): the units ``expected`` from the sales, the units ``counted``, and
    the gap valued at the product's price (``cents``: negative when units are missing)."""

    z: int
    product: str
    expected: int
    counted: int
    cents: int

    @property
    def units(self) -> int:
        return self.counted - self.expected

    @property
    def detail(self) -> str:
        """« Z 1 · Bière : 6 → 5 (-1) »: the close, the product, the units expected then counted, the gap (any
        language reads it)."""
        return f"Z {self.z} · {self.product} : {self.expected} → {self.counted} ({self.units:+d})"


@dataclass(frozen=True)
class Account:
    rubrique: str
    takings_cents: dict[str, int]
    costs_cents: int
    stock_gaps: tuple[StockGap, ...] = ()

    @property
    def balance_cents(self) -> int:
        return sum(self.takings_cents.values()) - self.costs_cents
