"""Issue 31 item 8 against the real server: ``loto-hall serve`` (gunicorn, gevent) answers the phones in plain HTTP
on its port and the staff over HTTPS on ``[server] staff_port`` with the hall's own certificate; a browser of the
Wi-Fi asking a staff page in clear is sent there, and its PIN is never read in clear."""

from __future__ import annotations

import hashlib
import http.client
import socket
import ssl

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes

from hall.app.demo import DEMO_PINS
from tests.app.conftest import free_port, get_json


def lan_address() -> str | None:
    """This machine's address on its network (the Pi's on the hall's Wi-Fi), if it has one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def ask(host: str, port: int, method: str, path: str, body: str | None = None, tls: ssl.SSLContext | None = None):
    conn = (
        http.client.HTTPSConnection(host, port, context=tls, timeout=10)
        if tls
        else http.client.HTTPConnection(host, port, timeout=10)
    )
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.getheader("Set-Cookie", ""), resp.read()
    finally:
        conn.close()


def test_phones_in_clear_staff_over_the_halls_certificate(tmp_path, run_hall):
    staff = free_port()
    pins = "\n".join(f'{k} = "{v}"' for k, v in DEMO_PINS.items())
    config = tmp_path / "loto-hall.toml"
    config.write_text(f'[hall]\ndata_dir = "{tmp_path / "data"}"\n[auth]\n{pins}\n[server]\nstaff_port = {staff}\n')
    hall = run_hall(["--config", str(config)])
    hall.wait_answering()
    cert = tmp_path / "data" / "tls-cert.pem"
    trusted = ssl.create_default_context(cafile=str(cert))
    trusted.check_hostname = False  # the Pi's names: the volunteer compares the fingerprint
    status, _, cookie, _ = ask(
        "127.0.0.1", staff, "POST", "/api/login", f'{{"pin": "{DEMO_PINS["admin_pin"]}"}}', trusted
    )
    assert status == 200 and "Secure" in cookie
    with socket.create_connection(("127.0.0.1", staff)) as raw, trusted.wrap_socket(raw) as wrapped:
        served = wrapped.getpeercert(binary_form=True)
    loaded = x509.load_pem_x509_certificate(cert.read_bytes())
    assert hashlib.sha256(served).hexdigest() == loaded.fingerprint(hashes.SHA256()).hex()
    assert get_json(hall.url + "/api/state")[0] == 200  # the phones' port, in clear
    lan = lan_address()
    if lan is None:
        pytest.skip("no address but loopback here: the redirect of a Wi-Fi browser cannot be tried")
    status, headers, _, _ = ask(lan, hall.port, "GET", "/speaker")
    assert status == 307 and headers["Location"] == f"https://{lan}:{staff}/speaker"
    status, _, cookie, body = ask(lan, hall.port, "POST", "/api/login", f'{{"pin": "{DEMO_PINS["admin_pin"]}"}}')
    assert status == 403 and b"tls_required" in body and not cookie
    assert ask(lan, hall.port, "GET", "/mes-cartons")[0] == 200
