"""SIGKILL in the middle of a mini-game, start again on the same data folder: the same room at the same version.

Every join and move (dice included) is in ``games.sqlite`` before anyone sees it; the restarted program replays
the records and the phones' tokens still open their seats.
"""

from __future__ import annotations

import pytest

from hall.app.demo import DEMO_PINS

from .conftest import free_port, get_json

pytestmark = pytest.mark.slow  # a served hall killed and restarted: see pytest --durations


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_a_room_survives_sigkill_exactly(run_hall, tmp_path):
    data = tmp_path / "data"
    port = free_port()
    first = run_hall(["--demo", "--data-dir", str(data)], port=port)
    first.wait_answering()
    url = first.url
    status, login = get_json(url + "/api/login", data={"pin": DEMO_PINS["speaker_pin"]})
    assert status == 200, login
    speaker = bearer(login["token"])
    status, room = get_json(url + "/api/games/rooms", headers=speaker, data={"game": "linotte"})
    assert status == 201, room
    code = room["code"]
    tokens = [get_json(f"{url}/api/games/rooms/{code}/join", data={"name": n})[1]["token"] for n in ("Ana", "Bea")]
    assert get_json(f"{url}/api/games/rooms/{code}/start", headers=speaker, data={})[0] == 200
    for _ in range(8):  # two people, no bot: every move is ours
        _, public = get_json(f"{url}/api/games/rooms/{code}")
        token = tokens[public["to_move"][0]]
        _, seat = get_json(f"{url}/api/games/rooms/{code}/seat", headers=bearer(token))
        status, body = get_json(
            f"{url}/api/games/rooms/{code}/moves",
            headers=bearer(token),
            data={"move": seat["legal"][-1], "version": seat["version"]},
        )
        assert status == 200, body
    assert get_json(url + "/api/screen", headers=speaker, data={"show": "game", "code": code})[0] == 200
    _, before = get_json(f"{url}/api/games/rooms/{code}")
    seats_before = [get_json(f"{url}/api/games/rooms/{code}/seat", headers=bearer(t))[1] for t in tokens]
    assert before["version"] >= 9

    first.kill_all()
    second = run_hall(["--demo", "--data-dir", str(data)], port=free_port())
    second.wait_answering()
    _, after = get_json(f"{second.url}/api/games/rooms/{code}")
    after.pop("join_url"), before.pop("join_url")
    assert after == before
    assert [get_json(f"{second.url}/api/games/rooms/{code}/seat", headers=bearer(t))[1] for t in tokens] == seats_before
    assert get_json(second.url + "/api/screen")[1] == {"show": "game", "code": code}
    token = tokens[after["to_move"][0]]
    seat = seats_before[after["to_move"][0]]
    status, body = get_json(
        f"{second.url}/api/games/rooms/{code}/moves",
        headers=bearer(token),
        data={"move": seat["legal"][0], "version": seat["version"]},
    )
    assert status == 200 and body["version"] > after["version"]
