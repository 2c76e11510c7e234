"""A check-up's finding and the table that prints them: every doctor's (``loto-hall doctor``, ``loto-hall network
doctor``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hall.app.lang import _


@dataclass(frozen=True, slots=True)
class Finding:
    """One check: passed (``ok``), failed, or advice (``None``), what was seen, and what to do."""

    name: str
    ok: bool | None  # None: advice, not a fault
    detail: str
    fix: str = ""


def print_findings(found: Sequence[Finding], out: Callable[[str], None] = print) -> None:
    """The findings as a table: the check, its state, what was seen, what to do."""
    state = {True: "OK", False: _("PROBLÈME"), None: _("conseil")}
    rows = [(_("vérification"), _("état"), _("détail"), _("que faire"))]
    rows += [(f.name, state[f.ok], f.detail, f.fix) for f in found]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for i, row in enumerate(rows):
        out(("  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths)) + "  " + row[3]).rstrip())
        if i == 0:
            out("  ".join("-" * w for w in widths) + "  " + "-" * 10)
