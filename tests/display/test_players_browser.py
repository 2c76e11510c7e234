"""« Mes cartons » in Chromium at 360×640 (INTERFACE §9): a carton printed by the hall, its QR code read from the
rendered PDF, the URL opened on a phone → the carton followed live, marked from the hall's draws, one to go,
completion, undo, reload, each help level, refusals, the sale's QR, offline and catch-up."""

from __future__ import annotations

import io
import os
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pypdfium2
import pytest
import zxingcpp

from display.services import services_of
from hall.app.paper.sheets import write_cards_pdf
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from tests.display.conftest import A1, A2, A3, make_app, make_room, served

PHONE = {"width": 360, "height": 640}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def hall_room(tmp_path):
    room = make_room(tmp_path)
    room.app, room.socketio = make_app(room.hall, room.config, documents={"cards_pdf": write_cards_pdf})
    room.app.config["TESTING"] = True
    client = room.app.test_client()
    sale = client.post("/api/sales", json={"cards": [A1, A2], "amount_eur": 6}, headers=room.headers("admin"))
    assert sale.status_code == 201  # A3 stays unsold: once sales are recorded it does not play
    room.sale = sale.get_json()
    with served(room):
        yield room


@contextmanager
def a_phone(browser):
    """A phone (360×640, touch, a French browser) in a browser context of its own, closed after the block."""
    ctx = browser.new_context(viewport=PHONE, locale="fr-FR", has_touch=True, is_mobile=True)
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        yield page
    finally:
        ctx.close()


@pytest.fixture
def phone(browser, hall_room):
    with a_phone(browser) as page:
        yield page


def shot(page, name: str, tmp_path) -> None:
    folder = DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else tmp_path
    page.screenshot(path=str(folder / name))


def printed_qr_url(room, card_id: str) -> str:
    """Print the cartons as the admin does, render the page the carton is on and read its QR code."""
    res = room.app.test_client().get("/api/cards.pdf?series=A&per_page=6", headers=room.headers("admin"))
    image = pypdfium2.PdfDocument(io.BytesIO(res.get_data()))[0].render(scale=3).to_pil()
    urls = [r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode]
    url = next(u for u in urls if "/c/" + card_id + "?" in u)
    assert url == carton_link(room, card_id)  # the carton's code in its link
    return url


def opened(room, url: str) -> str:
    """The URL a phone's camera opens, at this test's server (the hall's address is the machine's LAN one)."""
    parts = urlsplit(url)
    return room.url + parts.path + (f"?{parts.query}" if parts.query else "")


def carton_link(room, text: str, card_id: str = "") -> str:
    """A printed carton's QR link: ``{hall}/c/{text}?k={code}``, the code of ``card_id`` (``text`` when not given)."""
    return room.config.hall_link(f"c/{text}?k={room.hall.card_code(card_id or text)}")


def type_carton(phone, room, text: str, card_id: str = "") -> None:
    """A player types a carton's number and the code printed under its QR code, then Enter."""
    phone.fill("#mc-id", text)
    phone.fill("#mc-code", room.hall.card_code(card_id or text))
    phone.press("#mc-code", "Enter")


def card(page, card_id):
    return page.locator(f'[data-card="{card_id}"]')


def said(locator) -> str:
    """What a locator's text says, French typography's no-break spaces (« Gagné : … ») read as spaces."""
    return (locator.text_content() or "").replace("\u00a0", " ").replace("\u202f", " ")


def marked(page, card_id) -> set[int]:
    return {
        int(n)
        for n in card(page, card_id).locator('[data-marked="1"]').evaluate_all("cells => cells.map(c => c.dataset.n)")
    }


def test_a_printed_carton_followed_on_a_phone(hall_room, phone, tmp_path):
    room, h = hall_room, hall_room.hall
    phone.goto(opened(room, printed_qr_url(room, A1)))
    card(phone, A1).wait_for()
    assert phone.evaluate("location.pathname") == "/mes-cartons"
    h.start_partie(role="speaker")
    for n in (4, 13, 37):
        h.draw(n, role="speaker")
    phone.wait_for_function("document.body.dataset.seq == %d" % h.snapshot().seq)
    assert marked(phone, A1) == {4, 13, 37}
    assert said(phone.locator("#mc-last")) == "37"
    assert "Quine — Panier garni" in said(phone.locator("#mc-lot"))
    h.draw(52, role="speaker")
    phone.wait_for_selector(f'[data-card="{A1}"][data-one-to-go="80"]')
    assert "Plus qu'un : 80" in said(card(phone, A1))
    h.draw(80, role="speaker")
    phone.wait_for_selector(f'[data-card="{A1}"][data-complete="quine"]')
    assert "Quine ! Criez-le !" in said(card(phone, A1))
    shot(phone, "mes-cartons-360x640-quine.png", tmp_path)
    h.undo(role="speaker")
    phone.wait_for_selector(f'[data-card="{A1}"][data-one-to-go="80"]')
    assert "80 annulé" in said(phone.locator("#mc-news"))
    assert marked(phone, A1) == {4, 13, 37, 52}
    phone.reload()  # the list is kept in the browser
    phone.wait_for_selector(f'[data-card="{A1}"][data-one-to-go="80"]')
    assert marked(phone, A1) == {4, 13, 37, 52}


def test_best_first_and_the_win(hall_room, phone):
    room, h = hall_room, hall_room.hall
    phone.goto(opened(room, carton_link(room, A2)))
    card(phone, A2).wait_for()
    phone.goto(opened(room, carton_link(room, A1.lower().replace("-", ""), A1)))  # typed leniently
    card(phone, A1).wait_for()
    h.start_partie(role="speaker")
    for n in (4, 13, 37):  # A1 holds 4, A2 does not: A1 first
        h.draw(n, role="speaker")
    phone.wait_for_function("document.body.dataset.seq == %d" % h.snapshot().seq)
    order = phone.locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert order == [A1, A2]
    for n in (52, 80):
        h.draw(n, role="speaker")
    assert h.check_claim(A1, role="controller").verdict == "valid"
    h.award(role="speaker")
    phone.wait_for_function(f'document.querySelector(\'[data-card="{A1}"]\').textContent.includes("Gagné")')
    assert "Gagné : Quine — Panier garni. Présentez ce carton au stand des lots." in said(card(phone, A1))
    phone.wait_for_function("document.getElementById('mc-lot').textContent.includes('Double quine')")
    h.clear(role="speaker", force=True)
    phone.wait_for_function("document.getElementById('mc-news').textContent.includes('Démarquez')")
    assert marked(phone, A1) == set()
    h.start_partie(role="speaker")  # a new partie starts clean
    phone.wait_for_function("document.getElementById('mc-news').textContent.includes('commence')")
    assert "Gagné" not in said(card(phone, A1)) and marked(phone, A1) == set()


def test_each_help_level(hall_room, phone, tmp_path):
    room, h = hall_room, hall_room.hall
    phone.goto(opened(room, carton_link(room, A1)))
    card(phone, A1).wait_for()
    h.start_partie(role="speaker")
    for n in (4, 13, 9):
        h.draw(n, role="speaker")

    def level(name, **more):
        h.set_players(role="admin", help=name, one_to_go=more.get("one_to_go", True), phone_call=False, max_cards=24)
        phone.wait_for_function("document.body.dataset.seq == %d" % h.snapshot().seq)

    level("tap")
    assert marked(phone, A1) == set()  # the player marks each number
    card(phone, A1).locator('[data-n="4"] button').click()
    card(phone, A1).locator('[data-n="80"] button').click()  # not drawn: it cannot be marked
    assert marked(phone, A1) == {4}
    assert "80 n'est pas sorti" in said(phone.locator("#mc-news"))
    shot(phone, "mes-cartons-360x640-tap.png", tmp_path)
    phone.click("#mc-catch-up")  # « rattraper »
    assert marked(phone, A1) == {4, 13, 9}
    level("board")
    assert card(phone, A1).count() == 0
    assert phone.locator('#mc-board [data-marked="1"]').evaluate_all("c => c.map(x => +x.dataset.n)") == [4, 9, 13]
    shot(phone, "mes-cartons-360x640-board.png", tmp_path)
    level("off")
    assert phone.locator("#mc-closed").is_visible() and card(phone, A1).count() == 0
    res = room.app.test_client().post("/api/players/cards", json={"card_ids": [A1]})
    assert (res.status_code, res.get_json()["error"]) == (403, "players_off")
    level("auto", one_to_go=False)
    card(phone, A1).wait_for()
    assert marked(phone, A1) == {4, 13, 9}
    for n in (37, 52):
        h.draw(n, role="speaker")
    phone.wait_for_function("document.body.dataset.seq == %d" % h.snapshot().seq)
    assert card(phone, A1).get_attribute("data-one-to-go") is None  # one_to_go off: no "plus qu'un"


def test_refusals_unsold_typed_and_the_25th(hall_room, phone):
    room, h = hall_room, hall_room.hall
    phone.goto(room.url + "/mes-cartons")
    type_carton(phone, room, A3)
    phone.wait_for_function("document.getElementById('mc-msg').textContent.includes('non vendu')")
    assert card(phone, A3).count() == 0
    type_carton(phone, room, A1[:-1] + "Z", A1)  # a near miss: "vérifiez", with the carton offered
    phone.get_by_role("button", name=f"C'est le {A1} ?").click()
    card(phone, A1).wait_for()
    more = generate_cards(30, seed="7", series="B")
    h.adopt_cards(CardBook(dict(more)), role="admin")
    client = room.app.test_client()
    assert (
        client.post(
            "/api/sales",
            json={"range": f"{more[0][0]}..{more[-1][0]}", "amount_eur": 60},
            headers=room.headers("admin"),
        ).status_code
        == 201
    )
    for cid, _ in more[:23]:  # 24 cartons with A1
        type_carton(phone, room, cid)
        card(phone, cid).wait_for()
    type_carton(phone, room, more[23][0])
    phone.wait_for_function("document.getElementById('mc-msg').textContent.includes('24 cartons au plus')")
    assert phone.locator("[data-card]").count() == 24


def test_a_carton_link_without_its_code_shows_nothing_and_asks_for_it(hall_room, phone, tmp_path):
    room = hall_room
    phone.goto(room.url + "/c/" + A1)  # the ID alone (typed by hand, a link without ?k=)
    phone.wait_for_function("document.getElementById('mc-msg').textContent.includes('tapez aussi le code')")
    assert card(phone, A1).count() == 0 and phone.locator("#mc-id").input_value() == A1
    assert phone.evaluate("document.activeElement.id") == "mc-code"
    shot(phone, "mes-cartons-360x640-code.png", tmp_path)
    phone.fill("#mc-code", room.hall.card_code(A1))
    phone.press("#mc-code", "Enter")
    card(phone, A1).wait_for()


def test_the_sales_qr_links_the_whole_sale(hall_room, phone):
    room = hall_room
    url = room.sale["phones_url"]
    assert url.startswith("/s/")
    phone.goto(room.url + url)
    card(phone, A1).wait_for()
    assert sorted(phone.locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")) == [A1, A2]
    forged = url[:-3] + ("aaa" if not url.endswith("aaa") else "bbb")
    assert room.app.test_client().get(forged).status_code == 404


def test_offline_within_5_s_and_catch_up_by_seq(hall_room, phone):
    """The hall goes silent (no close, no answer: the hall's Wi-Fi gone): « hors ligne » within 5 s; on return
    the page catches up by seq with no ball missed."""
    room, h = hall_room, hall_room.hall
    silent = {"on": False}

    def route(ws):
        if silent["on"]:  # no network: a new connection fails at once
            ws.close()
            return
        server = ws.connect_to_server()
        ws.on_message(lambda m: None if silent["on"] else server.send(m))
        server.on_message(lambda m: None if silent["on"] else ws.send(m))

    phone.route_web_socket(lambda u: "/socket.io/" in u, route)
    phone.route(
        lambda u: "/socket.io/" in u and "transport=polling" in u,
        lambda r: r.abort() if silent["on"] else r.continue_(),
    )
    phone.goto(opened(room, carton_link(room, A1)))
    card(phone, A1).wait_for()
    h.start_partie(role="speaker")
    h.draw(4, role="speaker")
    phone.wait_for_function("document.body.dataset.seq == %d" % h.snapshot().seq)
    silent["on"] = True
    phone.wait_for_selector("#mc-net", state="visible", timeout=5_500)
    assert "Hors ligne" in said(phone.locator("#mc-net"))
    for n in (13, 37):  # balls drawn while the phone cannot hear
        h.draw(n, role="speaker")
    silent["on"] = False
    phone.wait_for_function("document.body.dataset.seq == %d" % h.snapshot().seq, timeout=15_000)
    assert marked(phone, A1) == {4, 13, 37}
    phone.wait_for_selector("#mc-net", state="hidden")


def test_the_caisse_shows_the_sales_qr_and_it_links_the_whole_plaque(browser, tmp_path):
    """At the door: a plaque of 12 sold, the QR code on /caisse read from the screen, opened on a phone → the 12."""
    from playwright.sync_api import expect

    from hall.cartons.card_ids import make_card_id
    from tests.display.conftest import PINS, login_page
    from tests.display.test_sales_api import sales_room

    (tmp_path / "hall").mkdir()
    with (
        served(sales_room(tmp_path / "hall")) as room,
        browser.new_context(viewport={"width": 1024, "height": 900}, locale="fr-FR") as ctx,
    ):
        desk = ctx.new_page()
        desk.set_default_timeout(10_000)
        login_page(desk, room.url + "/caisse", PINS["desk_pin"])
        desk.fill("#cards", "A-1..A-12")
        desk.click("#add-form button[type=submit]")
        desk.click("#sell")
        expect(desk.locator("#result")).to_contain_text("Vendu : 12 cartons")
        qr = desk.locator(".sale-qr img")
        qr.wait_for()
        desk.wait_for_function("document.querySelector('.sale-qr img').complete")
        from PIL import Image

        shot = tmp_path / "qr.png"
        qr.screenshot(path=str(shot))
        decoded = [r.text for r in zxingcpp.read_barcodes(Image.open(shot))]
        assert len(decoded) == 1 and decoded[0].startswith(room.config.hall_link("s/"))
        assert "localhost" not in decoded[0] and "127.0.0.1" not in decoded[0]
        phone = ctx.new_page()
        phone.set_viewport_size(PHONE)
        phone.goto(room.url + urlsplit(decoded[0]).path)
        phone.locator("[data-card]").nth(11).wait_for()
        ids = sorted(phone.locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)"))
        assert ids == sorted(make_card_id("A", n) for n in range(1, 13))


def test_a_phone_call_reaches_the_speakers_console(browser, tmp_path):
    from tests.display.conftest import PINS, login_page

    with (
        served(make_room(tmp_path, extra={"players": {"phone_call": True}})) as room,
        browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR") as ctx,
    ):
        speaker = ctx.new_page()
        speaker.set_default_timeout(10_000)
        login_page(speaker, room.url + "/speaker", PINS["speaker_pin"])
        phone = ctx.new_page()
        phone.set_viewport_size(PHONE)
        phone.set_default_timeout(10_000)
        phone.goto(opened(room, carton_link(room, A1)))
        card(phone, A1).wait_for()
        h = room.hall
        h.start_partie(role="speaker")
        for n in (4, 13, 37, 52, 80):
            h.draw(n, role="speaker")
        phone.get_by_role("button", name="Quine ! Prévenir le meneur de jeu").click()
        phone.wait_for_function("document.getElementById('mc-news').textContent.includes('Appel envoyé')")
        speaker.wait_for_selector("#phone-calls li")
        line = speaker.locator("#phone-calls li").first.text_content()
        assert "A-00001\u00a0N" in line and "sur le 80" in line and "boule n° 5" in line and "Quine" in line
        shot(phone, "mes-cartons-360x640-appel.png", tmp_path)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_projector_tells_the_hall_how_to_follow_its_cartons(browser, tmp_path, lang):
    with (
        served(make_room(tmp_path, extra={"network": {"ssid": "Loto salle", "password": "quine2026"}})) as room,
        browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR") as ctx,
    ):
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(room.url + "/?lang=" + lang)
        follow = "Suivez vos cartons" if lang == "fr" else "Follow your cartons"
        page.wait_for_function(f"document.getElementById('between-players').textContent.includes({follow!r})")
        page.wait_for_timeout(500)  # the QR codes' images
        shot(page, f"projector-1920x1080-mes-cartons-{lang}.png", tmp_path)
        room.hall.set_players(role="admin", help="tap", one_to_go=True, phone_call=False, max_cards=24)
        words = "touchez chaque numéro" if lang == "fr" else "tap each number"
        page.wait_for_function(f"document.getElementById('banner-text').textContent.includes({words!r})")
        assert words in page.locator("#between-players").text_content()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_page_in_french_and_english(hall_room, browser, tmp_path, lang):
    room, h = hall_room, hall_room.hall
    with a_phone(browser) as phone:
        phone.goto(room.url + "/mes-cartons?lang=" + lang)
        type_carton(phone, room, A2)
        card(phone, A2).wait_for()
        type_carton(phone, room, A1)
        card(phone, A1).wait_for()
        h.start_partie(role="speaker")
        for n in (4, 13, 37, 52, 9, 21):
            h.draw(n, role="speaker")
        phone.wait_for_selector(f'[data-card="{A1}"][data-one-to-go="80"]')
        words = {"fr": ("Plus qu'un : 80", "Dernier numéro"), "en": ("One to go: 80", "Last number")}[lang]
        assert words[0] in said(card(phone, A1)) and words[1] in phone.locator("header").text_content()
        phone.evaluate("window.scrollTo(0, 0)")
        shot(phone, "mes-cartons-360x640-en.png" if lang == "en" else "mes-cartons-360x640.png", tmp_path)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_phone_turned_away_at_the_door_says_so_in_its_language_and_links_by_itself(hall_room, browser, lang):
    """429 hall_busy (the hall's door, before Flask): the page words it from its own strings, waits the
    ``retry_after`` it was given, and links the carton with no tap."""
    room = hall_room
    gate = services_of(room.app).link_gate
    gate._clock = lambda: 0.0
    gate.set_rate(1)  # one link a second for the hall, the clock stopped
    assert room.app.test_client().post("/api/players/cards", json={"card_ids": [A2]}).status_code == 200
    with a_phone(browser) as phone:
        phone.goto(room.url + "/mes-cartons?lang=" + lang)
        type_carton(phone, room, A1)
        words = {"fr": "Toute la salle scanne en même temps", "en": "The whole hall is scanning at once"}[lang]
        phone.wait_for_function(f"document.getElementById('mc-msg').textContent.includes({words!r})")
        assert card(phone, A1).count() == 0
        gate.set_rate(1e6)  # the crowd has gone: the page's own retry gets in
        card(phone, A1).wait_for()
