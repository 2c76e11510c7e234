"""Kill the service in the middle of a partie (SIGKILL to the arbiter and its worker, as a crash or a
watchdog kill would), start it again on the same data folder: the state served is the state before.

Every draw is on disk before anyone sees it (journal with ``synchronous=FULL``), so whatever the
projector showed survives; the restarted service rebuilds the evening by replaying the journal.
Draws go through the HTTP API (INTERFACE §4) so the test knows exactly what was served.
"""

from __future__ import annotations

import signal
import subprocess
import time

import pytest

from .conftest import free_port, get_json

pytestmark = pytest.mark.slow  # a served hall killed and restarted: see pytest --durations

PINS = {"speaker": "424242", "controller": "111111", "desk": "222222", "admin": "999999"}


def write_config(tmp_path, port: int) -> str:
    """A hall with no hardware section: nothing draws but the speaker."""
    path = tmp_path / "loto-hall.toml"
    pins = "\n".join(f'{role}_pin = "{pin}"' for role, pin in PINS.items())
    path.write_text(
        f'[hall]\nname = "Salle test"\ndata_dir = "{tmp_path / "data"}"\n\n'
        f'[server]\nhost = "127.0.0.1"\nport = {port}\n\n[auth]\n{pins}\n',
        encoding="utf-8",
    )
    return str(path)


def speaker(url: str) -> dict:
    status, body = get_json(url + "/api/login", data={"pin": PINS["speaker"]})
    assert status == 200, body
    return {"Authorization": f"Bearer {body['token']}"}


def play_some_draws(url: str, numbers: list[int]) -> None:
    auth = speaker(url)
    status, body = get_json(url + "/api/partie/start", headers=auth, data={})
    assert status in (200, 201), body
    for number in numbers:
        status, body = get_json(url + "/api/draws", headers=auth, data={"number": number})
        assert status == 201, body
    status, body = get_json(url + "/api/draws/undo", headers=auth, data={})
    assert status in (200, 201), body


@pytest.mark.parametrize("stop", ["SIGKILL", "SIGTERM"])
def test_restart_serves_the_same_state(run_hall, tmp_path, stop):
    port = free_port()
    config = write_config(tmp_path, port)

    first = run_hall(["--config", config], port=port)
    first.wait_answering()
    play_some_draws(first.url, [4, 13, 37, 52, 80, 9, 21, 45, 66, 84, 90])
    before = first.state()
    assert before["status"] == "playing" and before["draws"] == [4, 13, 37, 52, 80, 9, 21, 45, 66, 84]
    assert before["last"] == 84

    if stop == "SIGKILL":
        first.kill_all()
    else:
        first.signal(signal.SIGTERM)
        assert first.wait(30) == 0, first.output()

    second = run_hall(["--config", config], port=port)
    second.wait_answering()
    assert second.state() == before
    # …and the partie goes on from there: the next draw is the next in line.
    status, body = get_json(second.url + "/api/draws", headers=speaker(second.url), data={"number": 7})
    assert status == 201, body
    after = second.state()
    assert after["draws"] == before["draws"] + [7] and after["seq"] > before["seq"]


@pytest.mark.parametrize("server", ["gunicorn", "werkzeug"])
def test_with_tls_the_kiosk_keeps_plain_http_on_localhost(run_hall, tmp_path, server):
    """Phones get HTTPS (cameras need it); the projector on the Pi itself keeps http://localhost."""
    import ssl
    import urllib.request

    port, local = free_port(), free_port()
    (tmp_path / "tls.toml").write_text(
        f'[hall]\ndata_dir = "{tmp_path / "data"}"\n[server]\nhost = "127.0.0.1"\ntls = true\nlocal_port = {local}\n'
    )
    hall = run_hall(["--config", str(tmp_path / "tls.toml")], port=port, env={"LOTO_HALL_SERVER": server})
    plain = f"http://127.0.0.1:{local}/api/state"
    deadline = time.monotonic() + 30
    while True:
        try:
            status, body = get_json(plain, timeout_s=2)
            break
        except OSError:
            assert time.monotonic() < deadline and hall.proc.poll() is None, hall.output()
            try:
                hall.proc.wait(0.2)
            except subprocess.TimeoutExpired:
                pass
    assert status == 200 and body["status"] == "waiting"
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    with urllib.request.urlopen(f"https://127.0.0.1:{port}/api/state", context=context, timeout=5) as res:
        assert res.status == 200
    with pytest.raises(OSError):
        get_json(f"http://127.0.0.1:{port}/api/state", timeout_s=2)  # the public port speaks TLS only
