"""The code stays clean: ``mypy`` (strict defs for hall.*) and ``ruff`` (both configured in pyproject.toml) find nothing."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_is_configured_for_the_three_packages():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["files"] == ["hall", "drivers", "display"]
    checked = [o for o in config["overrides"] if o.get("check_untyped_defs")]
    assert any({"display.*", "drivers.*"} <= set(o["module"]) for o in checked)  # every call through the door
    assert not any(o.get("check_untyped_defs") is False or o.get("ignore_errors") for o in config["overrides"])


def test_the_type_checker_passes():
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (it is part of the test extras: pip install -e '.[test]')")
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_linter_passes():
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (it is part of the test extras: pip install -e '.[test]')")
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_formatter_has_nothing_to_change():
    """``ruff format`` was turned on once, in a commit of its own that ``.git-blame-ignore-revs`` names (``git blame``
    skips it: ``git config blame.ignoreRevsFile .git-blame-ignore-revs``); every change since keeps the format."""
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (it is part of the test extras: pip install -e '.[test]')")
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    ignored = (ROOT / ".git-blame-ignore-revs").read_text().split()
    assert any(len(rev) == 40 and all(c in "0123456789abcdef" for c in rev) for rev in ignored)


def test_no_function_of_the_core_or_the_web_is_above_grade_c():
    """Radon's cyclomatic complexity, grade D (21 branches) and above, in ``hall/`` and ``display/``: a function
    that many ways through is split where its reader would (issue 41: ``build_report`` was an F 42)."""
    if importlib.util.find_spec("radon") is None:
        pytest.skip("radon is not installed (it is part of the test extras: pip install -e '.[test]')")
    result = subprocess.run(
        [sys.executable, "-m", "radon", "cc", "--show-complexity", "--min", "D", "hall", "display"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert not result.stdout.strip(), "split these functions:\n" + result.stdout


def test_every_run_shows_where_the_minutes_go():
    """CI's output ends with the slowest tests; ``slow`` is registered (typos refused) and the Chromium, kill and
    playout tests carry it, so ``-m 'not slow'`` is a quick pass while the default run keeps them all."""
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "--durations=25" in options["addopts"].split() and "--strict-markers" in options["addopts"].split()
    assert any(m.startswith("slow:") for m in options["markers"])
    slow_files = [
        "tests/display/test_browser.py",
        "tests/app/test_sales_kill.py",
        "tests/minigames/test_playouts_lobo77_linotte.py",
    ]
    quick = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "not slow", *slow_files],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert "no tests collected" in quick.stdout and "deselected" in quick.stdout, quick.stdout
    everything = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", *slow_files], cwd=ROOT, capture_output=True, text=True
    )
    assert " deselected" not in everything.stdout and "tests collected" in everything.stdout, everything.stdout


def test_no_module_is_structured_by_the_project_s_history():
    """A reader finds a thing by its name, not by the issue that brought it: no ``issue 16`` markers in the code
    (a library's own issue, named with the library, is a reference, not history)."""
    import re

    marker = re.compile(r"\bissues? ?#?\d+|\(#\d+\)", re.IGNORECASE)
    files = [
        p
        for folder in ("hall", "display", "drivers")
        for ext in ("*.py", "*.js", "*.css", "*.html")
        for p in (ROOT / folder).rglob(ext)
        if "vendor" not in p.parts
    ]
    offenders = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in files
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if marker.search(line) and "python-escpos issue" not in line
    ]
    assert offenders == []
