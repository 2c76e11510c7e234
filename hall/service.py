"""``Hall``: the one entry point for every command, from any input (ARCHITECTURE "one-writer rule").

Under one lock: validate against the current state → append the event to the journal (durable)
→ apply it to the in-memory state → publish it to subscribers. Nobody sees an event that is not
on disk. On start the state is rebuilt by replaying the journal.
"""
from __future__ import annotations

import gc
import logging
import random
import threading
from typing import Any, Callable, Iterable, Mapping, Sequence

from hall.cardbook import CardBook
from hall.cards import check_card_id, normalize_card_id, parse_number
from hall.claims import verify
from hall.config import Config
from hall.errors import InvalidNumber, Rejected
from hall.events import (BallDrawn, CardsImported, CardsSold, ClaimAnnounced, ClaimChecked, DrawResumed,
                         DrawUndone, LotAwarded, LotSpec, PartieCleared, PartieStarted, Record,
                         VoucherIssued, VoucherPrinted, VoucherRedeemed, VoucherReprintRequested)
from hall.journal import Journal
from hall.partie import Evening, Partie, with_carried
from hall.ports import Clock, Rng, Subscriber, utc_now
from hall.ties import settle
from hall.vouchers import check_code, make_code, near_codes, normalize_code
from hall.watch import WinnerWatch

RIGHTS: dict[str, set[str]] = {
    "start_partie": {"speaker"}, "draw": {"speaker", "device"}, "undo": {"speaker"},
    "announce_claim": {"speaker", "controller", "device"}, "resume": {"speaker"},
    "check_claim": {"controller", "speaker", "device"}, "award": {"speaker"}, "clear": {"speaker"},
    "set_sold": {"desk"}, "import_cards": set(), "redeem": {"desk"}, "reprint": {"speaker", "desk"},
    "voucher_printed": {"device"}, "propose": {"device"},
}
ALL_RIGHTS = {"admin", "system"}

log = logging.getLogger("loto-hall.hall")


def _deliver(fn: Callable, *args: Any) -> None:
    """Hand news to one subscriber; its failure is logged, never turned into a refusal of what is already on disk."""
    try:
        fn(*args)
    except Exception:
        log.exception("subscriber %r failed on %s", fn, args[0] if args else "")


class Hall:
    """The evening's application service. Thread-safe: every public method takes the one lock."""

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
        self._notice_subscribers: list[Callable[[str, dict], None]] = []
        self.devices: dict[str, dict] = {}
        self.proposed: dict | None = None      # an auto-read ball waiting for the speaker (confirm mode)
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
        for record in records[last_start:]:
            self.evening.apply(record.event, record.seq)
            self._after(record.event)
        if self.watch is None:
            self._rebuild_watch()

    # ---- plumbing -------------------------------------------------------------------------------
    @property
    def lock(self) -> threading.RLock:
        return self._lock

    def subscribe(self, fn: Subscriber) -> Callable[[], None]:
        """Call ``fn(record)`` after every durable event; returns the function that unsubscribes."""
        with self._lock:
            self._subscribers.append(fn)
        return lambda: self._subscribers.remove(fn) if fn in self._subscribers else None

    def subscribe_notices(self, fn: Callable[[str, dict], None]) -> None:
        """Call ``fn(name, payload)`` for passing news that is not journalled (device status, refused balls)."""
        with self._lock:
            self._notice_subscribers.append(fn)

    def notify(self, name: str, payload: dict) -> None:
        """Publish a passing notice (``device:status_changed``, ``draw:refused``…)."""
        with self._lock:
            for fn in list(self._notice_subscribers):
                _deliver(fn, name, payload)

    def set_device_status(self, device: str, status: str, detail: str = "") -> None:
        """Record and announce a device's state (``ok``, ``degraded``, ``absent``) with a sentence for people."""
        with self._lock:
            entry = {"device": device, "status": status, "detail": detail, "at": self._clock()}
            if {k: v for k, v in self.devices.get(device, {}).items() if k != "at"} != {k: v for k, v in entry.items() if k != "at"}:
                self.devices[device] = entry
                self.notify("device:status_changed", entry)

    def _allow(self, command: str, role: str) -> None:
        if role not in ALL_RIGHTS and role not in RIGHTS[command]:
            raise Rejected("forbidden", command=command, role=role)

    def _commit(self, event: Any, role: str, *more: Any) -> Record:
        """Journal ``event`` (and ``more``, in the same transaction), apply, publish; returns the first record."""
        records = self.journal.append_all([event, *more], role, self._clock())
        for record in records:
            self.evening.apply(record.event, record.seq)
            self._after(record.event)
        for record in records:
            for fn in list(self._subscribers):
                _deliver(fn, record)
        return records[0]

    def _after(self, event: Any) -> None:
        """Keep the derived winner watch in step with the state."""
        p = self.evening.running
        if isinstance(event, BallDrawn):
            lot = p.current_lot
            self.watch.on_draw(event.number, p.current, lot.kind if lot else None, p.paid, self._claimed_since_draw)
            self._claimed_since_draw = set()
        elif isinstance(event, DrawUndone):
            lot = p.current_lot
            self.watch.on_undo(lot.kind if lot else None, p.paid)
        elif isinstance(event, ClaimChecked):
            self._claimed_since_draw.add(event.card_id)
        elif isinstance(event, LotAwarded):
            lot = p.current_lot
            self.watch.refresh(lot.kind if lot else None, p.paid)
        elif isinstance(event, PartieStarted):
            self.watch = None       # a new partie: no sleepers carried over
            self._rebuild_watch()
        elif isinstance(event, PartieCleared):
            self.watch.refresh(None, {})   # nobody can claim now; the next partie rebuilds the index
        elif isinstance(event, (CardsSold, CardsImported)):
            self._rebuild_watch()

    def _rebuild_watch(self) -> None:
        sold = {cid: self.book.get(cid) for cid in self.book if self.is_sold(cid)}
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
        return self.book.is_sold(card_id)

    def _running(self) -> Partie:
        p = self.evening.running
        if p is None:
            raise Rejected("no_partie")
        return p

    # ---- the partie ------------------------------------------------------------------------------
    def start_partie(self, lots: Sequence[LotSpec] | None = None, consolation: str | None = None,
                     *, role: str) -> Record:
        """Start the next partie, with ``lots`` or the programme's; refused while one is running."""
        with self._lock:
            self._allow("start_partie", role)
            if self.evening.running is not None:
                raise Rejected("partie_running", number=self.evening.running.number)
            spec = self.config.partie_spec(len(self.evening.parties))
            lots = tuple(lots) if lots else with_carried(spec.lots, self.evening.carried)
            for lot in lots:
                if lot.kind not in ("quine", "double_quine", "carton_plein"):
                    raise Rejected("bad_lot", kind=lot.kind)
            if not lots:
                raise Rejected("bad_lot", kind=None)
            event = PartieStarted(len(self.evening.parties) + 1, lots, consolation or spec.consolation)
            return self._commit(event, role)

    def draw(self, number: Any, *, role: str, source: str = "console") -> Record:
        """Draw ``number``; raises ``Rejected`` (``out_of_range``, ``already_drawn``, ``no_partie``, ``locked``…)."""
        with self._lock:
            self._allow("draw", role)
            n = self._check_drawable(number)
            p = self.evening.running
            if self.proposed is not None and self.proposed["number"] == n:
                self.proposed = None
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

    def propose(self, number: Any, *, role: str, source: str = "ball_machine") -> dict:
        """Hold an auto-read ball for the speaker's confirmation (confirm mode); same refusals as ``draw``."""
        with self._lock:
            self._allow("propose", role)
            n = self._check_drawable(number)
            self.proposed = {"number": n, "source": source, "at": self._clock()}
            self.notify("draw:proposed", dict(self.proposed))
            return dict(self.proposed)

    def confirm_proposed(self, number: Any = None, *, role: str, source: str = "console") -> Record:
        """Draw the held ball, or the speaker's correction of it (a misread 13 that was an 18) typed on ``source``."""
        with self._lock:
            self._allow("draw", role)
            if self.proposed is None:
                raise Rejected("nothing_proposed")
            chosen = self.proposed["number"] if number is None else number
            source = self.proposed["source"] if number is None else source
            record = self.draw(chosen, role=role, source=source)
            self.proposed = None
            return record

    def reject_proposed(self, *, role: str) -> None:
        """Drop the held ball (read by mistake)."""
        with self._lock:
            self._allow("draw", role)
            if self.proposed is not None:
                self.proposed = None
                self.notify("draw:proposed", {"number": None})

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
            return self._commit(DrawUndone(p.last, len(p.draws) - 1), role)

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

    def check_claim(self, card_id: str, *, role: str) -> dict:
        """Check a claimed carton; returns the verdict as INTERFACE §4 shapes it (the check is journalled)."""
        with self._lock:
            self._allow("check_claim", role)
            if not isinstance(card_id, str) or not card_id.strip():
                raise Rejected("bad_card_id", card_id=card_id)
            cid = self.book.resolve(card_id)       # typed leniently: no dash, lower case, spaces, O/I for 0/1
            p = self.evening.partie
            before = [{"verdict": c.verdict, "last": c.last, "lot_index": c.lot_index}
                      for c in (p.checks.get(cid, []) if p else [])]
            lot = p.current_lot if p is not None and not p.cleared else None
            card = self.book.get(cid)
            extra = {}
            if lot is None:
                event = ClaimChecked(cid, "closed", None, None, p.last if p else None)
            elif card is None:
                event = ClaimChecked(cid, "unknown_card", p.current, lot.kind, p.last)
                extra["check_character_ok"] = check_card_id(cid)
                extra["suggestions"] = self.book.near(cid)   # a near miss: "vérifiez le numéro", never a refusal
            elif not self.is_sold(cid):
                event = ClaimChecked(cid, "unsold_card", p.current, lot.kind, p.last)
            elif cid in p.cancelled:
                event = ClaimChecked(cid, "cancelled_card", p.current, lot.kind, p.last)
            else:
                v = verify(card, p.draws, lot.kind, self.config.rules.last_number, p.paid.get(cid, set()))
                event = ClaimChecked(cid, v.kind, p.current, lot.kind, v.last, v.rows, v.complete_rows,
                                     v.missing, v.reason)
            record = self._commit(event, role)
            return {**self._verdict_dict(event, lot), "checked_before": before, "seq": record.seq, **extra}

    @staticmethod
    def _verdict_dict(e: ClaimChecked, lot) -> dict:
        return {"verdict": e.verdict, "card_id": e.card_id, "reason": e.reason,
                "lot": None if lot is None else {"index": e.lot_index, "kind": lot.kind, "label": lot.label},
                "rows": list(e.rows), "complete_rows": list(e.complete_rows), "missing": list(e.missing),
                "last": e.last}

    def award(self, *, role: str, same_player: Sequence[Sequence[str]] = (), tie_break: Mapping[str, Any] | None = None,
              share: bool = False, wins: str | None = None) -> dict:
        """Award the open lot to the valid claims on the last ball, with a tie-break when several (RULES L13–L14).

        ``same_player`` groups cartons held by one player: such a group is one claimant (L13), drawing one
        tie-break number and winning with its first carton. For a tie the speaker may give ``tie_break`` (the
        numbers drawn by hand in the hall, carton → 1–90), or ``share``; else ``[rules] ties`` decides.
        ``wins``: ``lowest`` or ``highest`` number wins (default: the rule's).
        """
        with self._lock:
            self._allow("award", role)
            p = self._running()
            if p.current is None or not p.pending:
                raise Rejected("no_valid_claim")
            claimants = self._claimants(p, same_player)
            lot_index = p.current
            outcome = settle([c.card_id for c in claimants], self.config.rules.ties, self._rng, typed=tie_break,
                             share=share, wins=wins, resolve=self.book.resolve)
            winners = tuple(c for w in outcome.winners for c in claimants if c.card_id == w)
            tie_break, consolation, shared = outcome.tie_break, outcome.consolation, outcome.shared
            event = LotAwarded(lot_index, tuple(w.card_id for w in winners), tuple(w.rows for w in winners),
                               tie_break, consolation, p.last, len(p.draws) - 1, shared, outcome.mode)
            lot = p.lots[lot_index]
            serial = self.evening.voucher_serial
            vouchers = []
            for cid, is_consolation in [(c, False) for c in event.winners] + [(c, True) for c in consolation]:
                serial += 1
                label = p.consolation if is_consolation else lot.label
                vouchers.append(VoucherIssued(make_code(self._secret, serial), serial, p.number, lot_index, lot.kind,
                                              label, cid, is_consolation, shared and not is_consolation))
            self._commit(event, role, *vouchers)   # the award and its vouchers: all on disk, or none
            codes = [v.code for v in vouchers]
            return {"winner": event.winners[0], "winners": list(event.winners), "shared": shared, "tie_mode": outcome.mode,
                    "tie_break": [{"card_id": t.card_id, "number": t.number} for t in tie_break],
                    "consolation": list(consolation), "vouchers": codes,
                    "lot": {"index": lot_index, "kind": lot.kind, "label": lot.label}}

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
    def set_sold(self, card_ids: Iterable[str], sold: bool = True, *, role: str) -> Record:
        """Record cartons sold (or handed back); unknown ids are refused, naming them."""
        with self._lock:
            self._allow("set_sold", role)
            ids = tuple(normalize_card_id(c) for c in card_ids)
            unknown = [c for c in ids if c not in self.book]
            if unknown:
                raise Rejected("unknown_card", cards=unknown[:20], count=len(unknown))
            return self._commit(CardsSold(ids, bool(sold)), role)

    def replace_book(self, book: CardBook, sha256: str, added: int, *, role: str) -> Record:
        """Adopt a new card book (already saved to the data folder by the caller) and journal the change."""
        with self._lock:
            self._allow("import_cards", role)
            self.book = book
            record = self._commit(CardsImported(added, len(book), sha256), role)
            gc.freeze()   # the new book lives all evening: keep full collections from walking it (see runtime)
            return record

    # ---- vouchers --------------------------------------------------------------------------------
    def redeem(self, code: str, *, role: str) -> dict:
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
            v = voucher.issued
            return {"code": code, "redeemed": True, "partie": v.partie, "lot": v.lot_label, "kind": v.lot_kind,
                    "card_id": v.card_id, "consolation": v.consolation, "seq": record.seq}

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
