"""``loto-hall network hotspot`` and ``loto-hall network doctor``: the commands, and how root trusts the config file
it reads. The plan is ``hall/app/hotspot.py``'s, the check-up ``hall/app/network_doctor.py``'s.
"""

from __future__ import annotations

import argparse
import os
import shlex
import stat
from collections.abc import Callable
from pathlib import Path

from hall.app.cli_where import add_where
from hall.app.findings import print_findings
from hall.app.hotspot import ROOT_CONFIG, hotspot_plan, hotspot_problems, print_plan
from hall.app.lang import _
from hall.app.network_doctor import Fetch, doctor, http_fetch
from hall.app.plan import PlanRefused, Runner, apply_plan, plan_problems, system_runner


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
        metavar=_("FICHIER"),
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
    add_where(doc, data_dir=False)
    doc.add_argument("--port", type=int, metavar="PORT", help=_("port de la salle (défaut : celui de la config)"))


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
