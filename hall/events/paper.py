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
    # the evening's other accounts beside the cartons': (rubrique, takings, costs) in cents, the tombola's
    # and the buvette's when the hall kept them; () in a ticket journalled before they were kept
    accounts: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class TicketPrinted:
    """The printer took the board's copy asked for by the record ``request``."""

    type: ClassVar[str] = "report:ticket_printed"
    request: int
