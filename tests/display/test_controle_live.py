"""/controle follows the partie from the events themselves (issue 34: the event's status applied, no refetch), and a
verdict belongs to its ball: it leaves when the next ball comes, and never covers the top bar."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.display.conftest import A1, A3, PINS, login_page


def test_the_controller_follows_award_undo_and_partie_without_a_resync(page, live):
    h = live.hall
    h.start_partie(role="speaker")
    resyncs: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: resyncs.append(f) if "resync" in str(f) else None))
    login_page(page, live.url + "/controle", PINS["controller_pin"])
    expect(page.locator("#ctl-lot")).to_have_text("Quine — Panier garni")
    for n in (4, 13, 37, 52, 80):
        h.draw(n, role="speaker")
    expect(page.locator("#ctl-last")).to_have_text("Dernier numéro : 80")
    page.fill("#card-id", A1)
    page.click("#id-form button[type=submit]")
    verdict = page.locator("#verdict")
    expect(verdict).to_be_visible()
    expect(page.locator("#ctl-checking")).to_be_visible()  # the verdict's own status: checking
    nav, box = page.locator("nav.nav").bounding_box(), verdict.bounding_box()
    assert box["y"] >= nav["y"] + nav["height"] - 1  # the top bar stays above the verdict
    h.award(role="speaker")
    expect(page.locator("#ctl-lot")).to_have_text("Double quine — Jambon")
    expect(page.locator("#ctl-checking")).to_be_hidden()
    expect(verdict).to_be_visible()  # still this ball: the verdict stays
    h.resume(role="speaker")
    h.draw(9, role="speaker")
    expect(verdict).to_be_hidden()  # a new ball: the old verdict leaves
    expect(page.locator("#ctl-last")).to_have_text("Dernier numéro : 9")
    h.undo(role="speaker")
    expect(page.locator("#ctl-last")).to_have_text("Dernier numéro : 80")
    h.announce_claim(role="controller")
    expect(page.locator("#ctl-checking")).to_be_visible()
    assert h.check_claim(A3, role="controller").verdict == "incomplete"
    h.resume(role="speaker")
    expect(page.locator("#ctl-checking")).to_be_hidden()
    h.clear(role="speaker", force=True)
    expect(page.locator("#ctl-lot")).to_be_empty()
    h.start_partie(role="speaker")
    expect(page.locator("#ctl-lot")).to_have_text("Quine")  # the next partie, from its own event
    assert resyncs == []
