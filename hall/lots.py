"""The one table of lot kinds: what each needs on a carton, what it is called, and the default programme.

The labels are the catalogue's message ids (French first); ``display/i18n.py`` translates them for a page,
and French-only outputs (the voucher, the PDF report) use them as they are.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from hall.events import LotSpec


@dataclass(frozen=True, slots=True)
class LotKind:
    kind: str           # the identifier in the journal, the config and the API
    rows: int           # complete rows a carton needs (RULES L5)
    label: str          # its name for people: the catalogue's message id (French)


KINDS: tuple[LotKind, ...] = (
    LotKind("quine", 1, "Quine"),
    LotKind("double_quine", 2, "Double quine"),
    LotKind("carton_plein", 3, "Carton plein"),
)
LOT_KINDS: tuple[str, ...] = tuple(k.kind for k in KINDS)
BY_KIND: Mapping[str, LotKind] = MappingProxyType({k.kind: k for k in KINDS})
ROWS_NEEDED: Mapping[str, int] = MappingProxyType({k.kind: k.rows for k in KINDS})
KIND_LABELS: Mapping[str, str] = MappingProxyType({k.kind: k.label for k in KINDS})
DEFAULT_LOTS: tuple[LotSpec, ...] = tuple(LotSpec(k.kind, k.label) for k in KINDS)
"""The default programme's partie: every kind once, in order, named by its kind."""


def kind_label(kind: str) -> str:
    """The kind's French name (``quine`` → ``Quine``); an unknown kind as it is written."""
    found = BY_KIND.get(kind)
    return found.label if found else kind.replace("_", " ").capitalize()


def has_control_character(text: str) -> bool:
    """Whether ``text`` holds a C0 or C1 control character (tab and line breaks included): a lot's words are
    printed on the voucher, where such a byte is a printer command (``ESC p`` opens the cash drawer)."""
    return any(unicodedata.category(ch) == "Cc" for ch in text)
