"""« Mes cartons » between parties and on a narrow phone (issue 32, item 8): the hall's name, a heading and the
language link on top; between parties the next partie and its lots, learnt from the events (no state asked again);
on a 360 px phone a marked cell's ✓ sits on its corner, never over a digit."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.display.conftest import A1

PHONE = {"width": 360, "height": 640}

# the ✓ badge's box (from its computed style) against the digits' own box, for every marked cell
CHECK_CLEAR = """() => [...document.querySelectorAll('.mc-grid td[data-marked="1"]')].map((td) => {
  const cell = td.getBoundingClientRect(), after = getComputedStyle(td, '::after');
  const top = cell.top + parseFloat(after.top), height = parseFloat(after.height);
  const range = document.createRange(); range.selectNodeContents(td);
  const digits = [...range.getClientRects()].reduce((a, r) => ({top: Math.min(a.top, r.top)}), {top: 1e9});
  const glyph = parseFloat(getComputedStyle(td).fontSize) * 0.72;        // a digit's height in its line box
  const line = range.getBoundingClientRect();
  return {n: td.textContent, badge_bottom: top + height, digits_top: line.top + (line.height - glyph) / 2,
          content: after.content};
})"""


def test_the_phone_names_the_hall_and_shows_the_next_partie_between_parties(browser, live):
    h = live.hall
    ctx = browser.new_context(viewport=PHONE, locale="fr-FR", has_touch=True, is_mobile=True)
    page = ctx.new_page()
    resyncs: list = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: resyncs.append(f) if "resync" in str(f) else None))
    try:
        page.goto(live.url + "/mes-cartons")
        expect(page.locator("h1.mc-title")).to_contain_text("Mes cartons")
        expect(page.locator(".mc-hall")).to_have_text("Salle des fêtes de Test")
        expect(page.locator(".mc-top .lang-switch")).to_have_text("English")
        expect(page.locator("#mc-next-title")).to_have_text("Prochaine partie : n°\u00a01")
        expect(page.locator("#mc-next-lots li")).to_have_text(
            ["Quine — Panier garni", "Double quine — Jambon", "Carton plein — Bon d'achat 100\u00a0€"]
        )
        h.start_partie(role="speaker")
        expect(page.locator("#mc-next")).to_be_hidden()
        h.clear(role="speaker", carry=True)  # démarquez with every lot carried
        expect(page.locator("#mc-next-title")).to_have_text("Prochaine partie : n°\u00a02")
        expect(page.locator("#mc-next-lots li").first).to_have_text("Quine — Panier garni")
        assert resyncs == []
        page.click(".mc-top .lang-switch")
        expect(page.locator("h1.mc-title")).to_contain_text("My cartons")
    finally:
        ctx.close()


def test_a_marked_cells_check_never_covers_a_digit_on_a_narrow_phone(browser, live):
    h = live.hall
    h.start_partie(role="speaker")
    for n in (4, 13, 37, 52):
        h.draw(n, role="speaker")
    ctx = browser.new_context(viewport=PHONE, locale="fr-FR", has_touch=True, is_mobile=True)
    page = ctx.new_page()
    try:
        page.goto(live.url + f"/c/{A1}?k={h.card_code(A1)}")  # the printed link, its code in it
        expect(page.locator('.mc-grid td[data-marked="1"]')).to_have_count(4)
        cells = page.evaluate(CHECK_CLEAR)
        assert {c["n"] for c in cells} == {"4", "13", "37", "52"}
        for c in cells:
            assert c["content"] == '"✓"'
            assert c["badge_bottom"] <= c["digits_top"] + 0.5, c
    finally:
        ctx.close()
