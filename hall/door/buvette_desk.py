"""The buvette's desk of the hall (RULES L25): the products set on /admin, each sale a numbered ticket, the Z at the
close, the receipts and the Z's owed to the printer. Its commands run under the writer's lock and commit through it; what a
list or a sale may hold is ``hall/buvette/rules.py``'s, the ledger is the state's (``HallState.buvette``)."""

from __future__ import annotations

from collections.abc import Mapping

from hall.buvette import rules
from hall.buvette.account import account
from hall.buvette.ledger import BuvettePicture, picture
from hall.door.state import HallState
from hall.door.writer import Writer, locked
from hall.events import (
    BuvetteClosed,
    BuvetteLine,
    BuvettePrinted,
    BuvetteProductsSet,
    BuvetteSold,
    BuvetteZPrinted,
    Record,
)
from hall.money.accounts import Account
from hall.refusal import Rejected
from hall.rights import require


class BuvetteDesk:
    """The buvette's till of one hall."""

    def __init__(self, writer: Writer, state: HallState):
        self._writer = writer
        self._state = state

    @locked
    def set_products(self, products: object, costs: object = 0, *, role: str) -> Record:
        """Replace the products (``[{"name", "price_eur", "stock"}…]``, each stock the count on hand now) and the
        cost of the goods in euros; refused whole: ``negative_price``, ``bad_products``, ``product_twice``…"""
        require(role, "buvette_products")
        read = rules.read_products(products)
        costs_cents = rules.cents_of(costs or 0, field="costs_eur", limit=rules.MAX_COSTS_CENTS)
        return self._writer.commit(BuvetteProductsSet(read, costs_cents), role)

    def _lines(self, items: object) -> tuple[BuvetteLine, ...]:
        """The ticket's lines at today's prices: ``unknown_product``, ``out_of_stock`` naming the product."""
        lines = []
        for name, qty in rules.read_items(items):
            stock = self._state.buvette.stock(name)
            if stock is None:
                raise Rejected("buvette/unknown_product", product=name)
            if qty > stock.left:
                raise Rejected("buvette/out_of_stock", product=stock.name, left=stock.left, asked=qty)
            lines.append(BuvetteLine(stock.name, qty, stock.cents))
        return tuple(lines)

    @locked
    def buvette_sell(
        self,
        items: object,
        payment: object,
        tendered: object = None,
        printed_as: object = "",
        *,
        role: str,
        seller: str = "",
        session: str = "",
    ) -> Record:
        """Record a sale at the buvette, ticket n: ``bad_payment``, ``out_of_stock``, ``short_tendered``… refuse it
        whole; cash tendered gives the change; ``printed_as`` (``receipt``, ``tokens``) puts it in the print queue."""
        require(role, "buvette_sell")
        if not isinstance(payment, str) or payment not in rules.PAYMENTS:
            raise Rejected("buvette/bad_payment", payment=str(payment)[:20])
        if not isinstance(printed_as, str) or printed_as not in rules.PRINTS:
            raise Rejected("buvette/bad_print", print=str(printed_as)[:20])
        lines = self._lines(items)
        total = sum(line.qty * line.cents for line in lines)
        given, change = rules.change_for(payment, total, tendered)
        event = BuvetteSold(
            self._state.buvette.next_ticket,
            lines,
            total,
            payment,
            given,
            change,
            printed_as,
            str(seller)[: rules.MAX_NAME * 2],
            str(session)[:40],
        )
        return self._writer.commit(event, role)

    @locked
    def buvette_close(self, counted: object = None, *, role: str) -> Record:
        """The Z total of the tickets since the last Z, with the stock counted (``{"product": units}``, any
        products) against the stock expected; the count stands as the stock from then on."""
        require(role, "buvette_close")
        ledger = self._state.buvette
        counts = self._counts(counted)
        open_tickets = ledger.open_tickets()
        by_payment, by_product = ledger.z_sums()
        event = BuvetteClosed(
            len(ledger.closes) + 1,
            open_tickets[0].ticket if open_tickets else 0,
            open_tickets[-1].ticket if open_tickets else 0,
            tuple(by_payment.items()),
            tuple((name, units, cents) for name, (units, cents) in by_product.items()),
            tuple((s.name, s.left, counts.get(s.name)) for s in ledger.products.values() if s.on_sale),
        )
        return self._writer.commit(event, role)

    def _counts(self, counted: object) -> dict[str, int]:
        """``{"product": units}`` as counted at the close, each a product on sale: ``bad_count``, ``unknown_product``."""
        if counted in (None, {}):
            return {}
        if not isinstance(counted, Mapping) or len(counted) > rules.MAX_PRODUCTS:
            raise Rejected("buvette/bad_counted", max=rules.MAX_PRODUCTS)
        counts = {}
        for name, units in counted.items():
            stock = self._state.buvette.stock(rules.product_name(name))
            if stock is None:
                raise Rejected("buvette/unknown_product", product=str(name)[: rules.MAX_NAME])
            counts[stock.name] = rules.count_of(units, field=f"counted ({stock.name})", low=0, high=rules.MAX_STOCK)
        return counts

    @locked
    def buvette_printed(self, ticket: int, *, role: str) -> Record:
        """Record that the printer took ticket ``ticket``'s receipt (or tokens)."""
        require(role, "buvette_printed")
        if ticket not in self._state.buvette.unprinted:
            raise Rejected("not_found")
        return self._writer.commit(BuvettePrinted(ticket), role)

    @locked
    def buvette_to_print(self) -> tuple[BuvetteSold, ...]:
        """The buvette's receipts owed to the printer, oldest first."""
        return tuple(t for _, t in sorted(self._state.buvette.unprinted.items()))

    @locked
    def buvette_z_printed(self, z: int, *, role: str) -> Record:
        """Record that the printer took the Z total n° ``z``."""
        require(role, "buvette_printed")
        if z not in self._state.buvette.unprinted_z:
            raise Rejected("not_found")
        return self._writer.commit(BuvetteZPrinted(z), role)

    @locked
    def buvette_z_to_print(self) -> tuple[BuvetteClosed, ...]:
        """The buvette's Z totals owed to the printer, oldest first (each close prints its Z once)."""
        return tuple(z for _, z in sorted(self._state.buvette.unprinted_z.items()))

    @locked
    def buvette(self) -> BuvettePicture:
        """The buvette now: products, the next ticket, the sums since the last Z, the latest tickets, the Z's."""
        return picture(self._state.buvette)

    @locked
    def buvette_account(self) -> Account:
        """The buvette's account for the treasurer's report."""
        return account(self._state.buvette)
