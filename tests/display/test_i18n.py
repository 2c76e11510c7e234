"""French first, English complete: every string has its translation, every word a script asks for exists."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

import display.app  # noqa: F401  (every area's words registered: the salle annexe's join JS_STRINGS on import)
from display.annex_words import ANNEX_STRINGS
from display.page_words import JS_PLURALS, JS_STRINGS
from display.rooms.messages import ROOM_STRINGS
from display.tournament.messages import JS_WORDS
from hall.rights import ROLES

DISPLAY = Path(__file__).resolve().parents[2] / "display"


def ident(m) -> object:
    """A message's id, a sentence with its plural as one (the .po reads it as a tuple, the .mo as a list)."""
    return tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id


def test_the_english_catalogue_is_complete_and_compiled():
    po = read_po((DISPLAY / "translations/en/LC_MESSAGES/messages.po").open("rb"))
    untranslated = [m.id for m in po if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)]
    assert not untranslated
    mo = read_mo((DISPLAY / "translations/en/LC_MESSAGES/messages.mo").open("rb"))
    assert {ident(m) for m in po if m.id} == {ident(m) for m in mo if m.id}, (
        "run: pybabel compile -d display/translations"
    )
    pot = read_po((DISPLAY / "translations/messages.pot").open("rb"))
    assert {ident(m) for m in pot if m.id} <= {ident(m) for m in po if m.id}


# Jinja's gettext formats every sentence (``rv % variables``, even with none): a lone « % » in a page's sentence is
# a conversion — « 15 % au plus » printed « 15 {}u plus », « 15 % of » an error 500 on the English page.
LONE_PERCENT = re.compile(r"%(?!\(\w+\)[sd]|%)")


def test_no_page_sentence_holds_a_lone_percent_in_either_language():
    said = re.compile(r"""_\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")
    literals = {
        a or b for html in (DISPLAY / "templates").glob("*.html") for a, b in said.findall(html.read_text("utf-8"))
    }
    assert len(literals) > 100  # the pages' sentences were read
    po = {m.id: m.string for m in read_po((DISPLAY / "translations/en/LC_MESSAGES/messages.po").open("rb"))}
    lone = [s for s in literals if LONE_PERCENT.search(s) or LONE_PERCENT.search(str(po.get(s) or ""))]
    assert not lone, "write « %(limit)s » with the value given, or « %% »"


def test_every_word_the_scripts_ask_for_exists():
    asked, tournament = set(), set()
    for js in (DISPLAY / "static/js").glob("*.js"):
        words = set(re.findall(r'\bt\("([a-z_]+)"', js.read_text(encoding="utf-8")))
        if js.name.startswith("tournoi"):  # the tournament's pages read the tournament's words only
            tournament |= words
        else:
            asked |= words
    dynamic = {
        "kind_",
        "v_",
        "vs_",
        "status_",
        "device_",
        "valid_",
        "role_",
        "opens_",
        "mc_refused_",
        "players_help_",
        "preflight_",  # a pre-flight row's state (display/static/js/admin_preflight.js)
        "record_",
        "lot_row_",
        "row_name_",
        "ritual_",
        "missed_public_",  # a missed verdict's reason (display/verdict_words.py, tests/display/test_verdict_words.py)
        "v_incomplete_paid_",
    }
    known = JS_STRINGS.keys() | ROOM_STRINGS.keys() | ANNEX_STRINGS.keys()
    missing = {k for k in asked if k not in known and not any(k == p for p in dynamic)}
    assert not missing, missing
    counted = {
        k
        for js in (DISPLAY / "static/js").glob("*.js")
        for k in re.findall(r'\btn\("([a-z_]+)"', js.read_text(encoding="utf-8"))
    }
    assert "sold_count" in counted and counted <= set(JS_PLURALS), counted - set(JS_PLURALS)
    assert tournament and not tournament - set(JS_WORDS), tournament - set(JS_WORDS)
    for prefix, names in {
        "kind_": ("quine", "double_quine", "carton_plein"),
        "vs_": ("valid", "incomplete", "missed", "unknown_card", "unsold_card", "cancelled_card", "closed"),
        "status_": ("playing", "checking", "held", "finished", "waiting"),
        "role_": ROLES,
        "opens_": ROLES,
        "mc_refused_": ("unknown_card", "unsold_card", "bad_card_id", "unknown_sale", "too_many_links"),
        "players_help_": ("off", "board", "tap", "auto"),
        "record_": (
            "ok",
            "ok_noted",
            "changed",
            "unlinked",
            "missing",
            "unreadable",
            "fingerprint_missing",
            "no_journal",
        ),
        "lot_row_": ("1", "2", "3"),
        "row_name_": ("1", "2", "3"),
    }.items():
        for name in names:
            assert prefix + name in JS_STRINGS


def test_the_words_of_one_page_never_give_a_key_two_texts(room):
    """A page reads one table of words (common.js ``t``): the hall's (JS_STRINGS), the mini-games' (ROOM_STRINGS)
    and each game's own sit side by side on the projector and the consoles, so a key must mean one thing in all of
    them (the programme's « jouée » and the rooms' « %(name)s joue %(card)s » were both ``played``)."""
    from display.rooms.pages import GAME_MODULES

    with room.app.test_request_context():
        tables = {
            "JS_STRINGS": JS_STRINGS,
            "ROOM_STRINGS": ROOM_STRINGS,
            **{module.__name__: module.STRINGS for module in GAME_MODULES},
        }
        texts = {name: {key: str(value) for key, value in table.items()} for name, table in tables.items()}
    first: dict[str, tuple[str, str]] = {}
    clashes = []
    for name, table in texts.items():
        for key, text in table.items():
            if key in first and first[key][1] != text:
                clashes.append((key, first[key][0], name))
            first.setdefault(key, (name, text))
    assert not clashes, clashes


def test_a_count_says_one_carton_in_french_and_one_card_in_english(room):
    """« 1 carton vendu », never « 1 cartons vendus »: both forms come from the catalogue (msgid_plural), the page
    picks one by its language's plural rule (common.js ``tn``)."""
    from display.page_words import js_strings

    for lang, one, many in (
        ("fr", "%(n)s carton vendu", "%(n)s cartons vendus"),
        ("en", "%(n)s card sold", "%(n)s cards sold"),
    ):
        with room.app.test_request_context(f"/caisse?lang={lang}"):
            words = js_strings()
        assert (words["sold_count_one"], words["sold_count_other"]) == (one, many)
        assert not any("(s)" in words[k + suffix] for k in JS_PLURALS for suffix in ("_one", "_other"))
