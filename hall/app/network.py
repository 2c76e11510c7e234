"""``loto-hall network hotspot`` and ``loto-hall network doctor``: the Pi as the hall's Wi-Fi, and its check-up.

hotspot: a NetworkManager profile in shared mode (WPA2, the Pi at ``[network] address``, clients isolated from
each other), written as a keyfile (mode 0600) and loaded with ``nmcli connection load``, so the Wi-Fi password is
never on a command line (``ps`` shows every argument to every account); the regulatory country, a DNS that answers every name with the portal address (``dnsmasq-shared.d``), port 80 sent to the
hall (nftables, loaded by a NetworkManager dispatcher script when the hotspot comes up), ``loto.local`` over
mDNS (avahi). Every step is a file to write or a command with the check that says it is already done, so a
second run changes nothing; ``--dry-run`` prints every command and every file without doing anything.
Root runs it, so every value is checked twice before anything is done: by the config's schema
(hall/net/values.py), then each file line by line against its template (hall/app/plan.py).
"""

from __future__ import annotations

import argparse
import dataclasses
import http.client
import os
import shlex
import stat
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from hall.app.lang import _
from hall.app.plan import (
    Check,
    Command,
    Filled,
    PlanRefused,
    Runner,
    Step,
    WriteFile,
    apply_plan,
    fill,
    plan_problems,
    print_steps,
    system_runner,
)
from hall.config import Config, NetworkSection
from hall.net.captive import INTERNET_WORDS, PROBES
from hall.net.values import INTERFACE, IPV4, LABEL
from hall.net.wifi import RISK_TEXT, misread_risks

PROFILE = "loto-hall"
PACKAGES = ("network-manager", "dnsmasq-base", "avahi-daemon", "nftables", "iw")
NFT_TABLE = "loto_hall_portal"
FIRMWARE = "lib/firmware/cypress/cyfmac43455-sdio.bin"  # Pi 3B+/4/5 built-in Wi-Fi; an alternatives link
ROOT_CONFIG = "/etc/loto-hall/config.toml"
KEYFILE = f"/etc/NetworkManager/system-connections/{PROFILE}.nmconnection"
PROFILE_UUID = str(uuid.uuid5(uuid.NAMESPACE_URL, "https://loto-hall/hotspot"))  # the same on every run
# what a re-run compares with the live profile (what [network] sets): when one differs, or the keyfile was written
# again (the isolation of a profile made by an older version), the keyfile is loaded again
CHECKED_SETTINGS = ("802-11-wireless.ssid", "ipv4.method", "ipv4.addresses", "wifi-sec.psk")


def keyfile_string(text: str) -> str:
    """A value as NetworkManager's keyfile holds it (GLib's escapes, as NetworkManager writes them itself): ``\\``
    for a backslash, ``\\s`` for a leading space. The password is printable ASCII (its schema): nothing else needs
    one."""
    escaped = text.replace("\\", "\\\\")
    return "\\s" + escaped[1:] if escaped.startswith(" ") else escaped


def keyfile_bytes(text: str) -> str:
    """The SSID as a list of its UTF-8 bytes (``76;111;…;``): a name with any character reads back exactly."""
    return "".join(f"{b};" for b in text.encode("utf-8"))


def hotspot_keyfile(net: NetworkSection) -> Filled:
    """The hotspot's NetworkManager profile: WPA2-AES only, no protected management frames (what the Pi's brcmfmac
    serves reliably to every phone), clients isolated from one another (``ap-isolation``: a phone cannot reach
    another phone, nor pretend to be the Pi to it)."""
    return fill(
        "[connection]\nid=" + PROFILE + "\nuuid=" + PROFILE_UUID + "\ntype=wifi\nautoconnect-priority=100\n"
        "interface-name={interface}\n\n"
        "[wifi]\nap-isolation=1\nband=bg\nmode=ap\nssid={ssid}\n\n"
        "[wifi-security]\ngroup=ccmp;\nkey-mgmt=wpa-psk\npairwise=ccmp;\npmf=1\nproto=rsn;\npsk={psk}\n\n"
        "[ipv4]\naddress1={address}/24\nmethod=shared\n\n"
        "[ipv6]\naddr-gen-mode=default\nmethod=disabled\n\n[proxy]\n",
        interface=(net.interface, INTERFACE),
        ssid=(keyfile_bytes(net.ssid), "(?:[0-9]{1,3};){1,32}"),
        psk=(keyfile_string(net.password), r"[ -~]{8,127}"),
        address=(net.address, IPV4),
    )


def profile_values(net: NetworkSection) -> tuple[tuple[str, str], ...]:
    """What ``nmcli -s -g`` shows of the loaded profile for ``CHECKED_SETTINGS``, in that order."""
    return (
        ("802-11-wireless.ssid", net.ssid),
        ("ipv4.method", "shared"),
        ("ipv4.addresses", f"{net.address}/24"),
        ("wifi-sec.psk", net.password),
    )


def country_conf(net: NetworkSection) -> Filled:
    return fill("options cfg80211 ieee80211_regdom={country}\n", country=(net.country, "[A-Z]{2}"))


def dns_conf(net: NetworkSection) -> Filled:
    """NetworkManager's shared-mode dnsmasq extra: the hall's names to the Pi, every other name to the portal.
    Names and addresses are held to characters dnsmasq reads as they are (no quote, "#", "/" or space)."""
    return fill(
        "# loto-hall: written by `loto-hall network hotspot` from [network]; run it again rather than editing.\n"
        "# The hall's own names: the Pi on its hotspot.\n"
        "address=/{hostname}.local/{address}\n"
        "address=/{hostname}/{address}\n"
        "# Every other name (the phones' connectivity checks first): the portal address, outside the private\n"
        "# ranges so that Android still opens its portal window; port 80 to any address reaches the hall.\n"
        "address=/#/{portal}\n",
        hostname=(net.hostname, LABEL),
        address=(net.address, IPV4),
        portal=(net.portal_address, IPV4),
    )


def nft_rules(net: NetworkSection, port: int) -> Filled:
    """The hotspot's web requests (port 80, any address) to the hall's port; HTTPS refused at once, not left to time out.
    nftables' quoted strings have no escape: the interface's name is held to characters that need none."""
    redirect = '    iifname "{interface}" tcp dport 80 redirect to :{port}\n' if port != 80 else ""
    return fill(
        "# loto-hall: loaded when the hotspot comes up (/etc/NetworkManager/dispatcher.d/90-loto-hall-portal)\n"
        f"table ip {NFT_TABLE}\ndelete table ip {NFT_TABLE}\n"
        f"table ip {NFT_TABLE} {{{{\n"
        "  chain prerouting {{\n    type nat hook prerouting priority dstnat; policy accept;\n"
        f"{redirect}  }}}}\n"
        "  chain forward {{\n    type filter hook forward priority filter; policy accept;\n"
        '    iifname "{interface}" tcp dport 443 reject with tcp reset\n  }}\n}}\n',
        interface=(net.interface, INTERFACE),
        port=(port, "[0-9]{1,5}"),
    )


def dispatcher_script() -> Filled:
    return fill(
        "#!/bin/sh\n"
        "# loto-hall: the portal's firewall rules follow the hotspot (written by `loto-hall network hotspot`)\n"
        f'[ "$CONNECTION_ID" = "{PROFILE}" ] || exit 0\n'
        'case "$2" in\n'
        "  up) exec nft -f /etc/loto-hall/portal.nft ;;\n"
        f"  down) nft delete table ip {NFT_TABLE} 2>/dev/null; exit 0 ;;\n"
        "esac\n"
    )


def avahi_service(hall_name: str, port: int) -> Filled:
    """An avahi service file: the hall's web pages announced on the network (found by mDNS browsers)."""
    return fill(
        '<?xml version="1.0" standalone="no"?>\n<!DOCTYPE service-group SYSTEM "avahi-service.dtd">\n'
        "<service-group>\n"
        '  <name replace-wildcards="yes">{name} (%h)</name>\n'
        "  <service>\n    <type>_http._tcp</type>\n    <port>{port}</port>\n  </service>\n"
        "</service-group>\n",
        name=(escape(hall_name), "(?:[^<>&]|&(?:amp|lt|gt);)*"),
        port=(port, "[0-9]{1,5}"),
    )


def hotspot_plan(config: Config) -> list[Step]:
    """Every step of ``loto-hall network hotspot``, in order: every file's content and every command built here,
    before anything runs."""
    net, port = config.network, config.server.port
    checked = profile_values(net)
    secrets = (_nmcli_shows(net.password), net.password, keyfile_string(net.password))
    return [
        Command(
            _("Paquets Debian nécessaires"),
            ("apt-get", "install", "-y", "--no-install-recommends", *PACKAGES),
            Check(("dpkg-query", "-W", "-f=${Status}\\n", *PACKAGES), "install ok installed", "every_line"),
        ),
        WriteFile(
            _("Pays du Wi-Fi à chaque démarrage (sans lui, le point d'accès n'émet rien)"),
            "/etc/modprobe.d/loto-hall-wifi-country.conf",
            *country_conf(net),
        ),
        Command(
            _("Pays du Wi-Fi, maintenant"),
            ("iw", "reg", "set", net.country),
            Check(("iw", "reg", "get"), f"country {net.country}:"),
        ),
        Command(
            _("Wi-Fi débloqué (Raspberry Pi OS le bloque tant qu'aucun pays n'est choisi)"),
            ("rfkill", "unblock", "wifi"),
            Check(("rfkill", "list", "wifi"), "blocked: yes", "absent"),
        ),
        Command(
            _("Nom de la machine : %(hostname)s.local (mDNS)") % {"hostname": net.hostname},
            ("hostnamectl", "set-hostname", net.hostname),
            Check(("hostnamectl", "--static"), net.hostname, "equals"),
        ),
        # the hostname is an RFC 1123 label: nothing in it that sed's "a" text would read (no "\\", no newline)
        Command(
            _("Ce nom aussi dans /etc/hosts (sinon sudo prévient « unable to resolve host »)"),
            ("sed", "-i", "-e", f"$a 127.0.1.1\\t{net.hostname}", "-e", "/^127\\.0\\.1\\.1[[:space:]]/d", "/etc/hosts"),
            Check(("cat", "/etc/hosts"), f"127.0.1.1\t{net.hostname}", "line"),
        ),
        WriteFile(
            _("Les pages de la salle annoncées en mDNS (avahi)"),
            "/etc/avahi/services/loto-hall.service",
            *avahi_service(config.hall.name, port),
        ),
        Command(
            _("avahi en marche"),
            ("systemctl", "enable", "--now", "avahi-daemon"),
            Check(("systemctl", "is-active", "avahi-daemon"), "active", "equals"),
        ),
        WriteFile(
            _("DNS du point d'accès : tout nom mène au portail"),
            "/etc/NetworkManager/dnsmasq-shared.d/loto-hall.conf",
            *dns_conf(net),
        ),
        WriteFile(_("Port 80 du point d'accès vers la salle"), "/etc/loto-hall/portal.nft", *nft_rules(net, port)),
        WriteFile(
            _("Ces règles chargées quand le point d'accès démarre"),
            "/etc/NetworkManager/dispatcher.d/90-loto-hall-portal",
            *dispatcher_script(),
            mode=0o755,
        ),
        WriteFile(
            _("Profil NetworkManager du point d'accès (le mot de passe n'est jamais sur une ligne de commande)"),
            KEYFILE,
            *hotspot_keyfile(net),
            mode=0o600,
            secrets=secrets,
        ),
        Command(
            _("Profil chargé et à jour (nom, mot de passe, adresse, clients isolés)"),
            ("nmcli", "connection", "load", KEYFILE),
            Check(
                ("nmcli", "-s", "-g", ",".join(name for name, _ in checked), "connection", "show", PROFILE),
                "\n".join(_nmcli_shows(value) for _, value in checked),
                "equals",
            ),
            again_after_change=True,
            secrets=secrets,
        ),
        Command(
            _("Point d'accès allumé"),
            ("nmcli", "connection", "up", PROFILE),
            Check(("nmcli", "-t", "-f", "NAME", "connection", "show", "--active"), PROFILE, "line"),
            again_after_change=True,
        ),
    ]


def _nmcli_shows(value: str) -> str:
    """How ``nmcli -g`` prints a value back: ``:`` and ``\\`` escaped by a backslash."""
    return value.replace("\\", "\\\\").replace(":", "\\:")


def print_plan(plan: Sequence[Step], config: Config, out: Callable[[str], None] = print) -> None:
    net = config.network
    out(_("Plan de « loto-hall network hotspot » (--dry-run : rien n'est fait)"))
    out(
        _(
            "Wi-Fi « %(ssid)s », pays %(country)s, interface %(interface)s, adresse %(address)s, portail "
            "%(portal_address)s, salle sur le port %(port)s"
        )
        % {
            "ssid": net.ssid,
            "country": net.country,
            "interface": net.interface,
            "address": net.address,
            "portal_address": net.portal_address,
            "port": config.server.port,
        }
    )
    print_steps(plan, out)


def hotspot_problems(config: Config) -> list[str]:
    """What stops the hotspot from being made: no name, no WPA2 password, a ``[network]`` value its schema
    refuses (checked again here: a ``Config`` can be made without ``parse_config``)."""
    net = config.network
    problems = [
        f"[network] {f.name} : {refused}"
        for f in dataclasses.fields(net)
        if "check" in f.metadata and (refused := f.metadata["check"](getattr(net, f.name)))
    ]
    if not net.ssid:
        problems.append(_("[network] ssid est vide : donnez un nom au Wi-Fi de la salle"))
    if not 8 <= len(net.password) <= 63:
        problems.append(_("[network] password : WPA2 demande 8 à 63 caractères"))
    return problems


def root_config_problems(path: str) -> Callable[[os.stat_result], list[str]]:
    """How root judges the config file it is about to read (``load_config``'s ``trust``): a regular file that
    root owns and nobody else may write, else another account would choose what root writes."""
    quoted = shlex.quote(path)

    def judge(st: os.stat_result) -> list[str]:
        problems = []
        if not stat.S_ISREG(st.st_mode):
            problems.append(_("%(path)s n'est pas un fichier ordinaire") % {"path": path})
        if st.st_uid != 0:
            problems.append(
                _(
                    "%(path)s appartient à l'utilisateur n° %(st_uid)s, pas à root : root ferait ce "
                    "que ce compte y écrit. Corrigez : sudo chown root %(quoted)s"
                )
                % {"path": path, "st_uid": st.st_uid, "quoted": quoted}
            )
        if st.st_mode & 0o022:
            problems.append(
                _(
                    "%(path)s est modifiable par le groupe ou par tous (mode %(v)s). Corrigez : "
                    "sudo chmod go-w %(quoted)s (0640 root:loto-hall comme l'installe install.sh, "
                    "ou 600 / 644)"
                )
                % {"path": path, "v": format(st.st_mode & 0o777, "04o"), "quoted": quoted}
            )
        return problems

    return judge


# ------------------------------------------------------------------------------------------------ doctor
@dataclass(frozen=True, slots=True)
class Finding:
    name: str
    ok: bool | None  # None: advice, not a fault
    detail: str
    fix: str = ""


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
    found = []
    problems = hotspot_problems(config)
    risks = misread_risks(net.ssid, net.password) if net.ssid else ()
    found.append(
        Finding(
            "[network]",
            False if problems else (None if risks else True),
            "; ".join(problems) or ("; ".join(_(RISK_TEXT[r]) for r in risks) if risks else f"« {net.ssid} »"),
            _("corrigez [network] dans la configuration") if problems or risks else "",
        )
    )
    reg = run(("iw", "reg", "get"))
    country = next((line.split()[1].rstrip(":") for line in reg.stdout.splitlines() if line.startswith("country ")), "")
    found.append(
        Finding(
            _("Pays du Wi-Fi"),
            country == net.country,
            country or _("inconnu (iw absent ?)"),
            "" if country == net.country else f"sudo iw reg set {net.country} ; {again}",
        )
    )
    found.append(_firmware(root))
    active = run(("nmcli", "-t", "-f", "NAME,DEVICE", "connection", "show", "--active"))
    up = any(line.split(":")[0] == PROFILE for line in active.stdout.splitlines())
    exists = up or PROFILE in run(("nmcli", "-t", "-f", "NAME", "connection", "show")).stdout.splitlines()
    found.append(
        Finding(
            _("Profil du point d'accès"),
            up,
            _("actif") if up else (_("présent mais éteint") if exists else _("absent")),
            "" if up else (f"sudo nmcli connection up {PROFILE}" if exists else again),
        )
    )
    dns = root / "etc/NetworkManager/dnsmasq-shared.d/loto-hall.conf"
    dns_ok = dns.exists() and dns.read_text(encoding="utf-8") == dns_conf(net).content
    found.append(
        Finding(
            "DNS",
            dns_ok,
            str(dns.relative_to(root)) if dns_ok else _("fichier absent ou ancien"),
            "" if dns_ok else again,
        )
    )
    nft = run(("nft", "list", "table", "ip", NFT_TABLE))
    found.append(
        Finding(
            _("Port 80 vers la salle"),
            nft.returncode == 0,
            _("règles chargées") if nft.returncode == 0 else _("règles absentes"),
            "" if nft.returncode == 0 else again,
        )
    )
    avahi = run(("systemctl", "is-active", "avahi-daemon")).stdout.strip()
    found.append(
        Finding(
            f"mDNS {net.hostname}.local",
            avahi == "active",
            f"avahi-daemon : {avahi or '?'}",
            "" if avahi == "active" else "sudo systemctl enable --now avahi-daemon",
        )
    )
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
    for probe in PROBES:
        got = fetch(probe.host, probe.path)
        portal = (
            got is not None
            and 200 <= got[0] < 400
            and got[0] != 204
            and not any(word in got[1] for word in INTERNET_WORDS)
        )
        detail = (
            _("HTTP %(got)s, page du portail") % {"got": got[0]}
            if portal and got
            else f"HTTP {got[0]}"
            if got
            else _("pas de réponse")
        )
        found.append(
            Finding(
                f"{probe.system} {probe.host}{probe.path}",
                portal,
                detail,
                "" if portal or not hall_ok else _("la salle ne sert pas le portail : mettez-la à jour"),
            )
        )
    return found


def print_findings(found: Sequence[Finding], out: Callable[[str], None] = print) -> None:
    state = {True: "OK", False: _("PROBLÈME"), None: _("conseil")}
    rows = [(_("vérification"), _("état"), _("détail"), _("que faire"))]
    rows += [(f.name, state[f.ok], f.detail, f.fix) for f in found]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for i, row in enumerate(rows):
        out(("  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths)) + "  " + row[3]).rstrip())
        if i == 0:
            out("  ".join("-" * w for w in widths) + "  " + "-" * 10)


# ------------------------------------------------------------------------------------------------- CLI
def add_network_parser(subparsers: argparse._SubParsersAction) -> None:
    """``loto-hall network hotspot|doctor``."""
    fmt = argparse.RawDescriptionHelpFormatter
    net = subparsers.add_parser("network", help=_("le Wi-Fi de la salle : point d'accès, vérifications"))
    nsub = net.add_subparsers(dest="network_command", required=True)
    hot = nsub.add_parser(
        "hotspot",
        formatter_class=fmt,
        help=_("fait du Pi le point d'accès Wi-Fi de la salle (NetworkManager)"),
        epilog=_(
            "exemples :\n  loto-hall network hotspot --config %(ROOT_CONFIG)s "
            "--dry-run\n  sudo loto-hall network hotspot --config %(ROOT_CONFIG)s"
        )
        % {"ROOT_CONFIG": ROOT_CONFIG},
    )
    hot.add_argument(
        "--config",
        help=_(
            "fichier TOML ([network] ssid, password, country) ; obligatoire en "
            "root, qui le veut à lui et modifiable par lui seul"
        ),
    )
    hot.add_argument(
        "--dry-run", action="store_true", help=_("affiche chaque commande et chaque fichier sans rien faire")
    )
    doc = nsub.add_parser(
        "doctor",
        formatter_class=fmt,
        help=_("vérifie pays, micrologiciel, profil, DNS, mDNS et la réponse aux téléphones"),
        epilog=_("exemple : loto-hall network doctor --config /etc/loto-hall/config.toml"),
    )
    doc.add_argument("--config")
    doc.add_argument("--port", type=int, help=_("port de la salle (défaut : celui de la config)"))


def run(
    args: argparse.Namespace,
    runner: Runner = system_runner,
    root: Path = Path("/"),
    fetch: Fetch | None = None,
    out: Callable[[str], None] = print,
    euid: Callable[[], int] = os.geteuid,
) -> int:
    """Run ``loto-hall network …``; 0 when done (or all checks pass), 1 otherwise."""
    from hall.config import load_config

    as_root = args.network_command == "hotspot" and euid() == 0
    if as_root and not args.config:
        out(
            _(
                "loto-hall : en root, nommez le fichier de configuration (./loto-hall.toml du dossier courant "
                "n'est pas lu) : sudo loto-hall network hotspot --config %(ROOT_CONFIG)s"
            )
            % {"ROOT_CONFIG": ROOT_CONFIG}
        )
        return 1
    config = load_config(args.config, trust=root_config_problems(args.config) if as_root else None)
    if args.network_command == "doctor":
        found = doctor(config, runner, fetch or http_fetch(args.port or config.server.port), root)
        print_findings(found, out)
        return 1 if any(f.ok is False for f in found) else 0
    problems = hotspot_problems(config)
    plan = [] if problems else hotspot_plan(config)
    problems = problems or plan_problems(plan)
    if problems:
        for problem in problems:
            out(f"loto-hall: {problem}")
        return 1
    if args.dry_run:
        print_plan(plan, config, out)
        return 0
    if root == Path("/") and not as_root:
        out(
            _(
                "loto-hall : à lancer en root : sudo loto-hall network hotspot --config %(ROOT_CONFIG)s (ou "
                "--dry-run pour voir le plan)"
            )
            % {"ROOT_CONFIG": ROOT_CONFIG}
        )
        return 1
    try:
        changed = apply_plan(plan, runner, root, out)
    except (RuntimeError, PlanRefused) as exc:
        out(f"loto-hall: {exc}")
        out(
            _(
                "loto-hall : les fichiers de cette exécution sont remis comme avant (les commandes faites le "
                "restent) ; corrigez, puis relancez la commande"
            )
        )
        return 1
    out(_("Point d'accès prêt (%(changed)s changement(s)). Vérifiez : loto-hall network doctor") % {"changed": changed})
    return 0
