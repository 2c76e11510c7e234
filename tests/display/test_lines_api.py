"""Lots as lines on the wire (INTERFACE §4's extension, RULES L20–L21): ``POST /api/programme`` and
``POST /api/partie/start`` take a quine's ``row`` and a carton plein's ``within`` + ``fallback``, refuse bad ones
(422, nothing journalled), and the state, the events and the verdicts carry them back with each lot's ``lines``."""

from __future__ import annotations

import pytest

from display import views
from tests.display.conftest import A1, A2

MAXI = {
    "kind": "carton_plein",
    "label": "Téléviseur",
    "value_eur": 399,
    "within": 18,
    "fallback": {"label": "Jambon", "value_eur": 35, "sponsor": "Boucherie Roux"},
}
MIDDLE = {"kind": "quine", "label": "Quine du milieu", "row": 2}
FULL_A1 = [4, 13, 37, 52, 80, 9, 21, 45, 66, 84, 18, 29, 58, 74, 90]


@pytest.mark.parametrize(
    "lot, code",
    [
        ({"kind": "quine", "label": "Q", "row": 4}, "bad_lot_row"),
        ({"kind": "quine", "label": "Q", "row": "2"}, "bad_lot_row"),
        ({"kind": "double_quine", "label": "DQ", "row": 1}, "bad_lot_row"),
        ({**MAXI, "within": 91}, "bad_lot_within"),
        ({**MAXI, "within": 14}, "bad_lot_within"),
        ({**MAXI, "fallback": None}, "bad_lot_within"),
        ({**MAXI, "fallback": {"label": "J" * 201}}, "bad_lot_within"),
        ({"kind": "quine", "label": "Q", "within": 45, "fallback": {"label": "Jambon"}}, "bad_lot_within"),
    ],
)
def test_bad_terms_are_refused_at_both_doors_and_nothing_is_journalled(room, client, lot, code):
    seq = room.hall.journal.last_seq
    start = client.post("/api/partie/start", json={"lots": [lot]}, headers=room.headers("speaker"))
    assert start.status_code == 422 and start.get_json()["error"] == code and "lot 1" in start.get_json()["message"]
    edit = client.post("/api/programme", json={"parties": [{"lots": [lot]}]}, headers=room.headers("admin"))
    assert edit.status_code == 422 and edit.get_json()["error"] == code
    assert "partie 1, lot 1" in edit.get_json()["message"]
    assert room.hall.journal.last_seq == seq


def test_the_programme_keeps_the_terms_and_the_next_partie_shows_them(room, client):
    admin = room.headers("admin")
    r = client.post("/api/programme", json={"parties": [{"lots": [MIDDLE, MAXI]}]}, headers=admin)
    assert r.status_code == 201
    lots = client.get("/api/programme", headers=admin).get_json()["parties"][0]["lots"]
    assert (lots[0]["row"], lots[1]["within"], lots[1]["fallback"]) == (2, 18, {**MAXI["fallback"], "value_eur": 35.0})
    nxt = client.get("/api/state").get_json()["next_partie"]["lots"]
    assert nxt[0]["row"] == 2 and nxt[1]["within"] == 18 and nxt[1]["fallback"]["label"] == "Jambon"
    assert "row" not in client.get("/api/programme", headers=admin).get_json()["parties"][0]["lots"][1]


def test_a_maxi_bingo_on_the_wire_jackpot_count_verdict_and_award(room, client):
    sp, ctl = room.headers("speaker"), room.headers("controller")
    assert client.post("/api/partie/start", json={"lots": [MAXI]}, headers=sp).status_code == 201
    lot = client.get("/api/state").get_json()["partie"]["lots"][0]
    assert (lot["within"], lot["fallback"]["label"], lot["lines"]) == (18, "Jambon", {"need": 3, "among": [0, 1, 2]})
    for n in [1, 2, 3, 5] + FULL_A1:  # 90 is ball 19
        assert client.post("/api/draws", json={"number": n}, headers=sp).status_code == 201
    v = client.post("/api/claims", json={"card_id": A1}, headers=ctl).get_json()
    assert (v["verdict"], v["ball"], v["prize"], v["lot"]["within"]) == ("valid", 19, "fallback", 18)
    award = client.post("/api/lots/award", json={}, headers=sp).get_json()
    assert award["ball"] == 19
    state = client.get("/api/state").get_json()["partie"]["lots"][0]
    assert (state["status"], state["prize"], state["rows"]) == ("awarded", "fallback", [[0, 1, 2]])


def test_a_named_row_on_the_wire_and_in_the_socket_events(room, client):
    sp, ctl = room.headers("speaker"), room.headers("controller")
    client.post("/api/partie/start", json={"lots": [MIDDLE, {"kind": "double_quine", "label": "Jambon"}]}, headers=sp)
    for n in [4, 13, 37, 52, 80]:
        client.post("/api/draws", json={"number": n}, headers=sp)
    v = client.post("/api/claims", json={"card_id": A1}, headers=ctl).get_json()
    assert (v["verdict"], v["reason"], v["lot"]["row"], v["missing"]) == (
        "incomplete",
        "not_named_row",
        2,
        [9, 21, 45, 66, 84],
    )
    for n in [9, 21, 45, 66, 84]:
        client.post("/api/draws", json={"number": n}, headers=sp)
    client.post("/api/claims", json={"card_id": A1}, headers=ctl)
    client.post("/api/claims", json={"card_id": A2}, headers=ctl)
    client.post("/api/lots/award", json={"share": True}, headers=sp)
    snap = room.hall.snapshot()
    got = dict(views.event(record, snap, views.PUBLIC) for record in room.hall.records())  # the public room's events
    assert got["partie"]["lots"][0]["row"] == 2 and got["partie"]["lots"][0]["lines"] == {"need": 1, "among": [1]}
    assert got["award"]["rows"] == [[1], [1]] and got["award"]["lot"]["row"] == 2
    assert got["verdict"]["lot"]["row"] == 2
    state = views.public_state(room.hall.snapshot())
    assert state["partie"]["lots"][0]["rows"] == [[1], [1]] and state["partie"]["lots"][1]["lines"]["need"] == 2
