"""Every file the hall writes outside SQLite goes through one writer (hall/record/durable.py): a temporary file in the same
folder, fsync, rename (or link), fsync of the folder — so a power cut leaves the old version or the new one.

The writers are run for real with ``os.fsync``, ``os.replace`` and ``os.link`` watched: each file they leave must
have been fsync'd under its temporary name before it took its name, and its folder fsync'd after (issue 33: on main
``sessions.json`` and ``pin_checks.json`` came back from a real cut empty). An AST pass then checks that no other
way of writing a file is left in hall/, display/ or drivers/."""

from __future__ import annotations

import ast
import json
import os
import stat
from pathlib import Path

import pytest

from hall.config import parse_config
from hall.record import durable

ROOT = Path(__file__).resolve().parents[2]


class Watch:
    """What the process did to files, in order: ("fsync", path), ("rename", src, dst), ("link", src, dst)."""

    def __init__(self, monkeypatch):
        self.ops: list[tuple] = []
        fsync, replace, link, rename = os.fsync, os.replace, os.link, os.rename

        def watched_fsync(fd):
            self.ops.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
            return fsync(fd)

        def watched_replace(src, dst, *a, **k):
            self.ops.append(("rename", os.path.realpath(src), os.path.realpath(dst)))
            return replace(src, dst, *a, **k)

        def watched_rename(src, dst, *a, **k):
            self.ops.append(("rename", os.path.realpath(src), os.path.realpath(dst)))
            return rename(src, dst, *a, **k)

        def watched_link(src, dst, *a, **k):
            self.ops.append(("link", os.path.realpath(src), os.path.realpath(dst)))
            return link(src, dst, *a, **k)

        monkeypatch.setattr(os, "fsync", watched_fsync)
        monkeypatch.setattr(os, "replace", watched_replace)
        monkeypatch.setattr(os, "rename", watched_rename)
        monkeypatch.setattr(os, "link", watched_link)

    def durably_written(self, path: Path) -> bool:
        """Whether ``path`` took its name from a temporary file fsync'd before, in its folder, and the folder was
        fsync'd after."""
        path = Path(os.path.realpath(path))
        for i, op in enumerate(self.ops):
            if op[0] in ("rename", "link") and op[2] == str(path):
                src = op[1]
                synced = ("fsync", src) in self.ops[:i] or ("fsync", src + " (deleted)") in self.ops[:i]
                folder = ("fsync", str(path.parent)) in self.ops[i + 1 :]
                if synced and folder and Path(src).parent == path.parent:
                    return True
        return False


@pytest.fixture
def watch(monkeypatch):
    return Watch(monkeypatch)


# ---- the writer itself ---------------------------------------------------------------------------------------
def test_a_file_is_written_whole_with_its_mode_and_no_temporary_left(tmp_path, watch):
    target = tmp_path / "sub" / "f.json"
    durable.write_json(target, {"é": 1})
    assert json.loads(target.read_text(encoding="utf-8")) == {"é": 1}
    assert stat.S_IMODE(target.stat().st_mode) == 0o600 and watch.durably_written(target)
    durable.write_file(target, b"new", mode=0o644)
    assert target.read_bytes() == b"new" and stat.S_IMODE(target.stat().st_mode) == 0o644
    assert sorted(p.name for p in target.parent.iterdir()) == ["f.json"]


def test_a_writer_that_fails_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "cards.csv"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), durable.replacing(target) as fh:
        fh.write(b"half")
        raise RuntimeError("the disk is full")
    assert target.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["cards.csv"]


def test_exclusive_keeps_the_first_file_and_a_link_is_replaced_not_followed(tmp_path, watch):
    secret = tmp_path / "voucher.key"
    durable.write_file(secret, b"first", exclusive=True, mode=0o600)
    durable.write_file(secret, b"second", exclusive=True, mode=0o600)
    assert secret.read_bytes() == b"first" and watch.durably_written(secret)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(b"keep")
    (tmp_path / "unlock.json").symlink_to(elsewhere)
    durable.write_file(tmp_path / "unlock.json", b"{}")
    assert elsewhere.read_bytes() == b"keep" and not (tmp_path / "unlock.json").is_symlink()


def test_the_temporaries_a_cut_leaves_are_swept_and_nothing_else(tmp_path):
    (tmp_path / ".sessions.json.k2j3_x.tmp-durable").write_bytes(b"")
    for name in ("sessions.json", ".hidden", "journal.sqlite-wal"):
        (tmp_path / name).write_bytes(b"x")
    assert durable.sweep_temporaries(tmp_path) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [".hidden", "journal.sqlite-wal", "sessions.json"]


# ---- every writer of the hall goes through it ------------------------------------------------------------------
def test_sessions_pin_checks_login_guard_pins_and_unlock_requests_are_durable(tmp_path, watch):
    from display import login_guard
    from display.pins import PINS_FILE, load_pins
    from display.sessions import SESSIONS_FILE, SessionTable, write_json

    table = SessionTable(tmp_path, {"speaker": "f" * 32}, idle_s=3600)
    sid = table.open("speaker")
    assert watch.durably_written(tmp_path / SESSIONS_FILE) and sid in (tmp_path / SESSIONS_FILE).read_text()
    write_json(tmp_path / "pin_checks.json", {"speaker": "x"})
    assert watch.durably_written(tmp_path / "pin_checks.json")
    guard = login_guard.LoginGuard(tmp_path)
    guard._save()
    assert watch.durably_written(tmp_path / login_guard.GUARD_FILE)
    load_pins(parse_config({"hall": {"data_dir": str(tmp_path)}}), tmp_path)
    assert watch.durably_written(tmp_path / PINS_FILE)


def test_secrets_certificates_and_the_card_book_are_durable(tmp_path, watch):
    from display.tls import CERT_FILE, KEY_FILE, ensure_certificate
    from hall.cartons.cardbook import FILE_NAME, CardBook
    from hall.cartons.planches import generate_cards
    from hall.record.secretfile import load_or_create_secret

    load_or_create_secret(tmp_path / "voucher.key")
    assert watch.durably_written(tmp_path / "voucher.key")
    ensure_certificate(tmp_path, "Salle")
    assert watch.durably_written(tmp_path / CERT_FILE) and watch.durably_written(tmp_path / KEY_FILE)
    book = CardBook(dict(generate_cards(3, "s", "A")))
    book.save(tmp_path)
    book.write_csv(tmp_path / "export.csv")
    assert watch.durably_written(tmp_path / FILE_NAME) and watch.durably_written(tmp_path / "export.csv")


def test_reports_exports_planches_and_an_archived_evening_are_durable(tmp_path, watch, make_hall):
    from hall.app.cli import main
    from hall.cartons.planches import generate_cards
    from hall.record.evenings import REPORT_CSV, REPORT_PDF, SUMMARY_FILE, archive_dir

    hall = make_hall()
    hall.start_partie(role="speaker")
    hall.draw(7, role="speaker")
    hall.journal.close()
    data = tmp_path
    out = tmp_path / "out"
    assert main(["report", "--data-dir", str(data), "--pdf", str(out / "r.pdf"), "--csv", str(out / "r.csv")]) == 0
    assert watch.durably_written(out / "r.pdf") and watch.durably_written(out / "r.csv")
    from hall.app.paper.sheets import write_cards_pdf

    write_cards_pdf(generate_cards(2, "s", "A"), out / "planches.pdf", "Salle", "A")
    assert watch.durably_written(out / "planches.pdf")
    assert main(["evening", "new", "--data-dir", str(data)]) == 0
    (folder,) = archive_dir(data).iterdir()
    for name in (REPORT_CSV, REPORT_PDF, SUMMARY_FILE):
        assert watch.durably_written(Path(str(folder).replace(folder.name, ".en-cours-" + folder.name)) / name), name


def test_the_front_conf_and_the_demo_printer_s_tickets_are_durable(tmp_path, watch):
    from drivers.printer_sink import Connection, PrinterSink
    from hall.app.front import write_front

    _, conf = write_front(parse_config({"hall": {"data_dir": str(tmp_path)}}), "/run/relay")
    assert watch.durably_written(conf)
    sink = PrinterSink(save_dir=tmp_path / "sink")
    sink._save(Connection(b"\x1b@hello", 0), 1)
    assert watch.durably_written(tmp_path / "sink" / "ticket-0001.escpos")


# ---- and no other way of writing a file is left -------------------------------------------------------------------
# (file, function, primitive): each a write that is not a side file's content, with why
ALLOWED = {
    ("hall/app/runtime.py", "lock_data_dir", "os.open"): "the data folder's lock (its pid is only informative)",
    ("hall/app/evening.py", "_finish_pending", ".rename"): "moves finished files and folders, then fsyncs the folders",
    ("hall/app/evening.py", "new_evening", ".rename"): "moves finished files and folders, then fsyncs the folders",
    ("hall/app/plan.py", "put_back", "os.symlink"): "puts back a symlink the network set-up replaced",
    # `sudo loto-hall auth unlock`: through descriptors of the folder only, as its owner (a link swapped in cannot
    # make root write a file of root's: tests/app/test_unlock_race.py); each fsync'd, renamed, the folder fsync'd
    ("hall/app/cli_auth.py", "_secret", "os.open"): "the web key made exclusively through the folder's descriptor",
    ("hall/app/cli_auth.py", "_secret", "os.fdopen"): "the web key made exclusively through the folder's descriptor",
    ("hall/app/cli_auth.py", "_write_request", "os.open"): "the unlock request through the folder's descriptor",
    ("hall/app/cli_auth.py", "_write_request", "os.replace"): "the unlock request through the folder's descriptor",
    ("drivers/ball_sim.py", "open", "os.symlink"): "a symlink to a pseudo-terminal, not data",
    ("drivers/ball_sim.py", "open", "os.replace"): "a symlink to a pseudo-terminal, not data",
}
WRITE_MODES = set("wax+")
WRITE_FLAGS = {"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"}
PRIMITIVES = {
    "os.replace",
    "os.rename",
    "os.link",
    "os.symlink",
    "tempfile.mkstemp",
    "tempfile.NamedTemporaryFile",
    "shutil.copy",
    "shutil.copy2",
    "shutil.copyfile",
    "shutil.move",
    "json.dump",
}
METHODS = {"write_text", "write_bytes", "touch", "rename", "symlink_to", "hardlink_to"}
PDF_MAKERS = {"Canvas", "SimpleDocTemplate", "BaseDocTemplate"}


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        inner = _name(func.value)
        return f"{inner}.{func.attr}" if inner else "." + func.attr
    return ""


def _mode(call: ast.Call, position: int) -> str:
    arg = (
        call.args[position]
        if len(call.args) > position
        else next((k.value for k in call.keywords if k.arg == "mode"), None)
    )
    return arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else ""


def _flag(node: ast.Call) -> str | None:
    """The write primitive ``node`` calls, if it is one."""
    name = _name(node.func)
    short = name.rsplit(".", 1)[-1]
    if (
        short in PDF_MAKERS
        and node.args
        and any(  # reportlab writing to a file name itself
            _name(n.func) in ("os.fspath", "str") for n in ast.walk(node.args[0]) if isinstance(n, ast.Call)
        )
    ):
        return short
    if name in ("open", "os.fdopen"):
        return name if WRITE_MODES & set(_mode(node, 1)) else None
    if name == "os.open":
        return name if WRITE_FLAGS & {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)} else None
    if name in PRIMITIVES:
        return name
    if name.startswith(".") or ("." in name and not name.startswith(("dataclasses.", "os.path."))):
        if short in METHODS or (short == "replace" and len(node.args) == 1 and not node.keywords):
            return "." + short  # Path.replace(target); str.replace takes two
    return None


def write_paths(path: Path) -> list[tuple[str, str, int]]:
    """(function, primitive, line) of every write to a file in ``path`` that does not go through hall/record/durable.py."""
    found: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else where
            if isinstance(child, ast.Call) and (flagged := _flag(child)):
                found.append((where, flagged, child.lineno))
            visit(child, inner)

    visit(ast.parse(path.read_text(), str(path)), "<module>")
    return found


def test_no_file_is_written_any_other_way():
    offenders = []
    for folder in ("hall", "display", "drivers"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = str(path.relative_to(ROOT))
            if rel == "hall/record/durable.py":
                continue
            for where, primitive, line in write_paths(path):
                if (rel, where, primitive) not in ALLOWED:
                    offenders.append(f"{rel}:{line} {where}: {primitive}")
    assert offenders == [], "write through hall/record/durable.py (write_file, write_json, replacing):\n" + "\n".join(
        offenders
    )


def test_the_check_sees_the_ways_a_file_was_written_before(tmp_path):
    """The patterns of main's writers are all caught (so the check is not vacuous)."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os, json, tempfile\n"
        "def a(p, d):\n    fd, tmp = tempfile.mkstemp(dir=p)\n    with os.fdopen(fd, 'w') as fh:\n"
        "        json.dump(d, fh)\n    os.replace(tmp, p)\n"
        "def b(p):\n    fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)\n    p.write_bytes(b'')\n"
        "def c(p):\n    with open(p, 'w', encoding='utf-8') as f:\n        f.write('x')\n    p.with_name('x').replace(p)\n"
        "def d(p):\n    Canvas(p if hasattr(p, 'write') else os.fspath(p))\n    'a'.replace('a', 'b')\n"
    )
    assert sorted((w, f) for w, f, _ in write_paths(sample)) == sorted(
        [
            ("a", "tempfile.mkstemp"),
            ("a", "os.fdopen"),
            ("a", "json.dump"),
            ("a", "os.replace"),
            ("b", "os.open"),
            ("b", ".write_bytes"),
            ("c", "open"),
            ("c", ".replace"),
            ("d", "Canvas"),
        ]
    )
