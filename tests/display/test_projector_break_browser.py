"""The games' break on the projector (docs/rooms.md): the game's view covers the loto, and the hall holds every draw,
start and « démarquez » meanwhile — but not an undo, nor a claim, its verdict and its lot, which the hall must see.
Raised during the break, their banners are said over the game, across the top of the screen; back to the loto,
the banner takes its place above the board again.

Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` the one docs/rooms.md shows goes to docs/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.display.axe import shoot
from tests.display.conftest import A1, shown
from tests.display.test_rooms_api import open_room

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
IN_DOCS = {"projector-1920x1080-break-claim-fr"}
WORDS = {
    "fr": {
        "undone": "61 annulé",
        "checking": "Vérification en cours…",
        "valid": f"Quine validée — carton {shown(A1)}",
        "won": f"gagné par le carton {shown(A1)}",
    },
    "en": {
        "undone": "61 cancelled",
        "checking": "Checking a claim…",
        "valid": f"One line confirmed — card {shown(A1)}",
        "won": f"won by card {shown(A1)}",
    },
}
# the thing at the banner's centre is the banner (the game's view, z-index 40, is not drawn over it), and the table's
# QR code is still whole beside it, for the phones joining during the break
ON_TOP = """() => { const b = document.getElementById('banner').getBoundingClientRect();
  const at = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
  const qr = document.getElementById('gs-qr').getBoundingClientRect();
  return !!at && !!at.closest('#banner') && b.height > 0 && qr.right <= b.left; }"""


@pytest.mark.parametrize(("size", "lang"), [((1920, 1080), "fr"), ((1280, 720), "en")], ids=["1080p-fr", "720p-en"])
def test_an_undo_and_a_claim_during_the_games_break_are_said_over_the_game(browser, hall_live, tmp_path, size, lang):
    room, words = hall_live, WORDS[lang]
    h, c, speaker = room.hall, room.app.test_client(), room.headers("speaker")

    def shot(name: str) -> None:
        name = f"projector-{size[0]}x{size[1]}-break-{name}-{lang}"
        to_docs = os.environ.get("LOTO_SCREENSHOTS") == "1" and name in IN_DOCS
        shoot(page, str((DOCS if to_docs else tmp_path) / f"{name}.png"), animations="disabled")

    h.start_partie(role="speaker")
    for n in (4, 13, 37, 52, 80, 61):  # A1's quine is on 80: 61 is the ball the speaker takes back
        h.draw(n, role="speaker")
    code = open_room(c, room)
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="fr-FR")
    try:
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.goto(room.url + f"/?lang={lang}")
        page.wait_for_function("document.body.dataset.seq !== undefined")  # the banners are events: all of them
        expect(page.locator("#last")).to_have_text("61")
        assert c.post("/api/screen", json={"show": "game", "code": code}, headers=speaker).status_code == 200
        expect(page.locator("#game-screen")).to_be_visible()
        banner = page.locator("#banner")

        h.undo(role="speaker")  # an undo during the break: said over the game
        expect(banner).to_contain_text(words["undone"])
        assert page.evaluate(ON_TOP)
        shot("undo")
        h.announce_claim(role="controller")  # someone shouts « Quine ! »
        expect(page.locator("#banner-text")).to_have_text(words["checking"])
        assert page.evaluate(ON_TOP)
        assert h.check_claim(A1, role="controller").verdict == "valid"
        expect(page.locator("#banner-text")).to_have_text(words["valid"])
        assert page.evaluate(ON_TOP)
        expect(page.locator("#game-screen")).to_be_visible()  # the game stays on, under the banner
        shot("claim")
        h.award(role="speaker")
        expect(page.locator("#banner-text")).to_contain_text(words["won"])
        assert page.evaluate(ON_TOP)

        assert c.post("/api/screen", json={"show": "loto"}, headers=speaker).status_code == 200
        expect(page.locator("#game-screen")).to_be_hidden()
        expect(page.locator("#banner-text")).to_contain_text(words["won"])  # back in its place above the board
        assert page.evaluate("getComputedStyle(document.getElementById('banner')).position") == "static"
        expect(page.locator("#last")).to_have_text("80")
    finally:
        ctx.close()
