"""The treasurer's report: the takings in the CSV and the PDF equal the sum of the sales, lots' values and balance."""

from __future__ import annotations

import csv
import io
import random
from decimal import Decimal
from pathlib import Path

import pypdfium2 as pdfium
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.app.cli import main
from hall.app.paper.report_pdf import write_report_pdf
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.cartons.sales import PAYMENTS
from hall.config import parse_config
from hall.door.service import Hall
from hall.loto.programme import parse_parties
from hall.money.report import report_from_hall
from hall.money.report_csv import COLUMNS, FRENCH, HEADERS, write_csv
from hall.record.journal import Journal


def evening(folder: Path, plan: list[tuple[int, int, str, bool, bool]]) -> Hall:
    """A hall that sold ``plan`` = [(cartons, cents, payment, paid, void it)…] then played one partie."""
    folder.mkdir(parents=True, exist_ok=True)
    config = parse_config({"hall": {"name": "Comité des fêtes", "data_dir": str(folder)}})
    book = CardBook(dict(generate_cards(sum(n for n, *_ in plan) + 6, "R", "A", "1-9", 1)))
    h = Hall(config, Journal(folder / "journal.sqlite"), book, voucher_secret=b"k" * 32, rng=random.Random(2))
    ids = iter(list(book))
    for n, cents, payment, paid, void in plan:
        sale = h.sell(
            [next(ids) for _ in range(n)],
            role="desk",
            payment=payment,
            cents=cents,
            paid=paid,
            seller=random.Random(cents).choice(["Anne", "Marc", ""]),
        ).event
        if void:
            h.void_sale(sale.sale_id, role="admin")
    h.edit_programme(
        parse_parties(
            [
                {
                    "lots": [
                        {"kind": "quine", "label": "Panier garni", "value_eur": 40, "sponsor": "Boulangerie Morel"},
                        {"kind": "carton_plein", "label": "Vélo", "value_eur": 189.9},
                    ]
                }
            ]
        ),
        role="admin",
    )
    h.start_partie(role="speaker")
    return h


def read_csv(text: str) -> list[dict]:
    """The report's CSV as a French spreadsheet reads it (``;``), keyed by the report's own column names."""
    rows = csv.DictReader(io.StringIO(text.lstrip("\ufeff")), dialect="excel", delimiter=";")
    return [{k: row[HEADERS["fr"][k]] for k in COLUMNS} for row in rows]


def cents(text: str) -> int:  # the CSV writes euros with 2 decimals and a comma: read back exactly, no float
    return int(Decimal(text.replace(",", ".")) * 100)


def money_rows(h: Hall) -> dict:
    out = io.StringIO()
    write_csv(report_from_hall(h), out)
    rows = read_csv(out.getvalue())
    back = {v: k for k, v in FRENCH.items()}
    return {
        "sales": [r for r in rows if r["section"] == FRENCH["sale"]],
        "balance": {back[r["label"]]: cents(r["amount"]) for r in rows if r["section"] == FRENCH["balance"]},
        "payments": {back[r["kind"]]: cents(r["amount"]) for r in rows if r["label"] == FRENCH["payment"]},
        "cents": cents,
    }


# amounts the law allows: under 20 € a carton (L322-4)
SALES = st.lists(
    st.tuples(st.integers(1, 12), st.integers(0, 50_000), st.sampled_from(PAYMENTS), st.booleans(), st.booleans()).map(
        lambda s: (s[0], s[1] % (2000 * s[0]), *s[2:])
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=15, deadline=None)
@given(SALES)
def test_the_csv_takings_are_the_sum_of_the_sales(tmp_path_factory, plan):
    h = evening(tmp_path_factory.mktemp("money"), plan)
    m = money_rows(h)
    live_paid = [(n, c, p) for n, c, p, paid, void in plan if paid and not void]
    assert m["balance"]["receipts"] == sum(c for _, c, _ in live_paid)
    assert sum(m["payments"].values()) == m["balance"]["receipts"]
    for payment in PAYMENTS:
        assert m["payments"][payment] == sum(c for _, c, p in live_paid if p == payment)
    paid_rows = [r for r in m["sales"] if r["status"] == FRENCH["paid"]]
    assert sum(m["cents"](r["amount"]) for r in paid_rows) == m["balance"]["receipts"]
    # every sale row summed, the voided and the unpaid ones included (they add 0: their amount is in « détail »)
    assert sum(m["cents"](r["amount"]) for r in m["sales"]) == m["balance"]["receipts"]
    for r, (n, c, p, paid, void) in zip(m["sales"], plan):
        assert r["detail"] == ("" if paid and not void else f"non compté dans la recette : {c // 100},{c % 100:02d}")
    # the partie runs: no lot is given yet, both are still to play (their value apart, out of the balance)
    assert m["balance"]["lots_declared"] == 0 and m["balance"]["lots_kept"] == 4000 + 18990
    assert m["balance"]["balance"] == m["balance"]["receipts"]
    h.journal.close()


def pdf_text(path) -> str:
    pdf = pdfium.PdfDocument(path)
    return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))


def test_the_pdf_says_the_same_takings_and_the_command_writes_both(tmp_path, capsys):
    plan = [
        (12, 2500, "carte", True, False),
        (6, 1500, "especes", True, False),
        (1, 300, "especes", True, True),
        (3, 900, "cheque", False, False),
        (2, 600, "cheque", True, False),
    ]
    h = evening(tmp_path / "hall", plan)
    report = report_from_hall(h)
    write_report_pdf(report, tmp_path / "r.pdf")
    text = pdf_text(tmp_path / "r.pdf")
    assert "Recettes, valeur des lots et solde" in text
    assert "46,00 €" in text  # 25 + 15 + 6: the voided and the reserved sales are out
    assert "dont espèces" in text and "15,00 €" in text and "dont carte bancaire" in text
    assert "9,00 €" in text  # reserved, to be paid
    assert "229,90 €" in text and "Boulangerie Morel" in text  # not given yet: apart from the balance
    assert "Solde (recette − lots achetés donnés)" in text
    assert "annulée 3,00 €" in text
    h.journal.close()
    code = main(
        [
            "report",
            "--data-dir",
            str(tmp_path / "hall"),
            "--pdf",
            str(tmp_path / "c.pdf"),
            "--csv",
            str(tmp_path / "c.csv"),
        ]
    )
    assert code == 0
    rows = read_csv((tmp_path / "c.csv").read_text(encoding="utf-8"))
    balance = {r["label"]: r["amount"] for r in rows if r["section"] == FRENCH["balance"]}
    assert balance == {
        "recette totale": "46,00",
        "valeur des lots donnés": "0,00",
        "dont lots offerts": "0,00",
        "dont lots achetés": "0,00",
        "solde": "46,00",
        "lots non donnés (gardés)": "229,90",
    }
    assert "46,00 €" in pdf_text(tmp_path / "c.pdf")
