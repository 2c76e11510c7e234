"""Cartons: the 3 × 9 card and its rules (RULES L1–L4), its one-line notation, the column conventions.

Notation: the three rows top to bottom, numbers separated by spaces, rows by ``/``:
``"4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90"``.

Column conventions (config ``[cards] columns``): ``"1-9"`` (default) puts 1–9 in column 0, 10–19 in
column 1 … 80–90 in column 8; ``"1-10"`` puts 1–10 in column 0, 11–20 in column 1 … 81–90 in column 8.
"Mode carton" (default) allows 0–3 numbers per column; ``every_column=True`` ("série de 6") asks 1–3.

Card IDs are ``hall/cartons/card_ids.py``'s; the planche generator is ``hall/cartons/planches.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hall.errors import InvalidCard, InvalidNumber
from hall.numbers import is_ascii_digits

COLUMN_CONVENTIONS = ("1-9", "1-10")

# number -> column (index 0 unused), one table per convention
_COLUMN_OF = {
    "1-9": (-1,) + tuple(min(n // 10, 8) for n in range(1, 91)),
    "1-10": (-1,) + tuple(min((n - 1) // 10, 8) for n in range(1, 91)),
}
_COLUMN_NUMBERS = {
    conv: tuple(tuple(n for n in range(1, 91) if table[n] == j) for j in range(9)) for conv, table in _COLUMN_OF.items()
}


def _column_table(columns: str) -> tuple[int, ...]:
    try:
        return _COLUMN_OF[columns]
    except (KeyError, TypeError):
        raise ValueError(f"unknown column convention {columns!r}, expected one of {COLUMN_CONVENTIONS}") from None


def column_spans(columns: str) -> tuple[tuple[int, ...], ...]:
    """The numbers of each of the 9 columns under the convention, ascending; raise ValueError for an unknown one."""
    _column_table(columns)
    return _COLUMN_NUMBERS[columns]


def check_columns(columns: str) -> str:
    """Return the column convention unchanged when it is one of COLUMN_CONVENTIONS; raise ValueError otherwise."""
    _column_table(columns)
    return columns


def _column_label(j: int, columns: str) -> str:
    span = _COLUMN_NUMBERS[columns][j]
    return f"colonne {j + 1} ({span[0]}–{span[-1]})"


def parse_number(value: object) -> int:
    """Return the ball number 1–90 given as an int or as decimal text; raise InvalidNumber otherwise."""
    if type(value) is int:
        n = value
    elif isinstance(value, str):
        text = value.strip()
        # isascii: int() would also read "٣" or "+4" or "4_2", which no ball machine or keyboard sends
        n = int(text) if is_ascii_digits(text) and len(text) <= 10 else 0
    else:
        n = 0
    if not 1 <= n <= 90:
        raise InvalidNumber(f"not a ball number: {value!r}")
    return n


def column_of(n: int, columns: str = "1-9") -> int:
    """Return the column 0..8 of ball number ``n`` under the convention; raise InvalidNumber if n is not 1–90."""
    return _column_table(columns)[parse_number(n)]


def _problems(rows: Sequence[Sequence[object]], columns: str, every_column: bool) -> list[str]:
    """Return every rule the rows break, in French, naming the row, number and column (empty when valid)."""
    table = _column_table(columns)
    if len(rows) != 3:
        return [f"le carton a {len(rows)} rangée(s), il en faut 3"]
    problems = _shape_problems(rows)
    if problems:
        return problems
    checked = [[n for n in row if isinstance(n, int)] for row in rows]  # all of them: each is an int (above)
    twice = _twice(checked, problems)
    for r, row in enumerate(checked, 1):
        problems += _same_column(r, row, table, columns)
    for j in range(9):
        problems += _column_problems(j, checked, table, columns, twice, every_column)
    return problems


def _shape_problems(rows: Sequence[Sequence[object]]) -> list[str]:
    """Numbers that are no ball numbers, rows that do not hold 5."""
    problems = []
    for r, row in enumerate(rows, 1):
        for x in row:
            if type(x) is not int or not 1 <= x <= 90:
                problems.append(f"rangée {r} : « {x} » n'est pas un numéro de 1 à 90")
        if len(row) != 5:
            problems.append(f"la rangée {r} a {len(row)} numéro(s), il en faut 5")
    return problems


def _twice(checked: list[list[int]], problems: list[str]) -> set[int]:
    """The numbers printed twice on the carton, each said in ``problems``."""
    seen: dict[int, int] = {}
    twice: set[int] = set()
    for r, row in enumerate(checked, 1):
        for n in row:
            if n in seen:
                where = f"dans la rangée {r}" if seen[n] == r else f"rangées {seen[n]} et {r}"
                problems.append(f"le numéro {n} apparaît deux fois ({where})")
                twice.add(n)
            seen.setdefault(n, r)
    return twice


def _same_column(r: int, row: list[int], table: Sequence[int], columns: str) -> list[str]:
    """Numbers of row ``r`` that share a column."""
    by_column: dict[int, list[int]] = {}
    for n in sorted(set(row)):
        by_column.setdefault(table[n], []).append(n)
    return [
        f"rangée {r} : {' et '.join(map(str, ns))} sont dans la même {_column_label(j, columns)}"
        for j, ns in sorted(by_column.items())
        if len(ns) > 1
    ]


def _column_problems(
    j: int, checked: list[list[int]], table: Sequence[int], columns: str, twice: set[int], every_column: bool
) -> list[str]:
    """Column ``j``: its numbers must grow downwards, and (in a series of 6) it must hold one."""
    problems = []
    cells = [(n, r) for r, row in enumerate(checked, 1) for n in sorted(set(row)) if table[n] == j and n not in twice]
    for (a, ra), (b, rb) in zip(cells, cells[1:]):
        if a > b:
            problems.append(
                f"{_column_label(j, columns)} : {a} (rangée {ra}) est au-dessus de {b} (rangée {rb}), "
                "les numéros d'une colonne doivent croître vers le bas"
            )
    if every_column and not any(table[n] == j for row in checked for n in row):
        problems.append(f"{_column_label(j, columns)} vide : en série de 6, chaque colonne porte au moins un numéro")
    return problems


def _is_valid(rows: Sequence[Sequence[int]], table: Sequence[int], every_column: bool) -> bool:
    """Fast check of rows (each sorted) against L1–L4, no message. Columns are increasing intervals, so
    the 15 numbers read column by column, top to bottom within a column, must be strictly increasing."""
    if len(rows) != 3:
        return False
    r0, r1, r2 = rows
    if len(r0) != 5 or len(r1) != 5 or len(r2) != 5:
        return False
    if min(r0[0], r1[0], r2[0]) < 1 or max(r0[4], r1[4], r2[4]) > 90:
        return False
    grid = [0] * 27  # column-major: cell (row r, column j) at 3j + r
    for n in r0:
        grid[table[n] * 3] = n
    for n in r1:
        grid[table[n] * 3 + 1] = n
    for n in r2:
        grid[table[n] * 3 + 2] = n
    ordered = list(filter(None, grid))
    if len(ordered) != 15 or ordered != sorted(ordered) or len(set(ordered)) != 15:
        return False  # two numbers of a row in one column, a column not ascending, or a number twice
    return not every_column or all(grid[i] or grid[i + 1] or grid[i + 2] for i in range(0, 27, 3))


def validate_rows(rows: Iterable[Iterable[object]], columns: str = "1-9", every_column: bool = False) -> None:
    """Return None when the rows (each in any order) make a valid carton; raise InvalidCard naming every problem."""
    _checked_rows(rows, columns, every_column)


def _checked_rows(rows: Any, columns: str, every_column: bool) -> tuple[tuple[int, ...], ...]:
    table = _column_table(columns)
    try:
        rows = tuple(tuple(row) for row in rows)
    except TypeError:
        raise InvalidCard("un carton est une suite de 3 rangées de 5 numéros") from None
    if all(type(n) is int for row in rows for n in row):
        rows = tuple(tuple(sorted(row)) for row in rows)
        if _is_valid(rows, table, every_column):
            return rows
    raise InvalidCard(" ; ".join(_problems(rows, columns, every_column)) or "carton invalide")


@dataclass(frozen=True, slots=True)
class Card:
    """A valid carton: 3 rows of 5 ascending numbers. Build it with ``parse`` or ``from_rows``, which validate."""

    rows: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    # Filled on first use: a frozenset costs ~730 bytes and would more than double a 100 000-carton book.
    _numbers: frozenset[int] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rows = self.rows
        if not (
            type(rows) is tuple
            and len(rows) == 3
            and type(rows[0]) is type(rows[1]) is type(rows[2]) is tuple
            and len(rows[0]) == len(rows[1]) == len(rows[2]) == 5
        ):
            raise InvalidCard("Card(rows) attend 3 tuples de 5 numéros ; utilisez Card.from_rows ou Card.parse")

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[object]], columns: str = "1-9", every_column: bool = False) -> Card:
        """Return the carton of these rows (each in any order); raise InvalidCard naming every problem."""
        return cls(_checked_rows(rows, columns, every_column))  # type: ignore[arg-type]

    @classmethod
    def parse(cls, text: str, columns: str = "1-9", every_column: bool = False) -> Card:
        """Return the carton written ``"4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90"``; raise InvalidCard."""
        if not isinstance(text, str):
            raise InvalidCard(f"un carton s'écrit en texte, pas {type(text).__name__}")
        parts = text.split("/")
        if len(parts) != 3:
            raise InvalidCard(f"il faut 3 rangées séparées par « / », j'en trouve {len(parts)} dans « {text.strip()} »")
        return cls.from_row_texts(parts, columns, every_column)

    @classmethod
    def from_row_texts(cls, texts: Sequence[str], columns: str = "1-9", every_column: bool = False) -> Card:
        """Return the carton of three row texts like ``"4 13 37 52 80"`` (CSV fields); raise InvalidCard."""
        table = _column_table(columns)
        tokens = [text.split() for text in texts]
        if len(tokens) == 3 and len(tokens[0]) == len(tokens[1]) == len(tokens[2]) == 5:
            flat = tokens[0] + tokens[1] + tokens[2]
            digits = "".join(flat)
            # isascii: int() would also read "٣"; the length bound keeps int() away from huge texts
            if digits.isdigit() and digits.isascii() and len(digits) <= 45:
                numbers = list(map(int, flat))
                rows = (tuple(sorted(numbers[:5])), tuple(sorted(numbers[5:10])), tuple(sorted(numbers[10:])))
                if _is_valid(rows, table, every_column):
                    return cls(rows)
        bad = []
        parsed: list[tuple[int, ...]] = []
        for r, row_tokens in enumerate(tokens, 1):
            row = []
            for token in row_tokens:
                try:
                    row.append(parse_number(token))
                except InvalidNumber:
                    bad.append(f"rangée {r} : « {token} » n'est pas un numéro de 1 à 90")
            if len(row_tokens) != 5:
                bad.append(f"la rangée {r} a {len(row_tokens)} numéro(s), il en faut 5")
            parsed.append(tuple(sorted(row)))
        if len(tokens) != 3:
            bad.insert(0, f"le carton a {len(tokens)} rangée(s), il en faut 3")
        raise InvalidCard(" ; ".join(bad or _problems(parsed, columns, every_column)) or "carton invalide")

    @property
    def numbers(self) -> frozenset[int]:
        """Return the 15 numbers of the carton."""
        numbers = self._numbers
        if numbers is None:
            numbers = frozenset(self.rows[0] + self.rows[1] + self.rows[2])
            object.__setattr__(self, "_numbers", numbers)
        return numbers

    def row_of(self, n: int) -> int | None:
        """Return the row index 0..2 holding ``n``, or None when the carton does not hold it."""
        for r, row in enumerate(self.rows):
            if n in row:
                return r
        return None

    def notation(self) -> str:
        """Return the one-line notation ``"4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90"``."""
        return " / ".join(" ".join(map(str, row)) for row in self.rows)

    def grid(self, columns: str = "1-9") -> tuple[tuple[int | None, ...], ...]:
        """Return the 3 × 9 grid as printed, None for a blank cell."""
        table = _column_table(columns)
        out = []
        for row in self.rows:
            cells: list[int | None] = [None] * 9
            for n in row:
                cells[table[n]] = n
            out.append(tuple(cells))
        return tuple(out)

    def __str__(self) -> str:
        return self.notation()
