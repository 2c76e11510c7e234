"""The salle annexe's keypad and USB push button (issue 43 item 2) reaching a real main hall over loopback.

The main hall is a real ``loto-hall serve --demo`` process; the annex is its app built in-process exactly as its
gunicorn worker builds it (``hall.app.annex.build_annex``, ``start_annex``, ``annex_keys``), its key device a
real fd fed recorded evdev events (no /dev/uinput here). Where /dev/uinput exists, a real annex process reads a
virtual push button made in the kernel.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import evdev
import pytest
from evdev import ecodes

from hall.app.annex import TokenStore, annex_keys, build_annex, enrol, start_annex
from hall.config import AnnexSection, parse_config
from tests.app.conftest import get_json
from tests.app.test_annex import ROOM, _draw, _room_claims, _room_code, _start_partie, _wait
from tests.drivers.test_keypad import PipeDevice, press


def _held(code: int, at: float, seconds: float = 1.5) -> list[evdev.InputEvent]:
    """A key held down ``seconds`` (the kernel's autorepeat every 33 ms), with a contact bounce as it goes down."""
    out = []
    values = [(1, at), (0, at + 0.004), (1, at + 0.008)]
    values += [(2, at + 0.25 + 0.033 * i) for i in range(int((seconds - 0.25) / 0.033))]
    values.append((0, at + seconds))
    for value, t in values:
        sec, usec = int(t), round((t % 1) * 1e6)
        out += [
            evdev.InputEvent(sec, usec, ecodes.EV_KEY, code, value),
            evdev.InputEvent(sec, usec, ecodes.EV_SYN, ecodes.SYN_REPORT, 0),
        ]
    return out


@pytest.fixture
def main_hall(run_hall, tmp_path):
    data = tmp_path / "main"
    hall = run_hall(["--demo", "--host", "127.0.0.1", "--data-dir", str(data)])
    hall.wait_answering()
    hall.data = data
    return hall


@pytest.fixture
def keyed_annex(main_hall, tmp_path, fast_backoff):
    """The annex enrolled with a code from /admin, following the main, its push button on a real fd."""
    code = _room_code(main_hall.url)
    device_path = tmp_path / "usb-push-button-event-kbd"
    device_path.touch()
    section = AnnexSection(of=main_hall.url, room=ROOM, code=code, keypad=str(device_path))
    config = parse_config({"hall": {"data_dir": str(tmp_path / "annex")}})
    token = enrol(section.of, ROOM, code, TokenStore(config.data_dir))
    app, annex = build_annex(config, section, token)
    annex.app = app  # for the screen's test
    said: list[tuple[str, object]] = []
    emit = annex.link.publish
    annex.link.publish = lambda name, payload: (said.append((name, payload)), emit(name, payload))
    assert annex.kept is not None
    annex.kept.publish = annex.link.publish
    opened: list[PipeDevice] = []

    def opener(path):
        opened.append(PipeDevice(path, {}))
        return opened[-1]

    reader = annex_keys(section, annex, opener=opener, backoff=fast_backoff())
    assert reader is not None
    start_annex(annex)
    reader.start()
    _wait(lambda: annex.link.judge() == "ok", what="the annex's link up")
    assert reader.connected.wait(5)
    try:
        yield annex, opened[0], said
    finally:
        reader.stop()
        assert annex.kept is not None
        annex.kept.stop()
        annex.link.stop()


@pytest.fixture
def fast_backoff():
    from drivers.reconnect import Backoff

    return lambda: Backoff(0.02, 0.2)


def test_a_held_push_button_is_one_claim_holding_the_main_draw(main_hall, keyed_annex):
    annex, button, said = keyed_annex
    speaker = _start_partie(main_hall)
    assert _draw(main_hall, 17, speaker)[0] == 201
    _wait(lambda: (annex.link.view() or {}).get("draws") == [17], what="the ball in the annex")
    button.send(press("KEY_A", "KEY_F1", "KEY_KP5", start=100.0))  # keys that claim nothing
    time.sleep(0.5)
    assert _room_claims(main_hall.data) == []
    assert _draw(main_hall, 18, speaker)[0] == 201  # the draw goes on: nothing was claimed
    _wait(lambda: (annex.link.view() or {}).get("draws") == [17, 18], what="the 18 in the annex")

    button.send(_held(ecodes.KEY_ENTER, at=200.0))  # pressed, bounced, held 1.5 s: one « Quine ! »
    _wait(lambda: _room_claims(main_hall.data), what="the claim journalled in the main hall")
    status, body, _ = _draw(main_hall, 19, speaker)
    assert status == 423 and body["error"] == "locked", body  # the same hold as a claim announced in the main room
    time.sleep(0.5)
    claims = _room_claims(main_hall.data)
    assert [(c["room"], c["ball"], c["kind"], c["shown"], c["kept"]) for c in claims] == [
        (ROOM, 18, "quine", 18, False)
    ]  # one claim, on the last ball, for the lot being played (the demo's first lot is a quine)
    assert not [p for n, p in said if n == "annex_claim"]  # nothing refused, nothing kept


def test_a_second_press_within_the_bound_is_refused_and_said_on_the_annex_screen(main_hall, keyed_annex):
    annex, button, said = keyed_annex
    speaker = _start_partie(main_hall)
    assert _draw(main_hall, 40, speaker)[0] == 201
    _wait(lambda: (annex.link.view() or {}).get("draws") == [40], what="the ball in the annex")
    button.send(press("KEY_Q", start=300.0))
    _wait(lambda: _room_claims(main_hall.data), what="the first claim")
    button.send(press("KEY_Q", start=301.0))  # a second press a second later (past the debounce, within 3 s)
    refused = _wait(lambda: [p for n, p in said if n == "annex_claim" and p["state"] == "refused"], what="refused")
    assert refused[0]["message"].startswith("Annonce déjà envoyée : réessayez dans"), refused
    time.sleep(0.3)
    assert len(_room_claims(main_hall.data)) == 1


def test_a_key_pressed_while_the_link_is_lost_is_kept_as_the_button_s_claim(main_hall, keyed_annex):
    import signal

    annex, button, said = keyed_annex
    speaker = _start_partie(main_hall)
    assert _draw(main_hall, 55, speaker)[0] == 201
    _wait(lambda: (annex.link.view() or {}).get("draws") == [55], what="the ball in the annex")
    os.killpg(main_hall.proc.pid, signal.SIGSTOP)  # the cable pulled
    try:
        _wait(lambda: annex.link.judge() == "lost", timeout_s=8, what="the link lost")
        button.send(press("KEY_KPENTER", start=400.0))
        _wait(lambda: annex.kept is not None and annex.kept.kept is not None, what="the claim kept")
        assert ("annex_claim", {"state": "kept", "kind": "quine"}) in said
    finally:
        os.killpg(main_hall.proc.pid, signal.SIGCONT)
    _wait(lambda: _room_claims(main_hall.data), timeout_s=10, what="the kept claim delivered")
    claims = _room_claims(main_hall.data)
    assert [(c["ball"], c["shown"], c["kept"]) for c in claims] == [(55, 55, True)]


@pytest.mark.skipif(
    not os.path.exists("/dev/uinput"), reason="/dev/uinput does not exist here (no uinput module): runs on the Pi"
)
def test_a_real_annex_process_reads_a_virtual_push_button(main_hall, run_hall, tmp_path):
    from evdev import UInput

    code = _room_code(main_hall.url)
    with UInput({ecodes.EV_KEY: [ecodes.KEY_ENTER]}, name="loto-hall test push button") as ui:
        config = tmp_path / "annex.toml"
        config.write_text(f'[annex]\nkeypad = "{ui.device.path}"\n', encoding="utf-8")
        annex = run_hall(
            ["--annex-of", main_hall.url, "--room", ROOM, "--code", code, "--host", "127.0.0.1"]
            + ["--data-dir", str(tmp_path / "annex"), "--config", str(config)]
        )
        annex.wait_answering()
        speaker = _start_partie(main_hall)
        assert _draw(main_hall, 61, speaker)[0] == 201
        _wait(lambda: annex.state()["draws"] == [61], what="the ball in the annex")
        time.sleep(1.0)  # the reader has grabbed the device
        ui.write(ecodes.EV_KEY, ecodes.KEY_ENTER, 1)
        ui.syn()
        time.sleep(0.6)  # held: autorepeat
        ui.write(ecodes.EV_KEY, ecodes.KEY_ENTER, 0)
        ui.syn()
        _wait(lambda: _room_claims(main_hall.data), what="the claim in the main hall")
    status, body, _ = _draw(main_hall, 62, speaker)
    assert status == 423 and body["error"] == "locked", body
    assert len(_room_claims(main_hall.data)) == 1
    assert Path(annex.log_path).exists()
    assert get_json(main_hall.url + "/api/state")[0] == 200


def test_a_real_annex_process_with_its_push_button_unplugged_still_claims_from_its_page(main_hall, run_hall, tmp_path):
    """The worker wires ``[annex] keypad`` (the reader started, its device missing: said in the log, retried) and
    the page's button goes on claiming through the same path."""
    code = _room_code(main_hall.url)
    missing = tmp_path / "usb-push-button-event-kbd"
    config = tmp_path / "annex.toml"
    config.write_text(f'[annex]\nkeypad = "{missing}"\nkeys = {{ claim = ["KEY_F13"] }}\n', encoding="utf-8")
    annex = run_hall(
        ["--annex-of", main_hall.url, "--room", ROOM, "--code", code, "--host", "127.0.0.1"]
        + ["--data-dir", str(tmp_path / "annex"), "--config", str(config)]
    )
    annex.wait_answering()
    _wait(lambda: f"annex_keys absent missing path={missing}" in annex.output(), what="the missing device logged")
    speaker = _start_partie(main_hall)
    assert _draw(main_hall, 71, speaker)[0] == 201
    _wait(lambda: annex.state()["draws"] == [71], what="the ball in the annex")
    status, body = get_json(annex.url + "/api/room/claim", data={})
    assert status == 202 and body["kept"] is False, body
    assert [c["ball"] for c in _room_claims(main_hall.data)] == [71]


def test_a_real_annex_process_with_a_bad_claim_key_does_not_start(main_hall, run_hall, tmp_path):
    config = tmp_path / "annex.toml"
    config.write_text('[annex]\nkeypad = "/dev/input/x"\nkeys = { quinne = "KEY_Q", claim = "KEY_NOPE" }\n')
    proc = run_hall(
        ["--annex-of", main_hall.url, "--room", ROOM, "--code", "123456", "--host", "127.0.0.1"]
        + ["--data-dir", str(tmp_path / "annex"), "--config", str(config)]
    )
    assert proc.wait(30) == 2
    assert "annex.keys.quinne" in proc.output() and "KEY_NOPE" in proc.output()


def test_the_annex_screen_says_the_push_button_s_claim_and_its_refusal(main_hall, keyed_annex):
    """In Chromium, on the annex's own page (its app served on loopback): the press holds the main and the screen
    says « Quine en salle annexe » (the main's event, followed); a press again within 3 s is refused on screen."""
    from playwright.sync_api import expect, sync_playwright

    from tests.display.conftest import LiveServer

    annex, button, _said = keyed_annex
    server = LiveServer(annex.app)
    speaker = _start_partie(main_hall)
    assert _draw(main_hall, 33, speaker)[0] == 201
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--headless"])
            try:
                page = browser.new_context(viewport={"width": 1280, "height": 720}, locale="fr-FR").new_page()
                page.goto(server.url + "/")
                expect(page.locator("#last")).to_have_text("33", timeout=10_000)
                page.wait_for_timeout(300)  # the page's socket joined
                button.send(press("KEY_SPACE", start=500.0))
                expect(page.locator("#banner-text")).to_contain_text("Quine en salle annexe", timeout=5_000)
                button.send(press("KEY_SPACE", start=501.0))
                said = page.locator("#annex-said")
                expect(said).to_contain_text("Annonce déjà envoyée : réessayez dans", timeout=5_000)
                page.screenshot(path="/tmp/annexkeys-refused.png")
            finally:
                browser.close()
    finally:
        server.stop()
    assert len(_room_claims(main_hall.data)) == 1
