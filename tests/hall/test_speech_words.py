"""A ball as the hall says it: French numbers by region (septante, huitante, nonante), the digits, the nickname."""

from __future__ import annotations

import pytest

from hall.loto.speech_words import NICKNAMES, ball_phrase, clean_nicknames, number_words

# the numbers where the regions part, as each says them (Belgium keeps quatre-vingts; Switzerland says huitante)
REGIONS = {
    70: ("soixante-dix", "septante", "septante"),
    71: ("soixante et onze", "septante et un", "septante et un"),
    77: ("soixante-dix-sept", "septante-sept", "septante-sept"),
    80: ("quatre-vingts", "quatre-vingts", "huitante"),
    81: ("quatre-vingt-un", "quatre-vingt-un", "huitante et un"),
    89: ("quatre-vingt-neuf", "quatre-vingt-neuf", "huitante-neuf"),
    90: ("quatre-vingt-dix", "nonante", "nonante"),
}


@pytest.mark.parametrize("n", sorted(REGIONS))
def test_each_region_says_its_own_tens(n):
    assert tuple(number_words(n, v) for v in ("fr-FR", "fr-BE", "fr-CH")) == REGIONS[n]


def test_below_seventy_every_region_says_the_same():
    table = {
        1: "un",
        11: "onze",
        16: "seize",
        17: "dix-sept",
        21: "vingt et un",
        22: "vingt-deux",
        42: "quarante-deux",
        61: "soixante et un",
        69: "soixante-neuf",
    }
    for n, words in table.items():
        assert {number_words(n, v) for v in ("fr-FR", "fr-BE", "fr-CH")} == {words}


@pytest.mark.parametrize("bad", [0, 91, -1, "42", 4.0, True])
def test_only_a_ball_has_words(bad):
    with pytest.raises(ValueError):
        number_words(bad)


def test_the_hall_says_the_number_then_its_digits_then_its_nickname():
    assert ball_phrase(42) == "quarante-deux… quatre, deux"
    assert ball_phrase(7) == "sept"  # one digit: nothing to repeat
    assert ball_phrase(42, repeat=False) == "quarante-deux"
    assert ball_phrase(90, "fr-CH", nickname=NICKNAMES[90]) == "nonante… neuf, zéro… olé !"


def test_a_nickname_table_is_one_short_line_per_ball():
    assert clean_nicknames([(33, " docteur "), (1, "l'as"), (2, "")]) == ((1, "l'as"), (33, "docteur"))
    assert clean_nicknames([(22, "les deux cocottes 🐔🐔"), (69, "année érotique")])[0][1] == "les deux cocottes 🐔🐔"
    for bad in ([(91, "x")], [("4", "x")], [(4, "x" * 61)], [(4, "deux\nlignes")], [(4, 5)]) + tuple(
        [(4, f"le{c}quatre")]
        for c in ("\x1b", "\x1b[2J", "\x07", "\x85", "\u202e", "\u2066", "\u200b", "\ufeff", "\ue000")
    ):
        with pytest.raises(ValueError):
            clean_nicknames(bad)
