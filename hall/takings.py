"""The evening's money, as the treasurer hands it to the board and the tax office: every sale with the price the
tiers offered and who sold it, the lots played with their declared values and donors, the balance, and what
was changed outside the caisse and the programme (lots changed on the spot, cartons marked sold by hand).

Pure, stdlib only: the replayed ``Evening`` and the journal's records in, frozen values out (``takings_of``).
Amounts are integer cents.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from hall.events import CardsSold, EventHandlers, LotSpec, PartieStarted, Record, SaleRecorded, SaleVoided
from hall.lots_played import lot_changes
from hall.partie import AWARDED, Evening
from hall.sales import totals as sales_totals


@dataclass(frozen=True, slots=True)
class SaleLine:
    sale_id: int
    at: str
    cards: tuple[str, ...]
    cents: int
    payment: str
    paid: bool
    buyer: str
    seller: str
    partie: int | None
    voided: bool
    voided_at: str = ""
    offered_cents: int | None = None          # the tiers' price when it was sold (NO_TIER: none; None: not kept)
    role: str = ""
    session: str = ""

    @property
    def price_differs(self) -> bool:
        """Whether the desk charged another amount than the tiers offered (a journal older than the offer: no)."""
        return self.offered_cents is not None and self.offered_cents != self.cents


@dataclass(frozen=True, slots=True)
class LotValueLine:
    partie: int
    lot: int
    kind: str
    label: str
    cents: int | None                         # declared value; None when not declared
    sponsor: str                              # a lot given by a sponsor costs the association nothing
    awarded: bool


@dataclass(frozen=True, slots=True)
class LotChangeLine:
    """A lot of the programme played otherwise, by whom (role and login session) and when."""

    partie: int
    at: str
    role: str
    session: str
    planned: LotSpec | None                   # None: a lot added on the spot
    played: LotSpec | None                    # None: a programme lot left out


@dataclass(frozen=True, slots=True)
class HandMark:
    """Cartons marked sold or unsold by hand (``/api/cards/sold``), outside the caisse."""

    at: str
    role: str
    session: str
    sold: bool
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Takings:
    sales: tuple[SaleLine, ...]
    lots: tuple[LotValueLine, ...]
    totals: dict                              # hall.sales.totals() of the live sales: cents by payment, seller…
    declared_cents: int                       # every lot played tonight with a declared value
    donated_cents: int                        # of which given by sponsors
    undeclared_lots: int
    changes: tuple[LotChangeLine, ...] = ()
    marks: tuple[HandMark, ...] = ()

    @property
    def receipts_cents(self) -> int:
        return self.totals["total_cents"]

    @property
    def bought_cents(self) -> int:
        return self.declared_cents - self.donated_cents

    @property
    def balance_cents(self) -> int:
        """Receipts less the lots the association paid for (declared value of the lots without a sponsor)."""
        return self.receipts_cents - self.bought_cents

    @property
    def price_differs(self) -> tuple[SaleLine, ...]:
        """The sales not voided whose amount is not the tiers' price (a discount, a carton given, a typing slip)."""
        return tuple(s for s in self.sales if not s.voided and s.price_differs)


def _cents(value_eur: float | None) -> int | None:
    return None if value_eur is None else round(value_eur * 100)


@dataclass
class _MoneyReading:
    """What only the journal says of the money: when each sale was rung up or voided, lots changed, hand marks."""

    sold_at: dict[int, str] = field(default_factory=dict)
    voided_at: dict[int, str] = field(default_factory=dict)
    changes: list[LotChangeLine] = field(default_factory=list)
    marks: list[HandMark] = field(default_factory=list)


_READ = EventHandlers[None]()


@_READ.on(SaleRecorded)
def _sold(r: _MoneyReading, record: Record) -> None:
    r.sold_at[record.event.sale_id] = record.at


@_READ.on(SaleVoided)
def _voided(r: _MoneyReading, record: Record) -> None:
    r.voided_at[record.event.sale_id] = record.at


@_READ.on(PartieStarted)
def _lots_changed(r: _MoneyReading, record: Record) -> None:
    e = record.event
    if e.planned:
        r.changes += [LotChangeLine(e.number, record.at, record.role, e.session, c.planned, c.played)
                      for c in lot_changes(e.planned, e.lots)]


@_READ.on(CardsSold)
def _marked(r: _MoneyReading, record: Record) -> None:
    e = record.event
    r.marks.append(HandMark(record.at, record.role, e.session, e.sold, tuple(e.card_ids)))


def takings_of(evening: Evening, records: Iterable[Record]) -> Takings:
    """The evening's money from its replayed state and journal (times, who changed what)."""
    reading = _MoneyReading()
    for record in records:
        _READ.dispatch(record.type, reading, record)
    sold_at, voided_at, changes, marks = reading.sold_at, reading.voided_at, reading.changes, reading.marks
    sales = tuple(SaleLine(s.sale_id, sold_at.get(s.sale_id, ""), s.card_ids, s.cents, s.payment, s.paid, s.buyer,
                           s.seller or s.role, s.partie, s.voided, voided_at.get(s.sale_id, ""), s.offered_cents,
                           s.role, s.session)
                  for s in evening.sales.sales.values())
    # a lot carried by « démarquez » is the next partie's: its value counts there, once
    # a maxi-bingo counts the prize it gave: the jackpot, or the fallback once its ball N was passed (RULES L20)
    lots = tuple(LotValueLine(p.number, i + 1, lot.kind, lot.prize.label, _cents(lot.prize.value_eur),
                              lot.prize.sponsor, lot.status == AWARDED)
                 for p in evening.parties for i, lot in enumerate(p.lots)
                 if lot.status == AWARDED or not p.carried_on)
    declared = sum(v.cents or 0 for v in lots)
    donated = sum(v.cents or 0 for v in lots if v.sponsor)
    return Takings(sales, lots, sales_totals(evening.sales.live()), declared, donated,
                   sum(v.cents is None for v in lots), tuple(changes), tuple(marks))
