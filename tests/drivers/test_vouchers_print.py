"""Vouchers printed through python-escpos to a TCP printer sink: real bytes on a real socket, read back."""

from __future__ import annotations

import pytest
import zxingcpp

from display import views
from drivers.escpos_text import printable
from drivers.printer import EscposDevice, PrinterAway, PrintQueue, printer_target, start_printing
from drivers.printer_sink import decode_raster_images, decode_text, escpos_commands, render_ticket
from drivers.voucher_layout import VoucherView, render_voucher
from hall.cartons.card_ids import display_card_id
from hall.config import parse_config
from hall.errors import ConfigError
from hall.money.vouchers import make_code
from hall.refusal import Rejected
from tests.conftest import SECRET
from tests.drivers.paper import TIE_CARDS, X_ID, Y_ID, Recorder, play_tie, some_cards, win_quine


def printed(card_id: str) -> str:
    """A carton's ID as the voucher prints it: the check character set apart by a space."""
    return display_card_id(card_id).replace("\u00a0", " ")


def run_queue(hall, url: str) -> PrintQueue:
    queue = PrintQueue(hall, EscposDevice(url, "TM-T20II"), retry_initial_s=0.01, retry_max_s=0.05, poll_s=None)
    queue.start()
    return queue


def qr_texts(job: bytes) -> list[str]:
    return [r.text for img in decode_raster_images(job) for r in zxingcpp.read_barcodes(img)]


def test_voucher_text_and_qr_read_back_from_the_socket(make_hall, sink):
    cards = some_cards()
    hall = make_hall(cards)
    rec = Recorder(hall)
    hall.start_partie(role="speaker")
    card_id = next(iter(cards))
    award = win_quine(hall, card_id)
    code = award["vouchers"][0]
    queue = run_queue(hall, sink.url)
    try:
        assert rec.wait_printed(1) == [(code, False)]
    finally:
        queue.stop()
    [job] = sink.wait_for_jobs(1)
    text = decode_text(job)
    assert "Salle test" in text
    assert "BON D'ÉCHANGE" in text
    assert "Partie n° 1" in text
    assert "Quine" in text
    assert f"Carton : {printed(card_id)}" in text
    assert code in text
    assert "Gagné le" in text and "DUPLICATA" not in text and "CONSOLATION" not in text
    assert qr_texts(job) == [code]
    # status asked (online, paper), then init + code page 19 = CP858 … a full cut, then status again (delivered?)
    assert job.startswith(b"\x10\x04\x01\x10\x04\x04\x1b@\x1bt\x13")
    assert job.endswith(b"\x1dV\x00\x10\x04\x01")
    assert hall.evening.vouchers[code].printed == 1


def test_consolation_says_so_and_reprint_says_duplicata(make_hall, sink):
    hall = make_hall(TIE_CARDS)
    rec = Recorder(hall)
    award = play_tie(hall)
    winner, [loser] = award["winner"], award["consolation"]
    assert {winner, loser} == {X_ID, Y_ID} and len(award["tie_break"]) == 2
    queue = run_queue(hall, sink.url)
    try:
        rec.wait_printed(2)
        hall.request_reprint(award["vouchers"][0], role="desk")
        assert rec.wait_printed(3)[2] == (award["vouchers"][0], True)
    finally:
        queue.stop()
    jobs = sink.wait_for_jobs(3)
    first, second, third = (decode_text(j) for j in jobs)
    assert f"Carton : {printed(winner)}" in first and "BON D'ÉCHANGE" in first
    assert f"Carton : {printed(loser)}" in second and "BON DE CONSOLATION" in second
    assert "À remettre : Lot de consolation" in second and "départage perdu" in second
    assert "Lot joué : Quine" in second
    assert "DUPLICATA" in third and f"Carton : {printed(winner)}" in third and "DUPLICATA" not in first + second
    assert [qr_texts(j) for j in jobs] == [[c] for c in (award["vouchers"] + award["vouchers"][:1])]
    v = hall.evening.vouchers[award["vouchers"][0]]
    assert (v.printed, v.reprints_requested) == (2, 1)


def test_paper_out_waits_and_tells_the_speaker_then_prints(make_hall, sink):
    hall = make_hall(TIE_CARDS)
    rec = Recorder(hall)
    sink.paper = "out"
    hall.start_partie(role="speaker")
    code = win_quine(hall, X_ID)["vouchers"][0]
    queue = run_queue(hall, sink.url)
    try:
        notice = rec.wait_notice(lambda n: n["status"] == "degraded")
        assert (notice["code"], notice["params"]) == ("printer_waiting", {"reason": "printer_no_paper", "count": "1"})
        assert sink.jobs == [] and hall.unprinted()[0][0].code == code
        sink.paper = "low"
        rec.wait_printed(1)
        assert rec.wait_notice(lambda n: n["code"] == "printer_paper_low")["status"] == "degraded"
    finally:
        queue.stop()
    [job] = sink.wait_for_jobs(1)
    assert code in decode_text(job)


def test_cover_open_and_offline_are_named(make_hall, sink):
    device = EscposDevice(sink.url)
    sink.cover_open = True
    with pytest.raises(PrinterAway) as away:
        device.probe()
    assert (away.value.code, away.value.params) == ("printer_cover_open", {})
    sink.cover_open = False
    sink.online = False
    with pytest.raises(PrinterAway) as away:
        device.send(b"\x1b@hello\n")
    assert away.value.code == "printer_offline"
    sink.online = True
    assert device.probe() is None
    assert sink.jobs == []


def test_a_printer_that_swallows_bytes_without_answering_is_not_trusted(make_hall, sink):
    """A network printer switched off mid-job loses data silently (python-escpos #253): no answer, no record."""
    hall = make_hall(TIE_CARDS)
    rec = Recorder(hall)
    sink.mute = True
    device = EscposDevice(sink.url + "?timeout=0.3")
    hall.start_partie(role="speaker")
    code = win_quine(hall, X_ID)["vouchers"][0]
    queue = PrintQueue(hall, device, retry_initial_s=0.01, retry_max_s=0.05, poll_s=None)
    queue.start()
    try:
        away = rec.wait_notice(lambda n: n["status"] == "degraded")
        assert (away["code"], away["params"]["reason"]) == ("printer_waiting", "printer_no_answer")
        assert hall.evening.vouchers[code].printed == 0
        sink.mute = False
        assert rec.wait_printed(1) == [(code, False)]
    finally:
        queue.stop()
    assert rec.wait_notice(lambda n: n["status"] == "ok")["code"] == "printer_ready"


def test_file_printer_writes_the_device_file(make_hall, tmp_path):
    hall = make_hall(TIE_CARDS)
    rec = Recorder(hall)
    hall.start_partie(role="speaker")
    code = win_quine(hall, X_ID)["vouchers"][0]
    out = tmp_path / "lp0"
    out.touch()
    queue = run_queue(hall, f"file://{out}")
    try:
        rec.wait_printed(1)
    finally:
        queue.stop()
    assert qr_texts(out.read_bytes()) == [code]


def test_printer_urls():
    t = printer_target("tcp://192.168.1.50")
    assert (t.kind, t.args["host"], t.args["port"], t.status) == ("tcp", "192.168.1.50", 9100, True)
    t = printer_target("usb://04b8:0e15?in_ep=0x81")
    assert (t.args["idVendor"], t.args["idProduct"], t.args["in_ep"]) == (0x04B8, 0x0E15, 0x81)
    t = printer_target("serial:///dev/ttyUSB0?baudrate=19200&dsrdtr=0")
    assert (t.args["devfile"], t.args["baudrate"], t.args["dsrdtr"]) == ("/dev/ttyUSB0", 19200, False)
    t = printer_target("file:///dev/usb/lp0")
    assert (t.args["devfile"], t.status) == ("/dev/usb/lp0", False)
    assert printer_target("tcp://p:9101?status=0&timeout=2").status is False
    for bad in ("lpt://1", "usb://zz:1", "tcp://", "serial:///dev/ttyS0?baudrate=fast", "imprimante"):
        with pytest.raises(ConfigError, match="printer.url"):
            printer_target(bad)


def test_french_text_prints_in_cp858_without_question_marks():
    assert printable("Quine\u00a0: 1\u202f234,50\u00a0€ — l’élève") == "Quine : 1 234,50 € - l'élève"
    view = VoucherView(
        "Comité des fêtes d’Évreux",
        "00001-ABCDEFGH",
        1,
        1,
        "carton_plein",
        "Panier garni « Noël »",
        "A-000017",
        value_eur=1234.5,
        issued_at="14/11/2026 à 21:34",
    )
    data = render_voucher(view)
    assert "€".encode("cp858") in data and b"1 234,50 \xd5" in data
    text = decode_text(data)
    assert "?" not in text
    assert "Comité des fêtes d'Évreux" in text.replace("\n", " ")
    assert "Carton plein - Panier garni « Noël »" in text


def test_forged_altered_and_replayed_codes_are_refused(make_hall):
    hall = make_hall(TIE_CARDS)
    code = play_tie(hall)["vouchers"][0]
    serial, mac = code.split("-")
    forged = make_code(b"another hall's secret".ljust(32, b"!"), int(serial))
    altered = f"{serial}-{mac[:-1]}{'A' if mac[-1] != 'A' else 'B'}"
    other_serial = f"{int(serial) + 5:05d}-{mac}"
    never_issued = make_code(SECRET, 999)  # genuine signature, never journalled
    for bad in (forged, altered, other_serial, never_issued, "", "00001", "<script>"):
        with pytest.raises(Rejected) as exc:
            hall.redeem(bad, role="desk")
        assert exc.value.code == "unknown_voucher", bad
    assert views.redemption(hall.redeem(f"  {code.lower()} ", role="desk"))["card_id"] in (X_ID, Y_ID)
    with pytest.raises(Rejected) as exc:
        hall.redeem(code, role="desk")
    assert exc.value.code == "already_redeemed"
    with pytest.raises(Rejected) as exc:
        hall.redeem(code, role="controller")
    assert exc.value.code == "forbidden"
    reopened = make_hall(TIE_CARDS)  # replayed from the journal: still redeemed
    with pytest.raises(Rejected) as exc:
        reopened.redeem(code, role="desk")
    assert exc.value.code == "already_redeemed"


def test_start_printing_demo_sink_and_absent_printer(make_hall, tmp_path):
    hall = make_hall(TIE_CARDS)
    rec = Recorder(hall)
    assert start_printing(hall, parse_config({}), demo=False) == []
    assert hall.device("printer").state == "unconfigured"
    services = start_printing(hall, parse_config({}), demo=True, data_dir=tmp_path, retry_initial_s=0.01, poll_s=None)
    assert [s.name for s in services] == ["printer-sink", "printer"]
    for s in services:
        s.start()
    try:
        hall.start_partie(role="speaker")
        code = win_quine(hall, X_ID)["vouchers"][0]
        rec.wait_printed(1)
        assert all(s.alive() for s in services)
    finally:
        for s in reversed(services):
            s.stop()
    assert code in (tmp_path / "printer-sink" / "ticket-0001.txt").read_text(encoding="utf-8")
    with pytest.raises(ConfigError):
        start_printing(hall, parse_config({"printer": {"url": "lpt://1"}}))


def test_voucher_preview_png(tmp_path):
    """What a person holds: render the ticket to PNG (docs/screenshots/voucher.png is made the same way)."""
    view = VoucherView(
        "Salle des fêtes de Lavaur",
        "00042-7KQ4M2AB",
        42,
        3,
        "double_quine",
        "Jambon + bouteille",
        "A-00412B",
        value_eur=50,
        issued_at="14/11/2026 à 21:34",
    )
    img = render_ticket(render_voucher(view))
    assert img.width == 600 and img.height > 600
    assert [r.text for r in zxingcpp.read_barcodes(img)] == ["00042-7KQ4M2AB"]


def test_the_speaker_sees_the_printer_state_before_any_voucher(make_hall, sink):
    hall = make_hall(TIE_CARDS)
    rec = Recorder(hall)
    sink.paper = "low"
    queue = PrintQueue(hall, EscposDevice(sink.url), retry_initial_s=0.01, poll_s=30.0)
    queue.start()
    try:
        notice = rec.wait_notice(lambda n: n["status"] == "degraded")
    finally:
        queue.stop()
    assert notice["code"] == "printer_paper_low"
    assert len(sink.wait_for_connections(1)) == 1 and sink.jobs == []  # a status probe prints nothing


DRAWER_PULSE = b"\x1bp"  # ESC p m t1 t2: the printer opens the cash drawer


def test_control_bytes_in_a_label_never_reach_the_printer(make_hall, sink):
    """Issue 22: a lot label holding ``ESC p`` printed a cash-drawer pulse. Whatever door a label came through
    (a journal written before the API refused them, the config), the bytes sent hold no control character of
    it: the words print, the commands do not."""
    from hall.events import LotSpec

    hall = make_hall(TIE_CARDS)
    rec = Recorder(hall)
    hall.start_partie(
        lots=[LotSpec("quine", "Jambon\x1bp\x00\x19\xfa fumé\x1b@\x1dV\x00\x9b2J\x07")],
        consolation="Cidre\x1bp\x01\x19\xfa\r\nbrut\x85",
        role="speaker",
    )
    for n in (1, 12, 23, 34, 5, 16, 27, 38, 45):
        hall.draw(n, role="speaker")
    for card_id in (X_ID, Y_ID):
        assert views.verdict(hall.check_claim(card_id, role="controller"))["verdict"] == "valid"
    hall.award(role="speaker")
    queue = run_queue(hall, sink.url)
    try:
        rec.wait_printed(2)
    finally:
        queue.stop()
    jobs = sink.wait_for_jobs(2)
    for job in jobs:
        commands = escpos_commands(job)
        assert DRAWER_PULSE not in commands
        assert commands.count(b"\x1b@") == 1 and commands.count(b"\x1dV") == 1  # one reset, then one cut at the end
        assert all(ch == "\n" or ch.isprintable() for ch in decode_text(job))  # no BEL, NUL, CR… among the words
    winner, consolation = (decode_text(job) for job in jobs)
    assert "Lot    : Quine - Jambonpú fumé@V2J\n" in winner  # a command's letters are only letters now
    assert "À remettre : Cidrepúbrut\n" in consolation


def test_every_text_of_a_ticket_is_stripped_of_control_characters():
    from drivers.voucher_layout import render_test_ticket

    assert printable("A\x1bpB\x00\x7f\x9bC\tD\nE") == "ApBCDE"
    view = VoucherView(
        "Salle\x1bp\x00\x19\xfa",
        "00001-ABCD\x1bp",
        1,
        1,
        "quine\x1bp",
        "Lot\x1bp",
        "A-00001\x1bp",
        consolation=True,
        prize="Cidre\x1bp",
        issued_at="14/11/2026\x1bp",
        duplicate=True,
        printed_at="15/11\x1bp",
    )
    for data in (render_voucher(view), render_test_ticket("Salle\x1bp\x00\x19\xfa", "21:34\x1bp")):
        assert DRAWER_PULSE not in escpos_commands(data)
        assert all(ch == "\n" or ch.isprintable() for ch in decode_text(data))
