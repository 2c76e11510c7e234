"""The barcode scanner at the controllers' desk: keycodes read with a fixed US table, each scan a claim check."""

from __future__ import annotations

import os

import evdev
import pytest
from evdev import ecodes

from display import views
from display.services import services_of
from drivers.inputs import start_inputs
from drivers.scanner import MAX_SCAN, Scan, ScanDecoder, ScannerReader, apply_scan
from hall.cartons.planches import generate_cards
from hall.config import ScannerSection, parse_config

from .conftest import Watch

SHIFTED = {"_": "KEY_MINUS", "+": "KEY_EQUAL", "@": "KEY_2", "(": "KEY_9", ")": "KEY_0"}


def typed(text: str, start: float = 50.0, gap: float = 0.004, end: str = "KEY_ENTER") -> list[evdev.InputEvent]:
    """The key events a US-configured scanner sends for ``text`` then its suffix key."""
    events, t = [], start

    def key(code: int, value: int) -> None:
        nonlocal t
        events.append(evdev.InputEvent(int(t), int((t % 1) * 1e6), ecodes.EV_KEY, code, value))
        events.append(evdev.InputEvent(int(t), int((t % 1) * 1e6), ecodes.EV_SYN, ecodes.SYN_REPORT, 0))
        t += gap

    for ch in text:
        shift = ch.isupper() or ch in SHIFTED
        name = SHIFTED.get(ch) or {"-": "KEY_MINUS", " ": "KEY_SPACE", "=": "KEY_EQUAL"}.get(ch) or f"KEY_{ch.upper()}"
        if shift:
            key(ecodes.KEY_LEFTSHIFT, 1)
        key(ecodes.ecodes[name], 1)
        key(ecodes.ecodes[name], 0)
        if shift:
            key(ecodes.KEY_LEFTSHIFT, 0)
    key(ecodes.ecodes[end], 1)
    key(ecodes.ecodes[end], 0)
    return events


def test_a_scan_is_the_text_typed_before_enter():
    assert ScanDecoder().feed_all(typed("A-000127")) == [Scan("A-000127")]


def test_keycodes_mean_the_us_keys_whatever_the_host_layout():
    # on an AZERTY console KEY_1 types "&" and KEY_Q types "a": a grabbed scanner never goes through that layout
    assert ScanDecoder().feed_all(typed("Qw1-_")) == [Scan("Qw1-_")]


def test_tab_and_keypad_enter_end_a_scan_too_and_empty_scans_are_nothing():
    decoder = ScanDecoder()
    assert decoder.feed_all(typed("B-1", end="KEY_TAB") + typed("c2", start=60, end="KEY_KPENTER")) == [
        Scan("B-1"),
        Scan("c2"),
    ]
    assert decoder.feed_all(typed("", start=70)) == []


def test_a_pause_inside_a_code_drops_the_partial_code():
    decoder = ScanDecoder()
    partial = typed("ZZ9", start=10.0)[:-4]  # stopped before its Enter
    assert decoder.feed_all(partial + typed("A-1", start=12.0)) == [Scan("A-1")]


def test_keys_outside_the_table_make_the_scan_unreadable():
    events = typed("A1")
    f1 = [evdev.InputEvent(50, 1, ecodes.EV_KEY, ecodes.KEY_F1, v) for v in (1, 0)]
    assert ScanDecoder().feed_all(f1 + events) == [Scan("?A1", clean=False)]
    assert ScanDecoder().feed_all(typed("7" * (MAX_SCAN + 16))) == [Scan("7" * MAX_SCAN, clean=False)]


@pytest.fixture
def book():
    return dict(generate_cards(6, seed=1, series="A"))


def test_a_scanned_carton_is_checked_for_the_controllers_desk(make_hall, book):
    hall = make_hall(cards=book)
    hall.start_partie(role="speaker")
    card_id = next(iter(book))
    for n in book[card_id].rows[0]:
        hall.draw(n, role="speaker")
    hall.announce_claim(role="speaker")  # « Quine ! »
    verdict = views.verdict(apply_scan(hall, ScanDecoder().feed_all(typed(card_id))[0]))
    assert (verdict["card_id"], verdict["verdict"], verdict["rows"]) == (card_id, "valid", [0])
    last = list(hall.records())[-1]
    assert last.type == "claim:checked" and last.role == "controller" and last.event.card_id == card_id


def test_the_scanner_names_no_role_the_hall_decides_it(make_hall, book):
    """``card_scanned(text)`` is the scanner's intent, as ``ball_read`` is the ball machine's: the core says whose
    check it is (the controllers', at whose desk the scanner sits), never the driver."""
    import ast
    import inspect

    import drivers.scanner

    tree = ast.parse(inspect.getsource(drivers.scanner))
    assert not [k for k in ast.walk(tree) if isinstance(k, ast.keyword) and k.arg == "role"]
    hall = make_hall(cards=book)
    hall.start_partie(role="speaker")
    assert hall.card_scanned(next(iter(book))).event.verdict == "incomplete"  # no ball yet
    assert list(hall.records())[-1].role == "controller"


def test_an_unknown_or_unreadable_scan_is_reported(make_hall, book):
    hall = make_hall(cards=book)
    hall.start_partie(role="speaker")
    watch = Watch(hall)
    assert views.verdict(apply_scan(hall, Scan("Z-999999")))["verdict"] == "unknown_card"
    assert apply_scan(hall, Scan("?A1", clean=False)) is None
    _, notice = watch.next(lambda n, p: n == "scanner:unreadable")
    assert notice["raw"] == "?A1"


def test_a_configured_scanner_that_is_missing_is_reported_absent(make_hall, tmp_path):
    hall = make_hall()
    watch = Watch(hall)
    services = start_inputs(hall, parse_config({"scanner": {"device": str(tmp_path / "scanner-kbd")}}))
    assert [type(s) for s in services] == [ScannerReader]
    services[0].start()
    try:
        watch.status("scanner", "absent")
    finally:
        services[0].stop()
    assert not services[0].alive()


@pytest.mark.skipif(
    not os.path.exists("/dev/uinput"), reason="/dev/uinput does not exist here (no uinput module): runs on the Pi"
)
def test_a_virtual_scanner_through_the_kernel(make_hall, book, fast_backoff):
    from evdev import UInput

    hall = make_hall(cards=book)
    hall.start_partie(role="speaker")
    watch = Watch(hall)
    card_id = next(iter(book))
    with UInput(
        {ecodes.EV_KEY: sorted(set(ecodes.KEY.keys()) & set(range(1, 120)))}, name="loto-hall test scanner"
    ) as ui:
        reader = ScannerReader(hall, ScannerSection(device=ui.device.path), backoff=fast_backoff())
        reader.start()
        try:
            watch.status("scanner", "ok")
            for e in typed(card_id):
                if e.type == ecodes.EV_KEY:
                    ui.write(ecodes.EV_KEY, e.code, e.value)
                    ui.syn()
            watch.next(lambda n, p: n == "event" and p.type == "claim:checked" and p.card_id == card_id)
        finally:
            reader.stop()


NOT_IDS = ("-1-1", "1-1", "=1+2", "a--b", "@SUM(A1)", "A" * 40)


def test_a_scanned_text_that_cannot_be_a_carton_is_refused_and_not_journalled(make_hall, book):
    """Issue 22: a scanned barcode skipped the card-ID gate the API applies, and was journalled."""
    hall = make_hall(cards=book)
    hall.start_partie(role="speaker")
    watch = Watch(hall)
    before = len(list(hall.records()))
    for text in NOT_IDS:
        [scan] = ScanDecoder().feed_all(typed(text))
        assert scan == Scan(text) and apply_scan(hall, scan) is None
        _, notice = watch.next(lambda n, p: n == "scanner:refused")
        assert notice["code"] == "bad_card_id" and notice["raw"] == text
    assert len(list(hall.records())) == before  # nothing of it reached the journal


def test_the_scanner_accepts_exactly_what_the_api_accepts(tmp_path, book):
    """One gate for every claim: the same texts refused (``bad_card_id``) or checked by the API and the scanner."""
    from tests.display.conftest import make_room

    (tmp_path / "web").mkdir()
    room = make_room(tmp_path / "web")
    client = room.app.test_client()
    room.hall.start_partie(role="speaker")
    card_id = next(iter(book))
    texts = NOT_IDS + (card_id, card_id.lower().replace("-", ""), "Z-999999", "12", "table-7")
    for text in texts:
        answer = client.post("/api/claims", json={"card_id": text}, headers=room.headers("controller"))
        by_api = answer.get_json().get("error") != "bad_card_id"
        by_scanner = apply_scan(room.hall, ScanDecoder().feed_all(typed(text))[0]) is not None
        assert by_api == by_scanner, (text, answer.get_json())
    services_of(room.app).rooms.stop()
    room.hall.journal.close()
