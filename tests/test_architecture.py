"""The pure core stays pure: hall/ imports no Flask, pyserial, evdev or escpos (import-linter contracts)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_hold():
    exe = shutil.which("lint-imports")
    if exe is None:
        pytest.fail("import-linter is part of the test extras: pip install -e '.[test]'")
    result = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_core_modules_import_only_the_standard_library():
    """A second, independent check: every import in hall/ (but the composition root) is stdlib or hall."""
    allowed_roots = set(sys.stdlib_module_names) | {"hall"}
    root_modules = {"__main__.py", "wiring.py", "gunicorn_app.py", "cli_cards.py", "cli_report.py"}
    import ast
    offenders = []
    for path in (ROOT / "hall").rglob("*.py"):
        if path.name in root_modules and path.parent == ROOT / "hall":
            continue
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] not in allowed_roots]
    assert not offenders, offenders
