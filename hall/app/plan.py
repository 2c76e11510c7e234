"""A plan of steps run as root: every file's content and every command built first, all of them checked, then
carried out; a step that fails puts every file of the run back as it was.

A step is a file to write (with the grammar each of its lines must match, so that no value can add a directive
to the file) or a command (an argv list, never a shell string) with the check that says it is already done, so
a second run changes nothing. Commands go through an injectable ``Runner`` and files under an injectable root,
so tests run the real plan.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from hall.app.lang import _
from hall.record import durable

SECRET_SHOWN = "********"
# C0, DEL and C1 controls: a newline in an argument is a new command to sed, a new line to every file format
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@dataclass(frozen=True, slots=True)
class Completed:
    returncode: int
    stdout: str = ""


Runner = Callable[[Sequence[str]], Completed]


def system_runner(argv: Sequence[str]) -> Completed:
    """Run ``argv`` (no shell); a missing program is returncode 127, as in a shell."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=60, check=False)
    except FileNotFoundError:
        return Completed(127, "")
    except subprocess.TimeoutExpired:
        return Completed(124, "")
    return Completed(done.returncode, done.stdout)


@dataclass(frozen=True, slots=True)
class Check:
    """A query whose answer says a step is already done: returncode 0 and ``expect`` in its output
    (``equals``: the whole output, stripped; ``line``: one whole line; ``every_line``: each line;
    ``absent``: ``expect`` must not appear)."""

    argv: tuple[str, ...]
    expect: str = ""
    mode: str = "contains"

    def done(self, run: Runner) -> bool:
        answer = run(self.argv)
        if self.mode == "absent":
            return answer.returncode == 0 and self.expect not in answer.stdout
        if answer.returncode != 0:
            return False
        if self.mode == "line":
            return self.expect in answer.stdout.splitlines()
        if self.mode == "every_line":
            lines = answer.stdout.splitlines()
            return bool(lines) and all(line == self.expect for line in lines)
        return answer.stdout.strip() == self.expect if self.mode == "equals" else self.expect in answer.stdout


@dataclass(frozen=True, slots=True)
class Command:
    why: str  # the step's purpose, in the terminal's language
    argv: tuple[str, ...]
    unless: Check | None = None
    again_after_change: bool = False  # also run when an earlier step changed something
    secrets: tuple[str, ...] = ()  # each form the secret takes in argv or the check: shown as ********


class Filled(NamedTuple):
    content: str
    grammar: str  # a regular expression that each line of content must match whole


def fill(template: str, **slots: tuple[object, str]) -> Filled:
    """``template`` (``str.format``) filled with each slot's value, and the grammar of its lines: each line of the
    template as written, each slot holding only what its pattern allows. A value that brings a newline or a
    quote makes a line outside the grammar, which ``plan_problems`` refuses."""
    content = template.format(**{name: value for name, (value, _) in slots.items()})
    marked = template.format(**{name: f"\ue000{name}\ue001" for name in slots})
    forms = set()
    for line in marked.splitlines():
        form = re.escape(line)
        for name, (_value, pattern) in slots.items():
            form = form.replace(f"\ue000{name}\ue001", f"(?:{pattern})")
        forms.add(form)
    return Filled(content, "|".join(sorted(forms)))


@dataclass(frozen=True, slots=True)
class WriteFile:
    why: str
    path: str  # absolute, on the Pi
    content: str
    grammar: str  # a regular expression that each line of content must match whole (fill)
    mode: int = 0o644
    secrets: tuple[str, ...] = ()  # each form a secret takes in the content: shown as ******** (--dry-run)


Step = Command | WriteFile


class PlanRefused(ValueError):
    """A plan with a value that would change what a file or a command means: nothing was run nor written."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


def plan_problems(plan: Sequence[Step]) -> list[str]:
    """What would let a value become a directive: a line outside its file's grammar, a control character in a
    line or an argument, a path that leaves its folder. Empty when the plan may run."""
    problems = []
    for step in plan:
        if isinstance(step, Command):
            for arg in (*step.argv, *(step.unless.argv if step.unless else ())):
                if CONTROL.search(arg):
                    problems.append(
                        _("commande %(argv)s : caractère de contrôle dans l'argument %(arg)s")
                        % {"argv": step.argv[0], "arg": repr(arg)}
                    )
            continue
        if not step.path.startswith("/") or ".." in step.path.split("/") or CONTROL.search(step.path):
            problems.append(_("chemin refusé : %(path)s") % {"path": repr(step.path)})
        if not step.content.endswith("\n"):
            problems.append(_("%(path)s : la dernière ligne doit finir le fichier") % {"path": step.path})
        for number, line in enumerate(step.content.removesuffix("\n").split("\n"), start=1):
            if CONTROL.search(line) or not re.fullmatch(step.grammar, line):
                problems.append(
                    _("%(path)s, ligne %(number)s : %(line)s n'est pas une ligne que ce fichier attend")
                    % {"path": step.path, "number": number, "line": repr(line)}
                )
    return problems


def shown(cmd: Command, argv: Sequence[str]) -> str:
    text = shlex.join(argv)
    for secret in cmd.secrets:
        text = text.replace(shlex.quote(secret), SECRET_SHOWN) if secret else text
    return text


def print_steps(plan: Sequence[Step], out: Callable[[str], None] = print) -> None:
    """Each step as ``--dry-run`` shows it: the file whole, the command with the check that skips it."""
    modes = {
        "contains": _("contient"),
        "equals": _("vaut"),
        "absent": _("ne contient pas"),
        "line": _("a la ligne"),
        "every_line": _("vaut à chaque ligne"),
    }
    for i, step in enumerate(plan, start=1):
        out("")
        out(f"{i}. {step.why}")
        if isinstance(step, WriteFile):
            out(_("   fichier %(path)s (%(mode)s) :") % {"path": step.path, "mode": format(step.mode, "04o")})
            content = step.content
            for secret in sorted(step.secrets, key=len, reverse=True):
                content = content.replace(secret, SECRET_SHOWN) if secret else content
            out("\n".join("   | " + line for line in content.splitlines()))
            continue
        out(f"   $ {shown(step, step.argv)}")
        if step.unless:
            expect = step.unless.expect.strip().replace("\n", "⏎")
            for secret in step.secrets:
                expect = expect.replace(secret, SECRET_SHOWN) if secret else expect
            extra = _(" ou si une étape a changé quelque chose") if step.again_after_change else ""
            mode = modes[step.unless.mode]
            out(
                _("   (sauf si « %(join)s » %(mode)s « %(expect)s »%(extra)s)")
                % {"join": shlex.join(step.unless.argv), "mode": mode, "expect": expect, "extra": extra}
            )


def _write(path: Path, data: bytes, mode: int) -> None:
    """``path`` replaced at once by a file holding ``data`` with ``mode``: never seen half-written or with another
    mode, and a symlink in its place is replaced, not followed. The temporary name starts with a dot, which
    modprobe, dnsmasq's conf-dir and NetworkManager's dispatcher all skip."""
    durable.write_file(path, data, mode=mode)  # the hall's one durable writer: fsync, rename, fsync of the folder


class _Undo:
    """What the run changed on disk, to put back: each file as it was (its bytes and mode, the target of a symlink,
    or absent), each folder it made."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: list[tuple[Path, bytes | str | None, int]] = []
        self.folders: list[Path] = []

    def before_writing(self, path: Path) -> None:
        for folder in reversed(path.parents):
            if not folder.exists():
                folder.mkdir()
                folder.chmod(0o755)  # readable by the daemons that read them (avahi), whatever root's umask
                self.folders.append(folder)
        if path.is_symlink():
            self.files.append((path, os.readlink(path), 0))
        elif path.exists():
            self.files.append((path, path.read_bytes(), path.stat().st_mode & 0o7777))
        else:
            self.files.append((path, None, 0))

    def put_back(self, out: Callable[[str], None]) -> None:
        for path, before, mode in reversed(self.files):
            if isinstance(before, bytes):
                _write(path, before, mode)
            else:
                path.unlink(missing_ok=True)
                if before is not None:
                    os.symlink(before, path)
            shown_path = "/" + str(path.relative_to(self.root))
            out(_("↩ %(shown_path)s remis comme avant") % {"shown_path": shown_path})
        for folder in reversed(self.folders):
            with contextlib.suppress(OSError):
                folder.rmdir()


def apply_plan(plan: Sequence[Step], run: Runner, root: Path = Path("/"), out: Callable[[str], None] = print) -> int:
    """Carry the plan out, skipping what is already done; returns how many steps changed something.

    Raises ``PlanRefused`` before running or writing anything when ``plan_problems`` finds one; when a step fails
    (``RuntimeError``) or the run is interrupted, every file written so far is put back as it was and the folders
    made are removed (the commands already run stay done: a second run carries on from there)."""
    problems = plan_problems(plan)
    if problems:
        raise PlanRefused(problems)
    undo, changed = _Undo(root), 0
    try:
        for step in plan:
            if isinstance(step, WriteFile):
                path = root / step.path.lstrip("/")
                data = step.content.encode("utf-8")
                if (
                    path.is_file()
                    and not path.is_symlink()
                    and path.read_bytes() == data
                    and (path.stat().st_mode & 0o777) == step.mode
                ):
                    out(_("= %(path)s : déjà à jour") % {"path": step.path})
                    continue
                undo.before_writing(path)
                _write(path, data, step.mode)
                out(_("+ %(path)s écrit") % {"path": step.path})
                changed += 1
                continue
            if step.unless and step.unless.done(run) and not (step.again_after_change and changed):
                out(_("= %(why)s : déjà fait") % {"why": step.why})
                continue
            out(f"$ {shown(step, step.argv)}")
            answer = run(step.argv)
            if answer.returncode != 0:
                raise RuntimeError(
                    _("échec (%(returncode)s) : %(shown)s")
                    % {"returncode": answer.returncode, "shown": shown(step, step.argv)}
                )
            changed += 1
    except BaseException:
        undo.put_back(out)
        raise
    return changed
