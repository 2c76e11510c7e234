"""The treasurer's truth through the API (issue 21): no way round the caisse, the law's 20 € a carton, price tiers
edited on /admin, every sale with its offered price and session, the lots a start plays, a French spreadsheet's
CSV that says what the PDF says."""

from __future__ import annotations

import csv
import io
import re

import pypdfium2 as pdfium
import pytest

from hall.cartons.card_ids import make_card_id
from hall.spreadsheet import protect_text
from tests.display.test_sales_api import PLAQUE, sales_room
from tests.helpers import refused


@pytest.fixture
def desk(tmp_path):
    r = sales_room(tmp_path)
    yield r
    r.hall.journal.close()


def A(n: int) -> str:
    return make_card_id("A", n)


# ---- no way round the caisse -----------------------------------------------------------------------------------
def test_every_bypass_of_the_caisse_through_cards_sold_is_refused(desk):
    """Issue 21 item 5: unsell a paid carton mid-partie, resell it, make never-sold cartons play — all refused."""
    c = desk.app.test_client()
    sale = c.post("/api/sales", json={"range": PLAQUE, "payment": "especes"}, headers=desk.headers("desk")).get_json()
    c.post("/api/partie/start", json={}, headers=desk.headers("speaker"))
    seq = desk.hall.journal.last_seq
    # unsell a paid carton (desk, then admin): refused, it plays on
    refused(
        c.post("/api/cards/sold", json={"ranges": A(3), "sold": False}, headers=desk.headers("desk")),
        409,
        "sold_by_caisse",
    )
    body = refused(
        c.post("/api/cards/sold", json={"ranges": A(3), "sold": False}, headers=desk.headers("admin")),
        409,
        "held_by_sale",
    )
    assert body["sales"] == [sale["sale_id"]] and A(3) in body["message"]
    # make never-sold cartons play: refused to the desk
    refused(
        c.post("/api/cards/sold", json={"ranges": f"{A(20)}..{A(30)}"}, headers=desk.headers("desk")),
        409,
        "sold_by_caisse",
    )
    assert desk.hall.journal.last_seq == seq  # nothing journalled
    assert desk.hall.may_play(A(3)) and not desk.hall.may_play(A(20))
    # resell it: still one live sale per carton
    refused(
        c.post("/api/sales", json={"range": A(3), "payment": "especes"}, headers=desk.headers("desk")),
        409,
        "already_sold",
    )
    assert [s["cards"] for s in c.get("/api/sales", headers=desk.headers("admin")).get_json()["sales"]] == [
        sale["cards"]
    ]


def test_with_sales_required_the_desk_cannot_mark_cartons_sold_even_before_a_sale(tmp_path):
    r = sales_room(tmp_path, extra={"sales": {"required": True}})
    refused(
        r.app.test_client().post("/api/cards/sold", json={"ranges": A(1)}, headers=r.headers("desk")),
        409,
        "sold_by_caisse",
    )
    r.hall.journal.close()


def test_a_huge_partie_number_in_a_sale_is_refused_before_any_work(desk):
    c, h = desk.app.test_client(), desk.headers("desk")
    seq = desk.hall.journal.last_seq
    for partie in ("1" * 5000, "1" * 4, 10**3000, -1, 1.5, ["1"]):
        body = refused(
            c.post("/api/sales", json={"range": A(1), "payment": "especes", "partie": partie}, headers=h),
            422,
            "bad_partie",
        )
        assert len(body["message"]) < 200
    assert desk.hall.journal.last_seq == seq


# ---- the law: under 20 € a carton ------------------------------------------------------------------------------
def test_a_20_euro_carton_is_refused_at_the_caisse_and_in_the_tiers_with_the_law_s_words(desk):
    c = desk.app.test_client()
    seq = desk.hall.journal.last_seq
    for cards, amount in ((A(1), 20), (A(1), "25,00"), (PLAQUE, 240)):
        body = refused(
            c.post(
                "/api/sales",
                json={"range": cards, "amount_eur": amount, "payment": "especes"},
                headers=desk.headers("desk"),
            ),
            422,
            "stake_too_high",
        )
        assert "inférieures à 20 euros" in body["message"] and "L322-4" in body["message"]
    body = refused(
        c.post(
            "/api/sales/prices",
            json={"tiers": [{"cards": 1, "eur": 3}, {"cards": 6, "eur": "120"}]},
            headers=desk.headers("admin"),
        ),
        422,
        "stake_too_high",
    )
    assert "inférieures à 20 euros" in body["message"]
    assert desk.hall.journal.last_seq == seq
    assert (
        c.post(
            "/api/sales",
            json={"range": A(1), "amount_eur": "19,99", "payment": "especes"},
            headers=desk.headers("desk"),
        ).status_code
        == 201
    )


# ---- the price tiers on /admin ------------------------------------------------------------------------------------
def test_price_tiers_edited_on_admin_are_offered_from_the_next_sale_and_survive_a_restart(desk):
    from hall.door.service import Hall
    from hall.record.journal import Journal
    from tests.display.conftest import make_app

    c = desk.app.test_client()
    first = c.post(
        "/api/sales", json={"range": f"{A(1)}..{A(6)}", "payment": "especes"}, headers=desk.headers("desk")
    ).get_json()
    assert first["amount_eur"] == 15
    tiers = {"tiers": [{"cards": "1", "eur": "2,50"}, {"cards": 10, "eur": 20}]}
    refused(c.post("/api/sales/prices", json=tiers, headers=desk.headers("desk")), 403, "forbidden")
    resp = c.post("/api/sales/prices", json=tiers, headers=desk.headers("admin"))
    assert resp.status_code == 201, resp.get_json()
    assert c.get("/api/sales/prices").get_json()["tiers"] == [
        {"cards": 1, "eur": 2.5, "cents": 250},
        {"cards": 10, "eur": 20, "cents": 2000},
    ]
    assert c.get("/api/sales/price?count=11", headers=desk.headers("desk")).get_json()["amount_eur"] == 22.5
    second = c.post(
        "/api/sales", json={"range": f"{A(7)}..{A(17)}", "payment": "carte"}, headers=desk.headers("desk")
    ).get_json()
    assert second["amount_eur"] == 22.5 and first["amount_eur"] == 15  # the first sale keeps its price
    for bad in (
        [],
        [{"cards": 0, "eur": 3}],
        [{"cards": 1, "eur": "x"}],
        [{"cards": 1, "eur": 1}, {"cards": 1, "eur": 2}],
    ):
        refused(c.post("/api/sales/prices", json={"tiers": bad}, headers=desk.headers("admin")), 422, "bad_prices")
    desk.hall.journal.close()
    again = Hall(desk.config, Journal(desk.hall.journal.path), desk.hall.book, voucher_secret=b"k" * 32)
    app, _ = make_app(again, desk.config)
    assert app.test_client().get("/api/sales/prices").get_json()["tiers"][0]["cents"] == 250
    desk.hall = again


def test_each_sale_journals_the_offered_price_and_the_desk_session_and_the_report_lists_the_differences(desk):
    c = desk.app.test_client()
    h = {
        "Authorization": "Bearer "
        + c.post("/api/login", json={"pin": _pin("desk"), "name": "Marc"}).get_json()["token"]
    }
    c.post("/api/sales", json={"range": PLAQUE, "payment": "especes", "amount_eur": 0}, headers=h)
    c.post("/api/sales", json={"range": f"{A(13)}..{A(18)}", "payment": "carte"}, headers=h)
    sales = desk.hall.sales()
    assert [(s.offered_cents, s.cents) for s in sales] == [(2500, 0), (1500, 1500)]
    assert sales[0].session and sales[0].session == sales[1].session and len(sales[0].session) == 8
    other = desk.app.test_client().post("/api/login", json={"pin": _pin("desk")}).get_json()["token"]
    c.post(
        "/api/sales",
        json={"range": A(19), "payment": "cheque", "amount_eur": 1},
        headers={"Authorization": f"Bearer {other}"},
    )
    assert desk.hall.sales()[2].session not in ("", sales[0].session)  # another login, another session
    rows = french_csv(c.get("/api/report.csv", headers=desk.headers("admin")).get_data(as_text=True))
    differs = [r for r in rows if r["rubrique"] == "prix hors tarif"]
    assert [(r["ordre"], r["montant (€)"], r["détail"], r["rôle"], r["session"], r["libellé"]) for r in differs] == [
        # a session that reads as a number (« 47113929 », « 1e543210 ») is kept as text by its apostrophe
        ("1", "0,00", "tarif 25,00", "desk", protect_text(sales[0].session), "Marc"),
        ("3", "1,00", "tarif 3,00", "desk", protect_text(desk.hall.sales()[2].session), "desk"),
    ]


def _pin(role: str) -> str:
    from tests.display.conftest import PINS

    return PINS[f"{role}_pin"]


# ---- the lots a start plays, from the API -------------------------------------------------------------------------
def test_a_start_through_the_api_keeps_the_programme_values_unless_the_speaker_changed_them(desk):
    c, admin, speaker = desk.app.test_client(), desk.headers("admin"), desk.headers("speaker")
    c.post(
        "/api/programme",
        json={
            "parties": [
                {
                    "lots": [
                        {"kind": "quine", "label": "Panier garni", "value_eur": "35,50", "sponsor": "Épicerie"},
                        {"kind": "carton_plein", "label": "Vélo", "value_eur": 190},
                    ]
                },
                {"lots": [{"kind": "quine", "label": "Jambon", "value_eur": 40}]},
            ]
        },
        headers=admin,
    )
    assert (
        c.post(
            "/api/partie/start",
            json={"lots": [{"kind": "quine", "label": "Panier garni"}, {"kind": "carton_plein", "label": "Vélo"}]},
            headers=speaker,
        ).status_code
        == 201
    )
    state = c.get("/api/state").get_json()
    assert [lot["value_eur"] for lot in state["partie"]["lots"]] == [35.5, 190]
    view = c.get("/api/programme", headers=admin).get_json()
    assert [(p["played"], p["status"]) for p in view["parties"][:2]] == [(True, "running"), (False, "planned")]
    c.post("/api/partie/clear", json={"force": True}, headers=speaker)
    assert c.get("/api/programme", headers=admin).get_json()["parties"][0]["status"] == "played"
    c.post("/api/partie/start", json={"lots": [{"kind": "quine", "label": "Jambon de pays"}]}, headers=speaker)
    rows = french_csv(c.get("/api/report.csv", headers=admin).get_data(as_text=True))
    [changed] = [r for r in rows if r["rubrique"] == "lot changé à la console"]
    assert (changed["partie"], changed["état"], changed["libellé"], changed["détail"], changed["rôle"]) == (
        "2",
        "remplacé",
        "Jambon de pays",
        "Jambon 40,00 €",
        "speaker",
    )
    assert len(changed["session"]) == 8


# ---- the CSV a French spreadsheet reads, and the PDF agree ----------------------------------------------------------
def french_csv(text: str) -> list[dict]:
    """The report's CSV opened as a French spreadsheet would: the csv module, excel dialect, ``;``."""
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text.lstrip("\ufeff")), dialect="excel", delimiter=";"))


def pdf_text(data: bytes) -> str:
    pdf = pdfium.PdfDocument(data)
    try:
        return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    finally:
        pdf.close()


def amount_after(text: str, label: str) -> str:
    """The euros printed after ``label`` in the PDF's text (``-143,90``)."""
    m = re.search(re.escape(label) + r"\s+(-?[\d\u00a0 ]+,\d\d) €", text)
    assert m, label
    return m.group(1).replace(" ", "").replace("\u00a0", "")


def test_the_csv_read_by_the_csv_module_gives_the_pdf_s_totals(desk):
    from hall.app.paper.report_pdf import write_report_pdf
    from tests.display.conftest import make_app

    desk.app, _ = make_app(desk.hall, desk.config, documents={"report_pdf": write_report_pdf})
    c, h = desk.app.test_client(), desk.headers("desk")
    c.post(
        "/api/programme",
        json={
            "parties": [
                {
                    "lots": [
                        {"kind": "quine", "label": "Panier garni", "value_eur": 40, "sponsor": "Boulangerie Morel"},
                        {"kind": "carton_plein", "label": "Vélo", "value_eur": "189,90"},
                    ]
                }
            ]
        },
        headers=desk.headers("admin"),
    )
    for cards, payment, amount in (
        (PLAQUE, "carte", None),
        (f"{A(13)}..{A(18)}", "especes", None),
        (A(19), "cheque", "2,50"),
        (f"{A(20)}..{A(21)}", "especes", "5"),
    ):
        body = {"range": cards, "payment": payment, **({"amount_eur": amount} if amount else {})}
        assert c.post("/api/sales", json=body, headers=h).status_code == 201
    c.post("/api/partie/start", json={}, headers=desk.headers("speaker"))
    admin = desk.headers("admin")
    rows = french_csv(c.get("/api/report.csv", headers=admin).get_data(as_text=True))
    text = pdf_text(c.get("/api/report.pdf", headers=admin).get_data())
    balance = {r["libellé"]: r["montant (€)"] for r in rows if r["rubrique"] == "solde"}
    payments = {r["type"]: r["montant (€)"] for r in rows if r["libellé"] == "paiement"}
    # the partie runs and nothing is won yet: no lot is given, both are still to play, their value apart
    assert balance == {
        "recette totale": "47,50",
        "valeur des lots donnés": "0,00",
        "dont lots offerts": "0,00",
        "dont lots achetés": "0,00",
        "solde": "47,50",
        "lots non donnés (gardés)": "229,90",
    }
    assert payments == {"espèces": "20,00", "carte bancaire": "25,00", "chèque": "2,50"}
    assert amount_after(text, "Recette totale") == balance["recette totale"]
    assert amount_after(text, "Valeur totale des lots") == balance["valeur des lots donnés"]
    assert amount_after(text, "dont lots offerts (donateurs)") == balance["dont lots offerts"]
    assert amount_after(text, "dont lots achetés") == balance["dont lots achetés"]
    assert amount_after(text, "Solde (recette − lots achetés donnés)") == balance["solde"]
    for label, key in (
        ("dont espèces", "espèces"),
        ("dont carte bancaire", "carte bancaire"),
        ("dont chèques", "chèque"),
    ):
        assert amount_after(text, label) == payments[key]
    sales = [r for r in rows if r["rubrique"] == "vente"]
    assert sum(int(r["montant (€)"].replace(",", "")) for r in sales) == 4750  # the amounts are numbers
    assert all(re.fullmatch(r"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d", r["heure"]) for r in sales)  # local, French
    assert "Relevé pour le service des impôts (SIE)" in text
    assert "Lotos enregistrés par loto-hall en" in text and "six manifestations" in text


def test_an_english_hall_writes_english_headers(tmp_path):
    r = sales_room(tmp_path, extra={"hall": {"language": "en"}})
    text = r.app.test_client().get("/api/report.csv", headers=r.headers("admin")).get_data(as_text=True)
    header = next(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))
    assert header[:4] == ["section", "partie", "lot", "order"] and "amount_eur" in header
    assert "\nbalance;" in text.replace("\r\n", "\n")
    r.hall.journal.close()
