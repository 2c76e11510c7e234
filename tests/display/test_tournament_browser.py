"""The tournament day through Chromium: the desk registers and starts, a captain enters hands on a phone, the desk
types a paper sheet, the next game's movement is shown, the projector shows the standings readable from the back.

Screenshots go to a temporary folder; with ``LOTO_SCREENSHOTS=1`` they are written to docs/screenshots/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from hall.minigames.osga.codes import table_code
from tests.display.axe import shoot
from tests.display.conftest import PINS, LiveServer, answer, make_tournament_room, no_native_dialogs
from tests.display.test_screenshots import TEXT_AUDIT

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
TEAMS = [
    ("Les As de Sudbury", "Huguette Lavoie", "Réjean Côté"),
    ("Valets de Timmins", "Gisèle Roy", "Marcel Roy"),
    ("Dames d'Ottawa", "Lise Gagnon", "Thérèse Pilon"),
    ("Rois du Nord", "Gilles Bélanger", "Yvon Leduc"),
    ("Atouts de Hearst", "Claudette Fortin", "Roger Fortin"),
    ("Cavaliers", "Denise Morin", "Paul Lacroix"),
    ("Les Bowers", "Jeannine Séguin", "André Séguin"),
    ("Cœurs vaillants", "Monique Dion", "Luc Dion"),
    ("Trèfles de Kapuskasing", "Rita Boucher", "Normand Girard"),
    ("Piques d'Alfred", "Colette Brunet", "Guy Brunet"),
    ("Les Moonshots", "Pierrette Hamel", "Jacques Hamel"),
    ("Carreaux de Hawkesbury", "Jocelyne Paquette", "Fernand Paquette"),
]


@pytest.fixture
def tlive(tmp_path):
    room = make_tournament_room(tmp_path)
    app, store = room.app, room.store
    server = LiveServer(app)
    room.url = server.url
    yield room
    server.stop()
    store.close()
    room.hall.journal.close()


@pytest.fixture
def folder(tmp_path):
    out = DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else tmp_path / "shots"
    out.mkdir(parents=True, exist_ok=True)
    return out


def test_a_tournament_day_through_the_desk_a_captains_phone_and_the_projector(tlive, browser, folder):
    desk_ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    phone_ctx = browser.new_context(
        viewport={"width": 360, "height": 640}, locale="fr-FR", is_mobile=True, has_touch=True
    )
    proj_ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    seen: list[str] = []
    try:
        desk = desk_ctx.new_page()
        desk.set_default_timeout(15_000)
        desk.on("request", lambda req: seen.append(req.url))
        native = no_native_dialogs(desk)
        desk.goto(tlive.url + "/tournoi")
        desk.fill("#pin", PINS["desk_pin"])
        desk.click("#login-form button[type=submit]")
        desk.wait_for_selector("nav.nav")
        tlive.store.new_day("Tournoi régional OSGA — Sudbury")
        desk.reload()
        # the first teams through the form, one of them arriving late
        for name, a, b in TEAMS[:2]:
            desk.fill("#td-team-name", name)
            desk.fill("#td-team-a", a)
            desk.fill("#td-team-b", b)
            if name == TEAMS[1][0]:
                desk.uncheck("#td-team-arrived")
            desk.click("#td-team-form button[type=submit]")
            expect(desk.locator("#td-teams")).to_contain_text(name)
        desk.click("#td-teams li:nth-child(2) button")  # the late team checks in
        expect(desk.locator("#td-teams li:nth-child(2)")).not_to_have_class("away")
        for name, a, b in TEAMS[2:]:
            tlive.store.submit("register", {"name": name, "players": [a, b]})
        desk.fill("#td-floater-a", "Rita Réserve")
        desk.fill("#td-floater-b", "Raoul Réserve")
        desk.click("#td-floater-form button[type=submit]")
        desk.click("#td-start")
        expect(desk.locator(".td-table")).to_have_count(6)
        code = table_code(tlive.store.day, 1)
        expect(desk.locator(".td-table[data-table='1'] .code")).to_contain_text(code)

        # table 1: the captain scans the QR code (its URL) and enters the 8 hands
        phone = phone_ctx.new_page()
        phone.set_default_timeout(15_000)
        native += no_native_dialogs(phone)
        phone.on("request", lambda req: seen.append(req.url))
        phone.goto(f"{tlive.url}/tournoi/table/1?code={code}")
        expect(phone.locator("#tt-sheet")).to_be_visible()
        expect(phone.locator("#tt-ns-names")).to_contain_text("Huguette Lavoie")
        hands = [(5, 3), (2, 6), (-4, 7), (8, 0), (3, 5), (12, 0), (6, 2), (4, 4)]
        for number, (ns, ew) in enumerate(hands, 1):
            phone.fill("#tt-ns", str(abs(ns)))
            if ns < 0:
                phone.click(".tt-sign[data-for='tt-ns']")
            phone.fill("#tt-ew", str(ew))
            if number == 6:
                shoot(phone, str(folder / "tournoi-table-phone.png"))
            phone.click("#tt-save")
            expect(phone.locator("#tt-hands li")).to_have_count(number)
        expect(phone.locator("#tt-msg")).to_contain_text("Partie terminée")
        expect(phone.locator("#tt-ns-total")).to_have_text(str(sum(h[0] for h in hands)))
        # a wrong value is refused with a sentence, nothing changes
        phone.goto(f"{tlive.url}/tournoi/table/2?code=AAAAA")
        expect(phone.locator("#tt-code-form")).to_be_visible()
        expect(phone.locator("#tt-game")).to_contain_text("Code de table faux")

        # table 2 is a paper table: the desk types its sheet
        desk.click(".td-table[data-table='2'] button")
        for number in range(1, 9):
            desk.fill("#td-entry-hand", str(number))
            desk.fill("#td-entry-ns", "2")
            desk.fill("#td-entry-ew", "6")
            desk.click("#td-entry button[type=submit]")
            expect(desk.locator("#td-entry-hands li")).to_have_count(number)
        desk.fill("#td-entry-ns", "99")
        desk.fill("#td-entry-ew", "0")
        desk.fill("#td-entry-hand", "1")
        desk.click("#td-entry button[type=submit]")
        expect(desk.locator("#td-msg")).to_contain_text("nombre entier de -999 à 24")
        desk.click("#td-entry-cancel")
        for table in range(3, 7):
            for number in range(1, 9):
                tlive.store.submit("hand", {"table": table, "hand": number, "ns": 4 + table % 3, "ew": 4 - table % 3})
        # the other tables are done: the projector shows the standings after game 1
        desk.reload()
        expect(desk.locator(".td-table.done")).to_have_count(6)
        shoot(desk, str(folder / "tournoi-desk.png"))
        desk.click("#td-next")
        answer(desk)  # the page's own question, never the browser's confirm()
        expect(desk.locator("#td-game")).to_contain_text("Partie 2 sur 12")
        # the captain's phone (still on table 1) sees the game move on: a new sheet, a new code, the new seating
        phone.goto(f"{tlive.url}/tournoi/table/1?code={code}")
        expect(phone.locator("#tt-code-form")).to_be_visible()
        expect(phone.locator("#tt-now")).to_contain_text("Placement — partie 2")
        phone.fill("#tt-code", table_code(tlive.store.day, 1).lower())
        phone.click("#tt-code-form button[type=submit]")
        expect(phone.locator("#tt-sheet")).to_be_visible()
        expect(phone.locator("#tt-game")).to_contain_text("Partie 2 sur 12")
        proj = proj_ctx.new_page()
        proj.set_default_timeout(15_000)
        proj.on("request", lambda req: seen.append(req.url))
        proj.goto(tlive.url + "/tournoi/classement")
        expect(proj.locator("#tp-page")).to_have_text("1 / 2")  # 12 teams: two pages, nothing under the status line
        last = proj.locator("#tp-table tbody tr").last.bounding_box()
        assert last["y"] + last["height"] <= proj.locator("#tp-status").bounding_box()["y"]
        expect(proj.locator("#tp-tables li")).to_have_count(6)
        expect(proj.locator("#tp-game")).to_contain_text("Partie 2 sur 12")
        audit = proj.evaluate(TEXT_AUDIT)
        assert audit["minSize"] >= 24 and audit["minContrast"] >= 4.5, audit
        shoot(proj, str(folder / "tournoi-classement.png"))
        assert all(url.startswith(tlive.url) for url in seen), "every request stays on the hall's server"
        assert native == [], native  # no browser dialog: the desk and the captain ask in the page
    finally:
        desk_ctx.close()
        phone_ctx.close()
        proj_ctx.close()


def test_the_projector_shows_a_20_team_day_from_the_back_of_the_hall(tlive, browser, folder):
    tlive.store.new_day("Jeux d'été 55+ — district de Sudbury")
    for n in range(20):
        name, a, b = TEAMS[n % len(TEAMS)]
        tlive.store.submit(
            "register",
            {
                "name": name if n < len(TEAMS) else f"{name} {n // len(TEAMS) + 1}",
                "players": [a, b] if n < len(TEAMS) else [f"{a} {n}", f"{b} {n}"],
            },
        )
    tlive.store.submit("start", {})
    for table in range(1, 11):
        for hand in range(1, 9 if table != 4 else 6):
            tlive.store.submit(
                "hand", {"table": table, "hand": hand, "ns": (table * hand) % 9, "ew": 8 - (table * hand) % 9}
            )
    tlive.store.submit("close", {"table": 4})
    tlive.store.submit("next", {})
    for table in range(1, 4):
        tlive.store.submit("hand", {"table": table, "hand": 1, "ns": 6, "ew": 2})
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    try:
        proj = ctx.new_page()
        proj.set_default_timeout(15_000)
        proj.goto(tlive.url + "/tournoi/classement")
        expect(proj.locator("#tp-game")).to_contain_text("Partie 2 sur 12")
        expect(proj.locator("#tp-tables li")).to_have_count(10)  # ten tables fit beside the standings
        status_top = proj.locator("#tp-status").bounding_box()["y"]
        for box in (
            proj.locator("#tp-tables li").last.bounding_box(),
            proj.locator("#tp-table tbody tr").last.bounding_box(),
        ):
            assert box["y"] + box["height"] <= status_top
        audit = proj.evaluate(TEXT_AUDIT)
        assert audit["minSize"] >= 24 and audit["minContrast"] >= 4.5, audit
        shoot(proj, str(folder / "tournoi-classement-20-equipes.png"))
    finally:
        ctx.close()
