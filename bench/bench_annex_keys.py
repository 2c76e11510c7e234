"""The salle annexe's push button → the main hall held, over loopback on one machine: a key press written to the
annex's key device (a real fd read by ``drivers/annex_keys.AnnexKeysReader``, as the worker wires it) → the claim
through ``display/annex.press_claim`` → the main hall (a real ``loto-hall serve --demo`` process) refusing its
next ball ``423 locked``. Between presses the speaker resumes (``/api/draws/resume``) and draws the next ball.

The annex's bound of one claim every 3 s per source is given a clock that moves 10 s per claim, so the presses
need not wait 3 s each (the bound is tested in tests/app/test_annex_keys.py).

    PYTHONPATH=. .venv/bin/python bench/bench_annex_keys.py [--presses 50]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.app.conftest import free_port
from tests.drivers.test_keypad import PipeDevice, press


def call(url: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, json.loads(resp.read() or b"{}")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q / 100 * (len(s) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--presses", type=int, default=50)
    args = ap.parse_args()
    from display.annex import ClaimGuard
    from drivers.reconnect import Backoff
    from hall.app.annex import TokenStore, annex_keys, build_annex, enrol, start_annex
    from hall.config import AnnexSection, parse_config

    folder = Path(tempfile.mkdtemp())
    port = free_port()
    main_url = f"http://127.0.0.1:{port}"
    log = open(folder / "main.log", "wb")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "hall.app", "serve", "--demo", "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen([*cmd, "--data-dir", str(folder / "main")], stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        for _ in range(300):
            try:
                if call(main_url + "/api/state")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        speaker = {"Authorization": "Bearer " + call(main_url + "/api/login", {"pin": "111111"})[1]["token"]}
        admin = {"Authorization": "Bearer " + call(main_url + "/api/login", {"pin": "999999"})[1]["token"]}
        code = call(main_url + "/api/rooms", {"room": "B"}, admin)[1]["code"]
        device = folder / "push-button-event-kbd"
        device.touch()
        section = AnnexSection(of=main_url, room="B", code=code, keypad=str(device))
        config = parse_config({"hall": {"data_dir": str(folder / "annex")}})
        app, annex = build_annex(config, section, enrol(main_url, "B", code, TokenStore(config.data_dir)))
        annex.guard = ClaimGuard(clock=itertools.count(0, 10).__next__)  # see the module's docstring
        opened: list[PipeDevice] = []
        reader = annex_keys(section, annex, opener=lambda p: opened.append(PipeDevice(p, {})) or opened[-1])
        assert reader is not None
        reader.backoff = Backoff(0.02, 0.2)
        start_annex(annex)
        reader.start()
        assert reader.connected.wait(5)
        while annex.link.judge() != "ok":
            time.sleep(0.05)
        call(main_url + "/api/partie/start", {}, speaker)
        took: list[float] = []
        for i in range(args.presses):
            ball = 1 + i % 89
            while call(main_url + "/api/draws", {"number": ball}, speaker)[0] != 201:  # room_behind: the annex acks
                time.sleep(0.005)
            while (annex.link.view() or {}).get("last") != ball:
                time.sleep(0.005)
            sent = time.monotonic()
            opened[0].send(press("KEY_ENTER", start=100.0 + 10 * i))
            while call(main_url + "/api/draws", {"number": 90}, speaker)[1].get("error") != "locked":
                if time.monotonic() - sent > 5:
                    raise SystemExit(f"press {i}: the main hall not held within 5 s")
            took.append(1000 * (time.monotonic() - sent))
            call(main_url + "/api/draws/resume", {}, speaker)
            if ball == 89:
                raise SystemExit("at most 89 presses in one partie")
        reader.stop()
        annex.link.stop()
        load = os.getloadavg()[0]
        print(
            f"push button → main held, {len(took)} presses, load {load:.1f}: p50 {pct(took, 50):.1f} ms, "
            f"p90 {pct(took, 90):.1f} ms, p99 {pct(took, 99):.1f} ms, max {max(took):.1f} ms"
        )
        return 0
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    raise SystemExit(main())
