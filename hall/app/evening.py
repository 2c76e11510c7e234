"""``loto-hall evening new``: the evening is over, the next one begins — the last one is archived whole, never
overwritten: its journal and voucher key move into ``<data_dir>/soirees/<date>_<heure>/`` beside its report (PDF,
CSV) and a summary that /admin lists. The service must be stopped (the data folder's lock says so); its next
start finds a new journal holding only the hall's own settings given on /admin (the price tiers, the programme,
the phones' help, the PINs changed: ``hall.record.evenings.hall_settings``) and makes a new voucher key, so last week's
vouchers can never be redeemed again. A demonstration's folder (``serve --demo``: its cartons are the demo's) is
never archived: it would count as a loto of the year on the tax office's page.

Crash-safe: everything is written into ``soirees/.en-cours-<name>/`` first, the next journal beside the data
folder's as ``journal.sqlite.suivante``, the journal moved in last, the next one put in its place, then the folder
renamed; an interrupted archive is finished (or, before the journal moved, undone) by the next run.
"""

from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path

from hall.app.cli_report import report_of
from hall.app.demo import is_demo_folder
from hall.app.lang import _, n_
from hall.app.runtime import JOURNAL_FILE, SECRET_FILE, lock_data_dir
from hall.config import Config
from hall.errors import HallError
from hall.money.report import EveningReport
from hall.money.report_csv import write_csv
from hall.record.durable import fsync_dir, write_json
from hall.record.evenings import (
    CARRIED_ROLE,
    REPORT_CSV,
    REPORT_PDF,
    SUMMARY_FILE,
    EveningSummary,
    archive_dir,
    folder_name,
    hall_settings,
    past_evenings,
    unused,
)
from hall.record.journal import Journal, owned_records
from hall.sources import utc_now

PENDING = ".en-cours-"
NEXT_JOURNAL = JOURNAL_FILE + ".suivante"  # the next evening's journal, until the last one has moved out


def summary_of(report: EveningReport, name: str) -> EveningSummary:
    t = report.takings
    assert t is not None  # build_report always counts the money
    return EveningSummary(
        name,
        report.hall_name,
        report.first_at,
        report.last_at,
        len(report.parties),
        t.totals["cards_sold"],
        t.receipts_cents,
        t.given_cents,
        t.bought_cents,
        t.balance_cents,
        report.fingerprint.hash if report.fingerprint else "",
    )


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
    following = data_dir / NEXT_JOURNAL
    if following.exists():  # cut after the journal moved out: the next one takes its place; else dropped
        if (data_dir / JOURNAL_FILE).exists():
            following.unlink()
        else:
            following.rename(data_dir / JOURNAL_FILE)
        fsync_dir(data_dir)
    return done


def _next_journal(config: Config, records: list, data_dir: Path) -> Path | None:
    """The next evening's journal, written beside the data folder's: the hall's own settings, carried."""
    settings = hall_settings(
        records, len(config.programme), lambda k: (config.partie_spec(k).lots, config.partie_spec(k).consolation)
    )
    following = data_dir / NEXT_JOURNAL
    for stale in (following, data_dir / (NEXT_JOURNAL + "-wal"), data_dir / (NEXT_JOURNAL + "-shm")):
        stale.unlink(missing_ok=True)
    if not settings:
        return None
    journal = Journal(following)
    try:
        journal.append_all(settings, CARRIED_ROLE, utc_now())
    finally:
        journal.close()
    if (data_dir / (NEXT_JOURNAL + "-wal")).exists():
        raise HallError(
            _("%(path)s : le journal de la soirée suivante n'est pas refermé ; rien n'est archivé")
            % {"path": following}
        )
    return following


def new_evening(config: Config) -> Path | None:
    """Archive the evening of ``config``'s data folder; its folder, or ``None`` when there was nothing to archive.

    Raises ``HallError`` when the service holds the data folder, or when the folder is a demonstration's."""
    data_dir = config.data_dir
    if not data_dir.is_dir():
        return None
    try:
        lock = lock_data_dir(data_dir)
    except HallError:
        raise HallError(
            _(
                "la salle tourne : le service loto-hall tient le dossier %(path)s. Arrêtez-le d'abord "
                "(sudo systemctl stop loto-hall), puis relancez « loto-hall evening new » ; rien n'a été "
                "archivé."
            )
            % {"path": data_dir}
        ) from None
    try:
        root = archive_dir(data_dir)
        _finish_pending(root, data_dir)
        path = data_dir / JOURNAL_FILE
        if not path.is_file():
            return None
        records = owned_records(path)  # opened as its writer (the lock is held): SQLite folds its WAL back in
        report = report_of(config, records)
        if not report.first_at:
            return None
        if is_demo_folder(data_dir, config.cards.columns):
            raise HallError(
                _(
                    "%(path)s est le dossier d'une démonstration (loto-hall serve --demo : ses cartons sont "
                    "ceux de la démo) : une démonstration ne s'archive pas, elle compterait parmi les lotos "
                    "de l'année pour le service des impôts. Rien n'a été archivé ; effacez ce dossier pour "
                    "repartir de zéro."
                )
                % {"path": data_dir}
            )
        left = [n for n in (JOURNAL_FILE + "-wal", JOURNAL_FILE + "-shm") if (data_dir / n).exists()]
        if left:
            raise HallError(
                _(
                    "%(path)s : %(files)s encore là : le journal n'est pas refermé, rien n'est archivé "
                    "(démarrez puis arrêtez le service, et recommencez)"
                )
                % {"path": data_dir, "files": ", ".join(left)}
            )
        name = folder_name(report.first_at, config.hall.timezone, _taken(root))
        pending = root / (PENDING + name)
        pending.mkdir(parents=True)
        write_csv(report, pending / REPORT_CSV)
        from hall.app.paper.report_pdf import write_report_pdf

        write_report_pdf(report, pending / REPORT_PDF, config.hall.timezone)
        write_json(pending / SUMMARY_FILE, summary_of(report, name).to_json(), mode=0o644, indent=1)
        following = _next_journal(config, records, data_dir)
        for moved in (SECRET_FILE, JOURNAL_FILE):  # the journal last: once it is in, the archive is whole
            if (data_dir / moved).exists():
                (data_dir / moved).rename(pending / moved)
        if following is not None:  # the next evening starts with the hall's own settings
            following.rename(data_dir / JOURNAL_FILE)
        fsync_dir(data_dir)
        fsync_dir(pending)  # a rename is two folders' news
        target = root / name
        pending.rename(target)
        fsync_dir(root)
        return target
    finally:
        os.close(lock)


def run(args: argparse.Namespace) -> int:
    """``loto-hall evening new|list [--config FILE] [--data-dir DIR]``."""
    from hall.cartons.sales import eur
    from hall.config import load_config

    overrides = {"hall": {"data_dir": args.data_dir}} if getattr(args, "data_dir", None) else None
    config = load_config(args.config, overrides)
    if args.evening_command == "new":
        folder = new_evening(config)
        print(
            _(
                "soirée archivée : %(path)s ; la suivante commence avec les réglages de la salle (tarifs, programme, "
                "PIN)"
            )
            % {"path": folder}
            if folder
            else _(
                "rien à archiver : aucune soirée dans %(path)s (une démonstration, loto-hall serve --demo sans "
                "--data-dir, garde la sienne dans un dossier temporaire effacé à l'arrêt)"
            )
            % {"path": config.data_dir}
        )
        return 0
    evenings = past_evenings(config.data_dir)
    if not evenings:
        print(
            _(
                "aucune soirée archivée dans %(path)s (« loto-hall evening new », service arrêté, archive la soirée "
                "finie)"
            )
            % {"path": archive_dir(config.data_dir)}
        )
        return 0
    for e in evenings:
        print(
            "  ".join(
                (
                    e.name,
                    n_("%(n)s partie", "%(n)s parties", e.parties) % {"n": e.parties},
                    n_("%(n)s carton", "%(n)s cartons", e.cards_sold) % {"n": e.cards_sold},
                    _("recette %(eur)s") % {"eur": eur(e.receipts_cents)},
                    _("solde %(eur)s") % {"eur": eur(e.balance_cents)},
                )
            )
        )
    return 0
