"""The snapshot builders: immutable pictures of the hall (``hall/snapshots.py``) taken under the writer's lock.

Cheap by design: tuples of values already frozen, a few dozen items at most; the sold count is kept by the
state as sales come, never counted here.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from hall.cartons.card_ids import MAX_CARD_TEXT, claimable_card_id
from hall.cartons.cards import Card
from hall.config import PartieSpec
from hall.door.accounts import other_accounts
from hall.door.state import HallState
from hall.door.writer import Writer, locked
from hall.events import ClaimChecked, PinChanged, PlayersSet, Record
from hall.loto.lots_played import next_lots
from hall.loto.partie import Partie
from hall.money.report import EveningReport, build_report, with_year
from hall.snapshots import (
    CardState,
    Fingerprint,
    HallSnapshot,
    LinkedCard,
    LotState,
    NextPartie,
    PartieState,
    ProgrammeState,
    SpeakerSnapshot,
    WifiInfo,
)


def partie_state(p: Partie) -> PartieState:
    """A partie as every screen sees it (the draws, the lots, claims waiting while it runs)."""
    running = not p.cleared
    return PartieState(
        p.number,
        tuple(LotState(lot.kind, lot.label, lot.status, lot.value_eur, lot.award, lot.spec) for lot in p.lots),
        p.current,
        p.consolation,
        tuple(p.draws),
        p.cleared,
        p.status,
        running and p.paused,
        tuple(p.pending.values()) if running else (),
        bool(running and p.undo_available and p.draws and not p.drawn_at_last_award()),
        running and p.held,
        p.tie if running else None,
        MappingProxyType(
            {kind: MappingProxyType({c: frozenset(rows) for c, rows in by.items()}) for kind, by in p.paid.items()}
        ),
        frozenset(p.cancelled),
    )


def card_state(state: HallState, card_id: str) -> CardState | None:
    """A carton against the latest partie (drawn numbers, last number, may it play), or ``None`` if unknown."""
    card = state.book.get(card_id)
    if card is None:
        return None
    p = state.evening.partie
    drawn = frozenset(p.draws) if p is not None and not p.cleared else frozenset()
    last = p.last if p is not None and not p.cleared else None
    grid = tuple(tuple(row) for row in card.grid(state.config.cards.columns))
    return CardState(card_id, card, grid, drawn, last, state.may_play(card_id))


def _after_partie(state: HallState) -> tuple[int, Fingerprint] | None:
    """The latest « Démarquez »'s partie and fingerprint, while no partie runs (``None`` once the next starts)."""
    if state.after_partie is None:
        return None
    number, record = state.after_partie
    return number, Fingerprint(record.seq, record.at, record.hash)


def _closing(state: HallState) -> Fingerprint | None:
    """The fingerprint the board's copy printed at the evening's close prints (``None`` while the evening is open)."""
    r = state.closing
    return None if r is None else Fingerprint(r.seq, r.at, r.hash)


NEAR_MISSES_LOOKED_UP = 2  # unknown cartons of one phone's request given suggestions (~0.3 ms each here)


class SnapshotBuilder:
    """Every reading of the hall that is not a desk's own ledger."""

    def __init__(self, writer: Writer, state: HallState):
        self._writer = writer
        self._state = state

    def _picture(self) -> HallSnapshot:
        state = self._state
        ev = state.evening
        p = ev.partie
        played = len(ev.parties)
        nxt = None
        if ev.running is None and not ev.closed:
            spec = state.partie_spec(played)
            nxt = NextPartie(played + 1, PartieSpec(next_lots(spec.lots, ev.carried), spec.consolation))
        winners = (
            tuple(w for w in (card_state(state, c.card_id) for c in ev.running.pending.values()) if w is not None)
            if ev.running is not None
            else ()
        )
        config = state.config
        net = config.network
        wifi = WifiInfo(net.ssid, net.password, config.hall_url) if net.ssid else None
        return HallSnapshot(
            ev.last_seq,
            config.hall.name,
            config.hall.prices,
            None if p is None else partie_state(p),
            nxt,
            played,
            wifi,
            winners,
            state.players(),
            config.rules.ties,
            ev.carried,
            _after_partie(state),
            _closing(state),
            state.rooms.links(),
        )

    @locked
    def snapshot(self) -> HallSnapshot:
        """The evening as every screen sees it, with the ``seq`` of the last record it includes."""
        return self._picture()

    @locked
    def speaker_snapshot(self) -> SpeakerSnapshot:
        """The speaker's picture: the public one plus claims, the winner watch, devices, sales and printing."""
        state = self._state
        p = state.evening.running
        watch = state.watch
        assert watch is not None  # built by the replay, rebuilt at once by each partie start
        checks: tuple[ClaimChecked, ...] = ()
        if p is not None:
            checks = tuple(c for cs in p.checks.values() for c in cs)[-30:]
        return SpeakerSnapshot(
            self._picture(),
            tuple(watch.candidates[:50]),
            len(watch.candidates),
            tuple(watch.sleepers[-50:]),
            checks,
            self._writer.devices(),
            state.proposed,
            state.sold_count,
            len(state.evening.unprinted()),
        )

    def health(self, timeout_s: float) -> HallSnapshot | None:
        """The public picture if the lock is free within ``timeout_s``, else ``None`` (the hall is stuck)."""
        return self._writer.health(timeout_s, self._picture)

    @locked
    def drawable_numbers(self) -> tuple[int, ...]:
        """The numbers a draw would accept now; empty while the hall may not draw (no partie, a claim, an award
        the speaker has not resumed after, a held ball, an annex room lost or not yet showing the last ball)."""
        p = self._state.evening.running
        if p is None or p.current is None or p.paused or p.held or p.pending or self._state.proposed is not None:
            return ()
        rooms = self._state.rooms
        if rooms.blocking() is not None or rooms.behind() is not None:  # an annex lost or behind (RULES L23, L23a)
            return ()
        drawn = set(p.draws)
        return tuple(n for n in range(1, 91) if n not in drawn)

    @locked
    def card(self, card_id: str) -> CardState | None:
        """A carton against the latest partie (drawn numbers, last number, may it play), or ``None`` if unknown."""
        return card_state(self._state, self._state.book.resolve(card_id))

    def cards(self, series: str | None = None) -> tuple[tuple[str, Card], ...]:
        """The book's cartons (of one ``series`` when given), in book order."""
        book = self._state.book  # immutable: a new one replaces it whole, so it is read without the lock
        return tuple((cid, card) for cid, card in book.items() if not series or cid.startswith(series + "-"))

    def link_cards(self, texts: Sequence[str]) -> tuple[LinkedCard, ...]:
        """The cartons a player's phone asks to follow (« Mes cartons »), read by the one card-ID reader, each with
        its grid or why not. The book is immutable and read without the lock (the near misses cost the speaker
        nothing); whether each may play is one short locked read."""
        book = self._state.book
        columns = self._state.config.cards.columns
        read: list[tuple[str, str, Card | None]] = []
        for text in texts:
            ok = claimable_card_id(text)
            cid = book.resolve(text) if ok else str(text)[:MAX_CARD_TEXT]
            read.append((text, cid, book.get(cid) if ok else None))
        known = [cid for _, cid, card in read if card is not None]
        playing = self._may_play(known) if known else frozenset()
        out = []
        near_left = NEAR_MISSES_LOOKED_UP
        for text, cid, card in read:
            if card is None:
                bad = not claimable_card_id(text)
                near = () if bad or near_left <= 0 else tuple(book.near(cid))
                near_left -= 0 if bad else 1
                out.append(LinkedCard(text, cid, None, "bad_card_id" if bad else "unknown_card", near))
            elif cid not in playing:
                out.append(LinkedCard(text, cid, None, "unsold_card"))
            else:
                out.append(LinkedCard(text, cid, tuple(tuple(row) for row in card.grid(columns))))
        return tuple(out)

    @locked
    def players(self) -> PlayersSet:
        """How much the players' phones help now (``[players]``, or as set on /admin)."""
        return self._state.players()

    @locked
    def _may_play(self, card_ids: Sequence[str]) -> frozenset[str]:
        return frozenset(c for c in card_ids if self._state.may_play(c))

    @locked
    def card_count(self) -> tuple[int, int]:
        """(cartons in the book, cartons sold)."""
        return len(self._state.book), self._state.sold_count

    def write_cards_csv(self, out: io.TextIOBase) -> None:
        """The card book as CSV (INTERFACE §2) into the text stream ``out``."""
        self._state.book.write_csv(out)  # immutable, read without the lock

    @locked
    def programme_state(self) -> ProgrammeState:
        """The parties played (their lots as played) and the latest edit of the programme."""
        ev = self._state.evening
        played = tuple(PartieSpec(tuple(lot.spec for lot in p.lots), p.consolation) for p in ev.parties)
        return ProgrammeState(played, ev.programme_edit, ev.running is not None)

    @locked
    def pin_hashes(self) -> Mapping[str, PinChanged]:
        """The PINs changed on /admin tonight, by role (salted hashes, never a PIN)."""
        return MappingProxyType(dict(self._state.evening.pin_hashes))

    @locked
    def records(self, type: str | None = None) -> tuple[Record, ...]:
        """The journal's records so far (of one event ``type`` when given)."""
        return tuple(r for r in self._writer.journal.records() if type is None or r.type == type)

    @locked
    def last_seq(self) -> int:
        return self._state.evening.last_seq

    def report(self) -> EveningReport:
        """The evening's report (the admin's CSV and PDF), from one consistent reading, with the lotos recorded
        this civil year (the archived evenings' summaries are read outside the lock)."""
        hall = self._state.config.hall
        return with_year(self._evening_report(hall.name, hall.language, hall.timezone), self._state.config.data_dir)

    @locked
    def _evening_report(self, name: str, language: str, timezone: str) -> EveningReport:
        records = list(self._writer.journal.records())
        return build_report(
            self._state.evening, records, name, language=language, timezone=timezone, accounts=other_accounts(records)
        )
