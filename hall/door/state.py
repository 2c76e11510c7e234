"""The hall's state in memory and its replay: the evening, the card book, the winner watch kept in step.

No lock here: the state is changed only by :meth:`HallState.apply`, which the writer calls for each durable
record (``hall/door/writer.py``), and read by the desks under the writer's lock. On start the journal's records
are replayed through the same ``apply``; the result equals the live state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from hall.buvette.ledger import Ledger
from hall.cartons.cardbook import CardBook
from hall.config import Config, PartieSpec
from hall.door.rooms_state import AnnexRooms
from hall.events import (
    EVENT_TYPES,
    BallDrawn,
    BuvetteClosed,
    BuvettePrinted,
    BuvetteProductsSet,
    BuvetteSold,
    BuvetteZPrinted,
    CardsImported,
    CardsSold,
    ClaimChecked,
    DrawUndone,
    EveningClosed,
    EventHandlers,
    LotAwarded,
    PartieCleared,
    PartieStarted,
    PlayersSet,
    Record,
    SalePaid,
    SaleRecorded,
    SaleVoided,
    TicketPrinted,
    TicketRequested,
    TombolaDrawn,
    TombolaDrawOpened,
    TombolaPrepared,
    TombolaSalesClosed,
    TombolaSold,
    VoucherIssued,
    VoucherRedeemed,
)
from hall.events.rooms import ROOM_EVENTS
from hall.events.tombola import TOMBOLA_EVENTS
from hall.loto.lots import Lines, lines_of
from hall.loto.partie import Evening, Partie
from hall.loto.programme import spec_for
from hall.loto.watch import WinnerWatch
from hall.refusal import Rejected
from hall.snapshots import Proposal
from hall.tombola.model import Tombola

CLOSED_TO: frozenset[type] = frozenset(
    {cls for cls in EVENT_TYPES.values() if cls.__module__ == PartieStarted.__module__}  # the game: every partie event
    | {VoucherIssued, CardsSold, SaleRecorded, SaleVoided, SalePaid, EveningClosed}  # a lot won, the money
    | {
        TombolaPrepared,
        TombolaSold,
        TombolaSalesClosed,
        TombolaDrawOpened,
        TombolaDrawn,
    }  # the tombola's money, its draw
    | {BuvetteSold}  # the buvette's (its Z and its receipts still print)
)
"""What the evening's close stops: the game and the money, as the board's copy signed at the close names them. The
vouchers already issued still print and their lots are handed over (a tombola lot too), the board's copy prints
again, and the settings the next evening starts with (the programme, the price tiers, the PINs, the phones' help),
the card book and the pre-flight still change."""

_KEPT = ("evening", "issued_at", "redeemed_at", "tickets", "last", "after_partie", "closing", "tombola", "buvette")
"""The parts of the state a checkpoint keeps (with the annex rooms' journalled part): what the records make."""
NOT_KEPT = frozenset({"config", "book", "watch", "sold_count", "proposed", "_claimed_since_draw", "rooms"})
"""The rest: the config and the book (their own files), the watch and what it counts (rebuilt from the partie's
start), a ball proposed (a command's), the rooms (their journalled part is ``ROOMS_KEPT``). A new part of the state
is one or the other (``tests/hall/test_checkpoint.py`` says which is missing)."""
ROOMS_KEPT = ("rooms", "ball_seq", "ball")
"""The annex rooms' journalled part; the rest of ``AnnexRooms`` is its links, live, never journalled."""

_REMEMBER = EventHandlers[None]()  # what a record leaves beside the evening (replayed from the first record)
_WATCH = EventHandlers[None]()  # the winner watch kept in step (replayed from the last partie's start)


def open_lines(p: Partie) -> Lines | None:
    """The lines that win the partie's open lot (``None`` once every lot is awarded)."""
    lot = p.current_lot
    return None if lot is None else lines_of(lot.spec)


def open_paid(p: Partie) -> dict[str, set[int]]:
    """The rows paid, per carton, for lots of the open lot's kind: the only ones it looks at (RULES L12a)."""
    lot = p.current_lot
    return {} if lot is None else p.paid_for(lot.kind)


class HallState:
    """The evening (``hall.loto.partie.Evening``), the book, the winner watch and what derives from them."""

    def __init__(self, config: Config, book: CardBook):
        self.config = config
        self.book = book  # immutable: an import replaces it whole
        self.evening = Evening(config.rules.false_claim)
        self.watch: WinnerWatch | None = None
        self.proposed: Proposal | None = None  # an auto-read ball waiting for the speaker (confirm mode)
        self.issued_at: dict[str, str] = {}  # voucher code → when it was issued (the printer prints it)
        self.redeemed_at: dict[str, str] = {}  # voucher code → when its lot was handed over (« déjà échangé »)
        self.sold_count = 0  # kept by every rebuild of the watch (sales, imports, parties)
        self.tickets: dict[int, Record] = {}  # the board's copies not yet printed: request seq → its record
        self.last: Record | None = None  # the last record: its hash is the evening's fingerprint
        self.after_partie: tuple[int, Record] | None = None  # the latest « Démarquez »: its partie and its record
        self.closing: Record | None = None  # the board's copy asked for at the evening's close: its fingerprint
        self._claimed_since_draw: set[str] = set()
        self.rooms = AnnexRooms()  # the salle annexe's rooms and links (RULES L23)
        self.tombola = Tombola()  # the evening's tombola (RULES L24), kept by its own records
        self.buvette = Ledger()  # the buvette's till (hall/buvette/)

    def capture(self) -> dict[str, object]:
        """What the journal made of the state, for a checkpoint (``hall/record/checkpoint.py``), taken just after a
        partie's start: every part the replay rebuilds, not the book (its own file), the watch (rebuilt from the
        start), the links of the annex rooms (never journalled) nor a ball proposed (a command's, not a record's)."""
        rooms = {name: getattr(self.rooms, name) for name in ROOMS_KEPT}
        return {**{name: getattr(self, name) for name in _KEPT}, "rooms": rooms}

    def restore(self, kept: object, seq: int) -> bool:
        """The state as ``capture`` took it (from a checkpoint taken just after a partie's start), then replayed
        with ``replay(tail, from_start=True)``; False, and nothing changed, when ``kept`` is not one taken just after
        the start journalled as record ``seq``."""
        if not isinstance(kept, dict) or set(kept) != {*_KEPT, "rooms"} or not isinstance(kept["last"], Record):
            return False
        if not isinstance(kept["rooms"], dict) or set(kept["rooms"]) != set(ROOMS_KEPT):
            return False
        if (
            kept["last"].seq != seq
            or kept["last"].type != PartieStarted.type
            or not isinstance(kept["evening"], Evening)
        ):
            return False
        for name in _KEPT:
            setattr(self, name, kept[name])
        for name in ROOMS_KEPT:
            setattr(self.rooms, name, kept["rooms"][name])
        self.watch, self._claimed_since_draw = None, set()
        return True

    def replay(self, records: Sequence[Record], from_start: bool = False) -> None:
        """Rebuild the state from the journal; the watch follows only the last partie, event by event.
        ``from_start``: ``records`` are the tail after a partie's start already applied (a checkpoint's): with no
        later start among them, the watch follows that one's partie from its start, as the whole replay would."""
        starts = [i for i, r in enumerate(records) if r.type == PartieStarted.type]
        if from_start and not starts:
            self.rebuild_watch()  # what the partie's start did (its sleepers: none yet)
            for record in records:
                self.apply(record)
            return
        last_start = starts[-1] if starts else len(records)
        for record in records[:last_start]:
            self.evening.apply(record.event, record.seq)
            _REMEMBER.dispatch(record.type, self, record)
        for record in records[last_start:]:
            self.apply(record)
        self.last = records[-1] if records else self.last
        if self.watch is None:
            self.rebuild_watch()

    def apply(self, record: Record) -> None:
        """Move the state on by one durable record (never refuses: the command validated it)."""
        self.evening.apply(record.event, record.seq)
        _REMEMBER.dispatch(record.type, self, record)
        _WATCH.dispatch(record.type, self, record.event)
        self.last = record

    @_REMEMBER.on(VoucherIssued)
    def _issued(self, record: Record) -> None:
        self.issued_at[record.event.code] = record.at

    @_REMEMBER.on(TicketRequested)
    def _ticket_asked(self, record: Record) -> None:
        self.tickets[record.seq] = record
        if record.event.closing:
            self.closing = record

    @_REMEMBER.on(TicketPrinted)
    def _ticket_printed(self, record: Record) -> None:
        self.tickets.pop(record.event.request, None)

    @_REMEMBER.on(PartieCleared, PartieStarted)
    def _partie_ends(self, record: Record) -> None:
        """The fingerprint the projector shows between parties: the « Démarquez » record's, until the next start."""
        p = self.evening.partie
        self.after_partie = (p.number, record) if record.type == PartieCleared.type and p is not None else None

    @_REMEMBER.on(*ROOM_EVENTS)
    def _room(self, record: Record) -> None:
        self.rooms.apply(record)

    @_REMEMBER.on(BallDrawn)
    def _ball_for_rooms(self, record: Record) -> None:
        self.rooms.ball_drawn(record.seq, record.event.number)  # each annex must show it before the next (L23a)

    @_REMEMBER.on(*TOMBOLA_EVENTS)
    def _tombola(self, record: Record) -> None:
        self.tombola.apply(record)

    @_REMEMBER.on(BuvetteProductsSet, BuvetteSold, BuvettePrinted, BuvetteClosed, BuvetteZPrinted)
    def _buvette(self, record: Record) -> None:
        self.buvette.apply(record.event)

    @_REMEMBER.on(VoucherRedeemed)
    def _redeemed(self, record: Record) -> None:
        self.redeemed_at[record.event.code] = record.at

    # ---- the winner watch, kept in step with the state (replayed from the last partie's start) ---------------
    def _watching(self) -> tuple[Partie, WinnerWatch, Lines | None]:
        """The running partie, the watch and the open lot's lines (a ball, an undo or an award has a partie)."""
        p = self.evening.running
        assert p is not None and self.watch is not None
        return p, self.watch, open_lines(p)

    @_WATCH.on(BallDrawn)
    def _after_draw(self, event: BallDrawn) -> None:
        p, watch, lines = self._watching()
        watch.on_draw(event.number, p.current, lines, open_paid(p), self._claimed_since_draw)
        self._claimed_since_draw = set()

    @_WATCH.on(DrawUndone)
    def _after_undo(self, event: DrawUndone) -> None:
        p, watch, lines = self._watching()
        watch.on_undo(lines, open_paid(p))

    @_WATCH.on(ClaimChecked)
    def _after_check(self, event: ClaimChecked) -> None:
        self._claimed_since_draw.add(event.card_id)

    @_WATCH.on(LotAwarded)
    def _after_award(self, event: LotAwarded) -> None:
        p, watch, lines = self._watching()
        watch.refresh(lines, open_paid(p))

    @_WATCH.on(PartieStarted)
    def _after_start(self, event: PartieStarted) -> None:
        self.watch = None  # a new partie: no sleepers carried over
        self.rebuild_watch()

    @_WATCH.on(PartieCleared)
    def _after_clear(self, event: PartieCleared) -> None:
        assert self.watch is not None
        self.watch.refresh(None, {})  # nobody can claim now; the next partie rebuilds the index

    @_WATCH.on(CardsSold, CardsImported)
    def _after_cards(self, event: CardsSold | CardsImported) -> None:
        self.rebuild_watch()

    @_WATCH.on(SaleRecorded)
    def _after_sale(self, event: SaleRecorded) -> None:
        self._sold_moved(event.sale_id, +1, first=len(self.evening.sales.sales) == 1)

    @_WATCH.on(SaleVoided)
    def _after_void(self, event: SaleVoided) -> None:
        self._sold_moved(event.sale_id, -1, first=False)

    def _sold_moved(self, sale_id: int, sign: int, first: bool) -> None:
        """A door sale stays cheap: between parties only the sold count moves (the next partie rebuilds the watch)."""
        if self.evening.running is not None:
            self.rebuild_watch()
            return
        if first or not self.caisse_sells():  # the first sale: cartons never sold stop playing
            self.sold_count = sum(1 for cid in self.book if self.may_play(cid))
            return
        self.sold_count += sign * len(self.evening.sales.sales[sale_id].card_ids)

    def rebuild_watch(self) -> None:
        sold = {cid: card for cid, card in self.book.items() if self.may_play(cid)}
        self.sold_count = len(sold)
        kept = self.watch.sleepers if self.watch is not None and self.evening.running is not None else []
        self.watch = WinnerWatch(sold, self.config.rules.last_number)
        p = self.evening.running
        if p is not None:
            self.watch.reset(p.draws, open_lines(p), open_paid(p))
            self.watch.sleepers = [s for s in kept if s.card_id in sold]

    # ---- questions every desk asks --------------------------------------------------------------------------
    def may_play(self, card_id: str) -> bool:
        """Whether the carton may play: sold per the book, then per the sales journalled tonight."""
        if card_id in self.evening.sold_changes:
            return self.evening.sold_changes[card_id]
        if self.book.records_sales or not self.caisse_sells():
            return self.book.is_sold(card_id)
        return False  # the hall sells through the desk now: a carton never sold does not play

    def players(self) -> PlayersSet:
        """How much the players' phones help: as set on /admin tonight, else ``[players]``."""
        if self.evening.players is not None:
            return self.evening.players
        c = self.config.players
        return PlayersSet(c.help, c.one_to_go, c.phone_call, c.max_cards)

    def caisse_sells(self) -> bool:
        """Whether the caisse alone says which cartons play (unsold ones are refused): a sale was recorded tonight,
        or ``[sales] required``."""
        return self.evening.sales.active or self.config.sales.required

    def sales_recorded(self) -> bool:
        """Whether the hall records sales at all (the book's ``sold`` column, the caisse, or cartons marked by hand):
        when not, every carton plays."""
        return self.book.records_sales or self.caisse_sells() or bool(self.evening.sold_changes)

    def already_sold(self, card_id: str) -> bool:
        """Whether a sale or a mark says the carton is sold (the book's flag when it records sales)."""
        if card_id in self.evening.sold_changes:
            return self.evening.sold_changes[card_id]
        return self.book.records_sales and self.book.is_sold(card_id)

    def running(self) -> Partie:
        """The partie in play; ``Rejected("no_partie")`` between parties, ``"evening_closed"`` after the close."""
        p = self.evening.running
        if p is None:
            raise Rejected("evening_closed" if self.evening.closed else "no_partie")
        return p

    def require_open(self, events: Iterable[object] | None = None) -> None:
        """``Rejected("evening_closed")`` once the evening is closed: for any command, or only when one of
        ``events`` is of a kind the close stops (``CLOSED_TO``: the writer's last word before the journal)."""
        if self.evening.closed and (events is None or any(type(e) in CLOSED_TO for e in events)):
            raise Rejected("evening_closed")

    def partie_spec(self, index: int) -> PartieSpec:
        """The programme's partie ``index`` (from 0): as edited on /admin, else as the config file says."""
        edited = spec_for(index, self.config.programme, self.evening.programme_edit)
        if edited is None:
            return self.config.partie_spec(index)
        return PartieSpec(*edited)
