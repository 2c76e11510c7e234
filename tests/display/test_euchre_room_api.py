"""The Bid Euchre room over HTTP: the referee's endpoint (speaker and admin only, every refusal, journalled and
broadcast), the seat's view (its hand as held, trump first), and a whole game with bots through the API."""

from __future__ import annotations

import time

import pytest

from display.services import services_of
from tests.display.conftest import bots_round
from tests.helpers import refused


@pytest.fixture
def client(hall_room):
    return hall_room.app.test_client()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def open_euchre(client, hall_room, options=None, names=("Ana",)) -> tuple[str, list[dict]]:
    res = client.post(
        "/api/games/rooms",
        json={"game": "euchre", "options": options or {"hands": 1}},
        headers=hall_room.headers("speaker"),
    )
    assert res.status_code == 201, res.get_json()
    code = res.get_json()["code"]
    seats = [client.post(f"/api/games/rooms/{code}/join", json={"name": n}).get_json() for n in names]
    return code, seats


def settle(client) -> None:
    """Wait until the bot task has nothing due now (it plays at once with bot_delay_s 0)."""
    hub = services_of(client.application).rooms
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        due = [(c, at) for c, at in hub.lobby.due(hub.clock()) if at <= hub.clock()]
        rooms = [hub.lobby.room(c) for c, _ in due]  # one snapshot each: the bots' task plays meanwhile
        seats_bots = all(r.to_move and r.seats[r.to_move[0]].bot for r in rooms)
        if not due or not seats_bots:
            return
        bots_round(client.application)
    raise AssertionError("the bots never settled")


def test_the_referee_endpoint_is_for_the_speaker_and_the_admin(client, hall_room):
    code, _ = open_euchre(client, hall_room)
    url = f"/api/games/rooms/{code}/official"
    refused(client.get(url), 401, "unauthorized")
    refused(client.post(url, json={"move": ["time"], "version": 1}), 401, "unauthorized")
    for role in ("desk", "controller"):
        refused(client.get(url, headers=hall_room.headers(role)), 403, "forbidden")
        refused(
            client.post(url, json={"move": ["time"], "version": 1}, headers=hall_room.headers(role)), 403, "forbidden"
        )
    assert client.get(url, headers=hall_room.headers("admin")).status_code == 200


def test_refusals_change_nothing(client, hall_room):
    speaker = hall_room.headers("speaker")
    code, (ana,) = open_euchre(client, hall_room)
    url = f"/api/games/rooms/{code}/official"
    assert client.get(url, headers=speaker).get_json()["officials"] == []  # nothing before the start
    refused(client.post(url, json={"move": ["time"], "version": 0}, headers=speaker), 409, "not_started")
    lobo = client.post("/api/games/rooms", json={"game": "lobo77"}, headers=speaker).get_json()["code"]
    refused(client.get(f"/api/games/rooms/{lobo}/official", headers=speaker), 422, "no_officials")
    refused(
        client.post(f"/api/games/rooms/{lobo}/official", json={"move": ["time"], "version": 0}, headers=speaker),
        422,
        "no_officials",
    )
    refused(client.get("/api/games/rooms/ZZZZ/official", headers=speaker), 404, "unknown_room")
    client.post(f"/api/games/rooms/{code}/start", headers=speaker)
    settle(client)
    room = client.get(f"/api/games/rooms/{code}").get_json()
    version = room["version"]
    refused(client.post(url, json={"move": ["time"], "version": version - 1}, headers=speaker), 409, "stale_version")
    refused(client.post(url, json={"move": ["time"]}, headers=speaker), 422, "bad_version")
    refused(client.post(url, json={"version": version}, headers=speaker), 422, "illegal_official")
    for bad in (["renege", 9], ["penalty", 0, "rudeness"], ["play", "AS"], "time", None, {"a": 1}, ["time", 1]):
        refused(client.post(url, json={"move": bad, "version": version}, headers=speaker), 422, "illegal_official")
    refused(client.post(url, data="[1]", content_type="application/json", headers=speaker), 400, "bad_json")
    refused(client.post(url, data="x" * 20_000, content_type="application/json", headers=speaker), 413, "too_large")
    # a seat token cannot apply an official action through the moves, nor through this endpoint
    refused(
        client.post(url, json={"move": ["time"], "version": version}, headers=bearer(ana["token"])), 401, "bad_token"
    )
    assert client.get(f"/api/games/rooms/{code}").get_json() == room
    client.post(f"/api/games/rooms/{code}/close", headers=speaker)
    refused(client.post(url, json={"move": ["time"], "version": version}, headers=speaker), 409, "room_closed")


def test_an_official_action_is_listed_labelled_applied_and_seen(client, hall_room):
    speaker = hall_room.headers("speaker")
    code, (ana,) = open_euchre(client, hall_room, {"hands": 2})
    client.post(f"/api/games/rooms/{code}/start", headers=speaker)
    settle(client)
    url = f"/api/games/rooms/{code}/official"
    listed = client.get(url, headers=speaker).get_json()
    moves = [o["move"] for o in listed["officials"]]
    assert ["penalty", 1, "hesitation"] in moves and ["time"] in moves
    labels = {tuple(map(str, o["move"])): o["label"] for o in listed["officials"]}
    assert labels[("penalty", "1", "hesitation")] == "Pénalité −5 pour Robot Alix et Robot Colette (hésitation)"
    english = client.get(url + "?lang=en", headers=speaker).get_json()["officials"]
    assert any(o["label"].startswith("Penalty −5 for") for o in english)
    res = client.post(url, json={"move": ["penalty", 1, "hesitation"], "version": listed["version"]}, headers=speaker)
    assert res.status_code == 200, res.get_json()
    assert res.get_json()["version"] == listed["version"] + 1
    room = client.get(f"/api/games/rooms/{code}").get_json()
    assert room["view"]["scores"][1] == -5 and room["last_by"] == "official"
    assert room["view"]["penalties"] == [[1, -5, "hesitation"]]


def test_a_whole_game_with_bots_through_the_api_and_the_hand_as_held(client, hall_room):
    speaker = hall_room.headers("speaker")
    code, (ana,) = open_euchre(client, hall_room, {"hands": 2, "all_pass": "redeal"})
    client.post(f"/api/games/rooms/{code}/start", headers=speaker)
    played, trump_seen = 0, False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        settle(client)
        room = client.get(f"/api/games/rooms/{code}").get_json()
        if room["status"] == "over":
            break
        view = client.get(f"/api/games/rooms/{code}/seat", headers=bearer(ana["token"])).get_json()
        denom = (view["contract"] or {}).get("denom")
        if denom in ("S", "H", "D", "C") and denom in view["my_suits"]:
            trump_seen = True
            first_other = next((i for i, s in enumerate(view["my_suits"]) if s != denom), len(view["my_suits"]))
            assert set(view["my_suits"][:first_other]) == {denom}  # trump first
            assert denom not in view["my_suits"][first_other:]
        if not view["legal"]:
            continue
        move = view["legal"][-1] if view["phase"] == "bid" else view["legal"][0]
        res = client.post(
            f"/api/games/rooms/{code}/moves",
            json={"move": move, "version": view["version"]},
            headers=bearer(ana["token"]),
        )
        assert res.status_code == 200, res.get_json()
        played += 1
    else:
        pytest.fail("the game never ended")
    assert played >= 8 and trump_seen
    room = client.get(f"/api/games/rooms/{code}").get_json()
    assert room["outcome"]["winner_names"] and len(room["view"]["history"]) == 2
    assert client.get(f"/api/games/rooms/{code}/official", headers=speaker).get_json()["officials"] == []
    refused(
        client.post(
            f"/api/games/rooms/{code}/official", json={"move": ["time"], "version": room["version"]}, headers=speaker
        ),
        409,
        "game_over",
    )


def test_the_referee_endpoint_is_in_the_openapi_document(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    ops = paths["/api/games/rooms/{code}/official"]
    assert {"get", "post"} <= set(ops) and {"401", "403", "409", "422"} <= set(ops["post"]["responses"])
