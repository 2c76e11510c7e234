"""A card CSV as a French spreadsheet saves it: semicolons, UTF-8 with BOM or Windows-1252, accepted like the plain one."""

from __future__ import annotations

import io

from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.spreadsheet import as_plain_csv, delimiter_of


def plain_csv(cards) -> str:
    out = io.StringIO()
    CardBook(dict(cards)).write_csv(out)
    return out.getvalue()


def test_semicolons_with_a_bom_and_windows_1252_read_as_the_plain_file():
    cards = generate_cards(12, seed="tableur", series="E")
    plain = plain_csv(cards)
    excel = plain.replace(",", ";").replace("\n", "\r\n")
    for raw in (excel.encode("utf-8-sig"), excel.encode("cp1252"), ("\ufeff" + excel).encode("utf-16")):
        book = CardBook.read_csv(io.StringIO(as_plain_csv(raw)))
        assert list(book) == [cid for cid, _ in cards]
    assert as_plain_csv(plain.encode()) == plain


def test_the_delimiter_is_the_headers():
    assert delimiter_of("card_id;row1;row2;row3\n") == ";"
    assert delimiter_of("card_id,row1,row2,row3\n") == ","
    assert delimiter_of("card_id\trow1\trow2\trow3\n") == "\t"


def test_errors_keep_their_line_numbers_and_accents_survive_windows_1252():
    text = "card_id;row1;row2;row3;;\r\nÉ-1;1 2 3;4;5\r\n"
    converted = as_plain_csv(text.encode("cp1252"))
    assert converted.splitlines()[1].startswith("É-1,")
    try:
        CardBook.read_csv(io.StringIO(converted))
    except Exception as exc:  # InvalidCardFile: line 2, the accented ID named
        assert any(line == 2 for line, _ in exc.errors) and "É" in str(exc.errors)
    else:
        raise AssertionError("a bad line was accepted")
