"""Every notice a driver publishes reaches the speaker's console in the console's language (display/notices.py):
one table from the notice (a value) to its words, covering every notice the core names; one handler in speaker.js
for them all. The browser test presses the Pi keypad's undo with nothing to undo, through the real keypad reader
fed recorded evdev events, and reads the sentence on /speaker in French and in English."""

from __future__ import annotations

import pytest
from flask_babel import force_locale
from playwright.sync_api import expect

from display import views
from display.notices import BALL_REFUSALS, NOTICE_WORDS, notice_words
from drivers.keypad import KeypadReader
from hall.config import KeypadSection
from hall.snapshots import NOTICES, notice
from tests.display.conftest import PINS, login_page
from tests.drivers.test_keypad import PipeDevice, press

KINDS = ("typing", "draw", "confirm", "undo_armed", "undo", "cancel", "reject", "claim", "menu", "invalid")
SAMPLES = [notice("draw:refused", code, source="keypad", number=18, raw="18") for code in [*BALL_REFUSALS, "odd"]]
SAMPLES += [
    notice("keypad:input", kind, kind=kind, text="123", number=None, reason="too_many_digits") for kind in KINDS
]
SAMPLES += [
    notice("keypad:input", "cancel", reason="unplugged"),
    notice("keypad:input", "someday"),
    notice("keypad:refused", "nothing_to_undo", source="keypad", action="undo"),
    notice("scanner:unreadable", "unreadable", source="scanner", raw="A-00?"),
    notice("scanner:refused", "bad_card_id", source="scanner", raw="??"),
]


def test_the_table_words_every_notice_the_core_names_and_no_other():
    assert set(NOTICE_WORDS) == set(NOTICES)
    assert {n.name for n in SAMPLES} == set(NOTICES)
    with pytest.raises(ValueError, match="unknown notice"):
        notice("keypad:whatever")  # a new notice must be named in the core, then worded here


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_notice_is_said_in_the_consoles_language(room, lang):
    with room.app.test_request_context(), force_locale(lang):
        for n in SAMPLES:
            name, body = views.notice(n.name, n, words=notice_words)
            assert body["name"] == n.name and body["code"] == n.code
            said = {k: body[k] for k in ("message", "entry") if k in body}
            assert said, n  # every notice does something on the console
            if n.code != "typing":
                assert "message" in body, n  # an action takes the line (a refusal stays until then)
            if body.get("message"):
                assert "%(" not in body["message"], body
                assert ("Pavé" in body["message"]) != (lang == "en") or n.name != "keypad:refused", body


def test_the_keypad_wire_keeps_its_fields(room):
    """The speaker's socket payload of a driver's notice: the fields docs/devices.md lists, then the words."""
    with room.app.test_request_context(), force_locale("fr"):
        name, body = views.notice(
            "draw:refused",
            notice("draw:refused", "already_drawn", source="keypad", number=7, raw="7"),
            words=notice_words,
        )
    assert name == "refused"
    assert body == {
        "name": "draw:refused",
        "code": "already_drawn",
        "source": "keypad",
        "number": 7,
        "raw": "7",
        "tone": "error",
        "entry": "",
        "message": "La boule 7 est déjà sortie : non tirée une deuxième fois.",
    }


@pytest.mark.parametrize(
    "locale, sentence", [("fr-FR", "Pavé — Aucun numéro à annuler."), ("en-GB", "Keypad — No number to undo.")]
)
def test_the_pi_keypads_undo_with_nothing_to_undo_is_read_on_the_console(browser, live, tmp_path, locale, sentence):
    live.hall.start_partie(role="speaker")
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale=locale)
    page = context.new_page()
    path = tmp_path / "event-kbd"
    path.touch()
    opened: list[PipeDevice] = []
    reader = KeypadReader(
        live.hall, KeypadSection(device=str(path)), opener=lambda p: opened.append(PipeDevice(p, {})) or opened[-1]
    )
    try:
        login_page(page, live.url + "/speaker", PINS["speaker_pin"])
        expect(page.locator("#sp-partie")).not_to_be_empty()
        page.wait_for_function("document.body.dataset.socket !== undefined")
        reader.start()
        page.wait_for_function(
            "() => [...document.querySelectorAll('.device')].some((d) => d.classList.contains('ok'))"
        )
        opened[0].send(press("KEY_KP4"))  # typed on the Pi's keypad: shown in the entry
        expect(page.locator("#entry")).to_have_text("4")
        opened[0].send(press("KEY_KPMINUS", "KEY_KPENTER"))  # − then Enter: undo, with no number drawn
        expect(page.locator("#entry-msg")).to_have_text(sentence)
        expect(page.locator("#entry-msg")).to_have_class("error-line")
        expect(page.locator("#entry")).to_have_text("—")
    finally:
        reader.stop()
        context.close()
