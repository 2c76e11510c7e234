"""schemathesis against the real service (issue 40): ``loto-hall serve`` (gunicorn, gevent) as the admin, every
operation of ``GET /api/openapi.json`` through every phase and every default check (a server error, a status or a
body the document does not declare, a request the document allows refused, one it forbids accepted, an ``Allow``
that is not the document's), and not one traceback in the hall's log.

Opt-in, not in the suite (it is no quick test: ~2 300 requests, 1.5 min on a loaded machine for 5 examples an
operation, a PDF of 20 000 generated cartons among them; the suite's own guard is tests/display/test_api.py's
« nothing a client sends gives a 500 » and each fixed finding's test). schemathesis is in the ``test`` extras, the run
stays on loopback, its ``.schemathesis/`` cache in the test's own directory. Before a release, or after an endpoint
changed::

    LOTO_FUZZ_EXAMPLES=100 .venv/bin/python -m pytest tests/app/test_openapi_fuzz.py
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hall.app.demo import DEMO_PINS
from tests.app.conftest import get_json

pytest.importorskip("schemathesis")

EXAMPLES = int(os.environ.get("LOTO_FUZZ_EXAMPLES", "0"))
CONFIG = Path(__file__).with_name("schemathesis.toml")
# logging out ends the token the run uses, a PIN changed ends every session of its role: run without a token
WITHOUT_TOKEN = ("/api/logout", "/api/pins")


def fuzz(url: str, report: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "--config-file", str(CONFIG), "--no-color", "run"]
        + [f"{url}/api/openapi.json", "--workers", "1", "--seed", "40", "--max-examples", str(EXAMPLES)]
        + ["--request-timeout", "120", "--report", "junit", "--report-junit-path", str(report), *options],
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=report.parent,  # schemathesis' .schemathesis/ cache stays out of the worktree
        env={**os.environ, "SCHEMATHESIS_HOOKS": ""},
    )


@pytest.mark.slow
@pytest.mark.skipif(not EXAMPLES, reason="opt-in: LOTO_FUZZ_EXAMPLES=N examples an operation (the module's docstring)")
def test_schemathesis_finds_nothing_against_the_real_hall(tmp_path, run_hall):
    pins = "\n".join(f'{k} = "{v}"' for k, v in DEMO_PINS.items())
    config = tmp_path / "loto-hall.toml"
    config.write_text(f'[hall]\ndata_dir = "{tmp_path / "data"}"\n[auth]\n{pins}\n[server]\nstaff_port = 0\n')
    hall = run_hall(["--config", str(config), "--host", "127.0.0.1"])
    hall.wait_answering()
    status, body = get_json(hall.url + "/api/login", data={"pin": DEMO_PINS["admin_pin"]})
    assert status == 200, body
    excluded = [o for path in WITHOUT_TOKEN for o in ("--exclude-path", path)]
    runs = {
        "admin": fuzz(hall.url, tmp_path / "admin.xml", "-H", f"Authorization: Bearer {body['token']}", *excluded),
        "nobody": fuzz(hall.url, tmp_path / "nobody.xml", *[o for p in WITHOUT_TOKEN for o in ("--include-path", p)]),
    }
    for who, run in runs.items():
        assert "ST101" not in run.stdout, f"{who}: a server error\n{run.stdout[-20000:]}"
        assert run.returncode == 0, f"{who}:\n{run.stdout[-20000:]}\n{run.stderr[-3000:]}"
    log = hall.output()
    assert "Traceback" not in log and "erreur inattendue" not in log, log
