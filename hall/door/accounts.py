"""The evening's accounts beside the cartons', read from the journal's records: the tombola's
(``hall/tombola/account.py``) and the buvette's (``hall/buvette/account.py``), each when the hall had one. The report (``hall.money``) is handed them:
it sits below the tables that keep them."""

from __future__ import annotations

from collections.abc import Sequence

from hall.buvette import account as buvette
from hall.events import Record
from hall.money.accounts import Account
from hall.tombola import account as tombola


def other_accounts(records: Sequence[Record]) -> tuple[Account, ...]:
    """The tombola's and the buvette's accounts of the evening whose journal is ``records``; those it has."""
    ledger = buvette.replayed(records)
    found = (tombola.account(records), buvette.account(ledger) if ledger is not None else None)
    return tuple(a for a in found if a is not None)
