"""Fixtures for the web: a hall with known cartons, its Flask app, a live server on loopback, Chromium."""

from __future__ import annotations

import random
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest

from display import views
from display.services import services_of
from hall.app.demo import DEMO_PINS
from hall.cartons.card_ids import make_card_id
from hall.cartons.cardbook import CardBook
from hall.cartons.cards import Card
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.conftest import CHROMIUM  # noqa: F401  (re-exported for the page tests)

try:  # page assertions wait as long as pages do (a loaded CI machine made 5 s too short)
    from playwright.sync_api import expect as _expect

    _expect.set_options(timeout=15_000)
except ImportError:  # the page tests skip themselves without Playwright
    pass

PINS = DEMO_PINS

# Two cartons that both complete their first row on 80 (a tie), one that never will in these tests.
A1, A2, A3 = make_card_id("A", 1), make_card_id("A", 2), make_card_id("A", 3)
CARDS = {
    A1: "4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90",
    A2: "5 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90",
    A3: "1 12 30 40 70 / 2 22 31 41 71 / 3 23 32 42 72",
}
TIE_DRAWS = [4, 5, 13, 37, 52, 80]  # A1 and A2 both make their quine on 80


@dataclass
class Room:
    """A hall and its web app; ``url`` is set when a live server runs."""

    hall: Hall
    app: object
    socketio: object
    config: object
    url: str = ""
    lobby: object = None  # the mini-game rooms the app was handed
    _tokens: dict = field(default_factory=dict)

    def token(self, role: str) -> str:
        if role not in self._tokens:
            pin = PINS[f"{role}_pin"]
            resp = self.app.test_client().post("/api/login", json={"pin": pin})
            assert resp.status_code == 200, resp.get_json()
            self._tokens[role] = resp.get_json()["token"]
        return self._tokens[role]

    def headers(self, role: str) -> dict:
        return {"Authorization": f"Bearer {self.token(role)}"}


_OPEN_ROOMS: list = []  # (app, lobby, store) made by make_app: closed after each test, as the runtime would


def make_app(hall, config, **options):
    """``create_app`` with the stores the runtime would hand it: the rooms replayed from the data folder's
    ``games.sqlite`` (``options`` may bring the tournament's, the documents, the async mode)."""
    from display.app import create_app
    from hall.app.runtime import lobby_settings, open_rooms

    lobby, store = open_rooms(config.data_dir, lobby_settings(config.games))
    app, socketio = create_app(hall, config, lobby=lobby, **options)
    _OPEN_ROOMS.append((app, lobby, store))
    return app, socketio


@pytest.fixture(autouse=True)
def _rooms_closed_after_each_test():
    """Each test's rooms' files closed after it (bots stopped first): left open, a whole run's SQLite files took the
    process past 1 024 descriptors, and pyserial's select() refused the drivers' ptys ("filedescriptor out of range")."""
    yield
    while _OPEN_ROOMS:
        app, lobby, store = _OPEN_ROOMS.pop()
        services_of(app).rooms.stop()
        services_of(app).sockets.close()
        lobby.shut_down(store.close)


def make_room(tmp_path, rules: dict | None = None, extra: dict | None = None, seed: int = 3) -> Room:
    raw = {
        "hall": {
            "name": "Salle des fêtes de Test",
            "data_dir": str(tmp_path),
            "prices": "1 carton 3 € · 6 cartons 15 €",
        },
        "auth": dict(PINS),
        "rules": rules or {},
        "programme": {
            "partie": [
                {
                    "lots": [
                        {"kind": "quine", "label": "Panier garni"},
                        {"kind": "double_quine", "label": "Jambon"},
                        {"kind": "carton_plein", "label": "Bon d'achat 100 €"},
                    ],
                    "consolation": "Bouteille de cidre",
                }
            ]
        },
    }
    for section, values in (extra or {}).items():
        raw.setdefault(section, {}).update(values)
    config = parse_config(raw)
    book = CardBook({cid: Card.parse(text) for cid, text in CARDS.items()})
    hall = Hall(config, Journal(tmp_path / "journal.sqlite"), book, voucher_secret=b"k" * 32, rng=random.Random(seed))
    app, socketio = make_app(hall, config)
    app.config["TESTING"] = True
    return Room(hall, app, socketio, config, lobby=services_of(app).rooms.lobby)


@pytest.fixture
def room(tmp_path):
    r = make_room(tmp_path)
    yield r
    r.hall.journal.close()


@pytest.fixture
def client(room):
    return room.app.test_client()


def make_tournament_room(tmp_path) -> Room:
    """A hall with the OSGA tournament's store (``room.store``) and its PDF makers."""
    from hall.app.paper.tournament_pdf import write_sheets_pdf, write_standings_pdf
    from hall.app.runtime import TOURNAMENT_FILE, open_tournament

    store = open_tournament(tmp_path / TOURNAMENT_FILE)
    room = make_room(tmp_path)
    app, _ = make_app(
        room.hall,
        room.config,
        documents={"tournament_sheets_pdf": write_sheets_pdf, "tournament_standings_pdf": write_standings_pdf},
        tournament=store,
    )
    app.config["TESTING"] = True
    room.app = app
    room.store = store  # type: ignore[attr-defined]
    return room


@pytest.fixture
def troom(tmp_path):
    """The tournament's API tests."""
    room = make_tournament_room(tmp_path)
    yield room
    room.store.close()
    room.hall.journal.close()


class LiveServer:
    """The app served by Werkzeug's threaded server on 127.0.0.1:0 (the same server ``socketio.run`` uses)."""

    def __init__(self, app):
        from werkzeug.serving import make_server

        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self.server.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@contextmanager
def served(room):
    """``room`` served on loopback (``room.url``) for the block; then its server stopped and its journal closed."""
    server = LiveServer(room.app)
    room.url = server.url
    try:
        yield room
    finally:
        server.stop()
        room.hall.journal.close()


@pytest.fixture
def live(room):
    server = LiveServer(room.app)
    room.url = server.url
    yield room
    server.stop()


def play_to_tie(room: Room) -> None:
    """Start the partie, draw the tie numbers, have both cartons checked valid by a controller."""
    h = room.hall
    h.start_partie(role="speaker")
    for n in TIE_DRAWS:
        h.draw(n, role="speaker")
    assert views.verdict(h.check_claim(A1, role="controller"))["verdict"] == "valid"
    assert views.verdict(h.check_claim(A2, role="controller"))["verdict"] == "valid"


# ------------------------------------------------------------------------------------------ browser
# pw, browser_args and browser are shared with the other page tests: see tests/conftest.py
@pytest.fixture
def context(browser):
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    yield ctx
    ctx.close()


@pytest.fixture
def page(context, live):
    """A page that records every request it makes (to prove nothing leaves the machine)."""
    p = context.new_page()
    p.requests_seen = []
    p.on("request", lambda req: p.requests_seen.append(req.url))
    p.set_default_timeout(10_000)
    yield p


def login_page(page, url: str, pin: str, name: str = "") -> None:
    page.goto(url)
    page.fill("#pin", pin)
    if name:
        page.fill("#login-name", name)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("nav.nav")
    page.wait_for_load_state("load")  # the page's modules ran: a form submitted before would go to the server


def no_native_dialogs(page) -> list[str]:
    """Fail on any browser ``alert()``/``confirm()``/``prompt()`` (the hall asks in the page: ask.js); the list of
    what was asked that way stays empty for the test to check."""
    native: list[str] = []
    page.on("dialog", lambda d: (native.append(d.message), d.dismiss()))
    return native


def answer(page, value: str = "yes", asked: str | None = None) -> None:
    """Answer the page's own question (ask.js's <dialog id="ask">) by its button ``value``, once it is open and,
    when given, says ``asked`` in its title."""
    from playwright.sync_api import expect

    box = page.locator("dialog#ask[open]")
    expect(box).to_be_visible()
    if asked is not None:
        expect(box.locator("#ask-title")).to_contain_text(asked)
    box.locator(f"button[data-answer='{value}']").click()
    expect(page.locator("dialog#ask[open]")).to_have_count(0)


def shown(card_id: str) -> str:
    """A generated carton ID as the pages show it: the check character set apart by a no-break space."""
    return card_id[:-1] + "\u00a0" + card_id[-1]


# ------------------------------------------------------------------------------------------ mini-game rooms
# bots at once; every phone of a test comes from 127.0.0.1: a whole table may sit there
GAMES = {"games": {"bot_delay_s": 0, "takeover_s": 600, "seats_per_address": 8}, "server": {"host": "127.0.0.1"}}


def bots_round(app) -> None:
    """Wake the bots' task and wait until the lobby is free (the task plays under the lobby's own lock)."""
    hub = services_of(app).rooms
    hub.wake.set()
    hub.lobby.due(hub.clock())


@pytest.fixture
def hall_room(tmp_path):
    """A hall whose mini-game rooms play their bots at once (the rooms' API tests)."""
    r = make_room(tmp_path, extra=GAMES)
    yield r
    services_of(r.app).rooms.stop()
    r.hall.journal.close()


@pytest.fixture
def hall_live(tmp_path):
    """The same, served on loopback for Chromium and Socket.IO clients (the rooms' browser tests)."""
    r = make_room(tmp_path, extra=GAMES)
    server = LiveServer(r.app)
    r.url = server.url
    yield r
    server.stop()
    services_of(r.app).rooms.stop()
    r.hall.journal.close()
