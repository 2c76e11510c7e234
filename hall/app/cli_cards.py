"""``loto-hall cards generate|import``."""

from __future__ import annotations

import argparse
import io
import secrets
import sys
from collections.abc import Callable
from pathlib import Path

from hall.app.lang import _
from hall.app.runtime import SECRET_FILE, Runtime
from hall.cartons.card_ids import card_code
from hall.cartons.cardbook import CardBook
from hall.cartons.planches import generate_cards
from hall.config import Config, load_config
from hall.spreadsheet import as_plain_csv


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(1, total)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} cartons")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _card_codes(config: Config | None) -> Callable[[str], str] | None:
    """Each carton's code (``hall.cartons.card_ids.card_code``) with the hall's key, read from its data folder, never made
    here (this command may run as another account); ``None`` when there is none yet."""
    key = config.data_dir / SECRET_FILE if config is not None else None
    try:
        secret = key.read_bytes() if key is not None else b""
    except OSError:
        secret = b""
    if not secret:
        print(
            _(
                "loto-hall : cartons imprimés sans leur code (« Mes cartons » le demandera, ou le QR code de la "
                "vente) : donnez --config d'une salle déjà démarrée une fois, ou imprimez-les depuis /admin"
            ),
            file=sys.stderr,
        )
        return None
    return lambda card_id: card_code(secret, card_id)


def generate(args: argparse.Namespace) -> int:
    """Write ``--count`` cartons to ``--csv`` and/or ``--pdf``."""
    if not args.csv and not args.pdf:
        print("loto-hall: indiquez --csv FICHIER et/ou --pdf FICHIER", file=sys.stderr)
        return 2
    if args.count < 1:
        print("loto-hall: --count doit être au moins 1", file=sys.stderr)
        return 2
    config = load_config(args.config) if args.config else None
    columns = config.cards.columns if config else args.columns
    seed = args.seed if args.seed is not None else secrets.token_hex(8)
    cards = generate_cards(args.count, seed=seed, series=args.series, columns=columns, start=args.start)
    if args.csv:
        CardBook(dict(cards)).write_csv(args.csv)
        print(f"{len(cards)} cartons écrits dans {args.csv} (série {args.series}, graine {seed})")
    if args.pdf:
        from hall.app.paper.sheets import write_cards_pdf

        name = config.hall.name if config else "Loto"
        code = _card_codes(config)
        write_cards_pdf(
            cards,
            args.pdf,
            hall_name=name,
            series=args.series,
            per_page=args.per_page,
            columns=columns,
            progress=_progress if sys.stderr.isatty() or args.count >= 600 else None,
            evening=config.hall.evening if config else "",
            logo=(config.hall.logo or None) if config else None,
            link=(config or Config()).hall_link("c/"),
            code=code,
        )
        print(f"planches imprimables : {args.pdf}")
    return 0


def import_cards(args: argparse.Namespace) -> int:
    """Add a CSV's cartons to the hall's card book; the whole file is refused if any line is bad."""
    config = load_config(args.config)
    text = as_plain_csv(Path(args.file).read_bytes())  # semicolons, BOM or Windows-1252: as a spreadsheet writes it
    incoming = CardBook.read_csv(
        io.StringIO(text), columns=config.cards.columns, every_column=config.cards.every_column
    )
    runtime = Runtime.open(config)
    try:
        total = runtime.hall.adopt_cards(incoming, role="admin").event.total
    finally:
        runtime.close()
    print(f"{len(incoming)} cartons ajoutés ; {total} au total dans {Path(runtime.data_dir) / 'cards.csv'}")
    return 0


def run(args: argparse.Namespace) -> int:
    return generate(args) if args.cards_command == "generate" else import_cards(args)
