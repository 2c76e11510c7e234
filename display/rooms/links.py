"""The address the phones join a room at (the QR code's target): this machine on the hall's network."""
from __future__ import annotations

import ipaddress
import socket

from flask import current_app, request


def lan_address() -> str | None:
    """This machine's address on the hall's network (no packet is sent), or ``None``."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if ipaddress.ip_address(address).is_loopback else address


def join_url(code: str) -> str:
    """The phones' address of a room: ``[server] host`` if set, else the LAN address, else the request's host."""
    server = current_app.extensions["loto_config"].server
    host_header = request.host
    port = request.host.rsplit(":", 1)[1] if ":" in host_header.rsplit("]", 1)[-1] else ""
    scheme = request.scheme
    if server.tls and port == str(server.local_port):   # the kiosk's plain loopback port: phones use HTTPS
        scheme, port = "https", str(server.port)
    host = server.host if server.host not in ("", "0.0.0.0", "::") else (lan_address() or request.host.split(":")[0])
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    default = (scheme == "http" and port == "80") or (scheme == "https" and port == "443")
    return f"{scheme}://{host}{'' if not port or default else ':' + port}/j/{code}"
