"""HTTPS for the phones (cameras need a secure context): a self-signed certificate made once in the data folder.

The admin page shows its SHA-256 fingerprint so staff can check it on their phone before trusting it. The
certificate is a server's, never an authority's: ``CA:FALSE``, for serving only (``serverAuth``), for the hall's own
names and addresses alone, valid 397 days (a browser's most) and made again a month before it ends — a phone told
to trust it trusts the hall's pages, not whatever a stolen key would sign. One made by an earlier version (a CA valid
10 years) is made again, with a new fingerprint on /admin.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from display.portal import own_hosts
from hall import Config, write_file

CERT_FILE, KEY_FILE = "tls-cert.pem", "tls-key.pem"
VALID_DAYS = 397
RENEW_DAYS = 30  # made again when fewer days are left


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


def hall_names(config: Config) -> tuple[str, ...]:
    """The names and addresses that are the hall's (display/portal.py's, and its hotspot's address)."""
    return tuple(sorted(own_hosts(config, socket.gethostname()) | {config.network.address}))


def _local_names(extra: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    hostname = socket.gethostname()
    names, ips = {hostname, f"{hostname}.local", "localhost"}, {"127.0.0.1"}
    try:
        ips.update(str(info[4][0]) for info in socket.getaddrinfo(hostname, None, socket.AF_INET))
    except OSError:
        pass
    for name in extra:
        try:
            ips.add(str(ipaddress.ip_address(name)))
        except ValueError:
            names.add(name.lower())
    return sorted(names), sorted(ips)


def _make(cert_path: Path, key_path: Path, hall_name: str, extra: Iterable[str]) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    names, ips = _local_names(extra)
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
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(True, False, False, False, False, False, False, False, False), critical=True
        )  # digital signature only: it signs TLS handshakes, never a certificate
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    write_file(
        key_path,
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()),
        mode=0o600,
    )
    write_file(cert_path, cert.public_bytes(serialization.Encoding.PEM))


def _outdated(cert: x509.Certificate) -> bool:
    """A CA (an earlier version's), one that ends within RENEW_DAYS, or one valid longer than VALID_DAYS."""
    try:
        is_ca = cert.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    except x509.ExtensionNotFound:
        is_ca = True  # unsaid: a client may take it for one
    now = dt.datetime.now(dt.UTC)
    left = cert.not_valid_after_utc - now
    return is_ca or left < dt.timedelta(days=RENEW_DAYS) or left > dt.timedelta(days=VALID_DAYS)


def ensure_certificate(data_dir: Path, hall_name: str = "", names: Iterable[str] = ()) -> Certificate:
    """The hall's certificate for this machine's names and ``names`` (``hall_names``), made on first call, the same
    files (and fingerprint) afterwards until it must be made again (``_outdated``)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = data_dir / CERT_FILE, data_dir / KEY_FILE
    fresh = cert_path.exists() and key_path.exists()
    if not fresh or _outdated(x509.load_pem_x509_certificate(cert_path.read_bytes())):
        _make(cert_path, key_path, hall_name, names)
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
