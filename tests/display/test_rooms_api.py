"""The rooms over HTTP and Socket.IO (INTERFACE §7): every endpoint, every refusal, the break gate, the QR."""

from __future__ import annotations

import queue
import random
import threading

import pytest
import socketio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from display.rooms import GameOnScreen
from display.services import services_of
from hall.refusal import Rejected
from tests.display.conftest import GAMES, LiveServer, bots_round, make_room
from tests.helpers import refused


@pytest.fixture
def client(hall_room):
    return hall_room.app.test_client()


def open_room(client, hall_room, game="lobo77", options=None) -> str:
    body = {"game": game} | ({"options": options} if options else {})
    res = client.post("/api/games/rooms", json=body, headers=hall_room.headers("speaker"))
    assert res.status_code == 201, res.get_json()
    assert res.get_json()["join_url"].endswith("/j/" + res.get_json()["code"])
    return res.get_json()["code"]


def join(client, code, name="Ana") -> dict:
    res = client.post(f"/api/games/rooms/{code}/join", json={"name": name})
    assert res.status_code == 201, res.get_json()
    return res.get_json()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def wait_my_turn(client, code, token, timeout_s=10.0) -> dict:
    """The seat's view once it has legal moves (the bot task plays the others at once)."""
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        view = client.get(f"/api/games/rooms/{code}/seat", headers=bearer(token)).get_json()
        room = client.get(f"/api/games/rooms/{code}").get_json()
        if view["legal"] or room["status"] != "playing":
            return view
        bots_round(client.application)
    raise AssertionError("never my turn")


def test_open_list_join_start_play_close(client, hall_room):
    lobby = services_of(hall_room.app).rooms.lobby
    assert type(lobby.rng) is random.SystemRandom  # the hall's deals and dice (ARCHITECTURE)
    code = open_room(client, hall_room)
    ana = join(client, code, " Ana ")
    assert ana["seat"] == 0
    listed = client.get("/api/games/rooms", headers=hall_room.headers("speaker")).get_json()
    assert listed[0]["code"] == code and listed[0]["seats"][0]["name"] == "Ana"
    room = client.get(f"/api/games/rooms/{code.lower()}").get_json()
    assert room["status"] == "lobby" and room["seats"] == [
        {"seat": 0, "name": "Ana", "bot": False, "connected": False, "away": False}
    ]
    res = client.post(f"/api/games/rooms/{code}/start", headers=hall_room.headers("speaker"))
    assert res.status_code == 200 and res.get_json()["status"] == "playing"
    assert [s["bot"] for s in res.get_json()["seats"]] == [False, True, True, True]
    view = wait_my_turn(client, code, ana["token"])
    res = client.post(
        f"/api/games/rooms/{code}/moves",
        json={"move": view["legal"][0], "version": view["version"]},
        headers=bearer(ana["token"]),
    )
    assert res.status_code == 200 and res.get_json()["version"] > view["version"]
    res = client.post(f"/api/games/rooms/{code}/close", headers=hall_room.headers("speaker"))
    assert res.get_json()["status"] == "closed"
    refused(client.post(f"/api/games/rooms/{code}/join", json={"name": "Bob"}), 409, "room_closed")


def test_refusals(client, hall_room):
    speaker = hall_room.headers("speaker")
    refused(client.post("/api/games/rooms", json={"game": "lobo77"}), 401, "unauthorized")
    refused(
        client.post("/api/games/rooms", json={"game": "lobo77"}, headers=hall_room.headers("desk")), 403, "forbidden"
    )
    refused(client.post("/api/games/rooms", json={"game": "chess"}, headers=speaker), 422, "unknown_game")
    refused(
        client.post("/api/games/rooms", json={"game": "lobo77", "options": {"players": 12}}, headers=speaker),
        422,
        "bad_options",
    )
    refused(client.get("/api/games/rooms/ZZZZ"), 404, "unknown_room")
    code = open_room(client, hall_room, "linotte")
    refused(client.post(f"/api/games/rooms/{code}/join", json={"name": "\u0007"}), 422, "bad_name")
    refused(client.post(f"/api/games/rooms/{code}/join", json={"name": "x" * 21}), 422, "bad_name")
    refused(client.post(f"/api/games/rooms/{code}/join", data="[1]", content_type="application/json"), 400, "bad_json")
    refused(
        client.post(f"/api/games/rooms/{code}/join", data="x" * 20_000, content_type="application/json"),
        413,
        "too_large",
    )
    a, b = join(client, code, "Ana"), join(client, code, "Bea")
    refused(client.post(f"/api/games/rooms/{code}/join", json={"name": "Cid"}), 409, "room_full")
    refused(client.get(f"/api/games/rooms/{code}/seat"), 401, "bad_token")
    refused(client.get(f"/api/games/rooms/{code}/seat", headers=bearer("not-a-token-at-all")), 401, "bad_token")
    refused(
        client.post(
            f"/api/games/rooms/{code}/moves", json={"move": ["stop"], "version": 1}, headers=bearer(a["token"])
        ),
        409,
        "not_started",
    )
    client.post(f"/api/games/rooms/{code}/start", headers=speaker)
    refused(client.post(f"/api/games/rooms/{code}/start", headers=speaker), 409, "already_started")
    refused(client.post(f"/api/games/rooms/{code}/join", json={"name": "Cid"}), 409, "already_started")
    room = client.get(f"/api/games/rooms/{code}").get_json()
    on, off = (a, b) if room["to_move"] == [0] else (b, a)
    version = room["version"]
    move = client.get(f"/api/games/rooms/{code}/seat", headers=bearer(on["token"])).get_json()["legal"][0]
    refused(
        client.post(
            f"/api/games/rooms/{code}/moves", json={"move": move, "version": version}, headers=bearer(off["token"])
        ),
        409,
        "not_your_turn",
    )
    refused(
        client.post(
            f"/api/games/rooms/{code}/moves", json={"move": move, "version": version - 1}, headers=bearer(on["token"])
        ),
        409,
        "stale_version",
    )
    refused(
        client.post(
            f"/api/games/rooms/{code}/moves",
            json={"move": ["place", 99], "version": version},
            headers=bearer(on["token"]),
        ),
        422,
        "illegal_move",
    )
    refused(
        client.post(
            f"/api/games/rooms/{code}/moves", json={"move": move, "version": version}, headers=bearer("x" * 24)
        ),
        401,
        "bad_token",
    )
    for raw in (
        '{"move": ' + "[" * 1000 + "]" * 1000 + ', "version": %d}' % version,
        '{"move": "' + "x" * 15_000 + '", "version": %d}' % version,
        '{"move": 1e308, "version": %d}' % version,
        '{"move": NaN, "version": 1}',
        '{"move": Infinity, "version": %d}' % version,
        '{"version": %d}' % version,
    ):
        res = client.post(
            f"/api/games/rooms/{code}/moves", data=raw, content_type="application/json", headers=bearer(on["token"])
        )
        assert 400 <= res.status_code < 500, res.get_json()
    assert client.get(f"/api/games/rooms/{code}").get_json()["version"] == version


def test_disabled_game_and_admin_switch(client, hall_room):
    refused(
        client.post(
            "/api/games/switch", json={"game": "linotte", "enabled": False}, headers=hall_room.headers("speaker")
        ),
        403,
        "forbidden",
    )
    res = client.post(
        "/api/games/switch", json={"game": "linotte", "enabled": False}, headers=hall_room.headers("admin")
    )
    listed = {g["game"]: g for g in res.get_json()}
    assert listed["linotte"]["enabled"] is False and listed["lobo77"]["enabled"] is True
    assert listed["points-rouges"]["players"] == [1, 4] and listed["euchre"]["players"] is None
    refused(
        client.post("/api/games/rooms", json={"game": "linotte"}, headers=hall_room.headers("speaker")),
        403,
        "game_disabled",
    )


def test_screen_and_the_break_gate(client, hall_room):
    speaker = hall_room.headers("speaker")
    code = open_room(client, hall_room)
    assert client.get("/api/screen").get_json() == {"show": "loto"}
    refused(client.post("/api/screen", json={"show": "game", "code": "ZZZZ"}, headers=speaker), 404, "unknown_room")
    refused(client.post("/api/screen", json={"show": "film"}, headers=speaker), 422, "bad_screen")
    client.post("/api/partie/start", json={}, headers=speaker)
    assert client.post("/api/draws", json={"number": 5}, headers=speaker).status_code == 201
    state = client.get("/api/state").get_json()
    assert client.post("/api/screen", json={"show": "game", "code": code}, headers=speaker).status_code == 200
    refused(client.post("/api/draws", json={"number": 6}, headers=speaker), 423, "games_on_screen")
    with pytest.raises(Rejected, match="games_on_screen"):
        hall_room.hall.draw(7, role="device")  # the hall itself holds: not only the web's way to it
    assert client.get("/api/state").get_json() == state  # the loto is untouched during the break
    client.post("/api/screen", json={"show": "loto"}, headers=speaker)
    assert client.post("/api/draws", json={"number": 6}, headers=speaker).status_code == 201


def test_the_break_is_a_hold_on_the_hall_that_every_drawing_command_meets(client, hall_room):
    """With a real lobby showing a game, each command of the hall itself that would draw a ball (or start or end a
    partie) is refused ``games_on_screen`` and journals nothing; the table covers every ``Hall`` method that can
    reach a draw, found by following its calls, so a drawing command added later must join it."""
    from tests.hall.test_holds import HELD_COMMANDS, commands_that_can_draw

    speaker = hall_room.headers("speaker")
    code = open_room(client, hall_room)
    hall = hall_room.hall
    hall.start_partie(role="speaker")
    hall.draw(5, role="speaker")
    hall.propose(9, role="device")
    assert client.post("/api/screen", json={"show": "game", "code": code}, headers=speaker).status_code == 200
    before = hall.last_seq()
    for name, (command, _) in HELD_COMMANDS.items():
        with pytest.raises(Rejected, match="games_on_screen"):
            command(hall)
    assert hall.last_seq() == before and hall.speaker_snapshot().proposed.number == 9
    assert commands_that_can_draw() == {name.split()[0] for name in HELD_COMMANDS}


def test_one_break_stops_the_console_the_keypad_and_the_ball_machine_together(client, hall_room, tmp_path):
    """« Entracte : jeux » and « Retour au loto » switch one object that the console's draw (HTTP), the keypad and
    the ball machine (a real reader on a pseudo-terminal) all obey; the loto never hears of the break."""
    import os
    import tty

    from drivers.ball_machine import BallMachineReader
    from drivers.ball_protocol import frame
    from drivers.keypad import apply_key_command
    from drivers.keypad_map import KeyCommand
    from drivers.reconnect import Backoff
    from hall.config import BallMachineSection
    from tests.drivers.conftest import Watch

    speaker = hall_room.headers("speaker")
    devices = hall_room.hall  # what the wiring hands the drivers: the hall itself, the break a hold on it
    watch = Watch(hall_room.hall)
    master, slave = os.openpty()
    tty.setraw(slave)
    reader = BallMachineReader(
        devices, BallMachineSection(port=os.ttyname(slave), debounce_s=0.0), backoff=Backoff(0.02, 0.2)
    )
    os.close(slave)
    reader.start()
    try:
        watch.status("ball_machine", "ok")
        code = open_room(client, hall_room)
        client.post("/api/partie/start", json={}, headers=speaker)
        assert client.post("/api/screen", json={"show": "game", "code": code}, headers=speaker).status_code == 200
        assert GameOnScreen(hall_room.lobby).active()
        refused(client.post("/api/draws", json={"number": 6}, headers=speaker), 423, "games_on_screen")
        apply_key_command(devices, KeyCommand("draw", 7, "7"))
        assert watch.refused("games_on_screen")[1]["number"] == 7
        os.write(master, frame(8))
        assert watch.refused("games_on_screen")[1]["number"] == 8
        assert [r.event.number for r in hall_room.hall.records("draw:ball_drawn")] == []
        assert client.post("/api/screen", json={"show": "loto"}, headers=speaker).status_code == 200
        assert not GameOnScreen(hall_room.lobby).active()
        os.write(master, frame(8))
        watch.drawn(8)
        apply_key_command(devices, KeyCommand("draw", 7, "7"))
        watch.drawn(7)
        assert client.post("/api/draws", json={"number": 6}, headers=speaker).status_code == 201
        assert [r.event.number for r in hall_room.hall.records("draw:ball_drawn")] == [8, 7, 6]
    finally:
        reader.stop()
        os.close(master)


def test_qr_svg_names_the_join_url(client, hall_room):
    code = open_room(client, hall_room)
    res = client.get(f"/jeux/{code}/qr.svg")
    assert res.mimetype == "image/svg+xml" and res.data.startswith(b"<svg")
    assert res.headers["X-Join-Url"] == hall_room.config.hall_link(f"j/{code}")  # the hall's one address
    assert client.get("/j").status_code == 200 and client.get(f"/j/{code}").status_code == 200
    assert client.get("/j/ZZZZ").status_code == 404 and client.get(f"/jeux/{code}").status_code == 200


def test_the_rooms_are_in_the_openapi_document(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    assert {"/api/games/rooms", "/api/games/rooms/{code}/moves", "/api/screen"} <= set(paths)
    assert "422" in paths["/api/games/rooms/{code}/moves"]["post"]["responses"]


def test_names_are_escaped_in_pages(client, hall_room):
    code = open_room(client, hall_room)
    join(client, code, "<b>x</b>")
    page = client.get(f"/j/{code}").data.decode()
    assert "<b>x</b>" not in page


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    move=st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        max_leaves=15,
    )
)
def test_any_json_move_is_a_4xx_that_changes_nothing(tmp_path_factory, move):
    r = make_room(tmp_path_factory.mktemp("any"), extra=GAMES)
    c = r.app.test_client()
    code = open_room(c, r, "linotte")
    a, b = join(c, code, "Ana"), join(c, code, "Bea")
    c.post(f"/api/games/rooms/{code}/start", headers=r.headers("speaker"))
    room = c.get(f"/api/games/rooms/{code}").get_json()
    token = (a, b)[room["to_move"][0]]["token"]
    legal = c.get(f"/api/games/rooms/{code}/seat", headers=bearer(token)).get_json()["legal"]
    res = c.post(
        f"/api/games/rooms/{code}/moves", json={"move": move, "version": room["version"]}, headers=bearer(token)
    )
    if move in legal:
        assert res.status_code == 200
    else:
        assert res.status_code == 422 and res.get_json()["error"] == "illegal_move"
        assert c.get(f"/api/games/rooms/{code}").get_json() == room
    services_of(r.app).rooms.stop()
    r.hall.journal.close()


# ---------------------------------------------------------------- Socket.IO over loopback
@pytest.fixture
def live_rooms(hall_room):
    server = LiveServer(hall_room.app)
    hall_room.url = server.url
    yield hall_room
    server.stop()


class Watcher:
    """A real python-socketio client that puts every ``game`` event in a queue."""

    def __init__(self, url: str, code: str, token: str | None = None):
        self.events: queue.Queue = queue.Queue()
        self.client = socketio.Client(reconnection=False)
        self.client.on("game", self.events.put)
        self.client.on("game_error", lambda data: self.events.put({"error": data}))
        self.client.connect(url, transports=["websocket"], wait_timeout=5)
        self.client.emit("game_watch", {"code": code, **({"token": token} if token else {})})

    def until(self, check, timeout_s: float = 10.0) -> dict:
        while True:
            event = self.events.get(timeout=timeout_s)
            if check(event):
                return event

    def close(self) -> None:
        threading.Thread(target=self.client.disconnect, daemon=True).start()


def test_game_events_reach_seats_and_audience_without_leaking(live_rooms):
    r = live_rooms
    c = r.app.test_client()
    code = open_room(c, r)
    ana = join(c, code, "Ana")
    phone = Watcher(r.url, code, ana["token"])
    audience = Watcher(r.url, code)
    first = phone.until(lambda e: "seat_view" in e)
    assert first["seat_view"]["seat"] == 0
    audience.until(lambda e: e["room"]["seats"][0]["connected"])
    c.post(f"/api/games/rooms/{code}/start", headers=r.headers("speaker"))
    mine = phone.until(lambda e: e["seat_view"]["legal"])
    assert mine["seat_view"]["hand"] and len(mine["seat_view"]["hand"]) == 5
    seen = audience.until(lambda e: e["version"] >= mine["version"])
    assert "seat_view" not in seen and "hand" not in seen["room"]["view"]
    bad = Watcher(r.url, code, "x" * 24)
    assert bad.until(lambda e: "error" in e)["error"]["error"] == "bad_token"
    for w in (phone, audience, bad):
        w.close()


def test_audience_is_bounded(tmp_path):
    r = make_room(tmp_path, extra={**GAMES, "games": {**GAMES["games"], "max_audience": 1}})
    server = LiveServer(r.app)
    c = r.app.test_client()
    code = open_room(c, r)
    first = Watcher(server.url, code)
    first.until(lambda e: "room" in e)
    second = Watcher(server.url, code)
    assert second.until(lambda e: "error" in e)["error"]["error"] == "audience_full"
    first.close(), second.close()
    server.stop()
    services_of(r.app).rooms.stop()
    r.hall.journal.close()


def test_a_silent_phone_is_played_by_a_bot_until_it_comes_back(tmp_path):
    r = make_room(tmp_path, extra={**GAMES, "games": {"bot_delay_s": 0, "takeover_s": 0.2}})
    server = LiveServer(r.app)
    c = r.app.test_client()
    code = open_room(c, r, "linotte")
    tokens = [join(c, code, n)["token"] for n in ("Ana", "Bea")]
    audience = Watcher(server.url, code)
    c.post(f"/api/games/rooms/{code}/start", headers=r.headers("speaker"))
    taken = audience.until(lambda e: any(s["away"] for s in e["room"]["seats"]))
    seat = next(s["seat"] for s in taken["room"]["seats"] if s["away"])
    view = c.get(f"/api/games/rooms/{code}/seat", headers=bearer(tokens[seat])).get_json()
    assert view["away"] is False  # any request with its token: the phone is back
    audience.close()
    server.stop()
    services_of(r.app).rooms.stop()
    r.hall.journal.close()


def test_the_phone_page_speaks_french_first_and_english_on_request(client, hall_room):
    code = open_room(client, hall_room)
    assert "Rejoindre la table" in client.get(f"/j/{code}").data.decode()
    english = client.get(f"/j/{code}?lang=en").data.decode()
    assert "Join the table" in english and "Your turn!" in english
    refused_en = client.post(f"/api/games/rooms/{code}/join?lang=en", json={"name": ""})
    assert refused_en.get_json()["message"].startswith("Name refused")
