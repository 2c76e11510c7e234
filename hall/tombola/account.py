"""The tombola's account in the treasurer's report: its takings by payment (the tickets sold), its
costs (the organisation's, and the lots the association bought: a donated lot costs nothing), its balance, and the
lots drawn but not handed over yet (listed in the report with the deadline to collect them).
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
    unclaimed = tuple(
        (w.lot_index + 1, t.prepared.tombola_lots[w.lot_index].label, w.ticket)
        for w in t.wins
        if w.lot_index not in t.collected
    )
    return Account(
        RUBRIQUE,
        takings,
        cost_check(t.prepared).spent_cents,
        unclaimed=unclaimed,
        collect_until=t.prepared.collect_until,
    )
