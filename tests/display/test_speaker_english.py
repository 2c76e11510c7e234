"""An English speaker console shows no French sentence, whatever state the devices are in: the drivers publish
codes and parameters, display/ translates them from the one catalogue (Chromium, real drivers)."""

from __future__ import annotations

import os
import queue
import re
import socket
from pathlib import Path

from playwright.sync_api import expect

from drivers.ball_machine import BallMachineReader
from drivers.printer import start_printing
from hall.config import BallMachineSection
from hall.snapshots import notice
from tests.display.axe import shoot
from tests.display.conftest import PINS, LiveServer, make_room, play_to_tie

DOCS = Path(__file__).resolve().parents[2] / "docs/screenshots"  # with LOTO_SCREENSHOTS=1 (as test_screenshots)
FRENCH = re.compile(
    r"[àâçéèêëîïôûùœ]|\b(machine à boules|boules|imprimante|injoignable|débranché|absente?|"
    r"introuvable|tapez|numéros|prête?|attente|bons?|clavier|lecteur|branché|papier|partie|"
    r"tirage|carton|aucun|appareil)\b",
    re.IGNORECASE,
)


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_an_english_console_shows_every_device_state_in_english(tmp_path, browser):
    room = make_room(
        tmp_path,
        extra={"hall": {"name": "Test Hall", "prices": ""}, "printer": {"url": f"tcp://127.0.0.1:{_closed_port()}"}},
    )
    h = room.hall
    states: queue.Queue = queue.Queue()
    h.subscribe_notices(lambda name, p: states.put((p.device, p.code)) if name == "device:status_changed" else None)
    ball = BallMachineReader(h, BallMachineSection(port=str(tmp_path / "no-such-tty")))
    services = [ball, *start_printing(h, room.config, retry_initial_s=0.05, retry_max_s=0.2)]
    server = LiveServer(room.app)
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    try:
        for service in services:
            service.start()
        seen = set()
        while not {("ball_machine", "ball_machine_missing"), ("printer", "printer_unreachable")} <= seen:
            seen.add(states.get(timeout=10))
        h.set_device_status("keypad", "absent", code="evdev_missing")
        h.set_device_status("scanner", "absent", code="scanner_lost", params={"path": "/dev/x"})
        play_to_tie(room)
        h.award(role="speaker")  # two vouchers wait for a printer that is away
        while ("printer", "printer_waiting") not in seen:
            seen.add(states.get(timeout=10))
        page = ctx.new_page()
        page.goto(server.url + "/speaker?lang=en")
        page.fill("#pin", PINS["speaker_pin"])
        page.click("#login-form button[type=submit]")
        expect(page.locator("#devices .device")).to_have_count(4)
        expect(page.locator("#devices")).to_contain_text("Ball machine missing")
        expect(page.locator("#devices")).to_contain_text("voucher(s) waiting")
        h.set_device_status(
            "ball_machine", "absent", code="ball_machine_lost", params={"path": "/dev/pts/9"}
        )  # a live notice
        expect(page.locator("#devices")).to_contain_text("Ball machine unplugged (/dev/pts/9)")
        h.tell(
            notice("draw:refused", "already_drawn", source="ball_machine", number=80, raw="80")
        )  # as the reader sends it: a value, a code and its number
        expect(page.locator("#entry-msg")).to_contain_text("Ball 80 is already out")
        devices = page.locator("#devices").inner_text()
        assert not FRENCH.search(devices), devices
        folder = DOCS if os.environ.get("LOTO_SCREENSHOTS") == "1" else tmp_path
        shoot(page, str(folder / "speaker-en-devices-720p.png"))
        # the language switch names French in French (lang="fr"): whoever looks for it reads it
        expect(page.locator("nav .lang-switch[lang=fr]")).to_have_text("Français")
        text = page.locator("body").inner_text().replace("Français", "")
        french = sorted({m.group(0) for m in FRENCH.finditer(text)})
        assert not french, (french, text)
    finally:
        ctx.close()
        for service in reversed(services):
            service.stop()
        server.stop()
        h.close()


def test_a_serial_printer_waiting_reads_in_english_and_in_french(tmp_path):
    from flask_babel import force_locale

    from display.i18n import device_sentence
    from drivers.printer import printer_target
    from hall.snapshots import device_status

    room = make_room(tmp_path)
    place = printer_target("serial:///dev/ttyUSB0?baudrate=19200").place
    status = device_status("printer", "degraded", "printer_waiting", reason="printer_no_answer", where=place, count=2)
    with room.app.app_context():
        with force_locale("en"):
            assert device_sentence(status) == "The printer does not answer (/dev/ttyUSB0) — 2 voucher(s) waiting."
        with force_locale("fr"):
            assert device_sentence(status) == "L'imprimante ne répond pas (/dev/ttyUSB0) — 2 bon(s) en attente."
    room.hall.close()
