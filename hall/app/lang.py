"""The language of the command line: French unless ``LANG`` (or ``LC_ALL``/``LC_MESSAGES``) asks for English.

Its sentences are written in French, marked ``_("…")``, and translated by gettext from the web's one catalogue
(``display/translations/en/LC_MESSAGES/messages.mo``, ``display/translations/README.md``): one mechanism for
every sentence of the program, the pages' and the terminal's.
"""
from __future__ import annotations

import gettext
import os
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
