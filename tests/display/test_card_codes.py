"""Issue 31 item 6: « Mes cartons » shows a carton's grid only to a phone that shows it holds the paper — the code
printed on it (in its QR code's link) or the sale's code — and never says, without it, whether a carton was sold."""

from __future__ import annotations

import io
import json
import re

import pypdfium2
import zxingcpp

from display.services import services_of
from hall.cartons.card_ids import CARD_CODE_ALPHABET, CARD_CODE_LENGTH, card_code
from tests.display.conftest import A1, A2, A3, make_app, make_room
from tests.helpers import refused


def sold_room(tmp_path, **extra):
    room = make_room(tmp_path, extra=extra)
    client = room.app.test_client()
    assert (
        client.post("/api/sales", json={"cards": [A1], "amount_eur": 3}, headers=room.headers("admin")).status_code
        == 201
    )
    return room, client


def cards(client, *items, address="10.42.0.50"):
    res = client.post("/api/players/cards", json={"card_ids": list(items)}, environ_base={"REMOTE_ADDR": address})
    assert res.status_code == 200, res.get_json()
    return res.get_json()


def test_without_its_code_a_phone_learns_neither_the_grid_nor_whether_it_was_sold(tmp_path):
    room, client = sold_room(tmp_path)
    body = cards(client, A1, A3, A2)  # sold, unsold, unsold: one answer for all three
    assert body["cards"] == []
    assert [(r["card_id"], r["error"]) for r in body["refused"]] == [
        (A1, "bad_card_code"),
        (A3, "bad_card_code"),
        (A2, "bad_card_code"),
    ]
    assert "rows" not in json.dumps(body) and "unsold" not in json.dumps(body)
    wrong = cards(client, {"card_id": A1, "code": room.hall.card_code(A2)})  # another carton's code
    assert wrong["refused"][0]["error"] == "bad_card_code"
    room.hall.journal.close()


def test_the_printed_link_or_the_typed_code_opens_the_carton(tmp_path):
    room, client = sold_room(tmp_path)
    code = room.hall.card_code(A1)
    assert len(code) == CARD_CODE_LENGTH and set(code) <= set(CARD_CODE_ALPHABET)
    for item in (
        room.config.hall_link(f"c/{A1}?k={code}"),
        {"card_id": A1.lower().replace("-", ""), "code": code.lower()},
        {"card_id": A1, "code": f" {code[:2]}-{code[2:]} "},
    ):
        body = cards(client, item)
        assert [(c["card_id"], c["code"]) for c in body["cards"]] == [(A1, code)] and body["cards"][0]["rows"]
    unsold = cards(client, {"card_id": A3, "code": room.hall.card_code(A3)})  # the holder learns it does not play
    assert unsold["refused"][0]["error"] == "unsold_card"
    near = cards(client, {"card_id": A1[:-1] + "Z", "code": code})  # a near miss still says « vérifiez »
    assert near["refused"][0]["error"] == "unknown_card" and near["refused"][0]["suggestions"] == [A1]
    room.hall.journal.close()


def test_one_phone_walking_the_sequential_ids_reads_no_grid(tmp_path):
    room, client = sold_room(tmp_path)
    services_of(room.app).link_gate.set_rate(1e6)
    seen = [cards(client, cid, address=f"10.42.1.{i}") for i, cid in enumerate((A1, A2, A3))]
    assert all(body["cards"] == [] for body in seen)
    assert {r["error"] for body in seen for r in body["refused"]} == {"bad_card_code"}
    room.hall.journal.close()


def test_the_carton_page_without_its_code_holds_nothing_of_the_carton(tmp_path):
    room, client = sold_room(tmp_path)
    bare = client.get(f"/c/{A1}").get_data(as_text=True)
    boot = json.loads(re.search(r'<script type="application/json" id="boot">(.*?)</script>', bare, re.S).group(1))
    assert boot["link"] == [{"card_id": A1, "code": ""}]
    linked = client.get(f"/c/{A1}?k=abc").get_data(as_text=True)
    assert '"code": "abc"' in linked or '"code":"abc"' in linked
    sale = client.post(
        "/api/sales", json={"cards": [A2, A3], "amount_eur": 6}, headers=room.headers("admin")
    ).get_json()
    page = client.get(sale["phones_url"]).get_data(as_text=True)  # the sale's code hands its cartons' codes
    boot = json.loads(re.search(r'<script type="application/json" id="boot">(.*?)</script>', page, re.S).group(1))
    assert boot["link"] == [
        {"card_id": A2, "code": room.hall.card_code(A2)},
        {"card_id": A3, "code": room.hall.card_code(A3)},
    ]
    room.hall.journal.close()


def test_a_phone_call_needs_the_code_too(tmp_path):
    room, client = sold_room(tmp_path, players={"phone_call": True})
    refused(client.post("/api/players/call", json={"card_id": A3}), 403, "bad_card_code")  # not « non vendu »
    refused(client.post("/api/players/call", json={"card_id": A1, "code": "AAAAA"}), 403, "bad_card_code")
    room.hall.journal.close()


def test_the_printed_carton_carries_its_code_in_its_link_and_under_its_barcode(tmp_path):
    from hall.app.paper.sheets import write_cards_pdf

    room = make_room(tmp_path)
    room.app, _ = make_app(room.hall, room.config, documents={"cards_pdf": write_cards_pdf})
    pdf = room.app.test_client().get("/api/cards.pdf?series=A&per_page=6", headers=room.headers("admin")).get_data()
    document = pypdfium2.PdfDocument(io.BytesIO(pdf))
    page = document[0]
    found = zxingcpp.read_barcodes(page.render(scale=3, grayscale=True).to_pil())
    links = sorted(r.text for r in found if r.format == zxingcpp.BarcodeFormat.QRCode)
    assert links == sorted(room.config.hall_link(f"c/{c}?k={room.hall.card_code(c)}") for c in (A1, A2, A3))
    text = page.get_textpage().get_text_range()
    assert all(f"code {room.hall.card_code(c)}" in text for c in (A1, A2, A3))
    document.close()
    assert card_code(b"k" * 32, A1) == room.hall.card_code(A1) != card_code(b"j" * 32, A1)  # the hall's own key
    room.hall.journal.close()
