"""Every place that reads a card ID reads the same forms through the one reader (hall/cartons/card_ids.read_card_id):
the controllers' claims (typed, camera: the page sends the text as read), the barcode scanner, the caisse's sales
and the players' linking. The full ID however typed, the short number the door teaches (« D-2 ») and the printed
QR code's URL; a near miss gets the same suggestions everywhere."""

from __future__ import annotations

import pytest

from drivers.scanner import Scan, apply_scan
from hall.cartons.card_ids import make_card_id
from tests.display.conftest import A1, A2, make_room

NEAR_A1 = A1[:-1] + ("Z" if A1[-1] != "Z" else "Y")  # the check character mistyped: one keystroke from A1

TEXTS = [
    (A1, A1),
    (A1.lower().replace("-", ""), A1),  # no dash, lower case
    (" ".join(A1), A1),  # spaces
    (A1.replace("0", "O"), A1),  # O for 0
    ("A-2", A2),  # the short number the door teaches
    ("a-1", A1),
    ("a 2", A2),
    ("http://192.0.2.2:8080/c/" + A1, A1),  # the printed carton's QR code
    ("https://loto.local/c/" + A1.lower() + "?x=1", A1),
    ("LOTO1:" + A1 + ":TEST", A1),  # a label's code
]


@pytest.fixture
def playing(tmp_path):
    r = make_room(tmp_path)
    client = r.app.test_client()
    assert client.post("/api/partie/start", headers=r.headers("speaker")).status_code == 201
    assert client.post("/api/draws", json={"number": 4}, headers=r.headers("speaker")).status_code == 201
    yield r
    r.hall.journal.close()


def linked(room, text, card_id=""):
    """What the players' linking reads (POST /api/players/cards), with the code printed on ``card_id``."""
    item = {"card_id": text, "code": room.hall.card_code(card_id)} if card_id else text
    res = room.app.test_client().post("/api/players/cards", json={"card_ids": [item]})
    assert res.status_code == 200, res.get_json()
    return res.get_json()


@pytest.mark.parametrize(("text", "card_id"), TEXTS, ids=[t for t, _ in TEXTS])
def test_every_entry_point_reads_the_same_carton(playing, text, card_id):
    client = playing.app.test_client()
    claim = client.post("/api/claims", json={"card_id": text}, headers=playing.headers("controller")).get_json()
    assert (claim["card_id"], claim["verdict"]) == (card_id, "incomplete")
    scanned = apply_scan(playing.hall, Scan(text))
    assert scanned is not None and scanned.event.card_id == card_id
    assert [c["card_id"] for c in linked(playing, text, card_id)["cards"]] == [card_id]
    sale = client.post("/api/sales", json={"cards": [text], "amount_eur": 3}, headers=playing.headers("admin"))
    assert sale.status_code == 201, sale.get_json()
    assert sale.get_json()["cards"] == [card_id]


@pytest.mark.parametrize("text", [NEAR_A1, NEAR_A1.lower().replace("-", ""), "http://192.0.2.2:8080/c/" + NEAR_A1])
def test_a_near_miss_gets_the_same_suggestions_everywhere(playing, text):
    client = playing.app.test_client()
    claim = client.post("/api/claims", json={"card_id": text}, headers=playing.headers("controller")).get_json()
    assert (claim["verdict"], claim["suggestions"]) == ("unknown_card", [A1])
    scanned = apply_scan(playing.hall, Scan(text))
    assert scanned is not None and scanned.verdict == "unknown_card" and list(scanned.suggestions) == [A1]
    refused = linked(playing, text)["refused"]
    assert [(r["error"], r["suggestions"]) for r in refused] == [("unknown_card", [A1])]
    sale = client.post("/api/sales", json={"cards": [text], "amount_eur": 3}, headers=playing.headers("admin"))
    assert sale.status_code == 422 and sale.get_json()["suggestions"] == [A1]


@pytest.mark.parametrize("text", ["-1-1", '=HYPERLINK("x")', "http://x/c/", "http://x/c/a/b", "A" * 201])
def test_what_reads_as_no_carton_is_refused_the_same_everywhere(playing, text):
    client = playing.app.test_client()
    claim = client.post("/api/claims", json={"card_id": text}, headers=playing.headers("controller"))
    assert (claim.status_code, claim.get_json()["error"]) == (422, "bad_card_id")
    assert apply_scan(playing.hall, Scan(text)) is None
    assert [r["error"] for r in linked(playing, text)["refused"]] == ["bad_card_id"]


def test_the_short_number_is_a_carton_of_the_book_only(playing):
    """« D-2 » is series D, number 2 of the book; no such carton is unknown (with no suggestion of A cartons)."""
    claim = (
        playing.app.test_client()
        .post("/api/claims", json={"card_id": "D-2"}, headers=playing.headers("controller"))
        .get_json()
    )
    assert (claim["verdict"], claim["card_id"]) == ("unknown_card", make_card_id("D", 2))
