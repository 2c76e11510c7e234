"""One account of the evening's money, as the treasurer's report lays the accounts side by side.

Each table the association keeps on the evening (the cartons, the tombola, the buvette) gives one
``Account``: its ``rubrique`` (the CSV's ``rubrique`` column: ``cartons``, ``tombola``, ``buvette``), its
takings by payment in cents (``{"cash": 12000, "card": 3000}``) and its costs in cents. The balance is
the takings less the costs. ``hall/tombola/account.py`` and ``hall/buvette/account.py`` each give one. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Account:
    rubrique: str
    takings_cents: dict[str, int]
    costs_cents: int
    unclaimed: tuple[
        tuple[int, str, int], ...
    ] = ()  # the tombola's lots drawn, not handed over: (lot n°, label, ticket)
    collect_until: str = ""  # the tombola's deadline to collect its lots (YYYY-MM-DD)

    @property
    def balance_cents(self) -> int:
        return sum(self.takings_cents.values()) - self.costs_cents
