"""``loto-hall doctor``: the queue and the relays of a hall with more phones than one process (INTERFACE §10).

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

from hall.app.front import nginx_binary
from hall.app.lang import t
from hall.app.network import Finding, print_findings
from hall.config import Config
from hall.net.values import queue_has_password, queue_is_local

REPORT_WAIT_S = 2.5       # two reports of each live relay fit in this (they report every second)


def _bind_problem(binds: list[str]) -> str | None:
    for address in binds:
        host = address.lstrip("-")
        if host in ("*", "0.0.0.0", "::", "::*"):
            return t(f"écoute sur toutes les adresses ({address})", f"listens on every address ({address})")
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return t(f"adresse d'écoute illisible : {address}", f"unreadable listen address: {address}")
        if not (ip.is_loopback or ip.is_private):
            return t(f"écoute sur une adresse publique ({address})", f"listens on a public address ({address})")
    return None


def doctor(config: Config, connect: Callable[[str], Any], wait: Callable[[float], Any] | None = None) -> list[Finding]:
    """Every check, with ``connect(url)`` giving a redis-py client (``relay_wire.client``)."""
    from display import relay_wire as wire

    wait = wait or threading.Event().wait
    server = config.server
    url = server.message_queue
    found: list[Finding] = []
    if not url:
        return [Finding("[server] message_queue", None, t("vide : un seul processus, pas de relais",
                                                          "empty: one process, no relays"))]
    found.append(Finding(t("Frontal nginx", "nginx front"), nginx_binary() is not None,
                         nginx_binary() or t("absent", "missing"),
                         "" if nginx_binary() else "sudo apt-get install nginx-light"))
    guarded = queue_is_local(url) or queue_has_password(url)
    found.append(Finding("[server] message_queue", True if guarded else False, url.split("@")[-1],
                         "" if guarded else t("sur le réseau de la salle : requirepass dans /etc/redis/redis.conf et "
                                              "redis://:MOT_DE_PASSE@… ici", "on the hall's network: requirepass in "
                                              "/etc/redis/redis.conf and redis://:PASSWORD@… here")))
    client = connect(url)
    try:
        client.ping()
    except Exception as exc:
        found.append(Finding(t("Redis répond", "Redis answers"), False, str(exc)[:120],
                             "sudo systemctl enable --now redis-server"))
        return found
    found.append(Finding(t("Redis répond", "Redis answers"), True, "PING"))
    try:
        binds = str(client.config_get("bind").get("bind", "")).split()
        problem = _bind_problem(binds)
        found.append(Finding(t("Redis en privé", "Redis kept private"), problem is None, problem or " ".join(binds),
                             "" if problem is None else t("bind 127.0.0.1 -::1 (ou l'adresse privée du Pi) dans "
                                                          "/etc/redis/redis.conf", "bind 127.0.0.1 -::1 (or the Pi's "
                                                          "private address) in /etc/redis/redis.conf")))
    except Exception as exc:              # CONFIG renamed or refused: say it, it is not a fault of ours
        found.append(Finding(t("Redis en privé", "Redis kept private"), None, str(exc)[:120]))
    beating = bool(client.exists(wire.BEAT_KEY))
    found.append(Finding(t("Le cœur publie", "The core publishes"), beating,
                         t("battement reçu", "beat present") if beating else t("aucun battement", "no beat"),
                         "" if beating else "sudo systemctl start loto-hall ; journalctl -u loto-hall -n 20"))
    first = client.hgetall(wire.RELAYS_KEY)
    wait(REPORT_WAIT_S)
    second = client.hgetall(wire.RELAYS_KEY)
    alive: list[str] = []
    deaf: list[str] = []
    for relay, text in second.items():
        try:
            report, before = json.loads(text), json.loads(first.get(relay) or "{}")
        except ValueError:
            continue
        if report.get("n") != before.get("n"):
            (deaf if report.get("state") == "deaf" else alive).append(
                f"{relay} ({report.get('clients', 0)} {t('téléphones', 'phones')})")
    enough = len(alive) >= server.socket_workers
    found.append(Finding(t("Relais vivants", "Relays alive"), enough and not deaf,
                         ", ".join(alive + [f"{d} {t('SOURD', 'DEAF')}" for d in deaf]) or t("aucun", "none"),
                         "" if enough and not deaf else t(f"{server.socket_workers} attendus : journalctl -u loto-hall "
                                                          "-n 50 | grep relais", f"{server.socket_workers} expected: "
                                                          "journalctl -u loto-hall -n 50 | grep relais")))
    return found


def add_doctor_parser(subparsers: argparse._SubParsersAction) -> None:
    cmd = subparsers.add_parser("doctor", formatter_class=argparse.RawDescriptionHelpFormatter,
                                help=t("vérifie la file (Redis) et les relais des téléphones",
                                       "check the queue (Redis) and the phones' relays"),
                                epilog=t("exemple : loto-hall doctor --config /etc/loto-hall/config.toml",
                                         "example: loto-hall doctor --config /etc/loto-hall/config.toml"))
    cmd.add_argument("--config")


def run(args: argparse.Namespace, out: Callable[[str], None] = print) -> int:
    """0 when every check passes, 1 otherwise."""
    from display.relay_wire import client
    from hall.config import load_config

    found = doctor(load_config(args.config), client)
    print_findings(found, out)
    return 1 if any(f.ok is False for f in found) else 0
