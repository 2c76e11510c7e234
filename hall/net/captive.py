"""The captive-portal checks phones and computers make when they join a Wi-Fi, and which hosts are the hall's own.

Each system fetches a known page over plain HTTP: the expected answer means "internet", anything else in
200–399 means "a portal to show". The hall's hotspot answers every name itself, so the hall gives the
unexpected answer (a small page linking to the hall) and the phone opens it in its portal window —
the one window that reaches the hall when Android keeps mobile data on (docs/install-pi.md).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Probe:
    system: str  # who asks
    host: str
    path: str
    internet: str  # the answer that would mean "internet here, no portal"


PROBES: tuple[Probe, ...] = (
    Probe("Android", "connectivitycheck.gstatic.com", "/generate_204", "HTTP 204"),
    Probe("Android", "www.google.com", "/gen_204", "HTTP 204"),
    Probe("Android", "connectivitycheck.android.com", "/generate_204", "HTTP 204"),
    Probe("Apple (iOS, macOS)", "captive.apple.com", "/hotspot-detect.html", "« Success »"),
    Probe("Apple (iOS, macOS)", "www.apple.com", "/library/test/success.html", "« Success »"),
    Probe("Windows", "www.msftconnecttest.com", "/connecttest.txt", "« Microsoft Connect Test »"),
    Probe("Windows", "www.msftncsi.com", "/ncsi.txt", "« Microsoft NCSI »"),
    Probe("Firefox", "detectportal.firefox.com", "/canonical.html", "« success »"),
    Probe("Firefox", "detectportal.firefox.com", "/success.txt", "« success »"),
)
PROBE_PATHS: frozenset[str] = frozenset(p.path for p in PROBES)
INTERNET_WORDS = ("Success", "Microsoft Connect Test", "Microsoft NCSI", "success")


def host_name(host_header: str) -> str:
    """The name of an HTTP ``Host`` header, without the port or IPv6 brackets, lowercase."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host[1:]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def is_own_host(host_header: str, own: frozenset[str], portal_address: str) -> bool:
    """Whether a request to ``host_header`` is for the hall itself (an IP address other than the portal's, or
    one of its names), rather than for a name the hotspot's DNS sent here."""
    name = host_name(host_header)
    if not name:
        return True
    try:
        return str(ipaddress.ip_address(name)) != portal_address
    except ValueError:
        return name in own
