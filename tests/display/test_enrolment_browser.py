"""« Ajouter une tablette » in Chromium: the admin's page shows a code and its QR code, a second browser opens the QR
code's link and lands on its role's page logged in, /admin lists it and ends it; screenshots (French and English).

Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` they are written to docs/screenshots/.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.display.axe import shoot
from tests.display.conftest import PINS, login_page

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = {"1920x1080": (1920, 1080), "1280x720": (1280, 720), "360x640": (360, 640)}


@pytest.fixture
def folder(tmp_path):
    out = DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else tmp_path / "shots"
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.mark.slow
def test_a_tablet_scans_the_admins_code_and_lands_on_its_page_logged_in(browser, live, folder):
    admin_ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    tablet_ctx = browser.new_context(viewport={"width": 360, "height": 640}, locale="fr-FR")
    try:
        admin = admin_ctx.new_page()
        login_page(admin, live.url + "/admin", PINS["admin_pin"], name="Ginette")
        admin.click("#enrol-open")
        admin.click("[data-enrol-role=controller]")
        expect(admin.locator("#enrol-code")).to_have_text(re.compile(r"^[A-Z0-9]{4}-[A-Z0-9]{4}$"))
        expect(admin.locator("#enrol-left")).to_contain_text("Valable encore")
        shoot(admin, str(folder / "ajout-tablette-1280x720.png"))
        code = admin.locator("#enrol-code").inner_text()
        tablet = tablet_ctx.new_page()
        tablet.goto(f"{live.url}/ajout#{code.replace('-', '')}")
        tablet.wait_for_url(live.url + "/controle")
        expect(tablet.locator("nav.nav")).to_be_visible()
        admin.click("#enrol-close")
        admin.reload()
        rows = admin.locator("#consoles tr")
        expect(rows).to_have_count(2)
        admin.locator("#consoles tr:not(.self) button").first.click()
        expect(admin.locator("#consoles-msg")).to_contain_text("Console terminée")
        expect(tablet.locator("#login-form")).to_be_visible()  # ended: the page shows its login by itself
    finally:
        admin_ctx.close()
        tablet_ctx.close()


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("size", list(SIZES))
def test_screenshots_of_the_door(browser, live, folder, lang, size):
    width, height = SIZES[size]
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR" if lang == "fr" else "en-GB")
    try:
        page = ctx.new_page()
        suffix = "" if lang == "fr" else "-en"
        page.goto(f"{live.url}/ajout?lang={lang}")
        shoot(page, str(folder / f"ajout-{size}{suffix}.png"))
        login_page(page, f"{live.url}/admin?lang={lang}", PINS["admin_pin"], name="Ginette")
        page.locator("#consoles-panel").scroll_into_view_if_needed()
        expect(page.locator("#consoles tr")).to_have_count(1)
        shoot(page.locator("#consoles-panel"), str(folder / f"admin-consoles-{size}{suffix}.png"))
        page.click("#enrol-open")
        page.click("[data-enrol-role=desk]")
        expect(page.locator("#enrol-offer")).to_be_visible()
        shoot(page, str(folder / f"ajout-dialogue-{size}{suffix}.png"))
    finally:
        ctx.close()
