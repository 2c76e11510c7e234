"""The first start's answers in the record, its « Loto-Setup » Wi-Fi, and a device's step again from /admin
(issue 42): every answer journalled as ``setup:answered`` with no secret in the journal's file; the open setup Wi-Fi
brought up through a recording fake ``nmcli`` on PATH when no wired network answers, the projector's QR code at its
address, taken down when setup closes; after setup closed, the printer, the ball machine and the voice set again by
the admin (``/setup`` itself stays 410), each bad answer refused with nothing changed."""

from __future__ import annotations

import io
import json
import os
import random
import time

import pytest
import zxingcpp
from PIL import Image

from drivers.printer_sink import decode_text
from hall.app.setup_hotspot import PROFILE, SSID, SetupHotspot
from hall.app.setup_wizard import OWN_CONFIG, SetupWizard
from hall.cartons.cardbook import CardBook
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.app.setup_rig import setup_room
from tests.display.conftest import make_app, make_room

FAKE_NMCLI = """#!/bin/sh
# a recording nmcli: each call one JSON line (its arguments); FAIL_ON names a subcommand that fails
python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$@" >> "{log}"
if [ -n "$FAIL_ON" ] && [ "$2" = "$FAIL_ON" ]; then echo "Error: $FAIL_ON refused" >&2; exit 4; fi
exit 0
"""


@pytest.fixture
def nmcli(tmp_path, monkeypatch):
    """A fake ``nmcli`` first on PATH; returns the calls it got so far (a function)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    log = tmp_path / "nmcli.log"
    script = folder / "nmcli"
    script.write_text(FAKE_NMCLI.replace("{log}", str(log)), encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("FAIL_ON", raising=False)

    def calls() -> list[list[str]]:
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]

    return calls


@pytest.fixture
def rig(tmp_path):
    r = setup_room(tmp_path)
    yield r
    r.close()


def _net():
    return parse_config({}).network


def _journal_setup(rig) -> list:
    return [r for r in rig.hall.records() if r.type == "setup:answered"]


def _through(rig) -> tuple:
    """The whole wizard on a phone: returns the phone, the PINs and the Wi-Fi password."""
    phone = rig.app.test_client()
    assert phone.get(f"/setup?code={rig.wizard.code}").status_code == 302
    ok = lambda step, body: phone.post(f"/api/setup/{step}", json=body)  # noqa: E731
    assert ok("salle", {"association": "Comité des fêtes", "salle": "Salle Jean Moulin"}).status_code == 200
    assert ok("soiree", {"evening": "Grand loto", "language": "fr"}).status_code == 200
    assert ok("imprimante", {"url": rig.sink.url}).status_code == 200
    pins = ok("codes", {}).get_json()["pins"]
    assert ok("wifi", {"ssid": "Loto-Salle", "password": "quine-secrete-2026"}).status_code == 200
    assert ok("boules", {"action": "none"}).status_code == 200
    assert ok("voix", {"voice": "fr-FR", "heard": True}).status_code == 200
    assert ok("ecran", {"seen": True}).status_code == 200
    return phone, pins, "quine-secrete-2026"


# ---- every answer in the record, no secret ----------------------------------------------------------------------
def test_every_answer_is_in_the_record_and_no_secret_is(rig):
    phone, pins, password = _through(rig)
    kept = {r.event.step: dict(r.event.answers) for r in _journal_setup(rig)}
    assert list(kept) == ["salle", "soiree", "imprimante", "codes", "wifi", "boules", "voix", "ecran"]
    assert kept["salle"] == {"hall.name": "Comité des fêtes · Salle Jean Moulin"}
    assert kept["imprimante"] == {"printer.url": rig.sink.url}
    assert kept["codes"] == {f"auth.{role}_pin": "set" for role in pins}
    assert kept["wifi"] == {"network.ssid": "Loto-Salle", "network.password": "set"}
    assert kept["boules"] == {"ball_machine": "none"}
    assert kept["voix"] == {"speech.enabled": "true", "speech.voice": "fr-FR"}
    assert kept["ecran"] == {"screen.ball_seen": "88"}
    assert all(r.role == "admin" and r.event.again is False for r in _journal_setup(rig))
    journal = b"".join(p.read_bytes() for p in rig.data_dir.glob("journal.sqlite*"))  # the file and its WAL
    assert b"setup:answered" in journal
    for secret in (*pins.values(), password):
        assert secret.encode() not in journal  # neither a PIN nor the Wi-Fi's password, anywhere in the files


def test_a_refused_answer_is_not_in_the_record(rig):
    phone = rig.app.test_client()
    phone.get(f"/setup?code={rig.wizard.code}")
    before = len(rig.hall.records())
    assert phone.post("/api/setup/wifi", json={"ssid": "Loto", "password": "court"}).status_code == 422
    assert phone.post("/api/setup/imprimante", json={"url": "tcp://127.0.0.1:1"}).status_code == 422
    assert len(rig.hall.records()) == before


def test_the_door_refuses_a_malformed_setup_record(rig):
    from hall.refusal import Rejected

    for step, answers in [
        ("", ()),
        ("x" * 21, ()),
        ("salle", [("hall.name", "A")]),
        ("salle", (("hall.name", 3),)),
        ("salle", (("", "A"),)),
        ("salle", (("hall.name", "x" * 201),)),
    ]:
        with pytest.raises(Rejected):
            rig.hall.record_setup_answer(step, answers, role="admin")
    with pytest.raises(Rejected) as refused:
        rig.hall.record_setup_answer("salle", (), role="speaker")
    assert refused.value.key.endswith("forbidden")


# ---- « Loto-Setup » ---------------------------------------------------------------------------------------------
def test_the_setup_wifi_comes_up_with_no_wired_network_and_goes_down(nmcli):
    hotspot = SetupHotspot(_net(), lan=lambda: None, close_after_s=0)
    assert hotspot.open() == "10.42.0.1"
    calls = nmcli()
    assert calls[0] == ["connection", "delete", PROFILE]  # one left by a start cut short
    add = calls[1]
    assert add[:4] == ["connection", "add", "type", "wifi"]
    settings = dict(zip(add[4::2], add[5::2], strict=True))
    assert settings["ssid"] == SSID and settings["802-11-wireless.mode"] == "ap"
    assert settings["ipv4.method"] == "shared" and settings["ipv4.addresses"] == "10.42.0.1/24"
    assert settings["autoconnect"] == "no" and settings["ifname"] == "wlan0"
    assert not any(k.startswith(("wifi-sec", "802-11-wireless-security")) for k in settings)  # open: no password
    assert calls[2] == ["connection", "up", PROFILE]
    assert hotspot.base_url(8080, False) == "http://10.42.0.1:8080/"
    assert hotspot.open() == "10.42.0.1" and len(nmcli()) == 3  # once
    hotspot.close()
    assert nmcli()[3:] == [["connection", "down", PROFILE], ["connection", "delete", PROFILE]]
    assert hotspot.address is None and hotspot.base_url(8080, False) is None
    hotspot.close()
    assert len(nmcli()) == 5  # closed once


def test_the_first_start_brings_it_up_and_a_later_start_does_not(nmcli, monkeypatch, tmp_path):
    from hall.app import wiring
    from hall.net import address

    monkeypatch.setattr(address, "lan_address", lambda: None)  # no cable: the machine has no LAN address
    config = parse_config({"hall": {"data_dir": str(tmp_path)}})
    wizard, _ = wiring._setup(config, first_start=True)
    assert wizard.hotspot.address == "10.42.0.1" and ["connection", "up", PROFILE] in nmcli()
    calls = len(nmcli())
    later, _ = wiring._setup(config, first_start=False)  # setup closed: the wizard for /admin, no Wi-Fi
    assert later.hotspot is None and len(nmcli()) == calls


def test_a_wired_hall_brings_up_no_wifi(nmcli):
    hotspot = SetupHotspot(_net(), lan=lambda: "192.168.1.20")
    assert hotspot.open() is None and nmcli() == []


def test_nmcli_refusing_or_missing_leaves_setup_on_the_lan(nmcli, monkeypatch, tmp_path):
    monkeypatch.setenv("FAIL_ON", "up")
    hotspot = SetupHotspot(_net(), lan=lambda: None)
    assert hotspot.open() is None
    assert "up refused" in hotspot.problem
    assert nmcli()[-1] == ["connection", "delete", PROFILE]  # the half-made profile taken out
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    missing = SetupHotspot(_net(), lan=lambda: None)
    assert missing.open() is None and "nmcli" in missing.problem


def test_the_projectors_qr_points_at_the_setup_wifi_and_setup_closes_it(tmp_path, nmcli, browser):
    data = tmp_path / "data"
    data.mkdir()
    config = parse_config({"hall": {"data_dir": str(data)}})
    hall = Hall(config, Journal(data / "journal.sqlite"), CardBook({}), voucher_secret=b"k" * 32, rng=random.Random(1))
    hotspot = SetupHotspot(config.network, lan=lambda: None, close_after_s=0)
    hotspot.open()
    wizard = SetupWizard(data, hotspot=hotspot)
    app, _ = make_app(hall, config, setup=(wizard, None))
    try:
        page = app.test_client().get("/").get_data(as_text=True)
        assert f"« {SSID} »" in page
        svg = page[page.index("<svg") : page.index("</svg>") + 6]
        png = _svg_png(svg, browser)
        found = [r.text for r in zxingcpp.read_barcodes(png)]
        assert found == [f"http://10.42.0.1:{config.server.port}/setup?code={wizard.code}"]
        wizard.done = [s for s in ("salle", "soiree", "imprimante", "codes", "wifi", "voix", "ecran")]
        wizard.finish()
        deadline = time.monotonic() + 10
        while ["connection", "delete", PROFILE] != nmcli()[-1] or len(nmcli()) < 5:
            assert time.monotonic() < deadline, nmcli()
            time.sleep(0.05)
        assert nmcli()[-2] == ["connection", "down", PROFILE]
    finally:
        hall.journal.close()


def _svg_png(svg: str, browser) -> Image.Image:
    """The QR code's SVG drawn by Chromium (the projector's own renderer; the suite's one Playwright, tests/conftest)."""
    page = browser.new_page(viewport={"width": 600, "height": 600})
    try:
        page.set_content(f"<body style='margin:40px;background:#fff'><div style='width:400px'>{svg}</div></body>")
        data = page.screenshot()
    finally:
        page.close()
    return Image.open(io.BytesIO(data))


# ---- a device again from /admin ---------------------------------------------------------------------------------
def _closed(rig) -> tuple:
    phone, pins, _ = _through(rig)
    assert phone.post("/api/setup/finish", json={}).status_code == 200
    admin = rig.app.test_client()
    token = admin.post("/api/login", json={"pin": pins["admin"]}).get_json()["token"]
    return admin, {"Authorization": f"Bearer {token}"}, pins


def test_a_device_step_again_from_admin_after_setup_closed(rig):
    admin, headers, pins = _closed(rig)
    assert admin.get("/setup").status_code == 410  # the wizard itself never opens again
    assert rig.app.test_client().get("/api/devices/setup").status_code == 401
    speaker = rig.app.test_client().post("/api/login", json={"pin": pins["speaker"]}).get_json()["token"]
    assert admin.get("/api/devices/setup", headers={"Authorization": f"Bearer {speaker}"}).status_code == 403
    state = admin.get("/api/devices/setup", headers=headers).get_json()
    assert state["steps"] == ["imprimante", "boules", "voix"] and state["closed"] is True
    assert state["printer"] == {"url": rig.sink.url}

    printed = len(rig.sink.jobs)
    resp = admin.post("/api/devices/setup/imprimante", json={"url": rig.sink.url}, headers=headers)
    assert resp.status_code == 200, resp.get_json()
    assert "TEST IMPRIMANTE" in decode_text(rig.sink.wait_for_jobs(printed + 1)[-1])
    assert resp.get_json()["restart"] is True
    assert (
        admin.post("/api/devices/setup/voix", json={"voice": "fr-CH", "heard": True}, headers=headers).status_code
        == 200
    )
    assert 'voice = "fr-CH"' in (rig.data_dir / OWN_CONFIG).read_text(encoding="utf-8")

    balls = admin.post("/api/devices/setup/boules", json={"action": "listen"}, headers=headers).get_json()["balls"]
    rig.machine.drop(*balls["balls"])
    deadline = time.monotonic() + 60
    while "ball_machine" not in parse_toml(rig):
        assert time.monotonic() < deadline, admin.get("/api/devices/setup", headers=headers).get_json()
        time.sleep(0.1)
    assert parse_toml(rig)["ball_machine"]["baudrate"] == 4800
    again = [r for r in _journal_setup(rig) if r.event.again]
    deadline = time.monotonic() + 5
    while len(again) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
        again = [r for r in _journal_setup(rig) if r.event.again]
    assert [r.event.step for r in again] == ["imprimante", "voix", "boules"]
    assert dict(again[1].event.answers) == {"speech.enabled": "true", "speech.voice": "fr-CH"}
    assert admin.get("/setup").status_code == 410


BAD_AGAIN = [
    ("imprimante", {"url": "gopher://x"}, 422, "setup_bad_answer"),
    ("imprimante", {"url": "tcp://127.0.0.1:1"}, 422, "setup_printer"),
    ("imprimante", {}, 422, "bad_field"),
    ("voix", {"voice": "fr-QC", "heard": True}, 422, "bad_field"),
    ("voix", {"voice": "fr-FR", "heard": "oui"}, 422, "bad_field"),
    ("boules", {"action": "none"}, 422, "bad_field"),
    ("boules", {"action": "explode"}, 422, "bad_field"),
    ("salle", {"association": "A", "salle": "B"}, 422, "bad_field"),  # only a device's step comes back
    ("codes", {}, 422, "bad_field"),
]


@pytest.mark.parametrize(("step", "body", "status", "error"), BAD_AGAIN)
def test_a_bad_device_answer_from_admin_changes_nothing(rig, step, body, status, error):
    admin, headers, _ = _closed(rig)
    before = (rig.data_dir / OWN_CONFIG).read_bytes(), len(rig.hall.records())
    resp = admin.post(f"/api/devices/setup/{step}", json=body, headers=headers)
    assert (resp.status_code, resp.get_json()["error"]) == (status, error), resp.get_json()
    assert resp.get_json()["message"]
    assert ((rig.data_dir / OWN_CONFIG).read_bytes(), len(rig.hall.records())) == before


def test_a_hall_with_a_hand_written_config_says_where_to_change_a_device(tmp_path):
    room = make_room(tmp_path)
    client = room.app.test_client()
    resp = client.get("/api/devices/setup", headers=room.headers("admin"))
    assert resp.status_code == 200 and resp.get_json()["own"] is False  # a state /admin shows, not an error
    assert "fichier" in resp.get_json()["message"] and "steps" not in resp.get_json()
    post = client.post("/api/devices/setup/voix", json={"voice": "fr-FR", "heard": True}, headers=room.headers("admin"))
    assert post.status_code == 409 and post.get_json()["error"] == "setup_not_own"


def parse_toml(rig) -> dict:
    import tomllib

    return tomllib.loads((rig.data_dir / OWN_CONFIG).read_text(encoding="utf-8"))


# ---- /admin in Chromium ------------------------------------------------------------------------------------------
def test_admin_sets_a_new_printer_ball_machine_and_voice_in_chromium(rig, browser, tmp_path):
    from playwright.sync_api import expect

    from tests.display.conftest import LiveServer, login_page

    _, _, pins = _closed(rig)
    server = LiveServer(rig.app)
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="fr-FR")
        login_page(page, server.url + "/admin", pins["admin"])
        panel = page.locator("#setup-again-panel")
        expect(page.locator("#setup-again-steps")).to_be_visible()
        expect(page.locator("#setup-again-url")).to_have_value(rig.sink.url)
        before = (rig.data_dir / OWN_CONFIG).read_bytes()
        page.fill("#setup-again-url", "tcp://127.0.0.1:1")  # nothing listens there: refused, nothing kept
        page.click("#setup-again-printer button[type=submit]")
        expect(page.locator("#setup-again-msg")).to_contain_text("n'a pas imprimé")
        assert (rig.data_dir / OWN_CONFIG).read_bytes() == before
        printed = len(rig.sink.jobs)
        page.fill("#setup-again-url", rig.sink.url)
        page.click("#setup-again-printer button[type=submit]")
        expect(page.locator("#setup-again-msg")).to_contain_text("prochain démarrage")
        assert "TEST IMPRIMANTE" in decode_text(rig.sink.wait_for_jobs(printed + 1)[-1])

        kept_printer = page.locator("#setup-again-msg").inner_text()
        page.select_option("#setup-again-voice-name", "fr-BE")
        page.click("#setup-again-voice button[type=submit]")
        expect(page.locator("#setup-again-msg")).not_to_have_text(kept_printer)  # a record of its own
        expect(page.locator("#setup-again-msg")).to_contain_text("journal n°")
        assert parse_toml(rig)["speech"]["voice"] == "fr-BE"

        page.click("#setup-again-listen")
        expect(page.locator("#setup-again-balls")).not_to_be_empty()
        balls = [int(n) for n in page.locator("#setup-again-balls").inner_text().replace("·", " ").split()]
        rig.machine.drop(*balls)
        expect(page.locator("#setup-again-msg")).to_contain_text("4800 bauds", timeout=60_000)
        assert parse_toml(rig)["ball_machine"]["baudrate"] == 4800
        panel.screenshot(path=str(tmp_path / "admin-setup-again-fr.png"))
        steps = [r.event.step for r in _journal_setup(rig) if r.event.again]
        assert steps == ["imprimante", "voix", "boules"]
    finally:
        server.stop()
