"""The Pi as the hall's Wi-Fi (``loto-hall network hotspot``): every file and command of the plan, built and checked
before anything runs (``hall/app/plan.py`` carries it out).

A NetworkManager profile in shared mode (WPA2, the Pi at ``[network] address``, clients isolated from each other),
written as a keyfile (mode 0600) and loaded with ``nmcli connection load``, so the Wi-Fi password is never on a
command line (``ps`` shows every argument to every account); the regulatory country, a DNS that answers every name
with the portal address (``dnsmasq-shared.d``), port 80 sent to the hall (nftables, loaded by a NetworkManager
dispatcher script when the hotspot comes up), ``loto.local`` over mDNS (avahi). Every step is a file to write or a
command with the check that says it is already done, so a second run changes nothing; ``--dry-run`` prints every
command and every file without doing anything. Root runs it, so every value is checked twice before anything is
done: by the config's schema (hall/net/values.py), then each file line by line against its template
(hall/app/plan.py).
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape

from hall.app.lang import _
from hall.app.plan import Check, Command, Filled, Step, WriteFile, fill, print_steps
from hall.config import Config, NetworkSection
from hall.net.values import INTERFACE, IPV4, LABEL

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
