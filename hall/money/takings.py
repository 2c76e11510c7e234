"""The evening's money, as the treasurer hands it to the board and the tax office: every sale with the price the
tiers offered and who sold it, the lots given tonight (to which carton, by which voucher) and those not given (kept
for another loto), each with its declared value and donor, the balance, and what was changed outside the caisse
and the programme (lots changed on the spot, cartons marked sold by hand).

Pure, stdlib only: the replayed ``Evening`` and the journal's records in, frozen values out (``takings_of``).
Amounts are integer cents.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from hall.cartons.sales import totals as sales_totals
from hall.events import CardsSold, EventHandlers, LotSpec, PartieStarted, Record, SaleRecorded, SaleVoided
from hall.loto.lots_played import lot_changes
from hall.loto.partie import Evening
from hall.loto.programme import legal_flags
from hall.money.report_lots import GIVEN, lot_fates


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
    offered_cents: int | None = None  # the tiers' price when it was sold (NO_TIER: none; None: not kept)
    role: str = ""
    session: str = ""

    @property
    def price_differs(self) -> bool:
        """Whether the desk charged another amount than the tiers offered (a journal older than the offer: no)."""
        return self.offered_cents is not None and self.offered_cents != self.cents


@dataclass(frozen=True, slots=True)
class LotValueLine:
    """One physical lot (a lot carried by « Démarquez » is one line, where it was played last: RULES L19)."""

    partie: int
    lot: int
    kind: str
    label: str
    cents: int | None  # declared value; None when not declared
    sponsor: str  # a lot given by a sponsor costs the association nothing
    fate: str  # hall.money.report_lots: given, to_play or kept
    carried_from: int | None = None  # the partie it was first promised in, when it came carried
    carried_to: int | None = None  # to_play: the partie it is carried to, not started yet
    cards: tuple[str, ...] = ()  # given: the winning carton(s)
    buyers: tuple[str, ...] = ()  # given: the buyer's name of each winning carton, when the sale named one
    vouchers: tuple[str, ...] = ()  # given: the voucher code(s) it is exchanged against
    flags: tuple[str, ...] = ()  # hall.loto.programme.legal_flags: "cash" (a prize in money: the law forbids it)

    @property
    def given(self) -> bool:
        return self.fate == GIVEN


@dataclass(frozen=True, slots=True)
class LotChangeLine:
    """A lot of the programme played otherwise, by whom (role and login session) and when."""

    partie: int
    at: str
    role: str
    session: str
    planned: LotSpec | None  # None: a lot added on the spot
    played: LotSpec | None  # None: a programme lot left out


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
    totals: dict  # hall.cartons.sales.totals() of the live sales: cents by payment, seller…
    given_cents: int  # « Valeur totale des lots »: the lots given tonight (declared values)
    donated_cents: int  # of which given by sponsors
    undeclared_lots: int  # lots (given or not) without a declared value: counted 0 €
    kept_cents: int = 0  # the lots not given (kept for another loto, or still to play)
    changes: tuple[LotChangeLine, ...] = ()
    marks: tuple[HandMark, ...] = ()

    @property
    def receipts_cents(self) -> int:
        return self.totals["total_cents"]

    @property
    def bought_cents(self) -> int:
        """The lots given tonight that the association paid for (no donor)."""
        return self.given_cents - self.donated_cents

    @property
    def balance_cents(self) -> int:
        """Receipts less the lots given tonight that the association paid for; a lot not given stays the
        association's (``kept_cents``, said beside the balance, never in it)."""
        return self.receipts_cents - self.bought_cents

    @property
    def given(self) -> tuple[LotValueLine, ...]:
        return tuple(v for v in self.lots if v.given)

    @property
    def not_given(self) -> tuple[LotValueLine, ...]:
        return tuple(v for v in self.lots if not v.given)

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
        r.changes += [
            LotChangeLine(e.number, record.at, record.role, e.session, c.planned, c.played)
            for c in lot_changes(e.planned, e.lots)
        ]


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
    sales = tuple(
        SaleLine(
            s.sale_id,
            sold_at.get(s.sale_id, ""),
            s.card_ids,
            s.cents,
            s.payment,
            s.paid,
            s.buyer,
            s.seller or s.role,
            s.partie,
            s.voided,
            voided_at.get(s.sale_id, ""),
            s.offered_cents,
            s.role,
            s.session,
        )
        for s in evening.sales.sales.values()
    )
    lots = _lots(evening)
    given = sum(v.cents or 0 for v in lots if v.given)
    donated = sum(v.cents or 0 for v in lots if v.given and v.sponsor)
    return Takings(
        sales,
        lots,
        sales_totals(evening.sales.live()),
        given,
        donated,
        sum(v.cents is None for v in lots),
        sum(v.cents or 0 for v in lots if not v.given),
        tuple(changes),
        tuple(marks),
    )


def _lots(evening: Evening) -> tuple[LotValueLine, ...]:
    """Each physical lot once: a lot carried by « Démarquez » is counted where it was played last (RULES L19);
    a maxi-bingo counts the prize it gave: the jackpot, or the fallback once its ball N was passed (RULES L20)."""
    vouchers: dict[tuple[int, int], list[str]] = {}
    for v in sorted(evening.vouchers.values(), key=lambda v: v.issued.serial):
        if not v.issued.consolation:
            vouchers.setdefault((v.issued.partie, v.issued.lot_index), []).append(v.issued.code)
    ledger = evening.sales
    fates = lot_fates(evening.parties)
    out = []
    for p in evening.parties:
        for i, lot in enumerate(p.lots):
            fate = fates[(p.number, i)]
            if not fate.counted:
                continue
            cards = lot.award.winners if lot.award is not None and fate.fate == GIVEN else ()
            buyers = tuple(ledger.sales[ledger.holder[c]].buyer if c in ledger.holder else "" for c in cards)
            out.append(
                LotValueLine(
                    p.number,
                    i + 1,
                    lot.kind,
                    lot.prize.label,
                    _cents(lot.prize.value_eur),
                    lot.prize.sponsor,
                    fate.fate,
                    fate.carried_from,
                    fate.carried_to,
                    tuple(cards),
                    buyers,
                    tuple(vouchers.get((p.number, i), ())),
                    tuple(legal_flags(lot.spec)),
                )
            )
    return tuple(out)
