"""Ball → first sound on the projector: the speaker's draw over HTTP to the hall's clip playing in Chromium.

    python bench/bench_voice_latency.py [--balls 40] [--piclass 4] [--voice fr-FR] [--gap-ms 600]

The real path: ``loto-hall serve`` (gunicorn + gevent, [speech] enabled) in a child process — under
``/work/shared/tools/piclass --cores N`` with ``--piclass N`` (a Pi 4's CPU; needs root) — and Debian's Chromium
outside it, as the kiosk starts it (``--autoplay-policy=no-user-gesture-required``), on the projector page.
The clock starts just before the speaker's ``POST /api/draws`` and stops at the projector's media element's
``playing`` event for that ball's clip (``performance.timeOrigin + performance.now()``: one wall clock on one
machine). Before the first ball it reports how long the hall took to render every clip at its start (espeak-ng,
under the same CPU budget) and how long the page took to fetch them. The sound card's own output latency (a few
tens of ms on the Pi's HDMI) is not in the figure. Prints the figures; never run as a test.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright

from bench.crowd_hall import BenchHall
from bench.stats import summary
from hall.app.demo import DEMO_PINS

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
]
CLIPS = 106
HEARD = """() => { window.__heard = {}; window.__shown = {}; const box = document.getElementById('voice');
  const now = () => performance.timeOrigin + performance.now();
  box.addEventListener('playing', (e) => { const c = e.target.dataset.clip; if (!(c in window.__heard)) window.__heard[c] = now(); }, true);
  const last = document.getElementById('last');
  new MutationObserver(() => { const n = last.textContent; if (n && !(n in window.__shown)) window.__shown[n] = now(); })
    .observe(last, {childList: true, characterData: true, subtree: true}); }"""


def call(url: str, method: str = "GET", body: dict | None = None, token: str = "") -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as resp:
        return json.loads(resp.read() or b"{}")


def wait_for(check, timeout_s: float, what: str) -> float:
    """Poll ``check`` until true; the seconds it took (a benchmark polls the outside world, no thread to wait on)."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout_s:
            raise SystemExit(f"timeout: {what}")
        time.sleep(0.05)
    return time.monotonic() - start


def answers(url: str) -> bool:
    try:
        call(url + "/api/state")
        return True
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--balls", type=int, default=40)
    parser.add_argument("--piclass", type=int, default=0, help="the hall on N Pi 4 cores (piclass, root)")
    parser.add_argument("--voice", default="fr-FR", choices=("fr-FR", "fr-BE", "fr-CH"))
    parser.add_argument("--gap-ms", type=int, default=600, help="between a ball heard and the next draw")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-voice-") as tmp:
        data = Path(tmp)
        hall = BenchHall(
            data, DEMO_PINS, piclass_cores=args.piclass, extra=f'[speech]\nenabled = true\nvoice = "{args.voice}"\n'
        )
        try:
            started = wait_for(lambda: answers(hall.url), 120, "the hall answering")
            cache = data / "data" / "voix" / "cache"
            rendered = wait_for(
                lambda: cache.is_dir() and len(list(cache.glob("*.wav"))) >= CLIPS, 300, "the clips rendered"
            )
            print(
                f"hall answering after {started:.2f} s; its {CLIPS} clips rendered {rendered:.2f} s later"
                f"{' (piclass, %d Pi 4 cores)' % args.piclass if args.piclass else ''}"
            )
            token = call(hall.url + "/api/login", "POST", {"pin": DEMO_PINS["speaker_pin"]})["token"]
            call(hall.url + "/api/partie/start", "POST", {}, token)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport={"width": 1920, "height": 1080})
                t0 = time.monotonic()
                page.goto(hall.url + "/")
                page.wait_for_function(f"document.body.dataset.voiceClips === '{CLIPS}'", timeout=120_000)
                print(f"projector: page and its {CLIPS} clips loaded in {time.monotonic() - t0:.2f} s")
                page.evaluate(HEARD)
                balls = random.Random(35).sample(range(1, 91), min(args.balls, 90))
                ms, shown = [], []
                for n in balls:
                    sent = time.time() * 1000
                    call(hall.url + "/api/draws", "POST", {"number": n}, token)
                    page.wait_for_function(f"'{n}' in window.__heard", timeout=10_000)
                    ms.append(page.evaluate(f"window.__heard['{n}']") - sent)
                    shown.append(page.evaluate(f"window.__shown['{n}']") - sent)
                    page.wait_for_timeout(args.gap_ms)
                browser.close()
            print(f"first ball: shown {shown[0]:.0f} ms, heard {ms[0]:.0f} ms")
            print(summary(f"ball → shown on the projector, {len(ms)} balls", shown, width=44, p90=True))
            print(summary(f"ball → first sound, {len(ms)} balls", ms, width=44, p90=True))
            print(summary("shown → first sound", [h - s for h, s in zip(ms, shown)], width=44, p90=True))
        finally:
            hall.close()


if __name__ == "__main__":
    main()
