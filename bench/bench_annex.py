"""The salle annexe over a real link (issue 43): the main hall and the annex as two hosts, two network namespaces
joined by a veth pair (``tc netem`` on it), the bench driving both from the root namespace over two control pairs
of their own (no netem), so that only the main ↔ annex link is the one measured.

    sudo PYTHONPATH=. .venv/bin/python bench/bench_annex.py [--balls 100] [--partition-s 20]

Prints, for a clean link and for 100 ms delay + 5 % loss (each way): ball in the main (the speaker's POST sent) →
the draw on the annex's screen socket, p50/p99 over the balls; the annex's « Quine ! » → the main held, p99 (when the
main has rooms); then a partition of ``--partition-s``: how long until the annex says « lost », how many balls the
main drew meanwhile (without rooms on the main: it cannot know), how long after the link's return the annex's
state equals the main's, and how many balls its screen was ever given out of order. Needs root (``ip netns``).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import socketio

NS_MAIN, NS_ANNEX = "lh-bench-main", "lh-bench-annex"
MAIN_IP, ANNEX_IP = "10.77.0.1", "10.77.0.2"  # the link
CTL_MAIN, CTL_ANNEX = "10.78.0.2", "10.79.0.2"  # the bench's own ways in
PORT = 8080
SPEAKER, ADMIN = "111111", "999999"


def sh(*cmd: str, check: bool = True) -> None:
    subprocess.run(cmd, check=check, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def setup() -> None:
    teardown()
    for ns in (NS_MAIN, NS_ANNEX):
        sh("ip", "netns", "add", ns)
        sh("ip", "-n", ns, "link", "set", "lo", "up")
    sh("ip", "link", "add", "lhb-m", "type", "veth", "peer", "name", "lhb-a")
    sh("ip", "link", "set", "lhb-m", "netns", NS_MAIN)
    sh("ip", "link", "set", "lhb-a", "netns", NS_ANNEX)
    sh("ip", "-n", NS_MAIN, "addr", "add", f"{MAIN_IP}/24", "dev", "lhb-m")
    sh("ip", "-n", NS_ANNEX, "addr", "add", f"{ANNEX_IP}/24", "dev", "lhb-a")
    for ns, dev in ((NS_MAIN, "lhb-m"), (NS_ANNEX, "lhb-a")):
        sh("ip", "-n", ns, "link", "set", dev, "up")
    for ns, net, dev in ((NS_MAIN, "10.78.0", "lhc-m"), (NS_ANNEX, "10.79.0", "lhc-a")):
        sh("ip", "link", "add", dev, "type", "veth", "peer", "name", dev + "x")
        sh("ip", "link", "set", dev + "x", "netns", ns)
        sh("ip", "addr", "add", f"{net}.1/24", "dev", dev)
        sh("ip", "link", "set", dev, "up")
        sh("ip", "-n", ns, "addr", "add", f"{net}.2/24", "dev", dev + "x")
        sh("ip", "-n", ns, "link", "set", dev + "x", "up")


def teardown() -> None:
    for ns in (NS_MAIN, NS_ANNEX):
        sh("ip", "netns", "del", ns, check=False)
    for dev in ("lhc-m", "lhc-a"):
        sh("ip", "link", "del", dev, check=False)


def netem(spec: list[str]) -> None:
    """The same condition on both ends of the link (each way); [] for a clean link."""
    for ns, dev in ((NS_MAIN, "lhb-m"), (NS_ANNEX, "lhb-a")):
        sh("ip", "netns", "exec", ns, "tc", "qdisc", "del", "dev", dev, "root", check=False)
        if spec:
            sh("ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", dev, "root", "netem", *spec)


def netem_works() -> bool:
    """Whether this kernel has ``sch_netem`` (some builds have no qdisc module at all)."""
    ok = subprocess.run(
        ["ip", "netns", "exec", NS_MAIN, "tc", "qdisc", "add", "dev", "lhb-m", "root", "netem", "delay", "1ms"],
        capture_output=True,
    )
    netem([])
    return ok.returncode == 0


def cut(on: bool) -> None:
    """The cable pulled (both ends down) or plugged back."""
    for ns, dev in ((NS_MAIN, "lhb-m"), (NS_ANNEX, "lhb-a")):
        sh("ip", "-n", ns, "link", "set", dev, "down" if on else "up")


def start(ns: str, args: list[str], log_path: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"}
    cmd = ["ip", "netns", "exec", ns, sys.executable, "-m", "hall.app", "serve", "--port", str(PORT), *args]
    return subprocess.Popen(
        cmd, stdout=open(log_path, "wb"), stderr=subprocess.STDOUT, env=env, cwd=tempfile.gettempdir()
    )


def call(url: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, json.loads(resp.read() or b"{}")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")
    except OSError:
        return 0, {}


def login(pin: str) -> dict:
    """A staff token, asked on the main's own loopback (a PIN never crosses the hall's network in clear)."""
    body = json.dumps({"pin": pin})
    out = subprocess.run(
        [
            "ip",
            "netns",
            "exec",
            NS_MAIN,
            "curl",
            "-s",
            "-H",
            "Content-Type: application/json",
            "-d",
            body,
            f"http://127.0.0.1:{PORT}/api/login",
        ],
        check=True,
        capture_output=True,
    ).stdout
    return {"Authorization": "Bearer " + json.loads(out)["token"]}


def wait_answering(url: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if call(url + "/api/state")[0] == 200:
            return
        time.sleep(0.2)
    raise SystemExit(f"{url} does not answer")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


class Screen:
    """A socket on the annex, as its projector: every draw's arrival time, and any ball given out of order."""

    def __init__(self, url: str):
        self.draws: queue.Queue = queue.Queue()
        self.seq: int | None = None
        self.out_of_order = 0
        self.client = socketio.Client()
        self.client.on("*", self._any)
        self.client.connect(url, transports=["websocket"])

    def _state(self, state: dict) -> None:
        self.seq = state["seq"]

    def _any(self, name: str, data: object = None) -> None:
        if name == "state" and isinstance(data, dict):
            self._state(data)
            return
        if not isinstance(data, dict) or not isinstance(data.get("seq"), int):
            return  # a notice (the link's news, a beat)
        if self.seq is not None and data["seq"] != self.seq + 1:
            self.out_of_order += 1
        self.seq = data["seq"]
        if name == "draw":
            self.draws.put((time.monotonic(), data["number"]))


def balls_run(main: str, annex: str, speaker: dict, screen: Screen, balls: int, pause_s: float) -> list[float]:
    """``balls`` balls drawn on the main, one every ``pause_s``, over as many parties as it takes; ms each."""
    took: list[float] = []
    numbers: list[int] = []
    while len(took) < balls:
        if not numbers:
            call(main + "/api/partie/clear", {"force": True}, speaker)
            status, body = call(main + "/api/partie/start", {}, speaker)
            assert status == 201, body
            numbers = list(range(1, 91))
        n = numbers.pop(0)
        sent = time.monotonic()
        status, body = call(main + "/api/draws", {"number": n}, speaker)
        if status != 201:
            print(f"  ball {n} refused: {status} {body.get('error')}")
            continue
        try:
            at, shown = screen.draws.get(timeout=10)
        except queue.Empty:
            print(f"  ball {n} never reached the annex's screen")
            continue
        assert shown == n, (shown, n)
        took.append(1000 * (at - sent))
        time.sleep(pause_s)
    return took


def claim_run(main: str, annex: str, speaker: dict, tries: int) -> list[float] | None:
    """The annex's « Quine ! » → the main held (its next ball 423), ms each; None when the main has no rooms."""
    took = []
    for _ in range(tries):
        sent = time.monotonic()
        status, body = call(annex + "/api/room/claim", {})
        if status in (404, 503) and body.get("error") in ("not_found", "not_enrolled"):
            return None
        if status != 202:
            print(f"  claim refused: {status} {body}")
            return None
        while call(main + "/api/draws", {"number": 90}, speaker)[1].get("error") != "locked":  # not room_behind
            if time.monotonic() - sent > 5:
                break
        took.append(1000 * (time.monotonic() - sent))
        call(main + "/api/draws/resume", {}, speaker)  # the speaker lets the partie go on: no longer held
        time.sleep(3.1)  # one claim per address every 3 s
    return took


def partition(main: str, annex: str, speaker: dict, screen: Screen, seconds: float) -> dict:
    cut(True)
    since = time.monotonic()
    detected = None
    drawn = refused = 0
    reasons: dict[str, int] = {}
    number = 80
    while time.monotonic() - since < seconds:
        status, body = call(annex + "/api/state")
        if detected is None and status == 200 and body.get("annex", {}).get("link") == "lost":
            detected = time.monotonic() - since
        status, body = call(main + "/api/draws", {"number": number}, speaker)  # the speaker tries a ball
        if status == 201:
            drawn += 1
            number -= 1
        else:
            refused += 1
            reasons[body.get("error", str(status))] = reasons.get(body.get("error", str(status)), 0) + 1
        time.sleep(0.5)
    cut(False)
    back = time.monotonic()
    caught = None
    while time.monotonic() - back < 30:
        if call(annex + "/api/state")[1].get("seq") == call(main + "/api/state")[1].get("seq"):
            caught = time.monotonic() - back
            break
        time.sleep(0.05)
    return {"detected_s": detected, "drawn": drawn, "refused": refused, "reasons": reasons, "caught_up_s": caught}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--balls", type=int, default=100)
    parser.add_argument("--partition-s", type=float, default=20.0)
    parser.add_argument("--pause-s", type=float, default=0.3)
    args = parser.parse_args()
    if os.geteuid() != 0 or not shutil.which("ip"):
        print("skipped: needs root and ip netns")
        return 0
    work = tempfile.mkdtemp(prefix="lh-bench-annex-")
    procs = []
    try:
        setup()
        procs.append(start(NS_MAIN, ["--demo", "--host", "0.0.0.0", "--data-dir", work + "/main"], work + "/main.log"))
        main_url, main_link = f"http://{CTL_MAIN}:{PORT}", f"http://{MAIN_IP}:{PORT}"
        wait_answering(main_url)
        admin = login(ADMIN)
        status, body = call(main_url + "/api/rooms", {"room": "salle2"}, admin)
        code = body.get("code", "NOCODE") if status in (200, 201) else "NOCODE"
        rooms = status in (200, 201)
        annex_args = ["--annex-of", main_link, "--room", "salle2", "--code", code, "--host", "0.0.0.0"]
        procs.append(start(NS_ANNEX, [*annex_args, "--data-dir", work + "/annex"], work + "/annex.log"))
        annex_url = f"http://{CTL_ANNEX}:{PORT}"
        wait_answering(annex_url)
        speaker = login(SPEAKER)
        screen = Screen(annex_url)
        print(f"main hall with rooms: {rooms}")
        conditions = [("clean link", [])]
        if netem_works():
            conditions.append(("100 ms delay, 5 % loss", ["delay", "100ms", "loss", "5%"]))
        else:
            print("tc netem: not on this kernel (no sch_netem): the 100 ms / 5 % run is skipped")
        for label, spec in conditions:
            netem(spec)
            time.sleep(2)
            took = balls_run(main_url, annex_url, speaker, screen, args.balls, args.pause_s)
            print(
                f"{label}: ball in main → annex screen over {len(took)} balls: p50 {statistics.median(took):.0f} ms, "
                f"p99 {pct(took, 99):.0f} ms, max {max(took):.0f} ms"
            )
            claims = claim_run(main_url, annex_url, speaker, 10) if rooms else None
            print(
                f"{label}: annex claim → main held: "
                + (f"p99 {pct(claims, 99):.0f} ms over {len(claims)}" if claims else "n/a (the main has no rooms)")
            )
        netem([])
        time.sleep(2)
        result = partition(main_url, annex_url, speaker, screen, args.partition_s)
        print(
            f"partition {args.partition_s:.0f} s: lost said after {result['detected_s']:.1f} s, balls drawn meanwhile "
            f"{result['drawn']} (refused {result['refused']}: {result['reasons']}), annex caught up {result['caught_up_s']:.2f} s after "
            f"the return, balls out of order on its screen: {screen.out_of_order}"
        )
        screen.client.disconnect()
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        teardown()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
