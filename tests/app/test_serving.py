"""Issue #12 against the real server: ``loto-hall serve`` under gunicorn's gevent worker, over loopback.

A greenlet per connection: slow headers time out, one address cannot take every socket, staff always get
in, a chunked upload is whole or refused, and a ball waited for on a real pseudo-terminal or a draw's fsync
never holds the other connections.
"""

from __future__ import annotations

import http.client
import os
import socket
import statistics
import threading
import time

import pytest
import socketio

from hall.app.demo import DEMO_PINS
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from tests.app.conftest import get_json

PINS = DEMO_PINS


def write_config(tmp_path, ball_port: str | None = None, **server) -> str:
    lines = ["[hall]", f'data_dir = "{tmp_path / "data"}"', "[auth]"]
    lines += [f'{k} = "{v}"' for k, v in PINS.items()]
    lines += ["[server]", "header_timeout_s = 1.0"] + [f"{k} = {v}" for k, v in server.items()]
    if ball_port:
        lines += ["[ball_machine]", f'port = "{ball_port}"', "debounce_s = 0.0"]
    path = tmp_path / "loto-hall.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def token(url: str, role: str) -> str:
    status, body = get_json(url + "/api/login", data={"pin": PINS[f"{role}_pin"]})
    assert status == 200, body
    return body["token"]


def timed_get(url: str) -> float:
    started = time.monotonic()
    status, _ = get_json(url + "/api/state", timeout_s=10)
    assert status == 200
    return time.monotonic() - started


@pytest.fixture
def served(tmp_path, run_hall):
    def start(ball_port: str | None = None, **server):
        hall = run_hall(["--config", write_config(tmp_path, ball_port, **server)])
        hall.wait_answering()
        return hall

    return start


def test_the_server_is_gevent_and_a_slow_header_is_cut(served):
    hall = served()
    assert "HallGeventWorker" in hall.output()
    slow = socket.create_connection(("127.0.0.1", hall.port))
    slow.sendall(b"GET /api/state HTTP/1.1\r\nHost: x\r\n")  # never finishes its headers
    slow.settimeout(15)
    started = time.monotonic()
    assert timed_get(hall.url) < 5  # others are served meanwhile
    assert slow.recv(100) == b""  # closed by the header timeout
    assert time.monotonic() - started < 10
    slow.close()


def test_anonymous_sockets_are_capped_per_address_and_staff_get_through(served):
    hall = served(max_sockets_per_address=3)
    clients = []
    try:
        for _ in range(3):
            c = socketio.Client(reconnection=False)
            c.connect(hall.url, transports=["websocket"], wait_timeout=10)
            clients.append(c)
        refused = socketio.Client(reconnection=False)
        errors = []
        refused.on("connect_error", lambda data: errors.append(data))
        with pytest.raises(socketio.exceptions.ConnectionError):
            refused.connect(hall.url, transports=["websocket"], wait_timeout=10)
        assert errors and "too_many_sockets_from_address" in str(errors[0]), errors
        staff = socketio.Client(reconnection=False)
        got = threading.Event()
        staff.on("state", lambda data: got.set())
        staff.connect(hall.url, transports=["websocket"], auth={"token": token(hall.url, "speaker")}, wait_timeout=10)
        clients.append(staff)
        assert got.wait(10)
    finally:
        for c in clients:
            c.disconnect()


def test_one_address_cannot_fill_the_server(served):
    hall = served(max_connections_per_address=20)
    held = [socket.create_connection(("127.0.0.1", hall.port)) for _ in range(20)]
    extra = socket.create_connection(("127.0.0.1", hall.port))
    extra.settimeout(10)
    assert extra.recv(10) == b""  # closed at once, before any parsing
    for s in held + [extra]:
        s.close()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the count drops as the server sees them closed
        try:
            if get_json(hall.url + "/api/state", timeout_s=2)[0] == 200:
                break
        except OSError:
            pass
    assert timed_get(hall.url) < 5


def _chunked_post(url_port: int, path: str, chunks, headers: dict) -> tuple[int, dict]:
    import json

    conn = http.client.HTTPConnection("127.0.0.1", url_port, timeout=60)
    conn.request("POST", path, body=chunks, headers={**headers, "Transfer-Encoding": "chunked"}, encode_chunked=True)
    resp = conn.getresponse()
    body = json.loads(resp.read() or b"null")
    conn.close()
    return resp.status, body


def test_a_chunked_upload_is_whole_or_refused(served):
    hall = served()
    admin = {"Authorization": f"Bearer {token(hall.url, 'admin')}", "Content-Type": "text/csv"}
    import io

    out = io.StringIO()
    CardBook(dict(generate_cards(3000, 7, "C"))).write_csv(out)
    data = out.getvalue().encode()
    status, body = _chunked_post(
        hall.port, "/api/cards/import", (data[i : i + 8192] for i in range(0, len(data), 8192)), admin
    )
    assert (status, body["added"], body["total"]) == (201, 3000, 3000)
    line = data.splitlines(keepends=True)[1]
    too_big = (line for _ in range(4 * 1024 * 1024 // len(line) + 10))  # just over 4 MiB, no Content-Length
    status, body = _chunked_post(hall.port, "/api/cards/import", too_big, admin)
    assert status == 413 and body["error"] == "too_large"
    assert get_json(hall.url + "/api/admin", headers={"Authorization": admin["Authorization"]})[1]["cards"] == 3000


def test_a_ball_awaited_on_a_pty_and_draws_fsync_never_hold_the_connections(tmp_path, served):
    master, slave = os.openpty()
    hall = served(ball_port=os.ttyname(slave))
    try:
        sp = {"Authorization": f"Bearer {token(hall.url, 'speaker')}"}
        assert get_json(hall.url + "/api/partie/start", headers=sp, data={})[0] == 201
        # the ball machine's reader is waiting on the empty pty all along: every request is still answered
        quiet = [timed_get(hall.url) for _ in range(20)]
        assert max(quiet) < 2.0, quiet  # a loop held by the read would never answer
        os.write(master, b"42\r\n")
        deadline = time.monotonic() + 15
        while 42 not in hall.state()["draws"]:
            assert time.monotonic() < deadline, hall.output()
        # draws (journal append + fsync each) while a reader asks the state
        during: list[float] = []
        stop = threading.Event()

        def reader():
            while not stop.is_set():
                during.append(timed_get(hall.url))

        t = threading.Thread(target=reader)
        t.start()
        for n in range(1, 31):
            assert get_json(hall.url + "/api/draws", headers=sp, data={"number": n})[0] == 201
        stop.set()
        t.join(20)
        assert len(hall.state()["draws"]) == 31
        assert during and max(during) < 2.0 and statistics.median(during) < 0.5, during
    finally:
        os.close(master)
        os.close(slave)


def test_werkzeug_and_gthread_still_serve(tmp_path, run_hall):
    for server in ("werkzeug", "gthread"):
        hall = run_hall(["--config", write_config(tmp_path)], env={"LOTO_HALL_SERVER": server})
        hall.wait_answering()
        assert timed_get(hall.url) < 5
        hall.close()


def test_the_command_line_reads_numbers_like_the_api(tmp_path):
    import subprocess
    import sys

    for count in ("٣", "３", "²", "-3"):
        done = subprocess.run(
            [sys.executable, "-m", "hall.app", "cards", "generate", "--count", count, "--csv", str(tmp_path / "x.csv")],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
        assert done.returncode == 2 and "--count" in done.stderr and not (tmp_path / "x.csv").exists()
