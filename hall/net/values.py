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
import unicodedata
from urllib.parse import urlsplit

# ISO 3166-1 alpha-2, the 249 assigned codes (tzdata's iso3166.tab, 2023; tests compare with the system's copy).
# The regulatory database (wireless-regdb) is keyed by these.
COUNTRIES = frozenset(
    """
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO
FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE
JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO
MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW
PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM
TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
""".split()
)
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
    return (
        f"{value!r} : un nom de machine de 1 à 63 lettres (sans accent), chiffres ou tirets, sans tiret au début "
        "ni à la fin, sans point (« .local » est ajouté)"
    )


def interface_problem(value: str) -> str | None:
    if re.fullmatch(INTERFACE, value):
        return None
    return (
        f"{value!r} : un nom d'interface de 1 à 15 caractères parmi lettres, chiffres, « _ », « - » et « . », "
        "commençant par une lettre ou un chiffre (par exemple « wlan0 »)"
    )


# Unicode's format characters (right-to-left marks and overrides, zero-width spaces and joiners, the BOM…), the
# line and paragraph separators, private, unassigned and surrogate code points: a name that shows one thing on the
# projector and is another on the phones' lists (« Loto‮ellas » shows as « Lotosalle »), or two names that look alike
INVISIBLE_CATEGORIES = frozenset({"Cf", "Zl", "Zp", "Co", "Cn", "Cs"})


def ssid_problem(value: str) -> str | None:
    hidden = sorted({f"U+{ord(ch):04X}" for ch in value if unicodedata.category(ch) in INVISIBLE_CATEGORIES})
    if hidden:
        return (
            f"{value!r} : le nom du Wi-Fi contient des caractères invisibles ou de mise en forme ({', '.join(hidden)} :"
            " marques de sens d'écriture, espaces de largeur nulle…) ; tapez-le avec des lettres, chiffres et espaces"
        )
    if len(value.encode("utf-8", "surrogatepass")) <= 32:
        return None
    return f"{value!r} : le nom d'un Wi-Fi fait au plus 32 octets (un accent en compte 2)"


def password_problem(value: str) -> str | None:
    if not value or re.fullmatch(r"[\x20-\x7e]{8,63}", value):
        return None
    return (
        "WPA2 demande 8 à 63 caractères ASCII imprimables (ni accent ni caractère de contrôle), ou vide : réseau ouvert"
    )


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
        return (
            f"{value!r} : une adresse web de {URL_MAX} caractères au plus, sans espace, accent, guillemet ni "
            "caractère de contrôle (encodez-les en %XX)"
        )
    try:
        parts = urlsplit(value)
        _ = parts.port  # a port out of 0–65535, or not a number, raises ValueError
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


# ---- [server] message_queue and the fan-out workers (INTERFACE §10): never on a public address
QUEUE_MAX_DB = 15


def _private_host_problem(host: str) -> str | None:
    """``host`` must be loopback or an address of a private network (the hall's), never a name or a public one."""
    if host == "localhost":
        return None
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return f"{host!r} n'est pas une adresse IP (donnez l'adresse, par exemple « 127.0.0.1 »)"
    if ip.is_loopback or (ip.is_private and not ip.is_unspecified and not ip.is_multicast):
        return None
    return (
        f"{host!r} n'est ni locale (127.0.0.1) ni du réseau privé de la salle : la file et les "
        "relais n'écoutent jamais sur une adresse publique"
    )


def queue_problem(value: str) -> str | None:
    """``redis://[:password@]ADDRESS[:PORT][/DB]`` on loopback or the hall's private network; empty: no queue."""
    if not value:
        return None
    if len(value) > URL_MAX or not re.fullmatch(URL_CHARS, value):
        return f"{value!r} : une adresse redis:// de {URL_MAX} caractères au plus, sans espace ni accent"
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        return f"{value!r} n'est pas une adresse redis:// valable (port ?)"
    if parts.scheme != "redis" or not parts.hostname:
        return f"{value!r} : attendu redis://ADRESSE:PORT/BASE, par exemple « redis://127.0.0.1:6379/0 »"
    if parts.query or parts.fragment or (port is not None and port == 0):
        return f"{value!r} : ni « ? », ni « # », ni port 0"
    db = parts.path.strip("/")
    if db and (not db.isdigit() or int(db) > QUEUE_MAX_DB):
        return f"{value!r} : la base est un nombre de 0 à {QUEUE_MAX_DB} (« /0 »)"
    refused = _private_host_problem(parts.hostname)
    if refused or queue_is_local(value):
        return refused
    return queue_password_problem(parts.password or "")


QUEUE_PASSWORD_CHARS = 24


def queue_password_problem(password: str) -> str | None:
    """A Redis on the hall's network (the phones' network) answers anyone who has its password: one of
    ``QUEUE_PASSWORD_CHARS`` random characters at least (``openssl rand -hex 16``), never a word someone chose.
    Judged as random when long enough, with 12 different characters and two kinds (letters, digits…) at least."""
    kinds = sum(
        any(test(ch) for ch in password)
        for test in (str.islower, str.isupper, str.isdigit, lambda ch: not ch.isalnum())
    )
    if len(password) >= QUEUE_PASSWORD_CHARS and len(set(password)) >= 12 and kinds >= 2:
        return None
    shown = "sans mot de passe" if not password else f"avec un mot de passe de {len(password)} caractères"
    return (
        f"la file est sur le réseau de la salle, que les téléphones partagent, {shown} : il en faut un de "
        f"{QUEUE_PASSWORD_CHARS} caractères aléatoires au moins (openssl rand -hex 16), le même que requirepass "
        "dans /etc/redis/redis.conf : « redis://:MOT_DE_PASSE@10.42.0.1:6379/0 » (docs/install-pi.md)"
    )


def queue_is_local(value: str) -> bool:
    """Whether the queue listens on loopback only (else it must hold a password: the phones share the network)."""
    host = urlsplit(value).hostname or ""
    return host == "localhost" or (bool(host) and _is_loopback(host))


def queue_has_password(value: str) -> bool:
    return bool(urlsplit(value).password)


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listen_problem(value: str) -> str | None:
    """Where the fan-out workers listen: loopback (behind the Pi's front) or the laptop's private address."""
    if value in ("0.0.0.0", "::"):
        return None  # every address of the laptop: its firewall and the hall's network decide
    return _private_host_problem(value)


def peer_problem(value: object) -> str | None:
    """``socket_peers``: a list of ``ADDRESS:PORT`` of workers on other machines of the hall's network."""
    if not isinstance(value, list) or len(value) > 16:
        return "une liste d'au plus 16 « ADRESSE:PORT » (des relais sur d'autres machines de la salle)"
    for item in value:
        if not isinstance(item, str) or item.count(":") != 1:
            return f"{item!r} : attendu « ADRESSE:PORT » (IPv4), par exemple « 10.42.0.20:8090 »"
        host, port = item.split(":")
        if not port.isdigit() or not 0 < int(port) < 65536:
            return f"{item!r} : le port est un nombre de 1 à 65535"
        refused = _private_host_problem(host)
        if refused:
            return refused
    return None


def core_url_problem(value: str) -> str | None:
    """On a laptop's workers: the Pi's hall address (http://ADDRESS:PORT), on the hall's private network."""
    refused = url_problem(value)
    if refused or not value:
        return refused
    return _private_host_problem(urlsplit(value).hostname or "")


def N_(text: str) -> str:
    """Marks a French sentence for the catalogue; its reader (the web, the command line) translates it. The network
    helpers keep their own mark: they import nothing of the hall (``hall.marks`` is the core's)."""
    return text
