"""The tombola at the hall's door (RULES L24): prepared on /admin, sold at the caisse, drawn in public on the
projector, its lots handed over at the prize desk against the ticket's signed code.

Its commands run under the writer's lock (``@locked``) and commit through it; what a tombola must be is
``hall/tombola/rules.py``'s, its state ``hall/tombola/model.py``'s (``HallState.tombola``), the draw
``hall/tombola/draw.py``'s with the hall's own randomness (the OS's; a seeded one in tests).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from hall.cartons.sales import PAYMENTS, clean_name
from hall.door.state import HallState
from hall.door.writer import Writer, locked
from hall.events import (
    Record,
    TombolaCollected,
    TombolaDrawn,
    TombolaDrawOpened,
    TombolaListPrinted,
    TombolaListRequested,
    TombolaPrinted,
    TombolaSalesClosed,
    TombolaSold,
)
from hall.refusal import Rejected
from hall.rights import require
from hall.sources import Rng
from hall.tombola import rules
from hall.tombola.codes import check_ticket_code, ticket_code
from hall.tombola.draw import draw_ticket
from hall.tombola.model import Tombola, TombolaPicture, Win

MAX_SOLD_AT_ONCE = 1_000  # tickets in one sale


class TombolaDesk:
    """The evening's tombola: its preparation, its sales, its draw, its lots handed over."""

    def __init__(self, writer: Writer, state: HallState, secret: bytes, rng: Rng):
        self._writer = writer
        self._state = state
        self._secret = secret
        self._rng = rng

    @property
    def _t(self) -> Tombola:
        return self._state.tombola

    def _prepared(self) -> rules.TombolaPrepared:
        if self._t.prepared is None:
            raise Rejected("tombola/no_tombola")
        return self._t.prepared

    @locked
    def prepare_tombola(self, body: Mapping[str, object], *, role: str) -> Record:
        """Prepare (or prepare again) the tombola from /admin's JSON; refused once drawn, or, once a ticket is sold,
        changing its price or its tickets."""
        require(role, "tombola_prepare")
        prepared = rules.prepared_from(body, self._state.config.hall.name)
        t = self._t
        if t.closed or t.wins:
            raise Rejected("tombola/sales_closed")
        if (
            t.sales
            and t.prepared is not None
            and (prepared.price_cents, prepared.tickets, prepared.carnet)
            != (
                t.prepared.price_cents,
                t.prepared.tickets,
                t.prepared.carnet,
            )
        ):
            raise Rejected("tombola/tombola_on_sale", sold=len(t.holder))
        return self._writer.commit(prepared, role)

    @locked
    def sell_tombola(
        self,
        *,
        buyer: object,
        payment: object,
        tickets: Sequence[int] | None = None,
        count: int | None = None,
        carnets: int | None = None,
        amount_cents: int | None = None,
        role: str,
        session: str = "",
    ) -> Record:
        """Sell tickets (the numbers given, or the next ``count`` unsold, or ``carnets`` whole carnets) to a named
        buyer; refused for a ticket already sold, after the sales closed, or for an amount that is not the price."""
        require(role, "tombola_sell")
        p = self._prepared()
        if self._t.closed:
            raise Rejected("tombola/sales_closed")
        name = self._buyer(buyer)
        if payment not in PAYMENTS:
            raise Rejected("bad_payment")
        numbers = self._numbers(p, tickets, count, carnets)
        cents = len(numbers) * p.price_cents
        if amount_cents is not None and amount_cents != cents:
            raise Rejected("tombola/wrong_amount", expected=cents / 100, count=len(numbers))
        sale = TombolaSold(self._t.next_sale_id(), numbers, name, cents, str(payment), str(session)[:40])
        return self._writer.commit(sale, role)

    @staticmethod
    def _buyer(buyer: object) -> str:
        try:
            name = clean_name(buyer)
        except ValueError:
            raise Rejected("bad_name", max=80) from None
        if not name:
            raise Rejected("tombola/buyer_required")
        return name

    def _numbers(
        self, p: rules.TombolaPrepared, tickets: Sequence[int] | None, count: int | None, carnets: int | None
    ) -> tuple[int, ...]:
        """The ticket numbers of one sale, checked: each issued, none sold, no more than ``MAX_SOLD_AT_ONCE``."""
        if sum(x is not None for x in (tickets, count, carnets)) != 1:
            raise Rejected("bad_field", field="tickets")
        if tickets is not None:
            return self._typed(p, tickets)
        if count is not None:
            return self._next_free(p, rules.int_of(count, "count", 1, MAX_SOLD_AT_ONCE))
        return self._carnets(p, rules.int_of(carnets, "carnets", 1, MAX_SOLD_AT_ONCE // p.carnet or 1))

    def _typed(self, p: rules.TombolaPrepared, tickets: Sequence[int]) -> tuple[int, ...]:
        if not isinstance(tickets, list | tuple) or not 1 <= len(tickets) <= MAX_SOLD_AT_ONCE:
            raise Rejected("bad_field", field="tickets", low=1, high=MAX_SOLD_AT_ONCE)
        numbers = tuple(dict.fromkeys(rules.int_of(n, "tickets", 1, p.tickets) for n in tickets))
        taken = [n for n in numbers if n in self._t.holder]
        if taken:
            raise Rejected("tombola/ticket_sold", tickets=taken[:20], names=", ".join(map(str, taken[:10])))
        return numbers

    def _next_free(self, p: rules.TombolaPrepared, count: int) -> tuple[int, ...]:
        free = [n for n in range(1, p.tickets + 1) if n not in self._t.holder][:count]
        if len(free) < count:
            raise Rejected("tombola/not_enough_tickets", left=len(free))
        return tuple(free)

    def _carnets(self, p: rules.TombolaPrepared, carnets: int) -> tuple[int, ...]:
        """Whole carnets, the first ones none of whose tickets is sold."""
        whole = [
            range(first, first + p.carnet)
            for first in range(1, p.tickets + 1, p.carnet)
            if not any(n in self._t.holder for n in range(first, first + p.carnet))
        ][:carnets]
        if len(whole) < carnets:
            raise Rejected("tombola/not_enough_tickets", left=len(whole) * p.carnet)
        return tuple(n for carnet in whole for n in carnet)

    @locked
    def close_tombola_sales(self, *, role: str) -> Record:
        """Close the sales: no ticket is sold after this, and the draw may begin."""
        require(role, "tombola_draw")
        self._prepared()
        if self._t.closed:
            raise Rejected("tombola/sales_closed")
        return self._writer.commit(TombolaSalesClosed(len(self._t.holder)), role)

    @locked
    def draw_tombola(
        self,
        *,
        president: object = None,
        witnesses: object = None,
        ticket: object = None,
        every: bool = False,
        role: str,
    ) -> Record:
        """Draw the next lot (or, with ``every``, each lot left) among the sold tickets not won yet: by the hall, or
        the ``ticket`` drawn by hand and typed. The president and two witnesses are named before the first. Returns
        the record of the last lot drawn."""
        require(role, "tombola_draw")
        p = self._prepared()
        t = self._t
        if not t.closed:
            raise Rejected("tombola/sales_open")
        opened = self._conductors(president, witnesses)
        if t.next_lot is None:
            raise Rejected("tombola/all_drawn", lots=len(p.tombola_lots))
        if ticket is not None and every:
            raise Rejected("bad_field", field="all")
        drawn = [self._by_hand(p, ticket)] if ticket is not None else self._by_hall(p, every)
        events = [*([opened] if opened else []), *drawn]
        self._writer.commit(events[0], role, *events[1:])
        last = self._state.last  # this commit's last record, under the lock: the last lot drawn
        assert last is not None
        return last

    def _conductors(self, president: object, witnesses: object) -> TombolaDrawOpened | None:
        """The draw's conductors as named now: a new event when they are new, ``None`` when unchanged or unsaid
        (after the first draw); refused before the first draw without a president and two distinct witnesses."""
        if president is None and witnesses is None and self._t.conductors is not None:
            return None
        names = witnesses if isinstance(witnesses, list | tuple) else ()
        if len(names) != 2:
            raise Rejected("tombola/witnesses_required")
        who = tuple(rules.text_of(n, "witnesses") for n in (president, *names))
        if len({n.casefold() for n in who}) != 3:
            raise Rejected("tombola/witnesses_required")
        opened = TombolaDrawOpened(who[0], who[1:])
        return None if opened == self._t.conductors else opened

    def _by_hand(self, p: rules.TombolaPrepared, ticket: object) -> TombolaDrawn:
        n = rules.int_of(ticket, "ticket", 1, p.tickets)
        if n in self._t.winners():
            raise Rejected("tombola/ticket_won", ticket=n)
        if n not in self._t.holder:
            raise Rejected("tombola/ticket_unsold", ticket=n)
        return TombolaDrawn(self._t.next_lot or 0, n, "hand")

    def _by_hall(self, p: rules.TombolaPrepared, every: bool) -> list[TombolaDrawn]:
        first = self._t.next_lot or 0
        won = self._t.winners()
        out = []
        for index in range(first, len(p.tombola_lots) if every else first + 1):
            n = draw_ticket(self._rng, self._t.holder, won)
            if n is None:
                break
            won.add(n)
            out.append(TombolaDrawn(index, n, "hall"))
        if not out:
            raise Rejected("tombola/no_ticket_left")
        return out

    @locked
    def collect_tombola_lot(self, code: str, *, role: str) -> Record:
        """Hand a lot over against its winning ticket's signed code; refused for a forged code, a ticket that won
        nothing, a ticket that may still win (the draw not over), or a lot already handed over."""
        require(role, "tombola_collect")
        win = self._winning(code)
        return self._writer.commit(TombolaCollected(win.lot_index, win.ticket), role)

    @locked
    def tombola_lot_of(self, code: str, *, role: str) -> Win:
        """The lot a ticket's signed code is owed, as the prize desk reads it before handing it over (journals
        nothing); refused as ``collect_tombola_lot`` would refuse it now."""
        require(role, "tombola_collect")
        return self._winning(code)

    def _winning(self, code: str) -> Win:
        """The win of the ticket ``code`` carries, still to hand over, or the refusal in its own words."""
        p = self._prepared()
        n = check_ticket_code(self._secret, p.authority_number, str(code)[:40])
        if n is None:
            raise Rejected("tombola/unknown_code")
        t = self._t
        win = next((w for w in t.wins if w.ticket == n), None)
        if win is None:
            if n in t.holder and t.next_lot is not None:  # sold, and lots are still to draw: it may yet win
                raise Rejected("tombola/not_drawn", ticket=n, left=len(p.tombola_lots) - len(t.wins))
            raise Rejected("tombola/no_lot", ticket=n)
        if win.lot_index in t.collected:
            raise Rejected("tombola/already_collected", ticket=n, at=t.collected[win.lot_index])
        return win

    @locked
    def tombola_printed(self, sale_id: int, *, role: str) -> Record:
        """Record that the printer took sale ``sale_id``'s tickets and stubs."""
        require(role, "tombola_printed")
        if sale_id not in self._t.unprinted:
            raise Rejected("not_found")
        return self._writer.commit(TombolaPrinted(sale_id), role)

    @locked
    def tombola_to_print(self) -> tuple[TombolaSold, ...]:
        """The tombola sales whose tickets the printer owes, oldest first."""
        return tuple(s for _, s in sorted(self._t.unprinted.items()))

    @locked
    def request_tombola_list(self, *, role: str) -> Record:
        """Ask for the winners' list on paper (the print queue prints it); refused before a lot is drawn."""
        require(role, "tombola_draw")
        self._prepared()
        if not self._t.wins:
            raise Rejected("tombola/nothing_drawn")
        return self._writer.commit(TombolaListRequested(len(self._t.wins)), role)

    @locked
    def tombola_list_printed(self, *, role: str) -> Record:
        """Record that the printer took the winners' list."""
        require(role, "tombola_printed")
        if not self._t.list_owed:
            raise Rejected("not_found")
        return self._writer.commit(TombolaListPrinted(len(self._t.wins)), role)

    @locked
    def tombola_list_owed(self) -> bool:
        """Whether the printer owes the winners' list."""
        return self._t.list_owed

    @locked
    def tombola_check(self, body: Mapping[str, object]) -> rules.DraftCheck:
        """The 15 % check of a tombola as /admin is typing it, journalling nothing (the same core as
        ``prepare_tombola``: ``rules.prepared_from`` then ``rules.cost_check``), and what it would be refused for."""
        return rules.draft_check(body, self._state.config.hall.name)

    def tombola_code(self, ticket: int) -> str:
        """The signed code printed on ``ticket`` (of the tombola prepared)."""
        return ticket_code(self._secret, self._prepared().authority_number, ticket)

    @locked
    def tombola(self) -> TombolaPicture:
        """The tombola now, as an immutable picture."""
        t = self._t
        p = t.prepared
        c = t.conductors
        return TombolaPicture(
            p,
            None if p is None else rules.cost_check(p),
            () if p is None else rules.warnings_of(p),
            tuple(t.sold()),
            tuple(sale for sale, _ in t.sales.values()),
            t.closed,
            "" if c is None else c.president,
            () if c is None else c.witnesses,
            tuple(t.wins),
            tuple(sorted(t.collected)),
            t.next_lot,
        )
