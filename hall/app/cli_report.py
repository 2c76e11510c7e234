"""``loto-hall report [--config FILE] [--data-dir DIR] [--pdf OUT] [--csv OUT] [--xlsx OUT] [--lang fr|en]``: the
evening's report, its three files in one language (the hall's unless ``--lang`` says).

Reads the data folder's journal without changing anything (no secret made, no event appended, the journal opened
read-only: hall/record/reading.py), so it can run while the hall is serving: SQLite's WAL lets a second reader see
every committed event. A journal of another schema version is named, never brought up.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hall.app.cli_verify import schema_problem
from hall.app.lang import _, n_
from hall.app.runtime import JOURNAL_FILE
from hall.config import Config, load_config
from hall.door.accounts import other_accounts
from hall.events import Record
from hall.loto.partie import Evening
from hall.money.report import EveningReport, build_report, with_year, written_in
from hall.money.report_csv import write_csv
from hall.record.reading import Unreadable, read_records


def journal_records(config: Config, journal_path: Path | None = None) -> list[Record]:
    """The records of the journal in ``config``'s data folder (or at ``journal_path``), read-only;
    ``FileNotFoundError`` when there is none, ``Unreadable`` when it is not at this version's schema."""
    return read_records(journal_path or Path(config.hall.data_dir) / JOURNAL_FILE)


def report_of(config: Config, records: list[Record]) -> EveningReport:
    """The report of the evening whose journal holds ``records``."""
    evening = Evening(config.rules.false_claim)
    for record in records:
        evening.apply(record.event, record.seq)
    report = build_report(
        evening,
        records,
        config.hall.name,
        language=config.hall.language,
        timezone=config.hall.timezone,
        accounts=other_accounts(records),
    )
    return with_year(report, config.data_dir)


def load_report(config: Config, journal_path: Path | None = None) -> EveningReport:
    """The report of the journal in ``config``'s data folder (or at ``journal_path``); ``FileNotFoundError`` when
    there is none."""
    return report_of(config, journal_records(config, journal_path))


def run(args: argparse.Namespace) -> int:
    wanted = [getattr(args, k, None) for k in ("pdf", "csv", "xlsx")]
    if not any(wanted):
        print(
            "loto-hall: "
            + _("indiquez au moins un fichier à écrire : --pdf, --csv ou --xlsx (loto-hall report --help)"),
            file=sys.stderr,
        )
        return 2
    overrides = {"hall": {"data_dir": args.data_dir}} if getattr(args, "data_dir", None) else None
    config = load_config(args.config, overrides)
    try:
        report = written_in(load_report(config), getattr(args, "lang", None))  # the three files in one language
    except Unreadable as exc:
        print("loto-hall: " + schema_problem(exc.shape), file=sys.stderr)
        return 2
    except FileNotFoundError as exc:
        print(
            "loto-hall: "
            + _(
                "pas de journal de soirée ici : %(path)s (le dossier des données est celui de la "
                "configuration, ou --data-dir)"
            )
            % {"path": exc},
            file=sys.stderr,
        )
        return 2
    if args.csv:
        write_csv(report, args.csv)
        print(_("rapport CSV : %(path)s") % {"path": args.csv})
    if getattr(args, "xlsx", None):
        from hall.app.paper.report_xlsx import write_report_xlsx

        write_report_xlsx(report, args.xlsx)
        print(_("rapport tableur : %(path)s") % {"path": args.xlsx})
    if args.pdf:
        from hall.app.paper.report_pdf import write_report_pdf

        write_report_pdf(report, args.pdf, config.hall.timezone)
        print(_("rapport PDF : %(path)s") % {"path": args.pdf})
    t = report.totals
    print(
        ", ".join(
            (
                n_("%(n)s partie", "%(n)s parties", t["parties"]) % {"n": t["parties"]},
                n_("%(n)s boule", "%(n)s boules", t["balls_drawn"]) % {"n": t["balls_drawn"]},
                n_("%(n)s lot donné", "%(n)s lots donnés", t["lots_awarded"]) % {"n": t["lots_awarded"]},
                n_("%(n)s bon émis", "%(n)s bons émis", t["vouchers_issued"]) % {"n": t["vouchers_issued"]},
            )
        )
        + _(" dont %(n)s remis") % {"n": t["vouchers_redeemed"]}
    )
    return 0
