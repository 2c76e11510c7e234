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
    page.fill("#card-id", A1.replace("-", "").lower())           # as a phone types it
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
    page.click("#verdict-suggestions button")                    # one tap checks the real carton
    expect(page.locator("#verdict-card")).to_have_text(shown)
    expect(verdict).to_have_class(re.compile(r"\bbad\b"))         # A3 is a false claim
