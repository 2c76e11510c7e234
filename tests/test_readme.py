"""The README's set-up section is what CI runs: exactly two one-line commands, the demo hall and the tests.

CI (``.ci/run``) extracts them with ``.ci/readme_commands.py``; a section that a new heading cuts in two
(stop 28: « Who opens what » landed between the two commands) fails CI after one second, so it fails here first.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


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


@pytest.mark.parametrize(
    "broken",
    [
        "## Set-up: the two commands\n\n```sh\nrun\n```\n\n## Who opens what\n\n```sh\ntest\n```\n",
        "## Set-up: the two commands\n\n```sh\nrun\nmore\n```\n\n```sh\ntest\n```\n",
        "## Set-up: the two commands\n\n```sh\nrun\n```\n",
    ],
)
def test_a_section_that_is_not_two_one_line_commands_is_refused(broken):
    with pytest.raises(ValueError, match="exactly two one-line"):
        _reader().setup_commands(broken)


def test_the_layout_section_is_the_tree_as_it_is():
    """Every package of the project is named in the README's layout (the tree as it is, not as it was), and every
    ``hall/…/`` folder it names exists."""
    text = README.read_text()
    layout = text[text.index("## Layout") :]
    packages = {f"{p.parent.relative_to(ROOT)}/" for p in ROOT.glob("*/*/__init__.py")} | {
        f"{p.parent.relative_to(ROOT)}/" for p in ROOT.glob("*/__init__.py")
    }
    packages -= {"tests/", *(p for p in packages if p.startswith("tests/"))}
    named = set(re.findall(r"^(\S+/)(?:__init__\.py)?\s", layout.split("```")[1], re.M)) | set(
        re.findall(r"(hall/\w+/)", layout)
    )
    assert sorted(p for p in packages if p not in named and not p.startswith(("display/", "drivers/", "bench/"))) == []
    assert sorted(n for n in named if n.startswith("hall/") and not (ROOT / n).is_dir()) == []
