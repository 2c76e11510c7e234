"""/admin in Chromium (1280×800): the takings live, a sale voided, the programme edited drives the next partie, PINs.

Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` they are written to docs/screenshots/.
"""

from __future__ import annotations

from playwright.sync_api import expect

from hall.cartons.card_ids import make_card_id
from hall.cartons.sales import expand_ranges
from tests.display.axe import shoot
from tests.display.conftest import PINS, answer, login_page, no_native_dialogs
from tests.display.test_caisse_browser import desk_live, folder  # noqa: F401  (fixtures)


def test_admin_sees_the_takings_voids_a_sale_and_edits_the_programme(browser, desk_live, folder):  # noqa: F811
    h = desk_live.hall
    h.sell(expand_ranges("A-1..A-12", 100), role="desk", payment="carte", seller="Anne")
    h.sell(expand_ranges("A-13..A-18", 100), role="desk", payment="especes", seller="Marc")
    h.sell([make_card_id("A", 19)], role="desk", payment="cheque", buyer="Mme Roux", paid=False)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    try:
        login_page(page, desk_live.url + "/admin", PINS["admin_pin"])
        expect(page.locator("#takings")).to_contain_text("18 cartons vendus")
        expect(page.locator("#takings")).to_contain_text("40,00 €")
        expect(page.locator("#takings")).to_contain_text("Anne 25,00 €")
        expect(page.locator(".programme-editor .partie")).not_to_have_count(0)
        shoot(page, str(folder / "admin-recette.png"))
        # the programme: first partie's first lot becomes a bike worth 400 € (the law caps no lot), the second cash
        first = page.locator(".programme-editor .partie").first
        first.locator(".lot input.label").nth(0).fill("Vélo de ville")
        first.locator(".lot input.value").nth(0).fill("400")
        first.locator(".lot input.sponsor").nth(0).fill("Cycles Martin")
        first.locator(".lot input.label").nth(1).fill("50 € en espèces")
        expect(first.locator(".flag")).to_have_count(1)
        expect(first.locator(".flag").nth(0)).to_contain_text("argent")
        page.click("#save-programme")
        expect(page.locator("#programme-msg")).to_contain_text("à partir de la partie 1")
        shoot(page, str(folder / "admin-recette-programme.png"))
        # void the espèces sale, confirming in the page (never the browser's confirm())
        native = no_native_dialogs(page)
        page.click("#takings-panel summary")
        page.locator("#sales-list li", has_text="n° 2").locator("button").click()
        answer(page, asked="n° 2")
        expect(page.locator("#takings")).to_contain_text("12 cartons vendus")
        assert h.evening.sales.sales[2].voided and native == []
        # a bad programme: the error shows in red at the top
        first.locator(".lot input.value").nth(0).fill("quatre cents")
        page.click("#save-programme")
        expect(page.locator("#admin-alert")).to_be_visible()
        expect(page.locator("#admin-alert")).to_contain_text("Programme refusé")
        expect(page.locator("#admin-alert")).to_be_in_viewport()
        shoot(page, str(folder / "admin-erreur-en-haut.png"))
        # PIN change
        page.select_option("#pin-role", "desk")
        page.fill("#pin-new", "778899")
        page.click("#pin-form button[type=submit]")
        expect(page.locator("#pin-msg")).to_contain_text("Caisse, lots et tournoi")  # the role as people name it
        # a spreadsheet's CSV with a bad line: the refusal in red at the top of the page, with the line number
        bad = "card_id;row1;row2;row3\r\nÉ-1;1 2 3;4;5\r\n".encode("cp1252")
        page.set_input_files("#import-file", files=[{"name": "cartons.csv", "mimeType": "text/csv", "buffer": bad}])
        page.click("#import")
        expect(page.locator("#admin-alert")).to_contain_text("Fichier de cartons refusé")
        expect(page.locator("#admin-alert")).to_contain_text("ligne 2")
        expect(page.locator("#admin-alert")).to_be_in_viewport()
        shoot(page, str(folder / "admin-import-refuse.png"))
    finally:
        ctx.close()
    h.start_partie(role="speaker")
    lots = h.evening.running.lots
    assert (lots[0].label, lots[0].value_eur, lots[1].label) == ("Vélo de ville", 400.0, "50 € en espèces")
    assert desk_live.app.test_client().post("/api/login", json={"pin": "778899"}).get_json()["role"] == "desk"
