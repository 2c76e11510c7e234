"""The demo's log against the real server (``loto-hall serve --demo``, gunicorn, gevent): stopping it with pages open
(websockets, a long poll, a console over HTTPS, a tablet that refuses the hall's certificate) logs no traceback and
no ERROR, and exits 0; a staff port already taken in a demo is a warning; the staff's port follows ``--host``."""

from __future__ import annotations

import signal
import socket
import ssl

import socketio

from hall.app.demo import DEMO_PINS
from tests.app.conftest import free_port, get_json


def demo_config(tmp_path, staff: int) -> str:
    """The demo with its staff's HTTPS port on ``staff`` (8443 may be another engineer's demo on this machine)."""
    path = tmp_path / "demo.toml"
    path.write_text(f'[hall]\nname = "Loto de démonstration"\n[server]\nstaff_port = {staff}\n', encoding="utf-8")
    return str(path)


def the_log(hall) -> str:
    hall.log.flush()
    return hall.log_path.read_text(errors="replace")


def refuse_the_certificate(port: int) -> None:
    """A tablet that has not been told to trust the hall's certificate: it closes the handshake with an alert."""
    strict = ssl.create_default_context()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        try:
            strict.wrap_socket(raw, server_hostname="localhost")
        except ssl.SSLCertVerificationError:
            pass
        else:
            raise AssertionError("the hall's own certificate was trusted by a default context")


def test_stopping_with_pages_open_logs_no_traceback(tmp_path, run_hall):
    staff = free_port()
    hall = run_hall(["--demo", "--config", demo_config(tmp_path, staff)])
    hall.wait_answering()
    status, body = get_json(
        f"http://127.0.0.1:{hall.port}/api/login", data={"pin": DEMO_PINS["speaker_pin"]}
    )  # from loopback: the Pi's own kiosk may log in in clear
    assert status == 200, body
    pages = []
    try:
        for transport in ("websocket", "websocket", "websocket", "polling"):  # the projector and phones
            page = socketio.Client(reconnection=False)
            page.connect(hall.url, transports=[transport], wait_timeout=10)
            pages.append(page)
        console = socketio.Client(reconnection=False, ssl_verify=False)  # a console over HTTPS
        console.connect(
            f"https://127.0.0.1:{staff}", transports=["websocket"], auth={"token": body["token"]}, wait_timeout=10
        )
        pages.append(console)
        refuse_the_certificate(staff)
        assert all(page.connected for page in pages)
        hall.signal(signal.SIGTERM)
        assert hall.wait(60) == 0
    finally:
        for page in pages:
            page.disconnect()
    log = the_log(hall)
    assert "journal fermé proprement" in log, log[-3000:]
    assert "Traceback" not in log and "[ERROR]" not in log and " ERROR " not in log, log[-6000:]


def test_a_busy_staff_port_in_the_demo_is_a_warning(tmp_path, run_hall):
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        hall = run_hall(["--demo", "--config", demo_config(tmp_path, port)])
        hall.wait_answering()
        hall.signal(signal.SIGTERM)
        assert hall.wait(60) == 0
    log = the_log(hall)
    assert f"WARNING loto-hall: port {port} indisponible pour l'équipe en HTTPS" in log, log[-3000:]
    assert " ERROR " not in log and "Traceback" not in log, log[-3000:]


def test_a_busy_staff_port_in_a_real_hall_is_an_error(tmp_path, run_hall):
    pins = "\n".join(f'{k} = "{v}"' for k, v in DEMO_PINS.items())
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = tmp_path / "hall.toml"
        config.write_text(f'[hall]\ndata_dir = "{tmp_path / "data"}"\n[auth]\n{pins}\n[server]\nstaff_port = {port}\n')
        hall = run_hall(["--config", str(config)])
        hall.wait_answering()
        hall.signal(signal.SIGTERM)
        assert hall.wait(60) == 0
    assert f"ERROR loto-hall: port {port} indisponible pour l'équipe en HTTPS" in the_log(hall)


def listening(port: int) -> set[str]:
    """The addresses this machine listens on for ``port`` (from /proc/net/tcp: state 0A is LISTEN)."""
    found = set()
    with open("/proc/net/tcp") as table:
        for line in list(table)[1:]:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
    return found


def test_the_demo_kept_on_this_machine_keeps_its_staff_port_there_too(tmp_path, run_hall):
    """README: ``--host 127.0.0.1`` keeps the demo on this machine, its staff's HTTPS port with it."""
    staff = free_port()
    hall = run_hall(["--demo", "--host", "127.0.0.1", "--config", demo_config(tmp_path, staff)])
    hall.wait_answering()
    try:
        assert listening(hall.port) == {"127.0.0.1"} and listening(staff) == {"127.0.0.1"}
    finally:
        hall.signal(signal.SIGTERM)
        assert hall.wait(60) == 0
    default = run_hall(["--demo", "--config", demo_config(tmp_path, free_port())])
    default.wait_answering()
    try:
        assert listening(default.port) == {"0.0.0.0"}  # the demo, as the README says: every interface
    finally:
        default.signal(signal.SIGTERM)
        assert default.wait(60) == 0
