"""HTTPS for the phones (cameras need a secure context): a self-signed certificate made once in the data folder.

The admin page shows its SHA-256 fingerprint so staff can check it on their phone before trusting it.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from hall import durable

CERT_FILE, KEY_FILE = "tls-cert.pem", "tls-key.pem"
VALID_DAYS = 3650


@dataclass(frozen=True)
class Certificate:
    cert_path: Path
    key_path: Path
    fingerprint: str  # SHA-256, "AB:CD:…"
    not_after: str
    names: tuple[str, ...]

    def info(self) -> dict:
        return {
            "fingerprint": self.fingerprint,
            "not_after": self.not_after,
            "names": list(self.names),
            "cert_path": str(self.cert_path),
        }

    @property
    def ssl_context(self) -> tuple[str, str]:
        return str(self.cert_path), str(self.key_path)


def _local_names() -> tuple[list[str], list[str]]:
    hostname = socket.gethostname()
    names = sorted({hostname, f"{hostname}.local", "localhost"})
    ips = {"127.0.0.1"}
    try:
        ips.update(str(info[4][0]) for info in socket.getaddrinfo(hostname, None, socket.AF_INET))
    except OSError:
        pass
    return names, sorted(ips)


def _make(cert_path: Path, key_path: Path, hall_name: str) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    names, ips = _local_names()
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, names[0]),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, (hall_name or "loto-hall")[:64]),
        ]
    )
    now = dt.datetime.now(dt.UTC)
    san = [x509.DNSName(n) for n in names] + [x509.IPAddress(ipaddress.ip_address(ip)) for ip in ips]
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(san), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .sign(key, hashes.SHA256())
    )
    durable.write_file(
        key_path,
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()),
        mode=0o600,
    )
    durable.write_file(cert_path, cert.public_bytes(serialization.Encoding.PEM))


def ensure_certificate(data_dir: Path, hall_name: str = "") -> Certificate:
    """The hall's certificate, made on first call; the same files (and fingerprint) afterwards."""
    data_dir.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = data_dir / CERT_FILE, data_dir / KEY_FILE
    if not (cert_path.exists() and key_path.exists()):
        _make(cert_path, key_path, hall_name)
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    digest = cert.fingerprint(hashes.SHA256()).hex().upper()
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        names = tuple(str(v) for v in san.get_values_for_type(x509.DNSName)) + tuple(
            str(v) for v in san.get_values_for_type(x509.IPAddress)
        )
    except x509.ExtensionNotFound:
        names = ()
    return Certificate(
        cert_path,
        key_path,
        ":".join(digest[i : i + 2] for i in range(0, len(digest), 2)),
        cert.not_valid_after_utc.date().isoformat(),
        names,
    )
