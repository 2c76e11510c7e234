"""``loto-hall doctor`` (run by ``hall/app/preflight.py``): the secrets' files (``hall/app/doctor_secrets.py``), the
pre-flight before the doors open (storage, clock, devices, voice, Wi-Fi, certificate), then the queue and the relays of a hall
with more phones than one process (INTERFACE §10).

In the order a person fixes them: the front's nginx is installed; Redis answers; it listens on loopback or the
hall's private network only (and with a password when the phones' network reaches it); the core beats; the relays
report, none deaf, as many as configured. ``loto-hall network doctor`` checks the Wi-Fi side.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import threading
from collections.abc import Callable
from typing import Any

from hall.app.cli_where import add_where
from hall.app.findings import Finding
from hall.app.lang import _
from hall.app.nginx_path import nginx_binary
from hall.config import Config
from hall.net.values import queue_has_password, queue_is_local

START_TARGET_S = 10.0  # back after a power cut, a hall is ready to draw within this
REPORT_WAIT_S = 2.5  # two reports of each live relay fit in this (they report every second)


def _bind_problem(binds: list[str]) -> str | None:
    for address in binds:
        host = address.lstrip("-")
        if host in ("*", "0.0.0.0", "::", "::*"):
            return _("écoute sur toutes les adresses ({address})").format(address=address)
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return _("adresse d'écoute illisible : {address}").format(address=address)
        if not (ip.is_loopback or ip.is_private):
            return _("écoute sur une adresse publique ({address})").format(address=address)
    return None


def doctor(config: Config, connect: Callable[[str], Any], wait: Callable[[float], Any] | None = None) -> list[Finding]:
    """Every check, with ``connect(url)`` giving a redis-py client (``relay_wire.client``)."""
    url = config.server.message_queue
    if not url:
        return [Finding("[server] message_queue", None, _("vide : un seul processus, pas de relais"))]
    found = [_nginx(), _queue_guarded(url)]
    client = connect(url)
    try:
        client.ping()
    except Exception as exc:
        found.append(Finding(_("Redis répond"), False, str(exc)[:120], "sudo systemctl enable --now redis-server"))
        return found
    found += [Finding(_("Redis répond"), True, "PING"), _redis_private(client), _beating(client)]
    key = _queue_key(config, found)
    found.append(_relays(client, config, key, wait or threading.Event().wait))
    return found


def last_start(config: Config) -> Finding:
    """How long the hall's last start took, as it kept it (``hall/app/start_record.py``)."""
    from hall.app.start_record import last_start as kept

    name = _("Dernier démarrage")
    last = kept(config.data_dir)
    if last is None:
        return Finding(name, None, _("pas encore mesuré : la salle n'a pas démarré avec ce dossier"))
    seconds, when = last
    detail = _("prête en {seconds:.1f} s (le {when})").format(
        seconds=seconds, when=when.astimezone().strftime("%Y-%m-%d %H:%M")
    )
    slow = seconds > START_TARGET_S
    fix = _("démarrage lent : carte SD lente ou journal très long ; un SSD USB, docs/benchmarks.md") if slow else ""
    return Finding(name, None if slow else True, detail, fix)


def _nginx() -> Finding:
    return Finding(
        _("Frontal nginx"),
        nginx_binary() is not None,
        nginx_binary() or _("absent"),
        "" if nginx_binary() else "sudo apt-get install nginx-light",
    )


def _queue_guarded(url: str) -> Finding:
    guarded = queue_is_local(url) or queue_has_password(url)
    return Finding(
        "[server] message_queue",
        True if guarded else False,
        url.split("@")[-1],
        ""
        if guarded
        else _("sur le réseau de la salle : requirepass dans /etc/redis/redis.conf et redis://:MOT_DE_PASSE@… ici"),
    )


def _redis_private(client: Any) -> Finding:
    try:
        binds = str(client.config_get("bind").get("bind", "")).split()
    except Exception as exc:  # CONFIG renamed or refused: say it, it is not a fault of ours
        return Finding(_("Redis en privé"), None, str(exc)[:120])
    problem = _bind_problem(binds)
    return Finding(
        _("Redis en privé"),
        problem is None,
        problem or " ".join(binds),
        "" if problem is None else _("bind 127.0.0.1 -::1 (ou l'adresse privée du Pi) dans /etc/redis/redis.conf"),
    )


def _beating(client: Any) -> Finding:
    from display import relay_wire as wire

    beating = bool(client.exists(wire.BEAT_KEY))
    return Finding(
        _("Le cœur publie"),
        beating,
        _("battement reçu") if beating else _("aucun battement"),
        "" if beating else "sudo systemctl start loto-hall ; journalctl -u loto-hall -n 20",
    )


def _relays(client: Any, config: Config, key: bytes | None, wait: Callable[[float], Any]) -> Finding:
    """The relays whose sealed report moved while we waited: alive, or deaf (or unsealed); as many alive as
    ``socket_workers``."""
    from display import relay_wire as wire

    first = client.hgetall(wire.RELAYS_KEY)
    wait(REPORT_WAIT_S)
    second = client.hgetall(wire.RELAYS_KEY)
    alive: list[str] = []
    deaf: list[str] = []
    phones, deaf_word, unsealed = _("téléphones"), _("SOURD"), _("NON SCELLÉ")
    for relay, text in second.items():
        report, before = _report(key, text), _report(key, first.get(relay)) or {}
        if report is None:
            deaf.append(f"{relay} {unsealed}")  # another key's relay, or a stranger's writing
            continue
        if report.get("n") != before.get("n"):
            port = f" :{report['port']}" if report.get("port") else ""
            (deaf if report.get("state") == "deaf" else alive).append(
                f"{relay}{port} ({report.get('clients', 0)} {phones})"
            )
    workers = config.server.socket_workers
    enough = len(alive) >= workers
    return Finding(
        _("Relais vivants"),
        enough and not deaf,
        ", ".join(alive + [d if d.endswith(unsealed) else f"{d} {deaf_word}" for d in deaf]) or _("aucun"),
        ""
        if enough and not deaf
        else _("{n} attendus : journalctl -u loto-hall -n 50 | grep relais").format(n=workers),
    )


def _queue_key(config: Config, found: list[Finding]) -> bytes | None:
    """The hall's queue key (what the relays' reports are sealed with), said as a finding when it cannot be read."""
    from display.relay_seal import KEY_FILE, KeyMissing, read_key

    try:
        return read_key(config.data_dir)
    except KeyMissing as exc:
        found.append(
            Finding(
                _("Clé de la file"),
                False,
                str(exc),
                _(
                    "sur le Pi : sudo systemctl restart loto-hall ; sur une seconde machine : copiez {file} du Pi"
                ).format(file=config.data_dir / KEY_FILE),
            )
        )
        return None


def _report(key: bytes | None, text: str | None) -> dict | None:
    """A relay's report, checked against its seal (without the key: read as it is, unchecked)."""
    from display.relay_seal import MAC_CHARS, REPORT, unseal_json

    if text is None:
        return None
    if key is not None:
        return unseal_json(key, REPORT, text)
    try:
        report = json.loads(text[MAC_CHARS:])
    except ValueError:
        return None
    return report if isinstance(report, dict) else None


def add_doctor_parser(subparsers: argparse._SubParsersAction) -> None:
    cmd = subparsers.add_parser(
        "doctor",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        help=_(
            "vérifie la salle avant l'ouverture des portes : fichiers secrets, carte, horloge, appareils, voix, Wi-Fi, certificat, relais"
        ),
        epilog=_("exemple : loto-hall doctor --config /etc/loto-hall/config.toml"),
    )
    add_where(cmd, data_dir=False)
