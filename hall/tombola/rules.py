"""What a tombola must be before a ticket is sold (RULES L24): authorised (the maire's arrêté in France, the
Préfecture told in Fribourg, the commune's leave in Belgium), lots in kind only, and its costs — the lots bought
included — at most 15 % of the value issued (tickets issued × price), which the hall computes and warns of.

``prepared_from(body)`` turns /admin's JSON into a ``TombolaPrepared`` or raises ``Rejected`` naming what is wrong
(``tombola/unauthorised``, ``tombola/cash_lot``, ``bad_field``…); ``cost_check(prepared)`` is the 15 % check.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass

from hall.events import TombolaLot, TombolaPrepared
from hall.loto.lots import has_control_character
from hall.loto.programme import is_cash
from hall.refusal import Rejected

COUNTRIES = ("FR", "CH", "BE")
CURRENCY = {"FR": "EUR", "CH": "CHF", "BE": "EUR"}
COST_SHARE_PERCENT = 15  # CSI L322-3 / D322-3: costs of organisation, lots bought included, ≤ 15 % of the issue
CH_ANNOUNCE_LIMIT_CENTS = 5_000_000  # Fribourg: a loto-tombola with stakes ≤ CHF 50 000 is announced, above: asked
BE_PER_YEAR = 4  # Belgium: up to 4 small tombolas a year for an association recognised by the commune
MAX_TICKETS = 100_000
MAX_LOTS = 200
MAX_TEXT = 120
MAX_PRICE_CENTS = 10_000  # 100 € a ticket: anything above is a typing slip
MAX_COSTS_CENTS = 100_000_000
MAX_LOT_CENTS = 10_000_000
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?$")
_KEYS = {
    "authorisation", "price_eur", "tickets", "carnet", "draw_at", "place", "collect_until", "unclaimed",
    "costs_eur", "lots", "country", "association", "year_count",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class CostCheck:
    """The 15 % check: what the tombola spends (costs and lots bought) against 15 % of the value issued."""

    issued_cents: int
    limit_cents: int
    costs_cents: int
    bought_cents: int
    donated_cents: int

    @property
    def spent_cents(self) -> int:
        return self.costs_cents + self.bought_cents

    @property
    def over(self) -> bool:
        return self.spent_cents > self.limit_cents

    @property
    def percent(self) -> float:
        """What is spent as a share of the value issued, in per cent (one decimal)."""
        return round(100 * self.spent_cents / self.issued_cents, 1) if self.issued_cents else 0.0


def cost_check(p: TombolaPrepared) -> CostCheck:
    """The 15 % check of a prepared tombola (RULES L24)."""
    issued = p.tickets * p.price_cents
    bought = sum(lot.value_cents for lot in p.tombola_lots if not lot.donated)
    donated = sum(lot.value_cents for lot in p.tombola_lots if lot.donated)
    return CostCheck(issued, issued * COST_SHARE_PERCENT // 100, p.costs_cents, bought, donated)


@dataclass(frozen=True, slots=True)
class DraftCheck:
    """The 15 % check of a tombola /admin is still typing: ``check`` (``None`` while its numbers do not make one),
    its ``warnings``, and ``refused``, what its preparation would be refused for now (``None`` when it would pass)."""

    check: CostCheck | None
    warnings: tuple[str, ...]
    refused: Rejected | None


_STAND_IN = {"number": "-", "date": "2000-01-01"}  # the arrêté not typed yet: the 15 % is still computed


def draft_check(body: Mapping[str, object], association: str = "") -> DraftCheck:
    """The check of ``body`` as ``prepared_from`` then ``cost_check`` make it (one formula, the preparation's): the
    arrêté missing, the 15 % is computed all the same and the refusal said beside it."""
    try:
        p = prepared_from(body, association)
        return DraftCheck(cost_check(p), warnings_of(p), None)
    except Rejected as refused:
        if refused.code != "tombola_unauthorised":
            return DraftCheck(None, (), refused)
        try:
            p = prepared_from({**body, "authorisation": _STAND_IN}, association)
        except Rejected:
            return DraftCheck(None, (), refused)
        return DraftCheck(cost_check(p), warnings_of(p), refused)


def warnings_of(p: TombolaPrepared) -> tuple[str, ...]:
    """What the organiser must look at: ``over_15`` (costs above 15 %), ``ch_ask`` (Fribourg: above CHF 50 000
    the tombola is asked for, not only announced)."""
    out = []
    if cost_check(p).over:
        out.append("over_15")
    if p.country == "CH" and p.tickets * p.price_cents > CH_ANNOUNCE_LIMIT_CENTS:
        out.append("ch_ask")
    return tuple(out)


def cents_of(value: object, field: str, high: int) -> int:
    """Cents of an amount in the hall's currency (a JSON number, two decimals at most) within 0..high."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Rejected("bad_field", field=field)
    if value != value or value in (float("inf"), float("-inf")):
        raise Rejected("bad_field", field=field)
    cents = round(value * 100)
    if abs(cents - value * 100) > 1e-6 or not 0 <= cents <= high:
        raise Rejected("bad_field", field=field, low=0, high=high / 100)
    return cents


def text_of(value: object, field: str, *, required: bool = True) -> str:
    """A printed text: trimmed, no control character, ``MAX_TEXT`` characters at most."""
    if value is None and not required:
        return ""
    if not isinstance(value, str) or has_control_character(value) or len(value.strip()) > MAX_TEXT:
        raise Rejected("bad_field", field=field, max=MAX_TEXT)
    if required and not value.strip():
        raise Rejected("bad_field", field=field)
    return value.strip()


def int_of(value: object, field: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise Rejected("bad_field", field=field, low=low, high=high)
    return value


def _date(value: object, field: str, pattern: re.Pattern[str]) -> str:
    if not isinstance(value, str) or not pattern.match(value):
        raise Rejected("bad_field", field=field)
    try:
        dt.datetime.fromisoformat(value) if "T" in value or " " in value else dt.date.fromisoformat(value)
    except ValueError:
        raise Rejected("bad_field", field=field) from None
    return value


def _authorisation(value: object) -> tuple[str, str]:
    """The arrêté's number and date: a tombola without them is refused (``tombola/unauthorised``)."""
    if not isinstance(value, Mapping) or not value.get("number") or not value.get("date"):
        raise Rejected("tombola/tombola_unauthorised")
    return text_of(value["number"], "authorisation.number"), _date(value["date"], "authorisation.date", _DATE)


def lot_of(value: object, index: int) -> TombolaLot:
    """One lot in kind; a lot of money is refused (``tombola/cash_lot``)."""
    where = f"lots[{index}]"
    if not isinstance(value, Mapping) or set(value) - {"label", "value_eur", "donated"}:
        raise Rejected("bad_field", field=where)
    label = text_of(value.get("label"), f"{where}.label")
    if is_cash(label):
        raise Rejected("tombola/cash_lot", label=label, lot=index + 1)
    donated = value.get("donated", False)
    if not isinstance(donated, bool):
        raise Rejected("bad_field", field=f"{where}.donated")
    return TombolaLot(label, cents_of(value.get("value_eur", 0), f"{where}.value_eur", MAX_LOT_CENTS), donated)


def _lots(value: object) -> tuple[TombolaLot, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_LOTS:
        raise Rejected("bad_field", field="lots", low=1, high=MAX_LOTS)
    return tuple(lot_of(v, i) for i, v in enumerate(value))


def _tickets(body: Mapping[str, object]) -> tuple[int, int]:
    tickets = int_of(body.get("tickets"), "tickets", 1, MAX_TICKETS)
    carnet = int_of(body.get("carnet", 1), "carnet", 1, 100)
    if tickets % carnet:
        raise Rejected("bad_field", field="carnet", why="tickets")
    return tickets, carnet


def prepared_from(body: Mapping[str, object], association: str = "") -> TombolaPrepared:
    """The tombola /admin prepared, checked (RULES L24); ``Rejected`` naming the first thing wrong."""
    unknown = sorted(set(body) - _KEYS)
    if unknown:
        raise Rejected("bad_field", field=unknown[0])
    country = body.get("country", "FR")
    if country not in COUNTRIES:
        raise Rejected("bad_field", field="country")
    number, date = _authorisation(body.get("authorisation"))
    year_count = int_of(body.get("year_count", 1), "year_count", 1, 100)
    if country == "BE" and year_count > BE_PER_YEAR:
        raise Rejected("tombola/tombola_quota", max=BE_PER_YEAR)
    price = cents_of(body.get("price_eur"), "price_eur", MAX_PRICE_CENTS)
    if not price:
        raise Rejected("bad_field", field="price_eur", low=0.01)
    tickets, carnet = _tickets(body)
    return TombolaPrepared(
        str(country),
        number,
        date,
        price,
        tickets,
        carnet,
        _date(body.get("draw_at"), "draw_at", _DATETIME),
        text_of(body.get("place"), "place", required=False),
        _date(body.get("collect_until"), "collect_until", _DATE),
        text_of(body.get("unclaimed"), "unclaimed", required=False),
        cents_of(body.get("costs_eur", 0), "costs_eur", MAX_COSTS_CENTS),
        _lots(body.get("lots")),
        text_of(body.get("association", association), "association", required=False),
        year_count,
    )
