"""The treasurer's papers, built once: the evening's report (``hall.money.report.EveningReport``) as typed sections
(``hall/money/paper_cells.py``) — the summary, the money (``hall/money/papers_money.py``), the parties, the winners,
the draws, the undos, the refused claims, the vouchers, the balls' frequencies — which the workbook writes a sheet
each, and the PDF and the CSV lay out on their pages.

A new rubric (the tombola, the buvette) is one builder in ``SECTIONS``: every paper shows it (a writer with no layout
of its own for it shows its columns as they are). Pure, stdlib only.
"""

from __future__ import annotations

from collections.abc import Callable

from hall.money.paper_cells import (
    AT,
    CAME,
    CARD,
    COUNT,
    KIND,
    LABEL,
    LAST,
    LOT,
    N_,
    NUMBER,
    NUMBERED,
    PARTIE,
    ROLE,
    RUBRIC,
    At,
    Column,
    Kind,
    Said,
    Section,
    State,
    Text,
    money,
)
from hall.money.papers_accounts import ACCOUNT_SECTIONS
from hall.money.papers_money import MONEY_SECTIONS
from hall.money.papers_rooms import headline, rooms_section
from hall.money.report import TOTAL_LABELS, EveningReport

Builder = Callable[[EveningReport], Section | None]  # a rubric, or None when the evening has none (no takings)


def summary(report: EveningReport) -> Section:
    """The evening at a glance: the hall, its times, the lotos of the year, the totals, then the money's sums."""
    rows: list[tuple] = [
        (Said(N_("Salle")), report.hall_name, None),
        (Said(N_("Début")), At(report.first_at), None),
        (Said(N_("Dernier événement")), At(report.last_at), None),
        (Said(N_("Lotos de l'année (celui-ci compris)")), report.lotos_this_year, None),
    ]
    said_rooms = headline(report)  # the salle annexe (RULES L23): « 1 événement, 2 salles, même tirage : … »
    if said_rooms is not None and report.rooms is not None:
        rows.append((Text(said_rooms), len(report.rooms.rooms) + 1, None))
    rows += [(Said(label), report.totals.get(key, 0), None) for key, label in TOTAL_LABELS.items()]
    t = report.takings
    if t is not None:
        rows += [
            (Said(N_("Cartons vendus (payés)")), t.totals["cards_sold"], money(t.receipts_cents)),
            (Said(N_("Cartons réservés non payés")), t.totals["cards_reserved"], money(t.totals["reserved_cents"])),
            (Said(N_("Valeur totale des lots")), len(t.given), money(t.given_cents)),
            (Said(N_("dont lots offerts (donateurs)")), None, money(t.donated_cents)),
            (Said(N_("dont lots achetés")), None, money(t.bought_cents)),
            (Said(N_("Solde (recette − lots achetés donnés)")), None, money(t.balance_cents)),
            (Said(N_("Lots non donnés (hors solde)")), len(t.not_given), money(t.kept_cents)),
        ]
    return Section("summary", N_("Résumé"), (RUBRIC, COUNT, Column("amount", N_("Montant"))), tuple(rows))


def parties(report: EveningReport) -> Section:
    return Section(
        "partie",
        N_("Parties"),
        (
            PARTIE,
            Column("status", N_("État")),
            Column("at", N_("Début")),
            Column("ended", N_("Fin")),
            Column("count", N_("Boules tirées")),
            Column("forced", N_("Démarquée avec des lots restants")),
            Column("consolation", N_("Consolation")),
        ),
        tuple(
            (
                p.number,
                State(p.status),
                At(p.started_at),
                At(p.ended_at),
                len(p.draws),
                p.forced,
                p.consolation_label,
            )
            for p in report.parties
        ),
    )


def winners(report: EveningReport) -> Section:
    return Section(
        "winner",
        N_("Gagnants"),
        (
            PARTIE,
            LOT,
            KIND,
            LABEL,
            CARD,
            Column("rows", N_("Rangées")),
            LAST,
            Column("count", N_("Boules")),
            Column("status", N_("Comment")),
            AT,
            CAME,
        ),
        tuple(
            (
                lot.partie,
                lot.lot,
                Kind(lot.kind),
                lot.label,
                Text(card),
                " ".join(map(str, rows)),
                lot.last,
                lot.balls,
                State("shared" if lot.shared else "tie_break" if lot.tie_break else "single"),
                At(lot.at),
                lot.carried_from,
            )
            for p in report.parties
            for lot in p.lots
            if lot.awarded
            for card, rows in zip(lot.winners, lot.rows)
        ),
    )


def draws(report: EveningReport) -> Section:
    return Section(
        "draw",
        N_("Tirages"),
        (PARTIE, Column("order", N_("Ordre")), NUMBER, AT),
        tuple((p.number, k, n, At(at)) for p in report.parties for k, (n, at) in enumerate(p.draws, 1)),
    )


def undos(report: EveningReport) -> Section:
    return Section(
        "undo",
        N_("Boules annulées"),
        (PARTIE, Column("order", N_("Rang")), NUMBER, AT, ROLE),
        tuple((u.partie, u.order, u.number, At(u.at), u.role) for p in report.parties for u in p.undos),
    )


def claims(report: EveningReport) -> Section:
    return Section(
        "refused_claim",
        N_("Réclamations refusées"),
        (PARTIE, LOT, CARD, Column("status", N_("Verdict")), LAST, AT, ROLE),
        tuple(
            (c.partie, c.lot, Text(c.card_id), State(c.verdict), c.last, At(c.at), c.role)
            for p in report.parties
            for c in p.claims
        ),
    )


def vouchers(report: EveningReport) -> Section:
    return Section(
        "voucher",
        N_("Bons"),
        (
            Column("code", N_("Code")),
            NUMBERED,
            PARTIE,
            LOT,
            KIND,
            Column("label", N_("Lot remis")),
            CARD,
            Column("consolation", N_("Consolation")),
            Column("shared", N_("Partagé")),
            Column("count", N_("Imprimé")),
            Column("reprints", N_("Réimpressions")),
            Column("status", N_("Remis")),
            Column("at", N_("Émis")),
            Column("redeemed_at", N_("Remis le")),
        ),
        tuple(
            (
                Text(v.code),
                v.serial,
                v.partie,
                v.lot,
                Kind(v.kind),
                v.label,
                Text(v.card_id),
                v.consolation,
                v.shared,
                v.printed,
                v.reprints,
                v.redeemed,
                At(v.issued_at),
                At(v.redeemed_at),
            )
            for v in report.vouchers
        ),
    )


def frequencies(report: EveningReport) -> Section:
    return Section(
        "frequency",
        N_("Fréquences"),
        (NUMBER, Column("count", N_("Parties"))),
        tuple((n, c) for n, c in report.frequencies.items()),
    )


SECTIONS: tuple[Builder, ...] = (
    summary,
    *MONEY_SECTIONS,
    *ACCOUNT_SECTIONS,
    rooms_section,
    parties,
    winners,
    draws,
    undos,
    claims,
    vouchers,
    frequencies,
)
"""The papers' rubrics in the order the workbook's sheets come: a new one is added here."""


LAID_OUT = frozenset(
    {"summary", "sale", "lot_given", "lot_kept", "takings", "price_differs", "lot_changed", "hand_mark"}
    | {"partie", "winner", "draw", "undo", "refused_claim", "voucher", "frequency"}
)
"""The rubrics the PDF and the CSV lay out their own way (on their pages, in their rows); one added to ``SECTIONS``
after them is written by each column for column — a table of the PDF, rows of the CSV — until it gets a layout."""


def papers(report: EveningReport) -> tuple[Section, ...]:
    """Every rubric of ``report`` the evening has, in order."""
    return tuple(s for build in SECTIONS if (s := build(report)) is not None)
