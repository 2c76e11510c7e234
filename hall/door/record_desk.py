"""The evening's record at the hall's door: its fingerprint as it stands, and the board's copy — a short ticket with
the takings, the cartons sold, the lots given and the fingerprint, for the president and the treasurer to sign.

A ticket is journalled when it is asked for (``TicketRequested``, with its figures as they stood): its record's
hash is the fingerprint it prints, so the paper names the journal up to and including itself. The print queue
(``drivers/printer.py``) prints what the journal says is owed and journals ``TicketPrinted``: a printer away, or
a restart, loses no ticket. With ``[report] ticket_each_partie`` one is asked for by itself with each « démarquez »,
and one always at the evening's close (``close_evening``: ``evening:closed``, then the board's copy, in one
transaction), when nothing of the game or the money may be journalled any more.
"""

from __future__ import annotations

from hall.cartons.sales import totals
from hall.door.accounts import accounts_now
from hall.door.state import HallState
from hall.door.writer import Writer, locked
from hall.events import EveningClosed, Record, TicketPrinted, TicketRequested
from hall.events.settings import (
    PREFLIGHT_CHECKS,
    PREFLIGHT_DETAIL_CHARS,
    SETUP_ANSWER_CHARS,
    PreflightRun,
    SetupAnswered,
)
from hall.loto.partie import AWARDED
from hall.refusal import Rejected
from hall.rights import require
from hall.snapshots import Fingerprint, TicketJob


class RecordDesk:
    """The fingerprint and the board's copies of one hall."""

    def __init__(self, writer: Writer, state: HallState):
        self._writer = writer
        self._state = state

    def _figures(self, auto: bool = False, closing: bool = False) -> TicketRequested:
        """The ticket's figures from the state as it stands (every partie's balls, the evening's money, its three
        accounts: the cartons', the tombola's, the buvette's)."""
        evening = self._state.evening
        p = evening.partie
        money = totals(evening.sales.live())
        won = [lot for q in evening.parties for lot in q.lots if lot.status == AWARDED]
        return TicketRequested(
            p.number if p else 0,
            len(p.draws) if p else 0,
            money["total_cents"],
            tuple((k, v) for k, v in money["by_payment"].items()),
            money["cards_sold"],
            len(won),
            sum(round((lot.value_eur or 0) * 100) for lot in won),
            auto,
            tuple((q.number, len(q.draws)) for q in evening.parties),
            closing,
            tuple(self._state.rooms.rooms),
            accounts_now(evening, self._state.tombola, self._state.buvette),
        )

    def after_clear(self) -> tuple[TicketRequested, ...]:
        """What follows a « démarquez » in its transaction: the board's copy, when the hall prints one at each
        partie's end (its figures do not change with the clear)."""
        return (self._figures(auto=True),) if self._state.config.report.ticket_each_partie else ()

    @locked
    def request_ticket(self, *, role: str) -> Record:
        """Ask for the board's copy now; its record is the fingerprint it prints."""
        require(role, "report_ticket")
        return self._writer.commit(self._figures(), role)

    @locked
    def close_evening(self, *, role: str) -> Record:
        """« Clôturer la soirée »: journal ``evening:closed`` (the fingerprint as it stood) and the board's copy that
        prints the fingerprint covering it, in one transaction; returns the close's record. Refused while a partie
        runs (``partie_running``), before any partie (``nothing_to_close``) and once closed (``evening_closed``)."""
        require(role, "close_evening")
        self._state.require_open()
        evening = self._state.evening
        if evening.running is not None:
            raise Rejected("partie_running", number=evening.running.number)
        if not evening.parties:
            raise Rejected("nothing_to_close")
        last = self._state.last
        closed = EveningClosed(len(evening.parties), last.seq if last else 0, last.hash if last else "")
        return self._writer.commit(closed, role, self._figures(closing=True))

    @locked
    def closing(self) -> TicketJob | None:
        """The board's copy asked for at the evening's close (its figures and fingerprint), or ``None`` while open."""
        r = self._state.closing
        return None if r is None else TicketJob(r.event, Fingerprint(r.seq, r.at, r.hash))

    @locked
    def record_preflight(self, checks: tuple[tuple[str, bool | None, str], ...], *, role: str) -> Record:
        """Keep the pre-flight's result in the record: each check once, a known key, a verdict, a bounded detail."""
        require(role, "preflight")
        if not isinstance(checks, tuple) or not 0 < len(checks) <= len(PREFLIGHT_CHECKS):
            raise Rejected("bad_field", field="checks")
        for check in checks:
            if not (isinstance(check, tuple) and len(check) == 3 and check[0] in PREFLIGHT_CHECKS):
                raise Rejected("bad_field", field="checks")
            if check[1] not in (True, False, None) or not isinstance(check[2], str):
                raise Rejected("bad_field", field="checks")
            if len(check[2]) > PREFLIGHT_DETAIL_CHARS:
                raise Rejected("bad_field", field="checks")
        if len({c[0] for c in checks}) != len(checks):
            raise Rejected("bad_field", field="checks")
        return self._writer.commit(PreflightRun(checks), role)

    @locked
    def record_setup_answer(
        self, step: str, answers: tuple[tuple[str, str], ...], *, again: bool = False, role: str
    ) -> Record:
        """Keep a setup step's answer in the record (``setup:answered``): each ``("section.key", value)`` as the
        configuration got it, a secret already written as « set » by the caller (the record never holds one)."""
        require(role, "setup")
        if not isinstance(step, str) or not 0 < len(step) <= 20 or not isinstance(again, bool):
            raise Rejected("bad_field", field="step")
        if not isinstance(answers, tuple) or len(answers) > 20:
            raise Rejected("bad_field", field="answers")
        for answer in answers:
            if not (isinstance(answer, tuple) and len(answer) == 2 and all(isinstance(a, str) for a in answer)):
                raise Rejected("bad_field", field="answers")
            if not 0 < len(answer[0]) <= 60 or len(answer[1]) > SETUP_ANSWER_CHARS:
                raise Rejected("bad_field", field="answers")
        return self._writer.commit(SetupAnswered(step, answers, again), role)

    @locked
    def ticket_printed(self, request: int, *, role: str) -> Record:
        """Record that the printer took the ticket asked for by record ``request``."""
        require(role, "ticket_printed")
        if request not in self._state.tickets:
            raise Rejected("not_found")
        return self._writer.commit(TicketPrinted(request), role)

    @locked
    def tickets_to_print(self) -> tuple[TicketJob, ...]:
        """The board's copies owed to the printer, oldest first."""
        return tuple(
            TicketJob(r.event, Fingerprint(r.seq, r.at, r.hash)) for _, r in sorted(self._state.tickets.items())
        )

    @locked
    def fingerprint(self) -> Fingerprint:
        """The evening's fingerprint now: the last record's hash, number and time."""
        last = self._state.last
        return Fingerprint(0, "", "") if last is None else Fingerprint(last.seq, last.at, last.hash)
