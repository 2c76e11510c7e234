"""A Points Rouges turn has one clock (issue 22, item 9): a phone that lays and takes back the pieces of a figure
until the clock runs out is played by a bot within ``takeover_s`` of the turn's start, plus one bot delay. The
room's clock is driven by the test (the bot task reads it), the phone plays through the real API and the hall
is watched over a real Socket.IO client: nothing sleeps."""

from __future__ import annotations

import random

from display.services import services_of
from tests.display.conftest import GAMES, LiveServer, make_room
from tests.display.test_rooms_api import Watcher, bearer, join, open_room

TAKEOVER_S, BOT_DELAY_S, T0 = 30.0, 1.5, 1000.0


class Clock:
    """The room's clock, set by the test."""

    def __init__(self, now: float):
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_staging_and_taking_back_never_winds_the_turn_s_clock_back(tmp_path):
    r = make_room(
        tmp_path, extra={**GAMES, "games": {**GAMES["games"], "bot_delay_s": BOT_DELAY_S, "takeover_s": TAKEOVER_S}}
    )
    hub = services_of(r.app).rooms
    clock = hub.clock = Clock(T0)
    hub.lobby.rng = random.Random(5)
    server = LiveServer(r.app)
    c = r.app.test_client()
    try:
        code = open_room(c, r, "points-rouges", {"players": 2})
        tokens = [join(c, code, name)["token"] for name in ("Ana", "Bob")]
        hall = Watcher(server.url, code)
        assert c.post(f"/api/games/rooms/{code}/start", headers=r.headers("speaker")).status_code == 200
        mover = c.get(f"/api/games/rooms/{code}").get_json()["to_move"][0]
        token = tokens[mover]

        def due() -> float:
            return dict(hub.lobby.due(clock.now))[code]

        def stage(at: float, kind: str) -> None:
            clock.now = T0 + at
            view = c.get(f"/api/games/rooms/{code}/seat", headers=bearer(token)).get_json()
            move = next(m for m in view["legal"] if m[0] == kind)
            res = c.post(
                f"/api/games/rooms/{code}/moves", json={"move": move, "version": view["version"]}, headers=bearer(token)
            )
            assert res.status_code == 200, res.get_json()
            assert due() == T0 + TAKEOVER_S  # each move of the figure keeps the turn's one clock

        for at, kind in (
            (4, "add"),
            (9, "take_back"),
            (14, "add"),
            (19, "take_back"),
            (24, "add"),
            (27, "take_back"),
            (29.5, "add"),
        ):
            stage(at, kind)
        version = c.get(f"/api/games/rooms/{code}").get_json()["version"]
        assert c.get(f"/api/games/rooms/{code}").get_json()["to_move"] == [mover]
        clock.now = T0 + TAKEOVER_S  # the clock runs out: the seat is taken over
        hub.wake.set()
        clock.now = T0 + TAKEOVER_S + BOT_DELAY_S  # one bot delay later, the bot plays the turn out
        hub.wake.set()
        turned = hall.until(
            lambda e: "room" in e and e["room"]["version"] > version and e["room"]["to_move"] != [mover]
        )
        assert turned["room"]["last_by"] == "bot" and turned["room"]["seats"][mover]["away"]
        hall.close()
    finally:
        server.stop()
        hub.stop()
        r.hall.journal.close()
