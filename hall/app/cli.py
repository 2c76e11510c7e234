"""The ``loto-hall`` command line: parses the arguments and hands each sub-command to its module."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from hall.app.cli_where import add_where
from hall.app.lang import _
from hall.app.lang import is_french as _fr
from hall.errors import InvalidNumber
from hall.minigames.registry import GAME_NAMES
from hall.numbers import parse_int


def _whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer written in ASCII digits within ``low..high`` (hall/numbers.py)."""

    def parse(text: str) -> int:
        try:
            return parse_int(text, low, high, "valeur")
        except InvalidNumber as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = "nombre"
    return parse


EXAMPLES = _(
    "exemples :\n  loto-hall serve --demo\n  loto-hall cards generate --count 600 --series A --seed "
    "2026 --csv cartons.csv --pdf cartons.pdf\n  loto-hall cards import cartons.csv\n  loto-hall "
    "games simulate lobo77 --players 4 --games 100 --seed 1"
)


def build_parser() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="loto-hall",
        formatter_class=fmt,
        epilog=EXAMPLES,
        description=_("Le loto de la salle des fêtes : tirage, vérification, bons d'échange."),
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMANDE" if _fr() else "COMMAND")

    serve = sub.add_parser(
        "serve",
        formatter_class=fmt,
        help=_("lance la salle (pages, API, appareils)"),
        epilog=_("exemple : loto-hall serve --config /etc/loto-hall/config.toml"),
    )
    add_where(serve, data_dir=False)  # its --data-dir says what the demo does
    serve.add_argument("--host", help=_("adresse d'écoute"))
    serve.add_argument("--port", type=_whole(0, 65535), help=_("port d'écoute"))
    serve.add_argument(
        "--demo",
        action="store_true",
        help=_("sans matériel : machine à boules simulée, cartons de démo, imprimante factice"),
    )
    serve.add_argument(
        "--data-dir", help=_("dossier des données (défaut : celui de la config ; en démo, un dossier temporaire)")
    )
    serve.add_argument(
        "--interval",
        type=float,
        default=None,
        help=_(
            "démo : secondes entre deux boules "
            "(sans elle, la machine simulée tire "
            "quand l'animateur appuie sur « Tirer "
            "»)"
        ),
    )

    relays = sub.add_parser(
        "relays",
        formatter_class=fmt,
        help=_("les relais des téléphones seuls (un portable à côté du Pi, [server] message_queue et core_url)"),
        epilog=_("exemple : loto-hall relays --config portable.toml --workers 4"),
    )
    add_where(relays, data_dir=False)
    relays.add_argument("--workers", type=_whole(1, 16), help=_("processus (défaut : [server] socket_workers)"))

    cards = sub.add_parser("cards", help=_("cartons : générer, importer"))
    csub = cards.add_subparsers(dest="cards_command", required=True)
    gen = csub.add_parser(
        "generate",
        formatter_class=fmt,
        help=_("fabrique N cartons valides"),
        epilog=_("exemple : loto-hall cards generate --count 600 --series A --seed 1 --csv a.csv --pdf a.pdf"),
    )
    gen.add_argument("--count", type=_whole(1, 1_000_000), required=True)
    gen.add_argument("--series", default="A")
    gen.add_argument("--seed", default=None)
    gen.add_argument("--start", type=_whole(0, 99_999_999), default=1, help=_("premier numéro de la série"))
    gen.add_argument("--csv", help=_("fichier CSV à écrire"))
    gen.add_argument("--pdf", help=_("planches imprimables (PDF)"))
    gen.add_argument("--per-page", type=int, choices=(2, 3, 4, 6, 12), default=6)
    gen.add_argument("--columns", choices=("1-9", "1-10"), default="1-9")
    add_where(gen, data_dir=False)
    imp = csub.add_parser(
        "import",
        formatter_class=fmt,
        help=_("ajoute des cartons au fichier de la salle"),
        epilog=_("exemple : loto-hall cards import cartons.csv"),
    )
    imp.add_argument("file")
    add_where(imp, data_dir=False)

    sim = sub.add_parser("simulate", help=_("simulateurs d'appareils"))
    ssub = sim.add_subparsers(dest="sim_command", required=True)
    bm = ssub.add_parser(
        "ball-machine",
        formatter_class=fmt,
        help=_("machine à boules simulée sur un pseudo-terminal"),
        epilog=_("exemple : loto-hall simulate ball-machine --interval 2 --garbage 0.1"),
    )
    bm.add_argument("--interval", type=float, default=3.0)
    bm.add_argument("--seed", type=int, default=None)
    bm.add_argument("--protocol", choices=("lines", "stx"), default="lines")
    bm.add_argument("--garbage", type=float, default=0.0, help=_("part de lignes illisibles"))
    bm.add_argument("--repeat", type=float, default=0.0, help=_("part de boules relues"))
    bm.add_argument("--link", help=_("lien symbolique stable vers le pseudo-terminal"))
    bm.add_argument("--count", type=int, default=90)
    bm.add_argument("--unplug-after", type=int, default=None, help=_("simule un débranchement après N boules"))

    rep = sub.add_parser(
        "report",
        formatter_class=fmt,
        help=_("le rapport de la soirée"),
        description=_(
            "Le rapport de la soirée en cours (ou de la dernière, tant que « loto-hall "
            "evening new » ne l'a pas archivée), lu dans le journal sans rien y changer : "
            "il peut être écrit pendant que la salle tourne. Au moins un des fichiers "
            "--pdf, --csv, --xlsx."
        ),
        epilog=_("exemple : loto-hall report --pdf soiree.pdf --csv soiree.csv --xlsx soiree.xlsx"),
    )
    add_where(rep)
    rep.add_argument(
        "--pdf",
        metavar=_("FICHIER"),
        help=_(
            "le rapport imprimable (PDF) : résumé, recettes, lots "
            "donnés et non donnés, parties, bons, relevé pour le "
            "service des impôts"
        ),
    )
    rep.add_argument(
        "--csv",
        metavar=_("FICHIER"),
        help=_("le rapport en CSV pour un tableur français (« ; », virgule décimale) : une ligne par fait"),
    )
    rep.add_argument(
        "--xlsx",
        metavar=_("FICHIER"),
        help=_(
            "le rapport en classeur (Excel, LibreOffice) : une "
            "feuille par rubrique, montants en euros, dates, "
            "numéros de cartons en texte"
        ),
    )
    rep.add_argument(
        "--lang",
        choices=("fr", "en"),
        help=_("la langue des trois fichiers, la même pour tous (défaut : celle de la salle, [hall] language)"),
    )

    evening = sub.add_parser("evening", help=_("soirées : archiver la soirée finie, lister les soirées passées"))
    esub = evening.add_subparsers(dest="evening_command", required=True)
    for name, what, example in (
        (
            "new",
            _("la soirée est finie : l'archive (journal, rapport) et la suivante commence vide ; service arrêté"),
            "loto-hall evening new --config /etc/loto-hall/config.toml",
        ),
        ("list", _("les soirées archivées avec leurs totaux"), "loto-hall evening list"),
    ):
        cmd = esub.add_parser(name, formatter_class=fmt, help=what, description=what, epilog=_("exemple : ") + example)
        add_where(cmd)

    games = sub.add_parser("games", help=_("mini-jeux des pauses"))
    gsub = games.add_subparsers(dest="games_command", required=True)
    gs = gsub.add_parser(
        "simulate",
        formatter_class=fmt,
        help=_("parties jouées par des robots"),
        epilog=_("exemple : loto-hall games simulate linotte --players 2 --games 200 --seed 7"),
    )
    gs.add_argument("game", choices=GAME_NAMES)
    gs.add_argument("--players", type=int, required=True)
    gs.add_argument("--games", type=int, default=100)
    gs.add_argument("--seed", type=int, default=0)
    gt = gsub.add_parser(
        "tournament",
        formatter_class=fmt,
        help=_("une journée OSGA d'euchre aux enchères simulée"),
        epilog=_("exemple : loto-hall games tournament --teams 8 --seed 1"),
    )
    gt.add_argument("--teams", type=int, required=True)
    gt.add_argument("--seed", type=int, default=0)

    from hall.app.network import add_network_parser

    add_network_parser(sub)
    from hall.app.cli_auth import add_auth_parser

    add_auth_parser(sub)
    from hall.app.doctor import add_doctor_parser

    add_doctor_parser(sub)
    from hall.app.cli_verify import add_verify_parser

    add_verify_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from hall.errors import HallError
    from hall.refusal import Rejected

    try:
        if args.command == "serve":
            from hall.app.serve import serve

            return serve(args)
        if args.command == "relays":
            from hall.app.relays import relays

            return relays(args)
        if args.command == "cards":
            from hall.app import cli_cards

            return cli_cards.run(args)
        if args.command == "simulate":
            from drivers.ball_sim import run_cli

            return run_cli(args)
        if args.command == "report":
            from hall.app import cli_report

            return cli_report.run(args)
        if args.command == "evening":
            from hall.app import evening

            return evening.run(args)
        if args.command == "games":
            from hall.app import cli_games

            return cli_games.run(args)
        if args.command == "network":
            from hall.app import network

            return network.run(args)
        if args.command == "doctor":
            from hall.app import doctor

            return doctor.run(args)
        if args.command == "auth":
            from hall.app import cli_auth

            return cli_auth.run(args)
        if args.command == "verify":
            from hall.app import cli_verify

            return cli_verify.run(args)
    except (HallError, Rejected) as exc:
        print(f"loto-hall: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 1


if __name__ == "__main__":
    sys.exit(main())
