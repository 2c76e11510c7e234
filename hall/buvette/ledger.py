"""The evening's buvette, rebuilt from the journal: the products and their stock, the tickets, the Z totals, the
receipts and the Z's owed to the printer. Changed only by :meth:`Ledger.apply` (the hall's state calls it for each durable
record of the buvette), read by the buvette's desk under the hall's lock."""

from __future__ import annotations

from dataclasses import dataclass, field

from hall.buvette.rules import sums
from hall.events import EventHandlers
from hall.events.buvette import BuvetteClosed, BuvettePrinted, BuvetteProductsSet, BuvetteSold, BuvetteZPrinted

_APPLY = EventHandlers[None]()


@dataclass
class Stock:
    """A product of the evening: its price now, what came in (each count set, each count at a close) and went out."""

    name: str
    cents: int
    received: int = 0
    sold: int = 0
    on_sale: bool = True

    @property
    def left(self) -> int:
        return self.received - self.sold


@dataclass
class Ledger:
    """The buvette as the journal says: ``products`` by name (in the admin's order), tickets by number."""

    products: dict[str, Stock] = field(default_factory=dict)
    tickets: dict[int, BuvetteSold] = field(default_factory=dict)
    closes: list[BuvetteClosed] = field(default_factory=list)
    unprinted: dict[int, BuvetteSold] = field(default_factory=dict)
    unprinted_z: dict[int, BuvetteClosed] = field(default_factory=dict)  # the Z's owed to the printer, by number
    costs_cents: int = 0
    first_open: int = 1  # the first ticket the next Z covers (the one after the last Z's)

    @property
    def next_ticket(self) -> int:
        return max(self.tickets, default=0) + 1

    def open_tickets(self) -> list[BuvetteSold]:
        """The tickets since the last Z, in order."""
        return [t for n, t in sorted(self.tickets.items()) if n >= self.first_open]

    def stock(self, name: str) -> Stock | None:
        """The product of ``name`` (as typed, any case), if the buvette has it on sale."""
        found = self.products.get(name) or next(
            (s for s in self.products.values() if s.name.casefold() == name.casefold()), None
        )
        return found if found is not None and found.on_sale else None

    def apply(self, event: object) -> None:
        _APPLY.dispatch(getattr(event, "type", ""), self, event)

    @_APPLY.on(BuvetteProductsSet)
    def _products(self, event: BuvetteProductsSet) -> None:
        for kept in self.products.values():
            kept.on_sale = False
        order = {}
        for p in event.products:
            had = self.products.get(p.name) or Stock(p.name, p.cents)
            had.cents, had.on_sale = p.cents, True
            had.received = had.sold + p.stock  # the count on hand now
            order[p.name] = had
        self.products = {**order, **{n: s for n, s in self.products.items() if n not in order}}
        self.costs_cents = event.costs_cents

    @_APPLY.on(BuvetteSold)
    def _sold(self, event: BuvetteSold) -> None:
        self.tickets[event.ticket] = event
        for line in event.items:
            self.products[line.product].sold += line.qty
        if event.printed_as:
            self.unprinted[event.ticket] = event

    @_APPLY.on(BuvettePrinted)
    def _printed(self, event: BuvettePrinted) -> None:
        self.unprinted.pop(event.ticket, None)

    @_APPLY.on(BuvetteClosed)
    def _closed(self, event: BuvetteClosed) -> None:
        self.closes.append(event)
        self.unprinted_z[event.z] = event
        self.first_open = max(self.first_open, event.last_ticket + 1)
        for name, expected, counted in event.counted:
            if counted is not None and name in self.products:
                self.products[name].received += counted - expected  # the count stands: what was lost is lost

    @_APPLY.on(BuvetteZPrinted)
    def _z_printed(self, event: BuvetteZPrinted) -> None:
        self.unprinted_z.pop(event.z, None)

    def z_sums(self) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
        """Cents by payment and (units, cents) by product of the tickets since the last Z."""
        return sums(
            [
                (line.product, line.qty, line.qty * line.cents, t.payment)
                for t in self.open_tickets()
                for line in t.items
            ]
        )

    def evening_sums(self) -> tuple[dict[str, int], dict[str, tuple[int, int]]]:
        """The same over every ticket of the evening."""
        return sums(
            [
                (line.product, line.qty, line.qty * line.cents, t.payment)
                for t in self.tickets.values()
                for line in t.items
            ]
        )


@dataclass(frozen=True, slots=True)
class ProductLine:
    """A product as the till shows it: price, units left, units sold tonight."""

    name: str
    cents: int
    left: int
    sold: int


@dataclass(frozen=True, slots=True)
class BuvettePicture:
    """The buvette now, an immutable picture for the pages: the products on sale, the next ticket's number, the
    sums since the last Z, the latest tickets (newest first) and every Z of the evening."""

    products: tuple[ProductLine, ...]
    next_ticket: int
    first_open: int
    open_by_payment: tuple[tuple[str, int], ...]
    open_by_product: tuple[tuple[str, int, int], ...]
    recent: tuple[BuvetteSold, ...]
    closes: tuple[BuvetteClosed, ...]
    costs_cents: int


RECENT = 12


def picture(ledger: Ledger) -> BuvettePicture:
    """The ledger's picture (values only: the ledger stays the hall's)."""
    by_payment, by_product = ledger.z_sums()
    return BuvettePicture(
        tuple(ProductLine(s.name, s.cents, s.left, s.sold) for s in ledger.products.values() if s.on_sale),
        ledger.next_ticket,
        ledger.first_open,
        tuple(by_payment.items()),
        tuple((name, units, cents) for name, (units, cents) in by_product.items()),
        tuple(t for _, t in sorted(ledger.tickets.items(), reverse=True)[:RECENT]),
        tuple(ledger.closes),
        ledger.costs_cents,
    )
