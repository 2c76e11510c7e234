"""HTTPS for phone cameras: a self-signed certificate made once in the data folder, its fingerprint on /admin."""

from __future__ import annotations

import datetime as dt
import json
import ssl
import threading
import urllib.request

from cryptography import x509
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from display.services import services_of
from display.tls import ensure_certificate, hall_names
from tests.display.conftest import PINS, make_room


def test_the_certificate_is_made_once_and_kept(tmp_path):
    first = ensure_certificate(tmp_path, "Salle")
    again = ensure_certificate(tmp_path, "Salle")
    assert first.fingerprint == again.fingerprint and len(first.fingerprint) == 95
    assert "127.0.0.1" in first.names and "localhost" in first.names
    assert (tmp_path / "tls-key.pem").stat().st_mode & 0o077 == 0


def test_the_certificate_serves_the_halls_names_and_signs_nothing_else(tmp_path):
    from hall.config import parse_config

    config = parse_config({"hall": {"data_dir": str(tmp_path)}, "network": {"hostname": "salle-des-fetes"}})
    made = ensure_certificate(tmp_path, "Salle", hall_names(config))
    cert = x509.load_pem_x509_certificate(made.cert_path.read_bytes())
    ext = cert.extensions
    assert ext.get_extension_for_class(x509.BasicConstraints).value.ca is False  # no authority
    assert ext.get_extension_for_class(x509.BasicConstraints).critical
    usage = ext.get_extension_for_class(x509.KeyUsage).value
    assert usage.digital_signature and not usage.key_cert_sign and not usage.crl_sign
    assert list(ext.get_extension_for_class(x509.ExtendedKeyUsage).value) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert {"salle-des-fetes", "salle-des-fetes.local", "localhost", "10.42.0.1"} <= set(made.names)
    assert all("*" not in n for n in made.names)  # the hall's names, no wildcard
    assert cert.not_valid_after_utc - cert.not_valid_before_utc <= dt.timedelta(days=398)


def test_an_earlier_ca_certificate_or_one_about_to_end_is_made_again(tmp_path):
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    def write(days: int, ca: bool) -> str:
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "loto")])
        now = dt.datetime.now(dt.UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=days))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=0 if ca else None), critical=True)
            .sign(key, hashes.SHA256())
        )
        (tmp_path / "tls-cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        (tmp_path / "tls-key.pem").write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
        return cert.fingerprint(hashes.SHA256()).hex().upper()

    for days, ca in ((3650, True), (100, True), (10, False), (3650, False)):
        old = write(days, ca)
        again = ensure_certificate(tmp_path, "Salle")
        assert again.fingerprint.replace(":", "") != old, (days, ca)
        cert = x509.load_pem_x509_certificate(again.cert_path.read_bytes())
        assert cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca is False
    kept = ensure_certificate(tmp_path, "Salle")  # a good one is kept
    assert kept.fingerprint == ensure_certificate(tmp_path, "Salle").fingerprint == again.fingerprint


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
