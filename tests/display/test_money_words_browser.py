"""The money's words in Chromium (issue 32, item 8): a 20 € tier refused on /admin with the law's words beside the
tiers (as soon as it is typed, and after « Enregistrer »); « Réservé, pas encore payé » on /caisse turns
« Encaisser » into « Réserver », and once the reservation is paid its banner says so; « 1 carton vendu », never
« 1 cartons vendus », in French and English. Screenshots at 1920×1080, 1280×720 and 360×640.

Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` they are written to docs/screenshots/.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from hall.cartons.card_ids import make_card_id
from tests.display.axe import shoot
from tests.display.conftest import PINS, answer, login_page
from tests.display.test_caisse_browser import desk_live, folder  # noqa: F401  (fixtures)

SIZES = {"1920x1080": (1920, 1080), "1280x720": (1280, 720), "360x640": (360, 640)}


@pytest.mark.parametrize("size", ["1280x720", "360x640"])
def test_a_tier_at_20_euros_is_refused_with_the_law_s_words_beside_the_tiers(
    browser,
    desk_live,  # noqa: F811
    folder,  # noqa: F811
    size,
):
    before = desk_live.hall.price_tiers()
    ctx = browser.new_context(viewport={"width": SIZES[size][0], "height": SIZES[size][1]}, locale="fr-FR")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    try:
        login_page(page, desk_live.url + "/admin", PINS["admin_pin"])
        price = page.locator("#tiers .tier-eur").first
        price.fill("20")  # as typed: said at once, the row in red
        msg = page.locator("#tiers-msg")
        expect(msg).to_contain_text("inférieures à 20 euros")
        expect(page.locator("#tiers tr.over-law")).to_have_count(1)
        page.click("#save-tiers")
        expect(msg).to_contain_text("Refusé : 20,00 € le carton")
        expect(msg).to_be_in_viewport()
        expect(page.locator("#admin-alert")).to_contain_text("L322-4")
        shoot(page.locator("#prices-panel"), str(folder / f"admin-{size}-tarif-20-euros-refuse.png"))
        assert desk_live.hall.price_tiers() == before  # nothing saved
        price.fill("2,50")  # corrected: the law's words go, the tiers are saved
        expect(msg).not_to_contain_text("Refusé")
        page.click("#save-tiers")
        expect(msg).to_contain_text("Tarifs enregistrés")
        assert desk_live.hall.price_tiers()[0].cents == 250
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_reservation_says_reserve_then_paid_and_one_carton_is_singular(
    browser,
    desk_live,  # noqa: F811
    folder,  # noqa: F811
    size,
    lang,
):
    ctx = browser.new_context(
        viewport={"width": SIZES[size][0], "height": SIZES[size][1]}, locale="fr-FR" if lang == "fr" else "en-GB"
    )
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    words = {
        "fr": {
            "reserve": "Réserver 1 carton — 3,00 € à payer",
            "cash": "Encaisser",
            "banner": "Réservé : 1 carton, 3,00 € à payer",
            "paid": "Réservation payée : 1 carton, 3,00 € (Espèces)",
            "none": "0 carton vendu",
            "one": "1 carton vendu",
            "to_pay": "à payer",
        },
        "en": {
            "reserve": "Reserve 1 card — €3.00 to pay",
            "cash": "Take payment",
            "banner": "Reserved: 1 card, €3.00 to pay",
            "paid": "Reservation paid: 1 card, €3.00 (Cash)",
            "none": "0 cards sold",
            "one": "1 card sold",
            "to_pay": "to pay",
        },
    }[lang]
    try:
        login_page(page, desk_live.url + f"/caisse?lang={lang}", PINS["desk_pin"])
        expect(page.locator("#totals")).to_contain_text(words["none"])
        page.fill("#cards", make_card_id("A", 1))
        page.click("#add-form button[type=submit]")
        expect(page.locator("#sell")).to_be_enabled()
        expect(page.locator("#sell")).to_contain_text(words["cash"])
        page.click("#more summary")
        page.fill("#buyer", "Łukasz Wałęsa")
        page.check("#reserved")
        expect(page.locator("#sell")).to_have_text(words["reserve"])  # no « Encaisser » for a reservation
        shoot(page, str(folder / f"caisse-{size}-{lang}-reserver.png"))
        page.click("#sell")
        result = page.locator("#result")
        expect(result).to_contain_text(words["banner"])
        page.locator("#recent button").first.click()
        answer(page, "especes")
        expect(result).to_contain_text(words["paid"])  # the banner is not stale
        expect(result).not_to_contain_text(words["to_pay"])
        expect(page.locator("#totals")).to_contain_text(words["one"])
        expect(page.locator("#recent")).not_to_contain_text("(s)")
        shoot(page, str(folder / f"caisse-{size}-{lang}-reservation-payee.png"))
    finally:
        ctx.close()
    assert desk_live.hall.sales()[0].paid and desk_live.hall.sales()[0].buyer == "Łukasz Wałęsa"


def test_admin_says_one_carton_sold(browser, desk_live, folder):  # noqa: F811
    desk_live.hall.sell([make_card_id("A", 1)], role="desk", payment="carte", seller="Anne")
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    try:
        login_page(page, desk_live.url + "/admin", PINS["admin_pin"])
        expect(page.locator("#takings")).to_contain_text("1 carton vendu")
        expect(page.locator("#takings")).not_to_contain_text("cartons vendus")
        expect(page.locator("#cards-count")).to_contain_text("dont 1 vendu")
        page.click("#takings-panel summary")
        expect(page.locator("#sales-list")).to_contain_text("1 carton · 3,00")
        shoot(page, str(folder / "admin-1920x1080-un-carton-vendu.png"))
    finally:
        ctx.close()
