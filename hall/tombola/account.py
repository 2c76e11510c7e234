"""The tombola's account in the treasurer's report: its takings by payment (the tickets sold), its
costs (the organisation's, and the lots the association bought: a donated lot costs nothing), its balance.
``account(records)`` reads the journal's records, ``account_of`` a tombola as it stands; ``None`` when no tombola
was prepared tonight. Pure."""

from __future__ import annotations

from collections.abc import Iterable

from hall.events import Record
from hall.money.accounts import Account
from hall.tombola.model import Tombola, replayed
from hall.tombola.rules import cost_check

RUBRIQUE = "tombola"


def account(records: Iterable[Record]) -> Account | None:
    """The tombola's account of the evening whose journal is ``records``."""
    return account_of(replayed(records))


def account_of(t: Tombola) -> Account | None:
    """The account of the tombola ``t`` as it stands (``None``: none prepared)."""
    if t.prepared is None:
        return None
    takings: dict[str, int] = {}
    for sale, _ in t.sales.values():
        takings[sale.payment] = takings.get(sale.payment, 0) + sale.cents
    return Account(RUBRIQUE, takings, cost_check(t.prepared).spent_cents)
