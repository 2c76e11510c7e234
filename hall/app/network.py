"""``loto-hall network hotspot`` and ``loto-hall network doctor``: the Pi as the hall's Wi-Fi, and its check-up.

hotspot: a NetworkManager profile in shared mode (WPA2, the Pi at ``[network] address``), the regulatory
country, a DNS that answers every name with the portal address (``dnsmasq-shared.d``), port 80 sent to the
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from hall.app.lang import t
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
FIRMWARE = "lib/firmware/cypress/cyfmac43455-sdio.bin"   # Pi 3B+/4/5 built-in Wi-Fi; an alternatives link
ROOT_CONFIG = "/etc/loto-hall/config.toml"
# what a re-run compares with the live profile (what [network] sets); every run that changes them sets them all
CHECKED_SETTINGS = ("802-11-wireless.ssid", "wifi-sec.psk", "ipv4.method", "ipv4.addresses")


def profile_settings(net: NetworkSection) -> tuple[tuple[str, str], ...]:
    """The hotspot's NetworkManager settings, as ``nmcli connection add/modify`` takes them (NetworkManager writes
    the keyfile itself, escaped by its own rules)."""
    return (("802-11-wireless.ssid", net.ssid), ("802-11-wireless.mode", "ap"), ("802-11-wireless.band", "bg"),
            ("ipv4.method", "shared"), ("ipv4.addresses", f"{net.address}/24"), ("ipv6.method", "disabled"),
            ("wifi-sec.key-mgmt", "wpa-psk"), ("wifi-sec.psk", net.password),
            # WPA2-AES only, no protected management frames: what the Pi's brcmfmac serves reliably to every phone
            ("wifi-sec.proto", "rsn"), ("wifi-sec.pairwise", "ccmp"), ("wifi-sec.group", "ccmp"),
            ("wifi-sec.pmf", "disable"), ("connection.autoconnect", "yes"),
            ("connection.autoconnect-priority", "100"))


def country_conf(net: NetworkSection) -> Filled:
    return fill("options cfg80211 ieee80211_regdom={country}\n", country=(net.country, "[A-Z]{2}"))


def dns_conf(net: NetworkSection) -> Filled:
    """NetworkManager's shared-mode dnsmasq extra: the hall's names to the Pi, every other name to the portal.
    Names and addresses are held to characters dnsmasq reads as they are (no quote, "#", "/" or space)."""
    return fill("# loto-hall: written by `loto-hall network hotspot` from [network]; run it again rather than editing.\n"
                "# The hall's own names: the Pi on its hotspot.\n"
                "address=/{hostname}.local/{address}\n"
                "address=/{hostname}/{address}\n"
                "# Every other name (the phones' connectivity checks first): the portal address, outside the private\n"
                "# ranges so that Android still opens its portal window; port 80 to any address reaches the hall.\n"
                "address=/#/{portal}\n",
                hostname=(net.hostname, LABEL), address=(net.address, IPV4), portal=(net.portal_address, IPV4))


def nft_rules(net: NetworkSection, port: int) -> Filled:
    """The hotspot's web requests (port 80, any address) to the hall's port; HTTPS refused at once, not left to time out.
    nftables' quoted strings have no escape: the interface's name is held to characters that need none."""
    redirect = '    iifname "{interface}" tcp dport 80 redirect to :{port}\n' if port != 80 else ""
    return fill("# loto-hall: loaded when the hotspot comes up (/etc/NetworkManager/dispatcher.d/90-loto-hall-portal)\n"
                f"table ip {NFT_TABLE}\ndelete table ip {NFT_TABLE}\n"
                f"table ip {NFT_TABLE} {{{{\n"
                "  chain prerouting {{\n    type nat hook prerouting priority dstnat; policy accept;\n"
                f"{redirect}  }}}}\n"
                "  chain forward {{\n    type filter hook forward priority filter; policy accept;\n"
                '    iifname "{interface}" tcp dport 443 reject with tcp reset\n  }}\n}}\n',
                interface=(net.interface, INTERFACE), port=(port, "[0-9]{1,5}"))


def dispatcher_script() -> Filled:
    return fill("#!/bin/sh\n"
                "# loto-hall: the portal's firewall rules follow the hotspot (written by `loto-hall network hotspot`)\n"
                f'[ "$CONNECTION_ID" = "{PROFILE}" ] || exit 0\n'
                'case "$2" in\n'
                "  up) exec nft -f /etc/loto-hall/portal.nft ;;\n"
                f"  down) nft delete table ip {NFT_TABLE} 2>/dev/null; exit 0 ;;\n"
                "esac\n")


def avahi_service(hall_name: str, port: int) -> Filled:
    """An avahi service file: the hall's web pages announced on the network (found by mDNS browsers)."""
    return fill('<?xml version="1.0" standalone="no"?>\n<!DOCTYPE service-group SYSTEM "avahi-service.dtd">\n'
                "<service-group>\n"
                '  <name replace-wildcards="yes">{name} (%h)</name>\n'
                "  <service>\n    <type>_http._tcp</type>\n    <port>{port}</port>\n  </service>\n"
                "</service-group>\n",
                name=(escape(hall_name), "(?:[^<>&]|&(?:amp|lt|gt);)*"), port=(port, "[0-9]{1,5}"))


def hotspot_plan(config: Config) -> list[Step]:
    """Every step of ``loto-hall network hotspot``, in order: every file's content and every command built here,
    before anything runs."""
    net, port = config.network, config.server.port
    settings = profile_settings(net)
    flat = tuple(x for pair in settings for x in pair)
    checked = [(name, value) for name, value in settings if name in CHECKED_SETTINGS]
    secrets = (_nmcli_shows(net.password), net.password)
    return [
        Command(("Paquets Debian nécessaires", "Debian packages needed"),
                ("apt-get", "install", "-y", "--no-install-recommends", *PACKAGES),
                Check(("dpkg-query", "-W", "-f=${Status}\\n", *PACKAGES), "install ok installed", "every_line")),
        WriteFile(("Pays du Wi-Fi à chaque démarrage (sans lui, le point d'accès n'émet rien)",
                   "Wi-Fi country at every boot (without it the access point transmits nothing)"),
                  "/etc/modprobe.d/loto-hall-wifi-country.conf", *country_conf(net)),
        Command(("Pays du Wi-Fi, maintenant", "Wi-Fi country, now"), ("iw", "reg", "set", net.country),
                Check(("iw", "reg", "get"), f"country {net.country}:")),
        Command(("Wi-Fi débloqué (Raspberry Pi OS le bloque tant qu'aucun pays n'est choisi)",
                 "Wi-Fi unblocked (Raspberry Pi OS blocks it until a country is chosen)"),
                ("rfkill", "unblock", "wifi"), Check(("rfkill", "list", "wifi"), "blocked: yes", "absent")),
        Command((f"Nom de la machine : {net.hostname}.local (mDNS)", f"Machine name: {net.hostname}.local (mDNS)"),
                ("hostnamectl", "set-hostname", net.hostname), Check(("hostnamectl", "--static"), net.hostname, "equals")),
        # the hostname is an RFC 1123 label: nothing in it that sed's "a" text would read (no "\\", no newline)
        Command(("Ce nom aussi dans /etc/hosts (sinon sudo prévient « unable to resolve host »)",
                 "That name in /etc/hosts too (else sudo warns \"unable to resolve host\")"),
                ("sed", "-i", "-e", f"$a 127.0.1.1\\t{net.hostname}", "-e", "/^127\\.0\\.1\\.1[[:space:]]/d", "/etc/hosts"),
                Check(("cat", "/etc/hosts"), f"127.0.1.1\t{net.hostname}", "line")),
        WriteFile(("Les pages de la salle annoncées en mDNS (avahi)", "The hall's pages announced over mDNS (avahi)"),
                  "/etc/avahi/services/loto-hall.service", *avahi_service(config.hall.name, port)),
        Command(("avahi en marche", "avahi running"), ("systemctl", "enable", "--now", "avahi-daemon"),
                Check(("systemctl", "is-active", "avahi-daemon"), "active", "equals")),
        WriteFile(("DNS du point d'accès : tout nom mène au portail", "The hotspot's DNS: every name leads to the portal"),
                  "/etc/NetworkManager/dnsmasq-shared.d/loto-hall.conf", *dns_conf(net)),
        WriteFile(("Port 80 du point d'accès vers la salle", "The hotspot's port 80 to the hall"),
                  "/etc/loto-hall/portal.nft", *nft_rules(net, port)),
        WriteFile(("Ces règles chargées quand le point d'accès démarre", "Those rules loaded when the hotspot comes up"),
                  "/etc/NetworkManager/dispatcher.d/90-loto-hall-portal", *dispatcher_script(), mode=0o755),
        Command(("Profil NetworkManager du point d'accès", "The hotspot's NetworkManager profile"),
                ("nmcli", "connection", "add", "type", "wifi", "ifname", net.interface, "con-name", PROFILE, *flat),
                Check(("nmcli", "-t", "-f", "NAME", "connection", "show"), PROFILE, "line"), secrets=secrets),
        Command(("Profil à jour (nom, mot de passe, adresse)", "Profile up to date (name, password, address)"),
                ("nmcli", "connection", "modify", PROFILE, *flat),
                Check(("nmcli", "-s", "-g", ",".join(name for name, _ in checked), "connection", "show", PROFILE),
                      "\n".join(_nmcli_shows(value) for _, value in checked), "equals"), secrets=secrets),
        Command(("Point d'accès allumé", "Hotspot up"), ("nmcli", "connection", "up", PROFILE),
                Check(("nmcli", "-t", "-f", "NAME", "connection", "show", "--active"), PROFILE, "line"),
                again_after_change=True),
    ]


def _nmcli_shows(value: str) -> str:
    """How ``nmcli -g`` prints a value back: ``:`` and ``\\`` escaped by a backslash."""
    return value.replace("\\", "\\\\").replace(":", "\\:")


def print_plan(plan: Sequence[Step], config: Config, out: Callable[[str], None] = print) -> None:
    net = config.network
    out(t("Plan de « loto-hall network hotspot » (--dry-run : rien n'est fait)",
          "Plan of `loto-hall network hotspot` (--dry-run: nothing is done)"))
    out(t(f"Wi-Fi « {net.ssid} », pays {net.country}, interface {net.interface}, adresse {net.address}, "
          f"portail {net.portal_address}, salle sur le port {config.server.port}",
          f"Wi-Fi \"{net.ssid}\", country {net.country}, interface {net.interface}, address {net.address}, "
          f"portal {net.portal_address}, hall on port {config.server.port}"))
    print_steps(plan, out)


def hotspot_problems(config: Config) -> list[str]:
    """What stops the hotspot from being made: no name, no WPA2 password, a ``[network]`` value its schema
    refuses (checked again here: a ``Config`` can be made without ``parse_config``)."""
    net = config.network
    problems = [f"[network] {f.name} : {refused}" for f in dataclasses.fields(net)
                if "check" in f.metadata and (refused := f.metadata["check"](getattr(net, f.name)))]
    if not net.ssid:
        problems.append(t("[network] ssid est vide : donnez un nom au Wi-Fi de la salle",
                          "[network] ssid is empty: name the hall's Wi-Fi"))
    if not 8 <= len(net.password) <= 63:
        problems.append(t("[network] password : WPA2 demande 8 à 63 caractères",
                          "[network] password: WPA2 needs 8 to 63 characters"))
    return problems


def root_config_problems(path: str) -> Callable[[os.stat_result], list[str]]:
    """How root judges the config file it is about to read (``load_config``'s ``trust``): a regular file that
    root owns and nobody else may write, else another account would choose what root writes."""
    quoted = shlex.quote(path)

    def judge(st: os.stat_result) -> list[str]:
        problems = []
        if not stat.S_ISREG(st.st_mode):
            problems.append(t(f"{path} n'est pas un fichier ordinaire", f"{path} is not a regular file"))
        if st.st_uid != 0:
            problems.append(t(f"{path} appartient à l'utilisateur n° {st.st_uid}, pas à root : root ferait ce que ce "
                              f"compte y écrit. Corrigez : sudo chown root {quoted}",
                              f"{path} belongs to user id {st.st_uid}, not root: root would do what that account "
                              f"writes in it. Fix: sudo chown root {quoted}"))
        if st.st_mode & 0o022:
            problems.append(t(f"{path} est modifiable par le groupe ou par tous (mode {st.st_mode & 0o777:04o}). "
                              f"Corrigez : sudo chmod go-w {quoted} (0640 root:loto-hall comme l'installe "
                              "install.sh, ou 600 / 644)",
                              f"{path} is writable by its group or by everyone (mode {st.st_mode & 0o777:04o}). "
                              f"Fix: sudo chmod go-w {quoted} (0640 root:loto-hall as install.sh makes it, "
                              "or 600 / 644)"))
        return problems
    return judge


# ------------------------------------------------------------------------------------------------ doctor
@dataclass(frozen=True, slots=True)
class Finding:
    name: str
    ok: bool | None          # None: advice, not a fault
    detail: str
    fix: str = ""


Fetch = Callable[[str, str], "tuple[int, str] | None"]   # (Host header, path) → (status, body), None if no answer


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
    name = t("Micrologiciel Wi-Fi", "Wi-Fi firmware")
    link = root / FIRMWARE
    if not link.exists():
        return Finding(name, None, t("pas de Wi-Fi intégré de Pi 3B+/4/5 reconnu", "no Pi 3B+/4/5 built-in Wi-Fi found"))
    if "minimal" in os.path.realpath(link):
        return Finding(name, True, t("« minimal » : environ 19 téléphones", "\"minimal\": about 19 phones"))
    return Finding(name, None, t("standard : environ 7 à 10 téléphones en point d'accès",
                                 "standard: about 7 to 10 phones in access-point mode"),
                   t("sudo update-alternatives --config cyfmac43455-sdio.bin (choisir « minimal »), puis redémarrer",
                     "sudo update-alternatives --config cyfmac43455-sdio.bin (choose \"minimal\"), then reboot"))


def doctor(config: Config, run: Runner, fetch: Fetch, root: Path = Path("/")) -> list[Finding]:
    """Every check of ``loto-hall network doctor``, in the order a person fixes them."""
    net = config.network
    again = f"sudo loto-hall network hotspot --config {ROOT_CONFIG}"
    found = []
    problems = hotspot_problems(config)
    risks = misread_risks(net.ssid, net.password) if net.ssid else ()
    found.append(Finding("[network]", False if problems else (None if risks else True),
                         "; ".join(problems) or ("; ".join(t(*RISK_TEXT[r]) for r in risks) if risks else f"« {net.ssid} »"),
                         t("corrigez [network] dans la configuration", "fix [network] in the configuration")
                         if problems or risks else ""))
    reg = run(("iw", "reg", "get"))
    country = next((line.split()[1].rstrip(":") for line in reg.stdout.splitlines() if line.startswith("country ")), "")
    found.append(Finding(t("Pays du Wi-Fi", "Wi-Fi country"), country == net.country,
                         country or t("inconnu (iw absent ?)", "unknown (iw missing?)"),
                         "" if country == net.country else f"sudo iw reg set {net.country} ; {again}"))
    found.append(_firmware(root))
    active = run(("nmcli", "-t", "-f", "NAME,DEVICE", "connection", "show", "--active"))
    up = any(line.split(":")[0] == PROFILE for line in active.stdout.splitlines())
    exists = up or PROFILE in run(("nmcli", "-t", "-f", "NAME", "connection", "show")).stdout.splitlines()
    found.append(Finding(t("Profil du point d'accès", "Hotspot profile"), up,
                         t("actif", "up") if up else (t("présent mais éteint", "present but down") if exists
                                                      else t("absent", "missing")),
                         "" if up else (f"sudo nmcli connection up {PROFILE}" if exists else again)))
    dns = root / "etc/NetworkManager/dnsmasq-shared.d/loto-hall.conf"
    dns_ok = dns.exists() and dns.read_text(encoding="utf-8") == dns_conf(net).content
    found.append(Finding("DNS", dns_ok, str(dns.relative_to(root)) if dns_ok else t("fichier absent ou ancien",
                                                                                  "file missing or stale"),
                         "" if dns_ok else again))
    nft = run(("nft", "list", "table", "ip", NFT_TABLE))
    found.append(Finding(t("Port 80 vers la salle", "Port 80 to the hall"), nft.returncode == 0,
                         t("règles chargées", "rules loaded") if nft.returncode == 0 else t("règles absentes", "no rules"),
                         "" if nft.returncode == 0 else again))
    avahi = run(("systemctl", "is-active", "avahi-daemon")).stdout.strip()
    found.append(Finding(f"mDNS {net.hostname}.local", avahi == "active", f"avahi-daemon : {avahi or '?'}",
                         "" if avahi == "active" else "sudo systemctl enable --now avahi-daemon"))
    own = fetch(f"{net.hostname}.local", "/")
    hall_ok = own is not None and own[0] == 200 and 'id="board"' in own[1]
    found.append(Finding(t("La salle répond", "The hall answers"), hall_ok,
                         f"HTTP {own[0]}" if own else t("pas de réponse", "no answer"),
                         "" if hall_ok else "sudo systemctl start loto-hall ; journalctl -u loto-hall -n 20"))
    for probe in PROBES:
        got = fetch(probe.host, probe.path)
        portal = got is not None and 200 <= got[0] < 400 and got[0] != 204 and \
            not any(word in got[1] for word in INTERNET_WORDS)
        detail = (t(f"HTTP {got[0]}, page du portail", f"HTTP {got[0]}, portal page") if portal and got else
                  f"HTTP {got[0]}" if got else t("pas de réponse", "no answer"))
        found.append(Finding(f"{probe.system} {probe.host}{probe.path}", portal, detail,
                             "" if portal or not hall_ok else t("la salle ne sert pas le portail : mettez-la à jour",
                                                                "the hall serves no portal: update it")))
    return found


def print_findings(found: Sequence[Finding], out: Callable[[str], None] = print) -> None:
    state = {True: "OK", False: t("PROBLÈME", "PROBLEM"), None: t("conseil", "advice")}
    rows = [(t("vérification", "check"), t("état", "state"), t("détail", "detail"), t("que faire", "what to do"))]
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
    net = subparsers.add_parser("network", help=t("le Wi-Fi de la salle : point d'accès, vérifications",
                                                  "the hall's Wi-Fi: access point, checks"))
    nsub = net.add_subparsers(dest="network_command", required=True)
    hot = nsub.add_parser("hotspot", formatter_class=fmt,
                          help=t("fait du Pi le point d'accès Wi-Fi de la salle (NetworkManager)",
                                 "make the Pi the hall's Wi-Fi access point (NetworkManager)"),
                          epilog=t(f"exemples :\n  loto-hall network hotspot --config {ROOT_CONFIG} --dry-run\n"
                                   f"  sudo loto-hall network hotspot --config {ROOT_CONFIG}",
                                   f"examples:\n  loto-hall network hotspot --config {ROOT_CONFIG} --dry-run\n"
                                   f"  sudo loto-hall network hotspot --config {ROOT_CONFIG}"))
    hot.add_argument("--config", help=t("fichier TOML ([network] ssid, password, country) ; obligatoire en root, "
                                        "qui le veut à lui et modifiable par lui seul",
                                        "TOML file ([network] ssid, password, country); required as root, which "
                                        "wants it owned by root and writable by root alone"))
    hot.add_argument("--dry-run", action="store_true",
                     help=t("affiche chaque commande et chaque fichier sans rien faire", "print every command and file, do nothing"))
    doc = nsub.add_parser("doctor", formatter_class=fmt,
                          help=t("vérifie pays, micrologiciel, profil, DNS, mDNS et la réponse aux téléphones",
                                 "check country, firmware, profile, DNS, mDNS and what phones are answered"),
                          epilog=t("exemple : loto-hall network doctor --config /etc/loto-hall/config.toml",
                                   "example: loto-hall network doctor --config /etc/loto-hall/config.toml"))
    doc.add_argument("--config")
    doc.add_argument("--port", type=int, help=t("port de la salle (défaut : celui de la config)",
                                                "the hall's port (default: the config's)"))


def run(args: argparse.Namespace, runner: Runner = system_runner, root: Path = Path("/"), fetch: Fetch | None = None,
        out: Callable[[str], None] = print, euid: Callable[[], int] = os.geteuid) -> int:
    """Run ``loto-hall network …``; 0 when done (or all checks pass), 1 otherwise."""
    from hall.config import load_config
    as_root = args.network_command == "hotspot" and euid() == 0
    if as_root and not args.config:
        out(t(f"loto-hall : en root, nommez le fichier de configuration (./loto-hall.toml du dossier courant n'est "
              f"pas lu) : sudo loto-hall network hotspot --config {ROOT_CONFIG}",
              f"loto-hall: as root, name the configuration file (./loto-hall.toml in the current folder is not "
              f"read): sudo loto-hall network hotspot --config {ROOT_CONFIG}"))
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
        out(t(f"loto-hall : à lancer en root : sudo loto-hall network hotspot --config {ROOT_CONFIG} "
              "(ou --dry-run pour voir le plan)",
              f"loto-hall: run as root: sudo loto-hall network hotspot --config {ROOT_CONFIG} "
              "(or --dry-run to see the plan)"))
        return 1
    try:
        changed = apply_plan(plan, runner, root, out)
    except (RuntimeError, PlanRefused) as exc:
        out(f"loto-hall: {exc}")
        out(t("loto-hall : les fichiers de cette exécution sont remis comme avant (les commandes faites le restent) ; "
              "corrigez, puis relancez la commande",
              "loto-hall: this run's files are put back as they were (the commands done stay done); fix it, then "
              "run the command again"))
        return 1
    out(t(f"Point d'accès prêt ({changed} changement(s)). Vérifiez : loto-hall network doctor",
          f"Hotspot ready ({changed} change(s)). Check: loto-hall network doctor"))
    return 0
