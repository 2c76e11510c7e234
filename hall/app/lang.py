"""The language of the command line: French unless ``LANG`` (or ``LC_ALL``/``LC_MESSAGES``) asks for English.

Its sentences are written in French, marked ``_("…")``, and translated by gettext from the web's one catalogue
(``display/translations/en/LC_MESSAGES/messages.mo``, ``display/translations/README.md``): one mechanism for
every sentence of the program, the pages' and the terminal's.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

TRANSLATIONS = Path(__file__).resolve().parents[2] / "display" / "translations"


def is_french() -> bool:
    """Whether the terminal's locale is French (the default) rather than English."""
    lang = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG") or "fr"
    return not lang.lower().startswith("en")


@cache
def _english() -> gettext.NullTranslations:
    return gettext.translation("messages", str(TRANSLATIONS), languages=["en"], fallback=True)


def _(text: str) -> str:
    """``text`` (French, the source) in the terminal's language."""
    return text if is_french() else _english().gettext(text)


def n_(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` (French, the source) for ``n`` in the terminal's language: French says
    « 0 carton », « 1 carton », « 2 cartons »; English « 0 cards », « 1 card »."""
    if is_french():
        return singular if abs(n) < 2 else plural
    english = _english().ngettext  # (named apart: the catalogue's extractor reads only literal sentences)
    return english(singular, plural, n)


def in_language(language: str) -> Callable[[str], str]:
    """The catalogue's words in ``language`` (a file written for the hall, in the hall's language, whatever the
    terminal speaks): English for ``en``, the French source otherwise."""
    return _english().gettext if language == "en" else (lambda text: text)
