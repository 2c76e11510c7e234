"""Back after a power cut (issue 45 item 3): a whole evening's journal cut under LazyFS, the hall started again on a Pi.

    python bench/bench_restart.py [--records 20000] [--sales 1000] [--parties 12] [--no-pi] [--runs 1]
                                  [--model pi4|pi5] [--profile sd|ssd] [--no-checkpoint]

1. A data folder on a LazyFS mount (``tools/lazyfs``): cartons imported, then an evening built in this process through
   the ``Hall`` (``--sales`` sales of 1–6 cartons, ``--parties`` parties of 60 balls, the controller checking
   cartons after each ball — every record the hall writes, flushed, chained — until the journal holds
   ``--records``). The phones' links are reads, not records: they cost the restart nothing.
2. ``loto-hall serve`` on it, a few more sales and balls over HTTP, then the power cut in the middle of a sale: the
   hall frozen, LazyFS's unsynced pages dropped, the hall killed, the mount gone and mounted again.
3. The hall started again under ``piclass --model pi4 --cores 4`` and ``slowdisk --profile sd`` (``--model``,
   ``--profile``: another Pi, a USB SSD; ``--no-pi``: as it is here; ``--no-checkpoint``: the checkpoint the hall
   keeps at each partie's start removed before each restart, the whole journal replayed):
   spawn → ``GET /api/state`` answers, → a ball drawn (ready to draw), and a headless Chromium projector opened at
   that moment → its board showing every ball of the partie in play. Targets: < 10 s and < 15 s.
Also prints the start the hall kept for ``loto-hall doctor`` (``last_start.json``). Never run as a test.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import sqlite3  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.request  # noqa: E402

from bench.crowd_hall import PICLASS, unused_port, wait_answering  # noqa: E402
from hall.app.cli import main as cli  # noqa: E402
from hall.app.runtime import Runtime  # noqa: E402
from hall.cartons.cardbook import CardBook  # noqa: E402
from hall.cartons.planches import generate_cards  # noqa: E402
from hall.config import load_config  # noqa: E402
from hall.errors import HallError  # noqa: E402
from hall.refusal import Rejected  # noqa: E402

SLOWDISK = "/work/shared/tools/slowdisk/slowdisk"
CHROMIUM = "/usr/bin/chromium"
PINS = {"speaker_pin": "135790", "controller_pin": "246802", "desk_pin": "357913", "admin_pin": "468024"}


def lazymount():
    import importlib.util

    spec = importlib.util.spec_from_file_location("lazymount", ROOT / "tools" / "lazyfs" / "lazymount.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def http(url: str, data: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    body = json.dumps(data).encode() if data is not None else None
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=10) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def build_evening(config_path: Path, args: argparse.Namespace) -> int:
    """The evening written through the Hall in this process; returns the journal's records."""
    rt = Runtime.open(load_config(str(config_path)))
    h, rng = rt.hall, random.Random(45)
    try:
        unsold = list(h.book)
        rng.shuffle(unsold)
        sold: list[str] = []
        for _ in range(args.sales):
            cards = [unsold.pop() for _ in range(rng.randint(1, 6))]
            h.sell(cards, role="desk", payment=rng.choice(["especes", "carte", "cheque"]), seller="Anne")
            sold += cards
        per_ball = max(1, (args.records - h.last_seq()) // (args.parties * 60))
        for partie in range(args.parties):
            h.start_partie(role="speaker")
            for n in rng.sample(range(1, 91), 60):
                if not _draw(h, n):
                    break
                for card in rng.sample(sold, per_ball):
                    h.check_claim(card, role="controller")
            if partie < args.parties - 1:
                h.clear(role="speaker", force=True)
        return h.last_seq()
    finally:
        rt.close()


def _draw(h, n: int) -> bool:
    """A ball drawn; a lot won and held for its award is awarded first. False when the partie can go no further."""
    for _ in range(2):
        try:
            h.draw(n, role="speaker")
            return True
        except (HallError, Rejected):
            try:
                if h.evening.running is not None and h.evening.running.pending:
                    h.award(role="speaker")
                h.resume(role="speaker")  # a lot awarded holds the draws until the speaker resumes
            except (HallError, Rejected):
                return False
    return False


def spawn(config: Path, port: int, data: Path, pi: tuple[str, str] | None, log: str) -> subprocess.Popen:
    """``loto-hall serve`` on ``config``; ``pi``: (piclass's model, slowdisk's profile) to run it under."""
    serve = [sys.executable, "-m", "hall.app", "serve", "--config", str(config), "--port", str(port)]
    if pi:
        serve = [PICLASS, "--model", pi[0], "--cores", "4", "--", SLOWDISK, "--profile", pi[1], "--", *serve]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}
    out = open(data.parent / log, "wb")
    return subprocess.Popen(
        serve, env=env, cwd=data.parent, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )


def stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(30)


def cut_during_a_sale(lz, config: Path, data: Path, port: int) -> int:
    """The hall served, some sales and balls, the power cut while a sale is being written; the records acked."""
    proc = spawn(config, port, data, None, "before-cut.log")
    url = f"http://127.0.0.1:{port}"
    try:
        wait_answering(url, proc, timeout=120, step=0.02)
        desk = http(url + "/api/login", {"pin": PINS["desk_pin"]})[1]["token"]
        speaker = http(url + "/api/login", {"pin": PINS["speaker_pin"]})[1]["token"]
        state = http(url + "/api/state")[1]
        unsold = [c for c in CardBook.load(data) if c not in set()]
        acked = 0
        drawable = [n for n in range(1, 91) if n not in state["draws"]]
        for i, card in enumerate(unsold[-20:]):
            acked += http(url + "/api/sales", {"cards": [card], "payment": "especes"}, desk)[0] == 201
            if i % 4 == 0 and drawable:
                acked += http(url + "/api/draws", {"number": drawable.pop()}, speaker)[0] == 201
        os.killpg(proc.pid, signal.SIGSTOP)  # the power goes
        lz.clear_cache()
    finally:
        stop(proc)
    lz.unmount()
    lz.mount()
    return acked


def session_cpu(sid: int) -> float:
    """CPU seconds (user + system) the processes of session ``sid`` alive now have used: the hall's start as work
    done, which a loaded machine does not stretch the way it stretches the wall clock."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid:  # the session: the hall's command started it (start_new_session)
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def restart(config: Path, data: Path, port: int, pi: tuple[str, str] | None) -> dict:
    """The hall started again: seconds to its state, to a ball drawn, to the projector's full board."""
    from playwright.sync_api import sync_playwright

    url = f"http://127.0.0.1:{port}"
    began = time.monotonic()
    proc = spawn(config, port, data, pi, "restart.log")
    try:
        wait_answering(url, proc, timeout=120, step=0.02)
        out = {"state_s": time.monotonic() - began}
        speaker = http(url + "/api/login", {"pin": PINS["speaker_pin"]})[1]["token"]
        draws = http(url + "/api/state")[1]["draws"]
        number = next(n for n in range(1, 91) if n not in draws)
        status, answer = http(url + "/api/draws", {"number": number}, speaker)
        if status == 423 and answer.get("error") == "held":  # the cut came after an award: resumed first
            http(url + "/api/draws/resume", {}, speaker)
            status, answer = http(url + "/api/draws", {"number": number}, speaker)
        assert status == 201, answer
        out["draw_s"] = time.monotonic() - began
        out["cpu_s"] = session_cpu(proc.pid)
        shown = len(draws) + 1
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless"])
            page = browser.new_page(viewport={"width": 1920, "height": 1080})
            page.goto(url + "/")
            page.wait_for_function(f"document.querySelectorAll('#board .cell.drawn').length >= {shown}", timeout=60_000)
            out["board_s"] = time.monotonic() - began
            browser.close()
        deadline = time.monotonic() + 20
        while not (data / "last_start.json").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        out["kept"] = json.loads((data / "last_start.json").read_text())["ready_s"]
        out["balls"] = shown
        said = (data.parent / "restart.log").read_text(errors="replace")
        resumed = re.search(r"état repris au n° (\d+), puis (\d+) enregistrement", said)
        out["resumed"] = (
            f"from record {resumed[1]} + {resumed[2]} replayed" if resumed else "the whole journal replayed"
        )
        return out
    finally:
        stop(proc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=20_000)
    ap.add_argument("--sales", type=int, default=1000)
    ap.add_argument("--parties", type=int, default=12)
    ap.add_argument("--no-pi", action="store_true", help="restart without piclass and slowdisk")
    ap.add_argument("--runs", type=int, default=1, help="restarts after the one cut (each timed)")
    ap.add_argument("--model", default="pi4", choices=["pi4", "pi5"], help="piclass's Pi (default pi4)")
    ap.add_argument("--profile", default="sd", choices=["sd", "ssd"], help="slowdisk's storage (default sd)")
    ap.add_argument("--no-checkpoint", action="store_true", help="remove the checkpoint before each restart")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="lhrestart", dir="/tmp"))
    lz = lazymount().LazyMount(work)
    lz.mount()
    try:
        data = lz.mnt / "data"
        config = work / "hall.toml"
        config.write_text(
            '[hall]\ndata_dir = "%s"\n[server]\nhost = "127.0.0.1"\nlocal_port = 0\n[auth]\n%s'
            % (data, "".join(f'{k} = "{v}"\n' for k, v in PINS.items()))
        )
        CardBook(dict(generate_cards(args.sales * 6 + 500, seed=45, series="A"))).write_csv(work / "cards.csv")
        assert cli(["cards", "import", str(work / "cards.csv"), "--config", str(config)]) == 0
        t0 = time.monotonic()
        built = build_evening(config, args)
        print(f"journal built: {built} records in {time.monotonic() - t0:.0f} s (on LazyFS, this machine's disk)")
        port = unused_port(18000, 18749)
        acked = cut_during_a_sale(lz, config, data, port)
        db = sqlite3.connect(f"file:{data / 'journal.sqlite'}?mode=ro", uri=True)
        kept = db.execute("SELECT count(*) FROM events").fetchone()[0]
        db.close()
        print(
            f"power cut in a sale: {acked} more records acknowledged over HTTP; the journal holds {kept} after the cut"
        )
        pi = None if args.no_pi else (args.model, args.profile)
        where = (
            "as it is here" if pi is None else f"under piclass --model {pi[0]} --cores 4 + slowdisk --profile {pi[1]}"
        )
        print(f"restart {where}; load average {os.getloadavg()[0]:.2f}")
        for run in range(args.runs):
            if args.no_checkpoint:
                (data / "checkpoint.bin").unlink(missing_ok=True)
            r = restart(config, data, port, pi)
            print(
                f"  run {run + 1}: /api/state answers {r['state_s']:.2f} s, ready to draw (a ball drawn) "
                f"{r['draw_s']:.2f} s [target < 10 s], the projector's board with its {r['balls']} balls "
                f"{r['board_s']:.2f} s [target < 15 s]; kept for the doctor: {r['kept']:.2f} s; {r['resumed']}; "
                f"the hall's CPU until the ball: {r['cpu_s']:.2f} s; "
                f"load average {os.getloadavg()[0]:.2f}"
            )
    finally:
        lz.unmount()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
