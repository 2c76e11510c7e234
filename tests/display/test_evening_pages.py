"""The pages as volunteers live the evening (issue 15): the controller's near miss, the projector's winner,
undo and ties, at the sizes people see them. Screenshots: ``LOTO_SCREENSHOTS=1`` writes them to docs/screenshots/."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.display.conftest import A1, A3, PINS, TIE_DRAWS, login_page
from tests.display.test_screenshots import shots  # noqa: F401  (the fixture)


def test_the_controller_types_loosely_and_a_near_miss_is_not_a_refusal(page, live, shots):  # noqa: F811
    h = live.hall
    h.start_partie(role="speaker")
    for n in TIE_DRAWS:
        h.draw(n, role="speaker")
    page.set_viewport_size({"width": 360, "height": 640})
    login_page(page, live.url + "/controle", PINS["controller_pin"])
    expect(page.locator("#ctl-last")).to_have_text("Dernier numéro : 80")
    page.fill("#card-id", A1.replace("-", "").lower())  # as a phone types it
    page.click("#id-form button[type=submit]")
    expect(page.locator("#verdict-line")).to_have_text("Quine valide !")
    page.click("#verdict-close")
    slip = A3[:-1] + ("Z" if A3[-1] != "Z" else "Y")
    page.fill("#card-id", slip)
    page.click("#id-form button[type=submit]")
    verdict = page.locator("#verdict")
    expect(verdict).to_have_class(re.compile(r"\bhint\b"))
    shown = A3[:-1] + "\u00a0" + A3[-1]
    expect(page.locator("#verdict-line")).to_have_text(f"Vérifiez le numéro : {shown} ?")
    shots(page, "controle-360x640-near-miss")
    page.click("#verdict-suggestions button")  # one tap checks the real carton
    expect(page.locator("#verdict-card")).to_have_text(shown)
    expect(verdict).to_have_class(re.compile(r"\bbad\b"))  # A3 is a false claim


import pytest  # noqa: E402

from tests.display.conftest import A2, shown  # noqa: E402
from tests.display.test_screenshots import TEXT_AUDIT  # noqa: E402

# every carton ID on one line; the board never under a banner
LAYOUT_AUDIT = """() => {
  const wrapped = [...document.querySelectorAll('.id')].filter((e) => e.offsetParent && e.getClientRects().length > 1
      || (e.offsetParent && e.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(e).fontSize)))
    .map((e) => e.textContent);
  const board = document.getElementById('board').getBoundingClientRect();
  const banner = document.getElementById('banner');
  const b = banner.hidden ? null : banner.getBoundingClientRect();
  const overlap = b ? Math.max(0, Math.min(b.bottom, board.bottom) - Math.max(b.top, board.top)) : 0;
  return {wrapped, overlap, boardHeight: board.height, boardBottom: board.bottom, screen: innerHeight};
}"""


def audit(page, width: int) -> None:
    text = page.evaluate(TEXT_AUDIT)
    layout = page.evaluate(LAYOUT_AUDIT)
    assert text["minContrast"] >= 7, text
    if width == 1920:
        assert text["minSize"] >= 28, text
    assert layout["wrapped"] == [] and layout["overlap"] == 0, layout
    assert layout["boardHeight"] > 0.45 * page.viewport_size["height"], layout  # the board stays readable
    assert layout["boardBottom"] <= layout["screen"] + 1, layout  # …and whole on the screen


@pytest.mark.parametrize("width,height", [(1920, 1080), (1280, 720)])
def test_the_projector_shows_every_tied_carton_the_rule_and_an_undo(page, live, shots, width, height):  # noqa: F811
    h = live.hall
    h.start_partie(role="speaker")
    for n in [61, 72, 88, 3, 27] + TIE_DRAWS:
        h.draw(n, role="speaker")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live.url + "/")
    expect(page.locator("#last")).to_have_text("80")
    h.draw(26, role="speaker")
    expect(page.locator("#last")).to_have_text("26")
    h.undo(role="speaker")
    expect(page.locator("#banner-text")).to_have_text("26 annulé")
    expect(page.locator("#banner-sub")).to_have_text("Dernier numéro : 80")
    expect(page.locator('.cell[data-n="26"]')).not_to_have_class("drawn")
    audit(page, width)
    shots(page, f"projector-{width}x{height}-undo")
    h.announce_claim(role="controller")
    expect(page.locator("#banner-text")).to_have_text("Vérification en cours…")
    audit(page, width)
    shots(page, f"projector-{width}x{height}-checking")
    h.check_claim(A1, role="controller")
    expect(page.locator(".win-card")).to_have_count(1)
    expect(page.locator(".win-carton tr.win-row")).to_have_count(1)
    expect(page.locator(".win-carton td.last")).to_have_text("80")
    expect(page.locator(".win-carton td.lit")).to_have_count(4)
    audit(page, width)
    shots(page, f"projector-{width}x{height}-winner")
    h.check_claim(A2, role="controller")
    expect(page.locator(".win-card")).to_have_count(2)  # a tie: every valid carton
    expect(page.locator("#banner-text")).to_have_text(f"Quine : 2 cartons valides — {shown(A1)}, {shown(A2)}")
    expect(page.locator("#banner-sub")).to_contain_text("Égalité : tirage au sort, le plus petit numéro gagne")
    audit(page, width)
    shots(page, f"projector-{width}x{height}-tie")
    result = h.award(role="speaker")
    expect(page.locator("#banner-sub")).to_have_text("Tirage au sort par l'ordinateur — le plus petit numéro gagne")
    expect(page.locator("#banner-lines li")).to_have_count(2, timeout=8000)
    expect(page.locator("#banner-sub")).to_contain_text(f"gagné par le carton {shown(result.winner)}", timeout=8000)
    audit(page, width)
    shots(page, f"projector-{width}x{height}-tie-break-rule")


def test_the_projector_says_a_shared_lot(page, live):
    from tests.display.conftest import play_to_tie

    play_to_tie(live)
    page.goto(live.url + "/")  # a screen that joins during the check
    expect(page.locator(".win-card")).to_have_count(2)
    live.hall.award(role="speaker", share=True)
    expect(page.locator("#banner-text")).to_have_text(
        f"Quine — Panier garni — partagé entre les cartons {shown(A1)}, {shown(A2)}"
    )


def test_the_controller_sees_the_lot_in_play_and_a_check_in_progress(page, live):
    h = live.hall
    h.start_partie(role="speaker")
    h.draw(4, role="speaker")
    page.set_viewport_size({"width": 360, "height": 640})
    login_page(page, live.url + "/controle", PINS["controller_pin"])
    expect(page.locator("#ctl-lot")).to_have_text("Quine — Panier garni")
    expect(page.locator("#ctl-checking")).to_be_hidden()
    expect(page.locator("nav .who")).to_have_text("Rôle : contrôleur")
    h.announce_claim(role="speaker")
    expect(page.locator("#ctl-checking")).to_have_text("Vérification en cours…")
    h.resume(role="speaker")
    expect(page.locator("#ctl-checking")).to_be_hidden()


ACTIONS_VISIBLE = """(ids) => ids.map((id) => { const e = document.getElementById(id); const r = e.getBoundingClientRect();
  return [id, !e.closest('[hidden]') && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth]; })"""


def test_the_720p_console_never_hides_an_action(page, live, shots):  # noqa: F811
    from tests.display.conftest import play_to_tie

    h = live.hall
    play_to_tie(live)
    h.set_device_status("ball_machine", "ok", code="ball_machine_ok")
    h.set_device_status("printer", "degraded", code="printer_no_paper")
    h.check_claim(A3, role="controller")
    page.set_viewport_size({"width": 1280, "height": 720})
    login_page(page, live.url + "/speaker", PINS["speaker_pin"])
    expect(page.locator("#pending li")).to_have_count(2)
    seen = dict(
        page.evaluate(
            ACTIONS_VISIBLE, ["draw-button", "undo", "menu-button", "announce", "resume", "clear", "award", "check-id"]
        )
    )
    assert all(seen.values()), seen
    shots(page, "speaker-1280x720-tie")
    page.click("#award")
    expect(page.locator("#tie-dialog")).to_be_visible()
    shots(page, "speaker-1280x720-tie-choice")
    page.keyboard.press("Numpad3")  # share (1 the hall draws, 2 by hand)
    expect(page.locator("#award-result")).to_contain_text("Lot partagé")
    seen = dict(page.evaluate(ACTIONS_VISIBLE, ["award-result", "clear", "undo", "announce"]))
    assert all(seen.values()), seen
    shots(page, "speaker-1280x720-awarded")
    h.clear(role="speaker", force=True)
    expect(page.locator("#start")).to_be_visible()
    shots(page, "speaker-1280x720-between")
    seen = dict(page.evaluate(ACTIONS_VISIBLE, ["start"]))
    assert all(seen.values()), seen
