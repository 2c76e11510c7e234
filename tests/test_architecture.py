"""The house holds: the import contracts (no exception list), a stdlib-only core, mini-games apart, no circle."""

from __future__ import annotations

import ast
import importlib
import json
import re
import shutil
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
CONTRACTS = PYPROJECT["tool"]["importlinter"]["contracts"]


def imported_roots(path: Path) -> list[str]:
    """Every absolute module name ``path`` imports (at any depth of the file)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


CORE_PACKAGES = ("door", "money", "loto", "cartons", "record", "events", "tombola", "buvette")
FACE_ONLY = (
    "hall.door",
    "hall.money",
    "hall.buvette",
    "hall.loto",
    "hall.cartons",
    "hall.record",
    "hall.config_sections",
    "hall.errors",
    "hall.numbers",
    "hall.sources",
    "hall.spreadsheet",
    "hall.tombola",
)  # display/drivers: through hall


def core_files() -> list[Path]:
    """The loto core: hall/*.py but the face, and the modules of its packages (hall/door, hall/loto, …)."""
    top = [p for p in (ROOT / "hall").glob("*.py") if p.name != "__init__.py"]
    return sorted(top + [p for pkg in CORE_PACKAGES for p in (ROOT / "hall" / pkg).glob("*.py")])


def core_units() -> set[str]:
    """What the contracts name: each top module of the core, and each of its packages."""
    return {f"hall.{p.stem}" for p in (ROOT / "hall").glob("*.py") if p.name != "__init__.py"} | {
        f"hall.{pkg}" for pkg in CORE_PACKAGES
    }


def net_files() -> list[Path]:
    """The network helpers below the core (hall/net/): not loto, standard library only."""
    return sorted((ROOT / "hall" / "net").glob("*.py"))


def test_import_contracts_hold_with_no_exception_list():
    beside = Path(sys.executable).with_name("lint-imports")  # the venv's own, whatever PATH says
    exe = str(beside) if beside.exists() else shutil.which("lint-imports")
    if exe is None:
        pytest.fail("import-linter is part of the test extras: pip install -e '.[test]'")
    assert all("ignore_imports" not in c for c in CONTRACTS)
    result = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_every_core_module_is_in_the_layers_contract():
    """A new module of hall/ must be placed in the house, not slip past the layers contract."""
    layers = next(c for c in CONTRACTS if c["type"] == "layers" and "containers" not in c)["layers"]
    assert layers[:2] == ["hall.app", "display | drivers"] and layers[-1] == "hall.net | hall.refusal | hall.lazy"
    listed = [name.strip() for floor in layers[2:-1] for name in floor.replace("|", ":").split(":")]
    assert sorted(listed) == sorted(core_units())  # each once, on one floor
    packaged = {p.parent.name for p in core_files() if p.parent.name != "hall"}
    assert packaged == set(CORE_PACKAGES)
    assert all((ROOT / "hall" / pkg / "__init__.py").read_text().startswith('"""') for pkg in CORE_PACKAGES)


def test_every_core_module_is_named_by_the_contracts_that_list_the_core():
    """The core's own forbidden list and the mini-games' list of the loto say the same modules as the layers."""
    core = core_units()
    forbidden = [c for c in CONTRACTS if c["type"] == "forbidden"]
    loto = next(
        c for c in forbidden if "hall.app" in c["forbidden_modules"] and "hall.minigames" in c["forbidden_modules"]
    )
    games = next(c for c in forbidden if c["source_modules"] == ["hall.minigames"])
    assert set(loto["source_modules"]) == core
    assert {m for m in games["forbidden_modules"] if m.startswith("hall.") and m != "hall.app"} == core


def test_the_core_never_imports_its_own_face():
    """``hall/__init__.py`` is for the web and the drivers: a core module importing it would import the whole core
    (and itself) before its own names exist."""
    offenders = [f"{p.relative_to(ROOT)}: {n}" for p in core_files() for n in imported_roots(p) if n == "hall"]
    assert not offenders


def test_the_face_names_only_the_core():
    allowed = core_units() | {"hall.refusal", "hall.lazy"}
    names = [n for n in imported_roots(ROOT / "hall" / "__init__.py") if n not in ("__future__", "typing")]
    assert names and [n for n in names if ".".join(n.split(".")[:2]) not in allowed] == []


def test_core_modules_import_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"hall"}
    offenders = [
        f"{p.name}: {n}"
        for p in core_files()
        for n in imported_roots(p)
        if n.split(".")[0] not in allowed or n.startswith(("hall.app", "hall.minigames"))
    ]
    assert not offenders


def test_the_network_helpers_import_only_the_standard_library_and_no_loto():
    assert [p.name for p in net_files()] == ["__init__.py", "address.py", "captive.py", "values.py", "wifi.py"]
    offenders = [
        f"{p.name}: {n}"
        for p in net_files()
        for n in imported_roots(p)
        if n.split(".")[0] not in sys.stdlib_module_names and not n.startswith("hall.net")
    ]
    assert not offenders


def test_the_refusal_imports_only_the_standard_library():
    """Every layer raises it, the mini-games too: it must hold nothing of the loto, the web or the games."""
    files = sorted((ROOT / "hall" / "refusal").glob("*.py"))
    assert [p.name for p in files] == ["__init__.py"]
    assert [n for p in files for n in imported_roots(p) if n.split(".")[0] not in sys.stdlib_module_names] == []


def test_minigames_import_only_the_standard_library_themselves_and_the_refusal():
    allowed = set(sys.stdlib_module_names)
    offenders = [
        f"{p.relative_to(ROOT)}: {n}"
        for p in (ROOT / "hall" / "minigames").rglob("*.py")
        for n in imported_roots(p)
        if n.split(".")[0] not in allowed and not n.startswith(("hall.minigames", "hall.refusal", "hall.lazy"))
    ]
    assert not offenders


def test_no_proxy_stands_for_the_hall():
    """The hall's door is typed (``HallPort``): no ``cast(HallPort, …)`` and no ``__getattr__`` wrapper in a module
    that speaks of the hall, so a command renamed or added cannot slip past a check mypy does not see (the games'
    break is a hold in the core: hall/holds.py)."""
    offenders = []
    for path in sorted(
        [*(ROOT / "hall").rglob("*.py"), *(ROOT / "display").rglob("*.py"), *(ROOT / "drivers").rglob("*.py")]
    ):
        text = path.read_text()
        tree = ast.parse(text, str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "cast"
                and node.args
                and getattr(node.args[0], "id", None) == "HallPort"
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: cast(HallPort, …)")
            if isinstance(node, ast.FunctionDef) and node.name == "__getattr__" and "HallPort" in text:
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: __getattr__ beside HallPort")
    assert not offenders


def project_files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py") if ".venv" not in p.parts)


def extensions_reads(path: Path) -> list[str]:
    """Every ``<…app>.extensions`` of ``path`` (Flask's dict of an app's extensions; x509's have no app), with its
    line: the one key is display/services.py's, so nowhere else names one, nor holds the dict to name one later."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "extensions"
            and ast.unparse(node.value).rsplit(".", 1)[-1] in ("app", "current_app", "application")
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_app_services_are_read_through_their_one_typed_accessor():
    """No service found by a string key: display/services.py alone touches ``app.extensions`` (its one key);
    everyone else, tests included, reads ``services()`` / ``services_of(app)`` (issue 34)."""
    files = [
        p
        for p in project_files("display", "hall", "drivers", "tests", "bench")
        if p != ROOT / "display" / "services.py"
    ]
    assert [hit for p in files for hit in extensions_reads(p)] == []
    keyed = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in files
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if re.search(r"extensions(\[|\.get\(|\.setdefault\(|\.pop\()\s*[\"']loto", line)
    ]
    assert keyed == []


def test_the_services_are_built_before_any_blueprint_is_registered():
    """``create_app`` builds the services, then registers the blueprints: no blueprint sets what another reads."""
    source = (ROOT / "display" / "app.py").read_text()
    body = source[source.index("def create_app(") : source.index("\ndef ", source.index("def create_app(") + 1)]
    assert body.index("build_services(") < body.index("register_blueprint(") < body.index("tournament_web.install(")
    assert body.index("build_services(") < body.index("room_web.install(")


def type_only_imports(path: Path) -> list[str]:
    """The modules ``path`` imports under ``if TYPE_CHECKING:`` (import-linter leaves them out of its graph)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for inner in node.body:
                names += imported_roots_of(inner)
    return names


def imported_roots_of(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module]
    return []


def test_type_only_imports_keep_the_house_layers():
    """A type named for the checker still follows the layers: the web and the drivers name nothing of the program,
    the drivers nothing of the web, neither names the core's insides but through its face (import-linter leaves ``TYPE_CHECKING`` imports out, for display/services.py)."""
    rules = {"display": ("hall.app", "drivers", *FACE_ONLY), "drivers": ("hall.app", "display", *FACE_ONLY)}
    offenders = [
        f"{p.relative_to(ROOT)}: {name}"
        for folder, banned in rules.items()
        for p in project_files(folder)
        for name in type_only_imports(p)
        if name in banned or name.startswith(tuple(b + "." for b in banned))
    ]
    assert offenders == []
    assert "display.auth" in type_only_imports(ROOT / "display" / "services.py")


FACES = {"hall": ROOT / "hall" / "__init__.py", "hall.minigames": ROOT / "hall" / "minigames" / "__init__.py"}
LEAVES = {  # a leaf and every module of the house it may load: the modules it names, and those they name
    "hall.refusal": {"hall", "hall.lazy", "hall.refusal"},
    "hall.minigames.lobo77.rules": {
        "hall",
        "hall.lazy",
        "hall.minigames",
        "hall.minigames.base",
        "hall.minigames.lobo77",
        "hall.minigames.lobo77.rules",
    },
    "drivers.ball_protocol": {
        "hall",
        "hall.lazy",
        "hall.errors",
        "hall.numbers",
        "hall.cartons",
        "hall.cartons.cards",
        "drivers",
        "drivers.ball_protocol",
    },
}


def loaded_by(module: str) -> list[str]:
    """The modules a fresh interpreter holds once it has imported ``module`` (its own import, nothing else)."""
    code = f"import json, sys; before = set(sys.modules); import {module}; print(json.dumps(sorted(set(sys.modules) - before)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("leaf", sorted(LEAVES))
def test_a_leaf_loads_only_what_it_names(leaf):
    """``import hall.refusal`` (or a game's rules, or the ball machine's byte parser) runs the modules it names, not
    the door, its journal (``sqlite3``) and the whole core through the face (issue 41: 63 modules, on main)."""
    loaded = loaded_by(leaf)
    ours = {m for m in loaded if m.split(".")[0] in ("hall", "display", "drivers")}
    assert [m for m in loaded if m.startswith("hall.door") or m.split(".")[0] == "sqlite3"] == []
    assert ours == LEAVES[leaf]


def face_block(path: Path) -> dict[str, tuple[str, str]]:
    """``name → (module, attribute)`` of the face's ``if TYPE_CHECKING:`` block (the list the checker and the loader read)."""
    tree = ast.parse(path.read_text(), str(path))
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    assert all(isinstance(n, ast.ImportFrom) for n in block.body)  # names, never ``import hall.x`` (a module)
    return {a.asname or a.name: (n.module, a.name) for n in block.body for a in n.names}


@pytest.mark.parametrize("face", sorted(FACES))
def test_the_face_names_no_whole_module_and_says_its_names_once(face):
    """Each name of a face is a class, a function or a constant, found where the block says; ``__all__`` and
    ``dir()`` say the same names; the face imports nothing at run time but its loader."""
    block = face_block(FACES[face])
    found = importlib.import_module(face)
    assert sorted(found.__all__) == sorted(block)
    assert set(block) <= set(dir(found))
    modules = [n for n in block if isinstance(getattr(found, n), types.ModuleType)]
    assert modules == []
    astray = [n for n, (m, a) in block.items() if getattr(found, n) is not getattr(importlib.import_module(m), a)]
    assert astray == []
    beside = [n for n in block if (FACES[face].parent / n).is_dir() or (FACES[face].parent / f"{n}.py").is_file()]
    assert beside == []  # a name that is also a module's would be that module once the module is imported
    with pytest.raises(AttributeError):
        found.no_such_name  # noqa: B018 (the face refuses a name it does not hold)
    outside = [n for n in imported_roots(FACES[face]) if n not in ("__future__", "typing", "hall.lazy")]
    assert set(outside) == {m for m, _ in block.values()}  # the block's, under TYPE_CHECKING: nothing else is imported


def test_every_import_from_a_face_is_a_name_it_holds():
    """The tree's ``from hall import x`` and ``from hall.minigames import x`` each name something the face lists."""
    held = {face: set(face_block(path)) for face, path in FACES.items()}
    missing = [
        f"{p.relative_to(ROOT)}:{node.lineno}: {node.module}.{a.name}"
        for p in project_files("hall", "display", "drivers", "tests", "bench", "tools")
        for node in ast.walk(ast.parse(p.read_text(), str(p)))
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in held
        for a in node.names
        if a.name not in held[node.module]
        and not (ROOT / node.module.replace(".", "/") / a.name).is_dir()
        and not (ROOT / node.module.replace(".", "/") / f"{a.name}.py").is_file()
    ]
    assert missing == []


def test_the_web_reaches_the_minigames_through_their_face():
    offenders = [
        f"{p.relative_to(ROOT)}: {n}"
        for p in project_files("display", "drivers")
        for n in imported_roots(p)
        if n.startswith("hall.minigames.")
    ]
    assert offenders == []


def test_the_lazy_loader_imports_only_the_standard_library():
    files = sorted((ROOT / "hall" / "lazy").glob("*.py"))
    assert [p.name for p in files] == ["__init__.py"]
    assert [n for p in files for n in imported_roots(p) if n.split(".")[0] not in sys.stdlib_module_names] == []


def notify_names(path: Path) -> list[tuple[int, str]]:
    """Each ``….notify("name", …)`` of ``path`` written with its name as a string, with its line."""
    return [
        (node.lineno, node.args[0].value)
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "notify"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]


NEWS = {"device:status_changed", "draw:proposed", "players:call"}  # passing news for the console: no one acts on it


def test_no_command_travels_as_an_untyped_notice():
    """A request a device must act on is a typed value of hall/requests.py, given through ``Hall.ask`` (its right
    checked) and matched by type: no ``notify("…:…_requested", …)`` and no subscriber that compares the string
    (issue 41: « Tirer » reached the demo's simulator as ``notify("draw:requested", {...})``)."""
    from hall.requests import REQUESTS
    from hall.snapshots import NOTICES

    files = [
        p for p in project_files("hall", "display", "drivers", "tests", "bench") if p != ROOT / "hall" / "requests.py"
    ]
    untyped = [
        f"{p.relative_to(ROOT)}:{line}: notify({name!r})"
        for p in files
        for line, name in notify_names(p)
        if name in REQUESTS or name.endswith("_requested") or name not in NEWS | set(NOTICES)
    ]
    assert untyped == []
    by_string = [
        f"{p.relative_to(ROOT)}:{node.lineno}: {node.value!r}"
        for p in files
        for node in ast.walk(ast.parse(p.read_text(), str(p)))
        if isinstance(node, ast.Constant) and node.value in REQUESTS
    ]
    assert by_string == []


START_PATH = """
import json, sys
from hall.app.cli import build_parser
from hall.app.gunicorn_app import _gevent_worker_class
from hall.app.sdnotify import Notifier
from hall.app.wiring import ServeOptions, Wiring, config_from_args

args = build_parser().parse_args(["serve", "--data-dir", sys.argv[1], "--port", "0"])
_gevent_worker_class()  # the worker the command runs (gevent), not started
wiring = Wiring.build(config_from_args(args), ServeOptions(), Notifier.from_env({}))
try:
    wiring.runtime.hall.start_partie(role="speaker")
    wiring.runtime.hall.draw(7, role="speaker")
    print(json.dumps(sorted(sys.modules)))
finally:
    wiring.close()
"""
NOT_TO_DRAW = ("reportlab", "openpyxl", "escpos", "PIL", "lxml", "yaml")  # the papers, the printer's, the QR codes'


def test_the_start_to_a_ball_drawn_imports_no_paper_nor_printer_module(tmp_path):
    """``loto-hall serve``'s path from the command line to a ball drawn, in a fresh interpreter: the parser, the
    worker class, the wiring (the journal, the devices, the web app), a partie and a ball — and not one module of
    the PDFs, the workbook, the printer's ESC/POS or the QR codes (about 2 s of a Pi 4's start, issue 45)."""
    out = subprocess.run(
        [sys.executable, "-c", START_PATH, str(tmp_path / "data")], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-3000:]
    loaded = json.loads(out.stdout.splitlines()[-1])
    assert "hall.door.service" in loaded and "display.app" in loaded and "gunicorn.workers.ggevent" in loaded
    assert [m for m in loaded if m.split(".")[0] in NOT_TO_DRAW] == []


def test_every_document_maker_the_start_hands_in_is_found_when_used():
    """The makers are imported at their first use: each one the wiring names is there, under that name."""
    from hall.app.wiring import DOCUMENTS, documents

    makers = documents()
    assert set(makers) == set(DOCUMENTS)
    for key, (module, name) in DOCUMENTS.items():
        assert callable(getattr(importlib.import_module(module), name)), key
        assert makers[key].__name__ == name
