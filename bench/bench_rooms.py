"""Mini-game rooms under load: 8 Lobo 77 tables at once, each with 4 phones and 30 audience clients.

    python bench/bench_rooms.py [--rooms 8] [--phones 4] [--audience 30] [--players 6]

The server is the real program (``python -m hall.app serve`` under gunicorn, ``[games] bot_delay_s = 0``) in its
own process; the clients are real python-socketio clients on WebSocket in this process. Each table has
``--players`` seats: the phones take 4, bots the rest. A phone plays a random legal move over HTTP as soon as
its ``game`` event says it is its turn. Figures:

- move → every phone and audience client of the table: from the phone's POST to the arrival of the first
  ``game`` event at or past the version the POST answered, at each of the table's clients;
- moves per second: all versions advanced over all tables (phones, bots, deals) per second of wall time;
- memory per room: the server's resident memory (arbiter + worker) grown during the run, per room, and the
  lobby's own Python allocations per started room (tracemalloc, in this process);
- a bot's move in the lobby with the public room it publishes, in this process (no sockets).
The clients reconnect and watch again as the pages do; ``takeover_s = 10`` keeps a table going if a phone's
event is lost (the product's own safety net).
Prints the figures; never run as a test.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
import urllib.error
import urllib.request
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import socketio  # noqa: E402

from bench.stats import summary  # noqa: E402


def call(url: str, method: str = "GET", data: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(
        url, method=method, headers=headers, data=json.dumps(data).encode() if data is not None else None
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and its children (gunicorn's arbiter and worker)."""
    total = 0
    pids = [pid]
    try:
        pids += [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


class Client:
    """One phone (with a seat token) or one audience screen, recording when each version arrives."""

    def __init__(self, bench: Bench, url: str, code: str, token: str | None = None):
        self.bench, self.code, self.token = bench, code, token
        self.arrivals: list[tuple[int, float]] = []
        self.played: set[int] = set()
        self.reconnects = -1
        self.sio = socketio.Client(reconnection=True, reconnection_delay=0.5)  # as the pages do
        self.sio.on("game", self.on_game)
        self.sio.on("connect", self.watch)
        self.sio.connect(url, transports=["websocket"], wait_timeout=30)

    def watch(self) -> None:
        self.reconnects += 1
        self.sio.emit("game_watch", {"code": self.code, **({"token": self.token} if self.token else {})})

    def on_game(self, event: dict) -> None:
        now = time.perf_counter()
        self.arrivals.append((event["version"], now))
        view = event.get("seat_view")
        if (
            self.token
            and view
            and view["legal"]
            and event["room"]["status"] == "playing"
            and view["version"] not in self.played
        ):
            self.played.add(view["version"])
            self.bench.pool.submit(
                self.bench.play, self.code, self.token, random.choice(view["legal"]), view["version"]
            )


class Bench:
    def __init__(self, url: str):
        self.url = url
        self.pool = ThreadPoolExecutor(max_workers=16)
        self.sent: dict[str, list[tuple[int, float]]] = defaultdict(list)  # code → (new version, sent at)
        self.lock = threading.Lock()
        self.refused = 0

    def play(self, code: str, token: str, move, version: int) -> None:
        sent = time.perf_counter()
        status, body = call(
            f"{self.url}/api/games/rooms/{code}/moves", "POST", {"move": move, "version": version}, token
        )
        with self.lock:
            if status == 200:
                self.sent[code].append((body["version"], sent))
            else:
                self.refused += 1


def lobby_memory_per_room(rooms: int = 50) -> float:
    """Python allocations of the lobby per started Lobo 77 room, mid-game (KiB)."""
    from hall.minigames.lobby import Lobby, LobbySettings

    tracemalloc.start()
    lobby = Lobby(LobbySettings(bot_delay_s=0, takeover_s=0, max_rooms=rooms + 1), rng=random.Random(1))
    base = tracemalloc.get_traced_memory()[0]
    codes = []
    for _ in range(rooms):
        code = lobby.open("lobo77", {"players": 6}).code
        for name in ("A", "B", "C", "D"):
            lobby.join(code, name)
        lobby.start(code)
        codes.append(code)
    for code in codes:
        for _ in range(60):  # the bots play every seat (a phone silent for 0 s is taken over)
            if not lobby.step(code, 0.0):
                break
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return used / rooms / 1024


def lobby_move_cost(games: int = 60) -> tuple[int, float]:
    """A bot's move in the lobby with the public room it publishes (no sockets): moves played, µs a move."""
    from hall.minigames.lobby import Lobby, LobbySettings

    moves, started = 0, time.perf_counter()
    for seed in range(games):
        lobby = Lobby(LobbySettings(bot_delay_s=0, takeover_s=0), rng=random.Random(seed))
        lobby.subscribe(lambda news: None)
        code = lobby.open("lobo77", {"players": 6}).code
        lobby.start(code)
        while lobby.step(code, 0.0):
            moves += 1
    return moves, 1e6 * (time.perf_counter() - started) / moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=8)
    parser.add_argument("--phones", type=int, default=4)
    parser.add_argument("--audience", type=int, default=30)
    parser.add_argument("--players", type=int, default=6)
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="bench-rooms-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = work / "loto-hall.toml"
    config.write_text(
        f'[hall]\ndata_dir = "{work / "data"}"\n[server]\nhost = "127.0.0.1"\nport = {port}\n'
        f"threads = 600\nmax_sockets_per_address = 2000\n"  # every client comes from 127.0.0.1
        f'[auth]\nspeaker_pin = "424242"\nadmin_pin = "999999"\ncontroller_pin = "111111"\n'
        f'desk_pin = "222222"\n[games]\nbot_delay_s = 0\ntakeover_s = 10\nmax_rooms = {args.rooms}\n'
        f"seats_per_address = 8\n",  # so does every phone (R3)
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(
        [sys.executable, "-m", "hall.app", "serve", "--config", str(config)],
        cwd=work,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if call(url + "/api/state")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        rss_start = rss_kb(server.pid)
        _, login = call(url + "/api/login", "POST", {"pin": "424242"})
        speaker = login["token"]
        bench = Bench(url)
        codes, clients = [], []
        for _ in range(args.rooms):
            _, room = call(
                url + "/api/games/rooms", "POST", {"game": "lobo77", "options": {"players": args.players}}, speaker
            )
            code = room["code"]
            codes.append(code)
            for i in range(args.phones):
                _, seat = call(f"{url}/api/games/rooms/{code}/join", "POST", {"name": f"Tel {i + 1}"})
                clients.append(Client(bench, url, code, seat["token"]))
            for _ in range(args.audience):
                clients.append(Client(bench, url, code))
        rss_connected = rss_kb(server.pid)
        started = time.perf_counter()
        for code in codes:
            call(f"{url}/api/games/rooms/{code}/start", "POST", {}, speaker)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            rooms = [call(f"{url}/api/games/rooms/{code}")[1] for code in codes]
            if all(r["status"] == "over" for r in rooms):
                break
            time.sleep(0.2)
        elapsed = time.perf_counter() - started
        rss_end = rss_kb(server.pid)
        versions = sum(r["version"] for r in rooms)
        # move → each client of the table
        by_code = defaultdict(list)
        for client in clients:
            by_code[client.code].append(client)
        latencies: list[float] = []
        missing = 0
        for code, sends in bench.sent.items():
            for version, sent in sends:
                for client in by_code[code]:
                    arrived = [t for v, t in client.arrivals if v >= version and t >= sent]
                    if arrived:
                        latencies.append(1000 * (min(arrived) - sent))
                    else:
                        missing += 1
        print(
            f"{args.rooms} rooms × ({args.phones} phones + {args.audience} audience) = {len(clients)} Socket.IO "
            f"clients; {args.players} seats a table (bots in the others), bot_delay_s = 0"
        )
        print(
            f"games over: {sum(r['status'] == 'over' for r in rooms)}/{len(rooms)} in {elapsed:.1f} s; "
            f"{versions} versions in all → {versions / elapsed:.0f} moves/s (phones, bots, deals)"
        )
        print(f"phone moves: {sum(len(s) for s in bench.sent.values())} accepted, {bench.refused} refused (stale)")
        print(summary("phone move → each client of its table", latencies, width=40, p90=True))
        print(
            f"events never received: {missing}; reconnects: {sum(c.reconnects for c in clients)}; "
            f"seats a bot took over (takeover_s = 10): "
            f"{sum(s['away'] for r in rooms for s in r['seats'])} at the end"
        )
        print(
            f"server RSS: {rss_start / 1024:.0f} MB at start, {rss_connected / 1024:.0f} MB with the rooms open "
            f"and {len(clients)} clients, {rss_end / 1024:.0f} MB at the end → "
            f"{(rss_end - rss_start) / 1024 / args.rooms:.2f} MB a room (clients' sockets included)"
        )
        print(f"lobby allocations per started Lobo 77 room (tracemalloc): {lobby_memory_per_room():.0f} KiB")
        moves, cost = lobby_move_cost()
        print(f"a bot's move in the lobby with the public room it publishes: {cost:.0f} µs ({moves} moves, no sockets)")
        for client in clients:
            threading.Thread(target=client.sio.disconnect, daemon=True).start()
        bench.pool.shutdown(wait=False)
    finally:
        os.killpg(server.pid, 9)
        server.wait(10)


if __name__ == "__main__":
    main()
