"""``loto-hall auth unlock [--config FILE] [--data-dir DIR]``: clear the PIN and table-code guessing counts from
the Pi itself.

The command writes an unlock request in the hall's data folder (``display/login_guard.py``); the running hall
applies it at its next login attempt (or at start when it is stopped), logs it, and every address, console and
table may try again at once. Open sessions are untouched. It does not need the hall to answer on the network:
it is the way in when strangers hold every new browser and no known console is at hand. As root it wants
``--config`` or ``--data-dir`` (never the ``./loto-hall.toml`` of whatever folder it runs in); the request is
written without following links and handed to the data folder's owner.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from hall.app.lang import _


def add_auth_parser(subparsers: argparse._SubParsersAction) -> None:
    """``loto-hall auth unlock``."""
    fmt = argparse.RawDescriptionHelpFormatter
    auth = subparsers.add_parser("auth", help=_("codes PIN : débloquer les essais depuis le Pi"))
    asub = auth.add_subparsers(dest="auth_command", required=True)
    unlock = asub.add_parser(
        "unlock", formatter_class=fmt,
        help=_("remet à zéro les compteurs d'essais de code PIN et de code de table (sessions ouvertes gardées)"),
        description=_("Écrit une demande de déblocage dans le dossier des données ; la salle en marche "
                      "l'applique au prochain essai de code PIN, une salle arrêtée à son démarrage."),
        epilog=_("exemples :\n  sudo loto-hall auth unlock --config /etc/loto-hall/config.toml\n  loto-hall "
                 "auth unlock --data-dir ./data"))
    unlock.add_argument("--config", help=_("fichier TOML (défaut ./loto-hall.toml puis "
                                           "/etc/loto-hall/config.toml)"))
    unlock.add_argument("--data-dir", help=_("dossier des données (défaut : celui de la config)"))


def run(args: argparse.Namespace) -> int:
    from display.login_guard import request_unlock
    from hall.config import load_config

    if os.geteuid() == 0 and not args.config and not args.data_dir:
        # as root, never a ./loto-hall.toml of whatever folder this runs in
        print(_("loto-hall : en root, indiquez --config FICHIER (ou --data-dir DOSSIER)"), file=sys.stderr)
        return 2
    if args.data_dir:
        folder = Path(args.data_dir)
    else:
        folder = load_config(args.config).data_dir
    if not folder.is_dir():
        print(_("loto-hall : pas de dossier de données ici : %(folder)s") % {"folder": folder},
              file=sys.stderr)
        return 2
    try:
        path = request_unlock(folder)
    except OSError as exc:
        print(_("loto-hall : impossible d'écrire dans %(folder)s (%(strerror)s) : lancez-la avec sudo") % {
                  "folder": folder, "strerror": exc.strerror}, file=sys.stderr)
        return 2
    print(_("Déblocage demandé (%(path)s) : la salle remet à zéro les compteurs d'essais au prochain essai de "
            "code PIN (ou à son démarrage).") % {"path": path})
    return 0
