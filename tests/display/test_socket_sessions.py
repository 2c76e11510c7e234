"""Issue 22, items 5 and 8 over loopback with a real Socket.IO client: a staff socket lives no longer than its
session, and no socket is opened for a page whose ``Host`` is not the hall (DNS rebinding)."""

from __future__ import annotations

import http.client
import json
import queue
import threading

import pytest
import socketio

from display.live import STAFF
from display.services import services_of
from tests.display.conftest import PINS


def call(live, method: str, path: str, body: dict | None = None, headers: dict | None = None):
    """(status, JSON, headers) of one request over loopback."""
    conn = http.client.HTTPConnection("127.0.0.1", int(live.url.rsplit(":", 1)[1]), timeout=10)
    try:
        conn.request(
            method, path, body=json.dumps(body or {}), headers={"Content-Type": "application/json", **(headers or {})}
        )
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read() or b"null"), resp.headers
    finally:
        conn.close()


def log_in(live, role: str) -> tuple[str, str]:
    """(token, session cookie) of a login over loopback."""
    status, body, headers = call(live, "POST", "/api/login", {"pin": PINS[f"{role}_pin"]})
    assert status == 200, body
    cookie = next(c.split(";")[0] for c in headers.get_all("Set-Cookie") if c.startswith("loto_session="))
    return body["token"], cookie


class Listener:
    """A python-socketio client that queues every event it gets, and its disconnection."""

    def __init__(self, live, auth: dict | None = None, headers: dict | None = None, transports=("websocket",)):
        self.events: queue.Queue = queue.Queue()
        self.gone = threading.Event()
        self.client = socketio.Client(reconnection=False)
        self.client.on("*", lambda name, *args: self.events.put((name, args[0] if args else None)))
        self.client.on("disconnect", lambda *reason: self.gone.set())
        self.refusals: list = []
        self.client.on("connect_error", lambda data=None: self.refusals.append(data))
        self.live, self.auth, self.headers, self.transports = live, auth, headers or {}, list(transports)

    def open(self) -> Listener:
        self.client.connect(
            self.live.url, auth=self.auth, headers=self.headers, transports=self.transports, wait_timeout=5
        )
        return self

    def first(self, name: str, timeout: float = 5.0):
        while True:
            got, data = self.events.get(timeout=timeout)
            if got == name:
                return data

    def close(self) -> None:
        threading.Thread(target=self.client.disconnect, daemon=True).start()


def in_staff_room(live, sid: str) -> bool:
    return sid in live.socketio.server.manager.rooms.get("/", {}).get(STAFF, {})


@pytest.mark.parametrize("by", ["token", "cookie"])
def test_a_logged_out_console_loses_the_staff_feed_at_once(live, by):
    token, cookie = log_in(live, "speaker")
    other_token, _ = log_in(live, "speaker")  # another console of the same role
    console = Listener(
        live, auth={"token": token} if by == "token" else None, headers={"Cookie": cookie} if by == "cookie" else None
    ).open()
    console.first("state")
    other = Listener(live, auth={"token": other_token}).open()
    projector = Listener(live).open()
    other.first("state"), projector.first("state")
    sid = console.client.get_sid()
    assert in_staff_room(live, sid)
    headers = {"Authorization": f"Bearer {token}"} if by == "token" else {"Cookie": cookie}
    assert call(live, "POST", "/api/logout", headers=headers)[0] == 200
    assert console.gone.wait(5), "the logged-out console's socket was kept"
    assert not in_staff_room(live, sid)
    live.hall.start_partie(role="speaker")  # the others still get the feed
    assert other.first("partie")["status"] == "started" and projector.first("partie")["status"] == "started"
    assert not other.gone.is_set() and not projector.gone.is_set()
    for listener in (other, projector):
        listener.close()


def test_a_re_pinned_role_loses_the_staff_feed_at_once(live):
    speaker, _ = log_in(live, "speaker")
    admin, _ = log_in(live, "admin")
    console = Listener(live, auth={"token": speaker}).open()
    console.first("state")
    desk = Listener(live, auth={"token": log_in(live, "desk")[0]}).open()
    desk.first("state")
    status, body, _ = call(
        live, "POST", "/api/pins", {"role": "speaker", "pin": "918273"}, {"Authorization": f"Bearer {admin}"}
    )
    assert status == 201 and body["sessions_ended"] >= 1
    assert console.gone.wait(5)
    live.hall.start_partie(role="admin")
    assert desk.first("partie")["status"] == "started"
    desk.close()


def test_resync_checks_the_session_again(live):
    token, _ = log_in(live, "controller")
    console = Listener(live, auth={"token": token}).open()
    console.first("state")
    sessions = services_of(live.app).auth.sessions
    later = sessions.clock() + sessions.idle_s + 1
    sessions.clock = lambda: later  # the session went idle (nothing told the socket)
    console.client.emit("resync")
    assert console.gone.wait(5), "resync answered a socket whose session had ended"


@pytest.mark.parametrize("role", [None, "speaker"])
def test_the_socket_handshake_refuses_a_foreign_host(live, role):
    auth = {"token": log_in(live, role)[0]} if role else None
    port = live.url.rsplit(":", 1)[1]
    rebound = Listener(live, auth=auth, headers={"Host": f"rebound.example:{port}"}, transports=("polling",))
    with pytest.raises(socketio.exceptions.ConnectionError):
        rebound.open()
    assert "'error': 'foreign_host'" in rebound.refusals[0]["message"], rebound.refusals  # as every refusal is sent
    ok = Listener(live, auth=auth, headers={"Host": f"localhost:{port}"}, transports=("polling",)).open()
    assert ok.first("state")["seq"] == 0
    ok.close()


def test_a_console_page_shows_its_login_as_soon_as_its_session_ends(page, live):
    """Chromium: the page's socket is dropped by the server, so the page reloads to its login at once."""
    from playwright.sync_api import expect

    from tests.display.conftest import login_page

    page.set_viewport_size({"width": 1280, "height": 720})
    login_page(page, live.url + "/speaker", PINS["speaker_pin"])
    page.wait_for_selector("body[data-seq]")  # the page's socket is up: it has the hall's state
    admin, _ = log_in(live, "admin")
    assert (
        call(live, "POST", "/api/pins", {"role": "speaker", "pin": "918273"}, {"Authorization": f"Bearer {admin}"})[0]
        == 201
    )
    expect(page.locator("#login-form")).to_be_visible(timeout=5000)
    assert page.locator("nav.nav").count() == 0
