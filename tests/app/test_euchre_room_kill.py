"""SIGKILL in the middle of a Bid Euchre table whose journal holds the referee's actions: started again on the same
data folder, the same room at the same version, the same hands, the same scores (the penalty and the redeal too).
"""

from __future__ import annotations

import pytest

from hall.app.demo import DEMO_PINS

from .conftest import free_port, get_json

pytestmark = pytest.mark.slow  # a served hall killed and restarted: see pytest --durations


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play_ours(url: str, code: str, tokens: list[str], count: int) -> None:
    """Four people, no bot: every move is ours (the first legal one)."""
    for _ in range(count):
        _, public = get_json(f"{url}/api/games/rooms/{code}")
        token = tokens[public["to_move"][0]]
        _, seat = get_json(f"{url}/api/games/rooms/{code}/seat", headers=bearer(token))
        status, body = get_json(
            f"{url}/api/games/rooms/{code}/moves",
            headers=bearer(token),
            data={"move": seat["legal"][0], "version": seat["version"]},
        )
        assert status == 200, body


def official(url: str, speaker: dict, code: str, move: list) -> dict:
    _, listed = get_json(f"{url}/api/games/rooms/{code}/official", headers=speaker)
    assert move in [o["move"] for o in listed["officials"]], listed
    status, body = get_json(
        f"{url}/api/games/rooms/{code}/official", headers=speaker, data={"move": move, "version": listed["version"]}
    )
    assert status == 200, body
    return body


def test_a_euchre_room_with_referee_actions_survives_sigkill_exactly(run_hall, tmp_path):
    data = tmp_path / "data"
    first = run_hall(["--demo", "--data-dir", str(data)], port=free_port())
    first.wait_answering()
    url = first.url
    status, login = get_json(url + "/api/login", data={"pin": DEMO_PINS["speaker_pin"]})
    assert status == 200, login
    speaker = bearer(login["token"])
    status, room = get_json(url + "/api/games/rooms", headers=speaker, data={"game": "euchre", "options": {"hands": 2}})
    assert status == 201, room
    code = room["code"]
    tokens = [
        get_json(f"{url}/api/games/rooms/{code}/join", data={"name": n})[1]["token"]
        for n in ("Ana", "Bea", "Cid", "Dan")
    ]
    assert get_json(f"{url}/api/games/rooms/{code}/start", headers=speaker, data={})[0] == 200
    play_ours(url, code, tokens, 2)
    official(url, speaker, code, ["penalty", 1, "hesitation"])
    official(url, speaker, code, ["redeal", "exposed_card"])  # a new deal, journalled with the action
    play_ours(url, code, tokens, 6)  # the auction, then into the play
    official(url, speaker, code, ["penalty", 0, "out_of_turn"])
    _, before = get_json(f"{url}/api/games/rooms/{code}")
    seats_before = [get_json(f"{url}/api/games/rooms/{code}/seat", headers=bearer(t))[1] for t in tokens]
    _, officials_before = get_json(f"{url}/api/games/rooms/{code}/official", headers=speaker)
    assert before["view"]["scores"] == [-5, -5] and before["last_by"] == "official"

    first.kill_all()
    second = run_hall(["--demo", "--data-dir", str(data)], port=free_port())
    second.wait_answering()
    url = second.url
    _, after = get_json(f"{url}/api/games/rooms/{code}")
    after.pop("join_url"), before.pop("join_url")
    assert after == before
    assert [get_json(f"{url}/api/games/rooms/{code}/seat", headers=bearer(t))[1] for t in tokens] == seats_before
    _, login = get_json(url + "/api/login", data={"pin": DEMO_PINS["speaker_pin"]})
    speaker = bearer(login["token"])
    assert get_json(f"{url}/api/games/rooms/{code}/official", headers=speaker)[1] == officials_before
    body = official(url, speaker, code, ["time"])  # the table goes on after the restart
    assert body["version"] == after["version"] + 1
