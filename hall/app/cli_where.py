"""The options that say where a hall is (``--config``, ``--data-dir``), worded once for every command."""

from __future__ import annotations

import argparse

from hall.app.lang import _


def add_where(parser: argparse.ArgumentParser | argparse._ActionsContainer, *, data_dir: bool = True) -> None:
    """``--config FICHIER`` and (unless ``data_dir=False``) ``--data-dir DOSSIER``, on a parser or a group of it."""
    parser.add_argument(
        "--config",
        metavar=_("FICHIER"),
        help=_("fichier TOML de la salle (défaut ./loto-hall.toml puis /etc/loto-hall/config.toml)"),
    )
    if data_dir:
        parser.add_argument(
            "--data-dir",
            metavar=_("DOSSIER"),
            help=_("dossier des données de la salle (défaut : celui de la configuration)"),
        )
