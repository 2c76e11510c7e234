"""The evening's state, changed only by applying events (RULES L7–L16).

``Evening.apply(event)`` is the one mutator and never refuses: refusals happen before,
in ``hall.door.service``, which checks a command against this state before journalling its event.
Replaying the journal through ``apply`` rebuilds exactly the live state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hall.cartons.sales import SalesLedger
from hall.events import (
    BallDrawn,
    BallRepeated,
    BuvetteClosed,
    BuvettePrinted,
    BuvetteProductsSet,
    BuvetteSold,
    BuvetteZPrinted,
    CallingSet,
    CardsImported,
    CardsSold,
    ClaimAnnounced,
    ClaimChecked,
    CountShown,
    DrawResumed,
    DrawUndone,
    EveningClosed,
    Event,
    EventHandlers,
    Fallback,
    JournalChained,
    Kind,
    LotAwarded,
    LotSpec,
    PartieCleared,
    PartieStarted,
    PinChanged,
    PlayersSet,
    PreflightRun,
    PricesSet,
    PriceTier,
    ProgrammeEdited,
    SalePaid,
    SaleRecorded,
    SaleVoided,
    SetupAnswered,
    TicketPrinted,
    TicketRequested,
    TieAnnounced,
    VoiceTested,
    VoucherIssued,
    VoucherPrinted,
    VoucherRedeemed,
    VoucherReprintRequested,
)
from hall.events.rooms import ROOM_EVENTS
from hall.events.tombola import TOMBOLA_EVENTS
from hall.loto.lots import Prize, prize_at

_APPLY = EventHandlers[None]()  # event type → the Evening's method that applies it

PENDING, OPEN, AWARDED = "pending", "open", "awarded"


@dataclass(slots=True)
class Lot:
    """A lot of the partie and what became of it."""

    kind: Kind
    label: str
    value_eur: float | None = None
    status: str = PENDING
    award: LotAwarded | None = None
    sponsor: str = ""  # a donated lot costs the association nothing (the report's balance)
    row: int | None = None  # a quine on this row only (RULES L21)
    within: int | None = None  # a maxi-bingo's ball limit and its fallback (RULES L20)
    fallback: Fallback | None = None

    @classmethod
    def of(cls, spec: LotSpec) -> Lot:
        return cls(
            spec.kind,
            spec.label,
            spec.value_eur,
            sponsor=spec.sponsor,
            row=spec.row,
            within=spec.within,
            fallback=spec.fallback,
        )

    @property
    def spec(self) -> LotSpec:
        return LotSpec(self.kind, self.label, self.value_eur, self.sponsor, self.row, self.within, self.fallback)

    @property
    def prize(self) -> Prize:
        """What the lot gives: once awarded, the jackpot or the fallback as the ball it was won on says (RULES
        L20); before, the lot as announced."""
        balls = self.award.draw_index + 1 if self.award is not None else 0
        return prize_at(self.spec, balls)


@dataclass(slots=True)
class Partie:
    """One partie: its lots in order, the draw log, the claims on the current ball."""

    number: int
    lots: list[Lot]
    consolation: str
    draws: list[int] = field(default_factory=list)
    current: int | None = 0  # index of the open lot; None once every lot is awarded
    cleared: bool = False
    paused: bool = False  # a claim was announced: no draw until resumed
    held: bool = False  # a lot was just awarded: no draw until resumed (docs L11a)
    tie: TieAnnounced | None = None  # how the tie on the open lot and ball is settled (docs L14c)
    undo_available: bool = False  # one undo per draw: a second undo in a row is refused
    pending: dict[str, ClaimChecked] = field(default_factory=dict)  # valid claims on the current lot and ball
    paid: dict[str, dict[str, set[int]]] = field(default_factory=dict)  # kind → carton → its rows paid (RULES L12a)
    cancelled: set[str] = field(default_factory=set)  # false claimants, when the hall cancels them
    checks: dict[str, list[ClaimChecked]] = field(default_factory=dict)
    undone: list[int] = field(default_factory=list)
    false_claims: int = 0
    carried_on: bool = False  # démarquée with its unwon lots carried: they are the next partie's

    @property
    def last(self) -> int | None:
        return self.draws[-1] if self.draws else None

    @property
    def current_lot(self) -> Lot | None:
        return None if self.current is None else self.lots[self.current]

    @property
    def status(self) -> str:
        """``playing``, ``checking`` (a claim stopped the draw), ``finished`` (every lot awarded) or ``cleared``."""
        if self.cleared:
            return "cleared"
        if self.current is None:
            return "finished"
        if self.paused or self.pending:
            return "checking"
        return "playing"

    def paid_for(self, kind: str) -> dict[str, set[int]]:
        """Per carton, the rows paid for lots of ``kind``: the only ones a lot of that kind looks at (RULES L12a)."""
        return self.paid.get(kind, {})

    def paid_rows(self, card_id: str, kind: str) -> frozenset[int]:
        """The rows of ``card_id`` already paid for lots of ``kind`` in this partie."""
        return frozenset(self.paid_for(kind).get(card_id, ()))

    def drawn_at_last_award(self) -> bool:
        """Whether a lot was awarded on the last ball drawn (then that ball cannot be undone)."""
        return any(lot.award is not None and lot.award.draw_index == len(self.draws) - 1 for lot in self.lots)


@dataclass(slots=True)
class Voucher:
    issued: VoucherIssued
    printed: int = 0  # how many times it came out of the printer
    reprints_requested: int = 0
    redeemed: bool = False


class Evening:
    """Everything the journal says so far: the parties, sales, vouchers."""

    def __init__(self, false_claim: str = "resume") -> None:
        self.false_claim_cancels = false_claim == "cancel_card"  # RULES L15 option
        self.parties: list[Partie] = []
        self.sold_changes: dict[str, bool] = {}
        self.vouchers: dict[str, Voucher] = {}
        self.voucher_serial = 0
        self.last_seq = 0
        self.sales = SalesLedger()
        self.programme_edit: ProgrammeEdited | None = None  # the latest edit of the programme on /admin
        self.pin_hashes: dict[str, PinChanged] = {}
        self.carried: tuple[LotSpec, ...] = ()  # lots left unwon at a démarquez, carried to the next partie
        self.price_tiers: tuple[PriceTier, ...] | None = None  # as edited on /admin (None: the config's)
        self.players: PlayersSet | None = None  # the phones' help as set on /admin (None: the config's)
        self.calling: CallingSet | None = None  # flash, nicknames, pace as set on /admin (None: the config's)
        self.count_shown = (False, 0)  # the ball count on the projector, and the balls drawn tonight then
        self.closed = False  # « Clôturer la soirée »: no ball, partie or sale after it (``evening:closed``)

    @property
    def partie(self) -> Partie | None:
        """The latest partie (running or finished), or ``None`` before the first."""
        return self.parties[-1] if self.parties else None

    @property
    def running(self) -> Partie | None:
        """The partie in play (not yet cleared), or ``None``."""
        p = self.partie
        return p if p is not None and not p.cleared else None

    @property
    def _in_play(self) -> Partie:
        """The running partie, for the events journalled only while one runs (validated before journalling)."""
        p = self.running
        assert p is not None, "an in-play event with no partie running"
        return p

    def apply(self, event: Event, seq: int = 0) -> None:
        """Apply one journalled event; never refuses (validation happened before journalling)."""
        handler = _APPLY.get(event.type)
        if handler is None:
            raise KeyError(f"no handler for the event {event.type!r}")
        handler(self, event)
        self.last_seq = max(self.last_seq, seq)

    @_APPLY.on(PartieStarted)
    def _on_partie_started(self, e: PartieStarted) -> None:
        lots = [Lot.of(spec) for spec in e.lots]
        lots[0].status = OPEN
        self.parties.append(Partie(e.number, lots, e.consolation))
        self.carried = ()

    @_APPLY.on(BallDrawn)
    def _on_draw_ball_drawn(self, e: BallDrawn) -> None:
        p = self._in_play
        p.draws.append(e.number)
        p.pending.clear()  # claims are judged against the new ball (RULES L10)
        p.undo_available = True
        p.held, p.tie = False, None  # (held: a journal written before L11a drew right after an award)

    @_APPLY.on(DrawUndone)
    def _on_draw_undone(self, e: DrawUndone) -> None:
        p = self._in_play
        p.draws.pop()
        p.undone.append(e.number)
        p.pending.clear()
        p.tie = None
        p.undo_available = False

    @_APPLY.on(ClaimAnnounced)
    def _on_claim_announced(self, e: ClaimAnnounced) -> None:
        self._in_play.paused = True

    @_APPLY.on(DrawResumed)
    def _on_draw_resumed(self, e: DrawResumed) -> None:
        p = self._in_play
        p.paused = p.held = False

    @_APPLY.on(ClaimChecked)
    def _on_claim_checked(self, e: ClaimChecked) -> None:
        p = self.partie
        if p is None:
            return
        p.checks.setdefault(e.card_id, []).append(e)
        if e.verdict == "valid":
            p.pending[e.card_id] = e
        elif e.verdict == "incomplete" and not p.cleared:
            p.false_claims += 1
            if self.false_claim_cancels:
                p.cancelled.add(e.card_id)

    @_APPLY.on(LotAwarded)
    def _on_lot_awarded(self, e: LotAwarded) -> None:
        p = self._in_play
        lot = p.lots[e.lot_index]
        lot.status, lot.award = AWARDED, e
        paid = p.paid.setdefault(lot.kind, {})
        for card_id, rows in zip(e.winners, e.rows):
            paid.setdefault(card_id, set()).update(rows)
        p.pending.clear()
        p.paused, p.tie = False, None
        nxt = e.lot_index + 1
        p.current = nxt if nxt < len(p.lots) else None
        p.held = p.current is not None  # the draw waits for the speaker after every award (docs L11a)
        if p.current is not None:
            p.lots[nxt].status = OPEN

    @_APPLY.on(TieAnnounced)
    def _on_tie_announced(self, e: TieAnnounced) -> None:
        self._in_play.tie = e

    @_APPLY.on(PartieCleared)
    def _on_partie_cleared(self, e: PartieCleared) -> None:
        p = self._in_play
        p.cleared, p.paused, p.held, p.carried_on, p.tie = True, False, False, e.carried, None
        p.pending.clear()
        self.carried = tuple(lot.spec for lot in p.lots if lot.status != AWARDED) if e.carried else ()

    @_APPLY.on(CardsSold)
    def _on_cards_sold(self, e: CardsSold) -> None:
        for card_id in e.card_ids:
            self.sold_changes[card_id] = e.sold

    @_APPLY.on(CardsImported)
    def _on_cards_imported(self, e: CardsImported) -> None:
        """The book itself is the Hall's (saved in the data folder); the evening keeps nothing of an import."""

    @_APPLY.on(TicketRequested, TicketPrinted, JournalChained)
    def _on_ticket(self, e: TicketRequested | TicketPrinted | JournalChained) -> None:
        """The board's copies are the hall state's (``HallState.tickets``: they print their record's hash); a
        journal chained at its first open is the record's (``loto-hall verify`` tells it)."""

    @_APPLY.on(EveningClosed)
    def _on_closed(self, e: EveningClosed) -> None:
        self.closed = True

    @_APPLY.on(VoucherIssued)
    def _on_voucher_issued(self, e: VoucherIssued) -> None:
        self.vouchers[e.code] = Voucher(e)
        self.voucher_serial = max(self.voucher_serial, e.serial)

    @_APPLY.on(VoucherPrinted)
    def _on_voucher_printed(self, e: VoucherPrinted) -> None:
        self.vouchers[e.code].printed += 1

    @_APPLY.on(VoucherReprintRequested)
    def _on_voucher_reprint_requested(self, e: VoucherReprintRequested) -> None:
        self.vouchers[e.code].reprints_requested += 1

    @_APPLY.on(VoucherRedeemed)
    def _on_voucher_redeemed(self, e: VoucherRedeemed) -> None:
        self.vouchers[e.code].redeemed = True

    @_APPLY.on(SaleRecorded)
    def _on_sales_sale_recorded(self, e: SaleRecorded) -> None:
        self.sales.record(e)
        for card_id in e.card_ids:
            self.sold_changes[card_id] = True

    @_APPLY.on(SaleVoided)
    def _on_sales_sale_voided(self, e: SaleVoided) -> None:
        self.sales.void(e.sale_id)
        for card_id in self.sales.sales[e.sale_id].card_ids:
            self.sold_changes[card_id] = False

    @_APPLY.on(SalePaid)
    def _on_sales_sale_paid(self, e: SalePaid) -> None:
        self.sales.pay(e.sale_id, e.payment)

    @_APPLY.on(PricesSet)
    def _on_sales_prices_set(self, e: PricesSet) -> None:
        self.price_tiers = tuple(e.tiers)

    @_APPLY.on(ProgrammeEdited)
    def _on_programme_edited(self, e: ProgrammeEdited) -> None:
        self.programme_edit = e

    @_APPLY.on(PinChanged)
    def _on_auth_pin_changed(self, e: PinChanged) -> None:
        self.pin_hashes[e.role] = e

    @_APPLY.on(PlayersSet)
    def _on_players_set(self, e: PlayersSet) -> None:
        self.players = e

    @_APPLY.on(CallingSet)
    def _on_calling_set(self, e: CallingSet) -> None:
        self.calling = e

    @_APPLY.on(CountShown)
    def _on_count_shown(self, e: CountShown) -> None:
        self.count_shown = (e.shown, sum(len(p.draws) for p in self.parties))

    @_APPLY.on(*ROOM_EVENTS)
    def _on_room(self, e: Event) -> None:
        """The salle annexe's records: its rooms are the hall state's (a claim there is also a ``ClaimAnnounced``)."""

    @_APPLY.on(BallRepeated, VoiceTested, PreflightRun, SetupAnswered)
    def _on_said(self, e: BallRepeated | VoiceTested | PreflightRun | SetupAnswered) -> None:
        """Said again on the projector, the pre-flight or a setup answer kept: the evening's state does not change."""

    @_APPLY.on(*TOMBOLA_EVENTS)
    def _on_tombola(self, e: object) -> None:
        """The tombola's own (hall/tombola/model.py keeps it): the cartons' evening does not change."""

    @_APPLY.on(BuvetteProductsSet, BuvetteSold, BuvettePrinted, BuvetteClosed, BuvetteZPrinted)
    def _on_buvette(self, e: object) -> None:
        """The buvette's till: its own ledger (``HallState.buvette``), the loto's evening does not change."""

    def winners(self) -> set[str]:
        """Every carton that won a lot or a consolation tonight."""
        won = {cid for p in self.parties for lot in p.lots if lot.award for cid in lot.award.winners}
        won |= {v.issued.card_id for v in self.vouchers.values()}
        return won

    def unprinted(self) -> list[tuple[VoucherIssued, bool]]:
        """Vouchers waiting for the printer, oldest first, each with ``duplicate`` (a reprint)."""
        out = []
        for v in self.vouchers.values():
            wanted = 1 + v.reprints_requested
            for k in range(v.printed, wanted):
                out.append((v.issued, k > 0))
        return sorted(out, key=lambda item: item[0].serial)

    def snapshot(self) -> dict:
        """A plain comparable picture of the whole state (replay equals live)."""

        def partie_dict(p: Partie) -> dict:
            return {
                "number": p.number,
                "draws": list(p.draws),
                "current": p.current,
                "cleared": p.cleared,
                "paused": p.paused,
                "held": p.held,
                "tie": p.tie,
                "undo_available": p.undo_available,
                "pending": sorted(p.pending),
                "paid": {kind: {k: sorted(v) for k, v in sorted(by.items())} for kind, by in sorted(p.paid.items())},
                "cancelled": sorted(p.cancelled),
                "checks": {k: [c.verdict for c in v] for k, v in sorted(p.checks.items())},
                "lots": [(lot.spec, lot.status, lot.award) for lot in p.lots],
                "undone": list(p.undone),
                "false_claims": p.false_claims,
                "consolation": p.consolation,
                "carried_on": p.carried_on,
            }

        return {
            "parties": [partie_dict(p) for p in self.parties],
            "sold": dict(sorted(self.sold_changes.items())),
            "vouchers": {
                c: (v.issued, v.printed, v.reprints_requested, v.redeemed) for c, v in sorted(self.vouchers.items())
            },
            "last_seq": self.last_seq,
            "sales": {
                i: (s.card_ids, s.cents, s.payment, s.paid, s.voided, s.offered_cents, s.session)
                for i, s in sorted(self.sales.sales.items())
            },
            "price_tiers": self.price_tiers,
            "carried": self.carried,
            "programme_edit": self.programme_edit,
        }
