"""The evening's accounts beside the cartons', read from the journal's records: the tombola's
(``hall/tombola/account.py``) and the buvette's (``hall/buvette/account.py``), each when the hall had one. The
report (``hall.money``) is handed them: it sits below the tables that keep them. ``accounts_now``: the three as the hall's state holds them, as the board's
copy prints them (the cartons' first, costed as the report costs them: the lots given that the association bought)."""

from __future__ import annotations

from collections.abc import Sequence

from hall.buvette import account as buvette
from hall.buvette.ledger import Ledger
from hall.cartons.sales import PAYMENTS
from hall.events import Record, TicketAccount
from hall.loto.partie import Evening
from hall.money.accounts import Account
from hall.money.papers_accounts import CARTONS
from hall.money.takings import takings_of
from hall.tombola import account as tombola
from hall.tombola.model import Tombola


def other_accounts(records: Sequence[Record]) -> tuple[Account, ...]:
    """The tombola's and the buvette's accounts of the evening whose journal is ``records``; those it has."""
    ledger = buvette.replayed(records)
    found = (tombola.account(records), buvette.account(ledger) if ledger is not None else None)
    return tuple(a for a in found if a is not None)


def _kept(ledger: Ledger) -> bool:
    """Whether the hall kept a buvette tonight (a product, a ticket, a Z or a cost in its ledger)."""
    return bool(ledger.products or ledger.tickets or ledger.closes or ledger.costs_cents)


def accounts_now(evening: Evening, raffle: Tombola, ledger: Ledger) -> tuple[TicketAccount, ...]:
    """The evening's accounts as they stand, the cartons' first, then the tombola's and the buvette's if kept."""
    t = takings_of(evening, ())
    found: list[Account | None] = [
        Account(CARTONS, dict(t.totals["by_payment"]), t.bought_cents),
        tombola.account_of(raffle),
        buvette.account(ledger) if _kept(ledger) else None,
    ]
    return tuple(TicketAccount(a.rubrique, _in_order(a.takings_cents), a.costs_cents) for a in found if a is not None)


def _in_order(takings: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """The takings by means of payment in the caisse's order (cash, card, cheque), any other after, by name."""
    rank = {p: i for i, p in enumerate(PAYMENTS)}
    return tuple(sorted(takings.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])))
