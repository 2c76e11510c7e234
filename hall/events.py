"""The events of an evening: every change of state is one of these, appended to the journal first.

Names are ``"area:thing_happened"``. Each payload is a frozen dataclass; the journal stores it
as JSON with the role that caused it and the time (``Record``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class Event(Protocol):
    """Any event of the journal: a frozen dataclass named by its ``type``."""

    type: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]  # a dataclass: ``to_payload`` reads it


class EventHandlers(Generic[R]):
    """One handler per event type, declared where the handler is written: the one way the hall and the web
    dispatch on an event (``Evening.apply``, the winner watch, the report, the takings, the sockets' payloads).

    ``HANDLERS = EventHandlers[None]()``; ``@HANDLERS.on(BallDrawn, DrawUndone)`` above a function or a method
    (its own signature kept, its result held to ``R``); ``HANDLERS.dispatch(record.type, …)`` calls it, if any.
    A dict lookup (``functools.singledispatchmethod`` costs 5.5 µs a call on Python 3.11, ten times as much).
    """

    def __init__(self) -> None:
        self._by_type: dict[str, Callable[..., R]] = {}

    def on(self, *events: type[Event]) -> Callable[[Callable[P, R]], Callable[P, R]]:
        """Register the decorated function for each of ``events``; a second handler for one of them is an error."""

        def register(handler: Callable[P, R]) -> Callable[P, R]:
            for event in events:
                if event.type in self._by_type:
                    raise ValueError(f"two handlers for {event.type}: {self._by_type[event.type]} and {handler}")
                self._by_type[event.type] = handler
            return handler

        return register

    def get(self, event_type: str) -> Callable[..., R] | None:
        """The handler of ``event_type``, or ``None``."""
        return self._by_type.get(event_type)

    def dispatch(self, event_type: str, *args: object) -> R | None:
        """Call the handler of ``event_type`` with ``args`` and return its result; ``None`` when it has none."""
        handler = self._by_type.get(event_type)
        return None if handler is None else handler(*args)

    def types(self) -> frozenset[str]:
        """The event types handled."""
        return frozenset(self._by_type)


@dataclass(frozen=True, slots=True)
class Fallback:
    """A maxi-bingo's lot from ball ``within`` + 1 on, when nobody won the jackpot in time (RULES L20)."""

    label: str
    value_eur: float | None = None
    sponsor: str = ""


@dataclass(frozen=True, slots=True)
class LotSpec:
    """A lot as announced: ``kind`` (a kind of hall/loto/lots.py's table), its ``label``, optional value in euros, and
    its terms: ``row`` (a quine on that row only, 1–3 from the top: RULES L21), ``within`` with ``fallback`` (a
    maxi-bingo: the jackpot up to ball ``within``, the fallback after: RULES L20). Which lines of a carton win it:
    ``hall.loto.lots.lines_of``. Journals written before the terms replay as lots without them."""

    kind: str
    label: str
    value_eur: float | None = None
    sponsor: str = ""
    row: int | None = None
    within: int | None = None
    fallback: Fallback | None = None


def lot_spec(**fields: Any) -> LotSpec:
    """A ``LotSpec`` from its journalled dict (the fallback a dict there too)."""
    fallback = fields.get("fallback")
    if isinstance(fallback, Mapping):
        fields["fallback"] = Fallback(**fallback)
    return LotSpec(**fields)


@dataclass(frozen=True, slots=True)
class PartieStarted:
    type: ClassVar[str] = "partie:started"
    number: int
    lots: tuple[LotSpec, ...]
    consolation: str
    planned: tuple[LotSpec, ...] = ()  # the programme's lots, kept only when the speaker changed them on the spot
    session: str = ""  # the console's login session that started it (``hall.loto.lots_played``)


@dataclass(frozen=True, slots=True)
class BallDrawn:
    type: ClassVar[str] = "draw:ball_drawn"
    number: int  # 1..90
    index: int  # position in the partie's draw log, from 0
    source: str = "console"


@dataclass(frozen=True, slots=True)
class DrawUndone:
    type: ClassVar[str] = "draw:undone"
    number: int
    index: int


@dataclass(frozen=True, slots=True)
class ClaimAnnounced:
    """Someone stood up: drawing stops until the speaker resumes or a lot is awarded (RULES L10)."""

    type: ClassVar[str] = "claim:announced"
    source: str = "console"


@dataclass(frozen=True, slots=True)
class DrawResumed:
    type: ClassVar[str] = "draw:resumed"


@dataclass(frozen=True, slots=True)
class ClaimChecked:
    type: ClassVar[str] = "claim:checked"
    card_id: str
    verdict: str  # valid, incomplete, missed, unknown_card, unsold_card, cancelled_card, closed
    lot_index: int | None
    lot_kind: str | None
    last: int | None
    rows: tuple[int, ...] = ()
    complete_rows: tuple[int, ...] = ()
    missing: tuple[int, ...] = ()
    reason: str = ""
    ball: int = 0  # how many balls were out (a maxi-bingo's jackpot is won up to its ball N)
    prize: str = ""  # a valid maxi-bingo: "jackpot" or "fallback" (RULES L20)


@dataclass(frozen=True, slots=True)
class TieBreakDraw:
    card_id: str
    number: int


@dataclass(frozen=True, slots=True)
class LotAwarded:
    type: ClassVar[str] = "lot:awarded"
    lot_index: int
    winners: tuple[str, ...]  # one card, or several when the lot is shared
    rows: tuple[tuple[int, ...], ...]  # the winning rows of each winner, same order
    tie_break: tuple[TieBreakDraw, ...]
    consolation: tuple[str, ...]
    last: int
    draw_index: int
    shared: bool = False
    tie_mode: str = ""  # how a tie was settled (hall/loto/ties.py): draw_lowest, physical_highest, share…; "" alone
    rank: int = 0  # a tie's draw gives the stage's lots in its order (docs L14b): 0 the best number, 1 the next…


@dataclass(frozen=True, slots=True)
class TieAnnounced:
    """How a tie on the open lot will be settled, said to the hall before the draw (docs/loto-rules.md L14c):
    ``draw`` (the hall's), ``physical`` (tokens drawn by hand, the numbers typed) or ``share``. Fixed once said: a
    change names the way it replaces (``previous``) and why (``reason``); the record says who (role, ``session``)."""

    type: ClassVar[str] = "tie:announced"
    lot_index: int
    draw_index: int
    cards: tuple[str, ...]
    method: str
    previous: str = ""
    reason: str = ""
    session: str = ""


@dataclass(frozen=True, slots=True)
class PartieCleared:
    """« Démarquez ! »: the partie is over; later claims are refused (RULES L16)."""

    type: ClassVar[str] = "partie:cleared"
    number: int
    forced: bool = False
    carried: bool = False  # the lots still unwon are played in the next partie


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
    )
}

_NESTED: dict[str, Callable[..., object]] = {"lots": lot_spec, "tie_break": TieBreakDraw}


@dataclass(frozen=True, slots=True)
class Record:
    """An event as journalled: its sequence number, the role that caused it, when (ISO 8601 UTC)."""

    seq: int
    event: Any  # the event of ``type``: its readers dispatch on the type, then read its fields
    role: str
    at: str
    hash: str = ""  # its link in the journal's hash chain (hall/record/chain.py); "" for a record not journalled

    @property
    def type(self) -> str:
        return self.event.type


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
class ProgrammePartie:
    lots: tuple[LotSpec, ...]
    consolation: str = "Lot de consolation"


@dataclass(frozen=True, slots=True)
class ProgrammeEdited:
    """The programme from partie ``first`` on, as edited on /admin (the config file stays the default)."""

    type: ClassVar[str] = "programme:edited"
    first: int
    parties: tuple[ProgrammePartie, ...]


@dataclass(frozen=True, slots=True)
class PinChanged:
    """A role's PIN changed on /admin: only a salted hash is kept, never the PIN."""

    type: ClassVar[str] = "auth:pin_changed"
    role: str
    salt: str
    digest: str
    iterations: int


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


@dataclass(frozen=True, slots=True)
class PlayersSet:
    """How much the players' phones help (« Mes cartons », [players]), changed on /admin for every phone at once."""

    type: ClassVar[str] = "players:set"
    help: str
    one_to_go: bool
    phone_call: bool
    max_cards: int


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


@dataclass(frozen=True, slots=True)
class TicketPrinted:
    """The printer took the board's copy asked for by the record ``request``."""

    type: ClassVar[str] = "report:ticket_printed"
    request: int


@dataclass(frozen=True, slots=True)
class CallingSet:
    """How the hall calls its balls, changed on /admin (INTERFACE §11): the flash mode, the nicknames (on, and the
    hall's own table: ``(n, text)``), the speaker's pace for some parties (``(partie, seconds)``, 0: none)."""

    type: ClassVar[str] = "calling:set"
    flash: bool
    nicknames_on: bool
    nicknames: tuple[tuple[int, str], ...]
    pace: tuple[tuple[int, float], ...] = ()


@dataclass(frozen=True, slots=True)
class BallRepeated:
    """The speaker had the last ball said again (« je n'ai pas entendu »): the projector says and shows it."""

    type: ClassVar[str] = "draw:ball_repeated"
    number: int


@dataclass(frozen=True, slots=True)
class VoiceTested:
    """« Tester la voix » on /admin or the console: the projector says a test phrase and reports if it spoke."""

    type: ClassVar[str] = "speech:tested"


@dataclass(frozen=True, slots=True)
class CountShown:
    """The speaker put the ball count on the projector during a break (``shown``), or took it off."""

    type: ClassVar[str] = "stats:count_shown"
    shown: bool


EVENT_TYPES.update(
    {
        cls.type: cls
        for cls in (
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
        )
    }
)


def _programme_partie(
    lots: Iterable[Mapping[str, object]] = (), consolation: str = "Lot de consolation"
) -> ProgrammePartie:
    return ProgrammePartie(tuple(lot_spec(**lot) for lot in lots), consolation)


_NESTED["parties"] = _programme_partie
_NESTED["planned"] = lot_spec
_NESTED["tiers"] = PriceTier


def to_payload(event: Event) -> dict:
    """The JSON-ready dict of an event."""
    return dataclasses.asdict(event)


def from_payload(type_name: str, payload: dict) -> Event:
    """The event of ``type_name`` rebuilt from its stored dict; raises ``KeyError`` for an unknown type."""
    cls = EVENT_TYPES[type_name]
    values = {}
    for f in dataclasses.fields(cls):
        if f.name not in payload:
            continue
        value = payload[f.name]
        if f.name in _NESTED:
            value = tuple(_NESTED[f.name](**item) for item in value)
        elif isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        values[f.name] = value
    return cls(**values)
