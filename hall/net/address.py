"""The one address phones reach the hall at, for every QR code and printed link (cartons, the projector, the
rooms, the tournament's sheets, the portal, the caisse's sale QR).

``[network] url`` when the hall sets it; else ``[server] host`` when the hall listens there only; else the hotspot's address when the hotspot is up on this machine (the
address is one of its own); else this machine's address on the interface of the default route; else its mDNS
name. Never ``localhost`` or ``127.0.0.1``, and never the hotspot's default while no hotspot carries it: a phone
could not open either.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from hall.net.values import N_

_PROBE_TTL_S = 10.0  # an address read is kept this long: a QR code drawn per request costs no system call
_cache: dict[str, tuple[float, Any]] = {}  # each key holds its own reader's type: Any hands it back as ``T``
_cache_lock = threading.Lock()
T = TypeVar("T")


def _cached(key: str, read: Callable[[], T]) -> T:
    now = time.monotonic()
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None and now - hit[0] < _PROBE_TTL_S:
            return hit[1]
    value = read()
    with _cache_lock:
        _cache[key] = (now, value)
    return value


def forget() -> None:
    """Read the addresses again at the next call (a test that changes the machine's network, a hotspot just up)."""
    with _cache_lock:
        _cache.clear()


def _reachable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_multicast or ip.is_link_local)


def _default_route_address() -> str | None:
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # a datagram socket's connect sends nothing: the route is read
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return address if _reachable(address) else None


def lan_address() -> str | None:
    """This machine's address on the interface of its default route (no packet is sent), or ``None``."""
    return _cached("lan", _default_route_address)


def _bindable(address: str) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.bind((address, 0))
        except OSError:
            return False
    return True


def is_own_address(address: str) -> bool:
    """Whether ``address`` is one of this machine's own (the hotspot up here): it can be bound."""
    return _reachable(address) and _cached("own:" + address, lambda: _bindable(address))


UNREACHABLE_TEXT = N_(
    "le loto n'écoute que sur cette machine ([server] host = %(host)s) : les QR codes et les liens "
    'imprimés mènent à %(url)s, où aucun téléphone n\'aura de réponse. Mettez host = "0.0.0.0" '
    "(ou l'adresse du Pi sur le réseau de la salle) dans [server], ou donnez [network] url"
)


def loopback_only(listen: str) -> bool:
    """Whether a hall listening on ``listen`` (``[server] host``) is reachable from this machine only."""
    if listen.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(listen).is_loopback
    except ValueError:
        return False


def phones_cannot_reach(*, listen: str, url: str) -> bool:
    """A hall listening on loopback only with no ``[network] url`` of its own (a proxy in front says one): its QR
    codes name this machine's LAN address (``hall_url``), where nothing answers."""
    return loopback_only(listen) and not url


def hall_url(
    *, url: str, hotspot_ssid: str, hotspot_address: str, hostname: str, port: int, tls: bool, listen: str = ""
) -> str:
    """The hall's base URL as phones open it, ending with ``/`` (see the module's docstring for the order); a hall
    listening on one address only (``[server] host``, when phones can reach it) is opened there."""
    if url:
        return url
    if listen and _reachable(listen):
        host = listen
    elif hotspot_ssid and is_own_address(hotspot_address):
        host = hotspot_address
    else:
        host = lan_address() or f"{hostname}.local"
    scheme = "https" if tls else "http"
    default = (scheme, port) in (("http", 80), ("https", 443))
    return f"{scheme}://{host}{'' if default else f':{port}'}/"


def link(base: str, path: str) -> str:
    """``path`` (``c/A-00412B``, ``/s/…``) at the hall's address ``base`` (its scheme and host: a configured
    ``[network] url`` may name a page, ``https://loto.local/controle``, whose path the link does not keep)."""
    parts = urlsplit(base)
    root = f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else base.rstrip("/")
    return root + "/" + path.lstrip("/")
