"""A table's words on the phone (issue 32, item 8): a seat taken reads as welcome, a closed table says who closed it
and gives the phone its ways back (another table, the loto's « Mes cartons »)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.display.test_rooms_browser import phone


def test_a_closed_table_leaves_the_phone_a_way_back(browser, hall_live):
    r = hall_live
    c = r.app.test_client()
    code = c.post(
        "/api/games/rooms", json={"game": "lobo77", "options": {"players": 3}}, headers=r.headers("speaker")
    ).get_json()["code"]
    ctx, page = phone(browser)
    try:
        page.goto(f"{r.url}/j/{code}")
        page.fill("#join-name", "Zoé")
        page.press("#join-name", "Enter")
        expect(page.locator("#turn")).to_have_text("Bienvenue à la table, Zoé : la partie commence bientôt.")
        expect(page.locator("#after")).to_be_hidden()
        assert c.post(f"/api/games/rooms/{code}/close", headers=r.headers("speaker")).status_code == 200
        expect(page.locator("#turn")).to_have_text("L'animateur a fermé cette table.")
        expect(page.locator("#after a")).to_have_text(["Rejoindre une autre table", "Retour au loto : mes cartons"])
        page.click("#after a[href='/mes-cartons']")
        expect(page.locator("h1.mc-title")).to_contain_text("Mes cartons")
        page.go_back()
        page.click("#after a[href='/j']")
        expect(page.locator("#ask-code")).to_be_visible()
    finally:
        ctx.close()
