"""The card book's and the caisse's events: cartons marked sold by hand or imported, sales recorded, voided and
paid, the price tiers set."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class CardsSold:
    """Cartons marked sold (or unsold) by hand, outside the caisse: the report lists every such mark."""

    type: ClassVar[str] = "cards:sold"
    card_ids: tuple[str, ...]
    sold: bool
    session: str = ""


@dataclass(frozen=True, slots=True)
class CardsImported:
    """Audit trail of a card book change; the cartons themselves live in the data folder's ``cards.csv``."""

    type: ClassVar[str] = "cards:imported"
    count: int
    total: int
    sha256: str


@dataclass(frozen=True, slots=True)
class SaleRecorded:
    """Cartons sold (``paid``) or reserved for a buyer (pré-vente, not paid yet) at the door or before."""

    type: ClassVar[str] = "sales:sale_recorded"
    sale_id: int
    card_ids: tuple[str, ...]
    cents: int
    payment: str  # especes, carte, cheque
    paid: bool = True
    buyer: str = ""
    seller: str = ""  # the name typed at the desk's login, from its session ("" = the role only)
    role: str = ""
    partie: int | None = None  # sold for one partie only, when the hall sells that way
    offered_cents: int | None = None  # the tiers' price at that moment (-1: no tier sum makes it; None: not kept)
    session: str = ""  # the logged-in desk's session (a short reference, never the secret)
    note: str = ""  # what the desk added to this sale (the request's only free text about it)


@dataclass(frozen=True, slots=True)
class SaleVoided:
    """A sale cancelled by the admin: its cartons are unsold again."""

    type: ClassVar[str] = "sales:sale_voided"
    sale_id: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SalePaid:
    """A reserved sale (pré-vente) paid at the door."""

    type: ClassVar[str] = "sales:sale_paid"
    sale_id: int
    payment: str


@dataclass(frozen=True, slots=True)
class PriceTier:
    """``cards`` cartons for ``cents`` (one of the hall's price tiers)."""

    cards: int
    cents: int


@dataclass(frozen=True, slots=True)
class PricesSet:
    """The price tiers edited on /admin: the caisse offers them from the next sale on (the config is the default)."""

    type: ClassVar[str] = "sales:prices_set"
    tiers: tuple[PriceTier, ...]
