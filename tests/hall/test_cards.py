"""Cartons: the layout rules L1–L4 in the one-line notation, the planche generator, card IDs."""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.cartons.card_ids import check_card_id, make_card_id, normalize_card_id, split_card_id
from hall.cartons.cards import COLUMN_CONVENTIONS, Card, column_of, parse_number, validate_rows
from hall.cartons.planches import generate_cards, generate_planche
from hall.errors import InvalidCard, InvalidNumber

GOOD = "4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90"  # valid in "1-9", every column used
NO_COLUMN_30S = "4 13 20 52 80 / 9 21 45 66 84 / 18 29 58 74 90"  # 30–39 empty: mode carton only
ONLY_1_9 = "1 10 20 30 40 / 2 11 21 31 41 / 3 12 22 32 42"  # "1-10" puts 1 and 10 in one column
ONLY_1_10 = "1 11 21 31 81 / 2 12 22 32 82 / 10 20 30 40 90"  # "1-9": 10 under 12 in column 10–19

ALPHABET34 = string.digits + "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I, no O


def refused(text: str, columns: str = "1-9", every_column: bool = False) -> str:
    with pytest.raises(InvalidCard) as info:
        Card.parse(text, columns, every_column)
    return str(info.value)


def oracle_is_valid(rows, columns: str, every_column: bool) -> bool:
    """The rules read straight off the printed grid, written independently of hall.cartons.cards."""

    def col(n):
        return min(n // 10, 8) if columns == "1-9" else min((n - 1) // 10, 8)

    if len(rows) != 3 or any(len(r) != 5 for r in rows):
        return False
    numbers = [n for r in rows for n in r]
    if len(set(numbers)) != 15 or not all(1 <= n <= 90 for n in numbers):
        return False
    grid = [[None] * 9 for _ in range(3)]
    for r, row in enumerate(rows):
        for n in row:
            if grid[r][col(n)] is not None:
                return False
            grid[r][col(n)] = n
    for j in range(9):
        down = [grid[r][j] for r in range(3) if grid[r][j] is not None]
        if down != sorted(down) or (every_column and not down):
            return False
    return True


# ------------------------------------------------------------------ L1: 3 rows × 5, 15 distinct numbers 1–90


def test_l1_a_carton_has_three_rows_of_five_distinct_numbers():
    card = Card.parse(GOOD)
    assert card.rows == ((4, 13, 37, 52, 80), (9, 21, 45, 66, 84), (18, 29, 58, 74, 90))
    assert len(card.numbers) == 15


@pytest.mark.parametrize(
    "text, expected",
    [
        ("4 13 37 52 / 9 21 45 66 84 / 18 29 58 74 90", "la rangée 1 a 4 numéro(s), il en faut 5"),
        ("4 13 37 52 80 / 9 21 45 66 84 88 / 18 29 58 74 90", "la rangée 2 a 6 numéro(s), il en faut 5"),
        ("4 13 37 52 80 / 9 21 45 66 84", "il faut 3 rangées"),
        ("4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90 / 1 2 3 4 5", "il faut 3 rangées"),
        ("4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 91", "rangée 3 : « 91 » n'est pas un numéro de 1 à 90"),
        ("0 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90", "rangée 1 : « 0 » n'est pas un numéro de 1 à 90"),
        ("4 13 37 52 80 / 9 21 4a 66 84 / 18 29 58 74 90", "rangée 2 : « 4a » n'est pas un numéro de 1 à 90"),
        ("4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 80", "le numéro 80 apparaît deux fois (rangées 1 et 3)"),
    ],
)
def test_l1_bad_cartons_are_refused_naming_row_and_number(text, expected):
    assert expected in refused(text)


# ------------------------------------------------------------------ L2: column ranges, both conventions


def test_l2_column_ranges_of_both_conventions():
    assert [column_of(n) for n in (1, 9, 10, 19, 20, 79, 80, 89, 90)] == [0, 0, 1, 1, 2, 7, 8, 8, 8]
    assert [column_of(n, "1-10") for n in (1, 9, 10, 11, 20, 21, 80, 81, 90)] == [0, 0, 0, 1, 1, 2, 7, 8, 8]
    for columns, sizes in (("1-9", [9] + [10] * 7 + [11]), ("1-10", [10] * 9)):
        assert [sum(column_of(n, columns) == j for n in range(1, 91)) for j in range(9)] == sizes


def test_l2_two_numbers_of_one_column_cannot_share_a_row():
    assert "rangée 1 : 13 et 17 sont dans la même colonne 2 (10–19)" in refused(
        "4 13 17 52 80 / 9 21 45 66 84 / 18 29 58 74 90"
    )
    assert "rangée 3 : 80 et 90 sont dans la même colonne 9 (80–90)" in refused(
        "4 13 37 52 61 / 9 21 45 66 84 / 18 29 58 80 90"
    )


def test_l2_the_convention_decides_where_10_and_80_go():
    Card.parse(ONLY_1_9, "1-9")
    assert "1 et 10 sont dans la même colonne 1 (1–10)" in refused(ONLY_1_9, "1-10")
    Card.parse(ONLY_1_10, "1-10")
    assert "colonne 2 (10–19) : 12 (rangée 2) est au-dessus de 10 (rangée 3)" in refused(ONLY_1_10, "1-9")
    # under "1-10" 80 closes column 71–80, so GOOD's 80 on row 1 sits above 74 on row 3
    assert "colonne 8 (71–80) : 80 (rangée 1) est au-dessus de 74 (rangée 3)" in refused(GOOD, "1-10")


def test_unknown_column_convention_is_a_value_error():
    with pytest.raises(ValueError, match="column convention"):
        Card.parse(GOOD, "0-9")


# ------------------------------------------------------------------ L3: 0–3 per column, or 1–3 in "série de 6"


def test_l3_mode_carton_allows_an_empty_column_serie_de_6_does_not():
    Card.parse(NO_COLUMN_30S)
    assert "colonne 4 (30–39) vide" in refused(NO_COLUMN_30S, every_column=True)
    Card.parse(GOOD, every_column=True)
    Card.parse(ONLY_1_10, "1-10")  # four columns empty
    assert "colonne 5 (41–50) vide" in refused(ONLY_1_10, "1-10", every_column=True)


def test_l3_a_column_holds_three_numbers_at_most_since_there_are_three_rows():
    Card.parse("1 11 21 31 41 / 2 12 22 32 42 / 3 13 23 33 43")  # five full columns
    # a fourth number of a column necessarily shares a row with another one
    assert "même colonne" in refused("1 2 21 31 41 / 3 12 22 32 42 / 4 13 23 33 43")


# ------------------------------------------------------------------ L4: ascending downward in a column


def test_l4_a_column_ascends_downward():
    assert "colonne 1 (1–9) : 9 (rangée 1) est au-dessus de 4 (rangée 2)" in refused(
        "9 13 37 52 80 / 4 21 45 66 84 / 18 29 58 74 90"
    )
    assert "colonne 9 (80–90) : 90 (rangée 2) est au-dessus de 84 (rangée 3)" in refused(
        "4 13 37 52 80 / 9 21 45 66 90 / 18 29 58 74 84"
    )


def test_l4_rows_are_stored_ascending_whatever_order_they_are_given_in():
    card = Card.from_rows([[80, 4, 52, 13, 37], [84, 9, 21, 45, 66], (90, 74, 58, 29, 18)])
    assert card == Card.parse(GOOD)
    assert Card.parse("80 4 52 13 37 / 9 21 45 66 84 / 18 29 58 74 90") == card


# ------------------------------------------------------------------ the Card value


def test_card_accessors():
    card = Card.parse(GOOD)
    assert card.numbers == frozenset({4, 13, 37, 52, 80, 9, 21, 45, 66, 84, 18, 29, 58, 74, 90})
    assert [card.row_of(n) for n in (4, 45, 90, 5)] == [0, 1, 2, None]
    assert card.notation() == GOOD and str(card) == GOOD
    assert card.grid() == (
        (4, 13, None, 37, None, 52, None, None, 80),
        (9, None, 21, None, 45, None, 66, None, 84),
        (None, 18, 29, None, None, 58, None, 74, 90),
    )
    assert card.grid("1-10")[0] == (4, 13, None, 37, None, 52, None, 80, None)
    assert hash(card) == hash(Card.parse(GOOD)) and card != Card.parse(NO_COLUMN_30S)


def test_card_constructor_refuses_a_wrong_shape():
    with pytest.raises(InvalidCard):
        Card(([1, 2, 3, 4, 5], (11, 12, 13, 14, 15), (21, 22, 23, 24, 25)))  # type: ignore[arg-type]
    with pytest.raises(InvalidCard):
        Card.from_rows("not rows")
    with pytest.raises(InvalidCard, match="n'est pas un numéro"):
        Card.from_rows([[4, 13, 37, 52, "80"], [9, 21, 45, 66, 84], [18, 29, 58, 74, 90]])
    with pytest.raises(InvalidCard, match="n'est pas un numéro"):
        Card.from_rows([[4, 13, 37, 52, True], [9, 21, 45, 66, 84], [18, 29, 58, 74, 90]])


rows_strategy = st.lists(st.lists(st.integers(0, 91), min_size=4, max_size=6), min_size=2, max_size=4)


@given(rows=rows_strategy, columns=st.sampled_from(COLUMN_CONVENTIONS), every_column=st.booleans())
def test_validation_agrees_with_the_grid_oracle_on_any_rows(rows, columns, every_column):
    try:
        validate_rows(rows, columns, every_column)
        accepted = True
    except InvalidCard as e:
        accepted = False
        assert str(e) and str(e) != "carton invalide"  # the message names a problem
    assert accepted == oracle_is_valid(rows, columns, every_column)


@given(
    seed=st.integers(0, 2**32),
    columns=st.sampled_from(COLUMN_CONVENTIONS),
    every_column=st.booleans(),
    edits=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 4), st.integers(1, 90)), min_size=1, max_size=2),
)
def test_validation_agrees_with_the_oracle_near_valid_cartons(seed, columns, every_column, edits):
    rows = [list(r) for r in generate_planche(random.Random(seed), columns)[0].rows]
    for r, i, n in edits:
        rows[r][i] = n
    try:
        card = Card.from_rows(rows, columns, every_column)
    except InvalidCard:
        assert not oracle_is_valid(rows, columns, every_column)
    else:
        assert oracle_is_valid(rows, columns, every_column)
        assert Card.parse(card.notation(), columns, every_column) == card


# ------------------------------------------------------------------ parse_number


@pytest.mark.parametrize(
    "value",
    [
        "4a",
        "",
        " ",
        "  ",
        "0",
        "91",
        "4.0",
        "4.5",
        "-4",
        "+4",
        "4_0",
        "٣",
        "1e1",
        0,
        91,
        -1,
        4.5,
        4.0,
        True,
        False,
        None,
        b"4",
        [4],
    ],
)
def test_parse_number_refuses_anything_but_a_ball_number(value):
    with pytest.raises(InvalidNumber, match="not a ball number"):
        parse_number(value)


def test_parse_number_message_quotes_the_input():
    with pytest.raises(InvalidNumber) as info:
        parse_number("4a")
    assert str(info.value) == "not a ball number: '4a'"


@given(st.integers(1, 90))
def test_parse_number_accepts_every_ball_as_int_or_padded_text(n):
    assert parse_number(n) == parse_number(str(n)) == parse_number(f" {n} ") == n


@given(
    st.one_of(
        st.integers().filter(lambda n: not 1 <= n <= 90),
        st.text().filter(lambda t: not (t.strip().isascii() and t.strip().isdigit() and 1 <= int(t.strip()) <= 90)),
    )
)
def test_parse_number_refuses_everything_else(value):
    with pytest.raises(InvalidNumber):
        parse_number(value)


# ------------------------------------------------------------------ generator


@settings(max_examples=60)
@given(seed=st.one_of(st.integers(), st.text(max_size=10)), columns=st.sampled_from(COLUMN_CONVENTIONS))
def test_a_planche_covers_1_to_90_once_and_every_carton_is_a_serie_de_6_carton(seed, columns):
    planche = generate_planche(random.Random(seed), columns)
    assert len(planche) == 6
    assert sorted(n for card in planche for n in card.numbers) == list(range(1, 91))
    for card in planche:
        validate_rows(card.rows, columns, every_column=True)
        assert oracle_is_valid(card.rows, columns, every_column=True)
        assert Card.parse(card.notation(), columns) == card


def test_generate_cards_is_deterministic_and_numbers_the_ids():
    cards = generate_cards(14, seed="loto du 14 juillet", series="B", start=7)
    assert cards == generate_cards(14, seed="loto du 14 juillet", series="B", start=7)
    assert cards != generate_cards(14, seed="loto du 15 juillet", series="B", start=7)
    assert [card_id for card_id, _ in cards] == [make_card_id("B", n) for n in range(7, 21)]
    first_planche = [card for _, card in cards[:6]]
    assert sorted(n for card in first_planche for n in card.numbers) == list(range(1, 91))
    assert generate_cards(0, seed=1) == []
    assert [c for _, c in generate_cards(4, seed=3)] == [c for _, c in generate_cards(6, seed=3)[:4]]


def test_generate_cards_refuses_bad_arguments():
    for kwargs in ({"count": -1}, {"series": "a"}, {"series": "ABCD"}, {"columns": "1-8"}, {"start": -2}):
        with pytest.raises(ValueError):
            generate_cards(**{"count": 6, "seed": 1, **kwargs})


@pytest.mark.parametrize("columns", COLUMN_CONVENTIONS)
def test_generated_cartons_vary_every_number_reaches_every_row(columns):
    cards = [card for _, card in generate_cards(3000, seed=11, columns=columns)]
    rows_seen = {(n, r) for card in cards for r, row in enumerate(card.rows) for n in row}
    assert rows_seen == {(n, r) for n in range(1, 91) for r in range(3)}
    layouts = {tuple(tuple(cell is None for cell in row) for row in card.grid(columns)) for card in cards}
    assert len(layouts) > 1500  # no fixed patterns: almost every carton has its own blank layout
    per_column = {tuple(sum(cell is not None for cell in col) for col in zip(*card.grid(columns))) for card in cards}
    assert {c for profile in per_column for c in profile} == {1, 2, 3}


# ------------------------------------------------------------------ card IDs


def luhn_mod_n_valid(text: str) -> bool:
    """Luhn mod N validation as published (Wikipedia, "Luhn mod N algorithm"), N = 34 (no I, no O)."""
    factor, total = 1, 0
    for ch in reversed(text):
        addend = factor * ALPHABET34.index(ch)
        factor = 2 if factor == 1 else 1
        total += addend // 34 + addend % 34
    return total % 34 == 0


def test_make_card_id_form():
    card_id = make_card_id("A", 412)
    assert card_id[:7] == "A-00412" and len(card_id) == 8
    assert luhn_mod_n_valid("A00412" + card_id[-1])
    assert make_card_id("ZZZ", 1234567).startswith("ZZZ-1234567")
    assert split_card_id(card_id) == ("A", 412)
    for bad in (("", 1), ("a", 1), ("ABCD", 1), ("A1", 1), ("O", 1), ("I", 1), ("A", -1), ("A", 1.0), ("A", True)):
        with pytest.raises(ValueError):
            make_card_id(*bad)


ids = st.builds(make_card_id, st.text("ABCDEFGHJKLMNPQRSTUVWXYZ", min_size=1, max_size=3), st.integers(0, 10**9))


@given(card_id=ids)
def test_every_single_character_substitution_of_a_generated_id_is_caught(card_id):
    assert check_card_id(card_id) is True and luhn_mod_n_valid(card_id.replace("-", ""))
    for i, original in enumerate(card_id):
        for ch in string.ascii_letters + string.digits + "-_ ./":
            if ch != original:
                typo = card_id[:i] + ch + card_id[i + 1 :]
                assert check_card_id(typo) is not True, typo


@given(card_id=ids)
def test_adjacent_swaps_are_caught_except_0_and_z(card_id):
    for i in range(len(card_id) - 1):
        a, b = card_id[i], card_id[i + 1]
        if a != b and {a, b} != {"0", "Z"}:
            swapped = card_id[:i] + b + a + card_id[i + 2 :]
            assert check_card_id(swapped) is not True, swapped


def test_check_card_id_is_none_for_other_forms():
    for text in ("table-3", "A00412D", "A-0412D", "a-00412d", "ABCD-00412D", "A-00412", "A-001234X", "", "A--00412D"):
        assert check_card_id(text) is None, text
    assert check_card_id(None) is None  # type: ignore[arg-type]


def test_normalize_card_id():
    card_id = make_card_id("AB", 42)
    assert normalize_card_id(f"  {card_id.lower()} \n") == card_id
    assert normalize_card_id(card_id[:3] + " " + card_id[3:]) == card_id
    assert normalize_card_id("table-3") == "table-3"  # imported IDs keep their case
    assert normalize_card_id(" Lot-B7 ") == "Lot-B7"
    typed = card_id.replace("0", "O").replace("1", "I")  # O and I are never in a generated ID
    assert normalize_card_id(typed.lower()) == card_id


def test_from_rows_accepts_any_iterables_even_one_shot():
    rows = (iter(r) for r in ([80, 4, 52, 13, 37], [9, 21, 45, 66, 84], [18, 29, 58, 74, 90]))
    assert Card.from_rows(rows) == Card.parse(GOOD)
