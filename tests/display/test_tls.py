"""HTTPS for phone cameras: a self-signed certificate made once in the data folder, its fingerprint on /admin."""

from __future__ import annotations

import json
import ssl
import threading
import urllib.request

from display.services import services_of
from display.tls import ensure_certificate
from tests.display.conftest import PINS, make_room


def test_the_certificate_is_made_once_and_kept(tmp_path):
    first = ensure_certificate(tmp_path, "Salle")
    again = ensure_certificate(tmp_path, "Salle")
    assert first.fingerprint == again.fingerprint and len(first.fingerprint) == 95
    assert "127.0.0.1" in first.names and "localhost" in first.names
    assert (tmp_path / "tls-key.pem").stat().st_mode & 0o077 == 0


def test_tls_hall_serves_https_and_shows_the_fingerprint(tmp_path):
    from werkzeug.serving import make_server

    room = make_room(tmp_path, extra={"server": {"tls": True}})
    cert = services_of(room.app).tls
    server = make_server("127.0.0.1", 0, room.app, threaded=True, ssl_context=cert.ssl_context)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        trust = ssl.create_default_context(cafile=str(cert.cert_path))
        url = f"https://127.0.0.1:{server.server_port}"
        with urllib.request.urlopen(url + "/api/state", context=trust, timeout=5) as resp:
            assert json.load(resp)["status"] == "waiting"
        client = room.app.test_client()
        client.post("/api/login", json={"pin": PINS["admin_pin"]})
        page = client.get("/admin").get_data(True)
        assert cert.fingerprint in page
        assert client.get("/api/admin").get_json()["tls"]["fingerprint"] == cert.fingerprint
    finally:
        server.shutdown()
        room.hall.journal.close()


def test_empty_pins_are_generated_once_and_kept(tmp_path):
    from display.pins import load_pins
    from hall.config import parse_config

    config = parse_config({"hall": {"data_dir": str(tmp_path)}, "auth": {"admin_pin": "424242"}})
    pins = load_pins(config, tmp_path)
    assert pins["admin"] == "424242" and len(pins["speaker"]) == 6 and pins["speaker"].isdigit()
    assert load_pins(config, tmp_path) == pins
