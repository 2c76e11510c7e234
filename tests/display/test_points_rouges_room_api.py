"""The Loto Points Rouges room over HTTP: the solitaire hint's refusals and answers, and a whole 2-player game
with a bot played through the API (the bot task runs for real)."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest

from display.rooms import points_rouges as rooms_points_rouges
from tests.display.conftest import bots_round
from tests.helpers import refused


@pytest.fixture
def client(hall_room):
    return hall_room.app.test_client()


def open_room(client, hall_room, players: int) -> str:
    res = client.post(
        "/api/games/rooms",
        json={"game": "points-rouges", "options": {"players": players}},
        headers=hall_room.headers("speaker"),
    )
    assert res.status_code == 201, res.get_json()
    return res.get_json()["code"]


def join(client, code: str, name: str) -> str:
    res = client.post(f"/api/games/rooms/{code}/join", json={"name": name})
    assert res.status_code == 201, res.get_json()
    return res.get_json()["token"]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def start(client, hall_room, code: str) -> None:
    assert client.post(f"/api/games/rooms/{code}/start", headers=hall_room.headers("speaker")).status_code == 200


def play(client, code: str, token: str, move) -> dict:
    view = client.get(f"/api/games/rooms/{code}/seat", headers=bearer(token)).get_json()
    res = client.post(
        f"/api/games/rooms/{code}/moves", json={"move": move, "version": view["version"]}, headers=bearer(token)
    )
    assert res.status_code == 200, res.get_json()
    return res.get_json()


def test_hint_refusals(client, hall_room):
    refused(client.get("/api/games/rooms/ZZZZ/hint"), 404, "unknown_room")
    duo = open_room(client, hall_room, 2)
    ana = join(client, duo, "Ana")
    refused(client.get(f"/api/games/rooms/{duo}/hint"), 401, "bad_token")
    refused(client.get(f"/api/games/rooms/{duo}/hint", headers=bearer("x" * 24)), 401, "bad_token")
    refused(client.get(f"/api/games/rooms/{duo}/hint", headers=bearer(ana)), 409, "not_solitaire")
    start(client, hall_room, duo)
    refused(client.get(f"/api/games/rooms/{duo}/hint", headers=bearer(ana)), 409, "not_solitaire")

    solo = open_room(client, hall_room, 1)
    lucie = join(client, solo, "Lucie")
    refused(client.get(f"/api/games/rooms/{solo}/hint", headers=bearer(lucie)), 409, "not_started")
    refused(client.get(f"/api/games/rooms/{solo}/hint", headers=bearer(ana)), 401, "bad_token")  # another room's seat
    start(client, hall_room, solo)
    refused(client.get(f"/api/games/rooms/{solo}/hint", headers=bearer(lucie)), 409, "choose_board")
    play(client, solo, lucie, ["choose", "H"])
    assert client.get(f"/api/games/rooms/{solo}/hint", headers=bearer(lucie)).status_code == 200
    client.post(f"/api/games/rooms/{solo}/close", headers=hall_room.headers("speaker"))
    refused(client.get(f"/api/games/rooms/{solo}/hint", headers=bearer(lucie)), 409, "room_closed")


def test_the_solitaire_hint_says_what_the_legal_list_says(client, hall_room):
    solo = open_room(client, hall_room, 1)
    lucie = join(client, solo, "Lucie")
    start(client, hall_room, solo)
    play(client, solo, lucie, ["choose", "F"])
    answers = set()
    for _ in range(25):
        view = client.get(f"/api/games/rooms/{solo}/seat", headers=bearer(lucie)).get_json()
        if view["phase"] != "play":
            break
        completions = [m for m in view["legal"] if m[0] == "place"]
        hint = client.get(f"/api/games/rooms/{solo}/hint", headers=bearer(lucie)).get_json()
        assert set(hint) == {"solvable", "board", "message"} and hint["board"] == "F"
        assert hint["solvable"] is bool(completions)
        answers.add(hint["solvable"])
        if completions:
            assert hint["message"] == "Il existe une solution avec vos 8 pièces."
            shown = client.get(f"/api/games/rooms/{solo}/hint?show=1", headers=bearer(lucie)).get_json()
            assert any(shown["piece"] in m[2] for m in completions), shown  # one piece of a real solution
            assert "Par exemple" in shown["message"]
            english = client.get(f"/api/games/rooms/{solo}/hint?lang=en", headers=bearer(lucie)).get_json()
            assert english["message"] == "There is a solution with your 8 pieces."
            play(client, solo, lucie, completions[0])
            break
        assert hint["message"] == "Aucune solution avec ces pièces : échangez-en une."
        play(client, solo, lucie, next(m for m in view["legal"] if m[0] == "swap"))
    room = client.get(f"/api/games/rooms/{solo}").get_json()
    assert True in answers and room["status"] == "over" and room["outcome"]["winners"] == [0]
    refused(client.get(f"/api/games/rooms/{solo}/hint", headers=bearer(lucie)), 409, "game_over")


def test_the_hint_answers_null_when_it_runs_out_of_budget(client, hall_room, monkeypatch):
    monkeypatch.setattr(rooms_points_rouges, "HINT_NODES", 1)
    solo = open_room(client, hall_room, 1)
    lucie = join(client, solo, "Lucie")
    start(client, hall_room, solo)
    play(client, solo, lucie, ["choose", "C"])
    hint = client.get(f"/api/games/rooms/{solo}/hint", headers=bearer(lucie)).get_json()
    assert hint["solvable"] is None and "pas trouvé à temps" in hint["message"]


def test_a_whole_two_player_game_with_a_bot_through_the_api(client, hall_room):
    code = open_room(client, hall_room, 2)
    ana = join(client, code, "Ana")
    start(client, hall_room, code)
    rng = random.Random(5)
    mine = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        room = client.get(f"/api/games/rooms/{code}").get_json()
        if room["status"] == "over":
            break
        view = client.get(f"/api/games/rooms/{code}/seat", headers=bearer(ana)).get_json()
        if not view["legal"]:
            bots_round(hall_room.app)
            continue
        assert "my_rack" not in room["view"] and len(view["my_rack"]) <= 5
        jokers = {json.dumps(m): sum(p[0] == "J" for p in m[2]) if m[0] == "place" else 0 for m in view["legal"]}
        multi = [m for m in view["legal"] if m[0] == "place" and len(m[2]) > 1 and jokers[json.dumps(m)] <= 1]
        thrifty = [m for m in view["legal"] if jokers[json.dumps(m)] == 0]  # a long game: jokers kept
        move = multi[0] if multi else rng.choice(thrifty or view["legal"])
        res = client.post(
            f"/api/games/rooms/{code}/moves", json={"move": move, "version": view["version"]}, headers=bearer(ana)
        )
        assert res.status_code == 200, res.get_json()
        mine += 1
    else:
        pytest.fail("the game did not end in 2 minutes")
    room = client.get(f"/api/games/rooms/{code}").get_json()
    v = room["view"]
    assert mine > 5 and room["seats"][1]["bot"]
    assert room["outcome"]["scores"] == [float(w) for w in v["won"]]
    assert v["reason"] and (not any(v["jokers"]) or v["reason"] in ("nobody can move", "no boards left"))
    taken = sum(
        {
            "A": 18,
            "B": 18,
            "C": 16,
            "D": 14,
            "E": 14,
            "F": 12,
            "G": 12,
            "H": 12,
            "I": 12,
            "J": 10,
            "K": 10,
            "L": 8,
            "M": 8,
            "N": 6,
        }[letter]
        for _, letter in v["completed"]
    )
    assert sum(v["won"]) == taken
    assert sum(b["tokens"] for b in v["boards"]) + taken + v["pot"] == 166


SCRIPT = Path(__file__).resolve().parents[2] / "display" / "static" / "js" / "games" / "points-rouges.js"


def test_the_script_asks_only_for_words_that_exist_and_draws_the_engine_s_shapes():
    from display.rooms.messages import ROOM_STRINGS
    from hall.minigames.points_rouges.pieces import BOARD_FIGURES, BOARD_VALUES, SHAPE_FIGURES
    from hall.minigames.points_rouges.state import SOLITAIRE_BOARDS

    text = SCRIPT.read_text(encoding="utf-8")
    asked = set(re.findall(r'\bt\("([a-z_]+)"', text))
    assert asked and not asked - set(ROOM_STRINGS) - set(rooms_points_rouges.STRINGS)
    shapes = dict(re.findall(r'"(S\d\d)": "([o./]+)"', text))
    assert shapes == SHAPE_FIGURES
    boards = dict(re.findall(r'"([A-N])": "([o./]{29})"', text))
    assert boards == BOARD_FIGURES and set(SOLITAIRE_BOARDS) <= set(boards)
    assert all(f.count("o") == BOARD_VALUES[b] for b, f in boards.items())


def test_a_figure_of_several_pieces_is_laid_one_piece_at_a_time_seen_by_the_mover_alone(client, hall_room):
    """P7 at a table: each piece of a figure is its own listed move (`add`), journalled; the pieces stay the
    player's until the last one completes the board, and only the player sees them (P7c, issue 22: they were
    shown to every seat and the projector, then went back into the rack on a take-back). The legal list grows
    with the placements, never with the ways to cover a board (no thousands of completions)."""
    code = open_room(client, hall_room, 2)
    tokens = [join(client, code, "Ana"), join(client, code, "Bob")]
    start(client, hall_room, code)
    room = client.get(f"/api/games/rooms/{code}").get_json()
    mover = room["to_move"][0]
    token, other = tokens[mover], tokens[1 - mover]
    view = client.get(f"/api/games/rooms/{code}/seat", headers=bearer(token)).get_json()
    adds = [m for m in view["legal"] if m[0] == "add"]
    assert adds and not any(m[0] == "place" and len(m[2]) > 1 for m in view["legal"])
    assert len(json.dumps(view)) < 64 * 1024
    before = {
        "public": room["view"],
        "other": client.get(f"/api/games/rooms/{code}/seat", headers=bearer(other)).get_json(),
    }
    first = adds[0]
    version = play(client, code, token, first)["version"]
    public = client.get(f"/api/games/rooms/{code}").get_json()
    assert public["version"] == version and public["to_move"] == [mover]
    assert public["view"] == before["public"]  # the hall sees nothing laid, nor where
    theirs = client.get(f"/api/games/rooms/{code}/seat", headers=bearer(other)).get_json()
    assert {k: v for k, v in theirs.items() if k != "version"} == {
        k: v for k, v in before["other"].items() if k != "version"
    }
    assert theirs["legal"] == [] and "staged" not in theirs
    view = client.get(f"/api/games/rooms/{code}/seat", headers=bearer(token)).get_json()
    assert view["staged"] == [first[2]] and view["staged_on"] == first[1] and view["take_backs_left"] == 3
    board = next(b for b in view["boards"] if b["letter"] == first[1])
    assert not set(first[2][1]) & set(board["covered"])  # laid, not placed: the board is unchanged
    assert ["take_back"] in view["legal"]
    assert all(m[0] == "add" and m[1] == first[1] for m in view["legal"] if m != ["take_back"])
    if len(view["legal"]) > 1:  # the figure sent whole is never a move here
        whole = ["place", first[1], [first[2], view["legal"][0][2]]]
        refused(
            client.post(
                f"/api/games/rooms/{code}/moves", json={"move": whole, "version": version}, headers=bearer(token)
            ),
            422,
            "illegal_move",
        )
    rack = view["my_rack"]
    version = play(client, code, token, ["take_back"])["version"]
    public = client.get(f"/api/games/rooms/{code}").get_json()
    assert public["view"] == before["public"] and public["to_move"] == [mover]
    after = client.get(f"/api/games/rooms/{code}/seat", headers=bearer(token)).get_json()
    assert after["my_rack"] == rack and after["version"] == version and after["staged"] == []
