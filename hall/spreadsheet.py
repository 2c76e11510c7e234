"""CSV and spreadsheets, both ways, pure and stdlib only.

Writing: every CSV the hall writes passes its text cells through ``safe_cell``. A text cell starting with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return is read as a formula by LibreOffice and Excel (``=HYPERLINK(…)``
typed as a claimed card ID would become a live link in the report). Such a cell gets a leading ``'``, which
spreadsheets show as text. Numbers (int, Decimal) are left as they are: write amounts as numbers.

The report's CSV goes further (``protect_text``): text a spreadsheet would take for a number, a date, a time, a
percentage, an amount or a truth value (a carton ``000123``, ``0042``, ``12E3``; a label ``12/03``) gets the same
leading ``'``. LibreOffice Calc 7.4 was asked (``soffice --headless --infilter=CSV:59,34,76,… --convert-to xlsx``,
formulas evaluated or not, special numbers detected or not): ``000123`` becomes the number 123 and ``12E3`` 12000;
``'000123`` stays the text ``'000123`` in every setting (the apostrophe is shown); ``="000123"`` is the text
000123 only when Calc evaluates formulas, and the literal ``="000123"`` when it does not — and it is a formula,
which no cell of the hall ever is. So the apostrophe: text everywhere, never a formula. The workbook
(``loto-hall report --xlsx``) has typed cells and needs none of this.

Reading: CSV as a French spreadsheet writes it (semicolons, UTF-8 with a BOM or Windows-1252). ``as_plain_csv(raw)``
decodes the bytes robustly and rewrites the rows comma-separated, one output line per input line, so that the
card book's line-numbered errors still point at the right line.
"""

from __future__ import annotations

import csv
import io
import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
DELIMITERS = ",;\t"
_MONTHS = (
    r"janv?|f[ée]vr?|mars|avr|mai|juin|juil|ao[uû]t?|sept?|oct|nov|d[ée]c|jan|feb|mar|apr|may|jun|jul|aug|"
    r"dec|[a-zéû]+uary|[a-z]+ember|avril|juillet|october|march|april|june|july|august|janvier|février|fevrier"
)
# what a spreadsheet reads as a number, an amount, a percentage, a date, a time or a truth value (checked against
# LibreOffice Calc 7.4, French and English settings, « détecter les nombres spéciaux » on and off)
NUMBER_LIKE = re.compile(
    r"[-+]?[(]?[$€£]?\s*[\d\s\u00a0\u202f.,]*\d[\d\s\u00a0\u202f.,]*([eE][-+]?\d+)?\s*[$€£%]?[)]?"  # 000123 12E3 1 234 3,50 € 50%
    r"|\d{1,4}[-/.]\d{1,2}([-/.]\d{1,4})?"  # 12/03 2026-11-21
    r"|\d{1,2}:\d{2}(:\d{2}([.,]\d+)?)?(\s*[ap]\.?m\.?)?"  # 12:30
    r"|(" + _MONTHS + r")\.?[\s\-/.]*\d{1,4}|\d{1,2}[\s\-/.]*(" + _MONTHS + r")\.?([\s\-/.]*\d{2,4})?"  # mars 12
    r"|true|false|vrai|faux",
    re.IGNORECASE,
)


def safe_cell(value: object) -> object:
    """``value`` unchanged unless it is text a spreadsheet would run as a formula; then ``'`` + the text."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def number_like(text: str) -> bool:
    """Whether a spreadsheet opening a CSV would turn ``text`` into something else than text (a number, a date…)."""
    return bool(NUMBER_LIKE.fullmatch(text.strip()))


def protect_text(value: object) -> object:
    """``value`` unchanged unless it is text a spreadsheet would run as a formula or read as a number, a date, a
    time or a truth value; then ``'`` + the text (kept as text, never a formula: see the module's note)."""
    if isinstance(value, str) and (value.startswith(FORMULA_STARTS) or (len(value) <= 64 and number_like(value))):
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
        return text  # unreadable as CSV (a field past the csv module's limit): the card book names the line
    return out.getvalue()
