"""What ``[network]`` may hold: each value held to the narrowest of the places it reaches, as root, on the Pi.

The country goes to ``/etc/modprobe.d`` and ``iw``; the hostname to ``hostnamectl``, ``/etc/hosts`` (a ``sed``
script), dnsmasq and mDNS; the interface to nftables' rules and NetworkManager; the addresses to dnsmasq and
NetworkManager; the name and password to NetworkManager and the Wi-Fi QR code. Every value is a whitelist, not
an escape: nftables' quoted strings have no escape at all, so what would need one anywhere is refused everywhere.
Each check returns ``None`` or the reason in French (the config names the key); the config refuses control
characters in every string before these run.
"""
from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

# ISO 3166-1 alpha-2, the 249 assigned codes (tzdata's iso3166.tab, 2023; tests compare with the system's copy).
# The regulatory database (wireless-regdb) is keyed by these.
COUNTRIES = frozenset("""
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO
FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE
JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO
MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW
PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM
TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
""".split())
# RFC 1123 label: 1–63 letters, digits and hyphens, no hyphen at either end (so never read as an option)
LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
# The kernel takes 1–15 bytes without "/", ":", whitespace, "." or ".."; held here to letters, digits, "_", "-"
# and ".", starting with a letter or digit: no quote or "\" (nftables cannot quote them), no "*" (its wildcard).
INTERFACE = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,14}"
# the shape of a dotted IPv4 address, for the grammar of the files that hold one (ipv4_problem checks the value)
IPV4 = r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}"
# RFC 3986's characters (unreserved, reserved, "%"): no space, quote, "<", ">", "\", "^", "`", "{", "|", "}".
URL_CHARS = r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+"
URL_MAX = 256


def country_problem(value: str) -> str | None:
    if not re.fullmatch(r"[A-Z]{2}", value):
        return f"{value!r} : deux lettres majuscules (code pays ISO 3166), par exemple « FR »"
    if value not in COUNTRIES:
        return f"{value!r} n'est pas un code pays ISO 3166 (FR, BE, CH, LU, CA…)"
    return None


def hostname_problem(value: str) -> str | None:
    if re.fullmatch(LABEL, value):
        return None
    return (f"{value!r} : un nom de machine de 1 à 63 lettres (sans accent), chiffres ou tirets, sans tiret au début "
            "ni à la fin, sans point (« .local » est ajouté)")


def interface_problem(value: str) -> str | None:
    if re.fullmatch(INTERFACE, value):
        return None
    return (f"{value!r} : un nom d'interface de 1 à 15 caractères parmi lettres, chiffres, « _ », « - » et « . », "
            "commençant par une lettre ou un chiffre (par exemple « wlan0 »)")


def ssid_problem(value: str) -> str | None:
    if len(value.encode("utf-8", "surrogatepass")) <= 32:
        return None
    return f"{value!r} : le nom d'un Wi-Fi fait au plus 32 octets (un accent en compte 2)"


def password_problem(value: str) -> str | None:
    if not value or re.fullmatch(r"[\x20-\x7e]{8,63}", value):
        return None
    return "WPA2 demande 8 à 63 caractères ASCII imprimables (ni accent ni caractère de contrôle), ou vide : réseau ouvert"


def ipv4_problem(value: str) -> str | None:
    try:
        ip = ipaddress.IPv4Address(value)
    except ValueError:
        return f"{value!r} n'est pas une adresse IPv4 (quatre nombres de 0 à 255, par exemple « 10.42.0.1 »)"
    if ip.is_unspecified or ip.is_loopback or ip.is_multicast or ip.is_reserved:
        return f"{value!r} : adresse réservée (0.0.0.0, 127.x, multicast, 240.x et au-delà), inutilisable ici"
    return None


def url_problem(value: str) -> str | None:
    """A real ``http://`` or ``https://`` address of a host (name or IP), without user info; empty: the default."""
    if not value:
        return None
    if len(value) > URL_MAX or not re.fullmatch(URL_CHARS, value):
        return (f"{value!r} : une adresse web de {URL_MAX} caractères au plus, sans espace, accent, guillemet ni "
                "caractère de contrôle (encodez-les en %XX)")
    try:
        parts = urlsplit(value)
        _ = parts.port      # a port out of 0–65535, or not a number, raises ValueError
    except ValueError:
        return f"{value!r} n'est pas une adresse web valable (port ?)"
    host = parts.hostname or ""
    if parts.scheme not in ("http", "https") or not host or "@" in parts.netloc:
        return f"{value!r} : une adresse http:// ou https:// avec un nom de machine, sans identifiant (« user@ »)"
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if not all(re.fullmatch(LABEL, label) for label in host.split(".")):
            return f"{value!r} : le nom de machine {host!r} n'est pas fait de lettres, chiffres et tirets séparés par des points"
    return None
