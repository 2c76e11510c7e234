"""The card book: CSV import refusing bad files whole with line numbers, export, sold cartons, save/load."""

from __future__ import annotations

import io
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.cartons.card_ids import make_card_id
from hall.cartons.cardbook import CardBook
from hall.cartons.cards import Card
from hall.cartons.planches import generate_cards
from hall.errors import InvalidCardFile
from hall.numbers import is_card_id
from hall.spreadsheet import number_like

HEADER = "card_id,row1,row2,row3"
GOOD_ROWS = "4 13 37 52 80,9 21 45 66 84,18 29 58 74 90"
OTHER_ROWS = "4 13 20 52 80,9 21 45 66 84,18 29 58 74 90"  # column 30–39 empty


def read(text: str, **kwargs) -> CardBook:
    return CardBook.read_csv(io.StringIO(text), **kwargs)


def refusal(text: str, **kwargs) -> list[tuple[int, str]]:
    with pytest.raises(InvalidCardFile) as info:
        read(text, **kwargs)
    return info.value.errors


def book_of(n: int, seed: int = 1, series: str = "A") -> CardBook:
    return CardBook(dict(generate_cards(n, seed=seed, series=series)))


# ------------------------------------------------------------------ reading good files


def test_a_good_file_is_read_in_order():
    book = read(f"{HEADER}\nA-1,{GOOD_ROWS}\ntable-2,{OTHER_ROWS}\n")
    assert list(book) == ["A-1", "table-2"] and len(book) == 2
    assert book.get("A-1") == Card.parse(GOOD_ROWS.replace(",", " / "))
    assert "table-2" in book and "table-3" not in book and book.get("table-3") is None
    assert book.get(None) is None and 42 not in book  # type: ignore[arg-type]
    assert not book.records_sales and book.is_sold("A-1")


def test_bom_and_blank_trailing_lines_and_crlf_are_tolerated(tmp_path):
    path = tmp_path / "cartons.csv"
    path.write_bytes(f"\ufeff{HEADER}\r\nA-1,{GOOD_ROWS}\r\n\r\n  \r\n\r\n".encode())
    assert list(CardBook.read_csv(path)) == ["A-1"]
    assert list(CardBook.read_csv(str(path))) == ["A-1"]


def test_header_only_is_an_empty_book():
    assert len(read(HEADER + "\n")) == 0


def test_generated_ids_typed_in_lower_case_are_stored_upper_case_and_found_either_way():
    card_id = make_card_id("A", 412)
    book = read(f"{HEADER}\n{card_id.lower()},{GOOD_ROWS}\n")
    assert list(book) == [card_id]
    assert book.get(f" {card_id.lower()} ") is book.get(card_id) is not None
    assert f"{card_id.lower()}" in book


def test_serie_de_6_and_column_convention_apply_to_the_file():
    text = f"{HEADER}\nA-1,{OTHER_ROWS}\n"
    assert len(read(text)) == 1
    assert refusal(text, every_column=True) == [
        (2, "colonne 4 (30–39) vide : en série de 6, chaque colonne porte au moins un numéro")
    ]
    assert refusal(f"{HEADER}\nA-1,{GOOD_ROWS}\n", columns="1-10")[0][0] == 2


# ------------------------------------------------------------------ refusing bad files

BAD_LINES = {
    "wrong number count": ("A-2,4 13 37 52,9 21 45 66 84,18 29 58 74 90", "la rangée 1 a 4 numéro(s), il en faut 5"),
    "zero": ("A-2,0 13 37 52 80,9 21 45 66 84,18 29 58 74 90", "rangée 1 : « 0 » n'est pas un numéro de 1 à 90"),
    "ninety-one": ("A-2,4 13 37 52 80,9 21 45 66 84,18 29 58 74 91", "rangée 3 : « 91 » n'est pas un numéro de 1 à 90"),
    "not a number": (
        "A-2,4 13 37 52 80,9 21 4a 66 84,18 29 58 74 90",
        "rangée 2 : « 4a » n'est pas un numéro de 1 à 90",
    ),
    "duplicate number": (
        "A-2,4 13 37 52 80,9 21 45 66 84,18 29 58 74 80",
        "le numéro 80 apparaît deux fois (rangées 1 et 3)",
    ),
    "wrong column": (
        "A-2,4 13 17 52 80,9 21 45 66 84,18 29 58 74 90",
        "rangée 1 : 13 et 17 sont dans la même colonne 2 (10–19)",
    ),
    "descending column": (
        "A-2,9 13 37 52 80,4 21 45 66 84,18 29 58 74 90",
        "colonne 1 (1–9) : 9 (rangée 1) est au-dessus de 4 (rangée 2), les numéros d'une colonne doivent croître vers le bas",
    ),
    "missing field": (
        "A-2,4 13 37 52 80,9 21 45 66 84",
        "champ manquant : 3 champ(s), il en faut 4 (card_id,row1,row2,row3)",
    ),
    "extra field": (f"A-2,{GOOD_ROWS},1", "champ en trop : 5 champ(s), il en faut 4 (card_id,row1,row2,row3)"),
    "duplicate id": (f"A-1,{OTHER_ROWS}", "l'identifiant A-1 est déjà à la ligne 2"),
    "bad id characters": (
        f"A_2,{GOOD_ROWS}",
        "l'identifiant « A_2 » contient _ ; seuls A–Z, a–z, 0–9 et - sont permis",
    ),
    "id with a space": (
        f"A 2,{GOOD_ROWS}",
        "l'identifiant « A 2 » contient U+0020 ; seuls A–Z, a–z, 0–9 et - sont permis",
    ),
    "id too long": (f"{'X' * 33},{GOOD_ROWS}", f"l'identifiant « {'X' * 33} » a 33 caractères, 32 au plus"),
    "empty id": (f",{GOOD_ROWS}", "identifiant vide"),
}


@pytest.mark.parametrize("case", BAD_LINES)
def test_each_bad_line_is_reported_with_its_line_number(case):
    line, message = BAD_LINES[case]
    assert refusal(f"{HEADER}\nA-1,{GOOD_ROWS}\n{line}\nA-3,{OTHER_ROWS}\n") == [(3, message)]


def test_every_bad_line_is_reported_at_once_and_nothing_is_loaded(tmp_path):
    lines = [HEADER, f"A-1,{GOOD_ROWS}"]
    expected = []
    for i, (line, message) in enumerate(BAD_LINES.values()):
        lines.append(f"ok-{i},{GOOD_ROWS}")  # a good line between the bad ones
        lines.append(line.replace("A-2,", f"bad-{i},"))
        expected.append((len(lines), message))
    errors = refusal("\n".join(lines) + "\n")
    assert errors == expected
    # the exception text names every line, header = line 1
    with pytest.raises(InvalidCardFile) as info:
        read("\n".join(lines))
    assert f"{len(expected)} ligne(s) invalide(s)" in str(info.value)
    assert "ligne 4 : la rangée 1 a 4 numéro(s)" in str(info.value)
    # the hall's saved book is untouched by a refused import
    book_of(6).save(tmp_path)
    with pytest.raises(InvalidCardFile):
        CardBook.load(tmp_path).merged(read("\n".join(lines)))
    assert len(CardBook.load(tmp_path)) == 6


def test_one_line_with_two_problems_reports_both():
    errors = refusal(f"{HEADER}\nA_1,4 13 37 52,9 21 45 66 84,18 29 58 74 90\n")
    assert [line for line, _ in errors] == [2, 2]
    assert "A_1" in errors[0][1] and "la rangée 1 a 4 numéro(s)" in errors[1][1]


@pytest.mark.parametrize(
    "header", ["id,row1,row2,row3", "card_id,row1,row2", "card_id,row1,row2,row3,vendu", f"A-1,{GOOD_ROWS}"]
)
def test_a_bad_header_is_reported_on_line_1(header):
    errors = refusal(f"{header}\nA-2,{GOOD_ROWS}\n")
    assert errors[0][0] == 1 and "il faut « card_id,row1,row2,row3 »" in errors[0][1]


def test_header_is_case_and_space_tolerant():
    assert len(read(f"Card_ID, row1 ,ROW2,row3\nA-1,{GOOD_ROWS}\n")) == 1


def test_empty_file_and_blank_line_in_the_middle_are_refused():
    assert refusal("") == [(1, "fichier vide : l'en-tête card_id,row1,row2,row3 manque")]
    assert refusal(f"{HEADER}\nA-1,{GOOD_ROWS}\n\nA-2,{OTHER_ROWS}\n") == [(3, "ligne vide")]


def test_a_file_not_in_utf8_is_refused_naming_the_line(tmp_path):
    path = tmp_path / "latin1.csv"
    path.write_bytes(f"{HEADER}\nA-1,{GOOD_ROWS}\ncarré,{OTHER_ROWS}\n".encode("latin-1"))
    with pytest.raises(InvalidCardFile) as info:
        CardBook.read_csv(path)
    assert info.value.errors[0][0] == 3 and "UTF-8" in info.value.errors[0][1]


# ------------------------------------------------------------------ sold column


def test_sold_column_is_read_and_checked():
    book = read(f"{HEADER},sold\nA-1,{GOOD_ROWS},1\nA-2,{OTHER_ROWS}, 0 \n")
    assert book.records_sales and book.is_sold("A-1") and not book.is_sold("A-2")
    assert refusal(f"{HEADER},sold\nA-1,{GOOD_ROWS},oui\n") == [(2, "sold vaut « oui », il faut 0 ou 1")]
    assert refusal(f"{HEADER},sold\nA-1,{GOOD_ROWS}\n")[0][1].startswith("champ manquant")
    errors = refusal(f"{HEADER},sold\nA-1,4 13 37 52,9 21 45 66 84,18 29 58 74 90,2\n")
    assert errors == [(2, "la rangée 1 a 4 numéro(s), il en faut 5"), (2, "sold vaut « 2 », il faut 0 ou 1")]


def test_with_sold_returns_a_copy_and_names_unknown_ids():
    book = book_of(6)
    first, second = list(book)[:2]
    sold = book.with_sold([first], True)
    assert sold.records_sales and sold.is_sold(first) and not sold.is_sold(second)
    assert not book.records_sales  # the original is unchanged
    assert not sold.with_sold([first.lower()], False).is_sold(first)
    with pytest.raises(KeyError, match="Z-99999"):
        book.with_sold([first, "Z-99999"], True)
    # unselling in a book that did not record sales: all the others stay sold
    unsold = book.with_sold([first], False)
    assert unsold.records_sales and not unsold.is_sold(first) and unsold.is_sold(second)


def test_constructor_checks_ids_and_sold():
    card = Card.parse("4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90")
    with pytest.raises(KeyError, match="B-2"):
        CardBook({"B-1": card}, sold={"B-2"})
    with pytest.raises(ValueError):
        CardBook({"B 1": card})
    assert CardBook({"B-1": card}, sold=set()).records_sales


# ------------------------------------------------------------------ writing, round trips, save/load


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 30), seed=st.integers(0, 10**6), sold=st.none() | st.sets(st.integers(0, 29)))
def test_write_then_read_gives_the_same_book(n, seed, sold):
    book = book_of(n, seed)
    if sold is not None:
        book = book.with_sold([make_card_id("A", i + 1) for i in sold if i < n], True)
        book = CardBook(dict(book.items()), sold={i for i in book if book.is_sold(i)})
    out = io.StringIO()
    book.write_csv(out)
    assert out.getvalue().splitlines()[0] == (HEADER + ",sold" if book.records_sales else HEADER)
    back = read(out.getvalue())
    assert list(back.items()) == list(book.items())
    assert back.records_sales == book.records_sales
    assert all(back.is_sold(i) == book.is_sold(i) for i in book)


def test_write_csv_to_a_path_matches_the_interface_example(tmp_path):
    card = Card.parse("4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90")
    CardBook({"A-000001": card}).write_csv(tmp_path / "out.csv")
    assert (tmp_path / "out.csv").read_text(encoding="utf-8") == (
        "card_id,row1,row2,row3\nA-000001,4 13 37 52 80,9 21 45 66 84,18 29 58 74 90\n"
    )


def test_save_and_load(tmp_path):
    assert len(CardBook.load(tmp_path)) == 0  # no cards.csv yet
    book = book_of(12).with_sold([make_card_id("A", 3)], True)
    book.save(tmp_path / "data")
    loaded = CardBook.load(tmp_path / "data")
    assert list(loaded.items()) == list(book.items()) and loaded.is_sold(make_card_id("A", 3))
    assert not loaded.is_sold(make_card_id("A", 4))
    book_of(6, seed=2).save(tmp_path / "data")  # replaces the file
    assert len(CardBook.load(tmp_path / "data")) == 6
    assert os.listdir(tmp_path / "data") == ["cards.csv"]  # no temporary file left behind


def test_save_leaves_the_old_file_when_writing_fails(tmp_path, monkeypatch):
    book_of(6).save(tmp_path)

    def broken_fsync(fd):
        raise OSError("disque plein")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="disque plein"):
        book_of(12).save(tmp_path)
    monkeypatch.undo()
    assert len(CardBook.load(tmp_path)) == 6
    assert os.listdir(tmp_path) == ["cards.csv"]


def test_merged_refuses_duplicate_ids_with_their_line_in_the_imported_file():
    hall = book_of(6)
    incoming = CardBook(dict(generate_cards(3, seed=9, start=5)))  # A-00005, A-00006 clash
    with pytest.raises(InvalidCardFile) as info:
        hall.merged(incoming)
    assert info.value.errors == [
        (2, f"l'identifiant {make_card_id('A', 5)} existe déjà dans le carnet"),
        (3, f"l'identifiant {make_card_id('A', 6)} existe déjà dans le carnet"),
    ]
    merged = hall.merged(CardBook(dict(generate_cards(3, seed=9, series="B"))))
    assert len(merged) == 9 and list(merged)[6] == make_card_id("B", 1) and len(hall) == 6


def test_merged_keeps_sales():
    hall = book_of(6).with_sold([make_card_id("A", 1)], True)
    merged = hall.merged(CardBook(dict(generate_cards(2, seed=9, series="B"))))
    assert merged.is_sold(make_card_id("A", 1)) and not merged.is_sold(make_card_id("A", 2))
    assert merged.is_sold(make_card_id("B", 1))  # that book did not record sales: its cartons count as sold


# ------------------------------------------------------------------ spreadsheets


card_ids = st.from_regex(r"[0-9]{1,20}([eE][0-9]{1,3})?|[A-Za-z0-9]([A-Za-z0-9-]{0,30}[A-Za-z0-9])?", fullmatch=True)


@settings(max_examples=200, deadline=None)
@given(ids=st.lists(card_ids.filter(is_card_id), min_size=1, max_size=8, unique=True))
def test_number_like_ids_are_written_as_text_for_a_spreadsheet_and_read_back_as_they_were(ids):
    card = Card.parse("4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90")
    book = CardBook({card_id: card for card_id in ids})
    out = io.StringIO()
    book.write_csv(out)
    cells = [line.split(",")[0] for line in out.getvalue().splitlines()[1:]]
    # the apostrophe exactly where a spreadsheet would take the ID for a number, a date or a truth value
    assert cells == [("'" if number_like(card_id) else "") + card_id for card_id in ids]
    assert list(read(out.getvalue()).items()) == list(book.items())


def test_one_apostrophe_is_taken_off_an_id_and_only_one():
    book = read(f"{HEADER}\n'000123,{GOOD_ROWS}\n  '12E3 ,{OTHER_ROWS}\n")
    assert list(book) == ["000123", "12E3"]
    errors = refusal(f"{HEADER}\n''000123,{GOOD_ROWS}\n")
    assert errors[0][0] == 2 and "contient '" in errors[0][1]


def test_an_id_a_spreadsheet_made_a_number_of_is_refused_naming_the_carton_it_was():
    card = Card.parse("4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90")
    hall = CardBook({"000123": card, "12E3": card, "0042": card, "7": card, "B-7": card})
    incoming = read(f"{HEADER}\n123,{GOOD_ROWS}\n12000,{GOOD_ROWS}\n8,{GOOD_ROWS}\n7,{GOOD_ROWS}\n42,{GOOD_ROWS}\n")
    with pytest.raises(InvalidCardFile) as info:
        hall.merged(incoming)
    assert [(n, why.split(" : ")[0]) for n, why in info.value.errors] == [
        (2, "l'identifiant 123 est sans doute 000123 du carnet, qu'un tableur a changé en nombre"),
        (3, "l'identifiant 12000 est sans doute 12E3 du carnet, qu'un tableur a changé en nombre"),
        (5, "l'identifiant 7 existe déjà dans le carnet"),
        (6, "l'identifiant 42 est sans doute 0042 du carnet, qu'un tableur a changé en nombre"),
    ]
    # a number a spreadsheet wrote in its own way is named as such, the line refused with the file's other faults
    errors = refusal(f"{HEADER}\n1.23456789012346E+19,{GOOD_ROWS}\n1,5E+20,{GOOD_ROWS}\n")
    assert [n for n, _ in errors] == [2, 3] and "récrit par un tableur" in errors[0][1]
    assert len(hall.merged(read(f"{HEADER}\n124,{GOOD_ROWS}\n0124,{GOOD_ROWS}\n"))) == 7  # no twin: both new


# ------------------------------------------------------------------ sold ranges


def test_parse_id_ranges():
    a1, a3, a42 = make_card_id("A", 1), make_card_id("A", 3), make_card_id("A", 42)
    ids = CardBook.parse_id_ranges(f"{a1}..{a3}, {a42.lower()} ; table-7")
    assert ids == [a1, make_card_id("A", 2), a3, a42, "table-7"]
    assert CardBook.parse_id_ranges(f" {a3} .. {a3} ,{a3}") == [a3]
    assert CardBook.parse_id_ranges("") == []


@pytest.mark.parametrize(
    "text, problem",
    [
        (f"{make_card_id('A', 1)}..{make_card_id('B', 3)}", "même série"),
        (f"{make_card_id('A', 5)}..{make_card_id('A', 3)}", "dépasse la fin"),
        (f"{make_card_id('A', 1)[:-1]}?..{make_card_id('A', 3)}", "identifiants générés"),
        (f"{make_card_id('A', 1)}..table-3", "identifiants générés"),
        (f"{make_card_id('A', 1)}..{make_card_id('A', 3)}..{make_card_id('A', 5)}", "DÉBUT..FIN"),
        ("A_1", "seuls A–Z"),
    ],
)
def test_parse_id_ranges_refuses_bad_parts(text, problem):
    with pytest.raises(ValueError, match=problem):
        CardBook.parse_id_ranges(text)


def test_parse_id_ranges_catches_a_mistyped_check_character():
    good = make_card_id("A", 10)
    typo = good[:-1] + ("0" if good[-1] != "0" else "1")
    for text in (typo, f"{make_card_id('A', 1)}..{typo}"):
        with pytest.raises(ValueError, match="caractère de contrôle"):
            CardBook.parse_id_ranges(text)


def test_an_unreadable_csv_line_is_reported_and_the_next_lines_still_checked():
    errors = refusal(
        f"{HEADER}\nA-1,{'9' * 200_000},1,2\nA-2,{GOOD_ROWS}\nA-3,0 1 2 3 4,{GOOD_ROWS.split(',', 1)[1]}\n"
    )
    assert [line for line, _ in errors] == [2, 4] and "ligne illisible" in errors[0][1]
