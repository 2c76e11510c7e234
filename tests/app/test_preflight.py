"""The pre-flight before the doors open (hall/app/preflight.py) with real parts: a pseudo-terminal as the ball
machine, the TCP printer sink, a real data folder; each device missing in turn turns its own row red, and only it."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hall.app.preflight import kept, preflight
from hall.config import parse_config
from hall.refusal import Rejected
from tests.drivers.conftest import sink  # noqa: F401  (the printer sink fixture)

SLOWDISK = Path(__file__).resolve().parents[3] / "shared" / "tools" / "slowdisk" / "slowdisk"
DEVICES = ("printer", "ball_machine", "keypad")


pytestmark = pytest.mark.usefixtures("french")  # the command line speaks French here, whatever the machine


@pytest.fixture
def pty_port():
    main, side = os.openpty()
    yield os.ttyname(side)
    os.close(main)
    os.close(side)


def config_for(tmp_path, printer, port, keypad, missing=""):
    raw = {
        "hall": {"data_dir": str(tmp_path / "data")},
        "printer": {"url": f"tcp://127.0.0.1:{printer.port}?timeout=2"},
        "ball_machine": {"port": port},
        "keypad": {"device": str(keypad)},
    }
    if missing == "printer":
        raw["printer"]["url"] = "tcp://127.0.0.1:9?timeout=1"  # discard port: nobody listens
    if missing == "ball_machine":
        raw["ball_machine"]["port"] = str(tmp_path / "ttyUSB-unplugged")
    if missing == "keypad":
        raw["keypad"]["device"] = str(tmp_path / "event-unplugged")
    return parse_config(raw)


@pytest.mark.parametrize("missing", ["", *DEVICES])
def test_each_device_missing_in_turn_turns_its_own_row_red(tmp_path, sink, pty_port, missing):  # noqa: F811
    keypad = tmp_path / "event0"
    keypad.write_bytes(b"")
    found = dict(preflight(config_for(tmp_path, sink, pty_port, keypad, missing), only=("storage", *DEVICES)))
    for key in DEVICES:
        assert found[key].ok is (key != missing), (key, found[key])
    if missing:
        assert found[missing].fix  # each red says what to do
    assert found["storage"].ok is True


def test_a_printer_out_of_paper_is_red(tmp_path, sink, pty_port):  # noqa: F811
    sink.paper = "out"
    found = dict(preflight(config_for(tmp_path, sink, pty_port, tmp_path), only=("printer",)))
    assert found["printer"].ok is False and "papier" in found["printer"].detail


def test_a_clock_behind_the_data_folder_is_red(tmp_path):
    (tmp_path / "journal.sqlite").write_bytes(b"")
    found = dict(preflight(parse_config({"hall": {"data_dir": str(tmp_path)}}), only=("clock",)))
    assert found["clock"].ok is True
    from hall.app.preflight import clock

    assert clock(tmp_path, now=datetime(1970, 1, 1, tzinfo=UTC))[1].ok is False  # a Pi's reset clock


@pytest.mark.skipif(not SLOWDISK.exists(), reason="shared/tools/slowdisk is beside the repository")
def test_a_slow_card_is_named_with_the_advice(tmp_path):
    script = (
        "from pathlib import Path; from hall.app.preflight import storage; "
        f"k, f = storage(Path({str(tmp_path)!r})); print(f.ok, '|', f.detail, '|', f.fix)"
    )
    out = subprocess.run(
        [str(SLOWDISK), "--ms", "40", "--spread", "0", "--", sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LANG": "fr_FR.UTF-8"},
    )
    assert out.returncode == 0, out.stderr
    ok, detail, fix = (part.strip() for part in out.stdout.split("|"))
    assert ok == "False" and "SSD USB" in fix, out.stdout


def test_the_result_is_kept_in_the_record_and_bad_input_refused(make_hall, tmp_path):
    hall = make_hall()
    checks = preflight(hall.config, only=("space", "clock"))
    record = hall.record_preflight(kept(checks), role="admin")
    assert record.type == "preflight:run" and [c[0] for c in record.event.checks] == ["space", "clock"]
    again = make_hall()  # replayed from the journal
    assert again.fingerprint().seq == record.seq
    for bad in [(), (("nope", True, ""),), (("space", "yes", ""),), (("space", True, "x" * 301),)]:
        with pytest.raises(Rejected):
            hall.record_preflight(bad, role="admin")
    with pytest.raises(Rejected):
        hall.record_preflight(kept(checks), role="speaker")
    assert hall.fingerprint().seq == record.seq  # nothing kept
