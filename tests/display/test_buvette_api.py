"""The buvette's till through its API (RULES L25, issue 44 item 2): products set by the admin, sales by the buvette's
role and those above it, every refusal named and nothing sold, the Z's sums by hand, a restart keeping the stock and
the ticket numbers, ``loto-hall verify`` passing on a journal with the buvette's events."""

from __future__ import annotations

import pytest

from hall.app.cli import main
from hall.cartons.cardbook import CardBook
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.display.conftest import make_room

PRODUCTS = [
    {"name": "Café", "price_eur": 1, "stock": 40},
    {"name": "Bière", "price_eur": "2,50", "stock": 3},
    {"name": "Crêpe", "price_eur": 1.5, "stock": 10},
]


@pytest.fixture
def bar(tmp_path):
    room = make_room(tmp_path)
    client = room.app.test_client()
    res = client.post(
        "/api/buvette/products", json={"products": PRODUCTS, "costs_eur": 12}, headers=room.headers("admin")
    )
    assert res.status_code == 201, res.get_json()
    yield room, client
    room.hall.journal.close()


def sell(room, client, role="buvette", **body):
    return client.post("/api/buvette/sales", json=body, headers=room.headers(role))


def test_a_cash_sale_gives_its_ticket_number_total_and_change(bar):
    room, client = bar
    res = sell(
        room,
        client,
        items=[{"product": "Bière", "qty": 2}, {"product": "café", "qty": 1}],
        payment="cash",
        tendered_eur=10,
    )
    body = res.get_json()
    assert res.status_code == 201
    assert (body["ticket"], body["total_eur"], body["change_eur"]) == (1, 6, 4)
    second = sell(room, client, role="desk", items=[{"product": "Crêpe", "qty": 1}], payment="card").get_json()
    assert second["ticket"] == 2 and second["total_eur"] == 1.5 and second["change_eur"] == 0
    stock = {
        p["name"]: p["stock"]
        for p in client.get("/api/buvette", headers=room.headers("buvette")).get_json()["products"]
    }
    assert stock == {"Café": 39, "Bière": 1, "Crêpe": 9}


def test_out_of_stock_names_the_product_and_sells_nothing(bar):
    room, client = bar
    res = sell(room, client, items=[{"product": "Café", "qty": 1}, {"product": "Bière", "qty": 4}], payment="cash")
    body = res.get_json()
    assert res.status_code == 409 and body["error"] == "out_of_stock" and body["product"] == "Bière"
    assert "Bière" in body["message"] and "3" in body["message"]
    assert room.hall.buvette().next_ticket == 1 and room.hall.buvette().products[0].left == 40  # nothing sold


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"items": [{"product": "Café", "qty": 1}], "payment": "cheque"}, 422, "bad_payment"),
        ({"items": [{"product": "Café", "qty": 1}], "payment": None}, 422, "bad_payment"),
        ({"items": [{"product": "Whisky", "qty": 1}], "payment": "cash"}, 422, "unknown_product"),
        ({"items": [], "payment": "cash"}, 422, "bad_items"),
        ({"items": [{"product": "Café", "qty": 1}] * 21, "payment": "cash"}, 422, "bad_items"),
        ({"items": [{"product": "Café", "qty": 51}], "payment": "cash"}, 422, "bad_count"),
        ({"items": [{"product": "Café", "qty": 0}], "payment": "cash"}, 422, "bad_count"),
        (
            {"items": [{"product": "Café", "qty": 30}, {"product": "Café", "qty": 30}], "payment": "cash"},
            422,
            "bad_count",
        ),
        ({"items": [{"product": "Café", "qty": 1.5}], "payment": "cash"}, 422, "bad_count"),
        ({"items": [{"product": "Café", "qty": 2}], "payment": "cash", "tendered_eur": 1}, 422, "short_tendered"),
        ({"items": [{"product": "Café", "qty": 1}], "payment": "card", "tendered_eur": 5}, 422, "tendered_not_cash"),
        ({"items": [{"product": "Café", "qty": 1}], "payment": "cash", "print": "fax"}, 422, "bad_print"),
        ({"items": "Café", "payment": "cash"}, 422, "bad_items"),
    ],
)
def test_every_bad_sale_is_refused_by_name_and_sells_nothing(bar, body, status, code):
    room, client = bar
    res = sell(room, client, **body)
    assert (res.status_code, res.get_json()["error"]) == (status, code), res.get_json()
    assert res.get_json()["message"]
    assert room.hall.buvette().next_ticket == 1


def test_a_negative_price_and_bad_lists_are_refused_whole(bar):
    room, client = bar
    admin = room.headers("admin")
    before = room.hall.buvette()
    for products, code in (
        ([{"name": "Café", "price_eur": -1, "stock": 3}], "negative_price"),
        ([{"name": "Café", "price_eur": "-0,50", "stock": 3}], "negative_price"),
        ([{"name": "Café", "price_eur": "deux", "stock": 3}], "bad_amount"),
        ([{"name": "Café", "price_eur": 1, "stock": -1}], "bad_count"),
        ([{"name": "", "price_eur": 1, "stock": 1}], "bad_name"),
        ([{"name": "x" * 31, "price_eur": 1, "stock": 1}], "bad_name"),
        ([{"name": "Café", "price_eur": 1, "stock": 1}, {"name": "café", "price_eur": 2, "stock": 1}], "product_twice"),
        ([{"name": f"P{i}", "price_eur": 1, "stock": 1} for i in range(41)], "bad_products"),
        ([], "bad_products"),
        (None, "bad_products"),
    ):
        res = client.post("/api/buvette/products", json={"products": products}, headers=admin)
        assert res.status_code == 422 and res.get_json()["error"] == code, (products, res.get_json())
    assert room.hall.buvette() == before


def test_who_may_sell_and_who_may_set_the_products(bar):
    room, client = bar
    item = {"items": [{"product": "Café", "qty": 1}], "payment": "free"}
    for role in ("buvette", "desk", "speaker", "admin"):
        assert sell(room, client, role=role, **item).status_code == 201, role
    assert sell(room, client, role="controller", **item).status_code == 403
    assert client.post("/api/buvette/sales", json=item).status_code == 401
    res = client.post("/api/buvette/products", json={"products": PRODUCTS}, headers=room.headers("buvette"))
    assert res.status_code == 403


def test_the_z_sums_by_hand_and_the_count_at_the_close(bar):
    room, client = bar
    sell(
        room,
        client,
        items=[{"product": "Bière", "qty": 2}, {"product": "Café", "qty": 3}],
        payment="cash",
        tendered_eur=20,
    )
    sell(room, client, items=[{"product": "Crêpe", "qty": 2}], payment="card")
    sell(room, client, items=[{"product": "Café", "qty": 2}], payment="free")
    z = client.post("/api/buvette/close", json={"counted": {"Café": 34, "crêpe": 8}}, headers=room.headers("buvette"))
    body = z.get_json()
    assert z.status_code == 201 and body["z"] == 1 and body["tickets"] == [1, 3]
    # by hand: cash 2 × 2,50 + 3 × 1 = 8 €; card 2 × 1,50 = 3 €; free 2 × 1 = 2 € (no takings)
    assert body["by_payment_eur"] == {"cash": 8, "card": 3, "free": 2} and body["takings_eur"] == 11
    assert body["by_product"] == [
        {"product": "Bière", "qty": 2, "total_eur": 5},
        {"product": "Café", "qty": 5, "total_eur": 5},
        {"product": "Crêpe", "qty": 2, "total_eur": 3},
    ]
    counted = {c["product"]: (c["expected"], c["counted"], c["difference"]) for c in body["counted"]}
    assert counted == {"Café": (35, 34, -1), "Bière": (1, None, None), "Crêpe": (8, 8, 0)}
    # the next Z starts after ticket 3, the count stands as the stock
    sell(room, client, items=[{"product": "Café", "qty": 1}], payment="card")
    z2 = client.post("/api/buvette/close", headers=room.headers("admin")).get_json()
    assert z2["z"] == 2 and z2["tickets"] == [4, 4] and z2["by_payment_eur"] == {"cash": 0, "card": 1, "free": 0}
    assert {c["product"]: c["expected"] for c in z2["counted"]}["Café"] == 33
    account = room.hall.buvette_account()
    assert account.rubrique == "buvette" and account.takings_cents == {"especes": 800, "carte": 400}
    assert account.costs_cents == 1200 and account.balance_cents == 0
    bad = client.post("/api/buvette/close", json={"counted": {"Whisky": 1}}, headers=room.headers("admin"))
    assert bad.status_code == 422 and bad.get_json()["error"] == "unknown_product"


def test_a_restart_keeps_the_stock_and_the_ticket_numbers_and_verify_passes(tmp_path, capsys):
    room = make_room(tmp_path)
    client = room.app.test_client()
    client.post("/api/buvette/products", json={"products": PRODUCTS}, headers=room.headers("admin"))
    for _ in range(3):
        assert (
            sell(room, client, items=[{"product": "Bière", "qty": 1}], payment="cash", print="receipt").status_code
            == 201
        )
    client.post("/api/buvette/close", json={"counted": {"Café": 40}}, headers=room.headers("admin"))
    before = room.hall.buvette()
    room.hall.journal.close()
    again = Hall(room.config, Journal(tmp_path / "journal.sqlite"), CardBook({}), voucher_secret=b"k" * 32)
    after = again.buvette()
    assert after == before and after.next_ticket == 4 and after.products[1].left == 0
    assert [t.ticket for t in again.buvette_to_print()] == [1, 2, 3]  # the receipts still owed to the printer
    again.buvette_printed(1, role="device")
    from hall.refusal import Rejected

    with pytest.raises(Rejected, match="out_of_stock"):
        again.buvette_sell([{"product": "Bière", "qty": 1}], "cash", role="buvette")
    assert again.buvette_sell([{"product": "Café", "qty": 1}], "card", role="buvette").event.ticket == 4
    again.journal.close()
    capsys.readouterr()
    assert main(["verify", "--data-dir", str(tmp_path)]) == 0


def test_the_openapi_document_declares_the_buvette_s_routes_with_bounded_bodies(bar):
    from display.openapi import spec

    room, client = bar
    paths = spec()["paths"]
    assert {"/api/buvette", "/api/buvette/products", "/api/buvette/sales", "/api/buvette/close"} <= set(paths)
    sale = paths["/api/buvette/sales"]["post"]
    body = sale["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["items", "payment"]
    assert (body["properties"]["items"]["minItems"], body["properties"]["items"]["maxItems"]) == (1, 20)
    assert body["properties"]["items"]["items"]["properties"]["qty"]["maximum"] == 50
    assert {"201", "409", "422", "401", "403"} <= set(sale["responses"])
    products = paths["/api/buvette/products"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert products["properties"]["products"]["maxItems"] == 40
    close = paths["/api/buvette/close"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert close["properties"]["counted"]["maxProperties"] == 40
    # the bounds are the server's: one line past them is refused as the document says
    many = [{"product": "Café", "qty": 1}] * 21
    res = sell(room, client, items=many, payment="cash")
    assert res.status_code == 422 and res.get_json()["error"] == "bad_items"
