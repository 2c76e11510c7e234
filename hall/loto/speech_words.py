"""A ball as the hall says it, in words: « quarante-deux… quatre, deux », then its nickname (RULES §1c).

French numbers by region: France says soixante-dix, quatre-vingts, quatre-vingt-dix; Belgium septante and nonante
(quatre-vingts kept); Switzerland septante, huitante, nonante. The words are made here and given to the voice as
they are (espeak-ng's regional voices would say the digits their own way, and a hall's recordings need no words).
Pure, stdlib only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping

from hall.net.values import INVISIBLE_CATEGORIES

VOICES = ("fr-FR", "fr-BE", "fr-CH", "recorded")
MAX_NICKNAME = 60  # characters of one nickname (a phrase, never a paragraph)

_UNITS = (
    "zéro",
    "un",
    "deux",
    "trois",
    "quatre",
    "cinq",
    "six",
    "sept",
    "huit",
    "neuf",
    "dix",
    "onze",
    "douze",
    "treize",
    "quatorze",
    "quinze",
    "seize",
)
_TENS = {2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"}
# the tens each region says itself (the rest is France's): fr-BE septante, nonante; fr-CH huitante as well
_REGIONAL = {"fr-BE": {7: "septante", 9: "nonante"}, "fr-CH": {7: "septante", 8: "huitante", 9: "nonante"}}

# RULES §1c: the sourced regional nicknames, the hall's table to start from (edited on /admin, off by default)
NICKNAMES: Mapping[int, str] = {
    1: "l'as",
    6: "il a la queue en l'air",
    9: "la queue en bas",
    11: "les gambettes à Jeannot",
    13: "allez l'OM",
    22: "les deux cocottes",
    31: "Claude Nougaro",
    33: "docteur",
    51: "le pastis",
    55: "les deux tordus",
    59: "bienvenue chez les Ch'tis",
    65: "Bernadette, priez pour nous",
    80: "coin coin",
    85: "la Vendée",
    90: "olé !",
}


def _below_100(n: int, tens_words: Mapping[int, str]) -> str:
    if n <= 16:
        return _UNITS[n]
    if n < 20:
        return "dix-" + _UNITS[n - 10]
    tens, unit = divmod(n, 10)
    if tens in tens_words:
        word = tens_words[tens]
        if unit == 0:
            return word
        return f"{word} et un" if unit == 1 else f"{word}-{_UNITS[unit]}"
    if tens in (7, 9):  # soixante-dix, quatre-vingt-dix: the tens below, then dix to dix-neuf
        base = "soixante" if tens == 7 else "quatre-vingt"
        rest = _below_100(n - (60 if tens == 7 else 80), tens_words)
        return f"{base} et onze" if n == 71 else f"{base}-{rest}"
    # tens == 8 in France and Belgium
    return "quatre-vingts" if unit == 0 else "quatre-vingt-" + _UNITS[unit]


def number_words(n: int, voice: str = "fr-FR") -> str:
    """``n`` (1–90) in words as the region of ``voice`` says it; ``ValueError`` outside 1–90."""
    if type(n) is not int or not 1 <= n <= 90:
        raise ValueError(f"not a ball number: {n!r}")
    return _below_100(n, {**_TENS, **_REGIONAL.get(voice, {})})


def digits(n: int) -> str:
    """The digits one by one: « quatre, deux » (a ball of one digit has none to add)."""
    return ", ".join(_UNITS[int(d)] for d in str(n)) if n >= 10 else ""


def ball_phrase(n: int, voice: str = "fr-FR", *, repeat: bool = True, nickname: str = "") -> str:
    """What the hall says for ball ``n``: the number, its digits when ``repeat``, then ``nickname`` if any."""
    text = number_words(n, voice)
    if repeat and n >= 10:
        text += "… " + digits(n)
    if nickname:
        text += "… " + nickname
    return text


def _visible(text: str) -> bool:
    return not any(unicodedata.category(c) == "Cc" or unicodedata.category(c) in INVISIBLE_CATEGORIES for c in text)


def clean_nicknames(pairs: Iterable[tuple[object, object]]) -> tuple[tuple[int, str], ...]:
    """A nickname table as the hall keeps it: ``(n, text)`` sorted by n, one per number, blanks dropped;
    ``ValueError`` naming the first bad entry (a number outside 1–90, a text that is not one short line of visible
    characters: a control character — ESC is a printer's and a terminal's command — or a bidi override, a zero-width
    space… that makes the text on /admin and the journal other than what it shows, refused as an SSID's are)."""
    table: dict[int, str] = {}
    for n, text in pairs:
        if type(n) is not int or not 1 <= n <= 90:
            raise ValueError(f"n={n!r}")
        if not isinstance(text, str) or len(text) > MAX_NICKNAME or not _visible(text):
            raise ValueError(f"n={n}")
        if text.strip():
            table[n] = " ".join(text.split())
    return tuple(sorted(table.items()))
