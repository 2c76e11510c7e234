"""CSV and spreadsheets, both ways, pure and stdlib only.

Writing: every CSV the hall writes passes its text cells through ``safe_cell``. A text cell starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return is read as a formula by LibreOffice and Excel (``=HYPERLINK(…)``
typed as a claimed card ID would become a live link in the report). Such a cell gets a leading ``'``, which
spreadsheets show as text. Numbers (int, Decimal) are left as they are: write amounts as numbers.

Reading: CSV as a French spreadsheet writes it (semicolons, UTF-8 with a BOM or Windows-1252). ``as_plain_csv(raw)``
decodes the bytes robustly and rewrites the rows comma-separated, one output line per input line, so that the
card book's line-numbered errors still point at the right line.
"""
from __future__ import annotations

import csv
import io

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
DELIMITERS = ",;\t"


def safe_cell(value: object) -> object:
    """``value`` unchanged unless it is text a spreadsheet would run as a formula; then ``'`` + the text."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def decode(raw: bytes) -> str:
    """The text of a spreadsheet's CSV: UTF-8 (with or without BOM, or UTF-16 with BOM), else Windows-1252."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def delimiter_of(text: str) -> str:
    """The delimiter of the header line: the one of ``, ; TAB`` that it holds most often (``,`` by default)."""
    header = text.lstrip("\ufeff").split("\n", 1)[0]
    counts = {d: header.count(d) for d in DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def as_plain_csv(raw: bytes) -> str:
    """``raw`` rewritten as comma-separated UTF-8 text (cells trimmed; a spreadsheet's empty trailing cells dropped)."""
    text = decode(raw).lstrip("\ufeff")
    delimiter = delimiter_of(text)
    if delimiter == ",":
        return text
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    try:
        for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter):
            while row and not row[-1].strip():
                row.pop()
            writer.writerow([cell.strip() for cell in row])
    except csv.Error:
        return text       # unreadable as CSV (a field past the csv module's limit): the card book names the line
    return out.getvalue()
