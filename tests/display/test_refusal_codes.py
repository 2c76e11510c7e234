"""Typed outcomes (issue 41 item 3): a refusal's code is ``hall.refusal.Code``, a ``Literal`` mypy checks at every
``Rejected(...)``, and it names exactly the codes the catalogues declare (a status and a sentence each)."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

import display.app  # noqa: F401  (every area's catalogue declared)
from display import errors
from hall.refusal import LOTO, Code
from tests.helpers import type_check

ROOT = Path(__file__).resolve().parents[2]


def test_the_code_type_names_every_declared_code_and_nothing_else():
    declared = {key.removeprefix(LOTO + "/") for key in errors._CODES}
    named = get_args(Code)
    assert len(named) == len(set(named)) and set(named) == declared


@pytest.mark.parametrize(
    "raised, ok",
    [
        ('Rejected("evening_closed")', True),
        ('Rejected("rooms/room_full")', True),
        ('Rejected("evening_closd")', False),  # a misspelled code fails the type check
        ('Rejected("room_full")', False),  # another area's code without its area
    ],
)
def test_a_misspelled_code_fails_the_type_check(tmp_path, raised, ok):
    result = type_check(tmp_path, f"from hall.refusal import Rejected\n\n{raised}\n")
    assert (result.returncode == 0) == ok, result.stdout + result.stderr
