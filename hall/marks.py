"""One mark for the translation catalogue, for every part of the hall that names a French sentence it does not say.

``N_("Quine")`` returns its text unchanged: Babel's extraction (``display/babel.cfg``: keyword ``N_``) puts it in the
catalogue, and whoever reads it later says it in the reader's language through ``_()`` (the web), the command line's
catalogue, or the papers' own language.
"""

from __future__ import annotations


def N_(text: str) -> str:
    """Marks a French sentence for the catalogue; its reader translates it."""
    return text
