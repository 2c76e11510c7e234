"""Cells safe to open in a spreadsheet: every CSV the hall writes passes its text cells through ``safe_cell``.

A text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is read as a formula by
LibreOffice and Excel (``=HYPERLINK(…)`` typed as a claimed card ID would become a live link in the report).
Such a cell gets a leading ``'``, which spreadsheets show as text. Numbers are left as they are.
"""
from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """``value`` unchanged unless it is text a spreadsheet would run as a formula; then ``'`` + the text."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
