"""The controllers' desk of the hall: a claimed carton checked against the last-number rule, the way a tie is
settled said before it is settled, and the open lot awarded to the valid claims (RULES L10–L14).

Its commands run under the writer's lock (``@locked``) and commit through it. The check is
``hall/loto/claims.py``'s, the ties' rules ``hall/loto/ties.py``'s; an award's vouchers are the prize desk's,
journalled in the award's own transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hall.cartons.card_ids import MAX_CLAIM_TEXT, check_card_id, claimable_card_id
from hall.door.prize_desk import PrizeDesk
from hall.door.snapshot_builder import card_state
from hall.door.state import HallState
from hall.door.writer import Writer, locked
from hall.events import ClaimChecked, Record, VoucherIssued
from hall.loto.claims import Verdict, verify
from hall.loto.partie import Lot, Partie
from hall.loto.ties import announce, as_announced, lots_given, one_claim_per_player, settle
from hall.refusal import Rejected
from hall.rights import require
from hall.snapshots import AwardResult, ClaimResult, LotRef, PriorCheck
from hall.sources import Rng


class ClaimDesk:
    """The claims of one hall: checked, tied, awarded. ``rng`` draws the tie-breaks the hall draws itself."""

    def __init__(self, writer: Writer, state: HallState, prizes: PrizeDesk, rng: Rng):
        self._writer = writer
        self._state = state
        self._prizes = prizes
        self.rng = rng

    @locked
    def check_claim(self, card_id: str, *, role: str) -> ClaimResult:
        """Check a claimed carton (the check is journalled); returns the verdict with the carton as it stands."""
        require(role, "check_claim")
        if not claimable_card_id(card_id):  # the API, the scanner and the keypad alike: never journalled
            raise Rejected("bad_card_id", card_id=str(card_id)[:MAX_CLAIM_TEXT])
        cid = self._state.book.resolve(card_id)  # typed leniently: no dash, lower case, spaces, O/I for 0/1
        p = self._state.evening.partie
        before = tuple(PriorCheck(c.verdict, c.last, c.lot_index) for c in (p.checks.get(cid, []) if p else []))
        lot = p.current_lot if p is not None and not p.cleared else None
        card = self._state.book.get(cid)
        character_ok = None
        suggestions: tuple[str, ...] = ()
        to_go: tuple[int, ...] = ()
        if lot is None or p is None:
            event = ClaimChecked(cid, "closed", None, None, p.last if p else None)
        elif card is None:
            event = ClaimChecked(cid, "unknown_card", p.current, lot.kind, p.last)
            character_ok = check_card_id(cid)
            suggestions = tuple(self._state.book.near(cid))  # a near miss: "vérifiez le numéro", never a refusal
        elif not self._state.may_play(cid):
            event = ClaimChecked(cid, "unsold_card", p.current, lot.kind, p.last)
        elif cid in p.cancelled:
            event = ClaimChecked(cid, "cancelled_card", p.current, lot.kind, p.last)
        else:
            v = self._verdict(p, lot, cid)
            to_go = v.to_go
            event = ClaimChecked(
                cid, v.kind, p.current, lot.kind, v.last, v.rows, v.complete_rows, v.missing, v.reason, v.ball, v.prize
            )
        record = self._writer.commit(event, role)
        ref = None if lot is None or event.lot_index is None else LotRef.of(event.lot_index, lot.spec)
        return ClaimResult(
            event,
            ref,
            before,
            record.seq,
            character_ok,
            None if event.verdict == "unknown_card" else card_state(self._state, cid),
            suggestions,
            to_go,
        )

    @locked
    def verdict_now(self, card_id: str) -> Verdict | None:
        """What a claim of ``card_id`` would be told now — the check the controllers' desk makes, never journalled
        (a player's phone calling the speaker, a test): ``None`` when no lot is open or the carton cannot claim (not
        in the book, unsold, cancelled)."""
        p = self._state.evening.running
        lot = p.current_lot if p is not None else None
        cid = self._state.book.resolve(card_id)
        if p is None or lot is None or cid not in self._state.book or not self._state.may_play(cid):
            return None
        return None if cid in p.cancelled else self._verdict(p, lot, cid)

    def card_scanned(self, text: str) -> ClaimResult:
        """A carton's barcode read by the scanner, which sits at the controllers' desk: checked, and journalled, as
        the controllers' check (as a keypad's keys are the speaker's); raises ``Rejected`` as ``check_claim``."""
        return self.check_claim(text, role="controller")

    def _verdict(self, p: Partie, lot: Lot, card_id: str) -> Verdict:
        """The verdict on ``card_id`` (a carton of the book) for ``lot`` of the partie, now."""
        card = self._state.book.get(card_id)
        assert card is not None
        return verify(card, p.draws, lot.spec, self._state.config.rules.last_number, p.paid_rows(card_id, lot.kind))

    @locked
    def announce_tie(self, method: str, *, role: str, reason: str = "", session: str = "") -> Record | None:
        """Say how the tie on the open lot is settled before settling it (``draw``, ``physical``, ``share``): fixed
        once said, changed only with a ``reason``, journalled (docs/loto-rules.md L14c, ``hall.loto.ties.announce``);
        ``None`` when it repeats the way said."""
        require(role, "award")
        p = self._state.running()
        if p.current is None:
            raise Rejected("no_tie", cards=[])
        said = announce(p.tie, method, reason, p.current, len(p.draws) - 1, tuple(p.pending), session)
        return None if said is None else self._writer.commit(said, role)

    @locked
    def award(
        self,
        *,
        role: str,
        same_player: Sequence[Sequence[str]] = (),
        tie_break: Mapping[str, Any] | None = None,
        share: bool = False,
        wins: str | None = None,
        draw: bool = False,
    ) -> AwardResult:
        """Award the open lot to the valid claims on the last ball, with a tie-break when several (RULES L13–L14).

        ``same_player`` groups cartons held by one player: such a group is one claimant (L13), drawing one
        tie-break number and winning with its first carton. For a tie the speaker may give ``tie_break`` (the
        numbers drawn by hand in the hall, carton → 1–90), ``share``, or ``draw`` (the hall draws); else the way
        announced (``announce_tie``, which binds), else ``[rules] ties`` decides. Who wins a draw is the rule's:
        ``wins`` may only repeat it. A draw gives the stage's lots in its order (docs L14b, ``hall.loto.ties.lots_given``).
        """
        require(role, "award")
        p = self._state.running()
        if p.current is None or not p.pending:
            raise Rejected("no_valid_claim")
        claimants = {c.card_id: c.rows for c in one_claim_per_player(p.pending, same_player)}
        if p.tie is not None and len(claimants) > 1:
            share, draw = as_announced(p.tie.method, tie_break, share, draw)
        outcome = settle(
            list(claimants),
            self._state.config.rules.ties,
            self.rng,
            typed=tie_break,
            share=share,
            wins=wins,
            draw=draw,
            resolve=self._state.book.resolve,
        )
        events = lots_given(
            outcome,
            claimants,
            [lot.kind for lot in p.lots],
            p.current,
            p.draws,
            lambda index, cid: self._verdict(p, p.lots[index], cid),
        )
        vouchers: list[VoucherIssued] = []
        for event in events:
            vouchers += self._prizes.vouchers_for(event, p, self._state.evening.voucher_serial + len(vouchers))
        lots = [LotRef.of(e.lot_index, p.lots[e.lot_index].spec) for e in events]
        self._writer.commit(events[0], role, *events[1:], *vouchers)  # the lots and their vouchers: all, or none
        return AwardResult(events[0], lots[0], tuple(v.code for v in vouchers), tuple(zip(events[1:], lots[1:])))
