"""The sales desk's API (INTERFACE §8) and the programme editor's, through Flask's test client on a real journal."""

from __future__ import annotations

import random

import pytest

from hall.cartons.card_ids import make_card_id
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.display.conftest import PINS, Room
from tests.helpers import refused

PLAQUE = f"{make_card_id('A', 1)}..{make_card_id('A', 12)}"


def sales_room(tmp_path, count: int = 36, extra: dict | None = None, series: str = "A") -> Room:
    from tests.display.conftest import make_app

    raw = {
        "hall": {"name": "Foyer rural", "data_dir": str(tmp_path)},
        "auth": dict(PINS),
        "sales": {"price": [{"cards": 1, "eur": 3}, {"cards": 6, "eur": 15}, {"cards": 12, "eur": 25}]},
    }
    for section, values in (extra or {}).items():
        raw.setdefault(section, {}).update(values)
    config = parse_config(raw)
    book = CardBook(dict(generate_cards(count, "A", series, "1-9", 1)))
    hall = Hall(config, Journal(tmp_path / "journal.sqlite"), book, voucher_secret=b"k" * 32, rng=random.Random(1))
    app, socketio = make_app(hall, config)
    app.config["TESTING"] = True
    return Room(hall, app, socketio, config)


@pytest.fixture
def desk(tmp_path):
    r = sales_room(tmp_path)
    yield r
    r.hall.journal.close()


def test_a_plaque_sold_then_a_double_sale_refused_naming_the_cartons(desk):
    c = desk.app.test_client()
    token = c.post("/api/login", json={"pin": PINS["desk_pin"], "name": "Anne"}).get_json()["token"]
    h = {"Authorization": f"Bearer {token}"}
    # the seller is the logged-in desk: a name in the body is only the sale's note
    resp = c.post("/api/sales", json={"range": PLAQUE, "payment": "carte", "seller": "Zoé"}, headers=h)
    assert resp.status_code == 201, resp.get_json()
    sale = resp.get_json()
    assert sale["amount_eur"] == 25 and len(sale["cards"]) == 12 and sale["sale_id"] == 1
    assert (sale["seller"], sale["note"]) == ("Anne", "Zoé")
    seq = desk.hall.journal.last_seq
    body = refused(
        c.post(
            "/api/sales",
            json={"cards": [make_card_id("A", 12), make_card_id("A", 13)], "amount_eur": 6, "payment": "especes"},
            headers=h,
        ),
        409,
        "already_sold",
    )
    assert body["cards"] == [make_card_id("A", 12)] and make_card_id("A", 12) in body["message"]
    body = refused(
        c.post(
            "/api/sales", json={"cards": [make_card_id("A", 13), make_card_id("B", 1)], "payment": "especes"}, headers=h
        ),
        422,
        "unknown_card",
    )
    assert body["cards"] == [make_card_id("B", 1)]
    assert desk.hall.journal.last_seq == seq  # a refusal sells nothing
    summary = c.get("/api/sales/summary", headers=h).get_json()
    assert summary["cards_sold"] == 12
    assert summary["takings_eur"]["total"] == 25 and summary["takings_eur"]["by_payment"]["carte"] == 25
    assert summary["takings_eur"]["by_seller"] == {"Anne": 25}


def test_a_basket_line_is_read_as_a_sale_would_read_it_and_nothing_is_written(desk):
    """/caisse asks as each line joins the basket (issue 26): the cartons, the unknown ones with the real carton one
    keystroke away, those already sold; bounded and checked as a sale, journalling nothing."""
    c, h = desk.app.test_client(), desk.headers("desk")
    assert c.post("/api/sales", json={"range": "A-1..A-2", "payment": "carte"}, headers=h).status_code == 201
    seq = desk.hall.journal.last_seq
    real = make_card_id("A", 3)
    typo = real[:-1] + ("B" if real[-1] != "B" else "C")
    body = c.get(
        "/api/sales/check", query_string={"cards": f"a-2 {typo.lower().replace('-', '')}"}, headers=h
    ).get_json()
    assert body["cards"] == [make_card_id("A", 2), typo] and body["count"] == 2
    assert body["unknown"] == [{"card_id": typo, "suggestions": [real]}]
    assert body["sold"] == [make_card_id("A", 2)]
    assert c.get("/api/sales/check", query_string={"cards": "A-1..A-12"}, headers=h).get_json()["count"] == 12
    refused(c.get("/api/sales/check", query_string={"cards": "A-1..A-99999"}, headers=h), 422, "range_too_large")
    refused(c.get("/api/sales/check", query_string={"cards": " "}, headers=h), 422, "no_cards")
    assert c.get("/api/sales/check", query_string={"cards": "A-1"}).status_code == 401
    assert (
        c.get("/api/sales/check", query_string={"cards": "A-1"}, headers=desk.headers("controller")).status_code == 403
    )
    assert desk.hall.journal.last_seq == seq  # a question writes nothing


@pytest.mark.parametrize(
    "payload,status,code",
    [
        ({"range": "A-1..A-99999"}, 422, "range_too_large"),
        ({"range": "A-5..A-1"}, 422, "bad_range"),
        ({"range": "   "}, 422, "no_cards"),
        ({"cards": "A-1"}, 422, "bad_field"),
        ({"range": "A-1", "payment": "bitcoin"}, 422, "bad_payment"),
        ({"range": "A-1", "amount_eur": "trois"}, 422, "bad_amount"),
        ({"range": "A-1", "amount_eur": -3}, 422, "bad_amount"),
        ({"range": "A-1", "buyer": "x" * 200}, 422, "bad_name"),
    ],
)
def test_bad_sales_are_refused_with_a_code_and_change_nothing(desk, payload, status, code):
    c = desk.app.test_client()
    seq = desk.hall.journal.last_seq
    refused(c.post("/api/sales", json=payload, headers=desk.headers("desk")), status, code)
    assert desk.hall.journal.last_seq == seq


def test_roles_the_desk_sells_the_admin_voids(desk):
    c = desk.app.test_client()
    refused(c.post("/api/sales", json={"range": "A-1"}), 401, "unauthorized")
    refused(c.post("/api/sales", json={"range": "A-1"}, headers=desk.headers("controller")), 403, "forbidden")
    sale = c.post(
        "/api/sales", json={"range": "A-1..A-6", "payment": "cheque"}, headers=desk.headers("desk")
    ).get_json()
    assert sale["amount_eur"] == 15
    refused(c.post(f"/api/sales/{sale['sale_id']}/void", headers=desk.headers("desk")), 403, "forbidden")
    voided = c.post(f"/api/sales/{sale['sale_id']}/void", json={"reason": "erreur"}, headers=desk.headers("admin"))
    assert voided.status_code == 200 and voided.get_json()["voided"] is True
    refused(c.post(f"/api/sales/{sale['sale_id']}/void", headers=desk.headers("admin")), 409, "sale_voided")
    refused(c.post("/api/sales/99/void", headers=desk.headers("admin")), 404, "unknown_sale")
    summary = c.get("/api/sales/summary", headers=desk.headers("admin")).get_json()
    assert summary["cards_sold"] == 0 and summary["takings_eur"]["total"] == 0


def test_a_voided_carton_is_refused_at_a_claim(desk):
    c = desk.app.test_client()
    one = c.post("/api/sales", json={"range": "A-1"}, headers=desk.headers("desk")).get_json()
    c.post("/api/sales", json={"range": "A-2"}, headers=desk.headers("desk"))
    c.post(f"/api/sales/{one['sale_id']}/void", headers=desk.headers("admin"))
    c.post("/api/partie/start", headers=desk.headers("speaker"))
    verdict = c.post("/api/claims", json={"card_id": make_card_id("A", 1)}, headers=desk.headers("controller"))
    assert verdict.get_json()["verdict"] == "unsold_card"
    never = c.post("/api/claims", json={"card_id": make_card_id("A", 30)}, headers=desk.headers("controller"))
    assert never.get_json()["verdict"] == "unsold_card"


def test_the_price_suggestion_follows_the_tiers(desk):
    c = desk.app.test_client()
    prices = [
        c.get(f"/api/sales/price?count={n}", headers=desk.headers("desk")).get_json()["amount_eur"]
        for n in (1, 6, 7, 12, 13)
    ]
    assert prices == [3, 15, 18, 25, 28]


def test_the_programme_edited_on_admin_drives_the_next_partie(desk):
    c, admin = desk.app.test_client(), desk.headers("admin")
    view = c.get("/api/programme", headers=admin).get_json()
    assert view["first_editable"] == 1 and not view["edited"]
    parties = [
        {
            "lots": [
                {"kind": "quine", "label": "Panier garni", "value_eur": "35,50", "sponsor": "Épicerie"},
                {"kind": "carton_plein", "label": "Bon de 100 €", "value_eur": 100},
            ],
            "consolation": "Bouteille",
        },
        {
            "lots": [
                {"kind": "carton_plein", "label": "100 € en espèces", "value_eur": 100},
                {"kind": "carton_plein", "label": "Téléviseur", "value_eur": 400},
            ]
        },
    ]
    resp = c.post("/api/programme", json={"parties": parties}, headers=admin)
    assert resp.status_code == 201, resp.get_json()
    view = resp.get_json()
    flags = [[lot["flags"] for lot in p["lots"]] for p in view["parties"]]
    assert flags == [[[], []], [["cash"], []]]  # money is flagged; a 400 € TV is not: the law caps no lot
    assert view["declared_total_eur"] == 635.5
    refused(
        c.post("/api/programme", json={"parties": [{"lots": [{"kind": "bingo"}]}]}, headers=admin), 422, "bad_programme"
    )
    refused(c.post("/api/programme", json={"parties": parties}, headers=desk.headers("speaker")), 403, "forbidden")
    c.post("/api/partie/start", headers=desk.headers("speaker"))
    state = c.get("/api/state").get_json()
    assert [lot["label"] for lot in state["partie"]["lots"]] == ["Panier garni", "Bon de 100 €"]
    assert state["partie"]["consolation"] == "Bouteille"


def test_a_pin_changed_on_admin_opens_the_role_and_the_old_one_does_not(desk):
    c, admin = desk.app.test_client(), desk.headers("admin")
    refused(c.post("/api/pins", json={"role": "desk", "pin": PINS["speaker_pin"]}, headers=admin), 409, "pin_taken")
    refused(c.post("/api/pins", json={"role": "desk", "pin": "12a456"}, headers=admin), 422, "bad_new_pin")
    assert c.post("/api/pins", json={"role": "desk", "pin": "482193"}, headers=admin).status_code == 201
    assert c.post("/api/login", json={"pin": "482193"}).get_json()["role"] == "desk"
    refused(c.post("/api/login", json={"pin": PINS["desk_pin"]}), 401, "bad_pin")


def test_a_french_spreadsheet_csv_is_imported_and_a_bad_one_names_its_lines(desk):
    import io as _io

    from hall.cartons.cardbook import CardBook

    c, admin = desk.app.test_client(), desk.headers("admin")
    out = _io.StringIO()
    CardBook(dict(generate_cards(6, "fr", "F", "1-9", 1))).write_csv(out)
    excel = out.getvalue().replace(",", ";").replace("\n", "\r\n").encode("cp1252")
    resp = c.post("/api/cards/import", data=excel, headers={**admin, "Content-Type": "text/csv"})
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["added"] == 6
    bad = "card_id;row1;row2;row3\r\nÉ-1;1 2 3;4;5\r\n".encode("cp1252")
    body = refused(
        c.post("/api/cards/import", data=bad, headers={**admin, "Content-Type": "text/csv"}), 422, "bad_cards"
    )
    assert body["errors"][0][0] == 2


def test_a_presale_reserved_for_a_name_then_paid_and_a_sale_for_one_partie(desk):
    c, h = desk.app.test_client(), desk.headers("desk")
    r = c.post(
        "/api/sales", json={"range": "A-1..A-6", "payment": "cheque", "buyer": "Mme Roux", "paid": False}, headers=h
    ).get_json()
    assert r["paid"] is False and r["amount_eur"] == 15
    c.post("/api/sales", json={"range": "A-7..A-12", "payment": "especes", "partie": "2"}, headers=h)
    s = c.get("/api/sales/summary", headers=h).get_json()
    assert s["takings_eur"]["total"] == 15 and s["takings_eur"]["reserved"] == 15
    assert s["takings_eur"]["by_partie"] == {"2": 15}
    assert [x["buyer"] for x in c.get("/api/sales?buyer=roux", headers=h).get_json()["sales"]] == ["Mme Roux"]
    paid = c.post(f"/api/sales/{r['sale_id']}/pay", json={"payment": "cheque"}, headers=h)
    assert paid.status_code == 200 and paid.get_json()["paid"] is True
    s = c.get("/api/sales/summary", headers=h).get_json()
    assert s["takings_eur"]["total"] == 30 and s["takings_eur"]["by_payment"]["cheque"] == 15
    refused(c.post(f"/api/sales/{r['sale_id']}/pay", json={"payment": "cheque"}, headers=h), 409, "already_paid")
    refused(c.post("/api/sales", json={"range": "A-13", "partie": 0}, headers=h), 422, "bad_partie")


def test_admin_says_whether_sales_are_recorded_before_counting_sold_cartons(desk):
    c, admin = desk.app.test_client(), desk.headers("admin")
    info = c.get("/api/admin", headers=admin).get_json()
    assert info["sales_recorded"] is False and info["cards"] == 36
    c.post("/api/sales", json={"range": "A-1..A-6", "payment": "carte"}, headers=desk.headers("desk"))
    info = c.get("/api/admin", headers=admin).get_json()
    assert info["sales_recorded"] is True and info["sold"] == 6
