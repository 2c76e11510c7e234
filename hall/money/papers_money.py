"""The money's rubrics of the treasurer's papers (``hall/money/papers.py``): each sale, the lots given and not
given with their values, the takings by payment, seller and partie, then what was done outside the caisse and the
programme (sales off the tiers' price, lots changed at the console, cartons marked by hand). None of them when the
evening has no takings. Pure, stdlib only.
"""

from __future__ import annotations

from collections.abc import Callable

from hall.cartons.sales import NO_TIER
from hall.money.paper_cells import (
    AT,
    CAME,
    CARD,
    CARDS,
    COUNT,
    DONOR,
    FLAGS,
    KIND,
    LABEL,
    LOT,
    N_,
    NUMBERED,
    OFFERED,
    PARTIE,
    ROLE,
    RUBRIC,
    SELLER,
    SESSION,
    TAKEN,
    VALUE,
    At,
    Column,
    Kind,
    Said,
    Section,
    State,
    States,
    Text,
    money,
)
from hall.money.report import EveningReport
from hall.money.report_lots import TO_PLAY
from hall.money.takings import LotValueLine, SaleLine, Takings


def _tier(s: SaleLine) -> int | None:
    """The tiers' price the sale was offered at, ``None`` when there was no tier (or none recorded)."""
    return None if s.offered_cents in (None, NO_TIER) else s.offered_cents


def sales(t: Takings) -> Section:
    return Section(
        "sale",
        N_("Ventes"),
        (
            NUMBERED,
            AT,
            CARDS,
            COUNT,
            Column("payment", N_("Paiement")),
            Column("status", N_("État")),
            SELLER,
            Column("buyer", N_("Acheteur")),
            PARTIE,
            OFFERED,
            TAKEN,
            Column("cents", N_("Montant de la vente")),
            ROLE,
            SESSION,
        ),
        tuple(
            (
                s.sale_id,
                At(s.at),
                Text(" ".join(s.cards)),
                len(s.cards),
                State(s.payment),
                State("voided" if s.voided else "paid" if s.paid else "reserved"),
                s.seller,
                s.buyer,
                s.partie,
                money(_tier(s)),
                money(s.cents if s.paid and not s.voided else 0),
                money(s.cents),
                s.role,
                s.session,
            )
            for s in t.sales
        ),
    )


_LOT_HEAD = (PARTIE, LOT, KIND, LABEL)
_LOT_TAIL = (DONOR, VALUE, CAME, FLAGS)


def _lot_head(v: LotValueLine) -> tuple:
    return (v.partie, v.lot, Kind(v.kind), v.label)


def _lot_tail(v: LotValueLine) -> tuple:
    return (v.sponsor, money(v.cents), v.carried_from, States(v.flags))


def lots_given(t: Takings) -> Section:
    columns = (*_LOT_HEAD, CARD, Column("winner", N_("Gagnant")), Column("code", N_("Bon")), *_LOT_TAIL)
    rows = (
        (
            *_lot_head(v),
            Text(" ".join(v.cards)),
            ", ".join(x for x in v.buyers if x),
            Text(" ".join(v.vouchers)),
            *_lot_tail(v),
        )
        for v in t.given
    )
    return Section("lot_given", N_("Lots donnés"), columns, tuple(rows))


def lots_kept(t: Takings) -> Section:
    columns = (
        *_LOT_HEAD,
        Column("status", N_("Pourquoi")),
        Column("carried_to", N_("Reporté à la partie")),
        *_LOT_TAIL,
    )
    rows = (
        (*_lot_head(v), State(v.fate), v.carried_to if v.fate == TO_PLAY else None, *_lot_tail(v)) for v in t.not_given
    )
    return Section("lot_kept", N_("Lots non donnés"), columns, tuple(rows))


def takings(t: Takings) -> Section:
    totals = t.totals
    rows: list[tuple] = [(Said(N_("Paiement")), State(k), money(v)) for k, v in totals["by_payment"].items()]
    rows += [(Said(N_("Vendeur")), k, money(v)) for k, v in sorted(totals["by_seller"].items())]
    rows += [
        (Said(N_("Partie")), k or Said(N_("toute la soirée")), money(v)) for k, v in sorted(totals["by_partie"].items())
    ]
    return Section(
        "takings",
        N_("Recette"),
        (RUBRIC, Column("detail", N_("Détail")), Column("amount", N_("Montant"))),
        tuple(rows),
    )


def price_differs(t: Takings) -> Section:
    return Section(
        "price_differs",
        N_("Hors tarif"),
        (NUMBERED, AT, CARDS, COUNT, OFFERED, TAKEN, Column("gap", N_("Écart")), SELLER, ROLE, SESSION),
        tuple(
            (
                s.sale_id,
                At(s.at),
                Text(" ".join(s.cards)),
                len(s.cards),
                money(_tier(s)),
                money(s.cents),
                None if _tier(s) is None else money(s.cents - (s.offered_cents or 0)),
                s.seller,
                s.role,
                s.session,
            )
            for s in t.price_differs
        ),
    )


def lots_changed(t: Takings) -> Section:
    return Section(
        "lot_changed",
        N_("Lots changés"),
        (
            PARTIE,
            AT,
            Column("status", N_("Changement")),
            Column("planned", N_("Au programme")),
            Column("played", N_("Joué")),
            ROLE,
            SESSION,
        ),
        tuple(
            (
                c.partie,
                At(c.at),
                State("added" if c.planned is None else "dropped" if c.played is None else "replaced"),
                "" if c.planned is None else c.planned.label,
                "" if c.played is None else c.played.label,
                c.role,
                c.session,
            )
            for c in t.changes
        ),
    )


def hand_marks(t: Takings) -> Section:
    return Section(
        "hand_mark",
        N_("Marqués à la main"),
        (AT, Column("sold", N_("Vendus")), COUNT, CARDS, ROLE, SESSION),
        tuple((At(m.at), m.sold, len(m.cards), Text(" ".join(m.cards)), m.role, m.session) for m in t.marks),
    )


def _of_takings(build: Callable[[Takings], Section]) -> Callable[[EveningReport], Section | None]:
    """A money rubric of the report: none when the evening has no takings."""

    def section(report: EveningReport) -> Section | None:
        return None if report.takings is None else build(report.takings)

    section.__name__ = build.__name__
    return section


MONEY_SECTIONS = tuple(
    _of_takings(build) for build in (sales, lots_given, lots_kept, takings, price_differs, lots_changed, hand_marks)
)
