"""Issue 26, the volunteers' evening run again in Chromium: the hints in the hall's own series, the controller's
colours, the door that catches mistakes as the basket fills, French where French is read and English where it is
chosen, the tournament's words, the projector's tie-break, typography, the console during a break."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from display import views
from hall.app.paper.report_pdf import write_report_pdf
from hall.app.paper.sheets import write_cards_pdf
from hall.cartons.card_ids import make_card_id
from hall.events import LotSpec
from tests.display.axe import audit
from tests.display.conftest import (
    A1,
    A3,
    PINS,
    TIE_DRAWS,
    LiveServer,
    answer,
    login_page,
    make_app,
    make_room,
    no_native_dialogs,
    play_to_tie,
    served,
    shown,
)
from tests.display.test_documents import docs_room, pdf_text  # noqa: F401  (a fixture)
from tests.display.test_sales_api import sales_room

DOCUMENTS = {"report_pdf": write_report_pdf, "cards_pdf": write_cards_pdf}

NBSP = "\u00a0"


@pytest.fixture
def d_desk(tmp_path):
    """A hall whose cartons are series D, as the demo's are: the hints must say D, never A."""
    (tmp_path / "hall").mkdir()
    room = sales_room(tmp_path / "hall", series="D")
    room.app, room.socketio = make_app(room.hall, room.config, documents=DOCUMENTS)  # /admin prints planches
    room.app.config["TESTING"] = True
    with served(room):
        yield room


def a1_wins_the_quine(h):
    """A1 alone claims its first row on 80 and wins the quine (A2, complete too, is never claimed)."""
    h.start_partie(role="speaker")
    for n in TIE_DRAWS:
        h.draw(n, role="speaker")
    h.check_claim(A1, role="controller")
    result = h.award(role="speaker")
    h.resume(role="speaker")  # the draw waits after an award (docs/loto-rules.md L11a)
    return result


def staff_page(browser, url: str, pin: str, size=(1280, 720), locale="fr-FR"):
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale=locale, accept_downloads=True)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    login_page(page, url, pin)
    page.wait_for_load_state()  # the page's modules run before its form is used (under load they came late)
    return ctx, page


# ------------------------------------------------------------------------------------------ item 1
def test_every_hint_speaks_of_the_halls_own_series_and_a_missing_one_is_said_on_admin(browser, d_desk):
    first = make_card_id("D", 1)
    ctx, page = staff_page(browser, d_desk.url + "/caisse", PINS["desk_pin"])
    try:
        expect(page.locator("#cards")).to_have_attribute("placeholder", "D-1..D-12")
        hint = page.locator("#cards-hint").text_content()
        assert f"{first}".replace("-", "\u2011") in hint and "A-" not in hint and "A\u2011" not in hint, hint
        page.goto(d_desk.url + "/lots")
        expect(page.locator("#ranges")).to_have_attribute("placeholder", f"{first}..{make_card_id('D', 60)}")
        page.goto(d_desk.url + "/admin")
        login_page(page, d_desk.url + "/admin", PINS["admin_pin"])
        assert page.locator("#print-form select[name=series] option").all_text_contents()[1:] == ["D"]
        expect(page.locator("#print-form input[name=range]")).to_have_attribute("placeholder", "D-1..D-60")
        # a range the book lacks: said on the page in words, no tab of raw JSON
        page.fill("#print-form input[name=range]", "A-1..A-12")
        page.click("#print-form button[type=submit]")
        expect(page.locator("#admin-alert")).to_contain_text("Aucun carton à imprimer pour « A-1..A-12 »")
        expect(page.locator("#admin-alert")).to_contain_text("les séries du carnet sont D")
        assert len(ctx.pages) == 1
        # the hall's own series prints, as a download from the same page
        page.fill("#print-form input[name=range]", "D-1..D-6")
        with page.expect_download() as download:
            page.click("#print-form button[type=submit]")
        assert download.value.suggested_filename.endswith(".pdf")
        with open(download.value.path(), "rb") as pdf:
            assert make_card_id("D", 1)[:-1] in pdf_text(pdf.read())
        audit(page, "admin after a refused print")
    finally:
        ctx.close()


# ------------------------------------------------------------------------------------------ item 3
def test_a_valid_double_quine_on_a_carton_checked_before_is_green_with_its_sign(browser, live):
    h = live.hall
    a1_wins_the_quine(h)
    for n in (9, 21, 45, 66, 84):  # A1's second row: a double quine
        h.draw(n, role="speaker")
    ctx = browser.new_context(viewport={"width": 360, "height": 640}, locale="fr-FR")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    try:
        login_page(page, live.url + "/controle", PINS["controller_pin"])
        page.fill("#card-id", A1)
        page.click("#id-form button[type=submit]")
        expect(page.locator("#verdict")).to_be_visible()
        expect(page.locator("#verdict")).to_have_attribute("data-tone", "good")  # never orange: it is valid
        expect(page.locator("#verdict-mark")).to_have_text("✓")
        expect(page.locator("#verdict-note")).to_be_visible()  # "déjà vérifié" still said
        audit(page, "controller, a valid double quine checked before")
        page.click("#verdict-close")
        for tone, mark in (("bad", "✗"), ("warn", "!")):  # a false claim, then the same one again: orange
            page.fill("#card-id", A3)
            page.click("#id-form button[type=submit]")
            expect(page.locator("#verdict")).to_have_attribute("data-tone", tone)
            expect(page.locator("#verdict-mark")).to_have_text(mark)
            page.click("#verdict-close")
    finally:
        ctx.close()


# ------------------------------------------------------------------------------------------ item 5
def test_the_door_reads_each_line_as_it_joins_the_basket_and_asks_how_a_reservation_was_paid(browser, d_desk):
    h = d_desk.hall
    ctx, page = staff_page(browser, d_desk.url + "/caisse", PINS["desk_pin"], size=(360, 640))
    native = no_native_dialogs(page)
    try:
        # a sale by card: the next sale starts on cash again
        page.fill("#cards", "D-1..D-2")
        page.click("#add-form button[type=submit]")
        expect(page.locator("#basket li")).to_have_count(1)
        expect(page.locator("#basket li")).to_contain_text("(2)")
        page.click("label:has(input[value=carte])")
        page.click("#sell")
        expect(page.locator("#result")).to_contain_text("Vendu")
        assert h.evening.sales.sales[1].payment == "carte"
        expect(page.locator("input[name=payment][value=especes]")).to_be_checked()
        # a mistyped number: refused in the basket at once, the real carton one tap away
        real = make_card_id("D", 3)
        typo = real[:-1] + ("A" if real[-1] != "A" else "B")
        page.fill("#cards", typo.lower().replace("-", ""))
        page.click("#add-form button[type=submit]")
        expect(page.locator("#basket li.trouble")).to_contain_text(re.compile(f"Vérifiez le numéro.*{shown(real)}"))
        expect(page.locator("#sell")).to_be_disabled()
        audit(page, "caisse, a near miss in the basket")
        page.locator("#basket .suggestion").click()
        expect(page.locator("#basket li.trouble")).to_have_count(0)
        expect(page.locator("#basket li .id")).to_have_text(shown(real))
        expect(page.locator("#suggested")).to_have_text(f"tarif pour 1 carton{NBSP}: 3,00 €")
        assert page.locator("#basket li .id").evaluate("(e) => getComputedStyle(e).whiteSpace") == "nowrap"
        # a reservation: « Payé » asks how, in the page
        page.click("#more summary")
        page.check("#reserved")
        page.click("#sell")
        expect(page.locator("#result")).to_contain_text("Réservé")
        sale = max(h.evening.sales.sales)
        assert not h.evening.sales.sales[sale].paid
        page.locator("#recent li", has_text=f"n° {sale}").locator("button").click()
        answer(page, value="cheque", asked=f"Vente n° {sale}")
        expect(page.locator("#recent li", has_text=f"n° {sale}").locator("button")).to_have_count(0)
        paid = h.evening.sales.sales[sale]
        assert paid.paid and paid.payment == "cheque"
        assert native == []
    finally:
        ctx.close()


# ------------------------------------------------------------------------------------------ item 6
def test_the_console_says_devices_from_the_catalogue_without_a_file_path(browser, live):
    h = live.hall
    h.set_device_status(
        "ball_machine", "ok", code="ball_machine_ok", params={"path": "/tmp/loto-hall-demo-x/ball-machine.tty"}
    )
    h.set_device_status("printer", "degraded", code="printer_something_new")  # no sentence yet
    ctx, page = staff_page(browser, live.url + "/speaker", PINS["speaker_pin"])
    try:
        expect(page.locator("#devices .device")).to_have_count(2)
        devices = page.locator("#devices").inner_text()
        assert "Machine à boules branchée." in devices and "Imprimante : en difficulté" in devices, devices
        assert "/tmp" not in devices and "Printer" not in devices and "connected" not in devices, devices
    finally:
        ctx.close()


def test_english_is_one_tap_away_and_back_and_a_default_label_is_not_repeated(browser, live):
    ctx, page = staff_page(browser, live.url + "/controle", PINS["controller_pin"])
    try:
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        page.click("nav .lang-switch")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.locator("nav .lang-switch")).to_have_text("Français")
        page.click("nav .lang-switch")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.locator("nav .lang-switch")).to_have_text("English")
        page.goto(live.url + "/?lang=en")  # a projector in English: a default label is not repeated
        live.hall.start_partie([LotSpec("quine", "Quine")], role="speaker")  # the kind's default label
        expect(page.locator("#lot")).to_have_text("One line")
    finally:
        ctx.close()


def test_the_english_hall_gets_english_pdfs(docs_room):  # noqa: F811
    play_to_tie(docs_room)
    docs_room.hall.award(role="speaker", draw=True)
    client = docs_room.app.test_client()
    auth = docs_room.headers("admin")
    report = pdf_text(client.get("/api/report.pdf?lang=en", headers=auth).data)
    assert "Report of the evening" in report and "Rapport de la soirée" not in report.split("\f")[0], report[:400]
    cards = pdf_text(client.get("/api/cards.pdf?lang=en&series=A", headers=auth).data)
    assert "Cut along the lines" in cards and "Découper" not in cards
    assert "Découper" in pdf_text(client.get("/api/cards.pdf?lang=fr&series=A", headers=auth).data)


# ------------------------------------------------------------------------------------------ item 7
def test_the_desk_finds_the_tournament_and_every_question_there_is_asked_in_the_page(browser, tmp_path):
    from tests.display.conftest import make_tournament_room

    room = make_tournament_room(tmp_path)
    server = LiveServer(room.app)
    ctx, page = staff_page(browser, server.url + "/caisse", PINS["desk_pin"])
    native = no_native_dialogs(page)
    try:
        expect(page.locator("nav .who")).to_have_text(re.compile("caisse, lots et tournoi"))
        page.click("nav a[href='/tournoi']")
        expect(page).to_have_url(re.compile("/tournoi$"))
        page.wait_for_selector("nav.nav")
        page.click("#td-new-day")
        box = page.locator("dialog#ask[open]")
        expect(box.locator("#ask-title")).to_have_text("Nouvelle journée de tournoi")
        expect(box.locator("#ask-field")).to_be_focused()
        expect(box.locator("#ask-field")).to_have_value(re.compile("^Tournoi OSGA du "))
        audit(page, "tournoi, the new day's question")
        page.keyboard.press("Control+A")
        page.keyboard.type("Journée d'automne")
        page.keyboard.press("Enter")  # the keyboard alone: Enter sends the field
        expect(page.locator("dialog#ask[open]")).to_have_count(0)
        expect(page.locator("#td-title")).to_contain_text("Journée d'automne")
        assert room.store.day.title == "Journée d'automne"
        assert native == []
    finally:
        ctx.close()
        server.stop()
        room.store.close()
        room.hall.journal.close()


def test_a_captain_reads_the_side_not_the_field_and_scores_with_a_minus_sign(troom):
    from display.errors import message_of

    with troom.app.test_request_context():
        said = message_of("tournoi/bad_field", {"field": "ns", "why": "x"})
    assert "Nord–Sud" in said and "« ns »" not in said and "(ns)" not in said, said


def test_the_readme_says_who_opens_what():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "/tournoi" in readme
    who = readme[readme.index("## Who opens what") :]
    for pin, pages in (
        (PINS["desk_pin"], "/tournoi"),
        (PINS["desk_pin"], "/caisse"),
        (PINS["controller_pin"], "/controle"),
    ):
        assert pin in who and pages in who


# ------------------------------------------------------------------------------------------ item 8
def test_the_projector_tells_a_tie_break_by_the_computer_before_moving_to_the_next_lot(browser, live):
    h = live.hall
    play_to_tie(live)
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(live.url + "/")
        expect(page.locator("#lot")).to_have_text("Quine — Panier garni")
        h.award(role="speaker", draw=True)
        expect(page.locator("#banner-sub")).to_contain_text("Tirage au sort par l'ordinateur")
        expect(page.locator(".tie-line").first).to_contain_text(re.compile(r"Le carton .+ tire le \d+"))
        expect(page.locator("#lot")).to_have_text("Quine — Panier garni")  # the tie is still being told
        expect(page.locator("#banner-sub")).to_contain_text("gagné par le carton", timeout=10_000)
        expect(page.locator("#lot")).to_have_text("Double quine — Jambon")
    finally:
        ctx.close()


def test_a_hand_drawn_tie_says_who_draws_in_the_room(browser, tmp_path):
    room = make_room(tmp_path, rules={"ties": "physical_lowest"})
    server = LiveServer(room.app)
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    try:
        page = ctx.new_page()
        page.goto(server.url + "/")
        expect(page.locator("#between-ties")).to_have_text(
            "Égalité : chaque gagnant tire un numéro auprès de l'animateur, le plus petit gagne"
        )
    finally:
        ctx.close()
        server.stop()
        room.hall.journal.close()


# ------------------------------------------------------------------------------------------ item 9
def test_amounts_come_back_as_typed_on_admin(browser, d_desk):
    ctx, page = staff_page(browser, d_desk.url + "/admin", PINS["admin_pin"])
    try:
        page.locator("#tiers .tier-eur").last.fill("40,50")  # 12 cartons for 40,50 €
        page.click("#save-tiers")
        expect(page.locator("#tiers-msg")).not_to_be_empty()
        lot = page.locator(".programme-editor .partie").first.locator(".lot input.value").first
        lot.fill("40,50")  # a lot's value, saved and drawn again
        page.click("#save-programme")
        expect(page.locator("#programme-msg")).not_to_be_empty()
        expect(page.locator(".programme-editor .partie").first.locator(".lot input.value").first).to_have_value("40,50")
        page.reload()
        expect(page.locator("#tiers .tier-eur").last).to_have_value("40,50")
        expect(page.locator(".programme-editor .partie").first.locator(".lot input.value").first).to_have_value("40,50")
    finally:
        ctx.close()


def test_the_prize_desk_writes_the_carton_as_every_page_does_and_french_never_starts_a_line_with_a_colon(browser, live):
    code = views.award(a1_wins_the_quine(live.hall))["vouchers"][0]
    ctx, page = staff_page(browser, live.url + "/lots", PINS["desk_pin"], size=(360, 640))
    try:
        page.fill("#code", code)
        page.click("#code-form button[type=submit]")
        expect(page.locator("#result")).to_contain_text("À remettre")
        expect(page.locator("#result .id")).to_have_text(shown(A1))
        box = page.locator("#result").bounding_box()
        assert box["y"] + 40 < 640, box  # its first line in sight, not at the bottom edge
        login_page(page, live.url + "/controle", PINS["controller_pin"])
        last = page.locator("#ctl-last")
        expect(last).to_contain_text("80")
        assert f"numéro{NBSP}:" in last.text_content()
    finally:
        ctx.close()


# ------------------------------------------------------------------------------------------ item 10
def test_the_720p_console_keeps_its_key_help_and_refuses_a_partie_while_a_game_is_shown(browser, live):
    ctx, page = staff_page(browser, live.url + "/speaker", PINS["speaker_pin"])
    try:
        expect(page.locator("#key-help")).to_be_visible()
        erase = page.locator("#pad button[data-key=Backspace]")
        expect(erase.locator("kbd")).to_have_text(".")
        client = live.app.test_client()
        code = client.post("/api/games/rooms", json={"game": "lobo77"}, headers=live.headers("speaker")).get_json()[
            "code"
        ]
        assert (
            client.post("/api/screen", json={"show": "game", "code": code}, headers=live.headers("speaker")).status_code
            == 200
        )
        page.click("#start")
        expect(page.locator("#entry-msg")).to_contain_text("Retour au loto")
        assert live.hall.snapshot().running is None  # nothing started behind the games
        resp = client.post("/api/partie/start", json={}, headers=live.headers("speaker"))
        assert resp.status_code == 423 and resp.get_json()["error"] == "games_on_screen"
    finally:
        ctx.close()


def test_the_lobby_counts_the_tables_places_and_greets_the_player_by_name(browser, hall_live):
    r = hall_live
    c = r.app.test_client()
    speaker = r.headers("speaker")
    code = c.post("/api/games/rooms", json={"game": "lobo77", "options": {"players": 4}}, headers=speaker).get_json()[
        "code"
    ]
    assert c.post("/api/screen", json={"show": "game", "code": code}, headers=speaker).status_code == 200
    projector_ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    phone_ctx = browser.new_context(viewport={"width": 360, "height": 640}, locale="fr-FR", is_mobile=True)
    try:
        projector = projector_ctx.new_page()
        projector.set_default_timeout(15_000)
        projector.goto(r.url + "/")
        expect(projector.locator(".gs-lobby")).to_have_text("0 inscrit sur 4 places")
        phone = phone_ctx.new_page()
        phone.set_default_timeout(15_000)
        phone.goto(f"{r.url}/j/{code}")
        phone.fill("#join-name", "Zoé")
        phone.press("#join-name", "Enter")
        expect(phone.locator("#turn")).to_have_text("Bienvenue à la table, Zoé : la partie commence bientôt.")
        expect(projector.locator(".gs-lobby")).to_have_text("1 inscrit sur 4 places")
        c.post(f"/api/games/rooms/{code}/join", json={"name": "Émile"})
        expect(projector.locator(".gs-lobby")).to_have_text("2 inscrits sur 4 places")  # the 4 places chosen, not 8
        audit(phone, "a phone in the lobby")
    finally:
        phone_ctx.close()
        projector_ctx.close()


def test_la_linottes_pawns_are_told_apart_by_shape_and_by_name(browser, hall_live):
    r = hall_live
    c = r.app.test_client()
    speaker = r.headers("speaker")
    code = c.post("/api/games/rooms", json={"game": "linotte"}, headers=speaker).get_json()["code"]
    tokens = [c.post(f"/api/games/rooms/{code}/join", json={"name": n}).get_json()["token"] for n in ("Ana", "Bea")]
    c.post(f"/api/games/rooms/{code}/start", headers=speaker)
    assert c.post("/api/screen", json={"show": "game", "code": code}, headers=speaker).status_code == 200
    for _ in range(60):  # each player rolls until a pawn can go down, then places it
        room = c.get(f"/api/games/rooms/{code}").get_json()
        if any(cell["pawn"] is not None for row in room["view"]["grid"] for cell in row):
            break
        token = tokens[room["to_move"][0]]
        view = c.get(f"/api/games/rooms/{code}/seat", headers={"Authorization": f"Bearer {token}"}).get_json()
        move = next((m for m in view["legal"] if m[0] == "place"), view["legal"][0])
        c.post(
            f"/api/games/rooms/{code}/moves",
            json={"move": move, "version": view["version"]},
            headers={"Authorization": f"Bearer {token}"},
        )
    else:
        pytest.fail("no pawn placed")
    cell = next(cell for row in room["view"]["grid"] for cell in row if cell["pawn"] is not None)
    owner, mark = ("Ana", "✕") if cell["pawn"] == 0 else ("Bea", "◯")
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    try:
        projector = ctx.new_page()
        projector.set_default_timeout(15_000)
        projector.goto(r.url + "/")
        pawn = projector.locator(f".gs-cell.pawn-{cell['pawn']}")
        expect(pawn).to_have_count(1)
        expect(pawn.locator(".pawn-mark")).to_have_text(mark)  # its shape, not its colour only
        expect(pawn).to_have_accessible_name(re.compile(f"pion de {owner}$"))
        expect(projector.locator("#gs-players li .pawn-mark")).to_have_text(["✕", "◯"])
        audit(projector, "La Linotte on the projector, a pawn down")
    finally:
        ctx.close()
