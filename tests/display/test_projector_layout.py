"""The projector's layout with every help the hall can switch on (issue 40): the hearing loop's sign, the flash mode,
a maxi-bingo's count of balls left, a winner's carton, a tie told with its lines — each combination at 1920×1080
and 1280×720 in Chromium, « Les cinq derniers » full (five balls and more drawn).

Checked on the named elements' bounding boxes: none covers another, each lies whole on the screen, and the last
number, the board's 90 cells and the five last balls are each the element found at their own centre (nothing
drawn over them), the ball stays round and its digits 15 % of the screen's height. The flash covers the whole screen on purpose, for flash_s: the layout is measured once it is
gone. The tallest states are kept as screenshots (with ``LOTO_SCREENSHOTS=1``, in docs/screenshots/)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from display import views
from hall.events import LotSpec
from hall.events.partie import Fallback
from tests.display.axe import shoot
from tests.display.conftest import A1, A2, LiveServer, make_room
from tests.display.test_screenshots import last_number_is_big

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = [(1920, 1080), (1280, 720)]
# A1's first row (4 13 37 52 80) is its quine; A2 is A1 with 5 for 4: with 5 drawn too, both make it on 80
QUINE = [4, 13, 37, 52, 80]
A1_REST = [9, 21, 45, 66, 84, 18, 29, 58, 74, 90]  # A1 whole: its carton plein on 90
CLAIMS = ("none", "winner", "tie")
IN_DOCS = {"projector-1920x1080-tie-maxi-loop", "projector-1280x720-winner-maxi-loop-en"}
NAMED = (
    "#partie, #lot, #next-lots, #count, #ball, #nickname, #jackpot, .previous-title, #previous li, "
    "#winners .win-card, #board, #banner, #hearing-loop"
)

LAYOUT = """(named) => {
  const W = innerWidth, H = innerHeight;
  const boxes = [];
  for (const e of document.querySelectorAll(named)) {
    const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
    if (r.width < 1 || r.height < 1 || cs.visibility === 'hidden') continue;     // not shown
    boxes.push({e, name: e.id ? '#' + e.id : e.className + ':' + [...e.parentElement.children].indexOf(e),
                l: r.left, t: r.top, r: r.right, b: r.bottom});
  }
  const problems = [];
  for (const x of boxes) {
    if (x.l < -0.5 || x.t < -0.5 || x.r > W + 0.5 || x.b > H + 0.5) problems.push(['off screen', x.name]);
    // cut by its column (overflow: hidden) is as good as covered
    const column = x.e.parentElement.closest('#left, #right, #top');
    if (column) { const c = column.getBoundingClientRect();
      if (x.l < c.left - 0.5 || x.t < c.top - 0.5 || x.r > c.right + 0.5 || x.b > c.bottom + 0.5)
        problems.push(['cut by ' + column.id, x.name]); }
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.e.contains(b.e) || b.e.contains(a.e)) continue;
    const w = Math.min(a.r, b.r) - Math.max(a.l, b.l), h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
    if (w > 0.5 && h > 0.5) problems.push(['overlap', a.name, b.name, Math.round(w), Math.round(h)]);
  }
  // what must be seen is the thing at its own centre: nothing fixed or absolute drawn over it
  const seen = (e) => { const r = e.getBoundingClientRect(); const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                        return at !== null && (at === e || e.contains(at)); };
  const must = [document.getElementById('ball'), ...document.querySelectorAll('#board .cell, #previous li, #hearing-loop')]
    .filter((e) => e.getBoundingClientRect().width >= 1);
  for (const e of must) if (!seen(e)) problems.push(['covered', e.id || e.textContent]);
  const ball = document.getElementById('ball').getBoundingClientRect();      // squeezed by its column: an ellipse
  if (Math.abs(ball.width - ball.height) > 1) problems.push(['ball not round', Math.round(ball.width), Math.round(ball.height)]);
  return {problems, shown: boxes.map((x) => x.name)};
}"""


def _lots(maxi: bool) -> list[LotSpec]:
    """A quine, then the carton plein: a maxi-bingo's (its count of balls left shown while it is played) or not."""
    if maxi:
        plein = LotSpec("carton_plein", "Bon d'achat 500 €", within=40, fallback=Fallback("Jambon"))
    else:
        plein = LotSpec("carton_plein", "Bon d'achat 100 €")
    return [LotSpec("quine", "Panier garni"), plein]


def _play(room, claim: str) -> None:
    """The partie as the hall plays it, up to the carton plein (the maxi-bingo's count on screen whatever the
    projector's version): the quine won by A1 and given, then two balls (``none``); A1's carton plein checked valid
    (``winner``: its carton beside the ball); A1 and A2 both valid for the quine, the tie-break told (``tie``)."""
    h = room.hall
    for n in ([5] if claim == "tie" else []) + QUINE:
        h.draw(n, role="speaker")
    h.announce_claim(role="controller")
    assert views.verdict(h.check_claim(A1, role="controller"))["verdict"] == "valid"
    if claim == "tie":
        assert views.verdict(h.check_claim(A2, role="controller"))["verdict"] == "valid"
        h.award(role="speaker", tie_break={A1: 31, A2: 76})
        return
    h.award(role="speaker")
    h.resume(role="speaker")  # the draw waits for the speaker after an award
    for n in [61, 72] if claim == "none" else A1_REST:
        h.draw(n, role="speaker")
    if claim == "winner":
        h.announce_claim(role="controller")
        assert views.verdict(h.check_claim(A1, role="controller"))["verdict"] == "valid"


@pytest.fixture
def shots(tmp_path):
    """Where a state's screenshot goes: docs/screenshots/ for the two docs/pages.md shows (``LOTO_SCREENSHOTS=1``),
    a temporary folder for the others."""
    (tmp_path / "shots").mkdir()

    def path(name: str) -> str:
        to_docs = os.environ.get("LOTO_SCREENSHOTS") == "1" and name in IN_DOCS
        return str((DOCS if to_docs else tmp_path / "shots") / f"{name}.png")

    return path


def measure(browser, tmp_path, shots, loop, flash, maxi, claim, lang="fr"):
    """One combination of the helps, played by a real hall to the projector, measured at both sizes."""
    extra = {"hall": {"hearing_loop": loop}, "display": {"flash": flash, "flash_s": 0.5}}
    room = make_room(tmp_path, extra=extra)
    server = LiveServer(room.app)
    ctx = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]}, locale="fr-FR")
    try:
        room.hall.start_partie(_lots(maxi), role="speaker")
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(server.url + f"/?lang={lang}")
        page.wait_for_function("document.body.dataset.seq !== undefined")  # the banners are events: all of them
        _play(room, claim)
        expect(page.locator("#previous li")).to_have_count(5)
        expect(page.locator("#lot")).to_contain_text("Carton plein" if lang == "fr" else "Full house")
        expect(page.locator("#hearing-loop")).to_be_visible(visible=loop)
        expect(page.locator("#jackpot")).to_be_visible(visible=maxi)
        if claim == "winner":
            expect(page.locator("#winners .win-card")).to_have_count(1)
        if claim == "tie":
            expect(page.locator(".banner-lines li.tie-winner")).to_have_count(1)  # told: the tallest banner
            expect(page.locator("#winners .win-card")).to_have_count(2)
        if flash:
            expect(page.locator("body")).to_have_class(re.compile(r"\bflash-mode\b"))
        expect(page.locator("#flash")).to_be_hidden()
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("document.getAnimations().forEach((a) => a.finish())")
            layout = page.evaluate(LAYOUT, NAMED)
            last_number_is_big(page)
            assert not layout["problems"], f"{width}×{height}: " + "; ".join(map(str, layout["problems"]))
            if not flash and (loop or claim == "tie"):
                helps = "-".join(h for h in (claim, "maxi" * maxi, "loop" * loop) if h)
                shoot(page, shots(f"projector-{width}x{height}-{helps}" + ("-en" if lang == "en" else "")))
    finally:
        ctx.close()
        server.stop()
        room.hall.journal.close()


@pytest.mark.parametrize("claim", CLAIMS)
@pytest.mark.parametrize("maxi", [False, True], ids=["lot", "maxi"])
@pytest.mark.parametrize("flash", [False, True], ids=["", "flash"])
@pytest.mark.parametrize("loop", [False, True], ids=["", "loop"])
def test_no_help_covers_another_on_the_projector(browser, tmp_path, shots, loop, flash, maxi, claim):
    measure(browser, tmp_path, shots, loop, flash, maxi, claim)


@pytest.mark.parametrize("claim", ["winner", "tie"])
def test_the_crowded_projector_in_english(browser, tmp_path, shots, claim):
    """The fullest states in English, whose words are longer (« Hearing loop: … », « Full house »)."""
    measure(browser, tmp_path, shots, True, False, True, claim, lang="en")
