"""IDs that survive people: typed without the dash, in lower case, with spaces or O/I for 0/1; a near miss
answered with the real cartons (or vouchers) one keystroke away (issue 15)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from hall.cartons.card_ids import display_card_id, make_card_id, normalize_card_id
from hall.cartons.cardbook import CardBook
from hall.cartons.cards import Card
from hall.money.vouchers import check_code, make_code, near_codes, normalize_code

CARD = Card.parse("4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90")


def osa_one(a: str, b: str) -> bool:
    """The oracle: ``b`` is one substitution, insertion, deletion or adjacent swap from ``a`` (brute force)."""
    if a == b:
        return False
    n, m = len(a), len(b)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[n][m] == 1


ids = st.builds(make_card_id, st.sampled_from(["A", "D", "AB", "XYZ"]), st.integers(0, 120_000))


@settings(deadline=None)
@given(ids, st.data())
def test_a_generated_id_typed_the_way_people_type_is_the_same_id(card_id, data):
    typed = card_id
    if data.draw(st.booleans()):
        typed = typed.replace("-", "")
    if data.draw(st.booleans()):
        typed = typed.lower()
    if data.draw(st.booleans()):
        typed = typed.replace("0", data.draw(st.sampled_from(["0", "O", "o"]))).replace("1", "I")
    if data.draw(st.booleans()):
        typed = " " + display_card_id(typed) + " "
    assert normalize_card_id(typed) == card_id
    assert normalize_card_id(display_card_id(card_id)) == card_id


def test_the_shown_form_sets_the_check_character_apart():
    assert display_card_id("D-00006H") == "D-00006\u00a0H"
    assert display_card_id("custom-7") == "custom-7"
    assert normalize_card_id("D003328") == "D-003328"  # as a phone types it


def test_other_ids_are_only_trimmed_and_an_exact_id_of_the_book_wins():
    assert normalize_card_id(" Lot-12 ") == "Lot-12"
    assert normalize_card_id("ab12345x") == "AB-12345X"  # looks generated: put right…
    book = CardBook({"ab12345x": CARD, "Lot-12": CARD})
    assert book.resolve(" ab12345x") == "ab12345x"  # …unless the book holds it as typed
    assert book.resolve("Lot-12") == "Lot-12"


@settings(max_examples=60, deadline=None)
@given(st.lists(ids, min_size=1, max_size=40, unique=True), st.integers(0, 10_000), st.data())
def test_suggestions_are_exactly_the_cartons_one_keystroke_away(book_ids, seed, data):
    book = CardBook({cid: CARD for cid in book_ids})
    rnd = random.Random(seed)
    base = rnd.choice(book_ids)
    i = rnd.randrange(len(base))
    how = data.draw(st.sampled_from(["change", "drop", "add", "swap", "far"]))
    ch = data.draw(st.sampled_from("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ-"))
    typed = {
        "change": base[:i] + ch + base[i + 1 :],
        "drop": base[:i] + base[i + 1 :],
        "add": base[:i] + ch + base[i:],
        "swap": base[:i] + base[i + 1 : i + 2] + base[i] + base[i + 2 :],
        "far": base[::-1],
    }[how]
    typed = normalize_card_id(typed)
    expected = sorted(c for c in book_ids if osa_one(typed, c))[:5]
    assert book.near(typed) == expected


def test_suggestions_stay_fast_on_a_big_book():
    import time

    book = CardBook({make_card_id("A", n): CARD for n in range(100_000)})
    start = time.perf_counter()
    found = book.near("A-00412X")
    assert time.perf_counter() - start < 0.5
    assert make_card_id("A", 412) in found


@settings(deadline=None)
@given(st.integers(1, 99_999), st.data())
def test_a_voucher_code_typed_loosely_is_the_same_code(serial, data):
    code = make_code(b"s" * 32, serial)
    typed = code
    if data.draw(st.booleans()):
        typed = typed.replace("-", "")
    if data.draw(st.booleans()):
        typed = typed.lower()
    if data.draw(st.booleans()):
        head, mac = code.split("-")
        typed = head.replace("0", "O") + "-" + mac.replace("O", "0").replace("I", "1")
    if data.draw(st.booleans()):
        typed = " ".join(typed[k : k + 4] for k in range(0, len(typed), 4))
    assert normalize_code(typed) == code
    assert check_code(b"s" * 32, typed) == serial


def test_a_voucher_one_character_off_is_suggested():
    codes = [make_code(b"s" * 32, n) for n in range(1, 40)]
    real = codes[7]
    slip = real[:-1] + ("A" if real[-1] != "A" else "B")
    assert near_codes(slip, codes) == [real]
    assert near_codes(real[:3] + real[4] + real[3] + real[5:], codes) == [real]
    assert near_codes("12345-ABCDEFGH", codes) == []
