"""The main hall's side of the salle annexe (RULES L23), over loopback on one machine (the two-host netns bench
is the annex's): an annex's « Quine ! » (``POST /api/rooms/{room}/claim``) → the main hall held (the next ball
refused), and a beat's round trip, each over HTTP keep-alive to Werkzeug's threaded server with a fsync'd journal;
and the ack (RULES L23a): a ball drawn → the annex's follower (``display/annex_link.Link``: the main's Socket.IO
over a websocket, its beat) has shown it and said so → the next ball may be drawn (``drawable_numbers()`` no longer
empty), the wait the speaker's rhythm must absorb.

    python bench/bench_annex_main.py [--claims 100] [--beats 500] [--acks 100]
"""

from __future__ import annotations

import argparse
import http.client
import json
import logging
import random
import statistics
import tempfile
import time
from pathlib import Path

from hall.app.demo import DEMO_PINS
from hall.cartons.cardbook import CardBook
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--claims", type=int, default=100)
    ap.add_argument("--beats", type=int, default=500)
    ap.add_argument("--acks", type=int, default=100)
    args = ap.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    from display.app import create_app
    from hall.app.runtime import lobby_settings, open_rooms
    from tests.display.conftest import LiveServer

    folder = Path(tempfile.mkdtemp())
    config = parse_config({"hall": {"data_dir": str(folder)}, "auth": dict(DEMO_PINS)})
    hall = Hall(
        config, Journal(folder / "journal.sqlite"), CardBook({}), voucher_secret=b"k" * 32, rng=random.Random(1)
    )
    lobby, _store = open_rooms(folder, lobby_settings(config.games))
    app, _ = create_app(hall, config, lobby=lobby)
    server = LiveServer(app)
    conn = http.client.HTTPConnection("127.0.0.1", server.port)

    def post(path: str, body: dict, token: str | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request("POST", path, json.dumps(body), headers)
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"{}")

    _, login = post("/api/login", {"pin": DEMO_PINS["admin_pin"]})
    admin = login["token"]
    _, made = post("/api/rooms", {"room": "Salle B"}, admin)
    _, joined = post("/api/rooms/Salle%20B/join", {"code": made["code"]})
    token = joined["token"]
    beats = []
    for i in range(args.beats):
        t0 = time.perf_counter()
        status, _ = post("/api/rooms/Salle%20B/beat", {"seq": i}, token)
        beats.append((time.perf_counter() - t0) * 1000)
        assert status == 200
    held = []
    balls = list(range(1, 91))
    for i in range(args.claims):
        if hall.snapshot().partie is None or i % 80 == 0:
            if hall.snapshot().partie is not None:
                hall.clear(role="speaker", force=True)
            hall.start_partie(role="speaker")
            random.shuffle(balls)
            n = 0
        hall.draw(balls[n], role="speaker")
        post("/api/rooms/Salle%20B/beat", {"seq": hall.last_seq()}, token)  # the annex has shown it (L23a)
        n += 1
        t0 = time.perf_counter()
        status, _ = post("/api/rooms/Salle%20B/claim", {"kind": "quine"}, token)
        assert status == 200
        status, refused = post("/api/draws", {"number": balls[n]}, admin)
        held.append((time.perf_counter() - t0) * 1000)
        assert status == 423 and refused["error"] == "locked", refused
        hall.resume(role="speaker")
    from display.annex_link import Link

    link = Link(server.url, "Salle B", token, publish=lambda name, payload: None)
    link.start()
    deadline = time.monotonic() + 10
    while link.judge() != "ok" and time.monotonic() < deadline:
        time.sleep(0.01)
    acks = []
    for i in range(args.acks):
        if hall.snapshot().partie is None or i % 80 == 0:
            if hall.snapshot().partie is not None:
                hall.clear(role="speaker", force=True)
            hall.start_partie(role="speaker")
            random.shuffle(balls)
            n = 0
        wait_until = time.monotonic() + 5
        while not hall.drawable_numbers() and time.monotonic() < wait_until:
            time.sleep(0.0005)  # the previous ball's ack
        t0 = time.perf_counter()
        hall.draw(balls[n], role="speaker")
        n += 1
        while not hall.drawable_numbers():
            time.sleep(0.0005)
            if time.perf_counter() - t0 > 5:
                raise SystemExit("no ack within 5 s")
        acks.append((time.perf_counter() - t0) * 1000)
    link.stop()
    server.stop()
    for name, values in (
        ("beat round trip", beats),
        ("annex claim -> next ball refused", held),
        ("ball drawn -> annex shown and acked -> next ball drawable", acks),
    ):
        print(
            f"{name}: n={len(values)} p50 {statistics.median(values):.2f} ms, p90 {pct(values, 90):.2f} ms, "
            f"p99 {pct(values, 99):.2f} ms, max {max(values):.2f} ms"
        )


if __name__ == "__main__":
    main()
