"""The projector's tombola draw (/tombola) in Chromium at a tablet's and a phone's size: each lot in order with its
winning ticket as it is drawn, who conducts the draw, axe-core with no violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.display.axe import shoot
from tests.display.conftest import make_room, served
from tests.hall.test_tombola import CONDUCTED, body


@pytest.fixture
def live(tmp_path):
    with served(make_room(tmp_path)) as room:
        yield room


@pytest.mark.parametrize("size", [(1024, 768), (360, 640)], ids=["tablet", "phone"])
def test_the_draw_on_the_projector(browser, live, tmp_path, size):
    h = live.hall
    h.prepare_tombola(body(), role="admin")
    h.sell_tombola(buyer="Mme Roux", payment="especes", tickets=[12, 13], role="desk")
    h.close_tombola_sales(role="speaker")
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="fr-FR")
    page = ctx.new_page()
    try:
        page.goto(live.url + "/tombola")
        lots = page.locator(".tombola-lots li")
        expect(lots).to_have_count(3)
        expect(lots.nth(0)).to_contain_text("à tirer")
        shoot(page, tmp_path / "before.png")
        won = h.draw_tombola(role="speaker", **CONDUCTED).event.ticket
        expect(lots.nth(0)).to_contain_text(f"billet n° {won}", timeout=8000)  # the page refreshes itself
        expect(page.locator(".tombola-who")).to_contain_text("Mme Leroy")
        expect(page.locator(".tombola-who")).to_contain_text("Mme Blanc")
        assert "Roux" not in page.content()  # the projector shows numbers, never the buyers' names
        shoot(page, tmp_path / "after.png")
    finally:
        ctx.close()
