"""The journal's form of an event: every event type by its name (``EVENT_TYPES``), an event as a JSON-ready dict,
and an event rebuilt from its stored dict (the nested values — lots, tie-break draws, programme parties, price
tiers — rebuilt as their frozen values)."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from hall.events.base import Event
from hall.events.buvette import (
    BuvetteClosed,
    BuvetteLine,
    BuvettePrinted,
    BuvetteProduct,
    BuvetteProductsSet,
    BuvetteSold,
    BuvetteZPrinted,
)
from hall.events.paper import (
    TicketAccount,
    TicketPrinted,
    TicketRequested,
    VoucherIssued,
    VoucherPrinted,
    VoucherRedeemed,
    VoucherReprintRequested,
)
from hall.events.partie import (
    BallDrawn,
    ClaimAnnounced,
    ClaimChecked,
    DrawResumed,
    DrawUndone,
    LotAwarded,
    PartieCleared,
    PartieStarted,
    TieAnnounced,
    TieBreakDraw,
    lot_spec,
)
from hall.events.record import EveningClosed, JournalChained
from hall.events.rooms import RoomBack, RoomClaimed, RoomEnrolled, RoomGoOn, RoomLost, RoomOpened
from hall.events.sales import CardsImported, CardsSold, PricesSet, PriceTier, SalePaid, SaleRecorded, SaleVoided
from hall.events.settings import (
    BallRepeated,
    CallingSet,
    CountShown,
    PinChanged,
    PlayersSet,
    PreflightRun,
    ProgrammeEdited,
    ProgrammePartie,
    SetupAnswered,
    VoiceTested,
)
from hall.events.tombola import (
    TombolaCollected,
    TombolaDrawn,
    TombolaDrawOpened,
    TombolaListPrinted,
    TombolaListRequested,
    TombolaLot,
    TombolaPrepared,
    TombolaPrinted,
    TombolaSalesClosed,
    TombolaSold,
)

EVENT_TYPES: dict[str, type] = {
    cls.type: cls
    for cls in (
        PartieStarted,
        BallDrawn,
        DrawUndone,
        ClaimAnnounced,
        DrawResumed,
        ClaimChecked,
        LotAwarded,
        TieAnnounced,
        PartieCleared,
        CardsSold,
        CardsImported,
        VoucherIssued,
        VoucherPrinted,
        VoucherReprintRequested,
        VoucherRedeemed,
        SaleRecorded,
        SaleVoided,
        SalePaid,
        ProgrammeEdited,
        PinChanged,
        PricesSet,
        PlayersSet,
        TicketRequested,
        TicketPrinted,
        CallingSet,
        BallRepeated,
        VoiceTested,
        CountShown,
        JournalChained,
        PreflightRun,
        SetupAnswered,
        EveningClosed,
        RoomOpened,
        RoomEnrolled,
        RoomClaimed,
        RoomLost,
        RoomGoOn,
        RoomBack,
        TombolaPrepared,
        TombolaSold,
        TombolaSalesClosed,
        TombolaDrawOpened,
        TombolaDrawn,
        TombolaCollected,
        TombolaPrinted,
        TombolaListRequested,
        TombolaListPrinted,
        BuvetteProductsSet,
        BuvetteSold,
        BuvettePrinted,
        BuvetteClosed,
        BuvetteZPrinted,
    )
}


def _programme_partie(
    lots: Iterable[Mapping[str, object]] = (), consolation: str = "Lot de consolation"
) -> ProgrammePartie:
    return ProgrammePartie(tuple(lot_spec(**lot) for lot in lots), consolation)


def _ticket_account(rubrique: str, takings: Iterable[Sequence[Any]] = (), costs_cents: int = 0) -> TicketAccount:
    """A board's copy's account as stored: its takings, stored as lists, kept as pairs."""
    return TicketAccount(rubrique, tuple((str(k), int(v)) for k, v in takings), int(costs_cents))


# a field holding frozen values, each stored as a dict: how to rebuild one
_NESTED: dict[str, Callable[..., object]] = {
    "lots": lot_spec,
    "tie_break": TieBreakDraw,
    "parties": _programme_partie,
    "planned": lot_spec,
    "tiers": PriceTier,
    "tombola_lots": TombolaLot,
    "products": BuvetteProduct,
    "items": BuvetteLine,
    "accounts": _ticket_account,
}


def to_payload(event: Event) -> dict:
    """The JSON-ready dict of an event."""
    return dataclasses.asdict(event)


def from_payload(type_name: str, payload: dict) -> Event:
    """The event of ``type_name`` rebuilt from its stored dict; raises ``KeyError`` for an unknown type."""
    cls = EVENT_TYPES[type_name]
    values = {}
    for name in _field_names(cls):
        if name not in payload:
            continue
        value = payload[name]
        if name in _NESTED:
            value = tuple(_NESTED[name](**item) for item in value)
        elif isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        values[name] = value
    return cls(**values)


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """An event type's field names, read once: ``dataclasses.fields`` for each of an evening's 20 000 records was
    a tenth of the replay."""
    return tuple(f.name for f in dataclasses.fields(cls))
