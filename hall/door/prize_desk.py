"""The prize desk of the hall: the vouchers an award issues, their printing, and the prizes handed over for them.

Its commands run under the writer's lock (``@locked``) and commit through it; the signed codes are
``hall/money/vouchers.py``'s, the vouchers themselves the evening's (``Evening.vouchers``).
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from hall.door.state import HallState
from hall.door.writer import Writer, locked
from hall.events import LotAwarded, Record, VoucherIssued, VoucherPrinted, VoucherRedeemed, VoucherReprintRequested
from hall.loto.lots import prize_at
from hall.loto.partie import Partie
from hall.money.vouchers import check_code, make_code, near_codes, normalize_code
from hall.refusal import Rejected
from hall.rights import require
from hall.snapshots import PrintJob, Redemption


def _local_time(at: str, zone: str) -> str:
    """``20:41`` for a journal's ISO time, on the hall's clock (``[hall] timezone``); ``?`` if unreadable."""
    try:
        return dt.datetime.fromisoformat(at).astimezone(ZoneInfo(zone)).strftime("%H:%M")
    except (ValueError, ZoneInfoNotFoundError):
        return "?"


class PrizeDesk:
    """The vouchers: issued with each award, printed by the print queue, redeemed at the lots' table."""

    def __init__(self, writer: Writer, state: HallState, secret: bytes):
        self._writer = writer
        self._state = state
        self._secret = secret

    def vouchers_for(self, award: LotAwarded, p: Partie, after: int | None = None) -> list[VoucherIssued]:
        """The vouchers of an award: one per winner of the lot, one per consolation, numbered on from the last
        (or from ``after``: several lots given at once)."""
        lot = p.lots[award.lot_index]
        prize = prize_at(lot.spec, award.draw_index + 1)  # a maxi-bingo won late: its fallback (RULES L20)
        serial = self._state.evening.voucher_serial if after is None else after
        vouchers = []
        for card_id, is_consolation in [(c, False) for c in award.winners] + [(c, True) for c in award.consolation]:
            serial += 1
            label = p.consolation if is_consolation else prize.label
            vouchers.append(
                VoucherIssued(
                    make_code(self._secret, serial),
                    serial,
                    p.number,
                    award.lot_index,
                    lot.kind,
                    label,
                    card_id,
                    is_consolation,
                    award.shared and not is_consolation,
                )
            )
        return vouchers

    @locked
    def redeem(self, code: str, *, role: str) -> Redemption:
        """Hand a prize over for a voucher: ``unknown_voucher`` (forged, altered, never issued), ``already_redeemed``."""
        require(role, "redeem")
        code = normalize_code(code) if isinstance(code, str) else ""
        vouchers = self._state.evening.vouchers
        voucher = vouchers.get(code)
        if check_code(self._secret, code) is None or voucher is None:
            raise Rejected("unknown_voucher", code=code, suggestions=near_codes(code, vouchers))
        if voucher.redeemed:  # when, and which lot: the desk tells the player what happened to it
            i, at = voucher.issued, self._state.redeemed_at.get(code, "")
            raise Rejected(
                "already_redeemed",
                code=code,
                at=at,
                time=_local_time(at, self._state.config.hall.timezone),
                lot=i.lot_label,
                partie=i.partie,
                card=i.card_id,
                consolation=i.consolation,
            )
        record = self._writer.commit(VoucherRedeemed(code), role)
        return Redemption(voucher.issued, record.seq)

    @locked
    def voucher_printed(self, code: str, duplicate: bool = False, *, role: str) -> Record:
        """Record that the printer took a voucher (the print queue calls this after each success)."""
        require(role, "voucher_printed")
        if code not in self._state.evening.vouchers:
            raise Rejected("unknown_voucher", code=code)
        return self._writer.commit(VoucherPrinted(code, duplicate), role)

    @locked
    def request_reprint(self, code: str, *, role: str) -> Record:
        """Ask for a DUPLICATA of a voucher."""
        require(role, "reprint")
        code = normalize_code(code)
        if code not in self._state.evening.vouchers:
            raise Rejected("unknown_voucher", code=code)
        return self._writer.commit(VoucherReprintRequested(code), role)

    @locked
    def unprinted(self) -> list[tuple[VoucherIssued, bool]]:
        """Vouchers still to print (after a restart, or while the printer was away)."""
        return self._state.evening.unprinted()

    @locked
    def vouchers_to_print(self) -> tuple[PrintJob, ...]:
        """What the printer owes, oldest first: each voucher with its lot as it stands and when it was issued."""
        parties = self._state.evening.parties
        jobs = []
        for issued, duplicate in self._state.evening.unprinted():
            label, value = issued.lot_label, None
            if 0 < issued.partie <= len(parties) and issued.lot_index < len(parties[issued.partie - 1].lots):
                prize = parties[issued.partie - 1].lots[issued.lot_index].prize  # a maxi-bingo's, as won
                label, value = prize.label, prize.value_eur
            jobs.append(PrintJob(issued, duplicate, label, value, self._state.issued_at.get(issued.code, "")))
        return tuple(jobs)
