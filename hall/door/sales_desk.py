"""The sales desk of the hall: the card book, the caisse's sales and price tiers, cartons marked sold by hand.

Its commands run under the writer's lock (``@locked``) and commit through it; the rules of a sale (tiers, the
law's 20 €, names) are ``hall/cartons/sales.py``'s, the ledger is the evening's (``Evening.sales``).
"""

from __future__ import annotations

import dataclasses
import gc
import hashlib
from collections.abc import Iterable, Sequence

from hall.cartons import sales as sales_rules
from hall.cartons.card_ids import card_code
from hall.cartons.cardbook import CardBook
from hall.door.state import HallState
from hall.door.writer import Writer, locked
from hall.events import CardsImported, CardsSold, PricesSet, Record, SalePaid, SaleRecorded, SaleVoided
from hall.refusal import Rejected
from hall.rights import EVERYTHING, require
from hall.snapshots import BasketCheck


class SalesDesk:
    """What is sold, to whom, at what price; which cartons the hall holds."""

    def __init__(self, writer: Writer, state: HallState, secret: bytes = b""):
        self._writer = writer
        self._state = state
        self._secret = secret  # the hall's key: the sales' phone codes are its MACs

    # ---- the card book -----------------------------------------------------------------------------------
    @locked
    def set_sold(self, card_ids: Iterable[str], sold: bool = True, *, role: str, session: str = "") -> Record:
        """Mark cartons sold (or handed back) by hand; unknown ids are refused, naming them.

        Once the caisse records sales (or with ``[sales] required``) only the admin may, and never to unsell a
        carton a live sale holds (void the sale): the desk cannot change what the caisse sold. Every mark is in
        the report."""
        require(role, "set_sold")
        state = self._state
        ids = tuple(dict.fromkeys(self._state.book.resolve(c) for c in card_ids))
        unknown = [c for c in ids if c not in state.book]
        if unknown:
            raise Rejected("unknown_card", cards=unknown[:20], count=len(unknown))
        if state.caisse_sells() and role not in EVERYTHING:
            raise Rejected("sold_by_caisse")
        held = [c for c in ids if c in state.evening.sales.holder]
        if held and not sold:
            sales = sorted({state.evening.sales.holder[c] for c in held})
            raise Rejected(
                "held_by_sale",
                cards=held[:20],
                count=len(held),
                sales=sales[:20],
                names=", ".join(held[:5]) + (f" (+{len(held) - 5})" if len(held) > 5 else ""),
                numbers=", ".join(map(str, sales[:10])),
            )
        return self._writer.commit(CardsSold(ids, bool(sold), str(session)[:40]), role)

    @locked
    def adopt_cards(self, incoming: CardBook, *, role: str) -> Record:
        """Add ``incoming``'s cartons to the book (same ID: the new carton), save it to the data folder, journal it.

        The one way a new card book comes in (command line, admin page, demo)."""
        require(role, "import_cards")
        merged = self._state.book.merged(incoming)
        data_dir = self._state.config.data_dir
        self._writer.journal.offload(lambda: merged.save(data_dir))  # its fsync in a real thread under gevent
        digest = hashlib.sha256((data_dir / "cards.csv").read_bytes()).hexdigest()
        return self.replace_book(merged, digest, len(incoming), role=role)

    @locked
    def replace_book(self, book: CardBook, sha256: str, added: int, *, role: str) -> Record:
        """Adopt a new card book (already saved to the data folder by the caller) and journal the change."""
        require(role, "import_cards")
        self._state.book = book
        record = self._writer.commit(CardsImported(added, len(book), sha256), role)
        gc.freeze()  # the new book lives all evening: keep full collections from walking it (see runtime)
        return record

    # ---- the caisse -------------------------------------------------------------------------------------
    @locked
    def price_tiers(self) -> tuple[sales_rules.PriceTier, ...]:
        """The tiers the caisse offers: as edited on /admin tonight, else the config file's."""
        edited = self._state.evening.price_tiers
        if edited is not None:
            return edited
        return sales_rules.tiers_from_config((t.cards, t.eur) for t in self._state.config.sales.price)

    @locked
    def set_prices(self, tiers: Sequence[sales_rules.PriceTier], *, role: str) -> Record:
        """Replace the price tiers from the next sale on; each carton under the law's 20 € (``stake_too_high``)."""
        require(role, "edit_prices")
        if (
            not tiers
            or len(tiers) > sales_rules.MAX_TIERS
            or len({t.cards for t in tiers}) != len(tiers)
            or any(
                not 1 <= t.cards <= sales_rules.MAX_RANGE or not 0 <= t.cents <= sales_rules.MAX_SALE_CENTS
                for t in tiers
            )
        ):
            raise Rejected("bad_prices", where="tarifs", why="")
        for tier in tiers:
            if not sales_rules.stake_ok(tier.cents, tier.cards):
                raise Rejected("stake_too_high", eur=sales_rules.per_carton_eur(tier.cents, tier.cards))
        return self._writer.commit(PricesSet(tuple(sorted(tiers, key=lambda t: t.cards))), role)

    def suggested_cents(self, count: int) -> int | None:
        """The cheapest price of ``count`` cartons by the hall's tiers, in cents (``None``: no tier sum makes it)."""
        return sales_rules.best_price(count, self.price_tiers())

    def _basket(self, card_ids: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
        """The cartons of a sale as the hall reads them, those the book lacks, those already sold (the lock held)."""
        book = self._state.book
        ids = list(dict.fromkeys(book.resolve(c) for c in card_ids if isinstance(c, str)))
        unknown = [c for c in ids if c not in book]
        return ids, unknown, [c for c in ids if c in book and self._state.already_sold(c)]

    @locked
    def check_basket(self, card_ids: Sequence[str]) -> BasketCheck:
        """What ``sell`` would say of these cartons, without selling: the unknown ones (each with the book's cartons
        one keystroke away: « vérifiez le numéro ») and those already sold. Bounded as a sale is."""
        ids, unknown, taken = self._basket(list(card_ids)[: sales_rules.MAX_RANGE])
        near = tuple((c, tuple(self._state.book.near(c))) for c in unknown[: sales_rules.MAX_NAMED])
        return BasketCheck(tuple(ids), near, tuple(taken[: sales_rules.MAX_NAMED]))

    @locked
    def sell(
        self,
        card_ids: Sequence[str],
        *,
        role: str,
        payment: str,
        cents: int | None = None,
        paid: bool = True,
        buyer: str = "",
        seller: str = "",
        partie: int | None = None,
        session: str = "",
        note: str = "",
    ) -> Record:
        """Record a sale (or a reservation when not ``paid``); refused whole: ``unknown_card``, ``already_sold``,
        ``stake_too_high`` (20 € or more a carton)… The tiers' price of the moment is journalled beside it.
        ``seller`` is the logged-in desk's (its session's name), never a request's word; ``note`` the desk's own.
        After the evening's close: ``evening_closed``."""
        require(role, "sell")
        self._state.require_open()
        if payment not in sales_rules.PAYMENTS:
            raise Rejected("bad_payment", payment=str(payment)[:20])
        ids, unknown, taken = self._basket(card_ids)
        if not ids:
            raise Rejected("no_cards")
        if len(ids) > sales_rules.MAX_RANGE:
            raise Rejected("range_too_large", count=len(ids), limit=sales_rules.MAX_RANGE)
        if unknown:
            near = sorted({s for c in unknown[:5] for s in self._state.book.near(c)})  # "vérifiez le numéro"
            raise Rejected("unknown_card", cards=unknown[: sales_rules.MAX_NAMED], count=len(unknown), suggestions=near)
        if taken:
            raise Rejected("already_sold", cards=taken[: sales_rules.MAX_NAMED], count=len(taken))
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
            note = sales_rules.clean_name(note)
        except ValueError as exc:
            raise Rejected("bad_name", why=str(exc), max=sales_rules.MAX_TEXT) from None
        event = SaleRecorded(
            self._state.evening.sales.next_id,
            tuple(ids),
            cents,
            payment,
            bool(paid),
            buyer,
            seller,
            role,
            partie,
            offered,
            str(session)[:40],
            note,
        )
        return self._writer.commit(event, role)

    def _live_sale(self, sale_id: object) -> sales_rules.Sale:
        sale = self._state.evening.sales.sales.get(sale_id) if isinstance(sale_id, int) else None
        if sale is None:
            raise Rejected("unknown_sale", sale_id=sale_id)
        if sale.voided:
            raise Rejected("sale_voided", sale_id=sale_id)
        return sale

    @locked
    def void_sale(self, sale_id: int, *, role: str, reason: str = "") -> Record:
        """Cancel a sale (admin): its cartons are unsold again; ``sale_has_winner`` once one of them has won."""
        require(role, "void_sale")
        sale = self._live_sale(sale_id)
        won = sorted(set(sale.card_ids) & self._state.evening.winners())
        if won:
            raise Rejected("sale_has_winner", sale_id=sale_id, cards=won)
        return self._writer.commit(SaleVoided(sale_id, str(reason or "")[:200]), role)

    @locked
    def pay_sale(self, sale_id: int, payment: str, *, role: str) -> Record:
        """A reserved sale (pré-vente) paid at the door."""
        require(role, "pay_sale")
        sale = self._live_sale(sale_id)
        if payment not in sales_rules.PAYMENTS:
            raise Rejected("bad_payment", payment=str(payment)[:20])
        if sale.paid:
            raise Rejected("already_paid", sale_id=sale_id)
        return self._writer.commit(SalePaid(sale_id, payment), role)

    # ---- the ledger, read ----------------------------------------------------------------------------------
    @locked
    def sales(self) -> tuple[sales_rules.Sale, ...]:
        """Every sale of the evening, oldest first (copies: the ledger stays the hall's)."""
        return tuple(dataclasses.replace(sale) for sale in self._state.evening.sales.sales.values())

    @locked
    def sale(self, sale_id: int) -> sales_rules.Sale | None:
        """One sale (a copy), or ``None``."""
        sale = self._state.evening.sales.sales.get(sale_id)
        return None if sale is None else dataclasses.replace(sale)

    def card_code(self, card_id: str) -> str:
        """The code printed on a carton (``hall.cartons.card_ids.card_code``): a phone that gives it holds the paper."""
        return card_code(self._secret, card_id)

    def sale_code(self, sale_id: int) -> str:
        """The code of the sale's ``/s/{code}``, which links all its cartons to a player's phone at once."""
        return sales_rules.sale_code(self._secret, sale_id)

    @locked
    def sale_cards(self, code: str) -> tuple[str, ...]:
        """The cartons of the live sale a ``/s/{code}`` names; ``unknown_sale`` for a code the hall did not make
        or a sale voided since."""
        sale_id = sales_rules.sale_of_code(self._secret, code)
        sale = None if sale_id is None else self._state.evening.sales.sales.get(sale_id)
        if sale is None or sale.voided:
            raise Rejected("unknown_sale")
        return tuple(sale.card_ids)

    @locked
    def sales_totals(self) -> dict:
        """Cartons sold and the takings in cents, by payment, seller and partie (``hall.cartons.sales.totals``)."""
        return self._state.evening.sales.totals()

    @locked
    def sales_recorded(self) -> bool:
        """Whether the hall records sales at all (the book's ``sold`` column, the caisse, or cartons marked by hand):
        when not, every carton plays."""
        return self._state.sales_recorded()

    def caisse_sells(self) -> bool:
        """Whether the caisse alone says which cartons play (unsold ones are refused): a sale was recorded tonight,
        or ``[sales] required``."""
        return self._state.caisse_sells()
