"""The README's set-up section is what CI runs: exactly two one-line commands, the demo hall and the tests.

CI (``.ci/run``) extracts them with ``.ci/readme_commands.py``; a section that a new heading cuts in two
(stop 28: « Who opens what » landed between the two commands) fails CI after one second, so it fails here first.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _reader():
    spec = importlib.util.spec_from_file_location("readme_commands", ROOT / ".ci" / "readme_commands.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_holds_the_two_commands_ci_runs():
    serve, test = _reader().setup_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    assert serve.endswith("loto-hall serve --demo") and "pip install ." in serve
    assert test.endswith("python -m pytest") and "pip install -e '.[test]'" in test


@pytest.mark.parametrize("broken", [
    "## Set-up: the two commands\n\n```sh\nrun\n```\n\n## Who opens what\n\n```sh\ntest\n```\n",
    "## Set-up: the two commands\n\n```sh\nrun\nmore\n```\n\n```sh\ntest\n```\n",
    "## Set-up: the two commands\n\n```sh\nrun\n```\n",
])
def test_a_section_that_is_not_two_one_line_commands_is_refused(broken):
    with pytest.raises(ValueError, match="exactly two one-line"):
        _reader().setup_commands(broken)
