"""The whole evening on one Pi, SD card included (issue 45 item 1): every figure measured at once.

    python bench/bench_evening.py [--phones 1000] [--link-s 60] [--balls 10] [--parties 3] [--relays 3]
                                  [--disk sd|ssd|none] [--cores 4] [--full]

Inside ``piclass --cores 4`` and ``slowdisk --profile sd``: the hall (the core, ``--relays`` relays, nginx and Redis, as
``install.sh`` sets them up for a Pi 4 with relays, ``[speech]`` on) and the kiosk's headless Chromium projector (its
processes moved into the hall's CPU cgroup once started). Outside both: ``--phones`` phones (sockets following the
balls) that link their sale's cartons (``GET /s/{code}``, then ``POST /api/players/cards``) spread over ``--link-s``
seconds before the first ball, the door selling every 10 s throughout, a controller checking a carton after each
ball, the speaker drawing every 4 s, ``--balls`` balls in each of ``--parties`` parties. ``--full``: the issue's
evening (1 000 phones over 600 s, 90 balls × 3 parties). The sales the phones link are made before the hall starts.

Prints p50/p99 of: ball → the projector's screen (a MutationObserver in the page), ball → its clip playing, ball →
the last phone, the speaker's draw acknowledged, the claim's verdict, a sale, a phone's cartons linked, and the hall's
memory (RSS of every process of the hall, from /proc).

The break (after the first partie): ``--break-phones`` phones (100) take seats at Lobo 77 tables of 6 (4 phones, 2
bots, as in bench_rooms), each phone playing a random legal move as soon as its turn comes (over its socket on the
core, as the seat's page does), for at most ``--break-s`` seconds; then the tables are closed and the loto goes on.
Printed: the break's games over, its phones' moves accepted and refused, move → every phone of the table (p50/p99),
and the hall's memory during it (in the peak).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import asyncio  # noqa: E402
import multiprocessing as mp  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

from bench.bench_crowd import http_json  # noqa: E402
from bench.bench_players import address, post  # noqa: E402
from bench.bench_rooms import Bench as RoomsBench  # noqa: E402
from bench.bench_rooms import Client as RoomsClient  # noqa: E402
from bench.bench_rooms import call  # noqa: E402
from bench.bench_voice_latency import ARGS, CHROMIUM, HEARD  # noqa: E402
from bench.crowd_hall import BenchHall, wait_answering  # noqa: E402
from bench.crowd_phones import raise_nofile, start_crowd  # noqa: E402
from bench.stats import percentile, summary  # noqa: E402
from hall.app.cli import main as cli  # noqa: E402
from hall.app.runtime import Runtime  # noqa: E402
from hall.cartons.cardbook import CardBook  # noqa: E402
from hall.cartons.planches import generate_cards  # noqa: E402
from hall.config import load_config  # noqa: E402

PINS = {"speaker_pin": "135790", "controller_pin": "246802", "desk_pin": "357913", "admin_pin": "468024"}
PER_SALE = 3
PHONES_A_TABLE = 4  # and two bots: Lobo 77 tables of 6, as bench_rooms plays them
TARGETS = {
    "ball → projector on screen": 100,
    "ball → its clip playing": 200,
    "ball → the last phone": 100,
    "the speaker's draw acknowledged": 30,
    "a claim's verdict": 100,
    "a sale at the door": 100,
    "a phone's cartons linked": 500,
}


def presell(data: Path, phones: int, spare: int) -> tuple[list[dict], list[str]]:
    """The phones' sales, made before the hall starts: each phone's link (its sale's code and cartons), and the cartons
    left for the door."""
    config = data / "pre.toml"
    config.write_text('[hall]\ndata_dir = "%s"\n' % (data / "data"))
    CardBook(dict(generate_cards(phones * PER_SALE + spare, seed=45, series="A"))).write_csv(data / "cards.csv")
    assert cli(["cards", "import", str(data / "cards.csv"), "--config", str(config)]) == 0
    rt = Runtime.open(load_config(str(config)))
    try:
        h = rt.hall
        ids = list(h.book)
        links = []
        for i in range(phones):
            cards = ids[i * PER_SALE : (i + 1) * PER_SALE]
            sale = h.sell(cards, role="desk", payment="especes", seller="Anne")
            links.append(
                {
                    "code": h.sale_code(sale.event.sale_id),
                    "cards": [{"card_id": c, "code": h.card_code(c)} for c in cards],
                }
            )
        return links, ids[phones * PER_SALE :]
    finally:
        rt.close()


def run_links(first: int, links: list[dict], port: int, spread_s: float, results: mp.Queue) -> None:
    """Phones ``first``…: each opens its sale's link, then asks for its cartons, spread over ``spread_s``."""
    raise_nofile()

    async def one(i: int, link: dict, start: float, out: list) -> None:
        await asyncio.sleep(max(0.0, start + random.random() * spread_s - time.monotonic()))
        began = time.perf_counter()
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address(i), 0))
        writer.write(f"GET /s/{link['code']} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        await reader.read()
        writer.close()
        status, ms, _ = await post(port, address(i), "/api/players/cards", {"card_ids": link["cards"]})
        out.append((status, ms, 1000 * (time.perf_counter() - began)))

    async def main() -> None:
        out: list = []
        start = time.monotonic()
        await asyncio.gather(*(one(first + k, link, start, out) for k, link in enumerate(links)))
        results.put(out)

    asyncio.run(main())


class Staff:
    """The door (a sale every 10 s), the speaker, the controller: their tokens and their timings."""

    def __init__(self, url: str, cards: list[str]):
        self.url, self.cards = url, cards
        self.token = {
            r: http_json(url + "/api/login", {"pin": PINS[f"{r}_pin"]})[1]["token"]
            for r in ("desk", "speaker", "controller")
        }
        self.ms: dict[str, list[float]] = {name: [] for name in TARGETS}
        self.sold: list[str] = []
        self.stop = threading.Event()

    def door(self) -> None:
        while not self.stop.wait(10.0) and self.cards:
            card = self.cards.pop()
            status, _, ms = http_json(
                self.url + "/api/sales", {"cards": [card], "payment": "carte"}, self.token["desk"]
            )
            self.ms["a sale at the door"].append(ms)
            if status == 201:
                self.sold.append(card)

    def draw(self, n: int) -> tuple[int, dict, float]:
        t0 = time.time()
        status, body, ms = http_json(self.url + "/api/draws", {"number": n}, self.token["speaker"])
        self.ms["the speaker's draw acknowledged"].append(ms)
        return status, body, t0

    def claim(self, rng: random.Random) -> None:
        card = rng.choice(self.sold or self.cards)
        self.ms["a claim's verdict"].append(
            http_json(self.url + "/api/claims", {"card_id": card}, self.token["controller"])[2]
        )


def games_break(url: str, speaker: str, phones: int, longest_s: float) -> str:
    """The break: ``phones`` phones at Lobo 77 tables (4 phones and 2 bots each) until every game is over or
    ``longest_s`` has passed; the tables closed after. What it measured, as a line to print."""
    bench, codes, clients = RoomsBench(url), [], []
    for t in range(-(-phones // PHONES_A_TABLE)):
        status, room = call(url + "/api/games/rooms", "POST", {"game": "lobo77", "options": {"players": 6}}, speaker)
        if status != 201:
            return f"the break: table {t + 1} refused ({status} {room})"
        codes.append(room["code"])
        for i in range(min(PHONES_A_TABLE, phones - PHONES_A_TABLE * t)):
            status, seat = call(f"{url}/api/games/rooms/{room['code']}/join", "POST", {"name": f"Tel {i + 1}"})
            if status != 200 and status != 201:
                return f"the break: a seat refused ({status} {seat})"
            clients.append(RoomsClient(bench, url, room["code"], seat["token"]))
    started = time.perf_counter()
    for code in codes:
        call(f"{url}/api/games/rooms/{code}/start", "POST", {}, speaker)
    rooms: list[dict] = []
    while time.perf_counter() - started < longest_s:
        rooms = [call(f"{url}/api/games/rooms/{code}")[1] for code in codes]
        if all(r["status"] == "over" for r in rooms):
            break
        time.sleep(0.5)
    elapsed = time.perf_counter() - started
    for code in codes:
        call(f"{url}/api/games/rooms/{code}/close", "POST", {}, speaker)
    for client in clients:
        threading.Thread(target=client.sio.disconnect, daemon=True).start()
    bench.pool.shutdown(wait=True)
    tables: dict[str, list] = {}
    for client in clients:
        tables.setdefault(client.code, []).append(client)
    moves = [
        1000 * (min(t for v, t in client.arrivals if v >= version and t >= sent) - sent)
        for code, sends in bench.sent.items()
        for version, sent in sends
        for client in tables[code]
        if any(v >= version and t >= sent for v, t in client.arrivals)
    ]
    over = sum(r.get("status") == "over" for r in rooms)
    return (
        f"the break: {len(clients)} phones at {len(codes)} Lobo 77 tables, {over} games over in {elapsed:.0f} s; "
        f"{sum(len(s) for s in bench.sent.values())} moves accepted, {bench.refused} refused (stale); "
        + summary("a phone's move → every phone of its table", moves, width=0)
    )


def chromium_into(hall: BenchHall) -> int:
    """Move this bench's Chromium processes into the hall's CPU cgroup (the kiosk runs on the Pi); how many moved."""
    leaf = hall._hall_cgroup()
    if leaf is None:
        return 0
    mine, moved = os.getpid(), 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if "chrom" not in (entry / "comm").read_text() or not _descends(int(entry.name), mine):
                continue
            (leaf / "cgroup.procs").write_text(entry.name)
            moved += 1
        except OSError:
            continue
    return moved


def _descends(pid: int, ancestor: int) -> bool:
    while pid > 1:
        if pid == ancestor:
            return True
        pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    return False


def arguments() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--phones", type=int, default=300)
    ap.add_argument(
        "--link-s", type=float, default=60.0, help="the phones' arrivals spread over this (600: the issue's)"
    )
    ap.add_argument("--balls", type=int, default=10, help="balls in each partie")
    ap.add_argument("--parties", type=int, default=3)
    ap.add_argument("--relays", type=int, default=3)
    ap.add_argument("--cores", type=int, default=4, help="piclass --cores (0: none)")
    ap.add_argument("--disk", default="sd", choices=("sd", "ssd", "none"))
    ap.add_argument("--procs", type=int, default=2, help="the phones' processes")
    ap.add_argument("--full", action="store_true", help="1 000 phones over 600 s, 90 balls × 3 parties")
    ap.add_argument("--break-phones", type=int, default=100, help="phones at the break's Lobo 77 tables (0: none)")
    ap.add_argument("--break-s", type=float, default=120.0, help="the break's longest time")
    args = ap.parse_args()
    if args.full:
        args.phones, args.link_s, args.balls, args.parties = 1000, 600.0, 90, 3
    return args


def main() -> None:
    args = arguments()
    raise_nofile()
    data = Path(tempfile.mkdtemp(prefix="bench-evening-"))
    links, spare = presell(data, args.phones, 400)
    hall = BenchHall(
        data,
        PINS,
        relays=args.relays,
        piclass_cores=args.cores,
        disk="" if args.disk == "none" else args.disk,
        extra='[speech]\nenabled = true\nvoice = "fr-FR"\n'
        # the break's tables: every phone comes from 127.0.0.1 here (in a hall, each from its own address)
        f"[games]\nbot_delay_s = 0.5\ntakeover_s = 10\nmax_rooms = {max(1, -(-args.break_phones // PHONES_A_TABLE))}\n"
        f"seats_per_address = {max(2, args.break_phones)}\n",
    )
    load = os.getloadavg()[0]
    try:
        run(args, hall, links, spare, load)
    finally:
        hall.close()


def run(args: argparse.Namespace, hall: BenchHall, links: list[dict], spare: list[str], load: float) -> None:
    from playwright.sync_api import sync_playwright

    wait_answering(hall.url, step=0.2)
    time.sleep(2.0)  # the relays subscribe
    staff = Staff(hall.url, spare)
    ready, results, link_results = mp.Queue(), mp.Queue(), mp.Queue()
    sent_qs = [mp.Queue() for _ in range(args.procs)]
    stop_evt = mp.Event()
    per = args.phones // args.procs
    crowd, connected, _ = start_crowd(args.procs, per, hall.port, hall.socket_path, ready, results, stop_evt, sent_qs)
    print(f"{connected} phones connected")
    memory: list[float] = []
    door = threading.Thread(target=staff.door, daemon=True)
    door.start()
    linkers = [
        mp.Process(
            target=run_links, args=(k * per, links[k * per : (k + 1) * per], hall.port, args.link_s, link_results)
        )
        for k in range(args.procs)
    ]
    for p in linkers:
        p.start()
    linked = [row for _ in linkers for row in link_results.get(timeout=args.link_s + 600)]
    staff.ms["a phone's cartons linked"] = [ms for status, ms, _ in linked if status == 200]
    memory.append(sum(mb for _, mb in hall.rss()))
    sent: dict = {}
    shown, heard = [], []
    rng = random.Random(45)
    pause = ""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(hall.url + "/")
        moved = chromium_into(hall)
        page.wait_for_function("Number(document.body.dataset.voiceClips || 0) > 100", timeout=300_000)
        page.evaluate(HEARD)
        for partie in range(args.parties):
            http_json(hall.url + "/api/partie/start", {}, staff.token["speaker"])
            for n in rng.sample(range(1, 91), args.balls):
                tick = time.monotonic() + 4.0
                status, body, t0 = staff.draw(n)
                if status == 201:
                    sent[body["seq"]] = (t0, partie + 1, n)
                staff.claim(rng)
                try:
                    page.wait_for_function(f"'{n}' in window.__heard", timeout=3_500)
                    shown.append(page.evaluate(f"window.__shown['{n}']") - 1000 * t0)
                    heard.append(page.evaluate(f"window.__heard['{n}']") - 1000 * t0)
                except Exception:  # not heard within the 4 s: counted as missed, said below
                    pass
                memory.append(sum(mb for _, mb in hall.rss()))
                page.wait_for_timeout(max(0, 1000 * (tick - time.monotonic())))
            http_json(hall.url + "/api/partie/clear", {"force": True}, staff.token["speaker"])
            page.evaluate("window.__heard = {}; window.__shown = {}")
            if partie == 0 and args.break_phones:
                pause = games_break(hall.url, staff.token["speaker"], args.break_phones, args.break_s)
                memory.append(sum(mb for _, mb in hall.rss()))
        browser.close()
    staff.stop.set()
    time.sleep(2.0)
    stop_evt.set()
    for q in sent_qs:
        q.put(sent)
    outs = [results.get(timeout=300) for _ in crowd]
    last = [
        1000 * (max(o["draws"][seq][1] for o in outs) - t0)
        for seq, (t0, _, _) in sent.items()
        if max(o["draws"].get(seq, [0, 0.0])[1] for o in outs)
    ]
    missed = sum(connected - sum(o["draws"].get(seq, [0])[0] for o in outs) for seq in sent)
    staff.ms["ball → projector on screen"] = shown
    staff.ms["ball → its clip playing"] = heard
    staff.ms["ball → the last phone"] = last
    report(args, staff.ms, memory, load, connected, missed, len(sent), moved, linked)
    if args.break_phones:
        print(pause)


def report(
    args, ms: dict, memory: list[float], load: float, connected: int, missed: int, balls: int, moved: int, linked
) -> None:
    inside = f"piclass --cores {args.cores}" if args.cores else "no piclass"
    print(
        f"the hall (core + {args.relays} relays + nginx + Redis, [speech] on) and Chromium ({moved} processes moved "
        f"in) under {inside} + slowdisk --profile {args.disk}; {connected} phones, links over {args.link_s:.0f} s, "
        f"{args.parties} parties × {args.balls} balls every 4 s; load average {load:.2f} at start, "
        f"{os.getloadavg()[0]:.2f} at the end"
    )
    refused = sum(status != 200 for status, _, _ in linked)
    print(
        f"balls {balls}, phones' balls missed {missed}; links {len(linked)} ({refused} refused); "
        + summary("a phone's link page + cartons", [whole for _, _, whole in linked], width=0)
    )
    for name, target in TARGETS.items():
        values = ms[name]
        verdict = ("yes" if percentile(values, 99) < target else "NO") if values else "no figure"
        print(summary(name, values, width=36) + f"   p99 < {target} ms: {verdict}" if values else f"{name}: none")
    peak = max(memory, default=0.0)
    print(f"memory of every hall process: peak {peak:.0f} MB   < 500 MB: {'yes' if peak < 500 else 'NO'}")


if __name__ == "__main__":
    main()
