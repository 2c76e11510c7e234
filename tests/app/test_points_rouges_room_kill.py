"""SIGKILL in the middle of a Loto Points Rouges game (two phones, a bot), start again on the same data folder:
the same boards, racks and version; the phones' tokens still open their seats, the game goes on."""

from __future__ import annotations

import pytest

from hall.app.demo import DEMO_PINS

from .conftest import free_port, get_json

pytestmark = pytest.mark.slow  # a served hall killed and restarted: see pytest --durations


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_a_points_rouges_room_survives_sigkill_exactly(run_hall, tmp_path):
    data = tmp_path / "data"
    first = run_hall(["--demo", "--data-dir", str(data)], port=free_port())
    first.wait_answering()
    url = first.url
    status, login = get_json(url + "/api/login", data={"pin": DEMO_PINS["speaker_pin"]})
    assert status == 200, login
    speaker = bearer(login["token"])
    status, room = get_json(
        url + "/api/games/rooms", headers=speaker, data={"game": "points-rouges", "options": {"players": 2}}
    )
    assert status == 201, room
    code = room["code"]
    tokens = [get_json(f"{url}/api/games/rooms/{code}/join", data={"name": n})[1]["token"] for n in ("Ana", "Bea")]
    assert get_json(f"{url}/api/games/rooms/{code}/start", headers=speaker, data={})[0] == 200
    for _ in range(6):  # two people, no bot: every move is ours
        _, public = get_json(f"{url}/api/games/rooms/{code}")
        if public["status"] != "playing":
            break
        token = tokens[public["to_move"][0]]
        _, seat = get_json(f"{url}/api/games/rooms/{code}/seat", headers=bearer(token))
        status, body = get_json(
            f"{url}/api/games/rooms/{code}/moves",
            headers=bearer(token),
            data={"move": seat["legal"][0], "version": seat["version"]},
        )
        assert status == 200, body
    _, before = get_json(f"{url}/api/games/rooms/{code}")
    seats_before = [get_json(f"{url}/api/games/rooms/{code}/seat", headers=bearer(t))[1] for t in tokens]
    assert before["status"] == "playing" and before["view"]["boards"]

    first.kill_all()
    second = run_hall(["--demo", "--data-dir", str(data)], port=free_port())
    second.wait_answering()
    _, after = get_json(f"{second.url}/api/games/rooms/{code}")
    after.pop("join_url"), before.pop("join_url")
    assert after == before
    assert [get_json(f"{second.url}/api/games/rooms/{code}/seat", headers=bearer(t))[1] for t in tokens] == seats_before
    mover = after["to_move"][0]
    seat = seats_before[mover]
    status, body = get_json(
        f"{second.url}/api/games/rooms/{code}/moves",
        headers=bearer(tokens[mover]),
        data={"move": seat["legal"][0], "version": seat["version"]},
    )
    assert status == 200 and body["version"] > after["version"]
