"""The evening's accounts side by side: the cartons, the tombola, the buvette — each with its
takings by payment, its costs and its balance — and the evening's total; then one rubric per account other than the
cartons' (the CSV's ``rubrique`` is the account's: ``tombola``, ``buvette``). Pure, stdlib only."""

from __future__ import annotations

from collections.abc import Callable

from hall.money.accounts import Account
from hall.money.paper_cells import N_, RUBRIC, Column, Said, Section, State, Text, money
from hall.money.report import EveningReport

CARTONS = "cartons"
NAMES = {CARTONS: N_("Cartons"), "tombola": N_("Tombola"), "buvette": N_("Buvette")}
AMOUNT = Column("amount", N_("Montant"))
COSTS = {
    "tombola": N_("Frais (lots achetés compris)"),
    "buvette": N_("Achats de la buvette (boissons, nourriture)"),
}
"""What each account's costs are, as its rubric says them (the cartons' are the lots bought; any other: « Frais »)."""


def cartons_account(report: EveningReport) -> Account | None:
    """The cartons' account: the sales by payment, the lots bought as its costs."""
    t = report.takings
    if t is None:
        return None
    return Account(CARTONS, dict(t.totals["by_payment"]), t.bought_cents)


def evening_accounts(report: EveningReport) -> tuple[Account, ...]:
    """Every account of the evening, the cartons' first."""
    cartons = cartons_account(report)
    return ((cartons,) if cartons is not None else ()) + tuple(report.accounts)


def _name(a: Account) -> Said:
    return Said(NAMES.get(a.rubrique, a.rubrique))


def accounts(report: EveningReport) -> Section | None:
    """The accounts side by side, and the evening's total; none when the evening has only the cartons'."""
    if not report.accounts:
        return None
    every = evening_accounts(report)
    rows: list[tuple] = [
        (_name(a), money(sum(a.takings_cents.values())), money(a.costs_cents), money(a.balance_cents)) for a in every
    ]
    rows.append(
        (
            Said(N_("Total de la soirée")),
            money(sum(sum(a.takings_cents.values()) for a in every)),
            money(sum(a.costs_cents for a in every)),
            money(sum(a.balance_cents for a in every)),
        )
    )
    return Section(
        "accounts",
        N_("Comptes de la soirée"),
        (RUBRIC, Column("takings", N_("Recette")), Column("costs", N_("Frais")), Column("amount", N_("Solde"))),
        tuple(rows),
    )


def account_section(a: Account) -> Section:
    """One account's rubric: its takings by payment, its costs in its own words, its balance; then each product
    counted at a close against the stock expected, the gap at its price (outside the balance)."""
    rows: list[tuple] = [(Said(N_("Paiement")), State(k), money(v)) for k, v in sorted(a.takings_cents.items())]
    rows.append((Said(COSTS.get(a.rubrique, N_("Frais"))), None, money(a.costs_cents)))
    rows.append((Said(N_("Solde")), None, money(a.balance_cents)))
    rows += [(Said(N_("Écart de stock compté (hors solde)")), Text(g.detail), money(g.cents)) for g in a.stock_gaps]
    return Section(
        a.rubrique, NAMES.get(a.rubrique, a.rubrique), (RUBRIC, Column("detail", N_("Détail")), AMOUNT), tuple(rows)
    )


def _one(index: int) -> Callable[[EveningReport], Section | None]:
    def section(report: EveningReport) -> Section | None:
        return account_section(report.accounts[index]) if index < len(report.accounts) else None

    section.__name__ = f"account_{index}"
    return section


MAX_ACCOUNTS = 4  # the tombola, the buvette, and room for two more
ACCOUNT_SECTIONS = (accounts, *(_one(i) for i in range(MAX_ACCOUNTS)))
