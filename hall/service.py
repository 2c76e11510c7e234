"""``Hall``: the one entry point for every command, from any input (ARCHITECTURE "one-writer rule").

Under one lock: validate against the current state → append the event to the journal (durable)
→ apply it to the in-memory state → publish it to subscribers. Nobody sees an event that is not
on disk. On start the state is rebuilt by replaying the journal.
"""
from __future__ import annotations

import dataclasses
import gc
import hashlib
import logging
import random
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from hall import programme as programme_rules
from hall import sales as sales_rules
from hall.cardbook import CardBook
from hall.cards import MAX_CLAIM_TEXT, Card, check_card_id, claimable_card_id, normalize_card_id, parse_number
from hall.claims import verify
from hall.config import Config, PartieSpec
from hall.errors import InvalidNumber, Rejected
from hall.events import (
    BallDrawn,
    CardsImported,
    CardsSold,
    ClaimAnnounced,
    ClaimChecked,
    DrawResumed,
    DrawUndone,
    LotAwarded,
    LotSpec,
    PartieCleared,
    PartieStarted,
    PinChanged,
    PricesSet,
    ProgrammeEdited,
    ProgrammePartie,
    Record,
    SalePaid,
    SaleRecorded,
    SaleVoided,
    VoucherIssued,
    VoucherPrinted,
    VoucherRedeemed,
    VoucherReprintRequested,
)
from hall.journal import Journal
from hall.lots import LOT_KINDS
from hall.lots_played import lot_changes, lots_to_play, next_lots
from hall.partie import Evening, Partie
from hall.ports import Clock, NoticeSubscriber, Rng, Subscriber, utc_now
from hall.report import EveningReport, build_report, with_year
from hall.rights import EVERYTHING, may
from hall.snapshots import (
    AwardResult,
    BasketCheck,
    CardState,
    ClaimResult,
    DeviceStatus,
    HallSnapshot,
    KeyOutcome,
    LotRef,
    LotState,
    NextPartie,
    PartieState,
    PrintJob,
    PriorCheck,
    ProgrammeState,
    Proposal,
    Redemption,
    SpeakerSnapshot,
    WifiInfo,
    device_status,
)
from hall.ties import settle
from hall.vouchers import check_code, make_code, near_codes, normalize_code
from hall.watch import WinnerWatch

log = logging.getLogger("loto-hall.hall")


def _deliver(fn: Callable[..., None], *args: Any) -> None:
    """Hand news to one subscriber; its failure is logged, never turned into a refusal of what is already on disk."""
    try:
        fn(*args)
    except Exception:
        log.exception("subscriber %r failed on %s", fn, args[0] if args else "")


class Hall:
    """The evening's application service. Thread-safe: every public method takes the one lock, which is private.

    ``evening``, ``watch``, ``book`` and ``journal`` are the core's own: the rest of the program reads through
    the snapshot methods (immutable values) and changes through the commands, as ``hall.ports.HallPort`` names them.
    """

    def __init__(self, config: Config, journal: Journal, book: CardBook, voucher_secret: bytes = b"",
                 clock: Clock = utc_now, rng: Rng | None = None):
        self.config = config
        self.journal = journal
        self.book = book
        self._secret = voucher_secret
        self._clock = clock
        self._rng = rng if rng is not None else random.SystemRandom()
        self._lock = threading.RLock()
        self._subscribers: list[Subscriber] = []
        self._notice_subscribers: list[NoticeSubscriber] = []
        self._devices: dict[str, DeviceStatus] = {}
        self._proposed: Proposal | None = None      # an auto-read ball waiting for the speaker (confirm mode)
        self._issued_at: dict[str, str] = {}        # voucher code → when it was issued (the printer prints it)
        self._sold_count = 0                        # kept by every rebuild of the watch (sales, imports, parties)
        self.evening = Evening(config.rules.false_claim)
        self._claimed_since_draw: set[str] = set()
        self.watch: WinnerWatch | None = None
        self._replay(list(journal.records()))

    def _replay(self, records: list[Record]) -> None:
        """Rebuild the state from the journal; the watch follows only the last partie, event by event."""
        starts = [i for i, r in enumerate(records) if r.type == PartieStarted.type]
        last_start = starts[-1] if starts else len(records)
        for record in records[:last_start]:
            self.evening.apply(record.event, record.seq)
            self._note(record)
        for record in records[last_start:]:
            self._note(record)
            self.evening.apply(record.event, record.seq)
            self._after(record.event)
        if self.watch is None:
            self._rebuild_watch()

    # ---- plumbing -------------------------------------------------------------------------------
    def subscribe(self, fn: Subscriber) -> Callable[[], None]:
        """Call ``fn(record)`` after every durable event; returns the function that unsubscribes."""
        with self._lock:
            self._subscribers.append(fn)
        return lambda: self._subscribers.remove(fn) if fn in self._subscribers else None

    def subscribe_notices(self, fn: NoticeSubscriber) -> None:
        """Call ``fn(name, payload)`` for passing news that is not journalled (device status, refused balls)."""
        with self._lock:
            self._notice_subscribers.append(fn)

    def notify(self, name: str, payload: Any) -> None:
        """Publish a passing notice (``device:status_changed``, ``draw:refused``…)."""
        with self._lock:
            for fn in list(self._notice_subscribers):
                _deliver(fn, name, payload)

    def set_device_status(self, device: str, status: str, detail: str = "", *, code: str = "",
                          params: dict[str, object] | None = None) -> None:
        """Record and announce a device's state (``ok``, ``degraded``, ``absent``…) as a message ``code`` and its
        ``params`` (translated in display/), with ``detail`` the French sentence for logs and STATUS=."""
        with self._lock:
            entry = device_status(device, status, code, detail, **(params or {}))
            if not entry.same_as(self._devices.get(device)):
                entry = DeviceStatus(entry.device, entry.state, entry.code, entry.params, entry.detail, self._clock())
                self._devices[device] = entry
                self.notify("device:status_changed", entry)

    def device(self, name: str) -> DeviceStatus | None:
        """A device's last published state, or ``None`` when it never reported."""
        with self._lock:
            return self._devices.get(name)

    def devices(self) -> tuple[DeviceStatus, ...]:
        """Every device's last published state, in order of first report."""
        with self._lock:
            return tuple(self._devices.values())

    def _allow(self, command: str, role: str) -> None:
        if not may(role, command):
            raise Rejected("forbidden", command=command, role=role)

    def _note(self, record: Record) -> None:
        if record.type == VoucherIssued.type:
            self._issued_at[record.event.code] = record.at

    def _commit(self, event: Any, role: str, *more: Any) -> Record:
        """Journal ``event`` (and ``more``, in the same transaction), apply, publish; returns the first record."""
        records = self.journal.append_all([event, *more], role, self._clock())
        for record in records:
            self.evening.apply(record.event, record.seq)
            self._note(record)
            self._after(record.event)
        for record in records:
            for fn in list(self._subscribers):
                _deliver(fn, record)
        return records[0]

    def _after(self, event: Any) -> None:
        """Keep the derived winner watch in step with the state (one handler per event type, or none)."""
        handler = self._AFTER.get(event.type)
        if handler is not None:
            handler(self, event)

    def _after_draw(self, event: BallDrawn) -> None:
        p = self.evening.running
        assert p is not None and self.watch is not None   # a ball is drawn only in a running partie
        lot = p.current_lot
        self.watch.on_draw(event.number, p.current, lot.kind if lot else None, p.paid, self._claimed_since_draw)
        self._claimed_since_draw = set()

    def _after_undo(self, event: DrawUndone) -> None:
        p = self.evening.running
        assert p is not None and self.watch is not None
        lot = p.current_lot
        self.watch.on_undo(lot.kind if lot else None, p.paid)

    def _after_check(self, event: ClaimChecked) -> None:
        self._claimed_since_draw.add(event.card_id)

    def _after_award(self, event: LotAwarded) -> None:
        p = self.evening.running
        assert p is not None and self.watch is not None
        lot = p.current_lot
        self.watch.refresh(lot.kind if lot else None, p.paid)

    def _after_start(self, event: PartieStarted) -> None:
        self.watch = None       # a new partie: no sleepers carried over
        self._rebuild_watch()

    def _after_clear(self, event: PartieCleared) -> None:
        assert self.watch is not None
        self.watch.refresh(None, {})   # nobody can claim now; the next partie rebuilds the index

    def _after_cards(self, event: CardsSold | CardsImported) -> None:
        self._rebuild_watch()

    def _after_sale(self, event: SaleRecorded | SaleVoided) -> None:
        """A door sale stays cheap: between parties only the sold count moves (the next partie rebuilds the watch)."""
        if self.evening.running is not None:
            self._rebuild_watch()
            return
        first = isinstance(event, SaleRecorded) and len(self.evening.sales.sales) == 1
        if first or not self.sales_recorded():      # the first sale: cartons never sold stop playing
            self._sold_count = sum(1 for cid in self.book if self.is_sold(cid))
            return
        cards = self.evening.sales.sales[event.sale_id].card_ids
        self._sold_count += len(cards) if isinstance(event, SaleRecorded) else -len(cards)

    _AFTER: dict[str, Callable[[Hall, Any], None]] = {
        BallDrawn.type: _after_draw, DrawUndone.type: _after_undo, ClaimChecked.type: _after_check,
        LotAwarded.type: _after_award, PartieStarted.type: _after_start, PartieCleared.type: _after_clear,
        CardsSold.type: _after_cards, CardsImported.type: _after_cards,
        SaleRecorded.type: _after_sale, SaleVoided.type: _after_sale,
    }

    def _rebuild_watch(self) -> None:
        sold = {cid: card for cid, card in self.book.items() if self.is_sold(cid)}
        self._sold_count = len(sold)
        kept = self.watch.sleepers if self.watch is not None and self.evening.running is not None else []
        self.watch = WinnerWatch(sold, self.config.rules.last_number)
        p = self.evening.running
        if p is not None:
            lot = p.current_lot
            self.watch.reset(p.draws, lot.kind if lot else None, p.paid)
            self.watch.sleepers = [s for s in kept if s.card_id in sold]

    def is_sold(self, card_id: str) -> bool:
        """Whether the carton may play: sold per the book, then per the sales journalled tonight."""
        if card_id in self.evening.sold_changes:
            return self.evening.sold_changes[card_id]
        if self.book.records_sales or not self.sales_recorded():
            return self.book.is_sold(card_id)
        return False      # the hall sells through the desk now: a carton never sold does not play

    def _running(self) -> Partie:
        p = self.evening.running
        if p is None:
            raise Rejected("no_partie")
        return p

    # ---- the partie ------------------------------------------------------------------------------
    def start_partie(self, lots: Sequence[LotSpec] | None = None, consolation: str | None = None,
                     *, role: str, session: str = "") -> Record:
        """Start the next partie with the programme's lots (carried ones first, values and donors kept), or with
        ``lots`` as the speaker changed them on the spot (kept beside the programme's for the report)."""
        with self._lock:
            self._allow("start_partie", role)
            if self.evening.running is not None:
                raise Rejected("partie_running", number=self.evening.running.number)
            spec = self.partie_spec(len(self.evening.parties))
            planned = next_lots(spec.lots, self.evening.carried)
            played = lots_to_play(planned, lots)
            for lot in played:
                if lot.kind not in LOT_KINDS:
                    raise Rejected("bad_lot", kind=lot.kind)
            if not played:
                raise Rejected("bad_lot", kind=None)
            changed = planned if lot_changes(planned, played) else ()
            event = PartieStarted(len(self.evening.parties) + 1, played, consolation or spec.consolation, changed,
                                  str(session)[:40])
            return self._commit(event, role)

    def draw(self, number: Any, *, role: str, source: str = "console") -> Record:
        """Draw ``number``; raises ``Rejected`` (``out_of_range``, ``already_drawn``, ``no_partie``, ``locked``…)."""
        with self._lock:
            self._allow("draw", role)
            n = self._check_drawable(number)
            p = self._running()
            if self._proposed is not None and self._proposed.number == n:
                self._proposed = None
            return self._commit(BallDrawn(n, len(p.draws), source), role)

    def _check_drawable(self, number: Any) -> int:
        try:
            n = parse_number(number)
        except InvalidNumber as exc:
            raise Rejected("out_of_range", number=number, why=str(exc)) from None
        p = self._running()
        if p.current is None:
            raise Rejected("partie_finished", number=p.number)
        if p.paused:
            raise Rejected("locked", number=n)
        if p.pending:
            raise Rejected("claims_pending", cards=sorted(p.pending))
        if n in p.draws:
            raise Rejected("already_drawn", number=n, index=p.draws.index(n))
        return n

    def propose(self, number: Any, *, role: str, source: str = "ball_machine") -> Proposal:
        """Hold an auto-read ball for the speaker's confirmation (confirm mode); same refusals as ``draw``."""
        with self._lock:
            self._allow("propose", role)
            n = self._check_drawable(number)
            self._proposed = Proposal(n, source, self._clock())
            self.notify("draw:proposed", self._proposed)
            return self._proposed

    def ball_read(self, number: int, *, source: str, confirm: bool) -> Record | Proposal:
        """The ball machine read ``number``: drawn at once, or held for the speaker when ``confirm``."""
        if confirm:
            return self.propose(number, role="device", source=source)
        return self.draw(number, role="device", source=source)

    def key_typed(self, kind: str, number: int | None = None, *, source: str = "keypad") -> KeyOutcome:
        """A speaker's key on a keypad (``draw`` with its number, ``confirm``, ``reject``, ``undo``, ``claim``).

        The hall decides what a typed number means: with a ball held for confirmation it is the speaker's
        correction of it (a misread 13 that was an 18), else a draw. Raises ``Rejected`` as the command would.
        """
        with self._lock:
            held = self._proposed is not None
            if kind == "draw" and held:
                return KeyOutcome("confirm", self.confirm_proposed(number, role="speaker", source="keypad").seq)
            if kind == "draw":
                return KeyOutcome("draw", self.draw(number, role="speaker", source=source).seq)
            if kind == "confirm" and held:
                return KeyOutcome("confirm", self.confirm_proposed(role="speaker").seq)
            if kind == "reject" and held:
                self.reject_proposed(role="speaker")
                return KeyOutcome("reject")
            if kind == "undo":
                return KeyOutcome("undo", self.undo(role="speaker").seq)
            if kind == "claim":
                record = self.announce_claim(role="speaker", source=source)
                return KeyOutcome("claim", record.seq if record else None)
            return KeyOutcome("none")

    def drawable_numbers(self) -> tuple[int, ...]:
        """The numbers a draw would accept now; empty while the hall may not draw (no partie, a claim, a held ball)."""
        with self._lock:
            p = self.evening.running
            if p is None or p.current is None or p.paused or p.pending or self._proposed is not None:
                return ()
            drawn = set(p.draws)
            return tuple(n for n in range(1, 91) if n not in drawn)

    def confirm_proposed(self, number: Any = None, *, role: str, source: str = "console") -> Record:
        """Draw the held ball, or the speaker's correction of it (a misread 13 that was an 18) typed on ``source``."""
        with self._lock:
            self._allow("draw", role)
            if self._proposed is None:
                raise Rejected("nothing_proposed")
            chosen = self._proposed.number if number is None else number
            source = self._proposed.source if number is None else source
            record = self.draw(chosen, role=role, source=source)
            self._proposed = None
            return record

    def reject_proposed(self, *, role: str) -> None:
        """Drop the held ball (read by mistake)."""
        with self._lock:
            self._allow("draw", role)
            if self._proposed is not None:
                self._proposed = None
                self.notify("draw:proposed", None)

    def undo(self, *, role: str) -> Record:
        """Cancel the last draw; refused after an award on it, before any draw, or twice in a row."""
        with self._lock:
            self._allow("undo", role)
            p = self._running()
            if not p.draws:
                raise Rejected("nothing_to_undo")
            if not p.undo_available:
                raise Rejected("already_undone")
            if p.drawn_at_last_award():
                raise Rejected("undo_after_award", number=p.last)
            return self._commit(DrawUndone(p.draws[-1], len(p.draws) - 1), role)

    def announce_claim(self, *, role: str, source: str = "console") -> Record | None:
        """Stop the draw for a claim (RULES L10); ``None`` if already stopped."""
        with self._lock:
            self._allow("announce_claim", role)
            p = self._running()
            if p.current is None:
                raise Rejected("partie_finished", number=p.number)
            if p.paused:
                return None
            return self._commit(ClaimAnnounced(source), role)

    def resume(self, *, role: str) -> Record:
        """Let the draw go on after a false claim; refused while a valid claim waits for its lot."""
        with self._lock:
            self._allow("resume", role)
            p = self._running()
            if p.pending:
                raise Rejected("claims_pending", cards=sorted(p.pending))
            if not p.paused:
                raise Rejected("not_paused")
            return self._commit(DrawResumed(), role)

    def check_claim(self, card_id: str, *, role: str) -> ClaimResult:
        """Check a claimed carton (the check is journalled); returns the verdict with the carton as it stands."""
        with self._lock:
            self._allow("check_claim", role)
            if not claimable_card_id(card_id):      # the API, the scanner and the keypad alike: never journalled
                raise Rejected("bad_card_id", card_id=str(card_id)[:MAX_CLAIM_TEXT])
            cid = self.book.resolve(card_id)       # typed leniently: no dash, lower case, spaces, O/I for 0/1
            p = self.evening.partie
            before = tuple(PriorCheck(c.verdict, c.last, c.lot_index) for c in (p.checks.get(cid, []) if p else []))
            lot = p.current_lot if p is not None and not p.cleared else None
            card = self.book.get(cid)
            character_ok = None
            suggestions: tuple[str, ...] = ()
            if lot is None or p is None:
                event = ClaimChecked(cid, "closed", None, None, p.last if p else None)
            elif card is None:
                event = ClaimChecked(cid, "unknown_card", p.current, lot.kind, p.last)
                character_ok = check_card_id(cid)
                suggestions = tuple(self.book.near(cid))   # a near miss: "vérifiez le numéro", never a refusal
            elif not self.is_sold(cid):
                event = ClaimChecked(cid, "unsold_card", p.current, lot.kind, p.last)
            elif cid in p.cancelled:
                event = ClaimChecked(cid, "cancelled_card", p.current, lot.kind, p.last)
            else:
                v = verify(card, p.draws, lot.kind, self.config.rules.last_number, p.paid.get(cid, set()))
                event = ClaimChecked(cid, v.kind, p.current, lot.kind, v.last, v.rows, v.complete_rows,
                                     v.missing, v.reason)
            record = self._commit(event, role)
            ref = None if lot is None or event.lot_index is None else LotRef(event.lot_index, lot.kind, lot.label)
            return ClaimResult(event, ref, before, record.seq, character_ok,
                               None if event.verdict == "unknown_card" else self._card_state(cid), suggestions)

    def award(self, *, role: str, same_player: Sequence[Sequence[str]] = (), tie_break: Mapping[str, Any] | None = None,
              share: bool = False, wins: str | None = None, draw: bool = False) -> AwardResult:
        """Award the open lot to the valid claims on the last ball, with a tie-break when several (RULES L13–L14).

        ``same_player`` groups cartons held by one player: such a group is one claimant (L13), drawing one
        tie-break number and winning with its first carton. For a tie the speaker may give ``tie_break`` (the
        numbers drawn by hand in the hall, carton → 1–90), ``share``, or ``draw`` (the hall draws); else
        ``[rules] ties`` decides. Who wins a draw is the rule's: ``wins`` may only repeat it.
        """
        with self._lock:
            self._allow("award", role)
            p = self._running()
            if p.current is None or not p.pending:
                raise Rejected("no_valid_claim")
            claimants = self._claimants(p, same_player)
            lot_index = p.current
            outcome = settle([c.card_id for c in claimants], self.config.rules.ties, self._rng, typed=tie_break,
                             share=share, wins=wins, draw=draw, resolve=self.book.resolve)
            winners = tuple(c for w in outcome.winners for c in claimants if c.card_id == w)
            drawn, consolation, shared = outcome.tie_break, outcome.consolation, outcome.shared
            event = LotAwarded(lot_index, tuple(w.card_id for w in winners), tuple(w.rows for w in winners),
                               drawn, consolation, p.draws[-1], len(p.draws) - 1, shared, outcome.mode)
            lot = p.lots[lot_index]
            serial = self.evening.voucher_serial
            vouchers = []
            for cid, is_consolation in [(c, False) for c in event.winners] + [(c, True) for c in consolation]:
                serial += 1
                label = p.consolation if is_consolation else lot.label
                vouchers.append(VoucherIssued(make_code(self._secret, serial), serial, p.number, lot_index, lot.kind,
                                              label, cid, is_consolation, shared and not is_consolation))
            self._commit(event, role, *vouchers)   # the award and its vouchers: all on disk, or none
            return AwardResult(event, LotRef(lot_index, lot.kind, lot.label), tuple(v.code for v in vouchers))

    @staticmethod
    def _claimants(p: Partie, same_player: Sequence[Sequence[str]]) -> list[ClaimChecked]:
        """One valid claim per claimant: a player's several valid cartons count once (its first one plays)."""
        grouped: dict[str, str] = {}
        for group in same_player:
            ids = [normalize_card_id(c) for c in group if isinstance(c, str)]
            stray = [c for c in ids if c not in p.pending]
            if stray:
                raise Rejected("not_a_valid_claim", cards=stray)
            for cid in ids:
                if cid in grouped:
                    raise Rejected("card_in_two_groups", card_id=cid)
                grouped[cid] = ids[0]
        return [claim for cid, claim in p.pending.items() if grouped.get(cid, cid) == cid]

    def clear(self, *, role: str, force: bool = False, carry: bool = False) -> Record:
        """« Démarquez ! »: end the partie (RULES L16); with lots left, only when ``force`` is given, and with
        ``carry`` those lots are played in the next partie (``carry`` alone means both)."""
        with self._lock:
            self._allow("clear", role)
            p = self._running()
            if p.pending:
                raise Rejected("claims_pending", cards=sorted(p.pending))
            if p.current is not None and not (force or carry):
                raise Rejected("lots_remaining", lots=len(p.lots) - p.current,
                               labels=[lot.label for lot in p.lots[p.current:]])
            if carry and p.current is None:
                raise Rejected("nothing_to_carry")
            return self._commit(PartieCleared(p.number, forced=p.current is not None, carried=carry), role)

    # ---- cartons ---------------------------------------------------------------------------------
    def set_sold(self, card_ids: Iterable[str], sold: bool = True, *, role: str, session: str = "") -> Record:
        """Mark cartons sold (or handed back) by hand; unknown ids are refused, naming them.

        Once the caisse records sales (or with ``[sales] required``) only the admin may, and never to unsell a
        carton a live sale holds (void the sale): the desk cannot change what the caisse sold. Every mark is in
        the report."""
        with self._lock:
            self._allow("set_sold", role)
            ids = tuple(dict.fromkeys(normalize_card_id(c) for c in card_ids))
            unknown = [c for c in ids if c not in self.book]
            if unknown:
                raise Rejected("unknown_card", cards=unknown[:20], count=len(unknown))
            if self.sales_recorded() and role not in EVERYTHING:
                raise Rejected("sold_by_caisse")
            held = [c for c in ids if c in self.evening.sales.holder]
            if held and not sold:
                sales = sorted({self.evening.sales.holder[c] for c in held})
                raise Rejected("held_by_sale", cards=held[:20], count=len(held), sales=sales[:20],
                               names=", ".join(held[:5]) + (f" (+{len(held) - 5})" if len(held) > 5 else ""),
                               numbers=", ".join(map(str, sales[:10])))
            return self._commit(CardsSold(ids, bool(sold), str(session)[:40]), role)

    def adopt_cards(self, incoming: CardBook, *, role: str) -> Record:
        """Add ``incoming``'s cartons to the book (same ID: the new carton), save it to the data folder, journal it.

        The one way a new card book comes in (command line, admin page, demo)."""
        with self._lock:
            self._allow("import_cards", role)
            merged = self.book.merged(incoming)
            self.journal.offload(lambda: merged.save(self.config.data_dir))   # its fsync in a real thread under gevent
            digest = hashlib.sha256((self.config.data_dir / "cards.csv").read_bytes()).hexdigest()
            return self.replace_book(merged, digest, len(incoming), role=role)

    def replace_book(self, book: CardBook, sha256: str, added: int, *, role: str) -> Record:
        """Adopt a new card book (already saved to the data folder by the caller) and journal the change."""
        with self._lock:
            self._allow("import_cards", role)
            self.book = book
            record = self._commit(CardsImported(added, len(book), sha256), role)
            gc.freeze()   # the new book lives all evening: keep full collections from walking it (see runtime)
            return record

    # ---- vouchers --------------------------------------------------------------------------------
    def redeem(self, code: str, *, role: str) -> Redemption:
        """Hand a prize over for a voucher: ``unknown_voucher`` (forged, altered, never issued), ``already_redeemed``."""
        with self._lock:
            self._allow("redeem", role)
            code = normalize_code(code) if isinstance(code, str) else ""
            voucher = self.evening.vouchers.get(code)
            if check_code(self._secret, code) is None or voucher is None:
                raise Rejected("unknown_voucher", code=code, suggestions=near_codes(code, self.evening.vouchers))
            if voucher.redeemed:
                raise Rejected("already_redeemed", code=code)
            record = self._commit(VoucherRedeemed(code), role)
            return Redemption(voucher.issued, record.seq)

    def voucher_printed(self, code: str, duplicate: bool = False, *, role: str) -> Record:
        """Record that the printer took a voucher (the print queue calls this after each success)."""
        with self._lock:
            self._allow("voucher_printed", role)
            if code not in self.evening.vouchers:
                raise Rejected("unknown_voucher", code=code)
            return self._commit(VoucherPrinted(code, duplicate), role)

    def request_reprint(self, code: str, *, role: str) -> Record:
        """Ask for a DUPLICATA of a voucher."""
        with self._lock:
            self._allow("reprint", role)
            code = normalize_code(code)
            if code not in self.evening.vouchers:
                raise Rejected("unknown_voucher", code=code)
            return self._commit(VoucherReprintRequested(code), role)

    def unprinted(self) -> list[tuple[VoucherIssued, bool]]:
        """Vouchers still to print (after a restart, or while the printer was away)."""
        with self._lock:
            return self.evening.unprinted()

    def vouchers_to_print(self) -> tuple[PrintJob, ...]:
        """What the printer owes, oldest first: each voucher with its lot as it stands and when it was issued."""
        with self._lock:
            jobs = []
            for issued, duplicate in self.evening.unprinted():
                label, value = issued.lot_label, None
                parties = self.evening.parties
                if 0 < issued.partie <= len(parties) and issued.lot_index < len(parties[issued.partie - 1].lots):
                    lot = parties[issued.partie - 1].lots[issued.lot_index]
                    label, value = lot.label, lot.value_eur
                jobs.append(PrintJob(issued, duplicate, label, value, self._issued_at.get(issued.code, "")))
            return tuple(jobs)

    # ---- snapshots: immutable pictures for readers -------------------------------------------------
    def _partie_state(self, p: Partie) -> PartieState:
        running = not p.cleared
        return PartieState(
            p.number, tuple(LotState(lot.kind, lot.label, lot.status, lot.value_eur, lot.award) for lot in p.lots),
            p.current, p.consolation, tuple(p.draws), p.cleared, p.status, running and p.paused,
            tuple(p.pending.values()) if running else (),
            bool(running and p.undo_available and p.draws and not p.drawn_at_last_award()))

    def _snapshot(self) -> HallSnapshot:
        ev = self.evening
        p = ev.partie
        played = len(ev.parties)
        nxt = None
        if ev.running is None:
            spec = self.partie_spec(played)
            nxt = NextPartie(played + 1, PartieSpec(next_lots(spec.lots, ev.carried), spec.consolation))
        winners = tuple(w for w in (self._card_state(c.card_id) for c in ev.running.pending.values())
                        if w is not None) if ev.running is not None else ()
        net = self.config.network
        wifi = WifiInfo(net.ssid, net.password, self.config.hall_url) if net.ssid else None
        return HallSnapshot(ev.last_seq, self.config.hall.name, self.config.hall.prices,
                            None if p is None else self._partie_state(p), nxt, played, wifi, winners)

    def snapshot(self) -> HallSnapshot:
        """The evening as every screen sees it, with the ``seq`` of the last record it includes."""
        with self._lock:
            return self._snapshot()

    def speaker_snapshot(self) -> SpeakerSnapshot:
        """The speaker's picture: the public one plus claims, the winner watch, devices, sales and printing.

        Cheap under the lock: the sold count is kept up to date by sales, never counted here."""
        with self._lock:
            p = self.evening.running
            watch = self.watch
            assert watch is not None   # built by __init__, rebuilt at once by each partie start
            checks: tuple[ClaimChecked, ...] = ()
            if p is not None:
                checks = tuple(c for cs in p.checks.values() for c in cs)[-30:]
            return SpeakerSnapshot(self._snapshot(), tuple(watch.candidates[:50]), len(watch.candidates),
                                   tuple(watch.sleepers[-50:]), checks, tuple(self._devices.values()),
                                   self._proposed, self._sold_count, len(self.evening.unprinted()))

    def _card_state(self, card_id: str) -> CardState | None:
        card = self.book.get(card_id)
        if card is None:
            return None
        p = self.evening.partie
        drawn = frozenset(p.draws) if p is not None and not p.cleared else frozenset()
        last = p.last if p is not None and not p.cleared else None
        grid = tuple(tuple(row) for row in card.grid(self.config.cards.columns))
        return CardState(card_id, card, grid, drawn, last, self.is_sold(card_id))

    def card(self, card_id: str) -> CardState | None:
        """A carton against the latest partie (drawn numbers, last number, sold), or ``None`` if unknown."""
        with self._lock:
            return self._card_state(normalize_card_id(card_id))

    def cards(self, series: str | None = None) -> tuple[tuple[str, Card], ...]:
        """The book's cartons (of one ``series`` when given), in book order."""
        with self._lock:
            book = self.book
        # the book is immutable: a new one replaces it whole, so it is read outside the lock
        return tuple((cid, card) for cid, card in book.items() if not series or cid.startswith(series + "-"))

    def sales(self) -> tuple[sales_rules.Sale, ...]:
        """Every sale of the evening, oldest first (copies: the ledger stays the hall's)."""
        with self._lock:
            return tuple(dataclasses.replace(sale) for sale in self.evening.sales.sales.values())

    def sale(self, sale_id: int) -> sales_rules.Sale | None:
        """One sale (a copy), or ``None``."""
        with self._lock:
            sale = self.evening.sales.sales.get(sale_id)
            return None if sale is None else dataclasses.replace(sale)

    def sales_totals(self) -> dict:
        """Cartons sold and the takings in cents, by payment, seller and partie (``hall.sales.totals``)."""
        with self._lock:
            return self.evening.sales.totals()

    def programme_state(self) -> ProgrammeState:
        """The parties played (their lots as played) and the latest edit of the programme."""
        with self._lock:
            played = tuple(PartieSpec(tuple(lot.spec for lot in p.lots), p.consolation) for p in self.evening.parties)
            return ProgrammeState(played, self.evening.programme_edit, self.evening.running is not None)

    def sales_recorded_anyhow(self) -> bool:
        """Whether the hall keeps sales at all (the book's ``sold`` column, the desk, or set-sold ranges)."""
        with self._lock:
            return self.book.records_sales or self.sales_recorded() or bool(self.evening.sold_changes)

    def pin_hashes(self) -> Mapping[str, PinChanged]:
        """The PINs changed on /admin tonight, by role (salted hashes, never a PIN)."""
        with self._lock:
            return MappingProxyType(dict(self.evening.pin_hashes))

    def card_count(self) -> tuple[int, int]:
        """(cartons in the book, cartons sold)."""
        with self._lock:
            return len(self.book), self._sold_count

    def write_cards_csv(self, out: Any) -> None:
        """The card book as CSV (INTERFACE §2) into the text stream ``out``."""
        with self._lock:
            book = self.book
        book.write_csv(out)

    def records(self, type: str | None = None) -> tuple[Record, ...]:
        """The journal's records so far (of one event ``type`` when given)."""
        with self._lock:
            return tuple(r for r in self.journal.records() if type is None or r.type == type)

    def last_seq(self) -> int:
        with self._lock:
            return self.evening.last_seq

    def report(self) -> EveningReport:
        """The evening's report (the admin's CSV and PDF), from one consistent reading, with the lotos recorded
        this civil year (the archived evenings' summaries are read outside the lock)."""
        hall = self.config.hall
        with self._lock:
            report = build_report(self.evening, list(self.journal.records()), hall.name, language=hall.language,
                                  timezone=hall.timezone)
        return with_year(report, self.config.data_dir)

    def health(self, timeout_s: float) -> HallSnapshot | None:
        """The public picture if the lock is free within ``timeout_s``, else ``None`` (the hall is stuck)."""
        if not self._lock.acquire(timeout=timeout_s):
            return None
        try:
            return self._snapshot()
        finally:
            self._lock.release()

    def close(self) -> None:
        """Close the journal (the hall takes no command after this)."""
        with self._lock:
            self.journal.close()
    # ---- sales, the programme, PINs (issue 16; INTERFACE §8) -------------------------------------
    def sales_recorded(self) -> bool:
        """Whether unsold cartons are refused: a sale was recorded tonight, or ``[sales] required``."""
        return self.evening.sales.active or self.config.sales.required

    def price_tiers(self) -> tuple[sales_rules.PriceTier, ...]:
        """The tiers the caisse offers: as edited on /admin tonight, else the config file's."""
        with self._lock:
            if self.evening.price_tiers is not None:
                return self.evening.price_tiers
        return sales_rules.tiers_from_config((t.cards, t.eur) for t in self.config.sales.price)

    def set_prices(self, tiers: Sequence[sales_rules.PriceTier], *, role: str) -> Record:
        """Replace the price tiers from the next sale on; each carton under the law's 20 € (``stake_too_high``)."""
        with self._lock:
            self._allow("edit_prices", role)
            if not tiers or len(tiers) > sales_rules.MAX_TIERS or len({t.cards for t in tiers}) != len(tiers) \
                    or any(not 1 <= t.cards <= sales_rules.MAX_RANGE or not 0 <= t.cents <= sales_rules.MAX_SALE_CENTS
                           for t in tiers):
                raise Rejected("bad_prices", where="tarifs", why="")
            for tier in tiers:
                if not sales_rules.stake_ok(tier.cents, tier.cards):
                    raise Rejected("stake_too_high", eur=sales_rules.per_carton_eur(tier.cents, tier.cards))
            return self._commit(PricesSet(tuple(sorted(tiers, key=lambda t: t.cards))), role)

    def suggested_cents(self, count: int) -> int | None:
        """The cheapest price of ``count`` cartons by the hall's tiers, in cents (``None``: no tier sum makes it)."""
        return sales_rules.best_price(count, self.price_tiers())

    def _already_sold(self, card_id: str) -> bool:
        if card_id in self.evening.sold_changes:
            return self.evening.sold_changes[card_id]
        return self.book.records_sales and self.book.is_sold(card_id)

    def _basket(self, card_ids: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
        """The cartons of a sale as the hall reads them, those the book lacks, those already sold (the lock held)."""
        ids = list(dict.fromkeys(normalize_card_id(c) for c in card_ids if isinstance(c, str)))
        unknown = [c for c in ids if c not in self.book]
        return ids, unknown, [c for c in ids if c in self.book and self._already_sold(c)]

    def check_basket(self, card_ids: Sequence[str]) -> BasketCheck:
        """What ``sell`` would say of these cartons, without selling: the unknown ones (each with the book's cartons
        one keystroke away: « vérifiez le numéro ») and those already sold. Bounded as a sale is."""
        with self._lock:
            ids, unknown, taken = self._basket(list(card_ids)[:sales_rules.MAX_RANGE])
            near = tuple((c, tuple(self.book.near(c))) for c in unknown[:sales_rules.MAX_NAMED])
            return BasketCheck(tuple(ids), near, tuple(taken[:sales_rules.MAX_NAMED]))

    def sell(self, card_ids: Sequence[str], *, role: str, payment: str, cents: int | None = None, paid: bool = True,
             buyer: str = "", seller: str = "", partie: int | None = None, session: str = "") -> Record:
        """Record a sale (or a reservation when not ``paid``); refused whole: ``unknown_card``, ``already_sold``,
        ``stake_too_high`` (20 € or more a carton)… The tiers' price of the moment is journalled beside it."""
        with self._lock:
            self._allow("sell", role)
            if payment not in sales_rules.PAYMENTS:
                raise Rejected("bad_payment", payment=str(payment)[:20])
            ids, unknown, taken = self._basket(card_ids)
            if not ids:
                raise Rejected("no_cards")
            if len(ids) > sales_rules.MAX_RANGE:
                raise Rejected("range_too_large", count=len(ids), limit=sales_rules.MAX_RANGE)
            if unknown:
                raise Rejected("unknown_card", cards=unknown[:sales_rules.MAX_NAMED], count=len(unknown))
            if taken:
                raise Rejected("already_sold", cards=taken[:sales_rules.MAX_NAMED], count=len(taken))
            offered = self.suggested_cents(len(ids))
            if cents is None:
                cents = offered
                if cents is None:
                    raise Rejected("bad_amount", count=len(ids))
            offered = sales_rules.NO_TIER if offered is None else offered
            if not isinstance(cents, int) or isinstance(cents, bool) or not 0 <= cents <= sales_rules.MAX_SALE_CENTS:
                raise Rejected("bad_amount", count=len(ids))
            if not sales_rules.stake_ok(cents, len(ids)):
                raise Rejected("stake_too_high", eur=sales_rules.per_carton_eur(cents, len(ids)))
            if partie is not None and (not isinstance(partie, int) or isinstance(partie, bool) or not 1 <= partie <= 999):
                raise Rejected("bad_partie", partie=partie)
            try:
                buyer, seller = sales_rules.clean_name(buyer), sales_rules.clean_name(seller)
            except ValueError as exc:
                raise Rejected("bad_name", why=str(exc)) from None
            event = SaleRecorded(self.evening.sales.next_id, tuple(ids), cents, payment, bool(paid), buyer, seller,
                                 role, partie, offered, str(session)[:40])
            return self._commit(event, role)

    def _sale(self, sale_id: Any) -> sales_rules.Sale:
        sale = self.evening.sales.sales.get(sale_id) if isinstance(sale_id, int) else None
        if sale is None:
            raise Rejected("unknown_sale", sale_id=sale_id)
        if sale.voided:
            raise Rejected("sale_voided", sale_id=sale_id)
        return sale

    def void_sale(self, sale_id: int, *, role: str, reason: str = "") -> Record:
        """Cancel a sale (admin): its cartons are unsold again; ``sale_has_winner`` once one of them has won."""
        with self._lock:
            self._allow("void_sale", role)
            sale = self._sale(sale_id)
            won = sorted(set(sale.card_ids) & self.evening.winners())
            if won:
                raise Rejected("sale_has_winner", sale_id=sale_id, cards=won)
            return self._commit(SaleVoided(sale_id, str(reason or "")[:200]), role)

    def pay_sale(self, sale_id: int, payment: str, *, role: str) -> Record:
        """A reserved sale (pré-vente) paid at the door."""
        with self._lock:
            self._allow("pay_sale", role)
            sale = self._sale(sale_id)
            if payment not in sales_rules.PAYMENTS:
                raise Rejected("bad_payment", payment=str(payment)[:20])
            if sale.paid:
                raise Rejected("already_paid", sale_id=sale_id)
            return self._commit(SalePaid(sale_id, payment), role)

    def partie_spec(self, index: int) -> PartieSpec:
        """The programme's partie ``index`` (from 0): as edited on /admin, else as the config file says."""
        edited = programme_rules.spec_for(index, self.config.programme, self.evening.programme_edit)
        if edited is None:
            return self.config.partie_spec(index)
        return PartieSpec(*edited)

    def edit_programme(self, parties: Sequence[ProgrammePartie], *, role: str) -> Record:
        """Replace the programme from the next partie on (the running one keeps its lots)."""
        with self._lock:
            self._allow("edit_programme", role)
            if not parties:
                raise Rejected("bad_programme", where="programme", why="")
            return self._commit(ProgrammeEdited(len(self.evening.parties) + 1, tuple(parties)), role)

    def change_pin(self, target: str, pin: str, *, role: str) -> Record:
        """Journal a role's new PIN as a salted hash (never the PIN)."""
        with self._lock:
            self._allow("change_pin", role)
            if target not in programme_rules.PIN_ROLES:
                raise Rejected("bad_field", field="role")
            try:
                programme_rules.check_pin(pin)
            except ValueError:
                raise Rejected("bad_new_pin") from None
            return self._commit(programme_rules.hash_pin(target, pin), role)
