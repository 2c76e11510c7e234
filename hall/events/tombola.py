"""The tombola's events (RULES L24): prepared on /admin with its authorisation, tickets sold with the buyer's
name, the sales closed, the draw conducted by the president before two witnesses, each lot drawn, each lot handed
over against its ticket."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class TombolaLot:
    """One lot of the tombola, in kind: its label, its value in cents, and whether it was given (not bought)."""

    label: str
    value_cents: int
    donated: bool = False


@dataclass(frozen=True, slots=True)
class TombolaPrepared:
    """The tombola as /admin prepared it (prepared again: the latest one holds)."""

    type: ClassVar[str] = "tombola:prepared"
    country: str  # FR, CH, BE: whose rules (RULES L24)
    authority_number: str  # the maire's arrêté (FR), the announcement to the Préfecture (CH), the commune's (BE)
    authority_date: str  # YYYY-MM-DD
    price_cents: int
    tickets: int  # numbered 1..tickets
    carnet: int  # tickets per carnet (1: sold one by one)
    draw_at: str  # ISO date and time of the public draw
    place: str
    collect_until: str  # YYYY-MM-DD: the lots are collected until then
    unclaimed: str  # what becomes of a lot not collected
    costs_cents: int  # the organisation's costs, the lots bought not included
    tombola_lots: tuple[TombolaLot, ...]
    association: str = ""
    year_count: int = 1  # Belgium: this tombola's rank in the association's year (at most 4)


@dataclass(frozen=True, slots=True)
class TombolaSold:
    """Tickets sold to a named buyer (the stub's name: never « au porteur »)."""

    type: ClassVar[str] = "tombola:sold"
    sale_id: int
    numbers: tuple[int, ...]
    buyer: str
    cents: int
    payment: str
    session: str = ""


@dataclass(frozen=True, slots=True)
class TombolaSalesClosed:
    """No ticket is sold after this: the draw may begin."""

    type: ClassVar[str] = "tombola:sales_closed"
    sold: int


@dataclass(frozen=True, slots=True)
class TombolaDrawOpened:
    """The public draw, conducted by ``president`` before two named ``witnesses``."""

    type: ClassVar[str] = "tombola:draw_opened"
    president: str
    witnesses: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TombolaDrawn:
    """Lot ``lot_index`` (from 0, the programme's order) won by ticket ``ticket``, drawn by the hall or by hand."""

    type: ClassVar[str] = "tombola:drawn"
    lot_index: int
    ticket: int
    source: str  # "hall" (the OS's randomness) or "hand" (a ticket drawn from the urn and typed)


@dataclass(frozen=True, slots=True)
class TombolaPrinted:
    """The printer took sale ``sale_id``'s tickets and stubs (the print queue journals it, as a voucher's)."""

    type: ClassVar[str] = "tombola:printed"
    sale_id: int


@dataclass(frozen=True, slots=True)
class TombolaListRequested:
    """The winners' list asked for on paper (the speaker's console): the print queue owes it until printed."""

    type: ClassVar[str] = "tombola:list_requested"
    winners: int  # the lots drawn when it was asked for


@dataclass(frozen=True, slots=True)
class TombolaListPrinted:
    """The printer took the winners' list."""

    type: ClassVar[str] = "tombola:list_printed"
    winners: int


@dataclass(frozen=True, slots=True)
class TombolaCollected:
    """Lot ``lot_index`` handed over at the prize desk against its ticket."""

    type: ClassVar[str] = "tombola:collected"
    lot_index: int
    ticket: int


TOMBOLA_EVENTS = (
    TombolaPrepared,
    TombolaSold,
    TombolaSalesClosed,
    TombolaDrawOpened,
    TombolaDrawn,
    TombolaCollected,
    TombolaPrinted,
    TombolaListRequested,
    TombolaListPrinted,
)  # every tombola record, in the journal's vocabulary (one list: the state, the partie, the model read it)
