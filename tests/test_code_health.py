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
