"""« Mes cartons » told by the hall (issue 39, display/cartons.py): a phone follows its cartons with the keys it
was handed for their printed codes, and gets each one's standing — the claim check's own verdict — over its socket,
once per change; nobody else's; a relay asks the core for a key it has not heard of."""

from __future__ import annotations

import pytest

from display.carton_keys import KEYS_PER_SOCKET
from display.services import services_of
from tests.display.conftest import A1, A2, A3, TIE_DRAWS
from tests.display.test_sockets import close, connect, receive


def linked(room, client, *card_ids) -> dict[str, str]:
    """Each carton linked as a phone links it (its printed code): its follow key."""
    asked = [{"card_id": c, "code": room.hall.card_code(c)} for c in card_ids]
    res = client.post("/api/players/cards", json={"card_ids": asked})
    assert res.status_code == 200
    return {c["card_id"]: c["follow"] for c in res.get_json()["cards"]}


def until(phone, name: str) -> dict:
    """The next ``name`` event, the journal's events passed over."""
    while True:
        got, data = receive(phone)
        if got == name:
            return data


def test_the_follow_key_is_handed_only_for_the_printed_code(room, client):
    keys = linked(room, client, A1, A2)
    assert set(keys) == {A1, A2} and keys[A1].startswith(A1 + ".") and keys[A1] != keys[A2]
    res = client.post("/api/players/cards", json={"card_ids": [{"card_id": A3, "code": "AAAAA"}]}).get_json()
    assert res["cards"] == [] and res["refused"][0]["error"] == "bad_card_code"


def test_a_phone_is_told_its_cartons_standing_on_every_change_and_never_anothers(live):
    h = live.hall
    client = live.app.test_client()
    keys = linked(live, client, A1, A3)
    phone, other = connect(live), connect(live)
    try:
        receive(phone, "state")
        receive(other, "state")
        phone.emit("follow", {"keys": [keys[A1], keys[A3], A2 + ".forgedkeyforgedkeyforged"]})
        told = until(phone, "cartons")
        assert [c["card_id"] for c in told["items"]] == [A1, A3] and told["unknown"] == [
            A2 + ".forgedkeyforgedkeyforged"
        ]
        assert {c["verdict"] for c in told["items"]} == {"closed"}
        other.emit("follow", {"keys": [keys[A3]]})
        assert [c["card_id"] for c in until(other, "cartons")["items"]] == [A3]
        h.start_partie(role="speaker")
        for n in TIE_DRAWS:
            h.draw(n, role="speaker")
        seen: dict[str, dict] = {}
        while A1 not in seen or seen[A1]["at"] < h.snapshot().seq:
            c = until(phone, "carton")
            if c["at"] >= seen.get(c["card_id"], {"at": -1})["at"]:
                seen[c["card_id"]] = c
        a1 = seen[A1]
        assert (a1["verdict"], a1["rows"], a1["to_go"], a1["lot"]) == ("valid", [0], [], 0)
        check = h.check_claim(A1, role="controller").event
        assert (check.verdict, list(check.rows)) == (a1["verdict"], a1["rows"])
        h.award(role="speaker")  # A1's quine (and A2's, by the tie: A2 was never checked)
        c = until(phone, "carton")
        while c["card_id"] != A1:
            c = until(phone, "carton")
        assert (c["lot"], c["paid"]) == (1, {"quine": [0]})  # the double quine is open, the quine's row paid
        # the other phone follows A3 only: it never heard of A1
        events = []
        while True:
            try:
                events.append(receive(other, timeout=0.5))
            except Exception:  # nothing more within the wait
                break
        assert all(d.get("card_id") != A1 for name, d in events if name in ("carton", "cartons"))
    finally:
        close(phone)
        close(other)


def test_a_socket_names_a_bounded_list_of_keys(live):
    client = live.app.test_client()
    keys = linked(live, client, A1)
    phone = connect(live)
    try:
        receive(phone, "state")
        phone.emit("follow", {"keys": [keys[A1]] * (KEYS_PER_SOCKET + 1)})  # too many: nothing at all
        phone.emit("follow", {"keys": "A-1"})  # no list
        phone.emit("follow", {"keys": [keys[A1]]})
        told = until(phone, "cartons")
        assert [c["card_id"] for c in told["items"]] == [A1]
    finally:
        close(phone)


def test_a_relay_asks_the_core_for_the_keys_it_has_not_heard_of(room, client):
    keys = linked(room, client, A1, A2)
    room.hall.start_partie(role="speaker")
    for n in TIE_DRAWS[:-1]:
        room.hall.draw(n, role="speaker")
    assert services_of(room.app).sockets.broadcaster.wait_idle()  # the standings are read in the records' order
    res = client.post("/api/players/follow", json={"keys": [keys[A1], keys[A2], "X.y"]})
    body = res.get_json()
    assert res.status_code == 200 and body["at"] == room.hall.snapshot().seq and body["unknown"] == ["X.y"]
    by = {i["key"]: i["carton"] for i in body["items"]}
    assert by[keys[A1]]["to_go"] == [80] and by[keys[A1]]["verdict"] == "incomplete"
    assert client.post("/api/players/follow", json={"keys": "x"}).status_code == 422
    assert client.post("/api/players/follow", json={"keys": ["k"] * 501}).status_code == 422


@pytest.mark.parametrize("asks", [25])
def test_a_relays_asks_are_bounded_per_address(room, client, asks):
    services_of(room.app).player_budgets["follows"]._rate = 0.001  # the bucket refills no more in this test
    codes = [client.post("/api/players/follow", json={"keys": []}).status_code for _ in range(asks)]
    assert codes.count(200) == 20 and codes[-1] == 429
