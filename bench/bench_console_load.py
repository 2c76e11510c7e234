"""Draw and claim latency with 100 000 sold cartons while two speaker consoles are open.

    python bench/bench_console_load.py [--cards 100000] [--balls 60] [--consoles 2] [--console events|refetch]

The real path: ``Hall`` over a SQLite journal (fsync), ``display.create_app`` served by Werkzeug's threaded
server on 127.0.0.1, ``--consoles`` python-socketio clients logged in as the speaker doing what the speaker
page does (``--console refetch``: the page before issue #11, which asked for the whole speaker state 80 ms
after every event; ``--console events``: the page after, which applies the events and asks for a state only
on a gap in ``seq``), and a controller checking a random sold carton after every ball (``POST /api/claims``;
a valid one is awarded so the draw goes on). The speaker draws 60 balls with ``POST /api/draws``. The
consoles run in a child process (they are other machines: they must not share the server's GIL).
Prints the figures (latencies, and the server process's CPU time per ball, which a loaded machine
disturbs less than latencies); never run as a test.
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import random
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.stats import summary
from hall.app.demo import DEMO_PINS

PINS = DEMO_PINS


def consoles(url: str, token: str, count: int, mode: str, ready, stop, out) -> None:
    """``count`` speaker consoles (child process): each counts the states it was sent and the events it applied."""
    import socketio

    logging.disable(logging.CRITICAL)
    stats = []
    clients = []
    for _ in range(count):
        s = {"states": 0, "events": 0, "gaps": 0, "seq": None}
        client = socketio.Client(reconnection=False)
        timer: list = [None]

        def on_state(state, s=s):
            s["states"] += 1
            s["seq"] = state["seq"]

        def on_any(name, data=None, s=s, client=client, timer=timer):
            if not isinstance(data, dict) or not isinstance(data.get("seq"), int):
                return
            if s["seq"] is None or data["seq"] <= s["seq"]:
                return
            if data["seq"] != s["seq"] + 1:
                s["gaps"] += 1
                s["seq"] = None
                client.emit("resync")
                return
            s["seq"] = data["seq"]
            s["events"] += 1
            if mode == "refetch":  # the page before: the whole speaker state 80 ms after every event
                if timer[0] is not None:
                    timer[0].cancel()
                timer[0] = threading.Timer(0.08, client.emit, args=("resync",))
                timer[0].start()

        client.on("state", on_state)
        client.on("*", on_any)
        client.connect(url, auth={"token": token}, transports=["websocket"], wait_timeout=10)
        clients.append(client)
        stats.append(s)
    ready.set()
    stop.wait()
    out.put([{k: v for k, v in s.items() if k != "seq"} for s in stats])
    for client in clients:
        threading.Thread(target=client.disconnect, daemon=True).start()


def call(url: str, method: str, path: str, token: str, body: dict | None = None) -> tuple[int, dict, float]:
    """(status, JSON, milliseconds) of one API call."""
    data = json.dumps(body or {}).encode()
    req = urllib.request.Request(
        url + path,
        data=data if method == "POST" else None,
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            payload, status = resp.read(), resp.status
    except urllib.error.HTTPError as exc:
        payload, status = exc.read(), exc.code
    return status, json.loads(payload), 1000 * (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=100_000)
    ap.add_argument("--balls", type=int, default=60)
    ap.add_argument("--consoles", type=int, default=2)
    ap.add_argument("--console", choices=("events", "refetch"), default="events")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    logging.disable(logging.WARNING)

    from werkzeug.serving import make_server

    from display.app import create_app
    from hall.app.runtime import lobby_settings, open_rooms
    from hall.cartons.cardbook import CardBook
    from hall.cartons.planches import generate_cards
    from hall.config import parse_config
    from hall.door.service import Hall
    from hall.record.journal import Journal

    folder = Path(tempfile.mkdtemp(prefix="bench-console-"))
    t0 = time.perf_counter()
    cards = generate_cards(args.cards, args.seed, "A")
    book = CardBook(dict(cards))  # every carton sold (a book that does not record sales)
    config = parse_config({"hall": {"data_dir": str(folder)}, "auth": dict(PINS)})
    hall = Hall(
        config, Journal(folder / "journal.sqlite"), book, voucher_secret=b"k" * 32, rng=random.Random(args.seed)
    )
    app, _ = create_app(hall, config, lobby=open_rooms(config.data_dir, lobby_settings(config.games))[0])
    server = make_server("127.0.0.1", 0, app, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    print(
        f"{args.cards:,} sold cartons, hall ready in {time.perf_counter() - t0:.1f} s; "
        f"{args.consoles} consoles ({args.console}), {args.balls} balls"
    )

    tokens = {
        role: call(url, "POST", "/api/login", "", {"pin": PINS[f"{role}_pin"]})[1]["token"]
        for role in ("speaker", "controller")
    }
    ctx = multiprocessing.get_context("spawn")
    ready, stop, out = ctx.Event(), ctx.Event(), ctx.Queue()
    child = ctx.Process(target=consoles, args=(url, tokens["speaker"], args.consoles, args.console, ready, stop, out))
    child.start()
    if not ready.wait(60):
        raise SystemExit("the consoles did not connect")

    speaker, controller = tokens["speaker"], tokens["controller"]
    status, _, _ = call(url, "POST", "/api/partie/start", speaker)
    assert status == 201, status
    rnd = random.Random(args.seed)
    ids = [cid for cid, _ in cards]
    order = list(range(1, 91))
    rnd.shuffle(order)
    draw_ms, claim_ms, awards = [], [], 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for number in order[: args.balls]:
        status, data, ms = call(url, "POST", "/api/draws", speaker, {"number": number})
        if status == 423 and data.get("error") == "partie_finished":
            call(url, "POST", "/api/partie/clear", speaker, {})
            call(url, "POST", "/api/partie/start", speaker)
            status, data, ms = call(url, "POST", "/api/draws", speaker, {"number": number})
        assert status == 201, (status, data)
        draw_ms.append(ms)
        time.sleep(rnd.uniform(0.0, 0.15))  # the hall's pace is seconds; this keeps the consoles busy
        status, data, ms = call(url, "POST", "/api/claims", controller, {"card_id": rnd.choice(ids)})
        assert status == 200, (status, data)
        claim_ms.append(ms)
        if data["verdict"] == "valid":
            call(url, "POST", "/api/lots/award", speaker)
            call(url, "POST", "/api/draws/resume", speaker)  # the draw waits after each award (L11a)
            awards += 1
        time.sleep(rnd.uniform(0.0, 0.15))
    time.sleep(0.3)  # the last refetches land
    cpu_ms = 1000 * (time.process_time() - cpu0)  # the server (and the two HTTP callers), every thread
    wall_s = time.perf_counter() - wall0
    stop.set()
    seen = out.get(timeout=30)
    child.join(10)
    print(summary("draw  (POST /api/draws)", draw_ms))
    print(summary("claim (POST /api/claims)", claim_ms))
    print(
        f"server process CPU {cpu_ms / len(draw_ms):.1f} ms per ball ({cpu_ms / 1000:.2f} s over {wall_s:.1f} s); "
        f"load average {open('/proc/loadavg').read().split()[0]}"
    )
    print(
        f"awards {awards}; consoles: "
        + "; ".join(f"{s['events']} events, {s['states']} states, {s['gaps']} gaps" for s in seen)
    )
    server.shutdown()


if __name__ == "__main__":
    main()
