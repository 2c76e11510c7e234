"""The buvette's account in the treasurer's report: its takings by payment (cash, card; what
was given free is no takings), the cost of its goods, its balance, the stock counted at each close against the stock
expected (the gap valued at the product's price); and its rows of the report's CSV under the rubrique ``buvette``."""

from __future__ import annotations

from collections.abc import Iterable

from hall.buvette.ledger import Ledger
from hall.buvette.rules import PAYMENTS, TAKEN_IN
from hall.events import Record
from hall.events.buvette import BuvetteClosed, BuvettePrinted, BuvetteProductsSet, BuvetteSold, BuvetteZPrinted
from hall.money.accounts import Account, StockGap

RUBRIQUE = "buvette"


AS_THE_REPORT_SAYS = {"cash": "especes", "card": "carte"}
"""The till's payments as the report names every account's (the cartons' and the tombola's: ``especes``,
``carte``): the accounts side by side read one word for cash."""


def stock_gaps(ledger: Ledger) -> tuple[StockGap, ...]:
    """Every product counted at a close, its count against the stock expected, the gap at the product's price."""
    price = {name: s.cents for name, s in ledger.products.items()}
    return tuple(
        StockGap(z.z, name, expected, counted, (counted - expected) * price.get(name, 0))
        for z in ledger.closes
        for name, expected, counted in z.counted
        if counted is not None
    )


def account(ledger: Ledger) -> Account:
    """The buvette's account over every ticket of the evening, its takings by the report's payment words, the
    stock counted at its closes."""
    by_payment, _ = ledger.evening_sums()
    takings = {AS_THE_REPORT_SAYS[p]: by_payment[p] for p in TAKEN_IN}
    return Account(RUBRIQUE, takings, ledger.costs_cents, stock_gaps(ledger))


_KINDS = frozenset(e.type for e in (BuvetteProductsSet, BuvetteSold, BuvettePrinted, BuvetteClosed, BuvetteZPrinted))


def replayed(records: Iterable[Record]) -> Ledger | None:
    """The buvette's ledger of the evening whose journal is ``records``; ``None`` when the hall had no buvette."""
    ledger, kept = Ledger(), False
    for record in records:
        if record.type in _KINDS:
            ledger.apply(record.event)
            kept = True
    return ledger if kept else None


def csv_rows(ledger: Ledger) -> list[tuple[str, str, str, int]]:
    """The report's CSV rows of the buvette, (rubrique, what, detail, cents): the takings by payment, the value
    given free, each product's units and cents, the costs, the balance, each count's gap at the close."""
    by_payment, by_product = ledger.evening_sums()
    acc = account(ledger)
    rows = [(RUBRIQUE, "recette", p, by_payment[p]) for p in PAYMENTS if p in TAKEN_IN]
    rows.append((RUBRIQUE, "offert", "free", by_payment["free"]))
    rows += [(RUBRIQUE, "produit", f"{name} × {units}", cents) for name, (units, cents) in by_product.items()]
    rows.append((RUBRIQUE, "charges", "", acc.costs_cents))
    rows.append((RUBRIQUE, "solde", "", acc.balance_cents))
    rows += [(RUBRIQUE, "ecart_stock", g.detail, g.cents) for g in acc.stock_gaps]
    return rows
