"""``loto-hall verify [--config FILE | --data-dir DIR] [--evening NAME] [--fingerprint FP]``: check the hash chain of
the evening's journal (the live one, or an archived evening's) and print its fingerprint.

Exit 0 when every record matches (and, with ``--fingerprint``, a record of the chain has the fingerprint given:
the journal then is the journal now, perhaps with records written since); 1 naming the first record that does not
match, or when no record has the fingerprint (records cut off the end, or the chain rewritten); 2 when there is no
journal to check or the fingerprint cannot be read. It reads while the hall serves (SQLite's WAL); a journal from
before the chain is chained at this first open and the command says so. docs/record.md explains it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hall.app.cli_where import add_where
from hall.app.lang import _
from hall.app.runtime import JOURNAL_FILE
from hall.errors import HallError
from hall.record import chain
from hall.record.evenings import NAME, archive_dir, evening_summary, local


def add_verify_parser(subparsers: argparse._SubParsersAction) -> None:
    """``loto-hall verify``."""
    fmt = argparse.RawDescriptionHelpFormatter
    verify = subparsers.add_parser(
        "verify",
        formatter_class=fmt,
        help=_("vérifie que le journal de la soirée n'a pas été modifié et donne son empreinte"),
        description=_(
            "Recalcule la chaîne d'empreintes du journal : chaque enregistrement porte l'empreinte du "
            "précédent et la sienne. Un enregistrement modifié, supprimé ou déplacé est nommé ; avec "
            "--fingerprint (l'empreinte imprimée sur la copie du bureau ou le rapport), des "
            "enregistrements retirés de la fin se voient aussi."
        ),
        epilog=_(
            "exemples :\n  loto-hall verify --config /etc/loto-hall/config.toml\n  loto-hall verify "
            '--data-dir ./data --evening 2026-11-21_20h15 --fingerprint "3F2A 91C0 7BE4 0D15 22AA"'
        ),
    )
    where = verify.add_mutually_exclusive_group()
    add_where(where)
    verify.add_argument(
        "--evening",
        metavar=_("NOM"),
        help=_("une soirée archivée (loto-hall evening list), au lieu de la soirée en cours"),
    )
    verify.add_argument(
        "--fingerprint",
        metavar=_("EMPREINTE"),
        help=_("l'empreinte imprimée sur papier (16 caractères au moins, espaces permis)"),
    )


def _when(iso: str, timezone: str) -> str:
    moment = local(iso, timezone)
    return moment.strftime(_("%d/%m/%Y à %H:%M")) if moment else iso


def failure(verdict: chain.Verdict, timezone: str) -> str:
    """The sentence naming what does not match."""
    at = _when(verdict.at, timezone) if verdict.at else ""
    n = {"seq": verdict.seq, "type": verdict.type, "at": at}
    if verdict.problem == "changed":
        return (
            _(
                "enregistrement n° %(seq)s (%(type)s, %(at)s) : son contenu n'est plus celui qui a été écrit "
                "(modifié après coup)"
            )
            % n
        )
    if verdict.problem == "unlinked":
        return (
            _(
                "enregistrement n° %(seq)s (%(type)s, %(at)s) : il ne suit pas l'enregistrement d'avant (un "
                "enregistrement supprimé, inséré ou déplacé)"
            )
            % n
        )
    if verdict.problem == "missing":
        return _("enregistrement n° %(seq)s : le n° %(expected)s manque (supprimé)") % {
            "seq": verdict.seq,
            "expected": verdict.expected_seq,
        }
    if verdict.problem == "unreadable":
        return _("enregistrement n° %(seq)s (%(type)s) : illisible") % n
    return _(
        "aucun enregistrement n'a cette empreinte : des enregistrements ont été retirés de la fin du journal "
        "(il s'arrête au n° %(last)s) ou la chaîne a été réécrite"
    ) % {"last": verdict.last_seq}


def run(args: argparse.Namespace) -> int:
    from hall.config import load_config
    from hall.record.journal import verify_file

    overrides = {"hall": {"data_dir": args.data_dir}} if args.data_dir else None
    config = load_config(args.config, overrides)
    timezone = config.hall.timezone
    if _refused(args):
        return 2
    path = (archive_dir(config.data_dir) / args.evening if args.evening else Path(config.data_dir)) / JOURNAL_FILE
    fingerprint, noted = args.fingerprint, False
    if fingerprint is None and args.evening:  # the fingerprint noted when it was archived (soiree.json)
        summary = evening_summary(config.data_dir, args.evening)
        fingerprint = summary.fingerprint if summary is not None and summary.fingerprint else None
        noted = fingerprint is not None
    try:
        verdict, chained = verify_file(path, fingerprint)
    except FileNotFoundError:
        print(_("loto-hall : pas de journal de soirée ici : %(path)s") % {"path": path}, file=sys.stderr)
        return 2
    except HallError as exc:
        print(f"loto-hall: {exc}", file=sys.stderr)
        return 2
    print(_("Journal : %(path)s") % {"path": path})
    if chained is not None:
        print(
            _(
                "Note : journal d'avant la chaîne d'empreintes, chaîné le %(when)s à sa première ouverture ; ses "
                "%(count)s premiers enregistrements n'étaient pas protégés avant cette date."
            )
            % {"when": _when(chained[0], timezone), "count": chained[1]}
        )
    return _said(verdict, timezone, noted)


def _refused(args: argparse.Namespace) -> bool:
    """Whether an evening's name or a fingerprint typed is refused before anything is read (said on stderr)."""
    if args.evening is not None and not NAME.fullmatch(args.evening):
        print(
            _("loto-hall : « %(name)s » n'est pas un nom de soirée (loto-hall evening list)")
            % {"name": args.evening[:40]},
            file=sys.stderr,
        )
        return True
    if args.fingerprint is not None and chain.typed(args.fingerprint) is None:
        print(
            _("loto-hall : empreinte illisible : %(min)s caractères hexadécimaux au moins (0-9, A-F), espaces permis")
            % {"min": chain.MIN_TYPED},
            file=sys.stderr,
        )
        return True
    return False


def _said(verdict: chain.Verdict, timezone: str, noted: bool) -> int:
    """Say ``verdict``: the chain broken (1), or intact and then what became of the fingerprint (0, or 1 when it
    names no record)."""
    if verdict.problem not in (None, "fingerprint_missing"):
        print(_("ÉCHEC : %(why)s.") % {"why": failure(verdict, timezone)})
        if verdict.records:
            print(
                _("Les %(count)s enregistrements d'avant sont intacts ; empreinte du dernier : %(fp)s")
                % {"count": verdict.records, "fp": chain.shown(verdict.fingerprint)}
            )
        return 1
    print(_("%(count)s enregistrement(s), chaîne intacte.") % {"count": verdict.records})
    if verdict.records:
        print(
            _("Empreinte : %(fp)s (enregistrement n° %(seq)s, %(when)s)")
            % {
                "fp": chain.shown(verdict.fingerprint),
                "seq": verdict.last_seq,
                "when": _when(verdict.last_at, timezone),
            }
        )
    if verdict.problem == "fingerprint_missing":
        print(
            _("ÉCHEC : %(why)s.") % {"why": failure(verdict, timezone)}
            + (" " + _("(empreinte notée à l'archivage de la soirée)") if noted else "")
        )
        return 1
    _say_match(verdict, noted)
    return 0


def _say_match(verdict: chain.Verdict, noted: bool) -> None:
    """Where the fingerprint (noted at the archiving, or typed) stands in the journal, when one was given."""
    if noted:
        print(
            _(
                "L'empreinte notée à l'archivage de la soirée est celle de son dernier enregistrement : rien n'a été "
                "retiré de la fin depuis."
            )
            if verdict.after == 0
            else _(
                "L'empreinte notée à l'archivage est celle de l'enregistrement n° %(seq)s : %(after)s "
                "enregistrement(s) ajouté(s) depuis l'archivage."
            )
            % {"seq": verdict.matched_seq, "after": verdict.after}
        )
    elif verdict.matched_seq is not None:
        print(
            _(
                "L'empreinte donnée est celle de l'enregistrement n° %(seq)s : le journal d'alors est intact ; "
                "%(after)s enregistrement(s) écrit(s) depuis."
            )
            % {"seq": verdict.matched_seq, "after": verdict.after}
        )
