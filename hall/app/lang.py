"""The language of the command line: French unless ``LANG`` (or ``LC_ALL``/``LC_MESSAGES``) asks for English."""
from __future__ import annotations

import os


def is_french() -> bool:
    """Whether the terminal's locale is French (the default) rather than English."""
    lang = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG") or "fr"
    return not lang.lower().startswith("en")


def t(fr: str, en: str) -> str:
    """The French text, or the English one when ``LANG`` asks for English."""
    return fr if is_french() else en
