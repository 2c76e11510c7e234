"""hall/numbers.py: one notion of a digit (ASCII), finite amounts, card IDs that cannot read as formulas."""

from __future__ import annotations

import pytest

from hall.cartons.cards import parse_number
from hall.errors import InvalidNumber
from hall.numbers import is_ascii_digits, is_card_id, parse_amount, parse_int


@pytest.mark.parametrize("text", ["٣", "３", "²", "+4", "4_2", " ", "", "-1", "1.0", "0x1f"])
def test_only_ascii_digits_are_digits(text):
    assert not is_ascii_digits(text.strip())
    with pytest.raises(InvalidNumber):
        parse_int(text, 0, 10**6)


def test_integers_in_bounds():
    assert parse_int("42", 1, 90) == 42 and parse_int(" 7 ", 1, 90) == 7 and parse_int(3, 1, 9) == 3
    for bad in (0, 91, True, 3.0, None, "9" * 13):
        with pytest.raises(InvalidNumber):
            parse_int(bad, 1, 90)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), -0.5, 2e6, True, "12", None])
def test_amounts_are_finite_and_bounded(value):
    with pytest.raises(InvalidNumber):
        parse_amount(value)


def test_amounts():
    assert parse_amount(12) == 12.0 and parse_amount(0.5) == 0.5


def test_ball_numbers_share_the_digit_rule():
    assert parse_number("42") == 42
    for bad in ("٤٢", "４２", "4²"):
        with pytest.raises(InvalidNumber):
            parse_number(bad)


@pytest.mark.parametrize(
    "card_id, ok",
    [
        ("A-00412K", True),
        ("A-00001N", True),
        ("table-7", True),
        ("12", True),
        ("x" * 32, True),
        ("-1-1", False),
        ("1-1", False),
        ("-abc", False),
        ("abc-", False),
        ("a--b", False),
        ("x" * 33, False),
        ("=HYPERLINK", False),
        ("", False),
        ("A 1", False),
    ],
)
def test_card_ids(card_id, ok):
    assert is_card_id(card_id) is ok
