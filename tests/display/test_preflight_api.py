"""``POST /api/preflight`` (admin only) and the /admin panel in Chromium: the pre-flight run from the page, said in
French and in English, kept in the journal; bad input refused before anything runs or is kept.

Screenshots go to a temporary folder (``LOTO_SCREENSHOTS=1``: written to docs/screenshots/ when a doc names them)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from display.services import services_of
from hall.app.preflight import preflight
from hall.events.settings import PREFLIGHT_CHECKS
from tests.display.axe import shoot
from tests.display.conftest import PINS, LiveServer, login_page, make_room
from tests.display.test_caisse_browser import folder  # noqa: F401  (fixture)


@pytest.fixture
def checked(room):
    """The room with the pre-flight handed in, as the wiring does (``hall/app/wiring.py``)."""
    services_of(room.app).documents["preflight"] = preflight
    return room


def test_admin_runs_it_and_the_result_is_kept(checked, client):
    before = checked.hall.fingerprint().seq
    resp = client.post("/api/preflight", json={}, headers=checked.headers("admin"))
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert [c["key"] for c in body["checks"]] == list(PREFLIGHT_CHECKS)
    assert {c["state"] for c in body["checks"]} <= {"ok", "problem", "advice"}
    assert body["seq"] == before + 1 and checked.hall.fingerprint().seq == body["seq"]
    kept = checked.hall.records()[-1]
    assert kept.type == "preflight:run" and [c[0] for c in kept.event.checks] == list(PREFLIGHT_CHECKS)
    english = client.post("/api/preflight?lang=en", json={"only": ["storage"]}, headers=checked.headers("admin"))
    assert english.get_json()["checks"][0]["name"] == "Writing to the card"


@pytest.mark.parametrize(
    "body",
    [{"only": ["nope"]}, {"only": []}, {"only": "storage"}, {"only": ["clock", "clock"]}, {"only": [1]}, {"x": 1}],
)
def test_bad_input_is_refused_and_nothing_kept(checked, client, body):
    before = checked.hall.fingerprint().seq
    resp = client.post("/api/preflight", json=body, headers=checked.headers("admin"))
    assert resp.status_code == 422 and resp.get_json()["error"] == "bad_field"
    assert checked.hall.fingerprint().seq == before


def test_not_json_and_not_admin_are_refused(checked, client):
    resp = client.post(
        "/api/preflight", data="{", headers={**checked.headers("admin"), "Content-Type": "application/json"}
    )
    assert resp.status_code == 400
    assert client.post("/api/preflight", json={}, headers=checked.headers("speaker")).status_code == 403
    assert client.post("/api/preflight", json={}).status_code == 401


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_admin_panel_shows_it(browser, tmp_path, folder, lang):  # noqa: F811
    """A printer configured but not there (the discard port) and a keypad unplugged: two red rows to read."""
    missing = {"printer": {"url": "tcp://127.0.0.1:9?timeout=1"}, "keypad": {"device": str(tmp_path / "event9")}}
    room = make_room(tmp_path, extra=missing)
    services_of(room.app).documents["preflight"] = preflight
    server = LiveServer(room.app)
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR" if lang == "fr" else "en-GB")
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    try:
        login_page(page, f"{server.url}/admin?lang={lang}", PINS["admin_pin"])
        page.click("#preflight-run")
        expect(page.locator("#preflight tbody tr")).to_have_count(len(PREFLIGHT_CHECKS))
        expect(page.locator("#preflight tr.preflight-problem")).to_have_count(2)
        expect(page.locator("#preflight-msg")).to_contain_text("À régler" if lang == "fr" else "To fix")
        page.locator("#preflight-panel").scroll_into_view_if_needed()
        shoot(page, str(folder / f"admin-preflight-{lang}.png"))
    finally:
        ctx.close()
        server.stop()
        room.hall.journal.close()
