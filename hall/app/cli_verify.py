"""``loto-hall verify [--config FILE | --data-dir DIR] [--evening NAME] [--fingerprint FP]``: check the hash chain of
the evening's journal (the live one, or an archived evening's) and print its fingerprint.

Exit 0 when every record matches (and, with ``--fingerprint``, a record of the chain has the fingerprint given:
the journal then is the journal now, perhaps with records written since); 1 naming the first record that does not
match, or when no record has the fingerprint (records cut off the end, or the chain rewritten); 2 when there is no
journal to check or the fingerprint cannot be read. It opens the journal read-only (hall/record/reading.py): it
reads while the hall serves (SQLite's WAL), on a copy or a read-only stick, and never migrates or chains what it
judges — a journal of another schema version is named (exit 1 when it was changed by hand, 2 when it is from
before the chain or from a later loto-hall), and a journal the hall chained at its first open says when and by
which version. docs/record.md explains it.
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
from hall.record.journal import SCHEMA_VERSION
from hall.record.reading import Chaining, Shape


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
    if verdict.problem == "duplicate_key":
        return (
            _(
                "enregistrement n° %(seq)s (%(type)s, %(at)s) : une clé y est écrite deux fois, il se lit de deux "
                "façons (modifié après coup)"
            )
            % n
        )
    if verdict.problem == "not_canonical":
        return (
            _(
                "enregistrement n° %(seq)s (%(type)s, %(at)s) : son texte n'est pas écrit comme la salle l'écrit "
                "(espaces, échappements ou nombres réécrits : modifié après coup)"
            )
            % n
        )
    return _(
        "aucun enregistrement n'a cette empreinte : des enregistrements ont été retirés de la fin du journal "
        "(il s'arrête au n° %(last)s) ou la chaîne a été réécrite"
    ) % {"last": verdict.last_seq}


def schema_problem(shape: Shape) -> str:
    """The sentence naming what a journal's schema is, when it is not this version's (``Shape.problem``)."""
    n = {"version": shape.version, "ours": SCHEMA_VERSION}
    if shape.problem == "pre_chain":
        return (
            _(
                "ce journal est d'avant la chaîne d'empreintes (schéma %(version)s) : il n'a pas d'empreintes à "
                "vérifier ; seule la salle le met à jour, à sa première ouverture (loto-hall serve), et l'écrit dans "
                "le journal"
            )
            % n
        )
    if shape.problem == "newer":
        return (
            _(
                "ce journal est d'une version plus récente de loto-hall (schéma %(version)s, celle-ci lit le "
                "%(ours)s) : vérifiez-le avec celle-là"
            )
            % n
        )
    if shape.problem == "version":
        return (
            _(
                "la version du schéma du journal a été changée à la main (%(version)s au lieu de %(ours)s) : ce "
                "journal a déjà ses empreintes, il ne se met pas à jour"
            )
            % n
        )
    if shape.problem == "no_events":
        return _("la table des enregistrements (events) manque : le fichier a été vidé ou n'est pas un journal")
    if shape.problem == "columns":
        return _("la table des enregistrements n'a plus les colonnes que la salle écrit : le fichier a été modifié")
    return _("la table « chained » du journal manque : le fichier a été modifié hors de la salle")


def chaining_note(c: Chaining, timezone: str) -> str:
    """The note that a journal's first records were chained after the fact."""
    if c.seq:
        return _(
            "Note : les enregistrements n° 1 à %(count)s, écrits avant la chaîne d'empreintes, ont été chaînés à "
            "l'ouverture le %(when)s par la version %(version)s de loto-hall (enregistrement n° %(seq)s) : la "
            "chaîne ne garantit rien d'eux avant cette date."
        ) % {"count": c.records, "when": _when(c.at, timezone), "version": c.version, "seq": c.seq}
    return _(
        "Note : journal d'avant la chaîne d'empreintes, chaîné le %(when)s à sa première ouverture ; ses "
        "%(count)s premiers enregistrements n'étaient pas protégés avant cette date."
    ) % {"when": _when(c.at, timezone), "count": c.records}


def run(args: argparse.Namespace) -> int:
    from hall.config import load_config
    from hall.record.reading import verify_file

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
        found = verify_file(path, fingerprint)
    except FileNotFoundError:
        print(_("loto-hall : pas de journal de soirée ici : %(path)s") % {"path": path}, file=sys.stderr)
        return 2
    except HallError as exc:
        print(f"loto-hall: {exc}", file=sys.stderr)
        return 2
    print(_("Journal : %(path)s") % {"path": path})
    if found.shape.problem in ("pre_chain", "newer"):
        print(_("Rien à vérifier : %(why)s.") % {"why": schema_problem(found.shape)})
        return 2
    if found.shape.problem is not None:
        print(_("ÉCHEC : %(why)s.") % {"why": schema_problem(found.shape)})
    if found.verdict is None:
        return 1
    for c in found.chained:
        print(chaining_note(c, timezone))
    said = _said(found.verdict, timezone, noted)
    return 1 if found.shape.problem is not None else said


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
