"""The one typeface of every PDF the hall prints, embedded, and text fitted to a width in points.

The PDF's standard fonts (Helvetica…) are not embedded and know Latin-1 only: ``Łukasz Wałęsa`` printed as black
boxes. DejaVu Sans Condensed (regular and bold, ``fonts/``, its licence beside it) is vendored in the package
rather than taken from Debian's ``fonts-dejavu-core``: the Pi, CI and a ``pip install`` anywhere print with the
same file (the same glyphs, the same widths the layouts were measured with), and nothing can be missing at the
moment a treasurer prints. Condensed: about as wide as Helvetica, so the tables keep their columns. ReportLab
embeds only the glyphs a document uses (a subset: a report stays a few dozen kB).

Text is fitted by its printed width (``stringWidth``), never by a count of characters: ``fit`` cuts with an
ellipsis, ``lines`` wraps over a few lines (a word too long for the width is cut by width), ``fit_lines`` tries
a smaller size before cutting a name.
"""

from __future__ import annotations

import re
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT, BOLD = "DejaVuSansCondensed", "DejaVuSansCondensed-Bold"
FILES = Path(__file__).with_name("fonts")
ELLIPSIS = "…"


def _register() -> None:
    registered = pdfmetrics.getRegisteredFontNames()
    for name in (FONT, BOLD):
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(FILES / f"{name}.ttf")))
    for bold, italic, name in ((0, 0, FONT), (1, 0, BOLD), (0, 1, FONT), (1, 1, BOLD)):
        addMapping(FONT, bold, italic, name)  # <b> in a paragraph: the bold face, never Helvetica-Bold


_register()


def width(text: str, font: str = FONT, size: float = 8) -> float:
    return pdfmetrics.stringWidth(text, font, size)


def fit(text: str, room: float, font: str = FONT, size: float = 8) -> str:
    """``text`` as it fits ``room`` points on one line: whole, or cut with an ellipsis (by width)."""
    if width(text, font, size) <= room:
        return text
    low, high = 0, len(text)  # the longest prefix that fits with the ellipsis: a binary search on width
    while low < high:
        mid = (low + high + 1) // 2
        if width(text[:mid].rstrip() + ELLIPSIS, font, size) <= room:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS if low else ""


def _cut(word: str, room: float, font: str, size: float) -> list[str]:
    """A word wider than ``room`` cut into pieces that fit (by width)."""
    pieces, current = [], ""
    for ch in word:
        if current and width(current + ch, font, size) > room:
            pieces.append(current)
            current = ch
        else:
            current += ch
    return pieces + ([current] if current else [])


def _pieces(text: str) -> list[tuple[str, bool]]:
    """The words of ``text`` as (piece, glued): a hyphenated word also breaks after its hyphens
    (``Roche-`` + ``Vendôme``), a glued piece follows the previous one with no space."""
    out: list[tuple[str, bool]] = []
    for word in text.split():
        parts = re.findall(r"[^-]+-+|[^-]+|-+", word)
        out += [(part, k > 0) for k, part in enumerate(parts)]
    return out


def lines(text: str, room: float, font: str = FONT, size: float = 8, most: int = 2) -> list[str]:
    """``text`` wrapped at its spaces and hyphens to lines of ``room`` points (a longer word cut by width), at most
    ``most`` lines, the last one ending with an ellipsis when text is left over."""
    out: list[str] = []
    for piece, glued in _pieces(text):
        candidate = (out[-1] + ("" if glued else " ") + piece) if out else piece
        if out and width(candidate, font, size) <= room:
            out[-1] = candidate
        elif width(piece, font, size) <= room:
            out.append(piece)
        else:
            out.extend(_cut(piece, room, font, size))
    if len(out) > most:
        out = out[: most - 1] + [fit(" ".join(out[most - 1 :]), room, font, size)]
    return out or [""]


def fit_lines(
    text: str, room: float, font: str = FONT, size: float = 8, smallest: float = 6.5, most: int = 2
) -> tuple[list[str], float]:
    """The lines and the size that print ``text`` within ``room`` points: one line at ``size`` if it fits, else the
    size (down to ``smallest``) at which it fits on one line, else at most ``most`` lines at ``smallest`` (cut
    with an ellipsis only when even these are not enough)."""
    if width(text, font, size) <= room:
        return [text], size
    needed = size * room / max(width(text, font, size), 0.01)
    if needed >= smallest:
        return [text], max(smallest, needed - 0.05)
    return lines(text, room, font, smallest, most), smallest
