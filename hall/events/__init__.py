"""The events of an evening: every change of state is one of these, appended to the journal first.

Names are ``"area:thing_happened"``. Each payload is a frozen dataclass; the journal stores it
as JSON with the role that caused it and the time (``Record``). Read them through this face
(``from hall.events import BallDrawn``); they live by area: ``partie`` (the draws, the claims, the lots),
``sales`` (the card book, the caisse), ``paper`` (the vouchers, the board's copy), ``settings`` (the programme,
the PINs, the players' help, the calling), ``record`` (a journal chained at its first open, the evening's close), ``rooms``
(the salle annexe), ``tombola`` (the tombola: RULES L24), ``buvette`` (the buvette's till); ``base`` holds
``Event``, ``Record`` and the one dispatch (``EventHandlers``), ``payload`` the journal's form (``EVENT_TYPES``, ``to_payload``, ``from_payload``).
"""

from __future__ import annotations

from hall.events.base import Event, EventHandlers, Record
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
    Fallback,
    Kind,
    LotAwarded,
    LotSpec,
    PartieCleared,
    PartieStarted,
    TieAnnounced,
    TieBreakDraw,
    lot_spec,
)
from hall.events.payload import EVENT_TYPES, from_payload, to_payload
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

__all__ = [
    "EVENT_TYPES",
    "BallDrawn",
    "BallRepeated",
    "BuvetteClosed",
    "BuvetteLine",
    "BuvettePrinted",
    "BuvetteProduct",
    "BuvetteProductsSet",
    "BuvetteSold",
    "BuvetteZPrinted",
    "CallingSet",
    "CardsImported",
    "CardsSold",
    "ClaimAnnounced",
    "ClaimChecked",
    "CountShown",
    "DrawResumed",
    "DrawUndone",
    "Event",
    "EveningClosed",
    "EventHandlers",
    "Fallback",
    "Kind",
    "JournalChained",
    "LotAwarded",
    "LotSpec",
    "PartieCleared",
    "PartieStarted",
    "PinChanged",
    "PlayersSet",
    "PreflightRun",
    "SetupAnswered",
    "PriceTier",
    "PricesSet",
    "ProgrammeEdited",
    "ProgrammePartie",
    "Record",
    "RoomBack",
    "RoomClaimed",
    "RoomEnrolled",
    "RoomGoOn",
    "RoomLost",
    "RoomOpened",
    "SalePaid",
    "SaleRecorded",
    "SaleVoided",
    "TicketAccount",
    "TicketPrinted",
    "TicketRequested",
    "TieAnnounced",
    "TieBreakDraw",
    "TombolaCollected",
    "TombolaDrawOpened",
    "TombolaDrawn",
    "TombolaLot",
    "TombolaPrepared",
    "TombolaListPrinted",
    "TombolaListRequested",
    "TombolaPrinted",
    "TombolaSalesClosed",
    "TombolaSold",
    "VoiceTested",
    "VoucherIssued",
    "VoucherPrinted",
    "VoucherRedeemed",
    "VoucherReprintRequested",
    "from_payload",
    "lot_spec",
    "to_payload",
]
