"""Immutable pictures of the hall's state and results of its commands, for readers outside ``Hall``.

``Hall`` builds them under its lock (cheaply: tuples of values already frozen, a few dozen items at most);
the caller shapes and serialises them outside it (``display/views/`` makes the JSON of INTERFACE §4–§5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from hall.cartons.cards import Card
from hall.config import PartieSpec
from hall.events import (
    ClaimChecked,
    Fallback,
    LotAwarded,
    LotSpec,
    PlayersSet,
    ProgrammeEdited,
    TicketRequested,
    TieAnnounced,
    TieBreakDraw,
    VoucherIssued,
)
from hall.loto.followed import Standing
from hall.loto.lots import Lines, lines_of
from hall.loto.watch import Sleeper
from hall.record.chain import shown


@dataclass(frozen=True, slots=True)
class LotState:
    kind: str
    label: str
    status: str  # pending, open, awarded
    value_eur: float | None
    award: LotAwarded | None
    spec: LotSpec | None = None  # the lot as announced, its terms included (a named row, a ball limit)

    @property
    def lines(self) -> Lines:
        """Which lines of a carton win it (``hall.loto.lots.lines_of``)."""
        return lines_of(self.spec or self.kind)


@dataclass(frozen=True, slots=True)
class LotRef:
    """A lot of a partie, named by its index, with its terms (a named row, a ball limit)."""

    index: int
    kind: str
    label: str
    row: int | None = None
    within: int | None = None
    fallback: Fallback | None = None
    value_eur: float | None = None
    sponsor: str = ""

    @classmethod
    def of(cls, index: int, spec: LotSpec) -> LotRef:
        return cls(index, spec.kind, spec.label, spec.row, spec.within, spec.fallback, spec.value_eur, spec.sponsor)

    @property
    def spec(self) -> LotSpec:
        return LotSpec(self.kind, self.label, self.value_eur, self.sponsor, self.row, self.within, self.fallback)


@dataclass(frozen=True, slots=True)
class PartieState:
    number: int
    lots: tuple[LotState, ...]
    current: int | None  # index of the open lot; None once every lot is awarded
    consolation: str
    draws: tuple[int, ...]
    cleared: bool
    status: str  # playing, checking, finished, cleared
    paused: bool
    pending: tuple[ClaimChecked, ...]
    undo_allowed: bool  # an undo now would be accepted
    held: bool = False  # the draw waits for the speaker after an award (docs L11a)
    tie: TieAnnounced | None = None  # how the tie on the open lot is settled, once announced (docs L14c)
    paid: Mapping[str, Mapping[str, frozenset[int]]] = field(default_factory=lambda: MappingProxyType({}))
    """kind → carton → its rows paid for lots of that kind in this partie (RULES L12a)"""
    cancelled: frozenset[str] = frozenset()  # cartons cancelled for the partie (a false claim, RULES L15's option)

    @property
    def last(self) -> int | None:
        return self.draws[-1] if self.draws else None

    @property
    def open_lot(self) -> LotState | None:
        """The lot being played (``None`` once every lot is awarded, or once démarquée)."""
        return None if self.cleared or self.current is None else self.lots[self.current]

    def paid_rows(self, card_id: str, kind: str) -> frozenset[int]:
        """The rows of ``card_id`` already paid for lots of ``kind`` in this partie."""
        return self.paid.get(kind, {}).get(card_id, frozenset())

    def lot(self, index: int | None) -> LotRef | None:
        if index is None or not 0 <= index < len(self.lots):
            return None
        lot = self.lots[index]
        return LotRef.of(index, lot.spec) if lot.spec is not None else LotRef(index, lot.kind, lot.label)


Followed = tuple[tuple[str, str, Standing], ...]
"""The cartons a players' phone follows, told their standing: (follow key, carton, standing) for each
(``hall/door/follow_desk.py``)."""


@dataclass(frozen=True, slots=True)
class NextPartie:
    number: int
    spec: PartieSpec


@dataclass(frozen=True, slots=True)
class WifiInfo:
    """The hall's Wi-Fi: public on purpose (the projector shows the password to the whole hall anyway)."""

    ssid: str
    password: str
    url: str  # the page phones open once joined


@dataclass(frozen=True, slots=True)
class RoomLink:
    """An annex room's link as the main hall sees it (RULES L23): ``online`` while it beat within the link's limit,
    ``last_seen_s`` the whole seconds since it last did (``None``: never joined), ``going_on`` while the speaker
    draws without it."""

    room: str
    online: bool
    last_seen_s: int | None
    going_on: bool


@dataclass(frozen=True, slots=True)
class HallSnapshot:
    """The evening as every screen sees it, at journal record ``seq``."""

    seq: int
    hall_name: str
    prices: str
    partie: PartieState | None  # the latest partie, running or cleared
    next_partie: NextPartie | None  # between parties only
    parties_played: int
    wifi: WifiInfo | None = None  # the hall's Wi-Fi as the projector shows it, without [network] ssid None
    winners: tuple[CardState, ...] = ()  # the cartons of the valid claims waiting for their lot
    players: PlayersSet = PlayersSet("auto", True, False, 24)  # how much the players' phones help
    tie_mode: str = "draw_lowest"  # how the hall settles a tie tonight ([rules] ties, RULES L22)
    carried: tuple[LotSpec, ...] = ()  # lots left unwon at a « Démarquez », waiting for the next partie (RULES L19)
    # the journal's fingerprint at the latest « Démarquez » (its record), and that partie's number: the projector
    # shows it until the next partie starts, for anyone in the hall to photograph
    after_partie: tuple[int, Fingerprint] | None = None
    rooms: tuple[RoomLink, ...] = ()  # the annex rooms' links (RULES L23), in the order they were opened

    @property
    def running(self) -> PartieState | None:
        p = self.partie
        return p if p is not None and not p.cleared else None


@dataclass(frozen=True, slots=True)
class DeviceStatus:
    """A device's state (``ok``, ``degraded``, ``absent``, ``unconfigured``…) as a message code and its parameters.

    ``code`` names a sentence of the message catalogue (``display/i18n.py``); ``params`` fill it in.
    """

    device: str
    state: str
    code: str
    params: Mapping[str, object]
    at: str = ""

    def same_as(self, other: DeviceStatus | None) -> bool:
        return (
            other is not None
            and (self.device, self.state, self.code) == (other.device, other.state, other.code)
            and dict(self.params) == dict(other.params)
        )


def device_status(device: str, state: str, code: str, **params: object) -> DeviceStatus:
    """A ``DeviceStatus`` with read-only parameters."""
    return DeviceStatus(device, state, code, MappingProxyType(dict(params)))


NOTICES: Mapping[str, str] = MappingProxyType(
    {
        "draw:refused": "a ball not drawn: typed on a keypad or read by the ball machine (code, number, source, raw)",
        "keypad:input": "a key of the Pi's keypad (code: typing, draw, confirm, undo_armed, undo, cancel, reject, claim, "
        "menu, invalid; text, number, reason)",
        "keypad:refused": "a keypad command the hall refused (code, action, source)",
        "scanner:unreadable": "a scan the barcode scanner could not read (raw, source)",
        "scanner:refused": "a scanned carton the hall refused to check (code, raw, source)",
    }
)
"""Every passing notice a driver publishes for the speaker's console: its name and what it is about. One table says
each in words (``display/notices.NOTICE_WORDS``, tested to cover this one): a notice cannot be published unsaid."""


@dataclass(frozen=True, slots=True)
class Notice:
    """A passing word for the speaker's console from a driver (never journalled): which notice (``name``, one of
    ``NOTICES``), why (``code``: a refusal or a key's kind) and the values its sentence needs (``params``). Never a
    sentence: the web says it in each console's language."""

    name: str
    code: str = ""
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if self.name not in NOTICES:
            raise ValueError(f"unknown notice {self.name!r}: add it to hall.snapshots.NOTICES and its words")


def notice(name: str, code: str = "", **params: object) -> Notice:
    """A ``Notice`` with read-only parameters."""
    return Notice(name, code, MappingProxyType(dict(params)))


@dataclass(frozen=True, slots=True)
class Proposal:
    """An auto-read ball waiting for the speaker's confirmation."""

    number: int
    source: str
    at: str


@dataclass(frozen=True, slots=True)
class SpeakerSnapshot:
    """The speaker's console: the public picture plus claims, the winner watch, devices, sales, printing."""

    public: HallSnapshot
    can_claim: tuple[str, ...]  # the first 50
    can_claim_count: int
    slept: tuple[Sleeper, ...]  # the last 50
    recent_checks: tuple[ClaimChecked, ...]
    devices: tuple[DeviceStatus, ...]
    proposed: Proposal | None
    sold_count: int
    unprinted: int


@dataclass(frozen=True, slots=True)
class CardState:
    """A carton as a controller sees it against the latest partie."""

    card_id: str
    card: Card
    grid: tuple[tuple[int | None, ...], ...]
    drawn: frozenset[int]
    last: int | None
    sold: bool


@dataclass(frozen=True, slots=True)
class PriorCheck:
    verdict: str
    last: int | None
    lot_index: int | None


@dataclass(frozen=True, slots=True)
class BasketCheck:
    """What a sale of these cartons would meet, asked before selling (the desk, as a carton joins the basket)."""

    card_ids: tuple[str, ...]  # as the hall reads them (typed leniently)
    unknown: tuple[tuple[str, tuple[str, ...]], ...]  # not in the book, each with the cartons one keystroke away
    taken: tuple[str, ...]  # already sold


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """A checked claim (journalled as ``event``, record ``seq``) and what the controller needs beside it."""

    event: ClaimChecked
    lot: LotRef | None
    checked_before: tuple[PriorCheck, ...]
    seq: int
    check_character_ok: bool | None  # for an unknown carton: whether its ID's check character holds (None: unreadable)
    card: CardState | None
    suggestions: tuple[str, ...] = ()  # for an unknown carton: the real cartons one keystroke away
    to_go: tuple[int, ...] = ()  # the fewest numbers still to come for a valid claim (not journalled)

    @property
    def verdict(self) -> str:
        return self.event.verdict

    @property
    def card_id(self) -> str:
        return self.event.card_id


@dataclass(frozen=True, slots=True)
class AwardResult:
    award: LotAwarded
    lot: LotRef
    vouchers: tuple[str, ...]  # codes, winners' first then consolations
    more: tuple[tuple[LotAwarded, LotRef], ...] = ()  # the stage's next lots given by the same draw (docs L14b)

    @property
    def winner(self) -> str:
        return self.award.winners[0]

    @property
    def winners(self) -> tuple[str, ...]:
        return self.award.winners

    @property
    def tie_break(self) -> tuple[TieBreakDraw, ...]:
        return self.award.tie_break

    @property
    def consolation(self) -> tuple[str, ...]:
        return self.award.consolation + tuple(c for award, _ in self.more for c in award.consolation)


@dataclass(frozen=True, slots=True)
class Redemption:
    issued: VoucherIssued
    seq: int


@dataclass(frozen=True, slots=True)
class PrintJob:
    """A voucher for the printer: the journalled voucher, whether it is a duplicate, its lot now, when issued."""

    issued: VoucherIssued
    duplicate: bool
    lot_label: str
    lot_value_eur: float | None
    issued_at: str


@dataclass(frozen=True, slots=True)
class KeyOutcome:
    """What a typed key did: the action the hall took (``draw``, ``confirm``, ``reject``, ``undo``, ``claim``,
    ``resume``, ``none``)."""

    action: str
    seq: int | None = None


@dataclass(frozen=True, slots=True)
class ProgrammeState:
    """The programme as the editor shows it: the parties already played, and the latest edit (or ``None``)."""

    played: tuple[PartieSpec, ...]
    edit: ProgrammeEdited | None
    running: bool = False  # the last of ``played`` is in play (started, not yet démarquée)


@dataclass(frozen=True, slots=True)
class LinkedCard:
    """One carton a player's phone asked to follow, read as typed, scanned or linked: the carton's grid, or
    why not (``bad_card_id``, ``unknown_card`` with the near misses, ``unsold_card``)."""

    text: str
    card_id: str
    grid: tuple[tuple[int | None, ...], ...] | None
    refusal: str | None = None
    suggestions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """The evening's fingerprint: the hash of the journal's last record (``hall/record/chain.py``), its number and time."""

    seq: int  # 0: nothing journalled yet
    at: str
    hash: str

    @property
    def shown(self) -> str:
        """As printed: groups of four a person can read aloud."""
        return shown(self.hash) if self.seq else ""


@dataclass(frozen=True, slots=True)
class TicketJob:
    """The board's copy for the printer: its figures, and the fingerprint they stand with (the request's record)."""

    request: TicketRequested
    fingerprint: Fingerprint
