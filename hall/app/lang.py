"""The language of the command line: French unless ``LANG`` (or ``LC_ALL``/``LC_MESSAGES``) asks for English, argparse's
own words (``usage:``, ``options:``, its errors) included (``argparse_in_language``).

Its sentences are written in French, marked ``_("…")``, and translated by gettext from the web's one catalogue
(``display/translations/en/LC_MESSAGES/messages.mo``, ``display/translations/README.md``): one mechanism for
every sentence of the program, the pages' and the terminal's.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from hall.marks import N_

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


# argparse's own sentences, as it writes them (English, its source) → ours (French), said through the catalogue
# like every other sentence of the command line: ``_(ARGPARSE_WORDS[text])`` is French, or English again from
# messages.po. A heading ends with a space: argparse puts its colon right after (« options : », French typography).
ARGPARSE_WORDS = {
    "usage: ": N_("usage : "),
    "positional arguments": N_("arguments positionnels "),
    "options": N_("options "),
    "show this help message and exit": N_("affiche cette aide et s'arrête"),
    "%(prog)s: error: %(message)s\n": N_("%(prog)s : erreur : %(message)s\n"),
    "argument %(argument_name)s: %(message)s": N_("argument %(argument_name)s : %(message)s"),
    "the following arguments are required: %s": N_("arguments obligatoires manquants : %s"),
    "one of the arguments %s is required": N_("l'un des arguments %s est obligatoire"),
    "unrecognized arguments: %s": N_("arguments inconnus : %s"),
    "not allowed with argument %s": N_("impossible avec l'argument %s"),
    "ignored explicit argument %r": N_("valeur %r en trop, ignorée"),
    "ambiguous option: %(option)s could match %(matches)s": N_("option ambiguë : %(option)s peut être %(matches)s"),
    "invalid choice: %(value)r (choose from %(choices)s)": N_("choix invalide : %(value)r (au choix : %(choices)s)"),
    "invalid %(type)s value: %(value)r": N_("valeur invalide (%(type)s attendu) : %(value)r"),
    "unknown parser %(parser_name)r (choices: %(choices)s)": N_(
        "commande inconnue : %(parser_name)r (au choix : %(choices)s)"
    ),
    "expected one argument": N_("une valeur attendue"),
    "expected at most one argument": N_("une valeur au plus attendue"),
    "expected at least one argument": N_("une valeur au moins attendue"),
    "can't open '%(filename)s': %(error)s": N_("impossible d'ouvrir « %(filename)s » : %(error)s"),
}


def _argparse_gettext(text: str) -> str:
    return _(ARGPARSE_WORDS[text]) if text in ARGPARSE_WORDS else text


def _argparse_ngettext(singular: str, plural: str, n: int) -> str:
    if (singular, plural) == ("expected %s argument", "expected %s arguments"):  # its one plural
        return n_("%s valeur attendue", "%s valeurs attendues", n)
    return singular if n == 1 else plural


@contextmanager
def argparse_in_language() -> Iterator[None]:
    """argparse's own words (``usage:``, ``options:``, ``-h``'s help, its errors) in the terminal's language while
    the command line is built and read. argparse says them through ``gettext.gettext``, which it bound into its
    module at import and which knows nothing of this catalogue: the two names are swapped for ours for that time,
    then put back (a test, or a program that imports this one, keeps its own argparse)."""
    import argparse

    names = vars(argparse)  # the module's own globals, which its functions read at each call
    saved = names["_"], names["ngettext"]
    names["_"], names["ngettext"] = _argparse_gettext, _argparse_ngettext
    try:
        yield
    finally:
        names["_"], names["ngettext"] = saved
