"""/caisse in Chromium: a plaque sold at the tier's price, a double sale refused naming the carton; screenshots.

Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` they are written to docs/screenshots/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import zxingcpp
from playwright.sync_api import expect

from hall.cartons.card_ids import make_card_id
from tests.display.axe import shoot
from tests.display.conftest import PINS, answer, login_page, served, shown
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


PAID = {
    "fr": ("Réservation payée : 6 cartons, 15,00 € (Espèces)", "Vente n° {} · Mme Roux"),
    "en": ("Reservation paid: 6 cards, €15.00 (Cash)", "Sale no. {} · Mme Roux"),
}


@pytest.mark.parametrize(("size", "lang"), [((1024, 768), "fr"), ((360, 640), "en")], ids=["tablet-fr", "phone-en"])
def test_a_reservation_paid_shows_its_own_buyers_sale_and_qr_code(browser, desk_live, folder, size, lang):
    """A pré-vente reserved for Mme Roux, a plaque sold at once to the next buyer (his QR code on the banner), then
    Mme Roux pays at the desk: the banner is hers — her sale, her name, the QR code of her cartons, never his."""
    from PIL import Image

    h = desk_live.hall
    reserved = h.sell(
        [make_card_id("A", n) for n in range(1, 7)], role="desk", payment="cheque", paid=False, buyer="Mme Roux"
    ).event.sale_id
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="fr-FR")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    try:
        login_page(page, desk_live.url + f"/caisse?lang={lang}", PINS["desk_pin"], name="Anne")
        page.fill("#cards", "A-7..A-12")
        page.click("#add-form button[type=submit]")
        expect(page.locator("#amount")).to_have_value("15,00" if lang == "fr" else "15.00")
        page.click("#more summary")
        page.fill("#buyer", "M. Petit")
        page.click("#sell")
        result, qr = page.locator("#result"), page.locator("#result .sale-qr img")
        expect(result).to_contain_text("M. Petit")
        expect(qr).to_have_attribute("data-link", f"/s/{h.sale_code(reserved + 1)}")  # his, for now
        page.locator("#recent li.reserved button").click()
        answer(page, "especes", asked=f"{reserved}")
        expect(result).to_contain_text(PAID[lang][0])
        expect(result).to_contain_text(PAID[lang][1].format(reserved))
        expect(result).not_to_contain_text("M. Petit")
        expect(qr).to_have_attribute("data-link", f"/s/{h.sale_code(reserved)}")
        page.wait_for_function("document.querySelector('#result .sale-qr img').complete")
        qr.screenshot(path=str(folder / "qr.png"))
        decoded = [r.text for r in zxingcpp.read_barcodes(Image.open(folder / "qr.png"))]
        assert decoded == [desk_live.config.hall_link(f"s/{h.sale_code(reserved)}")]
        shoot(page, str(folder / f"caisse-{size[0]}x{size[1]}-{lang}-reservation-payee-qr.png"), full_page=False)
    finally:
        ctx.close()
    assert h.sale(reserved).paid and h.sale(reserved).payment == "especes"
