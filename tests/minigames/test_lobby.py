"""The lobby keeps its rooms under its own lock, as ``Hall`` does (issue 23): two commands at once never read the
same free seat, each change is published in order under the lock, a bot thinks where the program says, and
the live lobby and the replayed one are made by the same code."""

from __future__ import annotations

import random
import threading
import time

from hall.app.runtime import open_rooms
from hall.minigames.lobby import Lobby, LobbySettings
from hall.minigames.lobby_news import ListChanged, RoomChanged

FAST = LobbySettings(bot_delay_s=0.0, takeover_s=10.0)


def test_two_phones_joining_at_once_get_two_seats_journalled_in_order():
    """Two HTTP threads join at once: the second waits while the first one's record is written (it used to read
    the same free seat, and the journal said seat 0 twice)."""
    writing, release, second_written = threading.Event(), threading.Event(), threading.Event()
    records: list[dict] = []

    def journal(record: dict) -> None:
        if record["kind"] == "join" and record["name"] == "Ana":
            writing.set()
            assert release.wait(10)  # a slow card: Ana's record takes its time
        if record["kind"] == "join" and record["name"] == "Bob":
            second_written.set()
        records.append(record)

    lobby = Lobby(FAST, journal=journal, rng=random.Random(1))
    code = lobby.open("lobo77").code
    seats: dict[str, int] = {}
    ana = threading.Thread(target=lambda: seats.setdefault("Ana", lobby.join(code, "Ana")[1]))
    bob = threading.Thread(target=lambda: seats.setdefault("Bob", lobby.join(code, "Bob")[1]))
    ana.start()
    assert writing.wait(10)
    bob.start()
    assert not second_written.wait(0.5)  # Bob waits for the lobby while Ana's seat is written
    release.set()
    ana.join(10)
    bob.join(10)
    assert [(r["name"], r["seat"]) for r in records if r["kind"] == "join"] == [("Ana", 0), ("Bob", 1)]
    assert seats == {"Ana": 0, "Bob": 1}
    assert [s.name for s in lobby.room(code).seats] == ["Ana", "Bob"]


def test_each_change_is_published_once_in_order_while_phones_and_bots_play_at_once():
    lobby = Lobby(FAST, rng=random.Random(2))
    code = lobby.open("lobo77", {"players": 4}).code
    tokens = [lobby.join(code, name)[2] for name in ("Ana", "Bea")]
    versions: list[int] = []
    lobby.subscribe(
        lambda news: (
            versions.append(news.room.version) if isinstance(news, RoomChanged) and news.room.code == code else None
        )
    )
    lobby.start(code)
    done = threading.Event()

    def phone(token: str) -> None:
        while not done.is_set():
            view = lobby.seat_view(code, token)
            if lobby.room(code).status != "playing":
                return
            if view["legal"]:
                try:
                    lobby.play(code, token, view["legal"][0], view["version"])
                except Exception:  # stale_version: a bot or the other phone moved meanwhile
                    pass

    phones = [threading.Thread(target=phone, args=(t,)) for t in tokens]
    for thread in phones:
        thread.start()
    deadline = time.monotonic() + 60
    while lobby.room(code).status == "playing" and time.monotonic() < deadline:
        lobby.play_bots(0.0)
    done.set()
    for thread in phones:
        thread.join(10)
    moves = [v for v in versions if v > 1]
    assert lobby.room(code).status == "over"
    assert moves == sorted(moves) and len(set(moves)) == len(moves)  # in order, each version once
    assert moves[-1] == lobby.room(code).version


def test_a_bot_thinks_where_the_program_says():
    """Under gevent the program runs a bot's search in a real thread: it hands the lobby that runner when it
    builds it (it was a hook set from outside afterwards)."""
    thought: list[str] = []

    def think(decide):
        thought.append(threading.current_thread().name)
        return decide()

    lobby = Lobby(FAST, rng=random.Random(3), think=think)
    code = lobby.open("linotte").code
    lobby.start(code)
    assert lobby.step(code, 0.0) and thought == [threading.current_thread().name]


def test_the_room_on_screen_closed_leaves_the_projector_after_a_restart_too(tmp_path):
    """The projector's screen after a restart is the live one: a room closed while on screen left it live, but
    the replay kept the closed room on screen, and every draw was refused (games_on_screen) until the speaker
    pressed « Retour au loto »."""
    lobby, store = open_rooms(tmp_path, FAST)
    code = lobby.open("linotte").code
    lobby.show("game", code)
    news: list = []
    lobby.subscribe(news.append)
    lobby.close(code)
    assert lobby.screen() == {"show": "loto"} and not lobby.game_on_screen()
    assert [type(n).__name__ for n in news] == ["RoomChanged", "ListChanged", "ScreenChanged"]
    assert isinstance(news[1], ListChanged) and news[1].screen == {"show": "loto"}
    store.close()
    again, store2 = open_rooms(tmp_path, FAST)
    try:
        assert again.screen() == {"show": "loto"} and not again.game_on_screen()
        assert again.room(code).status == "closed"
    finally:
        store2.close()
