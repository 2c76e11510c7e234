"""Seats at a table against squatting (issue 22, item 6): the speaker frees a seat before the start (journalled,
kept by a restart, the phones told at once over their sockets), one address holds a bounded number of seats per
room, and the public room list shows what the projector shows and nothing more."""

from __future__ import annotations

import json

import pytest

from display.services import services_of
from hall.app.runtime import open_rooms
from hall.minigames.lobby import LobbySettings
from hall.refusal import Rejected
from tests.display.conftest import GAMES, LiveServer, make_room
from tests.display.test_rooms_api import Watcher, bearer, open_room
from tests.helpers import refused


def phone(client, address: str):
    """The client as one phone of the hall's Wi-Fi: every request from ``address``."""
    client.environ_base["REMOTE_ADDR"] = address
    return client


def join_from(room, code: str, name: str, address: str) -> dict:
    res = phone(room.app.test_client(), address).post(f"/api/games/rooms/{code}/join", json={"name": name})
    assert res.status_code == 201, res.get_json()
    return res.get_json()


@pytest.fixture
def bounded(tmp_path):
    """A hall with the default bound of seats per address (2)."""
    r = make_room(tmp_path, extra={**GAMES, "games": {"bot_delay_s": 0, "takeover_s": 600}})
    yield r
    services_of(r.app).rooms.stop()
    r.hall.journal.close()


def test_the_speaker_frees_a_seat_before_the_start_and_a_restart_keeps_it(bounded, tmp_path):
    r, c = bounded, bounded.app.test_client()
    code = open_room(c, r, "lobo77", {"players": 4})
    ana, bob, cid = (join_from(r, code, n, f"10.0.0.{i}") for i, n in enumerate(("Ana", "Bob", "Cid"), 1))
    path = f"/api/games/rooms/{code}/remove"
    refused(c.post(path, json={"seat": 1}), 401, "unauthorized")
    refused(c.post(path, json={"seat": 1}, headers=bearer(ana["token"])), 401, "bad_token")
    refused(c.post(path, json={"seat": 1}, headers=r.headers("desk")), 403, "forbidden")
    speaker = r.headers("speaker")
    refused(c.post(path, json={"seat": 3}, headers=speaker), 422, "unknown_seat")
    refused(c.post(path, json={"seat": "1"}, headers=speaker), 422, "unknown_seat")
    refused(c.post(path, json={"seat": 1, "name": "Cid"}, headers=speaker), 409, "seat_changed")
    res = c.post(path, json={"seat": 1, "name": "Bob"}, headers=speaker)
    assert res.status_code == 200 and [s["name"] for s in res.get_json()["seats"]] == ["Ana", "Cid"]
    refused(c.get(f"/api/games/rooms/{code}/seat", headers=bearer(bob["token"])), 401, "bad_token")
    assert c.get(f"/api/games/rooms/{code}/seat", headers=bearer(cid["token"])).get_json()["seat"] == 1
    again, store = open_rooms(tmp_path, LobbySettings())  # what a restart replays from games.sqlite
    try:
        assert [s.name for s in again.room(code).seats] == ["Ana", "Cid"]
        assert again.seat_view(code, cid["token"])["seat"] == 1
        with pytest.raises(Rejected, match="bad_token"):
            again.seat_view(code, bob["token"])
    finally:
        store.close()
    assert c.post(f"/api/games/rooms/{code}/start", headers=speaker).status_code == 200
    refused(c.post(path, json={"seat": 0}, headers=speaker), 409, "already_started")  # lobby only
    c.post(f"/api/games/rooms/{code}/close", headers=speaker)
    refused(c.post(path, json={"seat": 0}, headers=speaker), 409, "room_closed")


def test_one_address_holds_a_bounded_number_of_seats_per_room(bounded, tmp_path):
    r, c = bounded, bounded.app.test_client()
    code = open_room(c, r, "lobo77", {"players": 8})
    for name in ("Ana", "Bob"):
        join_from(r, code, name, "10.0.0.7")
    squat = phone(r.app.test_client(), "10.0.0.7")
    refused(squat.post(f"/api/games/rooms/{code}/join", json={"name": "Cid"}), 409, "too_many_seats")
    fr = squat.post(f"/api/games/rooms/{code}/join", json={"name": "Cid"}).get_json()["message"]
    en = squat.post(f"/api/games/rooms/{code}/join?lang=en", json={"name": "Cid"}).get_json()["message"]
    assert "2" in fr and "téléphone" in fr and "phone" in en and en != fr
    join_from(r, code, "Dan", "10.0.0.8")  # another phone sits down
    other = open_room(c, r, "lobo77", {"players": 8})
    join_from(r, other, "Eve", "10.0.0.7")  # the bound is per room
    room = c.get(f"/api/games/rooms/{code}").get_json()
    assert [s["name"] for s in room["seats"]] == ["Ana", "Bob", "Dan"]
    assert "10.0.0.7" not in json.dumps(room)
    again, store = open_rooms(tmp_path, LobbySettings())  # the count survives a restart
    try:
        with pytest.raises(Rejected) as caught:
            again.join(code, "Cid", "10.0.0.7")
        assert caught.value.code == "too_many_seats"
    finally:
        store.close()
    assert b"10.0.0.7" not in (tmp_path / "games.sqlite").read_bytes()
    c.post(f"/api/games/rooms/{code}/remove", json={"seat": 0}, headers=r.headers("speaker"))
    join_from(r, code, "Cid", "10.0.0.7")  # a freed seat is free again


def test_the_public_room_list_is_what_the_projector_shows(bounded):
    r, c = bounded, bounded.app.test_client()
    speaker = r.headers("speaker")
    shown, hidden = open_room(c, r, "lobo77"), open_room(c, r, "linotte")
    ana = join_from(r, shown, "Ana", "10.0.0.1")
    join_from(r, hidden, "Zoé", "10.0.0.2")
    assert c.get("/api/games/rooms").get_json() == []  # the loto is on screen: no room at all
    assert {x["code"] for x in c.get("/api/games/rooms", headers=speaker).get_json()} == {shown, hidden}
    c.post("/api/screen", json={"show": "game", "code": shown}, headers=speaker)
    for headers in ({}, bearer(ana["token"])):  # a phone's seat token changes nothing
        listed = c.get("/api/games/rooms", headers=headers).get_json()
        assert [x["code"] for x in listed] == [shown]
        assert listed[0]["seats"] == [{"seat": 0, "name": "Ana", "bot": False}]
        assert "Zoé" not in json.dumps(listed) and hidden not in json.dumps(listed)
    projector = c.get(f"/api/games/rooms/{shown}").get_json()  # what the projector draws
    assert {s["name"] for s in listed[0]["seats"]} <= {s["name"] for s in projector["seats"]}
    c.post("/api/screen", json={"show": "loto"}, headers=speaker)
    assert c.get("/api/games/rooms").get_json() == []


def test_phones_are_told_at_once_over_their_sockets(tmp_path):
    r = make_room(tmp_path, extra=GAMES)
    server = LiveServer(r.app)
    c = r.app.test_client()
    code = open_room(c, r, "lobo77", {"players": 4})
    ana, bob, cid = (join_from(r, code, n, "127.0.0.1") for n in ("Ana", "Bob", "Cid"))
    watchers = {name: Watcher(server.url, code, who["token"]) for name, who in (("bob", bob), ("cid", cid))}
    for name, seat in (("bob", 1), ("cid", 2)):
        watchers[name].until(lambda e, seat=seat: e.get("seat_view", {}).get("seat") == seat)
    c.post(f"/api/games/rooms/{code}/remove", json={"seat": 1, "name": "Bob"}, headers=r.headers("speaker"))
    told = watchers["bob"].until(lambda e: "error" in e)["error"]
    assert told["error"] == "seat_removed" and told["message"]
    moved = watchers["cid"].until(lambda e: [s["name"] for s in e["room"]["seats"]] == ["Ana", "Cid"])
    assert moved["seat_view"]["seat"] == 1 and moved["seat_view"]["name"] == "Cid"
    follows = watchers["bob"].until(lambda e: "room" in e)  # the freed phone follows as audience
    assert "seat_view" not in follows and [s["name"] for s in follows["room"]["seats"]] == ["Ana", "Cid"]
    assert services_of(r.app).rooms.lobby.room(code).public["audience"] == 1
    for w in watchers.values():
        w.close()
    server.stop()
    services_of(r.app).rooms.stop()
    r.hall.journal.close()


@pytest.mark.parametrize(
    "twin",
    # the same, its case, no accent, a space, a Cyrillic е or Е, a full-width Ｌ, a combining accent
    ["Léa", "LÉA", "lea", "Le a", "L\u0435a", "L\u0415A", "Ｌéa", "Le\u0301a"],
)
def test_two_seats_of_one_table_never_bear_the_same_name_nor_one_that_looks_like_it(bounded, twin):
    r, c = bounded, bounded.app.test_client()
    code = open_room(c, r, "lobo77", {"players": 4})
    join_from(r, code, "Léa", "10.0.0.1")
    res = phone(r.app.test_client(), "10.0.0.2").post(f"/api/games/rooms/{code}/join", json={"name": twin})
    refused(res, 409, "name_taken")
    seats = c.get(f"/api/games/rooms/{code}").get_json()["seats"]
    assert [s["name"] for s in seats] == ["Léa"]  # nothing taken
    join_from(r, code, "Léo", "10.0.0.2")  # a name of its own still sits
    join_from(r, code, "Lea B", "10.0.0.3")
