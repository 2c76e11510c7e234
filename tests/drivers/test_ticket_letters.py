"""What the ESC/POS printer's code page lacks, written with the letters it has: vouchers, the board's copy
and the test ticket read back from the bytes a real TCP printer sink received, for names of halls and lots from
every side of Europe and beyond; and headers that break at a space, never at a hyphen when the name fits."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.escpos_text import CODE_PAGE, printable, wrap
from drivers.printer import EscposDevice, PrintQueue
from drivers.printer_sink import decode_text
from drivers.voucher_layout import render_test_ticket
from hall.events import LotSpec
from tests.drivers.paper import Recorder, some_cards, win_quine

# (as written, as printed): the letters CP858 has kept, the others written with the nearest it has
NAMES = (
    ("Comité des fêtes de Łódź", "Comité des fêtes de Lódz"),
    ("Ωmega club", "Omega club"),
    ("Øresund", "Øresund"),
    ("Straße", "Straße"),
    ("Ærø", "Ærø"),
    ("Đorđe Balašević", "Dorde Balasevic"),
    ("Ñandú", "Ñandú"),
    ("« Saint-Médard »", "« Saint-Médard »"),
    ("Œuvre des pupilles", "OEuvre des pupilles"),
    ("Fête 🎉 du club ⚽", "Fête du club"),
    ("نادي النور", "nady alnwr"),  # written right to left, read in Latin letters in the order it is spoken
    ("Ελληνική Λέσχη", "Ellinikí Léschi"),
    ("Клуб Москва", "Klub Moskva"),
    ("Vũng Tàu", "Vung Tàu"),
    ("Ħal Għargħur", "Hal Gharghur"),
)


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(("written", "printed"), NAMES, ids=[p for _, p in NAMES])
def test_a_voucher_and_the_board_s_copy_print_every_name_readable(make_hall, sink, written, printed):
    cards = some_cards()
    hall = make_hall(cards, name=written)
    rec = Recorder(hall)
    hall.start_partie(lots=[LotSpec("quine", written)], role="speaker")
    code = win_quine(hall, next(iter(cards)))["vouchers"][0]
    hall.request_ticket(role="admin")
    queue = PrintQueue(hall, EscposDevice(sink.url), retry_initial_s=0.01, retry_max_s=0.05, poll_s=None)
    queue.start()
    try:
        rec.wait_printed(1)
        voucher, board = (decode_text(job) for job in sink.wait_for_jobs(2))
    finally:
        queue.stop()
    for text in (voucher, board):
        assert "?" not in text, text
        assert one_line(text).startswith(printed), text  # the header: the hall's name
    assert code in voucher and f"Quine - {printed}" in one_line(voucher)
    assert "COPIE DU BUREAU" in board


@pytest.mark.parametrize(("written", "printed"), NAMES[:4], ids=[p for _, p in NAMES[:4]])
def test_the_test_ticket_prints_the_hall_s_name_readable(sink, written, printed):
    EscposDevice(sink.url).send(render_test_ticket(written, "21:34"))
    [job] = sink.wait_for_jobs(1)
    assert decode_text(job).startswith(printed + "\n") and "?" not in decode_text(job)


def test_headers_break_at_a_space_never_inside_a_name_that_fits(make_hall, sink):
    """« Salle des fêtes de Saint-Médard » is 31 letters, 24 to a double-width line: « Saint-Médard » goes whole
    to the next line (it was « Saint- » / « Médard »); a hyphen breaks only a word longer than a whole line."""
    cards = some_cards()
    hall = make_hall(cards, name="Salle des fêtes de Saint-Médard")
    rec = Recorder(hall)
    hall.start_partie(role="speaker")
    win_quine(hall, next(iter(cards)))
    hall.request_ticket(role="admin")
    queue = PrintQueue(hall, EscposDevice(sink.url), retry_initial_s=0.01, retry_max_s=0.05, poll_s=None)
    queue.start()
    try:
        rec.wait_printed(1)
        sink.wait_for_jobs(2)
    finally:
        queue.stop()
    long_name = "Comité des fêtes et des loisirs de Saint-Médard-en-Jalles"  # 57 letters, 48 to a line
    EscposDevice(sink.url).send(render_test_ticket(long_name, "21:34"))
    voucher, board, test = (decode_text(job) for job in sink.wait_for_jobs(3))
    for text in (voucher, board):
        assert text.startswith("Salle des fêtes de\nSaint-Médard\n"), text
    assert test.startswith("Comité des fêtes et des loisirs de\nSaint-Médard-en-Jalles\n"), test


def test_only_a_word_longer_than_the_line_breaks_at_its_hyphens():
    assert wrap("Saint-Médard-en-Jalles", 24) == ["Saint-Médard-en-Jalles"]
    assert wrap("Comité de Saint-Rémy-de-Provence-les-Bains", 24) == [
        "Comité de Saint-Rémy-de-",
        "Provence-les-Bains",
    ]
    assert wrap("Lot    : Quine - Jambon et saucisson de montagne", 42, " " * 9) == [
        "Lot    : Quine - Jambon et saucisson de",
        "         montagne",
    ]
    assert wrap("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 24) == ["A" * 24, "A" * 6]
    assert wrap("", 24) == [""]


words = st.text(st.sampled_from("abcdéf-"), min_size=1, max_size=30).filter(lambda w: w.strip("-"))


@given(st.lists(words, min_size=1, max_size=12), st.integers(8, 48))
def test_wrapped_lines_fit_and_keep_every_letter(ws, width):
    lines = wrap(" ".join(ws), width)
    assert all(len(line) <= width for line in lines)
    assert "".join("".join(lines).split()) == "".join(ws)  # no letter lost, none added
    if all(len(w) <= width for w in ws):  # every word fits a line: the lines are the words, whole
        assert " ".join(lines).split() == ws


# letters of the scripts the table covers, accented Latin, digits of other scripts, symbols and emoji
covered = st.characters(
    codec=None,
    categories=("L", "N", "P", "S", "Zs", "M", "Cf", "Cc"),
    include_characters="ŁłĐđŒœẞıŊŋ",
).filter(
    lambda ch: (
        unicodedata.category(ch)[0] not in "L"
        or unicodedata.name(ch, "?").split()[0] in ("LATIN", "GREEK", "CYRILLIC", "ARABIC", "HEBREW")
    )
)


@given(st.text(covered, max_size=40))
def test_whatever_is_written_prints_in_the_code_page_with_no_control_character(text):
    out = printable(text)
    out.encode(CODE_PAGE)  # never raises: python-escpos has nothing left to replace with « ? »
    assert all(ch.isprintable() for ch in out)
    assert not any(unicodedata.category(ch) in ("Cc", "Cf") for ch in out)


# the letters of today's alphabets: Latin Extended-A, modern Greek, Cyrillic (with Ukrainian Ґ), Hebrew, Arabic
ALPHABETS = [*range(0x100, 0x180), *range(0x386, 0x3CF), *range(0x400, 0x460), 0x490, 0x491]
ALPHABETS += [*range(0x5D0, 0x5EB), *range(0x621, 0x64B)]
LETTERS = "".join(
    chr(c) for c in ALPHABETS if unicodedata.category(chr(c)) in ("Lu", "Ll", "Lo")
)  # not the tatweel (Lm): a stroke


def test_every_letter_of_today_s_alphabets_prints_as_letters():
    missing = {ch: unicodedata.name(ch) for ch in LETTERS if "?" in printable(ch) or not printable(ch)}
    assert not missing, missing
    assert printable("Ђурђевак Объединение") == 'Djurdjevak Ob"edinenie'


def test_what_has_no_letter_drops_and_what_is_left_says_so():
    assert printable("🎉 Club ★ Étoile 🍺") == "Club Étoile"
    assert printable("A\x1bpB\u200fC\u00adD") == "ApBCD"  # ESC, a bidi mark and a soft hyphen: nothing printed
    assert printable("١٢٣ €") == "123 €"
    assert printable("Tiếng Việt") == "Tiêng Viêt"  # the accent the code page has kept, the other dropped
    assert printable("中文") == "??"  # no table for these letters: the desk sees something is missing
