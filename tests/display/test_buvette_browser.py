"""/buvette in Chromium at a tablet's and a phone's size: big buttons, a running total, cash with the change, the
ticket recorded; axe-core finds nothing (``shoot`` audits before each screenshot); the statement on /admin.

Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` they are written to docs/screenshots/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.display.axe import shoot
from tests.display.conftest import PINS, login_page, make_room, served
from tests.display.test_buvette_api import PRODUCTS

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
pytestmark = pytest.mark.slow


@pytest.fixture
def bar_live(tmp_path):
    room = make_room(tmp_path)
    room.hall.set_buvette_products(PRODUCTS, role="admin")
    with served(room) as live:
        yield live


@pytest.fixture
def folder(tmp_path):
    out = DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else tmp_path / "shots"
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.mark.parametrize("size", [(1024, 768), (360, 640)], ids=["tablet", "phone"])
def test_the_buvette_sells_with_the_change_and_counts_the_stock_down(browser, bar_live, folder, size):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="fr-FR")
    page = ctx.new_page()
    try:
        login_page(page, bar_live.url + "/buvette", PINS["buvette_pin"], name="Paul")
        expect(page.locator("#total")).to_have_text("Touchez un produit")
        beer = page.locator("button[data-product='Bière']")
        beer.click()
        beer.click()
        page.locator("button[data-product='Café']").click()
        expect(page.locator("#total")).to_have_text("Total : 6,00 €")
        expect(beer).to_contain_text("reste 1")
        page.fill("#tendered", "10")
        expect(page.locator("#change")).to_have_text("Rendu : 4,00 €")
        name = "buvette-tablette" if size[0] > 500 else "buvette-telephone"
        shoot(page, str(folder / f"{name}.png"), full_page=size[0] > 500)
        page.locator("#sell").scroll_into_view_if_needed()
        page.click("#sell")
        expect(page.locator("#result")).to_have_text("Ticket n° 1 : 6,00 € — rendez 4,00 €")
        expect(page.locator("#total")).to_have_text("Touchez un produit")
        ticket = bar_live.hall.buvette().recent[0]
        assert (ticket.ticket, ticket.total_cents, ticket.change_cents, ticket.seller) == (1, 600, 400, "Paul")
        expect(beer).to_contain_text("reste 1")
        beer.click()  # the last one: no second touch can ask for one more (the button is off)
        expect(beer).to_be_disabled()
        expect(beer).to_contain_text("épuisé")
        page.click("button[data-payment='free']")
        expect(page.locator("#cash-row")).to_be_hidden()
        page.click("#sell")
        expect(page.locator("#result")).to_contain_text("Ticket n° 2")
        assert bar_live.hall.buvette().recent[0].payment == "free"
    finally:
        ctx.close()


def test_admin_says_plainly_it_is_not_a_certified_till_and_closes_the_z(browser, bar_live):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    page = ctx.new_page()
    try:
        bar_live.hall.buvette_sell([{"product": "Café", "qty": 3}], "cash", role="buvette")
        login_page(page, bar_live.url + "/admin", PINS["admin_pin"])
        statement = page.locator("#buvette-statement")
        expect(statement).to_contain_text("hors TVA")
        expect(statement).to_contain_text("pas un logiciel de caisse certifié (NF525)")
        expect(page.locator("#buvette-products")).to_have_value("Café ; 1,00 ; 37\nBière ; 2,50 ; 3\nCrêpe ; 1,50 ; 10")
        page.click("#buvette-close")
        expect(page.locator("#buvette-msg")).to_have_text("Z n° 1 : 3,00 € de recette")
        assert bar_live.hall.buvette().closes[0].by_payment[0] == ("cash", 300)
    finally:
        ctx.close()


def test_admin_counts_the_stock_at_the_close_and_the_gap_is_journalled(browser, bar_live, folder):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    page = ctx.new_page()
    try:
        bar_live.hall.buvette_sell(
            [{"product": "Café", "qty": 3}, {"product": "Bière", "qty": 1}], "cash", role="buvette"
        )
        login_page(page, bar_live.url + "/admin", PINS["admin_pin"])
        rows = page.locator("#buvette-count tbody tr")
        expect(rows).to_have_count(3)
        expect(rows.nth(0)).to_contain_text("Café")
        expect(rows.nth(0).locator("td").nth(0)).to_have_text("37")  # 40 − 3 sold: the stock expected
        coffee = page.get_by_label("Compté : Café")
        coffee.fill("35")
        expect(rows.nth(0).locator("td.bv-gap")).to_have_text("\u22122")
        page.get_by_label("Compté : Bière").fill("2")  # 2 expected, 2 counted
        expect(rows.nth(1).locator("td.bv-gap")).to_have_text("0")
        page.locator("#buvette-admin").scroll_into_view_if_needed()
        shoot(page.locator("#buvette-admin"), str(folder / "buvette-admin-comptage.png"))
        page.click("#buvette-close")
        expect(page.locator("#buvette-msg")).to_have_text(
            "Z n° 1 : 5,50 € de recette — écarts de stock : Café \u22122, Bière 0"
        )
        z = bar_live.hall.buvette().closes[0]
        assert z.counted == (("Café", 37, 35), ("Bière", 2, 2), ("Crêpe", 10, None))  # journalled with the Z
        expect(rows.nth(0).locator("td").nth(0)).to_have_text("35")  # the count stands as the stock
        expect(page.get_by_label("Compté : Café")).to_have_value("")
        expect(page.locator("#buvette-z li")).to_contain_text("écarts de stock : Café \u22122, Bière 0")
        account = bar_live.hall.buvette_account()
        assert [(g.product, g.units, g.cents) for g in account.stock_gaps] == [("Café", -2, -200), ("Bière", 0, 0)]
        page.get_by_label("Compté : Café").fill("-4")
        page.click("#buvette-close")
        expect(page.locator("#buvette-msg")).to_contain_text("Nombre incorrect")  # refused: no Z, the count kept
        assert len(bar_live.hall.buvette().closes) == 1
        expect(page.get_by_label("Compté : Café")).to_have_value("-4")
    finally:
        ctx.close()
