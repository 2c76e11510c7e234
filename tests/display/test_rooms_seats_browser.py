"""The speaker frees a squatted seat from the console's « Jeux » panel (Chromium, 1280×720), and the phones
(360×640) follow at once: the freed one is told and may join again, the next one keeps its own seat.
Screenshots go to docs/screenshots/ (rooms-speaker-remove-seat*.png, rooms-phone-seat-freed.png)."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import expect

from tests.display.axe import shoot
from tests.display.conftest import PINS, answer, login_page, no_native_dialogs
from tests.display.test_rooms_browser import seat_phones

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def test_the_speaker_frees_a_seat_and_the_phones_follow(browser, hall_live):
    r = hall_live
    c = r.app.test_client()
    code = c.post(
        "/api/games/rooms", json={"game": "lobo77", "options": {"players": 4}}, headers=r.headers("speaker")
    ).get_json()["code"]
    phones = seat_phones(browser, r.url, code, ("Émile", "Zoé"))
    twice = c.post(f"/api/games/rooms/{code}/join", json={"name": "EMILE"})  # the same name typed twice: refused
    assert (twice.status_code, twice.get_json()["error"]) == (409, "name_taken")
    c.post(f"/api/games/rooms/{code}/join", json={"name": "Jules"})

    console_ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR")
    console = console_ctx.new_page()
    console.set_default_timeout(15_000)
    login_page(console, r.url + "/speaker", PINS["speaker_pin"])
    row = console.locator(".room-row")
    expect(row.locator("button.seat-remove")).to_have_count(3)
    expect(row.locator(".room-names")).to_contain_text("Émile ×, Zoé ×, Jules ×")
    SHOTS.mkdir(parents=True, exist_ok=True)
    console.locator("#rooms-panel").scroll_into_view_if_needed()  # the list itself is redrawn by each event
    shoot(console, str(SHOTS / "rooms-speaker-remove-seat.png"), animations="disabled")

    native = no_native_dialogs(console)
    console.click(f"button[data-remove='{code}:0']")
    answer(console, asked=f"Libérer la place de Émile (table {code})\u00a0?")  # asked in the page
    expect(row.locator("button.seat-remove")).to_have_count(2)
    expect(row.locator(".room-names")).to_contain_text("Zoé ×, Jules ×")
    assert native == []
    assert [s["name"] for s in c.get(f"/api/games/rooms/{code}").get_json()["seats"]] == ["Zoé", "Jules"]

    freed, kept = phones[0][1], phones[1][1]
    expect(freed.locator("#msg")).to_have_text(
        "L'annonceur a libéré votre place : vous suivez la partie en spectateur."
    )
    expect(freed.locator("#join-form")).to_be_visible()
    assert freed.evaluate(f"localStorage.getItem('loto-room-{code}')") is None
    shoot(freed, str(SHOTS / "rooms-phone-seat-freed.png"), animations="disabled")
    expect(kept.locator(".rp-seats li.me")).to_have_text("Zoé")
    kept.wait_for_function(f"JSON.parse(localStorage.getItem('loto-room-{code}')).seat === 0")
    assert json.loads(kept.evaluate(f"localStorage.getItem('loto-room-{code}')"))["seat"] == 0
    shoot(console, str(SHOTS / "rooms-speaker-remove-seat-2.png"), animations="disabled")
    for ctx_, _ in phones:
        ctx_.close()
    console_ctx.close()
