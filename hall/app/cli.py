"""The ``loto-hall`` command line: parses the arguments and hands each sub-command to its module."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from hall.app.cli_where import add_where
from hall.app.lang import _, argparse_in_language
from hall.app.lang import is_french as _fr
from hall.errors import InvalidNumber
from hall.minigames import GAME_NAMES
from hall.numbers import parse_int


def _whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer written in ASCII digits within ``low..high`` (hall/numbers.py)."""

    def parse(text: str) -> int:
        try:
            return parse_int(text, low, high)
        except InvalidNumber:
            raise argparse.ArgumentTypeError(
                _("%(value)r n'est pas un nombre entier de %(low)s à %(high)s écrit en chiffres 0-9")
                % {"value": text[:40], "low": low, "high": high}
            ) from None

    parse.__name__ = _("nombre entier")
    return parse


def _typed(convert: Callable[[str], object], name: str) -> Callable[[str], object]:
    """``convert`` as an argparse type named ``name``: argparse says « valeur invalide (nombre entier attendu) »
    with it, never the Python type's name."""

    def parse(text: str) -> object:
        return convert(text)

    parse.__name__ = name
    return parse


def _examples() -> str:
    return _(
        "exemples :\n  loto-hall serve --demo\n  loto-hall cards generate --count 600 --series A --seed "
        "2026 --csv cartons.csv --pdf cartons.pdf\n  loto-hall cards import cartons.csv\n  loto-hall "
        "games simulate lobo77 --players 4 --games 100 --seed 1"
    )


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser, its words in the terminal's language (build and use it inside
    ``argparse_in_language()``, as ``main`` does, for argparse's own words to be too)."""
    fmt = argparse.RawDescriptionHelpFormatter
    seed = _("GRAINE")
    integer, decimal = _typed(int, _("nombre entier")), _typed(float, _("nombre"))
    parser = argparse.ArgumentParser(
        prog="loto-hall",
        formatter_class=fmt,
        epilog=_examples(),
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
    serve.add_argument("--host", metavar=_("ADRESSE"), help=_("adresse d'écoute"))
    serve.add_argument("--port", type=_whole(0, 65535), metavar="PORT", help=_("port d'écoute"))
    serve.add_argument(
        "--demo",
        action="store_true",
        help=_("sans matériel : machine à boules simulée, cartons de démo, imprimante factice"),
    )
    serve.add_argument(
        "--data-dir",
        metavar=_("DOSSIER"),
        help=_("dossier des données (défaut : celui de la config ; en démo, un dossier temporaire)"),
    )
    serve.add_argument(
        "--interval",
        type=decimal,
        default=None,
        metavar=_("SECONDES"),
        help=_(
            "démo : secondes entre deux boules "
            "(sans elle, la machine simulée tire "
            "quand l'animateur appuie sur « Tirer "
            "»)"
        ),
    )

    annex = serve.add_argument_group(_("salle annexe (suit la salle principale, ne tire rien)"))
    annex.add_argument(
        "--annex-of", metavar="URL", help=_("adresse de la salle principale, ex. http://192.168.4.1:8080")
    )
    annex.add_argument("--room", metavar=_("NOM"), help=_("nom de la salle annexe, tel que /admin l'a inscrite"))
    annex.add_argument("--code", metavar="CODE", help=_("code à usage unique donné par /admin (« + Salle annexe »)"))

    relays = sub.add_parser(
        "relays",
        formatter_class=fmt,
        help=_("les relais des téléphones seuls (un portable à côté du Pi, [server] message_queue et core_url)"),
        epilog=_("exemple : loto-hall relays --config portable.toml --workers 4"),
    )
    add_where(relays, data_dir=False)
    relays.add_argument(
        "--workers", type=_whole(1, 16), metavar="N", help=_("processus (défaut : [server] socket_workers)")
    )

    cards = sub.add_parser("cards", help=_("cartons : générer, importer"))
    csub = cards.add_subparsers(dest="cards_command", required=True)
    gen = csub.add_parser(
        "generate",
        formatter_class=fmt,
        help=_("fabrique N cartons valides"),
        epilog=_("exemple : loto-hall cards generate --count 600 --series A --seed 1 --csv a.csv --pdf a.pdf"),
    )
    gen.add_argument(
        "--count", type=_whole(1, 1_000_000), required=True, metavar="N", help=_("nombre de cartons à fabriquer")
    )
    gen.add_argument("--series", default="A", metavar=_("SÉRIE"), help=_("la série des cartons (défaut : A)"))
    gen.add_argument(
        "--seed",
        default=None,
        metavar=seed,
        help=_("la graine du hasard : la même graine refait les mêmes cartons (défaut : tirée au hasard)"),
    )
    gen.add_argument(
        "--start", type=_whole(0, 99_999_999), default=1, metavar="N", help=_("premier numéro de la série")
    )
    gen.add_argument("--csv", metavar=_("FICHIER"), help=_("fichier CSV à écrire"))
    gen.add_argument("--pdf", metavar=_("FICHIER"), help=_("planches imprimables (PDF)"))
    gen.add_argument(
        "--per-page", type=integer, choices=(2, 3, 4, 6, 12), default=6, help=_("cartons par page A4 (défaut : 6)")
    )
    gen.add_argument(
        "--columns",
        choices=("1-9", "1-10"),
        default="1-9",
        help=_("les colonnes des numéros : 1 à 9, 10 à 19… ou 1 à 10, 11 à 20… (défaut : 1-9, ou celles de --config)"),
    )
    add_where(gen, data_dir=False)
    imp = csub.add_parser(
        "import",
        formatter_class=fmt,
        help=_("ajoute des cartons au fichier de la salle"),
        epilog=_("exemple : loto-hall cards import cartons.csv"),
    )
    imp.add_argument(
        "file",
        metavar=_("FICHIER"),
        help=_("le fichier CSV des cartons (d'un tableur : point-virgule, UTF-8 ou Windows-1252)"),
    )
    add_where(imp, data_dir=False)

    sim = sub.add_parser("simulate", help=_("simulateurs d'appareils"))
    ssub = sim.add_subparsers(dest="sim_command", required=True)
    bm = ssub.add_parser(
        "ball-machine",
        formatter_class=fmt,
        help=_("machine à boules simulée sur un pseudo-terminal"),
        epilog=_("exemple : loto-hall simulate ball-machine --interval 2 --garbage 0.1"),
    )
    bm.add_argument(
        "--interval",
        type=decimal,
        default=3.0,
        metavar=_("SECONDES"),
        help=_("secondes entre deux boules (défaut : 3)"),
    )
    bm.add_argument(
        "--seed", type=integer, default=None, metavar=seed, help=_("la graine du hasard (défaut : au hasard)")
    )
    bm.add_argument(
        "--protocol",
        choices=("lines", "stx"),
        default="lines",
        help=_("ce que la machine envoie : une boule par ligne (lines, défaut) ou des trames STX…ETX (stx)"),
    )
    bm.add_argument("--garbage", type=decimal, default=0.0, metavar=_("PART"), help=_("part de lignes illisibles"))
    bm.add_argument("--repeat", type=decimal, default=0.0, metavar=_("PART"), help=_("part de boules relues"))
    bm.add_argument("--link", metavar=_("CHEMIN"), help=_("lien symbolique stable vers le pseudo-terminal"))
    bm.add_argument("--count", type=integer, default=90, metavar="N", help=_("boules à tirer (défaut : 90)"))
    bm.add_argument(
        "--unplug-after", type=integer, default=None, metavar="N", help=_("simule un débranchement après N boules")
    )

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
    gs.add_argument("game", choices=GAME_NAMES, metavar=_("JEU"), help=_("le mini-jeu : %(choices)s"))
    gs.add_argument("--players", type=integer, required=True, metavar="N", help=_("joueurs (des robots) par partie"))
    gs.add_argument("--games", type=integer, default=100, metavar="N", help=_("parties à jouer (défaut : 100)"))
    gs.add_argument("--seed", type=integer, default=0, metavar=seed, help=_("la graine du hasard (défaut : 0)"))
    gt = gsub.add_parser(
        "tournament",
        formatter_class=fmt,
        help=_("une journée OSGA d'euchre aux enchères simulée"),
        epilog=_("exemple : loto-hall games tournament --teams 8 --seed 1"),
    )
    gt.add_argument("--teams", type=integer, required=True, metavar="N", help=_("équipes de la journée"))
    gt.add_argument("--seed", type=integer, default=0, metavar=seed, help=_("la graine du hasard (défaut : 0)"))

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
    with argparse_in_language():  # usage, options and argparse's errors in the terminal's language too
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
            from hall.app import preflight

            return preflight.run(args)
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
