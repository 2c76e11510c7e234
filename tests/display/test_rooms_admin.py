"""/admin « + Salle annexe » and the speaker's « Continuer sans la salle annexe » (issue 43, RULES L23): a room
named on /admin gets its one-time code shown big with the command its device runs (the hall's own address, the
room, the code) and a QR code of it; the list says each room's link, refreshed while the page is open; the
speaker is asked before the draw goes on without a lost room. Real SQLite, real sockets, real Chromium, axe-core
on every state shot, the links on a clock the test moves."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from display.rooms_admin import command_line
from tests.display.axe import shoot
from tests.display.conftest import PINS, LiveServer, answer, login_page, no_native_dialogs
from tests.display.test_rooms_main import annex, annex_hall, bearer, clock, join, open_room, types  # noqa: F401

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
CODE = re.compile(r"^[A-Z0-9]{4}-[A-Z0-9]{4}$")


# ---- the command's route ----------------------------------------------------------------------------------------
def test_the_command_names_the_halls_address_the_room_and_its_code_quoted_for_a_shell(annex):  # noqa: F811
    c = annex.app.test_client()
    code = open_room(annex, "Salle B")
    resp = c.post("/api/rooms/Salle B/command", json={"code": code.lower()}, headers=annex.headers("admin"))
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    url = annex.config.hall_url.rstrip("/")
    assert body["command"] == f"loto-hall serve --annex-of {url} --room 'Salle B' --code {code}"
    assert shlex.split(body["command"]) == [
        "loto-hall",
        "serve",
        "--annex-of",
        url,
        "--room",
        "Salle B",
        "--code",
        code,
    ]
    assert body["url"] == url and "localhost" not in url and body["code"] == code
    assert body["qr_svg"].startswith("<svg") or body["qr_svg"].startswith("<?xml")


def test_the_command_is_refused_for_an_unknown_room_a_bad_code_and_anyone_but_the_admin(annex):  # noqa: F811
    c = annex.app.test_client()
    code = open_room(annex, "Salle B")
    admin = annex.headers("admin")
    unknown = c.post("/api/rooms/Salle Z/command", json={"code": code}, headers=admin)
    assert unknown.status_code == 404 and unknown.get_json()["error"] == "unknown_room"
    assert "Salle Z" in unknown.get_json()["message"]
    for bad in ("", "ABC", "ABCD-EFGH-J", 12345678, None, "0000-0000"):
        resp = c.post("/api/rooms/Salle B/command", json={"code": bad}, headers=admin)
        assert resp.status_code == 422 and resp.get_json()["error"] == "bad_field", bad
    assert (
        c.post("/api/rooms/Salle B/command", json={"code": code}, headers=annex.headers("speaker")).status_code == 403
    )
    assert c.post("/api/rooms/Salle B/command", json={"code": code}).status_code == 401
    assert c.post("/api/rooms/Salle B/command", data="x", headers=admin).status_code in (400, 415)


def test_a_name_with_a_quote_is_quoted_safely():
    line = command_line("http://10.0.0.2:8080", "Salle d'en haut", "ACDE-FHJK")
    assert shlex.split(line)[5] == "Salle d'en haut"


def test_the_openapi_describes_every_rooms_route(annex):  # noqa: F811
    from display.openapi import rooms
    from hall.door import rooms_desk, rooms_state

    assert (rooms.ROOM_NAME_CHARS, rooms.MAX_ANNEX_SEQ) == (rooms_state.ROOM_NAME_CHARS, rooms_desk.MAX_ANNEX_SEQ)
    doc = annex.app.test_client().get("/api/openapi.json").get_json()
    routes = {
        ("/api/rooms", "get"),
        ("/api/rooms", "post"),
        ("/api/rooms/{room}/code", "post"),
        ("/api/rooms/{room}/command", "post"),
        ("/api/rooms/{room}/join", "post"),
        ("/api/rooms/{room}/beat", "post"),
        ("/api/rooms/{room}/claim", "post"),
        ("/api/rooms/{room}/go-on", "post"),
    }
    for path, method in routes:
        assert method in doc["paths"].get(path, {}), (path, method)
    made = doc["paths"]["/api/rooms"]["post"]
    assert made["requestBody"]["required"] is True and made["x-role"] == "admin"
    assert {"201", "401", "403", "409", "422"} <= set(made["responses"])
    join_op = doc["paths"]["/api/rooms/{room}/join"]["post"]
    assert {"200", "403", "404", "429"} <= set(join_op["responses"]) and "security" not in join_op
    claim = doc["paths"]["/api/rooms/{room}/claim"]["post"]
    assert claim["security"] == [{"bearer": []}] and {"403", "404", "423"} <= set(claim["responses"])
    go_on = doc["paths"]["/api/rooms/{room}/go-on"]["post"]
    assert go_on["x-role"] == "speaker" and {"404", "409"} <= set(go_on["responses"])
    # every route the blueprints serve under /api/rooms is in the document
    served = {
        (re.sub(r"<(\w+)>", r"{\1}", rule.rule), method.lower())
        for rule in annex.app.url_map.iter_rules()
        if rule.rule.startswith("/api/rooms")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    assert served == routes


# ---- the pages ------------------------------------------------------------------------------------------------
@pytest.fixture
def served_annex(tmp_path, clock):  # noqa: F811
    room = annex_hall(tmp_path, clock)
    server = LiveServer(room.app)
    room.url = server.url
    yield room
    server.stop()
    room.hall.journal.close()


def test_the_admin_enrols_a_room_sees_its_code_and_its_link_online_then_lost(served_annex, clock, browser):  # noqa: F811
    from playwright.sync_api import expect

    room = served_annex
    ctx = browser.new_context(viewport={"width": 1600, "height": 1000}, locale="fr-FR")
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        native = no_native_dialogs(page)
        login_page(page, room.url + "/admin", PINS["admin_pin"])
        panel = page.locator("#annex-admin")
        expect(panel.locator("#annex-none")).to_have_text("Aucune salle annexe ce soir.")
        # a refusal says why, and loses nothing
        page.fill("#annex-name", "Salle/B")
        panel.locator("#annex-form button[type=submit]").click()
        expect(panel.locator("#annex-msg")).to_contain_text("Nom de salle refusé")
        expect(page.locator("#annex-name")).to_have_value("Salle/B")
        page.fill("#annex-name", "Salle B")
        panel.locator("#annex-form button[type=submit]").click()
        expect(panel.locator("#annex-msg")).to_contain_text("Salle « Salle B » ouverte")
        code = panel.locator("#annex-code").inner_text()
        assert CODE.match(code), code
        command = panel.locator("#annex-command").inner_text()
        assert command.startswith("loto-hall serve --annex-of http") and command.endswith(
            f"--room 'Salle B' --code {code}"
        )
        assert panel.locator("#annex-qr").get_attribute("src").startswith("data:image/svg+xml")
        row = panel.locator("#annex-list tr[data-room='Salle B']")
        expect(row).to_contain_text("pas encore reliée")
        expect(panel.locator("#annex-none")).to_have_text("")
        shoot(panel, SHOTS / "admin-annex-1-code.png")
        # the same name again: refused, the code shown stays
        page.fill("#annex-name", "salle b")
        panel.locator("#annex-form button[type=submit]").click()
        expect(panel.locator("#annex-msg")).to_contain_text("existe déjà")
        expect(panel.locator("#annex-code")).to_have_text(code)
        # the device joins with the code shown: the list says it online, with no reload
        joined = room.app.test_client().post("/api/rooms/Salle B/join", json={"code": code})
        assert joined.status_code == 200
        expect(row).to_have_attribute("data-online", "true")
        expect(row).to_contain_text("en ligne")
        expect(row).to_contain_text("il y a 0 s")
        shoot(panel, SHOTS / "admin-annex-2-online.png")
        # its link lost: the list says the draw waits for it
        clock.move(4)
        room.hall.watch_rooms()
        expect(row).to_have_attribute("data-online", "false")
        expect(row).to_contain_text("liaison perdue : le tirage attend")
        expect(row).to_contain_text("il y a 4 s")
        shoot(panel, SHOTS / "admin-annex-3-lost.png")
        # a new code (its device replaced), asked first: « Non » makes none, « Nouveau code » shows it
        row.locator(".annex-new-code").click()
        answer(page, "no", asked="Un nouveau code pour « Salle B » ?")
        assert [t for t in types(room) if t == "room:opened"] == ["room:opened"]
        row.locator(".annex-new-code").click()
        answer(page, "yes", asked="Un nouveau code pour « Salle B » ?")
        expect(panel.locator("#annex-code")).not_to_have_text(code)
        assert CODE.match(panel.locator("#annex-code").inner_text())
        assert [t for t in types(room) if t == "room:opened"] == ["room:opened", "room:opened"]
        assert native == []
    finally:
        ctx.close()


def test_the_admin_panel_reads_in_english(served_annex, browser):
    from playwright.sync_api import expect

    room = served_annex
    open_room(room, "Salle B")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    try:
        page = ctx.new_page()
        login_page(page, room.url + "/admin?lang=en", PINS["admin_pin"])
        panel = page.locator("#annex-admin")
        expect(panel.locator("h2")).to_have_text("Annex rooms")
        expect(panel.locator("#annex-list tr[data-room='Salle B']")).to_contain_text("not linked yet")
    finally:
        ctx.close()


def test_the_speaker_is_asked_before_going_on_without_a_lost_room(served_annex, clock, browser):  # noqa: F811
    from playwright.sync_api import expect

    room = served_annex
    join(room)
    room.hall.start_partie(role="speaker")
    room.hall.draw(4, role="speaker")
    clock.move(4)
    room.hall.watch_rooms()
    ctx = browser.new_context(viewport={"width": 1600, "height": 900}, locale="fr-FR")
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        native = no_native_dialogs(page)
        login_page(page, room.url + "/speaker", PINS["speaker_pin"])
        rooms = page.locator("#annex-rooms")
        expect(rooms).to_contain_text("Salle B : liaison perdue")
        rooms.locator(".annex-go-on").click()
        box = page.locator("dialog#ask[open]")
        expect(box.locator("#ask-title")).to_have_text("Continuer sans la salle annexe « Salle B » ?")
        expect(box.locator("#ask-text")).to_contain_text("peuvent manquer une boule")
        shoot(page, SHOTS / "speaker-annex-go-on-ask.png")
        answer(page, "no")
        assert "room:go_on" not in types(room)  # « Non »: the draw still waits
        refused = room.app.test_client().post("/api/draws", json={"number": 5}, headers=room.headers("speaker"))
        assert refused.status_code == 423 and refused.get_json()["error"] == "room_offline"
        rooms.locator(".annex-go-on").click()
        answer(page, "yes", asked="Continuer sans la salle annexe")
        expect(rooms).to_contain_text("le tirage continue sans elle")
        assert types(room)[-1] == "room:go_on"
        assert native == []
    finally:
        ctx.close()
