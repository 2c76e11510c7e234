"""The tombola's state, replayed from the journal's ``tombola:*`` records: what was prepared, each sale and the
ticket numbers it holds, whether the sales are closed, who conducts the draw, each lot's winning ticket and
whether it was handed over. Changed only by ``apply(record)`` (the hall's one writer calls it). Pure."""

from __future__ import annotations

from dataclasses import dataclass, field

from hall.events import (
    EventHandlers,
    Record,
    TombolaCollected,
    TombolaDrawn,
    TombolaDrawOpened,
    TombolaListPrinted,
    TombolaListRequested,
    TombolaPrepared,
    TombolaPrinted,
    TombolaSalesClosed,
    TombolaSold,
)
from hall.events.tombola import TOMBOLA_EVENTS
from hall.tombola.rules import CostCheck

TYPES = frozenset(e.type for e in TOMBOLA_EVENTS)


@dataclass(frozen=True, slots=True)
class Win:
    """Lot ``lot_index`` won by ``ticket`` (its buyer's name from the stub), drawn ``source`` at ``at``."""

    lot_index: int
    ticket: int
    buyer: str
    source: str
    at: str


@dataclass
class Tombola:
    """One evening's tombola."""

    prepared: TombolaPrepared | None = None
    sales: dict[int, tuple[TombolaSold, str]] = field(default_factory=dict)  # sale id → (sale, when)
    holder: dict[int, int] = field(default_factory=dict)  # ticket number → sale id
    closed: bool = False
    conductors: TombolaDrawOpened | None = None
    wins: list[Win] = field(default_factory=list)
    collected: dict[int, str] = field(default_factory=dict)  # lot index → when handed over
    unprinted: dict[int, TombolaSold] = field(default_factory=dict)  # sale id → its tickets the printer owes
    list_owed: bool = False  # the winners' list asked for on paper and not printed yet

    def apply(self, record: Record) -> None:
        """Move on by one durable ``tombola:*`` record (any other is not the tombola's)."""
        _APPLY.dispatch(record.type, self, record)

    @property
    def next_lot(self) -> int | None:
        """The index of the next lot to draw, or ``None`` when every lot is drawn (or nothing is prepared)."""
        if self.prepared is None or len(self.wins) >= len(self.prepared.tombola_lots):
            return None
        return len(self.wins)

    def sold(self) -> list[int]:
        """The sold tickets, in ascending order."""
        return sorted(self.holder)

    def winners(self) -> set[int]:
        return {w.ticket for w in self.wins}

    def buyer_of(self, ticket: int) -> str:
        sale = self.holder.get(ticket)
        return "" if sale is None else self.sales[sale][0].buyer

    def next_sale_id(self) -> int:
        return max(self.sales, default=0) + 1


@dataclass(frozen=True, slots=True)
class TombolaPicture:
    """The tombola as readers see it: what was prepared, the 15 % check, what is sold, the draw and its winners."""

    prepared: TombolaPrepared | None
    check: CostCheck | None
    warnings: tuple[str, ...]
    sold: tuple[int, ...]
    sales: tuple[TombolaSold, ...]
    closed: bool
    president: str
    witnesses: tuple[str, ...]
    wins: tuple[Win, ...]
    collected: tuple[int, ...]
    next_lot: int | None


_APPLY = EventHandlers[None]()


@_APPLY.on(TombolaPrepared)
def _prepared(t: Tombola, record: Record) -> None:
    t.prepared = record.event


@_APPLY.on(TombolaSold)
def _sold(t: Tombola, record: Record) -> None:
    e = record.event
    t.sales[e.sale_id] = (e, record.at)
    for n in e.numbers:
        t.holder[n] = e.sale_id
    t.unprinted[e.sale_id] = e


@_APPLY.on(TombolaListRequested)
def _list_asked(t: Tombola, record: Record) -> None:
    t.list_owed = True


@_APPLY.on(TombolaListPrinted)
def _list_printed(t: Tombola, record: Record) -> None:
    t.list_owed = False


@_APPLY.on(TombolaPrinted)
def _printed(t: Tombola, record: Record) -> None:
    t.unprinted.pop(record.event.sale_id, None)


@_APPLY.on(TombolaSalesClosed)
def _closed(t: Tombola, record: Record) -> None:
    t.closed = True


@_APPLY.on(TombolaDrawOpened)
def _opened(t: Tombola, record: Record) -> None:
    t.conductors = record.event


@_APPLY.on(TombolaDrawn)
def _drawn(t: Tombola, record: Record) -> None:
    e = record.event
    t.wins.append(Win(e.lot_index, e.ticket, t.buyer_of(e.ticket), e.source, record.at))


@_APPLY.on(TombolaCollected)
def _collected(t: Tombola, record: Record) -> None:
    t.collected[record.event.lot_index] = record.at


def replayed(records: object) -> Tombola:
    """The tombola of a journal's records."""
    t = Tombola()
    for record in records:  # type: ignore[attr-defined]
        t.apply(record)
    return t
