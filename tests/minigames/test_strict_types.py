"""The mini-games stay ``mypy --strict`` clean (issue 41 item 6): the strict flags sit in pyproject.toml for
``hall.minigames.*`` (so the plain ``mypy`` of tests/test_code_health.py fails on a regression), the strict run
itself finds nothing there, and ``Any`` does not come back."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tokenize
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
MINIGAMES = ROOT / "hall" / "minigames"
ANY_MAX = 6  # 7 before issue 41: base.State and base.Options (one Game holds every game), osga.views.summary (x2)


def _mypy() -> None:
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (it is part of the test extras: pip install -e '.[test]')")


def _strict_flags() -> list[tuple[str, bool]]:
    """What ``--strict`` sets, as mypy itself lists it (config names and values)."""
    import mypy.main
    import mypy.options

    _, _, assignments = mypy.main.define_options()
    return [(name, value) for name, value in assignments if name in mypy.options.PER_MODULE_OPTIONS]


def test_the_minigames_override_holds_every_strict_flag_mypy_takes_per_module():
    _mypy()
    flags = _strict_flags()
    assert ("disallow_any_generics", True) in flags and ("warn_return_any", True) in flags  # the 103 errors' kinds
    overrides = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]
    [minigames] = [o for o in overrides if "hall.minigames.*" in o["module"]]
    missing = [(name, value) for name, value in flags if minigames.get(name) is not value]
    assert not missing, f"pyproject.toml [[tool.mypy.overrides]] hall.minigames.* lacks {missing}"


def test_mypy_strict_finds_nothing_in_the_minigames():
    """The whole of --strict, warn_redundant_casts too (a global flag the override cannot hold)."""
    _mypy()
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "hall/minigames"], cwd=ROOT, capture_output=True, text=True
    )
    ours = [line for line in result.stdout.splitlines() if line.startswith("hall/minigames/")]
    assert ours == [], "\n".join(ours)


def _any_names(path: Path) -> int:
    with path.open("rb") as source:
        return sum(1 for t in tokenize.tokenize(source.readline) if t.type == tokenize.NAME and t.string == "Any")


def test_any_does_not_grow_in_the_minigames():
    found = {str(p.relative_to(ROOT)): n for p in sorted(MINIGAMES.rglob("*.py")) if (n := _any_names(p))}
    assert sum(found.values()) <= ANY_MAX, found
