"""The first start end to end in Chromium at a phone's size (issue 42 item 2's test): the projector's QR code read
off its screenshot, each step answered on the phone (a bad answer first, where there can be one: its sentence shown,
nothing changed), the PIN sheet read off the printer, the ball machine found on a pty speaking STX at 4800 bauds,
setup closed afterwards and the projector back to the hall's own page."""

from __future__ import annotations

import io
import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from drivers.printer_sink import decode_text
from hall.app.setup_wizard import OWN_CONFIG
from tests.app.setup_rig import setup_room
from tests.display.conftest import LiveServer

SHOTS = Path(os.environ.get("LOTO_SETUP_SHOTS", "")) if os.environ.get("LOTO_SETUP_SHOTS") else None


@pytest.fixture
def served(tmp_path):
    rig = setup_room(tmp_path)
    server = LiveServer(rig.app)
    rig.url = server.url
    yield rig
    server.stop()
    rig.close()


def _shot(page, name: str, tmp_path: Path) -> bytes:
    data = page.screenshot(path=str((SHOTS or tmp_path) / name))
    return data


def _refused(page, form: str, says: str) -> None:
    expect(page.locator(f"form[data-step={form}] .error-line")).to_contain_text(says)


def test_the_first_start_on_a_phone(served, browser, tmp_path):
    rig = served
    projector = browser.new_page(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    projector.goto(rig.url + "/")
    png = _shot(projector, "setup-projector-1920.png", tmp_path)
    codes = [
        r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(png))) if r.format == zxingcpp.BarcodeFormat.QRCode
    ]
    assert len(codes) == 1, codes
    link = urlsplit(codes[0])
    assert link.path == "/setup" and link.query == f"code={rig.wizard.code}"

    phone = browser.new_page(viewport={"width": 360, "height": 640}, locale="fr-FR", is_mobile=True, has_touch=True)
    phone.goto(rig.url + "/setup")  # without the code: refused
    expect(phone.locator("h1")).to_contain_text("Scannez le code QR du projecteur")
    phone.goto(f"{rig.url}{link.path}?{link.query}")  # what the phone opens from the QR code
    expect(phone.locator("form[data-step=salle]")).to_be_visible()
    _shot(phone, "setup-phone-fr.png", tmp_path)

    before = (rig.data_dir / OWN_CONFIG).exists()
    phone.fill("#s-association", "Comité des fêtes")
    phone.fill("#s-salle", " ")
    phone.click("form[data-step=salle] button[type=submit]")
    _refused(phone, "salle", "1 à 80 caractères")
    assert (rig.data_dir / OWN_CONFIG).exists() == before
    phone.fill("#s-salle", "Salle Jean Moulin")
    phone.click("form[data-step=salle] button[type=submit]")

    phone.fill("#s-evening", "Grand loto du 14 février")
    phone.click("form[data-step=soiree] button[type=submit]")

    phone.fill("#s-url", "tcp://127.0.0.1:1")  # nothing listens there
    phone.click("form[data-step=imprimante] button[type=submit]")
    _refused(phone, "imprimante", "n'a pas imprimé")
    phone.fill("#s-url", rig.sink.url)
    phone.click("form[data-step=imprimante] button[type=submit]")
    assert "TEST IMPRIMANTE" in decode_text(rig.sink.wait_for_jobs(1)[0])

    phone.click("#setup-make-pins")
    expect(phone.locator("#setup-pins")).to_be_visible()
    shown = {
        role: phone.locator(f"[data-pin={role}]").inner_text() for role in ("speaker", "controller", "desk", "admin")
    }
    sheet = decode_text(rig.sink.wait_for_jobs(2)[1])
    assert "FICHE DES CODES" in sheet and all(pin in sheet for pin in shown.values()), sheet
    _shot(phone, "setup-phone-pins-fr.png", tmp_path)
    phone.click("#setup-pins-kept")

    phone.fill("#s-password", "court")
    phone.click("form[data-step=wifi] button[type=submit]")
    _refused(phone, "wifi", "Réponse refusée")
    phone.fill("#s-password", "quine2026")
    phone.click("form[data-step=wifi] button[type=submit]")

    phone.click("form[data-step=boules] button[value=listen]")
    expect(phone.locator("#setup-balls")).not_to_be_empty()
    balls = [int(n) for n in phone.locator("#setup-balls").inner_text().replace("·", " ").split()]
    assert len(set(balls)) == 3
    rig.machine.drop(*balls)  # the volunteer drops the three balls the phone names
    expect(phone.locator("form[data-step=voix]")).to_be_visible(timeout=60_000)

    phone.select_option("#s-voice", "fr-BE")
    with projector.expect_response(
        lambda r: r.url.endswith("/api/setup/voice/fr-BE.wav") and r.status == 200, timeout=30_000
    ) as said:
        phone.click("#setup-voice-test")
    assert said.value.headers["content-type"] == "audio/wav"  # the projector fetched the clip to play it
    clip = rig.app.test_client().get("/api/setup/voice/fr-BE.wav")
    assert clip.status_code == 200 and clip.get_data()[:4] == b"RIFF"  # espeak-ng's voice, made on the hall
    expect(phone.locator("#setup-voice-asked")).to_be_visible()
    phone.click("form[data-step=voix] button[value=true]")
    phone.click("form[data-step=ecran] button[value=false]")
    _refused(phone, "ecran", "boule 88 en entier")
    phone.click("form[data-step=ecran] button[value=true]")
    phone.click("form[data-step=finish] button[type=submit]")
    expect(phone.locator("#setup-closed")).to_be_visible()
    expect(phone.locator("#setup-closed")).to_contain_text("Prêt pour la partie 1")

    assert rig.app.test_client().get("/setup").status_code == 410
    text = (rig.data_dir / OWN_CONFIG).read_text(encoding="utf-8")
    assert "baudrate = 4800" in text and 'protocol = "stx"' in text and 'voice = "fr-BE"' in text
    assert f'admin_pin = "{shown["admin"]}"' in text
    expect(projector.locator("body.setup-projector")).to_have_count(0, timeout=15_000)  # the hall's own page now


def test_the_wizard_in_english(served, browser, tmp_path):
    phone = browser.new_page(viewport={"width": 360, "height": 640}, locale="en-GB", is_mobile=True, has_touch=True)
    phone.goto(f"{served.url}/setup?code={served.wizard.code}&lang=en")
    expect(phone.locator("form[data-step=salle] h2")).to_have_text("The association and the hall")
    phone.fill("#s-association", "Comité des fêtes")
    phone.click("form[data-step=salle] button[type=submit]")  # the hall's name missing: the browser asks for it
    phone.fill("#s-salle", "Salle Jean Moulin")
    phone.click("form[data-step=salle] button[type=submit]")
    expect(phone.locator("form[data-step=soiree]")).to_be_visible()
    expect(phone.locator("#setup-progress")).to_have_text("Step 2 of 8")
    _shot(phone, "setup-phone-en.png", tmp_path)
