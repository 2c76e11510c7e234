"""The command line's words come from the one catalogue (display/translations), through gettext: every French
sentence it marks has its English there, compiled, and ``LANG`` picks the language."""

from __future__ import annotations

from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo

from hall.app import lang

ROOT = Path(__file__).resolve().parents[2]


def test_every_sentence_of_the_command_line_is_in_the_compiled_catalogue():
    keywords = {"_": None, "N_": None, "n_": (1, 2)}  # n_: a sentence and its plural (hall/app/lang.py)
    marked = {
        tuple(message) if isinstance(message, (list, tuple)) else message
        for folder in ("hall/app", "hall/net")
        for _, _, message, _, _ in extract_from_dir(ROOT / folder, [("**.py", "python")], keywords=keywords)
    }
    assert "Point d'accès allumé" in marked and len(marked) > 100
    with (ROOT / "display/translations/en/LC_MESSAGES/messages.mo").open("rb") as mo:
        english = {tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id: m.string for m in read_mo(mo) if m.id}
    assert sorted(map(str, (m for m in marked if not english.get(m) or not all(english[m])))) == []
    assert list(english[("%(n)s boule", "%(n)s boules")]) == ["%(n)s ball", "%(n)s balls"]


def test_lang_picks_the_language(monkeypatch):
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert lang._("Point d'accès allumé") == "Hotspot up"
    assert lang._("= %(why)s : déjà fait") % {"why": "x"} == "= x: already done"
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert lang._("Point d'accès allumé") == "Point d'accès allumé"
