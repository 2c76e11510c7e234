"""A ball written to the serial pty → the projector's DOM in Chromium showing it, with other Socket.IO clients connected.

    python bench/bench_projector_latency.py [--balls 200] [--clients 100] [--source pty|hall]

The real path: a pseudo-terminal, the ``BallMachineReader`` thread, ``Hall`` over a SQLite journal (fsync),
``display.create_app`` served by Werkzeug's threaded server on 127.0.0.1 (what ``socketio.run`` uses),
Debian's Chromium on the projector page, and ``--clients`` python-socketio clients on WebSocket receiving
every event. The clock starts just before the ``write`` of the ball's bytes (or the ``Hall.draw`` call with
``--source hall``) and stops when a MutationObserver in the page sees ``#last`` show the number
(``performance.timeOrigin + performance.now()``, the same wall clock on the same machine).
The other clients run in a child process (phones are other machines: they must not share the server's
GIL). One ball in flight at a time. Prints the figures; never run as a test.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import socketio
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from bench.stats import percentile
from bench.stats import summary as stats_summary
from display.app import create_app
from hall.app.demo import DEMO_PINS
from hall.app.runtime import lobby_settings, open_rooms
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.config import BallMachineSection, parse_config
from hall.door.service import Hall
from hall.record.journal import Journal

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
OBSERVE = """() => {
  window.__seen = {};
  const last = document.getElementById('last');
  new MutationObserver(() => {
    const n = last.textContent;
    if (n && !(n in window.__seen)) window.__seen[n] = performance.timeOrigin + performance.now();
  }).observe(last, {childList: true, characterData: true, subtree: true});
}"""


def summary(name: str, ms: list[float]) -> str:
    return stats_summary(name, ms, width=44, p90=True)


class Listener:
    """One python-socketio client that counts the draws it is told about and checks ``seq``."""

    def __init__(self, url: str):
        self.draws = 0
        self.disconnects = 0
        self.seq = None
        self.arrivals: dict[int, float] = {}
        self.seqs: set[int] = set()
        self.client = socketio.Client(reconnection=False)
        self.client.on("state", self._state)
        self.client.on("disconnect", self._gone)
        self.client.on("*", self._any)
        self.client.connect(url, transports=["websocket"], wait_timeout=10)

    def _state(self, state):
        self.seq = state["seq"]

    def missing_seqs(self) -> int:
        if self.seq is None or not self.seqs:
            return 0
        return len(set(range(self.seq + 1, max(self.seqs) + 1)) - self.seqs)

    def _gone(self, *args):
        self.disconnects += 1

    def _any(self, name, data=None):
        # python-engineio hands each message to its own thread, so arrival order is not observable here:
        # check that no seq is missing instead (order is checked in Chromium, whose client is in order)
        if isinstance(data, dict) and "seq" in data:
            self.seqs.add(data["seq"])
        if name == "draw":
            self.draws += 1
            self.arrivals[data["seq"]] = time.time() * 1000


def _crowd(url: str, count: int, conn) -> None:
    """In a child process (as phones are other machines): ``count`` listeners; report when told to stop."""
    logging.getLogger().setLevel(logging.ERROR)
    listeners = [Listener(url) for _ in range(count)]
    conn.send("ready")
    expected = conn.recv()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(lis.draws < expected for lis in listeners):
        time.sleep(0.05)
    latest: dict[int, float] = {}
    for lis in listeners:
        for seq, at in lis.arrivals.items():
            latest[seq] = max(latest.get(seq, 0.0), at)
    conn.send(
        {
            "connected": sum(1 for lis in listeners if lis.client.connected),
            "missed": sum(expected - lis.draws for lis in listeners),
            "gaps": sum(lis.missing_seqs() for lis in listeners),
            "disconnects": sum(lis.disconnects for lis in listeners),
            "latest": latest,
        }
    )
    os._exit(0)  # no 3 s wait per websocket close


class Crowd:
    """``count`` Socket.IO clients in another process."""

    def __init__(self, url: str, count: int):
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_crowd, args=(url, count, child), daemon=True)
        self.process.start()
        if not self.conn.poll(120) or self.conn.recv() != "ready":
            raise SystemExit("the clients did not connect")

    def report(self, expected_draws: int) -> dict:
        self.conn.send(expected_draws)
        result = self.conn.recv()
        self.process.join(5)
        return result


def open_hall(folder: Path) -> Hall:
    config = parse_config({"hall": {"name": "Banc d'essai", "data_dir": str(folder)}, "auth": dict(DEMO_PINS)})
    book = CardBook(dict(generate_cards(600, seed="bench", series="B")))
    return Hall(config, Journal(folder / "journal.sqlite"), book)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--balls", type=int, default=200)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--source", choices=("pty", "hall"), default="pty")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    folder = Path(tempfile.mkdtemp(prefix="loto-bench-projector-"))
    hall = open_hall(folder)
    hall.start_partie(role="speaker")
    config = hall.config
    app, _ = create_app(hall, config, lobby=open_rooms(config.data_dir, lobby_settings(config.games))[0])
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"

    write = None
    reader = master = None
    if args.source == "pty":
        from drivers.ball_machine import BallMachineReader
        from drivers.ball_protocol import frame

        master, slave = os.openpty()
        tty.setraw(slave)
        path = os.ttyname(slave)
        os.close(slave)
        reader = BallMachineReader(hall, BallMachineSection(port=path, debounce_s=0.0))
        reader.start()
        if not reader.connected.wait(5):
            raise SystemExit(f"the reader did not open {path}")
        write = lambda n: os.write(master, frame(n))  # noqa: E731
    else:
        write = lambda n: hall.draw(n, role="speaker", source="bench")  # noqa: E731

    t = time.perf_counter()
    crowd = Crowd(url, args.clients)
    print(
        f"{args.clients} Socket.IO clients connected in {time.perf_counter() - t:.1f} s; "
        f"python {sys.version.split()[0]}, {os.cpu_count()} CPU, source={args.source}"
    )

    latencies: list[float] = []
    rng = random.Random(7)
    drawn_total = 0
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        resyncs = []  # the projector's resync frames, read on the wire
        page.on(
            "websocket",
            lambda ws: ws.on(
                "framesent", lambda frame: resyncs.append(frame) if str(frame).startswith('42["resync"') else None
            ),
        )
        page.goto(url + "/")
        page.wait_for_selector("body[data-seq]")  # connected, the hall's state shown
        page.evaluate(OBSERVE)
        clears = 0
        bag: list[int] = []
        warmup = 10
        for i in range(args.balls + warmup):
            if not bag:
                if hall.snapshot().running and hall.snapshot().running.draws:
                    hall.clear(role="speaker", force=True)
                    clears += 1
                    hall.start_partie(role="speaker")
                    page.wait_for_function("document.getElementById('last').textContent === ''")
                    page.evaluate("window.__seen = {}")
                bag = rng.sample(range(1, 91), 90)
            n = bag.pop()
            t0 = time.time() * 1000
            write(n)
            drawn_total += 1
            seen = page.wait_for_function(f"window.__seen['{n}']", timeout=10_000).json_value()
            if i >= warmup:
                latencies.append(seen - t0)
        projector_gaps = len(resyncs) - clears  # a démarquez asks the next lots: not a gap
        browser.close()

    crowd_report = crowd.report(drawn_total)
    print(summary(f"{args.source} → projector DOM (+{args.clients} clients)", latencies))
    print(
        f"other clients: {crowd_report['connected']}/{args.clients} still connected, "
        f"{crowd_report['missed']} draws missed, {crowd_report['gaps']} seq missing; "
        f"projector: {projector_gaps} seq gaps (resyncs)"
    )
    p99 = percentile(latencies, 99)
    print(f"target p99 < 50 ms: {'met' if p99 < 50 else 'NOT met'} ({p99:.2f} ms)")
    if reader is not None:
        reader.stop()
        os.close(master)
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
