"""Every page at the sizes people see it, with checks a person at the back of the hall would make.

Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` they are written to docs/screenshots/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from display import views
from tests.display.axe import shoot
from tests.display.conftest import A1, A2, A3, PINS, TIE_DRAWS, login_page, shown

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
MORE_DRAWS = [61, 72, 88, 3, 27, 45, 19, 33]

# the smallest visible text on the projector, in CSS pixels, and the contrast of every text against its background
TEXT_AUDIT = """() => {
  const lum = (c) => { const m = c.match(/[\\d.]+/g).map(Number); const f = (v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(m[0]) + 0.7152 * f(m[1]) + 0.0722 * f(m[2]); };
  const bgOf = (el) => { for (let e = el; e; e = e.parentElement) { const b = getComputedStyle(e).backgroundColor;
    if (b && !b.startsWith('rgba(0, 0, 0, 0)') && b !== 'transparent') return b; } return 'rgb(0, 0, 0)'; };
  let minSize = 1e9, minContrast = 1e9, worst = '';
  for (const el of document.querySelectorAll('body *')) {
    if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.opacity === '0') continue;
    const size = parseFloat(cs.fontSize);
    const a = lum(cs.color), b = lum(bgOf(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (size < minSize) minSize = size;
    if (ratio < minContrast) { minContrast = ratio; worst = el.id || el.className || el.tagName; }
  }
  return {minSize, minContrast, worst};
}"""


# the last number's cell against a drawn neighbour's, and its digits against its own cell
BOARD_CONTRAST = """() => {
  const lum = (c) => { const m = c.match(/[\\d.]+/g).map(Number); const f = (v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(m[0]) + 0.7152 * f(m[1]) + 0.0722 * f(m[2]); };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const last = getComputedStyle(document.querySelector('.cell.last'));
  const drawn = getComputedStyle(document.querySelector('.cell.drawn:not(.last)'));
  return {last_vs_drawn: ratio(last.backgroundColor, drawn.backgroundColor), digits: ratio(last.color, last.backgroundColor)};
}"""


def last_number_is_big(page) -> None:
    """The last number's digits stand at least 15 % of the projector's height whatever else is shown (a winning
    carton beside it shrank it to 11 %: short for the back rows of a 20 m hall), when a number is out."""
    last = page.locator("#last")
    if last.is_visible() and last.text_content().strip():
        height = page.viewport_size["height"]
        box = last.bounding_box()
        assert box["height"] >= 0.15 * height, (box, height)


@pytest.fixture
def shots(tmp_path):
    folder = DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)

    def shot(page, name: str) -> Path:
        page.wait_for_timeout(0)
        page.evaluate("document.getAnimations().forEach((a) => a.finish())")  # no half-faded banner
        if name.startswith("projector"):
            last_number_is_big(page)
        path = folder / f"{name}.png"
        shoot(page, str(path))
        return path

    return shot


def _game(h, draws):
    h.start_partie(role="speaker")
    for n in draws:
        h.draw(n, role="speaker")


@pytest.mark.parametrize("width,height", [(1920, 1080), (1280, 720)])
def test_projector_is_readable_from_the_back_of_the_hall(page, live, shots, width, height):
    h = live.hall
    _game(h, TIE_DRAWS[:-1] + MORE_DRAWS + [80])
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live.url + "/")
    expect(page.locator("#last")).to_have_text("80")
    ball = page.locator("#ball").bounding_box()
    assert ball["height"] >= height / 3, ball  # the last number: a third of the screen at least
    audit = page.evaluate(TEXT_AUDIT)
    print(audit)
    assert audit["minContrast"] >= 7, audit
    if width == 1920:
        assert audit["minSize"] >= 28, audit
    # the board's last number stands out from its drawn neighbours by contrast, not by a ring's hue alone
    board = page.evaluate(BOARD_CONTRAST)
    assert board["last_vs_drawn"] >= 7 and board["digits"] >= 7, board
    shots(page, f"projector-{width}x{height}")

    h.announce_claim(role="controller")
    h.check_claim(A1, role="controller")
    expect(page.locator("#banner-text")).to_have_text(f"Quine validée — carton {shown(A1)}")
    assert page.evaluate(TEXT_AUDIT)["minContrast"] >= 7
    shots(page, f"projector-{width}x{height}-valid")
    h.check_claim(A2, role="controller")
    h.award(role="speaker")
    expect(page.locator("#banner-sub")).to_contain_text("gagné par le carton", timeout=8000)
    assert page.evaluate(TEXT_AUDIT)["minContrast"] >= 7
    shots(page, f"projector-{width}x{height}-tie-break")


def test_projector_false_claim_and_between_parties(page, live, shots):
    h = live.hall
    _game(h, [1, 2, 3, 12, 22])
    page.goto(live.url + "/")
    expect(page.locator("#last")).to_have_text("22")
    h.check_claim(A3, role="controller")
    expect(page.locator("#banner-text")).to_have_text("Fausse annonce — la partie continue")
    assert page.evaluate(TEXT_AUDIT)["minContrast"] >= 7
    shots(page, "projector-1920x1080-false-claim")
    h.clear(role="speaker", force=True)
    expect(page.locator("#banner-text")).to_have_text("Démarquez !")
    shots(page, "projector-1920x1080-demarquez")
    page.evaluate("document.getElementById('banner').hidden = true")
    expect(page.locator("#between-title")).to_have_text("Prochaine partie : n° 2")
    expect(page.locator("#between-prices")).to_have_text("1 carton 3 € · 6 cartons 15 €")
    audit = page.evaluate(TEXT_AUDIT)
    assert audit["minContrast"] >= 7 and audit["minSize"] >= 28, audit
    # the journal's fingerprint after the partie, whole on the screen for the hall to photograph (issue 40)
    expect(page.locator("#journal-title")).to_have_text("Empreinte du journal après la partie 1")
    expect(page.locator("#journal-fp")).to_have_text(h.fingerprint().shown)  # the « Démarquez »'s record
    box = page.locator("#journal").bounding_box()
    assert box is not None and box["y"] + box["height"] <= page.viewport_size["height"], box
    shots(page, "projector-1920x1080-between")


@pytest.mark.parametrize("width,height", [(1280, 720), (1920, 1080)])
def test_speaker_console(page, live, shots, width, height):
    h = live.hall
    _game(h, TIE_DRAWS)
    h.set_device_status("ball_machine", "ok", code="ball_machine_ok")
    h.set_device_status("printer", "degraded", code="printer_no_paper")
    h.check_claim(A3, role="controller")
    h.check_claim(A1, role="controller")
    page.set_viewport_size({"width": width, "height": height})
    login_page(page, live.url + "/speaker", PINS["speaker_pin"])
    expect(page.locator("#pending li")).to_have_count(1)  # the console has the hall's state: keys count now
    page.keyboard.type("4")
    expect(page.locator("#entry")).to_have_text("4")
    audit = page.evaluate(TEXT_AUDIT)
    assert audit["minContrast"] >= 4.5, audit
    shots(page, f"speaker-{width}x{height}")


def test_controller_phone(page, live, shots):
    h = live.hall
    _game(h, TIE_DRAWS)
    page.set_viewport_size({"width": 360, "height": 640})
    login_page(page, live.url + "/controle", PINS["controller_pin"])
    expect(page.locator("#ctl-last")).to_have_text("Dernier numéro : 80")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shots(page, "controle-360x640")
    for card, name in ((A1, "valid"), (A3, "false-claim"), (A1, "already-checked")):
        page.fill("#card-id", card)
        page.click("#id-form button[type=submit]")
        expect(page.locator("#verdict")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.evaluate(TEXT_AUDIT)["minContrast"] >= 4.5
        shots(page, f"controle-360x640-{name}")
        page.click("#verdict-close")


def test_desk_and_admin(page, live, shots):
    h = live.hall
    _game(h, TIE_DRAWS)
    h.check_claim(A1, role="controller")
    code = views.award(h.award(role="speaker"))["vouchers"][0]
    page.set_viewport_size({"width": 360, "height": 640})
    login_page(page, live.url + "/lots", PINS["desk_pin"])
    page.fill("#code", code)
    page.click("#code-form button[type=submit]")
    expect(page.locator("#result")).to_contain_text("À remettre")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shots(page, "lots-360x640")
    page.set_viewport_size({"width": 1280, "height": 720})
    login_page(page, live.url + "/admin", PINS["admin_pin"])
    expect(page.locator("#pins")).to_contain_text(PINS["admin_pin"])
    shots(page, "admin-1280x720")


@pytest.mark.parametrize("width,height", [(1920, 1080), (1280, 720)])
def test_the_english_hall_at_the_design_sizes(browser, live, shots, width, height):
    """The same states in English (``?lang=en``): the projector with a winning carton beside the ball, the console,
    the controller's verdict, the prize desk, /admin; each audited by axe-core before its screenshot."""
    h = live.hall
    _game(h, TIE_DRAWS[:-1] + MORE_DRAWS + [80])
    opened = []

    def screen(w: int, hgt: int):
        ctx = browser.new_context(viewport={"width": w, "height": hgt}, locale="en-GB")
        opened.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        return page

    try:
        page = screen(width, height)
        page.goto(live.url + "/?lang=en")
        expect(page.locator("#last")).to_have_text("80")
        h.announce_claim(role="controller")
        h.check_claim(A1, role="controller")
        expect(page.locator("#banner-text")).to_have_text(f"One line confirmed — card {shown(A1)}")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        shots(page, f"projector-{width}x{height}-valid-en")
        if width != 1920:
            return
        page = screen(1280, 720)
        login_page(page, live.url + "/speaker?lang=en", PINS["speaker_pin"])
        expect(page.locator("#pending li")).to_have_count(1)
        shots(page, "speaker-1280x720-en")
        page = screen(360, 640)
        login_page(page, live.url + "/controle?lang=en", PINS["controller_pin"])
        page.fill("#card-id", A3)
        page.click("#id-form button[type=submit]")
        expect(page.locator("#verdict")).to_be_visible()
        shots(page, "controle-360x640-false-claim-en")
        code = views.award(h.award(role="speaker"))["vouchers"][0]
        page = screen(360, 640)
        login_page(page, live.url + "/lots?lang=en", PINS["desk_pin"])
        page.fill("#code", code)
        page.click("#code-form button[type=submit]")
        expect(page.locator("#result")).to_be_visible()
        shots(page, "lots-360x640-en")
        page = screen(1280, 720)
        login_page(page, live.url + "/admin?lang=en", PINS["admin_pin"])
        expect(page.locator("#pins")).to_contain_text("every page")
        shots(page, "admin-1280x720-en")
    finally:
        for ctx in opened:
            ctx.close()
