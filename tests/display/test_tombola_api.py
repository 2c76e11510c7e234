"""The tombola's API as the contract writes it (issue 44): POST/GET /api/tombola, POST /api/tombola/sales,
POST /api/tombola/draw; every refusal a named 4xx in French that loses nothing."""

from __future__ import annotations

import pytest

from tests.display.conftest import make_room
from tests.hall.test_tombola import CONDUCTED, body


@pytest.fixture
def room(tmp_path):
    return make_room(tmp_path)


@pytest.fixture
def client(room):
    return room.app.test_client()


def post(client, room, path, data, role):
    return client.post(path, json=data, headers=room.headers(role))


def prepared(client, room):
    res = post(client, room, "/api/tombola", body(), "admin")
    assert res.status_code == 201, res.get_json()
    return res.get_json()


def test_prepare_and_read_the_15_percent_check(client, room):
    got = prepared(client, room)
    assert got["check"] == {"issued_eur": 200, "limit_eur": 30, "spent_eur": 31, "percent": 15.5, "over": True}
    assert got["warnings"] == ["over_15"] and got["currency"] == "EUR"
    public = client.get("/api/tombola").get_json()
    assert public["check"]["over"] and "sales" not in public


@pytest.mark.parametrize(
    "changes,status,code",
    [
        ({"authorisation": None}, 422, "tombola_unauthorised"),
        ({"lots": [{"label": "100 €", "value_eur": 100}]}, 422, "cash_lot"),
        ({"price_eur": -1}, 422, "bad_field"),
    ],
)
def test_a_bad_tombola_is_refused_by_name(client, room, changes, status, code):
    res = post(client, room, "/api/tombola", body(**changes), "admin")
    assert (res.status_code, res.get_json()["error"]) == (status, code)
    assert res.get_json()["message"]  # a French sentence, never empty
    assert client.get("/api/tombola").get_json() == {"prepared": False, "sold": 0, "winners": []}


def test_the_arrete_refusal_is_said_in_french(client, room):
    res = post(client, room, "/api/tombola", body(authorisation={}), "admin")
    assert "arrêté du maire" in res.get_json()["message"]


def test_only_the_admin_prepares(client, room):
    assert post(client, room, "/api/tombola", body(), "desk").status_code == 403
    assert client.post("/api/tombola", json=body()).status_code == 401


def test_sell_close_and_draw_through_the_api(client, room):
    prepared(client, room)
    sale = post(client, room, "/api/tombola/sales", {"count": 3, "buyer": "Mme Roux", "payment": "especes"}, "desk")
    assert sale.status_code == 201 and sale.get_json()["tickets"] == [1, 2, 3]
    assert len(sale.get_json()["codes"]) == 3 and sale.get_json()["amount_eur"] == 6
    twice = post(client, room, "/api/tombola/sales", {"tickets": [2], "buyer": "M. Abel", "payment": "carte"}, "desk")
    assert (twice.status_code, twice.get_json()["error"]) == (409, "ticket_sold")
    early = post(client, room, "/api/tombola/draw", CONDUCTED, "speaker")
    assert (early.status_code, early.get_json()["error"]) == (409, "sales_open")
    assert post(client, room, "/api/tombola/close", {}, "speaker").status_code == 200
    one = post(client, room, "/api/tombola/draw", CONDUCTED, "speaker").get_json()
    assert [d["lot"] for d in one["drawn"]] == [1] and one["drawn"][0]["ticket"] in (1, 2, 3)
    won = one["drawn"][0]["ticket"]
    again = post(client, room, "/api/tombola/draw", {"ticket": won}, "speaker")
    assert (again.status_code, again.get_json()["error"]) == (409, "ticket_won")
    rest = post(client, room, "/api/tombola/draw", {"all": True}, "speaker").get_json()
    assert [d["lot"] for d in rest["drawn"]] == [2, 3]
    public = client.get("/api/tombola").get_json()
    assert len(public["winners"]) == 3 and all("buyer" not in w for w in public["winners"])
    code = sale.get_json()["codes"][won - 1]
    handed = post(client, room, "/api/tombola/collect", {"code": code}, "desk").get_json()
    assert (handed["lot"], handed["label"], handed["ticket"]) == (1, "Panier garni", won)  # the lot named for /lots
    assert post(client, room, "/api/tombola/collect", {"code": code}, "desk").get_json()["error"] == "already_collected"


def test_a_sale_without_a_buyer_or_with_a_wrong_amount_is_refused(client, room):
    prepared(client, room)
    no_name = post(client, room, "/api/tombola/sales", {"count": 1, "payment": "especes"}, "desk")
    assert (no_name.status_code, no_name.get_json()["error"]) == (422, "buyer_required")
    wrong = {"count": 2, "buyer": "A", "payment": "especes", "amount_eur": 3}
    assert post(client, room, "/api/tombola/sales", wrong, "desk").get_json()["error"] == "wrong_amount"
    assert post(client, room, "/api/tombola/sales", {**wrong, "amount_eur": "4"}, "desk").status_code == 422
    assert client.get("/api/tombola").get_json()["sold"] == 0


def test_the_reglement_is_generated_as_a_pdf_from_what_was_prepared(room, tmp_path):
    import subprocess

    from hall.app.paper.tombola_pdf import write_reglement_pdf
    from tests.display.conftest import make_app

    app, _ = make_app(room.hall, room.config, documents={"tombola_reglement_pdf": write_reglement_pdf})
    client = app.test_client()
    none = client.get("/api/tombola/reglement.pdf")
    assert (none.status_code, none.get_json()["error"]) == (409, "no_tombola")
    room.hall.prepare_tombola(body(), role="admin")
    res = client.get("/api/tombola/reglement.pdf")
    assert res.status_code == 200 and res.data.startswith(b"%PDF")
    (tmp_path / "r.pdf").write_bytes(res.data)
    text = subprocess.run(["pdftotext", tmp_path / "r.pdf", "-"], capture_output=True, text=True).stdout
    text = " ".join(text.split())
    for said in ("arrêté du maire n° 2026-117 du 2026-11-02", "100 billets numérotés de 1 à 100", "Jambon sec",
                 "jusqu'au 2027-01-31", "remis au tirage de l'an prochain", "15,5 %", "parmi les billets vendus"):  # fmt: skip
        assert said in text, said
