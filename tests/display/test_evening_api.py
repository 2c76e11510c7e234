"""The claim, the desk and the tie through the API as a hall lives them (issue 15): lenient IDs, suggestions."""
from __future__ import annotations

from tests.display.conftest import A1, A2, A3, TIE_DRAWS, play_to_tie


def start_and_draw(room, numbers):
    room.hall.start_partie(role="speaker")
    for n in numbers:
        room.hall.draw(n, role="speaker")


def test_a_carton_typed_without_dash_in_lower_case_is_checked(room, client):
    start_and_draw(room, TIE_DRAWS)
    typed = A1.replace("-", "").lower().replace("0", "o")
    r = client.post("/api/claims", json={"card_id": typed}, headers=room.headers("controller"))
    assert r.status_code == 200
    assert r.get_json()["verdict"] == "valid" and r.get_json()["card_id"] == A1


def test_a_near_miss_carries_the_cartons_one_character_away(room, client):
    start_and_draw(room, TIE_DRAWS)
    slip = A3[:-1] + ("Z" if A3[-1] != "Z" else "Y")
    r = client.post("/api/claims", json={"card_id": slip}, headers=room.headers("controller"))
    body = r.get_json()
    assert body["verdict"] == "unknown_card" and body["suggestions"] == [A3]
    far = client.post("/api/claims", json={"card_id": "Q-99999Z"}, headers=room.headers("controller")).get_json()
    assert far["verdict"] == "unknown_card" and far["suggestions"] == []
    assert room.hall.evening.partie.paused is False or room.hall.evening.partie.pending == {}


def test_a_voucher_typed_loosely_is_redeemed_and_a_slip_is_suggested(room, client):
    play_to_tie(room)
    codes = room.hall.award(role="speaker")["vouchers"]
    slip = codes[0][:-1] + ("A" if codes[0][-1] != "A" else "B")
    r = client.post(f"/api/vouchers/{slip}/redeem", headers=room.headers("desk"))
    assert r.status_code == 404 and r.get_json()["suggestions"] == [codes[0]]
    assert not room.hall.evening.vouchers[codes[0]].redeemed          # a refusal changes nothing
    loose = codes[0].replace("-", " ").lower()
    r = client.post(f"/api/vouchers/{loose}/redeem", headers=room.headers("desk"))
    assert r.status_code == 200 and r.get_json()["code"] == codes[0]
