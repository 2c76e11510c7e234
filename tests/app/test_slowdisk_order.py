"""A ball drawn while the door's burst of sales is being flushed, on a slow card (``shared/tools/slowdisk``, a stall
now and then): the ball is journalled before the projector is shown it and before the speaker's answer, the balls
reach the projector in the order drawn, the ball does not queue behind the sales waiting for the writer, and nothing
acknowledged is lost — to a power cut (LazyFS, where it runs) or else to a SIGKILL of the whole hall.

The hall is ``loto-hall serve`` (gunicorn, gevent) with slowdisk's library preloaded, its flushes serialised on a
lock of this test's own (another bench's slowdisk on the machine does not share it); the projector is a real
Socket.IO client; the journal is read, read-only, beside the running hall. Skips, saying why, where slowdisk cannot
run (no compiler, not beside the repository).
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
import socketio

from hall.app.cli import main
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from tests.app.conftest import HallProcess, free_port, get_json
from tests.app.test_power_cut import lazymount, records, why_not

pytestmark = pytest.mark.slow

SLOWDISK = Path(__file__).resolve().parents[3] / "shared" / "tools" / "slowdisk" / "slowdisk"
PINS = {"speaker_pin": "135790", "controller_pin": "246802", "desk_pin": "357913", "admin_pin": "468024"}
SELLERS, SALES_EACH, BALLS = 12, 6, 7
FLUSH = ["--ms", "3", "--spread", "0.3", "--stall-ms", "150", "--stall-every", "40"]  # a stall in 40 flushes


def slowdisk_env(lock: Path) -> dict[str, str]:
    """The environment slowdisk gives a command (its preloaded library and figures), or a skip saying why not."""
    if not SLOWDISK.exists():
        pytest.skip(f"slowdisk is not beside the repository ({SLOWDISK})")
    if shutil.which("cc") is None:
        pytest.skip("slowdisk builds its library with a C compiler: apt-get install gcc")
    out = subprocess.run([str(SLOWDISK), *FLUSH, "--", "env", "-0"], capture_output=True, timeout=120)
    if out.returncode != 0:
        pytest.skip(f"slowdisk cannot run here: {out.stderr.decode(errors='replace')[-200:]}")
    given = dict(item.split("=", 1) for item in out.stdout.decode().split("\0") if "=" in item)
    env = {k: v for k, v in given.items() if k == "LD_PRELOAD" or k.startswith("SLOWDISK_")}
    return {**env, "SLOWDISK_LOCK": str(lock), "SLOWDISK_SEED": "45"}


class Projector:
    """A public Socket.IO client: each ball it is shown, and whether the journal held it at that moment."""

    def __init__(self, url: str, journal: Path):
        self.shown: list[tuple[int, int, bool]] = []  # (number, public seq, journalled when shown)
        self.journal = journal
        self.client = socketio.Client(reconnection=False)
        self.client.on("draw", self.on_draw)
        self.client.connect(url, transports=["websocket"], wait_timeout=10)

    def on_draw(self, data: dict) -> None:
        drawn = {event.number for _, kind, event, _ in records(self.journal) if kind == "draw:ball_drawn"}
        self.shown.append((data["number"], data["seq"], data["number"] in drawn))


class Door:
    """The sellers' threads: each sale's card, when it was asked, when answered, and the answer."""

    def __init__(self, url: str, token: str, cards: list[str]):
        self.url, self.token, self.cards = url, token, iter(cards)
        self.lock = threading.Lock()
        self.sales: list[dict] = []

    def sell(self, count: int) -> None:
        for _ in range(count):
            with self.lock:
                card = next(self.cards)
            asked = time.monotonic()
            try:
                status, answer = post(self.url, "/api/sales", self.token, {"cards": [card], "payment": "especes"})
            except (OSError, http.client.HTTPException):  # the cut: this sale had no answer
                return
            with self.lock:
                self.sales.append(
                    {
                        "card": card,
                        "asked": asked,
                        "answered": time.monotonic(),
                        "status": status,
                        "seq": answer.get("seq") if isinstance(answer, dict) else None,
                    }
                )

    def burst(self, each: int) -> list[threading.Thread]:
        threads = [threading.Thread(target=self.sell, args=(each,), daemon=True) for _ in range(SELLERS)]
        for t in threads:
            t.start()
        return threads

    def acked(self) -> list[dict]:
        with self.lock:
            return [s for s in self.sales if s["status"] == 201]


def post(url: str, path: str, token: str | None, body: dict) -> tuple[int, dict]:
    return get_json(url + path, timeout_s=30, headers={"Authorization": f"Bearer {token}"} if token else {}, data=body)


def login(url: str, role: str) -> str:
    status, answer = post(url, "/api/login", None, {"pin": PINS[f"{role}_pin"]})
    assert status == 200, answer
    return answer["token"]


def draw_during_burst(url: str, token: str, door: Door) -> list[dict]:
    """Balls 1…BALLS drawn while the sellers sell back to back, each once a few sales were answered."""
    balls = []
    for number in range(1, BALLS + 1):
        floor = len(door.acked()) + 3
        deadline = time.monotonic() + 30
        while len(door.acked()) < floor and time.monotonic() < deadline:
            time.sleep(0.01)
        asked = time.monotonic()
        status, answer = post(url, "/api/draws", token, {"number": number})
        assert status == 201, answer
        balls.append({"number": number, "asked": asked, "answered": time.monotonic(), "seq": answer["seq"]})
    return balls


def queued_ahead(ball: dict, sales: list[dict]) -> int:
    """How many sales were journalled between the last one answered before the ball was asked and the ball."""
    before = max((s["seq"] for s in sales if s["answered"] < ball["asked"]), default=0)
    return sum(before < s["seq"] < ball["seq"] for s in sales)


def lost_records(journal: Path, door: Door, balls: list[dict]) -> list:
    """Every acknowledged sale and ball that the journal does not hold at the number it was answered with."""
    by_seq = {seq: (kind, event) for seq, kind, event, _ in records(journal)}
    lost = [
        b
        for b in balls
        if by_seq.get(b["seq"], ("", None))[0] != "draw:ball_drawn" or by_seq[b["seq"]][1].number != b["number"]
    ]
    for sale in door.acked():
        kind, event = by_seq.get(sale["seq"], ("", None))
        if kind != "sales:sale_recorded" or tuple(event.card_ids) != (sale["card"],):
            lost.append(sale)
    return lost


def test_a_ball_in_a_burst_of_sales_on_a_slow_card_is_journalled_shown_and_answered_in_order(tmp_path):
    env = slowdisk_env(tmp_path / "slowdisk.lock")
    cut_reason = why_not()
    work = Path(tempfile.mkdtemp(prefix="lhslow", dir="/tmp"))  # LazyFS refuses pytest's folder names (« -o »)
    lz = None if cut_reason else lazymount().LazyMount(work)
    if lz is not None:
        lz.mount()
    data = (lz.mnt if lz else work) / "data"
    config = tmp_path / "hall.toml"
    config.write_text(
        '[hall]\ndata_dir = "%s"\n[server]\nhost = "127.0.0.1"\nlocal_port = 0\n[auth]\n%s'
        % (data, "".join(f'{k} = "{v}"\n' for k, v in PINS.items()))
    )
    book = CardBook(dict(generate_cards(2 * SELLERS * SALES_EACH + 20, seed=45, series="A")))
    book.write_csv(tmp_path / "cards.csv")
    assert main(["cards", "import", str(tmp_path / "cards.csv"), "--config", str(config)]) == 0
    port = free_port()
    hall = HallProcess(tmp_path, ["--config", str(config)], port, None, env=env)
    projector = None
    try:
        hall.wait_answering()
        speaker, desk = login(hall.url, "speaker"), login(hall.url, "desk")
        assert post(hall.url, "/api/partie/start", speaker, {})[0] == 201
        projector = Projector(hall.url, data / "journal.sqlite")
        door = Door(hall.url, desk, list(book))
        sellers = door.burst(SALES_EACH)
        balls = draw_during_burst(hall.url, speaker, door)
        for t in sellers:
            t.join(120)
        assert len(door.acked()) == SELLERS * SALES_EACH, [s for s in door.sales if s["status"] != 201]
        assert lost_records(data / "journal.sqlite", door, balls) == []
        deadline = time.monotonic() + 10
        while len(projector.shown) < BALLS and time.monotonic() < deadline:
            time.sleep(0.02)
        # shown in the order drawn, each one already journalled when the projector was shown it
        assert [n for n, _, _ in projector.shown] == [b["number"] for b in balls], projector.shown
        assert all(journalled for _, _, journalled in projector.shown), projector.shown
        assert [s for _, s, _ in projector.shown] == sorted(s for _, s, _ in projector.shown)
        # the balls' records in the order drawn; each ball ahead of sales that were waiting when it was asked
        assert [b["seq"] for b in balls] == sorted(b["seq"] for b in balls)
        # (measured: the ball first, 1–2 sales between; with a plain lock, 6–10 of the 12 sellers' queue)
        ahead = sorted(queued_ahead(b, door.acked()) for b in balls)
        assert ahead[len(ahead) // 2] <= 3, f"a ball queued behind the sales waiting for the writer: {ahead}"

        # the power goes (or, without LazyFS, the hall is killed) while a second burst is being flushed
        second = door.burst(SALES_EACH)
        floor = len(door.acked()) + SELLERS
        while len(door.acked()) < floor and any(t.is_alive() for t in second):
            time.sleep(0.01)
        os.killpg(hall.proc.pid, signal.SIGSTOP)
        if lz is not None:
            lz.clear_cache()
        hall.kill_all()
        for t in second:
            t.join(60)
        if lz is not None:
            lz.unmount()
            lz.mount()
        hall.close()
        hall = HallProcess(tmp_path, ["--config", str(config)], port, None, env=env)
        hall.wait_answering()
        assert lost_records(data / "journal.sqlite", door, balls) == [], (
            f"acknowledged and lost ({cut_reason or 'cut'})"
        )
        assert hall.state()["draws"] == [b["number"] for b in balls]
    finally:
        if projector is not None:
            projector.client.disconnect()
        hall.close()
        if lz is not None:
            lz.unmount()
        shutil.rmtree(work, ignore_errors=True)
