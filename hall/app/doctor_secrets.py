"""``loto-hall doctor``: the hall's secrets are its own — each file that holds a key, a PIN or a session is a
regular file (never a link), of the data folder's owner, that no other account may read; the folder itself is
closed to others; the config file (it holds the PINs) is root's, readable by the hall's group at most.

Each finding says what to type to put it right. The files are looked at with ``lstat``: a link is a finding,
never followed.
"""

from __future__ import annotations

import os
import shlex
import stat
from collections.abc import Sequence
from pathlib import Path

from hall.app.findings import Finding
from hall.app.lang import _

# every file of the data folder that holds a secret: the keys (the web's, the vouchers', the queue's), the PINs,
# their checks, the live sessions, the guard's counts, the enrolment codes used, the TLS key
SECRET_FILES = (
    "web.key",
    "voucher.key",
    "queue.key",
    "pins.json",
    "pin_checks.json",
    "sessions.json",
    "login_guard.json",
    "enrolments.json",
    "tls-key.pem",
)


def _mode(st: os.stat_result) -> str:
    return format(stat.S_IMODE(st.st_mode), "04o")


def folder_finding(folder: Path) -> Finding:
    name = _("Dossier des données")
    try:
        st = os.lstat(folder)
    except OSError as exc:
        return Finding(name, False, f"{folder} : {exc.strerror}", "")
    quoted = shlex.quote(str(folder))
    if not stat.S_ISDIR(st.st_mode):
        return Finding(name, False, _("%(folder)s n'est pas un dossier (un lien ?)") % {"folder": folder}, "")
    if st.st_mode & 0o007:
        return Finding(
            name,
            False,
            _("%(folder)s est ouvert à tous (mode %(mode)s)") % {"folder": folder, "mode": _mode(st)},
            f"sudo chmod o-rwx {quoted}",
        )
    return Finding(name, True, f"{folder} ({_mode(st)})")


def file_findings(folder: Path, names: Sequence[str] = SECRET_FILES) -> list[Finding]:
    """One finding per secret file present in ``folder`` (an absent one is made by the hall when it needs it)."""
    try:
        owner = os.lstat(folder).st_uid
    except OSError:
        return []
    found = []
    for file in names:
        path = folder / file
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            found.append(Finding(file, False, exc.strerror or "?"))
            continue
        quoted = shlex.quote(str(path))
        if not stat.S_ISREG(st.st_mode):
            found.append(
                Finding(
                    file,
                    False,
                    _("pas un fichier ordinaire (un lien ?) : la salle ne le lirait pas comme le sien"),
                    f"sudo rm {quoted} ; sudo systemctl restart loto-hall",
                )
            )
        elif st.st_uid != owner:
            found.append(
                Finding(
                    file,
                    False,
                    _("appartient à l'utilisateur n° %(uid)s, pas au propriétaire du dossier (n° %(owner)s)")
                    % {"uid": st.st_uid, "owner": owner},
                    f"sudo chown {owner} {quoted}",
                )
            )
        elif st.st_mode & 0o077:
            found.append(
                Finding(
                    file,
                    False,
                    _("lisible par d'autres comptes (mode %(mode)s)") % {"mode": _mode(st)},
                    f"sudo chmod 600 {quoted}",
                )
            )
        else:
            found.append(Finding(file, True, _mode(st)))
    return found


def config_finding(path: str | None) -> Finding | None:
    """The config file (its ``[auth]`` holds the PINs): root's under /etc, nobody else's to write, not to read
    for anyone but its owner and group."""
    if not path:
        return None
    name = _("Fichier de configuration")
    try:
        st = os.lstat(path)
    except OSError as exc:
        return Finding(name, False, f"{path} : {exc.strerror}")
    quoted = shlex.quote(path)
    if not stat.S_ISREG(st.st_mode):
        return Finding(name, False, _("%(path)s n'est pas un fichier ordinaire") % {"path": path})
    if st.st_mode & 0o022:
        return Finding(
            name,
            False,
            _("%(path)s est modifiable par d'autres (mode %(mode)s)") % {"path": path, "mode": _mode(st)},
            f"sudo chmod go-w {quoted}",
        )
    if st.st_mode & 0o004:
        return Finding(
            name,
            False,
            _("%(path)s et ses codes PIN sont lisibles par tous les comptes (mode %(mode)s)")
            % {"path": path, "mode": _mode(st)},
            f"sudo chmod o-r {quoted}",
        )
    if path.startswith("/etc/") and st.st_uid != 0:
        return Finding(name, False, _("%(path)s n'appartient pas à root") % {"path": path}, f"sudo chown root {quoted}")
    return Finding(name, True, f"{path} ({_mode(st)})")


def secret_findings(data_dir: Path, config_path: str | None) -> list[Finding]:
    """Every check of the secrets, in the order a person fixes them."""
    found = [folder_finding(data_dir), *file_findings(data_dir)]
    config = config_finding(config_path)
    return found + ([config] if config else [])
