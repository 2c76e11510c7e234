"""What the printer is owed, as events: the vouchers an award issues (printed, reprinted, redeemed at the lots'
table) and the board's copy (asked for, printed)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class VoucherIssued:
    type: ClassVar[str] = "voucher:issued"
    code: str
    serial: int
    partie: int
    lot_index: int
    lot_kind: str
    lot_label: str
    card_id: str
    consolation: bool = False
    shared: bool = False


@dataclass(frozen=True, slots=True)
class VoucherPrinted:
    type: ClassVar[str] = "voucher:printed"
    code: str
    duplicate: bool = False


@dataclass(frozen=True, slots=True)
class VoucherReprintRequested:
    type: ClassVar[str] = "voucher:reprint_requested"
    code: str


@dataclass(frozen=True, slots=True)
class VoucherRedeemed:
    type: ClassVar[str] = "voucher:redeemed"
    code: str


@dataclass(frozen=True, slots=True)
class TicketAccount:
    """One of the evening's accounts as the board's copy prints it (``hall.money.accounts.Account``): its rubrique
    (``cartons``, ``tombola``, ``buvette``), its takings by means of payment and its costs, in cents."""

    rubrique: str
    takings: tuple[tuple[str, int], ...] = ()  # (means of payment, cents)
    costs_cents: int = 0

    @property
    def takings_cents(self) -> int:
        return sum(cents for _, cents in self.takings)

    @property
    def balance_cents(self) -> int:
        return self.takings_cents - self.costs_cents


@dataclass(frozen=True, slots=True)
class TicketRequested:
    """The board's copy asked for (/admin, or by itself at a partie's end): the figures it prints, as they stood;
    this record's hash (hall/record/chain.py) is the fingerprint it prints, its time the time it was taken."""

    type: ClassVar[str] = "report:ticket_requested"
    partie: int  # the latest partie (0: none yet)
    balls: int  # balls drawn in it
    receipts_cents: int
    by_payment: tuple[tuple[str, int], ...]  # (means of payment, cents) of the paid sales
    cards_sold: int
    lots_given: int  # lots won tonight
    lots_given_cents: int  # their declared value
    auto: bool = False  # at a partie's end ([report] ticket_each_partie)
    # every partie of the evening so far, (number, balls drawn), in order; () in a ticket journalled before it was
    # kept, which then prints the latest partie only (``partie``, ``balls``)
    played: tuple[tuple[int, int], ...] = ()
    closing: bool = False  # at the evening's close (``evening:closed``, the record before it)
    rooms: tuple[str, ...] = ()  # the salle annexe's rooms opened tonight (RULES L23): () for an evening in one room
    # the evening's accounts side by side (the cartons', the tombola's, the buvette's: those the hall had),
    # as the treasurer's report gives them; () in a ticket journalled before they were kept, which prints the
    # cartons' takings only
    accounts: tuple[TicketAccount, ...] = ()


@dataclass(frozen=True, slots=True)
class TicketPrinted:
    """The printer took the board's copy asked for by the record ``request``."""

    type: ClassVar[str] = "report:ticket_printed"
    request: int
