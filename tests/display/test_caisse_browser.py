"""/caisse in Chromium: a plaque sold at the tier's price, a double sale refused naming the carton; screenshots.

Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` they are written to docs/screenshots/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from hall.cartons.card_ids import make_card_id
from tests.display.axe import shoot
from tests.display.conftest import PINS, login_page, served, shown
from tests.display.test_sales_api import sales_room

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def desk_live(tmp_path):
    (tmp_path / "hall").mkdir()
    with served(sales_room(tmp_path / "hall")) as room:
        yield room


@pytest.fixture
def folder(tmp_path):
    out = DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else tmp_path / "shots"
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.mark.parametrize("size", [(1024, 768), (360, 640)], ids=["tablet", "phone"])
def test_the_desk_sells_a_plaque_and_refuses_a_double_sale(browser, desk_live, folder, size):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="fr-FR")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    try:
        login_page(page, desk_live.url + "/caisse", PINS["desk_pin"], name="Anne")
        expect(page.locator("#sell")).to_have_text("Ajoutez des cartons")
        expect(page.locator("#seller")).to_have_text("Vendeur : Anne")  # the logged-in desk sells
        page.fill("#cards", "A-1..A-12")
        page.click("#add-form button[type=submit]")
        expect(page.locator("#suggested")).to_contain_text("12 cartons : 25,00")
        expect(page.locator("#amount")).to_have_value("25,00")
        page.click("label:has(input[value=carte])")
        page.locator("#sell").scroll_into_view_if_needed()
        name = "caisse-tablette" if size[0] > 500 else "caisse-telephone"
        shoot(page, str(folder / f"{name}-panier.png"), full_page=False)
        expect(page.locator("#sell")).to_be_in_viewport()
        page.click("#sell")
        expect(page.locator("#result")).to_contain_text("Vendu : 12 cartons, 25,00")
        expect(page.locator("#totals")).to_contain_text("12 cartons vendus")
        expect(page.locator("#totals")).to_contain_text("Recette : 25,00")
        sale = desk_live.hall.evening.sales.sales[1]
        assert sale.payment == "carte" and sale.seller == "Anne" and sale.cents == 2500
        page.fill("#cards", f"{make_card_id('A', 12)} A-13")
        page.click("#add-form button[type=submit]")
        expect(page.locator("#amount")).to_have_value("6,00")
        # the sold carton is caught as it joins the basket, not at « Encaisser »
        expect(page.locator("#basket li.trouble")).to_contain_text(f"Déjà vendu\u00a0: {shown(make_card_id('A', 12))}")
        expect(page.locator("#sell")).to_be_disabled()
        expect(page.locator("#sell")).to_have_text("Corrigez d'abord les cartons marqués ✗")
        assert len(desk_live.hall.evening.sales.sales) == 1  # nothing sold
        shoot(page, str(folder / f"{name}-refus.png"), full_page=False)
    finally:
        ctx.close()
