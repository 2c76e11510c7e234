"""The rooms in Debian's Chromium: the projector's QR code leads to the table, two phones at 360×640 play a whole
Lobo 77 by clicking ``data-move`` controls (bots in the other seats), one reloads and keeps its seat, the
projector names the winner; the speaker's console opens a table and puts it on screen; a full table's phone
follows as audience. Screenshots of every step go to docs/screenshots/ (looked at, kept with the docs)."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from tests.display.axe import shoot
from tests.display.conftest import PINS, login_page
from tests.display.wire import Wire

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def phone(browser):
    ctx = browser.new_context(
        viewport={"width": 360, "height": 640}, locale="fr-FR", has_touch=True, is_mobile=True, device_scale_factor=1
    )
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    return ctx, page


def seat_phones(browser, url: str, code: str, names, make=phone) -> list:
    """One 360×640 phone per name (``make(browser)``), each joined at the table ``code``: [(context, page)…]."""
    phones = []
    for name in names:
        ctx, page = make(browser)
        page.goto(f"{url}/j/{code}")
        page.fill("#join-name", name)
        page.press("#join-name", "Enter")
        expect(page.locator(".rp-seats li.me")).to_have_text(name)
        phones.append((ctx, page))
    return phones


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    shoot(page, str(SHOTS / f"rooms-{name}.png"), animations="disabled")


def room_card(card: str) -> str:
    """A card as the phone writes it (room_common.js)."""
    return {"rev": "⇄", "x2": "×2", "-10": "−10"}.get(card, card)


def decode_qr(page) -> str:
    import zxingcpp
    from PIL import Image

    image = Image.open(io.BytesIO(page.screenshot()))
    found = zxingcpp.read_barcodes(image)
    assert found, "no QR code on the projector"
    return found[0].text


def test_qr_then_two_phones_play_a_whole_lobo77(browser, hall_live):
    r = hall_live
    c = r.app.test_client()
    speaker = r.headers("speaker")
    code = c.post("/api/games/rooms", json={"game": "lobo77", "options": {"players": 4}}, headers=speaker).get_json()[
        "code"
    ]
    c.post("/api/partie/start", json={}, headers=speaker)
    c.post("/api/draws", json={"number": 42}, headers=speaker)
    loto_before = c.get("/api/state").get_json()
    assert c.post("/api/screen", json={"show": "game", "code": code}, headers=speaker).status_code == 200

    projector_ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    projector = projector_ctx.new_page()
    projector.set_default_timeout(15_000)
    projector.goto(r.url + "/")
    expect(projector.locator("#gs-code")).to_have_text(code)
    projector.wait_for_function(
        "document.getElementById('gs-qr').complete && document.getElementById('gs-qr').naturalWidth > 0"
    )
    shot(projector, "projector-1-lobby")
    url = decode_qr(projector)
    assert urlparse(url).path == f"/j/{code}" and url == r.config.hall_link(f"j/{code}")  # the hall's address
    assert "127.0.0.1" not in url and "localhost" not in url
    url = r.url + urlparse(url).path  # opened at this test's server

    phones = []
    for name in ("Émile", "Zoé"):
        ctx, page = phone(browser)
        page.goto(url)
        page.fill("#join-name", name)
        page.press("#join-name", "Enter")
        expect(page.locator(".rp-seats li.me")).to_have_text(name)
        phones.append((ctx, page))
    shot(phones[0][1], "phone-1-joined")
    expect(projector.locator("#gs-players li")).to_have_text(["Émile", "Zoé"])
    shot(projector, "projector-2-players")

    assert c.post(f"/api/games/rooms/{code}/start", headers=speaker).status_code == 200
    clicks, reloaded, shots_taken = 0, False, 0
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        status = c.get(f"/api/games/rooms/{code}").get_json()["status"]
        if status == "over":
            break
        played = False
        for ctx, page in phones:
            if not page.evaluate("document.body.classList.contains('my-turn')"):
                continue
            button = page.locator("button[data-move]:not([disabled])").first
            move = json.loads(button.get_attribute("data-move"))
            token = json.loads(page.evaluate(f"localStorage.getItem('loto-room-{code}')"))["token"]
            legal = c.get(f"/api/games/rooms/{code}/seat", headers={"Authorization": f"Bearer {token}"}).get_json()
            if move not in legal["legal"]:
                continue  # the page is one event behind: look again
            version = page.evaluate("Number(document.body.dataset.version)")
            if shots_taken < 2:
                shot(page, f"phone-{2 + shots_taken}-your-turn")
                shot(projector, f"projector-{3 + shots_taken}-playing")
                shots_taken += 1
            button.click()
            page.wait_for_function(f"Number(document.body.dataset.version) > {version}")
            clicks += 1
            played = True
            if clicks == 3 and not reloaded:
                page.reload()
                expect(page.locator("#table .rp-total")).to_be_visible()
                expect(page.locator(".rp-players li.me")).to_have_count(1)
                hand = c.get(f"/api/games/rooms/{code}/seat", headers={"Authorization": f"Bearer {token}"}).get_json()
                expect(page.locator(".rp-hand button")).to_have_text([room_card(x) for x in hand["hand"]])
                shot(page, "phone-4-after-reload")
                reloaded = True
        if not played:
            # the server says whose turn it is: a phone's turn must show on that phone (bots play by themselves)
            now = c.get(f"/api/games/rooms/{code}").get_json()
            movers = now["to_move"]
            if now["status"] == "playing" and movers and movers[0] < len(phones):
                page = phones[movers[0]][1]
                page.wait_for_function(f"Number(document.body.dataset.version) >= {now['version']}", timeout=20_000)
    else:
        pytest.fail("the game did not end in 5 minutes")
    assert clicks >= 3 and reloaded
    room = c.get(f"/api/games/rooms/{code}").get_json()
    winner = room["outcome"]["winner_names"][0]
    expect(projector.locator("#gs-winner")).to_have_text(f"{winner} gagne !")
    expect(phones[0][1].locator("#turn")).to_have_text(f"{winner} gagne !")
    shot(projector, "projector-5-winner")
    shot(phones[1][1], "phone-5-over")

    # back to the loto: exactly where it was
    c.post("/api/screen", json={"show": "loto"}, headers=speaker)
    expect(projector.locator("#game-screen")).to_be_hidden()
    expect(projector.locator("#last")).to_have_text("42")
    assert c.get("/api/state").get_json() == loto_before
    for ctx, _ in phones:
        ctx.close()
    projector_ctx.close()


def test_speaker_console_opens_and_shows_a_table_and_a_full_table_phone_follows(browser, hall_live):
    r = hall_live
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    console = ctx.new_page()
    console.set_default_timeout(15_000)
    login_page(console, r.url + "/speaker", PINS["speaker_pin"])
    console.select_option("#room-game", "linotte")
    console.click("#room-open button[type=submit]")
    expect(console.locator(".room-row")).to_have_count(1)
    code = console.locator(".room-row b").inner_text()
    console.click("#screen-games")
    expect(console.locator("#screen-line")).to_contain_text(code)
    assert r.app.test_client().get("/api/screen").get_json() == {"show": "game", "code": code}
    # a draw from the console is refused during the break, with a sentence
    resp = r.app.test_client().post("/api/draws", json={"number": 5}, headers=r.headers("speaker"))
    assert resp.status_code == 423 and "Entracte" in resp.get_json()["message"]
    c = r.app.test_client()
    for name in ("Ana", "Bea"):
        c.post(f"/api/games/rooms/{code}/join", json={"name": name})
    pctx, page = phone(browser)
    page.goto(f"{r.url}/j/{code}")
    expect(page.locator("#turn")).to_have_text("Vous suivez la partie en spectateur.")
    expect(page.locator("#join-form")).to_be_hidden()
    console.click(f"button[data-start='{code}']")
    expect(page.locator(".rp-grid .rp-cell")).to_have_count(25)
    shot(page, "phone-6-audience-linotte")
    console.click("#screen-loto")
    expect(console.locator("#screen-line")).to_contain_text("loto")
    SHOTS.mkdir(parents=True, exist_ok=True)
    shoot(console.locator("#rooms-panel"), str(SHOTS / "rooms-speaker-panel.png"), animations="disabled")
    pctx.close()
    ctx.close()


def test_a_lobby_event_older_than_the_join_does_not_make_the_phone_forget_its_seat(browser, hall_live):
    """Every lobby event carries version 0: one sent before our join may reach the phone after the join's answer.
    The phone asks the server about its seat instead of forgetting its token; a really unknown token is dropped."""
    r = hall_live
    c = r.app.test_client()
    code = c.post(
        "/api/games/rooms", json={"game": "lobo77", "options": {"players": 3}}, headers=r.headers("speaker")
    ).get_json()["code"]
    ctx, page = phone(browser)
    wire = Wire(page)
    page.goto(f"{r.url}/j/{code}")
    page.fill("#join-name", "Émile")
    page.press("#join-name", "Enter")
    expect(page.locator(".rp-seats li.me")).to_have_text("Émile")
    stale = {"code": code, "version": 0, "room": {**c.get(f"/api/games/rooms/{code}").get_json(), "seats": []}}
    with page.expect_response(lambda resp: resp.url.endswith(f"/api/games/rooms/{code}/seat")):
        wire.deliver("game", stale)  # the late, older event: no seat yet, so the phone asks
    wire.deliver("game", {**stale, "room": c.get(f"/api/games/rooms/{code}").get_json()})
    expect(page.locator(".rp-seats li.me")).to_have_text("Émile")
    assert json.loads(page.evaluate(f"localStorage.getItem('loto-room-{code}')"))["seat"] == 0
    # a token the server does not know is dropped after the same check
    page.evaluate(f"localStorage.setItem('loto-room-{code}', JSON.stringify({{token: 'x'.repeat(24), seat: 0}}))")
    page.reload()
    expect(page.locator("#join-form")).to_be_visible()
    assert page.evaluate(f"localStorage.getItem('loto-room-{code}')") is None
    ctx.close()
