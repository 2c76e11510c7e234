"""Why the projector keeps one media element per clip: ``play()`` → ``playing`` in Chromium, for one element whose
source changes at each ball against one element per clip (its bytes in memory, its decoder ready).

    python bench/bench_voice_element.py [--clips 30] [--idle-s 1.5]

The hall (in process, Werkzeug, [speech] enabled) renders the clips; the page fetches them as blobs, waits
``--idle-s`` (a hall waits 15–30 s between balls), then plays each for 300 ms. Prints the figures; never a test.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright

from bench.stats import summary
from tests.display.conftest import LiveServer, make_room

ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--autoplay-policy=no-user-gesture-required"]
PROBE = """async ([mode, count, idle]) => {
  const urls = [];
  for (let n = 1; n <= count; n++) { const r = await fetch('/speech/' + n + '.wav'); urls.push(URL.createObjectURL(await r.blob())); }
  const pool = mode === 'pool' ? urls.map((u) => { const a = new Audio(u); a.preload = 'auto'; document.body.append(a); return a; }) : null;
  const one = new Audio(); document.body.append(one);
  await new Promise((r) => setTimeout(r, idle));
  const out = [];
  for (let i = 0; i < count; i++) {
    const a = pool ? pool[i] : one;
    if (!pool) a.src = urls[i];
    const t0 = performance.now();
    const heard = new Promise((r) => a.addEventListener('playing', () => r(performance.now() - t0), {once: true}));
    a.play();
    out.push(await heard);
    await new Promise((r) => setTimeout(r, 300));
    a.pause();
  }
  return out;
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clips", type=int, default=30)
    parser.add_argument("--idle-s", type=float, default=1.5)
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="bench-voice-element-") as tmp:
        room = make_room(Path(tmp), extra={"speech": {"enabled": True}})
        server = LiveServer(room.app)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                for mode, name in (("one", "one element, its source changed"), ("pool", "one element per clip")):
                    page = browser.new_page()
                    page.goto(server.url + "/stats")
                    ms = page.evaluate(PROBE, [mode, args.clips, int(args.idle_s * 1000)])
                    print(f"{name}: first {ms[0]:.1f} ms")
                    print(summary(f"  play() → playing, {name}", ms, width=52, p90=True))
                    page.close()
                browser.close()
        finally:
            server.stop()
            room.hall.journal.close()


if __name__ == "__main__":
    main()
