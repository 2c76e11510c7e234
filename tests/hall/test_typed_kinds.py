"""Typed outcomes (issue 41 item 3): a lot's kind is a ``Literal`` type (``hall.events.Kind``) that mypy checks where
a lot is made, and the one table of lots (hall/loto/lots.py) names exactly its values."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from hall.events import Kind
from hall.loto.lots import KINDS, LOT_KINDS
from tests.helpers import type_check

ROOT = Path(__file__).resolve().parents[2]


def test_the_kind_type_and_the_table_of_lots_name_the_same_kinds_in_the_same_order():
    assert get_args(Kind) == LOT_KINDS == tuple(k.kind for k in KINDS) == ("quine", "double_quine", "carton_plein")


@pytest.mark.parametrize(
    "made, ok",
    [
        ('LotSpec("quine", "Panier")', True),
        ('LotSpec("quinne", "Panier")', False),  # a misspelled kind fails the type check
        ('LotKind("carton_plien", 3, "Carton plein")', False),
    ],
)
def test_a_misspelled_kind_fails_the_type_check(tmp_path, made, ok):
    result = type_check(tmp_path, f"from hall.events import LotSpec\nfrom hall.loto.lots import LotKind\n\n{made}\n")
    assert (result.returncode == 0) == ok, result.stdout + result.stderr
    if not ok:
        assert "Literal['quine', 'double_quine', 'carton_plein']" in result.stdout
