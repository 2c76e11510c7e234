"""The standard Wi-Fi QR code that phones join by scanning, and the characters some phones misread.

Format (ZXing's, read by Android's and iOS's cameras): ``WIFI:T:WPA;S:<ssid>;P:<password>;;`` with
``\\ ; , : "`` escaped by a backslash; ``T:nopass`` and no ``P:`` for an open network.
"""

from __future__ import annotations

import unicodedata

from hall.net.values import INVISIBLE_CATEGORIES, N_

SPECIAL = '\\;,:"'
RISKY = ';,:\\"'  # escaped correctly here, yet some older readers cut the name or password at them


# what each risk means for a person, in French (the web and the command line translate it for their reader)
RISK_TEXT: dict[str, str] = {
    "ssid_non_ascii": N_(
        "le nom du Wi-Fi a des accents ou des signes hors ASCII : certains téléphones l'affichent mal"
    ),
    "password_non_ascii": N_(
        "le mot de passe a des accents ou des signes hors ASCII : certains téléphones ne le tapent pas"
    ),
    "ssid_edge_space": N_("le nom du Wi-Fi commence ou finit par une espace"),
    "password_edge_space": N_("le mot de passe commence ou finit par une espace"),
    "ssid_special": N_("le nom du Wi-Fi contient ; , : \\ ou \" : d'anciens lecteurs de QR le coupent"),
    "password_special": N_("le mot de passe contient ; , : \\ ou \" : d'anciens lecteurs de QR le coupent"),
    "ssid_length": N_("le nom du Wi-Fi doit faire de 1 à 32 octets"),
    "ssid_invisible": N_(
        "le nom du Wi-Fi contient des caractères invisibles (sens d'écriture, largeur nulle) : "
        "il s'affiche autrement qu'il n'est, refusé"
    ),
    "password_length": N_("le mot de passe WPA2 doit faire de 8 à 63 caractères"),
}


def escape(text: str) -> str:
    """``text`` with each of ``\\ ; , : "`` preceded by a backslash."""
    return "".join("\\" + c if c in SPECIAL else c for c in text)


def wifi_qr_payload(ssid: str, password: str) -> str:
    """The text of the Wi-Fi QR code: WPA with a password, ``nopass`` without one."""
    if not password:
        return f"WIFI:T:nopass;S:{escape(ssid)};;"
    return f"WIFI:T:WPA;S:{escape(ssid)};P:{escape(password)};;"


def misread_risks(ssid: str, password: str) -> tuple[str, ...]:
    """Codes of what some phones misread or refuse: ``ssid_non_ascii``, ``password_edge_space``,
    ``ssid_special``, ``password_length`` (WPA2 wants 8 to 63 characters)…; empty when all is safe."""
    risks = []
    for name, text in (("ssid", ssid), ("password", password)):
        if any(ord(c) > 126 or ord(c) < 32 for c in text):
            risks.append(f"{name}_non_ascii")
        if text != text.strip():
            risks.append(f"{name}_edge_space")
        if any(c in RISKY for c in text):
            risks.append(f"{name}_special")
    if any(unicodedata.category(c) in INVISIBLE_CATEGORIES for c in ssid):
        risks.append("ssid_invisible")
    if not 1 <= len(ssid.encode("utf-8", "surrogatepass")) <= 32:
        risks.append("ssid_length")
    if password and not 8 <= len(password) <= 63:
        risks.append("password_length")
    return tuple(risks)
