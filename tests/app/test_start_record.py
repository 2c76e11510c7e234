"""How long the last start took: ``loto-hall serve`` keeps it in the data folder once its port answers
(``hall/app/start_record.py``), ``loto-hall doctor`` says it."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from hall.app.doctor import START_TARGET_S, last_start
from hall.app.start_record import FILE, record_ready
from hall.config import parse_config
from tests.app.conftest import HallProcess, free_port

pytestmark = pytest.mark.usefixtures("french")  # the command line speaks French here, whatever the machine


def test_a_real_start_is_kept_and_the_doctor_says_it(tmp_path):
    data = tmp_path / "data"
    config = tmp_path / "hall.toml"
    config.write_text('[hall]\ndata_dir = "%s"\n[server]\nhost = "127.0.0.1"\nlocal_port = 0\n' % data)
    spawned = time.time()
    hall = HallProcess(tmp_path, ["--config", str(config)], free_port(), None)
    try:
        hall.wait_answering()
        answered = time.time()
        deadline = time.monotonic() + 20
        while not (data / FILE).exists() and time.monotonic() < deadline:  # written just after READY
            time.sleep(0.05)
        kept = json.loads((data / FILE).read_text())
    finally:
        hall.close()
    # from the command's creation to its port answering: the interpreter's start and the imports count
    assert 0.3 < kept["ready_s"] <= answered - spawned + 0.5, (kept, answered - spawned)
    found = last_start(parse_config({"hall": {"data_dir": str(data)}}))
    assert found.ok is True and found.detail.startswith(f"prête en {kept['ready_s']:.1f} s")
    out = subprocess.run(
        [sys.executable, "-m", "hall.app", "doctor", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Dernier démarrage" in out.stdout and f"prête en {kept['ready_s']:.1f} s" in out.stdout, out.stdout


def test_a_slow_start_is_advice_and_a_missing_or_damaged_record_is_said(tmp_path):
    config = parse_config({"hall": {"data_dir": str(tmp_path)}})
    assert last_start(config).ok is None and "pas encore mesuré" in last_start(config).detail
    for damaged in ("", "{", '{"ready_s": "NaN", "at": "2026-12-07T17:00:00+00:00"}', '{"ready_s": 3}', "[]"):
        (tmp_path / FILE).write_text(damaged)
        assert last_start(config).ok is None and "pas encore mesuré" in last_start(config).detail, damaged
    seconds = record_ready(tmp_path)  # this test process's own age, kept and read back
    assert last_start(config).detail.startswith(f"prête en {seconds:.1f} s")
    (tmp_path / FILE).write_text(json.dumps({"ready_s": START_TARGET_S + 2.5, "at": "2026-12-07T17:00:00+00:00"}))
    slow = last_start(config)
    assert slow.ok is None and "prête en 12.5 s" in slow.detail and "SSD USB" in slow.fix


def test_a_process_s_creation_is_read_to_the_hundredth_not_the_whole_second():
    """``/proc/stat``'s boot time is whole seconds: a start measured from it was up to a second too long."""
    from hall.app.start_record import process_created

    errors = []
    for _ in range(3):
        before = time.time()
        child = subprocess.Popen(["sleep", "5"])
        try:
            time.sleep(0.2)
            errors.append(process_created(child.pid) - before)
        finally:
            child.kill()
            child.wait()
    assert all(-0.05 < e < 0.25 for e in errors), errors
