"""French first, English complete: every string has its translation, every word a script asks for exists."""
from __future__ import annotations

import re
from pathlib import Path

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from display.i18n import JS_STRINGS
from display.rooms.messages import ROOM_STRINGS

DISPLAY = Path(__file__).resolve().parents[2] / "display"


def test_the_english_catalogue_is_complete_and_compiled():
    po = read_po((DISPLAY / "translations/en/LC_MESSAGES/messages.po").open("rb"))
    untranslated = [m.id for m in po if m.id and not m.string]
    assert not untranslated
    mo = read_mo((DISPLAY / "translations/en/LC_MESSAGES/messages.mo").open("rb"))
    assert {m.id for m in po if m.id} == {m.id for m in mo if m.id}, "run: pybabel compile -d display/translations"
    pot = read_po((DISPLAY / "translations/messages.pot").open("rb"))
    assert {m.id for m in pot if m.id} <= {m.id for m in po if m.id}


def test_every_word_the_scripts_ask_for_exists():
    asked = set()
    for js in (DISPLAY / "static/js").glob("*.js"):
        asked |= set(re.findall(r'\bt\("([a-z_]+)"', js.read_text(encoding="utf-8")))
    dynamic = {"kind_", "v_", "vs_", "status_", "device_", "valid_"}
    missing = {k for k in asked if k not in JS_STRINGS and k not in ROOM_STRINGS and not any(k == p for p in dynamic)}
    assert not missing, missing
    for prefix, names in {"kind_": ("quine", "double_quine", "carton_plein"),
                          "vs_": ("valid", "incomplete", "missed", "unknown_card", "unsold_card", "cancelled_card",
                                  "closed"),
                          "status_": ("playing", "checking", "finished", "waiting")}.items():
        for name in names:
            assert prefix + name in JS_STRINGS
