"""The ``loto-hall`` command line: parses the arguments and hands each sub-command to its module."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from hall.app.lang import is_french as _fr
from hall.app.lang import t
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


EXAMPLES = t(
    "exemples :\n  loto-hall serve --demo\n  loto-hall cards generate --count 600 --series A --seed 2026 --csv cartons.csv --pdf cartons.pdf\n"
    "  loto-hall cards import cartons.csv\n  loto-hall games simulate lobo77 --players 4 --games 100 --seed 1",
    "examples:\n  loto-hall serve --demo\n  loto-hall cards generate --count 600 --series A --seed 2026 --csv cards.csv --pdf cards.pdf\n"
    "  loto-hall cards import cards.csv\n  loto-hall games simulate lobo77 --players 4 --games 100 --seed 1")


def build_parser() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(prog="loto-hall", formatter_class=fmt, epilog=EXAMPLES,
                                     description=t("Le loto de la salle des fêtes : tirage, vérification, bons d'échange.",
                                                   "The village-hall loto: draws, claim checks, prize vouchers."))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMANDE" if _fr() else "COMMAND")

    serve = sub.add_parser("serve", formatter_class=fmt, help=t("lance la salle (pages, API, appareils)", "run the hall (pages, API, devices)"),
                           epilog=t("exemple : loto-hall serve --config /etc/loto-hall/config.toml", "example: loto-hall serve --config /etc/loto-hall/config.toml"))
    serve.add_argument("--config", help=t("fichier TOML (défaut ./loto-hall.toml puis /etc/loto-hall/config.toml)", "TOML file (default ./loto-hall.toml then /etc/loto-hall/config.toml)"))
    serve.add_argument("--host", help=t("adresse d'écoute", "listen address"))
    serve.add_argument("--port", type=_whole(0, 65535), help=t("port d'écoute", "listen port"))
    serve.add_argument("--demo", action="store_true", help=t("sans matériel : machine à boules simulée, cartons de démo, imprimante factice", "no hardware: simulated ball machine, demo cards, printer sink"))
    serve.add_argument("--data-dir", help=t("dossier des données (défaut : celui de la config ; en démo, un dossier temporaire)", "data folder (default: the config's; in demo, a temporary folder)"))
    serve.add_argument("--interval", type=float, default=None, help=t(
        "démo : secondes entre deux boules (sans elle, la machine simulée tire quand l'animateur appuie sur « Tirer »)",
        "demo: seconds between balls (without it, the simulated machine draws when the speaker presses « Tirer »)"))

    cards = sub.add_parser("cards", help=t("cartons : générer, importer", "cartons: generate, import"))
    csub = cards.add_subparsers(dest="cards_command", required=True)
    gen = csub.add_parser("generate", formatter_class=fmt, help=t("fabrique N cartons valides", "make N valid cartons"),
                          epilog=t("exemple : loto-hall cards generate --count 600 --series A --seed 1 --csv a.csv --pdf a.pdf",
                                   "example: loto-hall cards generate --count 600 --series A --seed 1 --csv a.csv --pdf a.pdf"))
    gen.add_argument("--count", type=_whole(1, 1_000_000), required=True)
    gen.add_argument("--series", default="A")
    gen.add_argument("--seed", default=None)
    gen.add_argument("--start", type=_whole(0, 99_999_999), default=1, help=t("premier numéro de la série", "first number in the series"))
    gen.add_argument("--csv", help=t("fichier CSV à écrire", "CSV file to write"))
    gen.add_argument("--pdf", help=t("planches imprimables (PDF)", "printable sheets (PDF)"))
    gen.add_argument("--per-page", type=int, choices=(2, 3, 4, 6, 12), default=6)
    gen.add_argument("--columns", choices=("1-9", "1-10"), default="1-9")
    gen.add_argument("--config")
    imp = csub.add_parser("import", formatter_class=fmt, help=t("ajoute des cartons au fichier de la salle", "add cartons to the hall's card book"),
                          epilog=t("exemple : loto-hall cards import cartons.csv", "example: loto-hall cards import cards.csv"))
    imp.add_argument("file")
    imp.add_argument("--config")

    sim = sub.add_parser("simulate", help=t("simulateurs d'appareils", "device simulators"))
    ssub = sim.add_subparsers(dest="sim_command", required=True)
    bm = ssub.add_parser("ball-machine", formatter_class=fmt, help=t("machine à boules simulée sur un pseudo-terminal", "simulated ball machine on a pseudo-terminal"),
                         epilog=t("exemple : loto-hall simulate ball-machine --interval 2 --garbage 0.1", "example: loto-hall simulate ball-machine --interval 2 --garbage 0.1"))
    bm.add_argument("--interval", type=float, default=3.0)
    bm.add_argument("--seed", type=int, default=None)
    bm.add_argument("--protocol", choices=("lines", "stx"), default="lines")
    bm.add_argument("--garbage", type=float, default=0.0, help=t("part de lignes illisibles", "share of garbage lines"))
    bm.add_argument("--repeat", type=float, default=0.0, help=t("part de boules relues", "share of repeated reads"))
    bm.add_argument("--link", help=t("lien symbolique stable vers le pseudo-terminal", "stable symlink to the pseudo-terminal"))
    bm.add_argument("--count", type=int, default=90)
    bm.add_argument("--unplug-after", type=int, default=None, help=t("simule un débranchement après N boules", "simulate an unplug after N balls"))

    rep = sub.add_parser("report", formatter_class=fmt, help=t("le rapport de la soirée", "the evening's report"),
                         epilog=t("exemple : loto-hall report --pdf soiree.pdf --csv soiree.csv", "example: loto-hall report --pdf evening.pdf --csv evening.csv"))
    rep.add_argument("--config")
    rep.add_argument("--data-dir")
    rep.add_argument("--pdf")
    rep.add_argument("--csv")

    evening = sub.add_parser("evening", help=t("soirées : archiver la soirée finie, lister les soirées passées",
                                               "evenings: archive the evening that is over, list the past ones"))
    esub = evening.add_subparsers(dest="evening_command", required=True)
    for name, what, example in (
            ("new", t("la soirée est finie : l'archive (journal, rapport) et la suivante commence vide ; service arrêté",
                      "the evening is over: archive it (journal, report), the next one starts empty; service stopped"),
             "loto-hall evening new --config /etc/loto-hall/config.toml"),
            ("list", t("les soirées archivées avec leurs totaux", "the archived evenings with their totals"),
             "loto-hall evening list")):
        cmd = esub.add_parser(name, formatter_class=fmt, help=what, description=what,
                              epilog=t("exemple : ", "example: ") + example)
        cmd.add_argument("--config")
        cmd.add_argument("--data-dir")

    games = sub.add_parser("games", help=t("mini-jeux des pauses", "break-time mini-games"))
    gsub = games.add_subparsers(dest="games_command", required=True)
    gs = gsub.add_parser("simulate", formatter_class=fmt, help=t("parties jouées par des robots", "bot games"),
                         epilog=t("exemple : loto-hall games simulate linotte --players 2 --games 200 --seed 7",
                                  "example: loto-hall games simulate linotte --players 2 --games 200 --seed 7"))
    gs.add_argument("game", choices=GAME_NAMES)
    gs.add_argument("--players", type=int, required=True)
    gs.add_argument("--games", type=int, default=100)
    gs.add_argument("--seed", type=int, default=0)
    gt = gsub.add_parser("tournament", formatter_class=fmt, help=t("une journée OSGA d'euchre aux enchères simulée", "a simulated OSGA Bid Euchre day"),
                         epilog=t("exemple : loto-hall games tournament --teams 8 --seed 1", "example: loto-hall games tournament --teams 8 --seed 1"))
    gt.add_argument("--teams", type=int, required=True)
    gt.add_argument("--seed", type=int, default=0)

    from hall.app.network import add_network_parser
    add_network_parser(sub)
    from hall.app.cli_auth import add_auth_parser
    add_auth_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from hall.errors import HallError
    from hall.refusal import Rejected
    try:
        if args.command == "serve":
            from hall.app.serve import serve
            return serve(args)
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
        if args.command == "auth":
            from hall.app import cli_auth
            return cli_auth.run(args)
    except (HallError, Rejected) as exc:
        print(f"loto-hall: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 1


if __name__ == "__main__":
    sys.exit(main())
