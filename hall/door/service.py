"""``Hall``: the one entry point for every command, from any input — a thin facade over its desks.

As Mopidy's ``Core`` over its controllers: the partie's own commands are here (start, the draws, the keys, undo,
the claim announced, resume, « démarquez »); the rest is delegated by name to the desk that holds it — the writer
(``hall/door/writer.py``: the private lock, the commit, subscriptions, devices, health), the sales, prize, record,
calling, claim and programme desks (``hall/door/*_desk.py``) and the snapshot builders
(``hall/door/snapshot_builder.py``), all over one state (``hall/door/state.py``) rebuilt by replaying the journal.
Every command runs under the writer's lock: validate → journal → apply → publish (ARCHITECTURE).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

from hall.cartons.cardbook import CardBook
from hall.cartons.cards import parse_number
from hall.config import Config
from hall.door.buvette_desk import BuvetteDesk
from hall.door.calling_desk import CallingDesk
from hall.door.claim_desk import ClaimDesk
from hall.door.follow_desk import FollowDesk
from hall.door.prize_desk import PrizeDesk
from hall.door.programme_desk import ProgrammeDesk
from hall.door.record_desk import RecordDesk
from hall.door.rooms_desk import RoomsDesk
from hall.door.rooms_state import AnnexRooms
from hall.door.sales_desk import SalesDesk
from hall.door.snapshot_builder import SnapshotBuilder
from hall.door.state import HallState
from hall.door.tombola_desk import TombolaDesk
from hall.door.writer import Writer, ball_first, locked
from hall.errors import InvalidNumber
from hall.events import (
    BallDrawn,
    ClaimAnnounced,
    DrawResumed,
    DrawUndone,
    LotSpec,
    PartieCleared,
    PartieStarted,
    Record,
)
from hall.holds import Action, Hold, Holds
from hall.loto.lots import LOT_KINDS, LotTermsError, check_lot
from hall.loto.lots_played import lot_changes, lots_to_play, next_lots
from hall.loto.partie import Evening
from hall.loto.watch import WinnerWatch
from hall.record import checkpoint
from hall.record.journal import Journal
from hall.refusal import Rejected
from hall.rights import require
from hall.snapshots import KeyOutcome, Proposal
from hall.sources import Clock, Rng, utc_now

log = logging.getLogger("loto-hall.hall")

P = ParamSpec("P")
R = TypeVar("R")


class _Delegated(Generic[P, R]):
    """A method of ``Hall`` that is its desk's own, with the desk method's signature (checked by mypy). The first
    call through a hall keeps the desk's bound method on that hall: later calls cost a plain attribute read."""

    def __init__(self, desk: str, method: Callable[Concatenate[Any, P], R]):
        self._desk, self._name = desk, method.__name__
        self._attr = self._name

    def __set_name__(self, owner: type, name: str) -> None:
        self._attr = name

    @overload
    def __get__(self, hall: None, owner: type | None = None) -> Self: ...
    @overload
    def __get__(self, hall: object, owner: type | None = None) -> Callable[P, R]: ...

    def __get__(self, hall: object, owner: type | None = None) -> Any:
        if hall is None:
            return self
        bound = getattr(getattr(hall, self._desk), self._name)
        vars(hall)[self._attr] = bound
        return bound


class Hall:
    """The evening's application service. Thread-safe: every command runs under the writer's private lock.

    ``evening``, ``watch``, ``book`` and ``journal`` are the core's own: the rest of the program reads through
    the snapshot methods (immutable values) and changes through the commands, as ``hall.ports.HallPort`` names them.
    """

    def __init__(
        self,
        config: Config,
        journal: Journal,
        book: CardBook,
        voucher_secret: bytes = b"",
        clock: Clock = utc_now,
        rng: Rng | None = None,
        holds: Iterable[Hold] = (),
        link_clock: Callable[[], float] = time.monotonic,
    ):
        self.config = config
        self._state = HallState(config, book)
        self._state.rooms = AnnexRooms(link_clock)  # the annex rooms' links run on a monotonic clock
        self._writer = Writer(journal, self._state, clock, holds)
        self._holds: Holds = self._writer.holds
        self._sales = SalesDesk(self._writer, self._state, voucher_secret)
        self._prizes = PrizeDesk(self._writer, self._state, voucher_secret)
        self._snapshots = SnapshotBuilder(self._writer, self._state)
        self._record = RecordDesk(self._writer, self._state)
        self._calling = CallingDesk(self._writer, self._state)
        chance = rng if rng is not None else random.SystemRandom()  # the OS's randomness (secrets.SystemRandom)
        self._claims = ClaimDesk(self._writer, self._state, self._prizes, chance)
        self._tombola = TombolaDesk(self._writer, self._state, voucher_secret, chance)
        self._programme = ProgrammeDesk(self._writer, self._state)
        self._follow = FollowDesk(self._state, voucher_secret)
        self._rooms = RoomsDesk(self._writer, self._state, voucher_secret)
        self._holds.add(self._state.rooms)  # no ball while an annex is lost, from any path (RULES L23)
        self._buvette = BuvetteDesk(self._writer, self._state)
        self._replay(journal, voucher_secret)

    def _replay(self, journal: Journal, secret: bytes) -> None:
        """The state from the journal: from the checkpoint kept beside it when it holds (its seal, this code, these
        settings, the journal's record at its place with its hash), then the records after it; else every record.
        Then the checkpoints are kept at each partie's start (``Writer.keep_checkpoint``)."""
        self.resumed_from = 0  # the record the state was taken up from (0: the whole journal replayed)
        folder = Path(journal.path).parent
        made_with = f"false_claim={self.config.rules.false_claim!r}"  # the one setting the records' replay reads
        kept = checkpoint.read(folder, secret, made_with) if secret else None
        if kept is not None and journal.hash_at(kept.seq) != kept.hash:
            log.warning("point de reprise d'un autre journal (n° %s) : tout le journal est relu", kept.seq)
            kept = None
        if kept is not None and self._state.restore(kept.state, kept.seq):
            tail = list(journal.records(kept.seq))
            self._state.replay(tail, from_start=True)
            log.info("état repris au n° %s, puis %d enregistrement(s) relu(s)", kept.seq, len(tail))
            self.resumed_from = kept.seq
        else:
            self._state.replay(list(journal.records()))
        if secret:
            self._writer.checkpoints = (folder, secret, made_with)

    @property
    def journal(self) -> Journal:
        return self._writer.journal

    @property
    def book(self) -> CardBook:
        return self._state.book

    @property
    def evening(self) -> Evening:
        return self._state.evening

    @property
    def watch(self) -> WinnerWatch | None:
        return self._state.watch

    # ---- the writer: news, devices, health ---------------------------------------------------------------
    subscribe = _Delegated("_writer", Writer.subscribe)
    subscribe_notices = _Delegated("_writer", Writer.subscribe_notices)
    notify = _Delegated("_writer", Writer.notify)
    tell = _Delegated("_writer", Writer.tell)
    ask = _Delegated("_writer", Writer.ask)
    set_device_status = _Delegated("_writer", Writer.set_device_status)
    device = _Delegated("_writer", Writer.device)
    devices = _Delegated("_writer", Writer.devices)
    close = _Delegated("_writer", Writer.close)

    # ---- the holds: what may stop the draws for a while (hall/holds.py) ----------------------------------------
    add_hold = _Delegated("_holds", Holds.add)

    # ---- the sales desk: the card book, the caisse --------------------------------------------------------
    set_sold = _Delegated("_sales", SalesDesk.set_sold)
    adopt_cards = _Delegated("_sales", SalesDesk.adopt_cards)
    replace_book = _Delegated("_sales", SalesDesk.replace_book)
    price_tiers = _Delegated("_sales", SalesDesk.price_tiers)
    set_prices = _Delegated("_sales", SalesDesk.set_prices)
    sale_code = _Delegated("_sales", SalesDesk.sale_code)
    card_code = _Delegated("_sales", SalesDesk.card_code)
    sale_cards = _Delegated("_sales", SalesDesk.sale_cards)
    suggested_cents = _Delegated("_sales", SalesDesk.suggested_cents)
    sell = _Delegated("_sales", SalesDesk.sell)
    check_basket = _Delegated("_sales", SalesDesk.check_basket)
    void_sale = _Delegated("_sales", SalesDesk.void_sale)
    pay_sale = _Delegated("_sales", SalesDesk.pay_sale)
    sales = _Delegated("_sales", SalesDesk.sales)
    sale = _Delegated("_sales", SalesDesk.sale)
    sales_totals = _Delegated("_sales", SalesDesk.sales_totals)
    sales_recorded = _Delegated("_sales", SalesDesk.sales_recorded)
    caisse_sells = _Delegated("_sales", SalesDesk.caisse_sells)

    # ---- the prize desk: vouchers ----------------------------------------------------------------------
    redeem = _Delegated("_prizes", PrizeDesk.redeem)
    voucher_printed = _Delegated("_prizes", PrizeDesk.voucher_printed)
    request_reprint = _Delegated("_prizes", PrizeDesk.request_reprint)
    unprinted = _Delegated("_prizes", PrizeDesk.unprinted)
    vouchers_to_print = _Delegated("_prizes", PrizeDesk.vouchers_to_print)

    # ---- the record desk: the fingerprint, the board's copy ----------------------------------------------
    fingerprint = _Delegated("_record", RecordDesk.fingerprint)
    request_ticket = _Delegated("_record", RecordDesk.request_ticket)
    close_evening = _Delegated("_record", RecordDesk.close_evening)
    closing = _Delegated("_record", RecordDesk.closing)
    record_preflight = _Delegated("_record", RecordDesk.record_preflight)
    record_setup_answer = _Delegated("_record", RecordDesk.record_setup_answer)
    ticket_printed = _Delegated("_record", RecordDesk.ticket_printed)
    tickets_to_print = _Delegated("_record", RecordDesk.tickets_to_print)

    # ---- snapshots: immutable pictures for readers ------------------------------------------------------------
    snapshot = _Delegated("_snapshots", SnapshotBuilder.snapshot)
    speaker_snapshot = _Delegated("_snapshots", SnapshotBuilder.speaker_snapshot)
    health = _Delegated("_snapshots", SnapshotBuilder.health)
    drawable_numbers = _Delegated("_snapshots", SnapshotBuilder.drawable_numbers)
    card = _Delegated("_snapshots", SnapshotBuilder.card)
    cards = _Delegated("_snapshots", SnapshotBuilder.cards)
    card_count = _Delegated("_snapshots", SnapshotBuilder.card_count)
    link_cards = _Delegated("_snapshots", SnapshotBuilder.link_cards)
    players = _Delegated("_snapshots", SnapshotBuilder.players)
    write_cards_csv = _Delegated("_snapshots", SnapshotBuilder.write_cards_csv)
    programme_state = _Delegated("_snapshots", SnapshotBuilder.programme_state)
    pin_hashes = _Delegated("_snapshots", SnapshotBuilder.pin_hashes)
    records = _Delegated("_snapshots", SnapshotBuilder.records)
    last_seq = _Delegated("_snapshots", SnapshotBuilder.last_seq)
    report = _Delegated("_snapshots", SnapshotBuilder.report)

    # ---- the calling of the balls: flash, nicknames, pace, said again, the voice tested, the fairness count ---
    calling = _Delegated("_calling", CallingDesk.calling)
    set_calling = _Delegated("_calling", CallingDesk.set_calling)
    repeat_ball = _Delegated("_calling", CallingDesk.repeat_ball)
    test_voice = _Delegated("_calling", CallingDesk.test_voice)
    ball_draws = _Delegated("_calling", CallingDesk.ball_draws)
    show_count = _Delegated("_calling", CallingDesk.show_count)
    count_on_screen = _Delegated("_calling", CallingDesk.count_on_screen)

    # ---- the claim desk: a carton checked, a tie said, the lot awarded ------------------------------------
    check_claim = _Delegated("_claims", ClaimDesk.check_claim)
    verdict_now = _Delegated("_claims", ClaimDesk.verdict_now)
    card_scanned = _Delegated("_claims", ClaimDesk.card_scanned)
    announce_tie = _Delegated("_claims", ClaimDesk.announce_tie)
    award = _Delegated("_claims", ClaimDesk.award)

    # ---- the players' phones' desk: the cartons they follow, told their verdicts ---------------------------
    follow_key = _Delegated("_follow", FollowDesk.follow_key)
    follow = _Delegated("_follow", FollowDesk.follow)
    carton_news = _Delegated("_follow", FollowDesk.news)
    carton_news_from = _Delegated("_follow", FollowDesk.started)

    # ---- the programme desk: the programme, the players' help, the PINs -----------------------------------
    edit_programme = _Delegated("_programme", ProgrammeDesk.edit_programme)
    set_players = _Delegated("_programme", ProgrammeDesk.set_players)
    change_pin = _Delegated("_programme", ProgrammeDesk.change_pin)

    # ---- the salle annexe: its rooms, their links, their claims (RULES L23) ----------------------------------
    open_room = _Delegated("_rooms", RoomsDesk.open_room)
    join_room = _Delegated("_rooms", RoomsDesk.join_room)
    room_beat = _Delegated("_rooms", RoomsDesk.room_beat)
    room_claim = _Delegated("_rooms", RoomsDesk.room_claim)
    room_go_on = _Delegated("_rooms", RoomsDesk.room_go_on)
    watch_rooms = _Delegated("_rooms", RoomsDesk.watch_rooms)
    room_links = _Delegated("_rooms", RoomsDesk.room_links)
    # ---- the tombola desk: prepared, sold, drawn in public, its lots handed over (RULES L24) ----------------
    prepare_tombola = _Delegated("_tombola", TombolaDesk.prepare_tombola)
    sell_tombola = _Delegated("_tombola", TombolaDesk.sell_tombola)
    close_tombola_sales = _Delegated("_tombola", TombolaDesk.close_tombola_sales)
    draw_tombola = _Delegated("_tombola", TombolaDesk.draw_tombola)
    collect_tombola_lot = _Delegated("_tombola", TombolaDesk.collect_tombola_lot)
    tombola_lot_of = _Delegated("_tombola", TombolaDesk.tombola_lot_of)
    tombola_code = _Delegated("_tombola", TombolaDesk.tombola_code)
    tombola = _Delegated("_tombola", TombolaDesk.tombola)
    tombola_printed = _Delegated("_tombola", TombolaDesk.tombola_printed)
    tombola_to_print = _Delegated("_tombola", TombolaDesk.tombola_to_print)
    tombola_check = _Delegated("_tombola", TombolaDesk.tombola_check)
    request_tombola_list = _Delegated("_tombola", TombolaDesk.request_tombola_list)
    tombola_list_printed = _Delegated("_tombola", TombolaDesk.tombola_list_printed)
    tombola_list_owed = _Delegated("_tombola", TombolaDesk.tombola_list_owed)
    # ---- the buvette's desk: its products, its tickets, its Z (RULES L25) ---------------------------------
    set_buvette_products = _Delegated("_buvette", BuvetteDesk.set_products)
    buvette_sell = _Delegated("_buvette", BuvetteDesk.buvette_sell)
    buvette_close = _Delegated("_buvette", BuvetteDesk.buvette_close)
    buvette_printed = _Delegated("_buvette", BuvetteDesk.buvette_printed)
    buvette_to_print = _Delegated("_buvette", BuvetteDesk.buvette_to_print)
    buvette_z_printed = _Delegated("_buvette", BuvetteDesk.buvette_z_printed)
    buvette_z_to_print = _Delegated("_buvette", BuvetteDesk.buvette_z_to_print)
    buvette = _Delegated("_buvette", BuvetteDesk.buvette)
    buvette_account = _Delegated("_buvette", BuvetteDesk.buvette_account)

    # ---- the state's answers ------------------------------------------------------------------------------
    may_play = _Delegated("_state", HallState.may_play)
    partie_spec = _Delegated("_state", HallState.partie_spec)

    # ---- the partie --------------------------------------------------------------------------------------
    @locked
    def start_partie(
        self,
        lots: Sequence[LotSpec] | None = None,
        consolation: str | None = None,
        *,
        role: str,
        session: str = "",
        drop_carried: bool = False,
    ) -> Record:
        """Start the next partie with the programme's lots (carried ones first), or ``lots`` as the speaker changed
        them (kept beside the programme's for the report), the carried ones with them unless ``drop_carried``."""
        self._holds.check(Action.START)
        require(role, "start_partie")
        self._state.require_open()
        if self._state.evening.running is not None:
            raise Rejected("partie_running", number=self._state.evening.running.number)
        spec = self._state.partie_spec(len(self._state.evening.parties))
        planned = next_lots(spec.lots, self._state.evening.carried)
        played = lots_to_play(planned, lots, self._state.evening.carried, drop_carried)
        for number, lot in enumerate(played, 1):
            if lot.kind not in LOT_KINDS:
                raise Rejected("bad_lot", kind=lot.kind)
            try:
                check_lot(lot)
            except LotTermsError as exc:
                raise Rejected(exc.code, where=f"lot {number}", why=exc.why) from None
        if not played:
            raise Rejected("bad_lot", kind=None)
        changed = planned if lot_changes(planned, played) else ()
        event = PartieStarted(
            len(self._state.evening.parties) + 1, played, consolation or spec.consolation, changed, str(session)[:40]
        )
        return self._writer.commit(event, role)

    @ball_first
    def draw(self, number: Any, *, role: str, source: str = "console") -> Record:
        """Draw ``number``; raises ``Rejected`` (``out_of_range``, ``already_drawn``, ``no_partie``, ``locked``…)."""
        self._holds.check(Action.DRAW)
        require(role, "draw")
        n = self._check_drawable(number)
        p = self._state.running()
        if self._state.proposed is not None and self._state.proposed.number == n:
            self._state.proposed = None
        return self._writer.commit(BallDrawn(n, len(p.draws), source), role)

    def _check_drawable(self, number: Any) -> int:
        try:
            n = parse_number(number)
        except InvalidNumber as exc:
            raise Rejected("out_of_range", number=number, why=str(exc)) from None
        p = self._state.running()
        if p.current is None:
            raise Rejected("partie_finished", number=p.number)
        if p.paused:
            raise Rejected("locked", number=n)
        if p.held:
            raise Rejected("held", number=n)
        if p.pending:
            raise Rejected("claims_pending", cards=sorted(p.pending))
        if n in p.draws:
            raise Rejected("already_drawn", number=n, index=p.draws.index(n))
        return n

    @ball_first
    def propose(self, number: Any, *, role: str, source: str = "ball_machine") -> Proposal:
        """Hold an auto-read ball for the speaker's confirmation (confirm mode); same refusals as ``draw``."""
        self._holds.check(Action.DRAW)
        require(role, "propose")
        n = self._check_drawable(number)
        self._state.proposed = Proposal(n, source, self._writer.clock())
        self._writer.notify("draw:proposed", self._state.proposed)
        return self._state.proposed

    def ball_read(self, number: int, *, source: str, confirm: bool) -> Record | Proposal:
        """The ball machine read ``number``: drawn at once, or held for the speaker when ``confirm``."""
        if confirm:
            return self.propose(number, role="device", source=source)
        return self.draw(number, role="device", source=source)

    @locked
    def key_typed(self, kind: str, number: int | None = None, *, source: str = "keypad") -> KeyOutcome:
        """A speaker's key on a keypad (``draw`` with its number, ``confirm``, ``reject``, ``undo``, ``claim``).

        The hall decides what a typed number means: with a ball held for confirmation it is the speaker's
        correction of it (a misread 13 that was an 18), else a draw. Raises ``Rejected`` as the command would.
        """
        held = self._state.proposed is not None
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
            return self._claim_key(source)
        return KeyOutcome("none")

    def _claim_key(self, source: str) -> KeyOutcome:
        """The ``+`` key, the same on every keypad: it stops a running draw for a claim, and resumes a stopped one
        (after an award or a false claim, docs L11a); a valid claim waiting for its lot is awarded first."""
        p = self._state.running()
        if p.current is not None and (p.paused or p.held):
            return KeyOutcome("resume", self.resume(role="speaker").seq)
        record = self.announce_claim(role="speaker", source=source)
        return KeyOutcome("claim", record.seq if record else None)

    @locked
    def confirm_proposed(self, number: Any = None, *, role: str, source: str = "console") -> Record:
        """Draw the held ball, or the speaker's correction of it (a misread 13 that was an 18) typed on ``source``."""
        self._holds.check(Action.DRAW)
        require(role, "draw")
        if self._state.proposed is None:
            raise Rejected("nothing_proposed")
        chosen = self._state.proposed.number if number is None else number
        source = self._state.proposed.source if number is None else source
        record = self.draw(chosen, role=role, source=source)
        self._state.proposed = None
        return record

    @locked
    def reject_proposed(self, *, role: str) -> None:
        """Drop the held ball (read by mistake)."""
        require(role, "draw")
        if self._state.proposed is not None:
            self._state.proposed = None
            self._writer.notify("draw:proposed", None)

    @locked
    def undo(self, *, role: str) -> Record:
        """Cancel the last draw; refused after an award on it, before any draw, or twice in a row."""
        require(role, "undo")
        p = self._state.running()
        if not p.draws:
            raise Rejected("nothing_to_undo")
        if not p.undo_available:
            raise Rejected("already_undone")
        if p.drawn_at_last_award():
            raise Rejected("undo_after_award", number=p.last)
        return self._writer.commit(DrawUndone(p.draws[-1], len(p.draws) - 1), role)

    @locked
    def announce_claim(self, *, role: str, source: str = "console") -> Record | None:
        """Stop the draw for a claim (RULES L10); ``None`` if already stopped."""
        require(role, "announce_claim")
        p = self._state.running()
        if p.current is None:
            raise Rejected("partie_finished", number=p.number)
        if p.paused:
            return None
        return self._writer.commit(ClaimAnnounced(source), role)

    @locked
    def resume(self, *, role: str) -> Record:
        """Let the draw go on after a false claim or an award (docs L11a); refused while a valid claim waits for
        its lot."""
        require(role, "resume")
        p = self._state.running()
        if p.pending:
            raise Rejected("claims_pending", cards=sorted(p.pending))
        if not (p.paused or p.held):
            raise Rejected("not_paused")
        return self._writer.commit(DrawResumed(), role)

    @locked
    def clear(self, *, role: str, force: bool = False, carry: bool = False) -> Record:
        """« Démarquez ! »: end the partie (RULES L16); with lots left, only when ``force`` is given, and with
        ``carry`` those lots are played in the next partie (``carry`` alone means both)."""
        self._holds.check(Action.CLEAR)
        require(role, "clear")
        p = self._state.running()
        if p.pending:
            raise Rejected("claims_pending", cards=sorted(p.pending))
        if p.current is not None and not (force or carry):
            raise Rejected(
                "lots_remaining", lots=len(p.lots) - p.current, labels=[lot.label for lot in p.lots[p.current :]]
            )
        if carry and p.current is None:
            raise Rejected("nothing_to_carry")
        cleared = PartieCleared(p.number, forced=p.current is not None, carried=carry)
        return self._writer.commit(cleared, role, *self._record.after_clear())
