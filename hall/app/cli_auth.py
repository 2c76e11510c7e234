"""``loto-hall auth unlock [--config FILE] [--data-dir DIR] [--role ROLE]``: a way in for a new console, from the
Pi itself, whatever strangers on the Wi-Fi are doing.

The command prints a one-time enrolment code (``display/enrolment.py``), valid 15 minutes, for the admin by default:
typed on the new tablet's login page (« Nouvelle tablette ? Code d'ajout »), it makes that tablet a known console of
the role, logged in. The hall gets only the code's keyed digest, through ``login_unlock.json`` in its data folder,
and applies the request at its next attempt (or at start when it is stopped): it also clears the counts nobody but
a console's holder spends (each known console's own wrong PINs). It clears none of the strangers' counts: that
would only give the guessing fresh tries, and strangers would lock them again at once. Open sessions are untouched.

Run as root (``sudo``), the command never acts on a path the hall's account could swap: as root it wants
``--config`` or ``--data-dir`` (never the ``./loto-hall.toml`` of whatever folder it runs in), it opens the data
folder once and works relative to that descriptor, drops to the folder's owner (the hall's account) before
touching anything in it, and sets the file's mode through its descriptor (never ``chmod`` by name).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
from pathlib import Path

from hall.app.cli_where import add_where
from hall.app.lang import _

UNLOCK_FILE = "login_unlock.json"  # display/login_guard.py reads it
WEB_KEY = "web.key"  # display/auth.py's secret
ROLE_CHOICES = ("admin", "speaker", "controller", "desk")


def add_auth_parser(subparsers: argparse._SubParsersAction) -> None:
    """``loto-hall auth unlock``."""
    fmt = argparse.RawDescriptionHelpFormatter
    auth = subparsers.add_parser("auth", help=_("codes PIN : faire entrer une nouvelle console depuis le Pi"))
    asub = auth.add_subparsers(dest="auth_command", required=True)
    unlock = asub.add_parser(
        "unlock",
        formatter_class=fmt,
        help=_("affiche un code d'ajout d'une console, valable 15 minutes (sessions ouvertes gardées)"),
        description=_(
            "Écrit une demande de déblocage dans le dossier des données et affiche un code d'ajout à "
            "usage unique : tapé sur la page de connexion d'une nouvelle tablette, il la fait entrer, "
            "quoi que fassent des inconnus sur le Wi-Fi. La salle en marche l'applique au prochain essai, "
            "une salle arrêtée à son démarrage."
        ),
        epilog=_(
            "exemples :\n  sudo loto-hall auth unlock --config /etc/loto-hall/config.toml\n  loto-hall "
            "auth unlock --data-dir ./data --role speaker"
        ),
    )
    add_where(unlock)
    unlock.add_argument(
        "--role", choices=ROLE_CHOICES, default="admin", help=_("rôle de la nouvelle console (défaut : admin)")
    )


def _secret(folder_fd: int) -> bytes:
    """The hall's web secret, read (or made, as the hall makes it: 0600, fsync'd) relative to the folder's descriptor,
    never through a link."""
    for _attempt in range(3):
        try:
            fd = os.open(WEB_KEY, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=folder_fd)
        except FileNotFoundError:
            pass
        else:
            with os.fdopen(fd, "rb") as fh:
                return fh.read()
        try:
            fd = os.open(WEB_KEY, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=folder_fd)
        except FileExistsError:
            continue  # the hall made it meanwhile: read that one
        with os.fdopen(fd, "wb") as fh:
            fh.write(secrets.token_bytes(32))
            fh.flush()
            os.fsync(fh.fileno())
        os.fsync(folder_fd)
    raise OSError(f"{WEB_KEY} illisible")


def _write_request(folder_fd: int, body: dict) -> None:
    """``login_unlock.json`` replaced at once, through descriptors only: created exclusively without following a
    link, mode set on the descriptor, fsync'd, renamed within the folder, the folder fsync'd."""
    tmp = f".{UNLOCK_FILE}.{secrets.token_hex(8)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=folder_fd)
    try:
        os.fchmod(fd, 0o644)  # readable by the hall whoever wrote it, whatever the umask
        os.write(fd, json.dumps(body).encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, UNLOCK_FILE, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
    os.fsync(folder_fd)


def request_unlock(folder: Path, role: str = "admin", code: str | None = None) -> tuple[Path, str]:
    """Write an unlock request for the hall serving ``folder``; returns the file and the enrolment code.

    As root, a child process drops to the folder's owner first and does everything there: nothing the hall's
    account swaps in the folder (a link in place of the temporary file) can make root write, chmod or chown a file
    of root's."""
    from display.enrolment import PI_CODE_TTL_S, code_digest, new_code

    code = code or new_code()
    folder_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        owner = os.fstat(folder_fd)

        def write() -> None:
            digest = code_digest(_secret(folder_fd), code)
            _write_request(
                folder_fd,
                {
                    "nonce": secrets.token_hex(16),
                    "at": time.time(),
                    "enrol": {"digest": digest, "role": role, "until": time.time() + PI_CODE_TTL_S},
                },
            )

        if os.geteuid() == 0 and owner.st_uid != 0:
            pid = os.fork()
            if pid == 0:  # the child: the folder owner's rights only, then write
                status = 1
                try:
                    os.setgroups([])
                    os.setgid(owner.st_gid)
                    os.setuid(owner.st_uid)
                    write()
                    status = 0
                except BaseException as exc:  # the child reports and leaves, whatever happened
                    print(f"loto-hall: {exc}", file=sys.stderr)
                finally:
                    os._exit(status)
            _, status = os.waitpid(pid, 0)
            if os.waitstatus_to_exitcode(status) != 0:
                raise PermissionError(13, os.strerror(13))
        else:
            write()
    finally:
        os.close(folder_fd)
    return Path(folder) / UNLOCK_FILE, code


def run(args: argparse.Namespace) -> int:
    from display.enrolment import PI_CODE_TTL_S, shown_code
    from hall.config import load_config

    if os.geteuid() == 0 and not args.config and not args.data_dir:
        # as root, never a ./loto-hall.toml of whatever folder this runs in
        print(_("loto-hall : en root, indiquez --config FICHIER (ou --data-dir DOSSIER)"), file=sys.stderr)
        return 2
    if args.data_dir:
        folder = Path(args.data_dir)
    else:
        folder = load_config(args.config).data_dir
    if not folder.is_dir():
        print(_("loto-hall : pas de dossier de données ici : %(folder)s") % {"folder": folder}, file=sys.stderr)
        return 2
    try:
        path, code = request_unlock(folder, args.role)
    except OSError as exc:
        print(
            _("loto-hall : impossible d'écrire dans %(folder)s (%(strerror)s) : lancez-la avec sudo")
            % {"folder": folder, "strerror": exc.strerror},
            file=sys.stderr,
        )
        return 2
    print(_("Déblocage demandé (%(path)s).") % {"path": path})
    print(
        _("Code d'ajout d'une console (%(role)s), valable %(minutes)s minutes, une seule fois : %(code)s")
        % {"role": args.role, "minutes": int(PI_CODE_TTL_S // 60), "code": shown_code(code)}
    )
    print(
        _(
            "Sur la nouvelle tablette : ouvrez une page de la salle (/admin, /speaker…), touchez « Nouvelle "
            "tablette ? Code d'ajout » et tapez ce code."
        )
    )
    return 0
