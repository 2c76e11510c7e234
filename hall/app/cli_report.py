"""``loto-hall report [--config FILE] [--data-dir DIR] --pdf OUT [--csv OUT]``: the evening's report.

Reads the data folder's journal without changing anything (no secret made, no event appended), so it can
run while the hall is serving: SQLite's WAL lets a second reader see every committed event.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hall.app.runtime import JOURNAL_FILE
from hall.config import Config, load_config
from hall.journal import Journal
from hall.partie import Evening
from hall.report import EveningReport, build_report, with_year
from hall.report_csv import write_csv


def load_report(config: Config, journal_path: Path | None = None) -> EveningReport:
    """The report of the journal in ``config``'s data folder (or at ``journal_path``); ``FileNotFoundError`` when
    there is none."""
    path = journal_path or Path(config.hall.data_dir) / JOURNAL_FILE
    if not path.is_file():
        raise FileNotFoundError(path)
    journal = Journal(path)
    try:
        records = list(journal.records())
    finally:
        journal.close()
    evening = Evening(config.rules.false_claim)
    for record in records:
        evening.apply(record.event, record.seq)
    report = build_report(evening, records, config.hall.name, language=config.hall.language,
                          timezone=config.hall.timezone)
    return with_year(report, config.data_dir)


def run(args: argparse.Namespace) -> int:
    if not getattr(args, "pdf", None) and not getattr(args, "csv", None):
        print("loto-hall: indiquez --pdf FICHIER et/ou --csv FICHIER", file=sys.stderr)
        return 2
    overrides = {"hall": {"data_dir": args.data_dir}} if getattr(args, "data_dir", None) else None
    config = load_config(args.config, overrides)
    try:
        report = load_report(config)
    except FileNotFoundError as exc:
        print(f"loto-hall: pas de journal de soirée ici : {exc}", file=sys.stderr)
        return 2
    if args.csv:
        write_csv(report, args.csv)
        print(f"rapport CSV : {args.csv}")
    if args.pdf:
        from hall.app.paper.report_pdf import write_report_pdf
        write_report_pdf(report, args.pdf, config.hall.timezone)
        print(f"rapport PDF : {args.pdf}")
    t = report.totals
    print(f"{t['parties']} partie(s), {t['balls_drawn']} boules, {t['lots_awarded']} lot(s) gagné(s), "
          f"{t['vouchers_issued']} bon(s) émis dont {t['vouchers_redeemed']} remis")
    return 0
