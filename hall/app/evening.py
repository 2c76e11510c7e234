"""``loto-hall evening new``: the evening is over, the next one begins — the last one is archived whole, never
overwritten: its journal and voucher key move into ``<data_dir>/soirees/<date>_<heure>/`` beside its report (PDF,
CSV) and a summary that /admin lists. The service must be stopped (the data folder's lock says so); its next
start opens an empty journal and a new voucher key, so last week's vouchers can never be redeemed again.

Crash-safe: everything is written into ``soirees/.en-cours-<name>/`` first, the journal moved in last, then the
folder renamed; an interrupted archive is finished (or, before the journal moved, undone) by the next run.
"""
from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path

from hall.app.cli_report import load_report
from hall.app.runtime import JOURNAL_FILE, SECRET_FILE, lock_data_dir
from hall.config import Config
from hall.durable import fsync_dir, write_json
from hall.errors import HallError
from hall.evenings import (
    REPORT_CSV,
    REPORT_PDF,
    SUMMARY_FILE,
    EveningSummary,
    archive_dir,
    folder_name,
    past_evenings,
    unused,
)
from hall.report import EveningReport
from hall.report_csv import write_csv

PENDING = ".en-cours-"


def summary_of(report: EveningReport, name: str) -> EveningSummary:
    t = report.takings
    assert t is not None     # build_report always counts the money
    return EveningSummary(name, report.hall_name, report.first_at, report.last_at, len(report.parties),
                          t.totals["cards_sold"], t.receipts_cents, t.declared_cents, t.bought_cents, t.balance_cents,
                          report.fingerprint.hash if report.fingerprint else "")


def _taken(root: Path) -> set[str]:
    return {p.name.removeprefix(PENDING) for p in root.iterdir()} if root.is_dir() else set()


def _finish_pending(root: Path, data_dir: Path) -> list[Path]:
    """Finish the archives a power cut interrupted: renamed when the journal was moved in, else undone (the voucher
    key back in place, the reports dropped: they are made again)."""
    done = []
    for pending in sorted(root.glob(PENDING + "*")) if root.is_dir() else []:
        if not (pending / JOURNAL_FILE).exists():
            if (pending / SECRET_FILE).exists() and not (data_dir / SECRET_FILE).exists():
                (pending / SECRET_FILE).rename(data_dir / SECRET_FILE)
                fsync_dir(data_dir)
            shutil.rmtree(pending)
            continue
        target = root / unused(pending.name.removeprefix(PENDING), {p.name for p in root.iterdir()})
        pending.rename(target)
        done.append(target)
    if done:
        fsync_dir(root)
    return done


def new_evening(config: Config) -> Path | None:
    """Archive the evening of ``config``'s data folder; its folder, or ``None`` when there was nothing to archive.

    Raises ``HallError`` when the service holds the data folder."""
    data_dir = config.data_dir
    if not data_dir.is_dir():
        return None
    lock = lock_data_dir(data_dir)
    try:
        root = archive_dir(data_dir)
        _finish_pending(root, data_dir)
        try:
            report = load_report(config)     # opens and closes the journal: SQLite folds its WAL back in
        except FileNotFoundError:
            return None
        if not report.first_at:
            return None
        left = [n for n in (JOURNAL_FILE + "-wal", JOURNAL_FILE + "-shm") if (data_dir / n).exists()]
        if left:
            raise HallError(f"{data_dir}: {', '.join(left)} encore là : le journal n'est pas refermé, rien n'est "
                            "archivé (démarrez puis arrêtez le service, et recommencez)")
        name = folder_name(report.first_at, config.hall.timezone, _taken(root))
        pending = root / (PENDING + name)
        pending.mkdir(parents=True)
        write_csv(report, pending / REPORT_CSV)
        from hall.app.paper.report_pdf import write_report_pdf
        write_report_pdf(report, pending / REPORT_PDF, config.hall.timezone)
        write_json(pending / SUMMARY_FILE, summary_of(report, name).to_json(), mode=0o644, indent=1)
        for moved in (SECRET_FILE, JOURNAL_FILE):     # the journal last: once it is in, the archive is whole
            if (data_dir / moved).exists():
                (data_dir / moved).rename(pending / moved)
        fsync_dir(data_dir)
        fsync_dir(pending)                           # a rename is two folders' news
        target = root / name
        pending.rename(target)
        fsync_dir(root)
        return target
    finally:
        os.close(lock)


def run(args: argparse.Namespace) -> int:
    """``loto-hall evening new|list [--config FILE] [--data-dir DIR]``."""
    from hall.config import load_config
    from hall.sales import eur
    overrides = {"hall": {"data_dir": args.data_dir}} if getattr(args, "data_dir", None) else None
    config = load_config(args.config, overrides)
    if args.evening_command == "new":
        folder = new_evening(config)
        print(f"soirée archivée : {folder}" if folder else "rien à archiver : aucune soirée dans ce dossier")
        return 0
    for e in past_evenings(config.data_dir):
        print(f"{e.name}  {e.parties} partie(s)  {e.cards_sold} cartons  recette {eur(e.receipts_cents)}  "
              f"solde {eur(e.balance_cents)}")
    return 0
