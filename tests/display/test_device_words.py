"""The speaker's console words every device code and every driver notice from the one catalogue, in French and
in English: the drivers publish codes and parameters only (tests/drivers/test_codes_only.py)."""

from __future__ import annotations

import re

from flask_babel import force_locale

from display.i18n import DEVICE_MESSAGES, device_sentence
from drivers.ball_machine import BallMachineReader
from drivers.keypad import apply_key_command
from drivers.keypad_map import KeyCommand
from drivers.scanner import Scan, apply_scan
from hall.config import BallMachineSection
from hall.snapshots import device_status
from tests.display.test_sockets import close, connect, receive

ACCENTED = re.compile(r"[àâçéèêëîïôûùœ«»]")
PARAMS = {
    "path": "/dev/x",
    "error": "EIO",
    "where": "10.0.0.5:9100",
    "count": "2",
    "n": "3",
    "total": "4",
    "relay": "pi:11",
    "reason": "printer_no_paper",
    "what": "42",
}


def test_every_device_code_reads_in_french_and_in_english(room):
    with room.app.app_context():
        for code, template in DEVICE_MESSAGES.items():
            device = next(
                (d for d in ("ball_machine", "printer", "keypad", "scanner", "relays") if code.startswith(d)), "keypad"
            )
            status = device_status(device, "degraded", code, **PARAMS)
            with force_locale("fr"):
                french = device_sentence(status)
                values = {**PARAMS, "device": "Clavier numérique", "reason": "Plus de papier dans l'imprimante"}
                assert french == str(template) % values, code
            with force_locale("en"):
                english = device_sentence(status)
            assert english != french and "%(" not in english and not ACCENTED.search(english), (code, english)
    room.hall.close()


def test_a_status_without_its_sentence_is_said_by_its_device_and_state(room):
    """A code the catalogue does not know yet is said by the device's name and state, in the reader's language."""
    status = device_status("printer", "degraded", "printer_something_new")
    with room.app.app_context():
        with force_locale("fr"):
            assert device_sentence(status) == "Imprimante : en difficulté"
        with force_locale("en"):
            assert device_sentence(status) == "Printer: in trouble"
    room.hall.close()


def _notice(client, name: str) -> dict:
    while True:
        event, data = receive(client)
        if event == "notice" and data.get("name") == name or event == "refused" and name == "draw:refused":
            return data


def test_the_drivers_notices_reach_each_console_in_its_language(live):
    """A refused ball, keypad action and scan, each sent by the real driver with a code only, are read from the
    catalogue by a French console and by an English one."""
    h = live.hall
    fr = connect(live, "speaker")
    en = connect(live, "speaker", query="?lang=en")
    receive(fr, "state")
    receive(en, "state")
    try:
        BallMachineReader(h, BallMachineSection(port="/dev/unused")).feed(b"B?\r\n")
        assert _notice(fr, "draw:refused")["message"] == "Lecture illisible de la machine à boules : rien n'est tiré."
        assert _notice(en, "draw:refused")["message"] == "Unreadable reading from the ball machine: nothing drawn."
        h.start_partie(role="speaker")
        apply_key_command(h, KeyCommand("undo"))
        assert _notice(fr, "keypad:refused")["message"] == "Pavé — Aucun numéro à annuler."
        assert _notice(en, "keypad:refused")["message"] == "Keypad — No number to undo."
        apply_scan(h, Scan("B?", clean=False))
        assert (
            _notice(fr, "scanner:unreadable")["message"]
            == "Code-barres illisible : scannez à nouveau ou tapez le numéro."
        )
        assert _notice(en, "scanner:unreadable")["message"] == "Unreadable barcode: scan again or type the number."
        apply_scan(h, Scan("=1+2"))
        refused_fr, refused_en = _notice(fr, "scanner:refused"), _notice(en, "scanner:refused")
        assert refused_fr["code"] == refused_en["code"] and refused_fr["message"].startswith(
            "Carton =1+2 non vérifié : "
        )
        assert refused_en["message"].startswith("Card =1+2 not checked: ") and not ACCENTED.search(
            refused_en["message"]
        )
    finally:
        close(fr)
        close(en)
