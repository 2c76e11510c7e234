"""Selling cartons (INTERFACE §8): price tiers, amounts in cents, the ledger of sales rebuilt from events.

Pure and stdlib only. Money is integer cents everywhere; euros appear only when parsing what a person
typed (``parse_eur``) and when showing it (``eur``). ``SalesLedger.apply`` is the one mutator, called by
``Evening.apply`` for the ``sales:*`` events; the checks happen before, in ``Hall.sell`` / ``Hall.void_sale``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from hall.cartons.card_ids import check_card_id, make_card_id, normalize_card_id, read_card_id, split_card_id
from hall.events import PriceTier, SaleRecorded
from hall.refusal import Code

PAYMENTS = ("especes", "carte", "cheque")
MAX_SALE_CENTS = 1_000_000  # 10 000 € for one sale: anything above is a typing slip
MAX_RANGE = 10_000  # cartons in one sale at most (a range is bounded before it is expanded)
MAX_NAMED = 50  # cartons a refusal or a basket check names (the rest are counted)
MAX_TEXT = 80  # buyer and seller names
MAX_TIERS = 12  # price tiers on /admin
# Code de la sécurité intérieure, art. L322-4 (loi 2024-344): a loto traditionnel's stakes are "inférieures à
# 20 euros". A carton's price (a tier's price per carton, a sale's amount per carton) must stay below this.
STAKE_LIMIT_CENTS = 2000
NO_TIER = -1  # a sale's offered price when no sum of tiers makes its count of cartons


def stake_ok(cents: int, cards: int) -> bool:
    """Whether ``cents`` for ``cards`` cartons keeps each carton under the law's 20 € (L322-4)."""
    return cards > 0 and cents < STAKE_LIMIT_CENTS * cards


def per_carton_eur(cents: int, cards: int) -> str:
    """The price of one carton, French writing (for a refusal that quotes it)."""
    return eur(-(-cents // max(cards, 1)))


def tiers_from_config(raw: Iterable[tuple[int, float]]) -> tuple[PriceTier, ...]:
    """The tiers of ``(cards, eur)`` pairs as cents, smallest pack first."""
    return tuple(sorted((PriceTier(int(n), parse_eur(eur)) for n, eur in raw), key=lambda t: (t.cards, t.cents)))


class TierError(ValueError):
    """Price tiers that cannot be offered: ``code`` is ``bad_prices`` or ``stake_too_high``, ``where`` the tier."""

    def __init__(self, code: Code, where: str, why: str):
        super().__init__(f"{where} : {why}")
        self.code, self.where, self.why = code, where, why


def parse_tiers(raw: object) -> tuple[PriceTier, ...]:
    """Tiers sent as JSON (``[{"cards": 6, "eur": "15"}…]``), checked and bounded; raises ``TierError``."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_TIERS:
        raise TierError("bad_prices", "tarifs", f"de 1 à {MAX_TIERS} tarifs")
    tiers: dict[int, PriceTier] = {}
    for i, item in enumerate(raw, 1):
        where = f"tarif {i}"
        cards = item.get("cards") if isinstance(item, dict) else None
        if isinstance(cards, str) and cards.strip().isascii() and cards.strip().isdigit() and len(cards.strip()) <= 5:
            cards = int(cards.strip())
        if isinstance(cards, bool) or not isinstance(cards, int) or not 1 <= cards <= MAX_RANGE:
            raise TierError("bad_prices", where, f"un nombre de cartons de 1 à {MAX_RANGE}")
        try:
            cents = parse_eur(item.get("eur") if isinstance(item.get("eur"), (int, float, str)) else None)
        except ValueError:
            raise TierError("bad_prices", where, "un prix en euros, au centime") from None
        if cards in tiers:
            raise TierError("bad_prices", where, f"{cards} carton(s) a déjà un tarif")
        if not stake_ok(cents, cards):
            raise TierError("stake_too_high", where, per_carton_eur(cents, cards))
        tiers[cards] = PriceTier(cards, cents)
    return tuple(sorted(tiers.values(), key=lambda t: t.cards))


def best_price(count: int, tiers: Sequence[PriceTier]) -> int | None:
    """The cheapest price in cents of exactly ``count`` cartons as a sum of tiers, or ``None`` if no sum makes it."""
    if count < 0:
        raise ValueError("a negative number of cartons")
    best: list[int | None] = [0] + [None] * count
    for n in range(1, count + 1):
        for t in tiers:
            before = best[n - t.cards] if 0 < t.cards <= n else None
            if before is not None:
                price = before + t.cents
                now = best[n]
                if now is None or price < now:
                    best[n] = price
    return best[count]


def parse_eur(value: object) -> int:
    """Cents of an amount in euros (``15``, ``15.5``, ``"15,50"``); raises ``ValueError`` when it is not one."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"pas un montant : {value!r}")
    text = str(value).strip().replace("\u202f", "").replace(" ", "").removesuffix("€").replace(",", ".")
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"pas un montant : {value!r}") from None
    if not amount.is_finite() or amount < 0:
        raise ValueError(f"montant négatif ou infini : {value!r}")
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise ValueError(f"plus de deux décimales : {value!r}")
    if cents > MAX_SALE_CENTS:
        raise ValueError(f"montant trop grand : {value!r}")
    return int(cents)


def eur(cents: int) -> str:
    """``1550`` → ``"15,50 €"`` (French writing, a narrow no-break space before the sign)."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    grouped = f"{whole:,}".replace(",", "\u202f")
    return f"{sign}{grouped},{rest:02d}\u00a0€"


def as_eur(cents: int) -> float | int:
    """Euros as a JSON number (``1500`` → ``15``, ``1550`` → ``15.5``): for the API only, never for sums."""
    whole, rest = divmod(cents, 100)
    return whole if rest == 0 else cents / 100


def clean_name(value: object) -> str:
    """A buyer or seller name as kept: trimmed, control characters out, ``MAX_TEXT`` characters at most."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError("un nom est un texte")
    text = "".join(ch for ch in value if ch.isprintable()).strip()
    if len(text) > MAX_TEXT:
        raise ValueError(f"nom trop long ({len(text)} caractères, {MAX_TEXT} au plus)")
    return text


@dataclass(slots=True)
class Sale:
    """One sale as journalled, and what became of it."""

    sale_id: int
    card_ids: tuple[str, ...]
    cents: int
    payment: str
    paid: bool
    buyer: str
    seller: str
    role: str
    partie: int | None
    voided: bool = False
    at: str = ""
    offered_cents: int | None = None  # the tiers' price when it was sold
    session: str = ""
    note: str = ""


@dataclass(slots=True)
class SalesLedger:
    """Every sale of the evening by number, and which live sale holds each carton."""

    sales: dict[int, Sale] = field(default_factory=dict)
    holder: dict[str, int] = field(default_factory=dict)

    @property
    def next_id(self) -> int:
        return max(self.sales, default=0) + 1

    @property
    def active(self) -> bool:
        """Whether the hall records sales (one was ever recorded, even if voided)."""
        return bool(self.sales)

    def record(self, e: SaleRecorded, role: str = "", at: str = "") -> None:
        sale = Sale(
            e.sale_id,
            tuple(e.card_ids),
            e.cents,
            e.payment,
            e.paid,
            e.buyer,
            e.seller,
            role or e.role,
            e.partie,
            at=at,
            offered_cents=e.offered_cents,
            session=e.session,
            note=e.note,
        )
        self.sales[sale.sale_id] = sale
        for cid in sale.card_ids:
            self.holder[cid] = sale.sale_id

    def void(self, sale_id: int) -> None:
        sale = self.sales[sale_id]
        sale.voided = True
        for cid in sale.card_ids:
            if self.holder.get(cid) == sale_id:
                del self.holder[cid]

    def pay(self, sale_id: int, payment: str) -> None:
        sale = self.sales[sale_id]
        sale.paid, sale.payment = True, payment

    def live(self) -> list[Sale]:
        """The sales not voided, in order."""
        return [s for s in self.sales.values() if not s.voided]

    def totals(self) -> dict:
        """Cartons and cents: sold (paid), reserved (not paid yet), by payment, by seller, by partie."""
        return totals(self.live())


def totals(sales: Iterable[Sale]) -> dict:
    """The takings of ``sales`` (voided ones must be left out by the caller): integer cents only."""
    out: dict = {
        "cards_sold": 0,
        "cards_reserved": 0,
        "sales": 0,
        "total_cents": 0,
        "reserved_cents": 0,
        "by_payment": {p: 0 for p in PAYMENTS},
        "by_seller": {},
        "by_partie": {},
    }
    for s in sales:
        out["sales"] += 1
        if not s.paid:
            out["cards_reserved"] += len(s.card_ids)
            out["reserved_cents"] += s.cents
            continue
        out["cards_sold"] += len(s.card_ids)
        out["total_cents"] += s.cents
        out["by_payment"][s.payment] = out["by_payment"].get(s.payment, 0) + s.cents
        seller = s.seller or s.role
        out["by_seller"][seller] = out["by_seller"].get(seller, 0) + s.cents
        key = "" if s.partie is None else str(s.partie)
        out["by_partie"][key] = out["by_partie"].get(key, 0) + s.cents
    return out


class RangeError(ValueError):
    """A range of cartons that cannot be read (``bad_range``) or is too long (``range_too_large``)."""

    def __init__(self, code: Code, text: str, why: str):
        super().__init__(f"« {text} » : {why}")
        self.code, self.text, self.why = code, text, why


_PLAIN_END = re.compile(r"([A-HJ-NP-Z]{1,3})-?(\d{1,5})")


def _range_end(text: str) -> tuple[str, int]:
    end = normalize_card_id(text)
    if check_card_id(end):
        parts = split_card_id(end)
        assert parts is not None  # a checked id splits
        return parts
    m = _PLAIN_END.fullmatch(end.upper())
    if m is None:
        raise RangeError("bad_range", text, "un bout de plage s'écrit comme A-00001N (ou A-1)")
    return m.group(1), int(m.group(2))


def _parts(text: str) -> list[str]:
    """The IDs and ranges of a list separated by commas, semicolons, lines or spaces; a piece with spaces inside
    that reads as one carton (« A 00412 B », « a 2 ») stays one."""
    out: list[str] = []
    for chunk in re.split(r"[,;\n]+", re.sub(r"\s*\.\.\s*", "..", text.strip())):
        chunk = chunk.strip()
        if not chunk:
            continue
        words = chunk.split()
        one = len(words) > 1 and ".." not in chunk and check_card_id(read_card_id(chunk))
        out.extend([chunk] if one or len(words) == 1 else words)
    return out


def expand_ranges(text: str, limit: int) -> list[str]:
    """The carton IDs of ``"A-00001N..A-00012X, B-7"`` (ranges of one series, or single IDs), in order.

    Each range is bounded by ``limit`` before it is expanded, and so is the whole: ``RangeError``.
    """
    ids: dict[str, None] = {}
    for part in _parts(text):
        if ".." not in part:
            ids[read_card_id(part)] = None
        else:
            ends = part.split("..")
            if len(ends) != 2:
                raise RangeError("bad_range", part, "une plage s'écrit DÉBUT..FIN")
            (series, first), (series_end, last) = (_range_end(e) for e in ends)
            if series != series_end:
                raise RangeError("bad_range", part, "les deux bouts d'une plage sont de la même série")
            if first > last:
                raise RangeError("bad_range", part, "le début de la plage dépasse la fin")
            if last - first + 1 + len(ids) > limit:
                raise RangeError("range_too_large", part, f"{last - first + 1} cartons, {limit} au plus")
            for number in range(first, last + 1):
                ids[make_card_id(series, number)] = None
        if len(ids) > limit:
            raise RangeError("range_too_large", part, f"plus de {limit} cartons")
    return list(ids)


_SALE_CODE = re.compile(r"([1-9]\d{0,8})-([a-z2-7]{16})")


def _sale_mac(secret: bytes, sale_id: int) -> str:
    digest = hmac.new(secret, f"loto-hall-sale-phones:{sale_id}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode().lower()[:16]


def sale_code(secret: bytes, sale_id: int) -> str:
    """The code of the sale's QR on /caisse (``/s/{code}``): its number and 80 bits of the hall's MAC, so that
    it cannot be guessed from another sale's, and opens that sale's cartons only."""
    return f"{sale_id}-{_sale_mac(secret, sale_id)}"


def sale_of_code(secret: bytes, code: str) -> int | None:
    """The sale a ``/s/{code}`` names, or ``None`` when the code is not one the hall made."""
    m = _SALE_CODE.fullmatch(code) if isinstance(code, str) and len(code) <= 40 else None
    if m is None:
        return None
    sale_id = int(m.group(1))
    return sale_id if hmac.compare_digest(m.group(2), _sale_mac(secret, sale_id)) else None
