"""``loto-hall network doctor``: the hall's Wi-Fi checked, in the order a person fixes it — the ``[network]`` values,
the country, the firmware, the hotspot's profile, its DNS, port 80, mDNS, the hall answering, and every phone
system's captive-portal probe answered with the portal."""

from __future__ import annotations

import http.client
import os
from collections.abc import Callable
from pathlib import Path

from hall.app.findings import Finding
from hall.app.hotspot import FIRMWARE, NFT_TABLE, PROFILE, ROOT_CONFIG, dns_conf, hotspot_problems
from hall.app.lang import _
from hall.app.plan import Runner
from hall.config import Config
from hall.net.captive import INTERNET_WORDS, PROBES, Probe
from hall.net.wifi import RISK_TEXT, misread_risks

Fetch = Callable[[str, str], "tuple[int, str] | None"]  # (Host header, path) → (status, body), None if no answer


def http_fetch(port: int, timeout_s: float = 3.0) -> Fetch:
    """GET on the hall at 127.0.0.1:``port`` with the given Host header, as a phone's check would arrive."""

    def fetch(host: str, path: str) -> tuple[int, str] | None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout_s)
        try:
            conn.request("GET", path, headers={"Host": host, "User-Agent": "loto-hall-doctor"})
            resp = conn.getresponse()
            return resp.status, resp.read(65536).decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            return None
        finally:
            conn.close()

    return fetch


def _firmware(root: Path) -> Finding:
    name = _("Micrologiciel Wi-Fi")
    link = root / FIRMWARE
    if not link.exists():
        return Finding(name, None, _("pas de Wi-Fi intégré de Pi 3B+/4/5 reconnu"))
    if "minimal" in os.path.realpath(link):
        return Finding(name, True, _("« minimal » : environ 19 téléphones"))
    return Finding(
        name,
        None,
        _("standard : environ 7 à 10 téléphones en point d'accès"),
        _("sudo update-alternatives --config cyfmac43455-sdio.bin (choisir « minimal »), puis redémarrer"),
    )


def doctor(config: Config, run: Runner, fetch: Fetch, root: Path = Path("/")) -> list[Finding]:
    """Every check of ``loto-hall network doctor``, in the order a person fixes them."""
    net = config.network
    again = f"sudo loto-hall network hotspot --config {ROOT_CONFIG}"
    found = [_values(config), _country(config, run, again), _firmware(root), _profile(run, again)]
    found += [_dns(config, root, again), _port_80(run, again), _mdns(config, run)]
    own = fetch(f"{net.hostname}.local", "/")
    hall_ok = own is not None and own[0] == 200 and 'id="board"' in own[1]
    found.append(
        Finding(
            _("La salle répond"),
            hall_ok,
            f"HTTP {own[0]}" if own else _("pas de réponse"),
            "" if hall_ok else "sudo systemctl start loto-hall ; journalctl -u loto-hall -n 20",
        )
    )
    return found + [_probe(probe, fetch(probe.host, probe.path), hall_ok) for probe in PROBES]


def _values(config: Config) -> Finding:
    net = config.network
    problems = hotspot_problems(config)
    risks = misread_risks(net.ssid, net.password) if net.ssid else ()
    return Finding(
        "[network]",
        False if problems else (None if risks else True),
        "; ".join(problems) or ("; ".join(_(RISK_TEXT[r]) for r in risks) if risks else f"« {net.ssid} »"),
        _("corrigez [network] dans la configuration") if problems or risks else "",
    )


def _country(config: Config, run: Runner, again: str) -> Finding:
    wanted = config.network.country
    reg = run(("iw", "reg", "get"))
    country = next((line.split()[1].rstrip(":") for line in reg.stdout.splitlines() if line.startswith("country ")), "")
    return Finding(
        _("Pays du Wi-Fi"),
        country == wanted,
        country or _("inconnu (iw absent ?)"),
        "" if country == wanted else f"sudo iw reg set {wanted} ; {again}",
    )


def _profile(run: Runner, again: str) -> Finding:
    active = run(("nmcli", "-t", "-f", "NAME,DEVICE", "connection", "show", "--active"))
    up = any(line.split(":")[0] == PROFILE for line in active.stdout.splitlines())
    exists = up or PROFILE in run(("nmcli", "-t", "-f", "NAME", "connection", "show")).stdout.splitlines()
    return Finding(
        _("Profil du point d'accès"),
        up,
        _("actif") if up else (_("présent mais éteint") if exists else _("absent")),
        "" if up else (f"sudo nmcli connection up {PROFILE}" if exists else again),
    )


def _dns(config: Config, root: Path, again: str) -> Finding:
    dns = root / "etc/NetworkManager/dnsmasq-shared.d/loto-hall.conf"
    dns_ok = dns.exists() and dns.read_text(encoding="utf-8") == dns_conf(config.network).content
    return Finding(
        "DNS",
        dns_ok,
        str(dns.relative_to(root)) if dns_ok else _("fichier absent ou ancien"),
        "" if dns_ok else again,
    )


def _port_80(run: Runner, again: str) -> Finding:
    loaded = run(("nft", "list", "table", "ip", NFT_TABLE)).returncode == 0
    return Finding(
        _("Port 80 vers la salle"),
        loaded,
        _("règles chargées") if loaded else _("règles absentes"),
        "" if loaded else again,
    )


def _mdns(config: Config, run: Runner) -> Finding:
    avahi = run(("systemctl", "is-active", "avahi-daemon")).stdout.strip()
    return Finding(
        f"mDNS {config.network.hostname}.local",
        avahi == "active",
        f"avahi-daemon : {avahi or '?'}",
        "" if avahi == "active" else "sudo systemctl enable --now avahi-daemon",
    )


def _probe(probe: Probe, got: tuple[int, str] | None, hall_ok: bool) -> Finding:
    """A phone system's captive-portal check: answered with the portal (not « internet is here »), or not."""
    portal = (
        got is not None and 200 <= got[0] < 400 and got[0] != 204 and not any(word in got[1] for word in INTERNET_WORDS)
    )
    detail = (
        _("HTTP %(got)s, page du portail") % {"got": got[0]}
        if portal and got
        else f"HTTP {got[0]}"
        if got
        else _("pas de réponse")
    )
    return Finding(
        f"{probe.system} {probe.host}{probe.path}",
        portal,
        detail,
        "" if portal or not hall_ok else _("la salle ne sert pas le portail : mettez-la à jour"),
    )
