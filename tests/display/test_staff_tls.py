"""Issue 31 item 8: the staff's pages, PINs and cookies never cross the hall's Wi-Fi in clear; the device cookie
lives one evening."""

from __future__ import annotations

from urllib.parse import urlsplit

from display import current
from display.devices import DEVICE_COOKIE, DEVICE_MAX_AGE_S
from display.services import services_of
from tests.display.conftest import PINS
from tests.helpers import refused

PHONE = "10.42.0.60"
HTTPS = "https://loto.local:8443"


def serving_staff_tls(room) -> None:
    room.app.config["LOTO_STAFF_PORT"] = 8443  # as the wiring sets it once the staff's HTTPS port listens


def test_a_staff_page_asked_in_clear_goes_to_https_and_a_pin_sent_in_clear_is_refused_unread(room):
    serving_staff_tls(room)
    c = room.app.test_client()
    for path in ("/speaker", "/controle", "/caisse", "/admin", "/lots", "/ajout", "/admin?lang=en"):
        resp = c.get(path, headers={"Host": "loto.local:8080"}, environ_base={"REMOTE_ADDR": PHONE})
        assert (resp.status_code, resp.headers["Location"]) == (307, "https://loto.local:8443" + path), path
    guard = services_of(room.app).auth.guard
    for path, body in (("/api/login", {"pin": PINS["admin_pin"]}), ("/api/enrol", {"code": "ACDEFHJK"})):
        body = refused(
            c.post(path, json=body, headers={"Host": "loto.local:8080"}, environ_base={"REMOTE_ADDR": PHONE}),
            403,
            "tls_required",
        )
        assert body["url"] == "https://loto.local:8443/admin"
    assert guard.everyone.dump(guard.clock()) == {}  # nothing was compared, nothing counted
    projector = c.get("/", environ_base={"REMOTE_ADDR": PHONE})  # the phones' and the projector's stay in clear
    assert projector.status_code == 200
    assert c.get("/mes-cartons", environ_base={"REMOTE_ADDR": PHONE}).status_code == 200
    assert c.post("/api/login", json={"pin": PINS["speaker_pin"]}).status_code == 200  # the Pi itself


def test_a_foreign_host_is_never_copied_into_the_redirect(room):
    serving_staff_tls(room)
    c = room.app.test_client()
    with room.app.app_context():
        own = urlsplit(current.config().hall_url).hostname  # the hall's own address, its certificate's
    for host in ("evil.example", "evil.example:8080", "loto.local@evil.example", "[::1]:80", "10.9.9.9"):
        resp = c.get("/admin?x=1", headers={"Host": host}, environ_base={"REMOTE_ADDR": PHONE})
        location = urlsplit(resp.headers["Location"])
        assert resp.status_code == 307 and (location.port, location.path, location.query) == (8443, "/admin", "x=1")
        assert location.hostname not in ("evil.example", "::1", "10.9.9.9"), (host, resp.headers["Location"])
        assert location.hostname == own, (host, resp.headers["Location"])
        login = c.post("/api/login", json={}, headers={"Host": host}, environ_base={"REMOTE_ADDR": PHONE})
        assert urlsplit(refused(login, 403, "tls_required")["url"]).hostname == own


def test_over_https_the_cookies_are_secure_and_the_console_is_known_one_evening(room):
    serving_staff_tls(room)
    c = room.app.test_client()
    resp = c.post(f"{HTTPS}/api/login", json={"pin": PINS["admin_pin"]}, environ_base={"REMOTE_ADDR": PHONE})
    assert resp.status_code == 200, resp.get_json()
    cookies = {h.split("=", 1)[0]: h for h in resp.headers.getlist("Set-Cookie")}
    assert "Secure" in cookies["loto_session"] and "HttpOnly" in cookies["loto_session"]
    assert "Secure" in cookies[DEVICE_COOKIE] and f"Max-Age={DEVICE_MAX_AGE_S}" in cookies[DEVICE_COOKIE]
    assert DEVICE_MAX_AGE_S <= 24 * 3600  # one evening, never 400 days
    page = c.get(f"{HTTPS}/admin", environ_base={"REMOTE_ADDR": PHONE})
    assert page.status_code == 200 and 'id="consoles-panel"' in page.get_data(as_text=True)


def test_without_the_staff_port_nothing_changes(room):
    c = room.app.test_client()
    assert c.get("/speaker", environ_base={"REMOTE_ADDR": PHONE}).status_code == 200
    assert c.post("/api/login", json={"pin": PINS["desk_pin"]}, environ_base={"REMOTE_ADDR": PHONE}).status_code == 200
