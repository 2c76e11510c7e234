"""Cartons: the 3 × 9 card and its rules (RULES L1–L4), its one-line notation, the planche generator, card IDs.

Notation: the three rows top to bottom, numbers separated by spaces, rows by ``/``:
``"4 13 37 52 80 / 9 21 45 66 84 / 18 29 58 74 90"``.

Column conventions (config ``[cards] columns``): ``"1-9"`` (default) puts 1–9 in column 0, 10–19 in
column 1 … 80–90 in column 8; ``"1-10"`` puts 1–10 in column 0, 11–20 in column 1 … 81–90 in column 8.
"Mode carton" (default) allows 0–3 numbers per column; ``every_column=True`` ("série de 6") asks 1–3.

Generated card IDs look like ``A-00412B``: ``{SERIES}-{NNNNN}{C}``.
SERIES is 1–3 upper-case letters. NNNNN is the carton number, zero-padded to 5 digits; a number
above 99 999 simply takes more digits (and then never starts with 0). C is a check character:
Luhn mod N with N = 34 over the characters of SERIES + NNNNN (hyphen left out), in the alphabet
``0-9`` and ``A-Z`` without ``I`` and ``O`` (A = 10 … Z = 33), which are never used, in series or
check, so that a controller's typed ``O`` or ``I`` can only mean ``0`` or ``1`` (``normalize_card_id``
reads them so). A decimal check digit cannot protect a letter: 24 letters share 10 check values
(pigeonhole), so some mistyped letters would pass. With N = 34 the Luhn "doubling" is a permutation
of the 34 values, so EVERY single mistyped character is caught; an adjacent swap is caught too,
except the one pair 0↔Z (it can only occur between the last digit and C).
Any other ID of 1–32 characters ``A–Z a–z 0–9 -`` is accepted from a CSV without a check.
"""
from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hall.errors import InvalidCard, InvalidNumber
from hall.numbers import is_ascii_digits, is_card_id

COLUMN_CONVENTIONS = ("1-9", "1-10")

# number -> column (index 0 unused), one table per convention
_COLUMN_OF = {
    "1-9": (-1,) + tuple(min(n // 10, 8) for n in range(1, 91)),
    "1-10": (-1,) + tuple(min((n - 1) // 10, 8) for n in range(1, 91)),
}
_COLUMN_NUMBERS = {
    conv: tuple(tuple(n for n in range(1, 91) if table[n] == j) for j in range(9))
    for conv, table in _COLUMN_OF.items()
}


def _column_table(columns: str) -> tuple[int, ...]:
    try:
        return _COLUMN_OF[columns]
    except (KeyError, TypeError):
        raise ValueError(f"unknown column convention {columns!r}, expected one of {COLUMN_CONVENTIONS}") from None


def check_columns(columns: str) -> str:
    """Return the column convention unchanged when it is one of COLUMN_CONVENTIONS; raise ValueError otherwise."""
    _column_table(columns)
    return columns


def _column_label(j: int, columns: str) -> str:
    span = _COLUMN_NUMBERS[columns][j]
    return f"colonne {j + 1} ({span[0]}–{span[-1]})"


def parse_number(value: str | int) -> int:
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


def _problems(rows: Sequence[Sequence[Any]], columns: str, every_column: bool) -> list[str]:
    """Return every rule the rows break, in French, naming the row, number and column (empty when valid)."""
    table = _column_table(columns)
    if len(rows) != 3:
        return [f"le carton a {len(rows)} rangée(s), il en faut 3"]
    problems = []
    for r, row in enumerate(rows, 1):
        for x in row:
            if type(x) is not int or not 1 <= x <= 90:
                problems.append(f"rangée {r} : « {x} » n'est pas un numéro de 1 à 90")
        if len(row) != 5:
            problems.append(f"la rangée {r} a {len(row)} numéro(s), il en faut 5")
    if problems:
        return problems
    seen: dict[int, int] = {}
    twice: set[int] = set()
    for r, row in enumerate(rows, 1):
        for n in row:
            if n in seen:
                where = f"dans la rangée {r}" if seen[n] == r else f"rangées {seen[n]} et {r}"
                problems.append(f"le numéro {n} apparaît deux fois ({where})")
                twice.add(n)
            seen.setdefault(n, r)
    for r, row in enumerate(rows, 1):
        by_column: dict[int, list[int]] = {}
        for n in sorted(set(row)):
            by_column.setdefault(table[n], []).append(n)
        for j, ns in sorted(by_column.items()):
            if len(ns) > 1:
                listed = " et ".join(map(str, ns))
                problems.append(f"rangée {r} : {listed} sont dans la même {_column_label(j, columns)}")
    for j in range(9):
        cells = [(n, r) for r, row in enumerate(rows, 1) for n in sorted(set(row)) if table[n] == j and n not in twice]
        for (a, ra), (b, rb) in zip(cells, cells[1:]):
            if a > b:
                problems.append(
                    f"{_column_label(j, columns)} : {a} (rangée {ra}) est au-dessus de {b} (rangée {rb}), "
                    "les numéros d'une colonne doivent croître vers le bas"
                )
        if every_column and not any(table[n] == j for row in rows for n in row):
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


def validate_rows(rows: Iterable[Iterable[Any]], columns: str = "1-9", every_column: bool = False) -> None:
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
        if not (type(rows) is tuple and len(rows) == 3 and type(rows[0]) is type(rows[1]) is type(rows[2]) is tuple
                and len(rows[0]) == len(rows[1]) == len(rows[2]) == 5):
            raise InvalidCard("Card(rows) attend 3 tuples de 5 numéros ; utilisez Card.from_rows ou Card.parse")

    @classmethod
    def from_rows(cls, rows: Iterable[Iterable[Any]], columns: str = "1-9", every_column: bool = False) -> Card:
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


# ---------------------------------------------------------------- planche generator

def _shuffle(items: list[Any], rnd: Callable[[], float]) -> None:
    """Shuffle in place with ``rnd = rng.random``: Fisher–Yates, several times faster than
    ``Random.shuffle`` (one C call per element instead of a Python ``_randbelow``)."""
    for i in range(len(items) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        items[i], items[j] = items[j], items[i]


def _column_extras(rnd: Callable[[], float], sizes: Sequence[int]) -> list[list[int]]:
    """Return, per column, the cartons (0–5) that get one more number of it than the one every carton
    gets: 6 extras per carton, at most 2 per carton and column, len(result[j]) = sizes[j] - 6."""
    # The 36 extras are cut from a shuffled urn of carton labels, reshuffled when a carton would get
    # 3 extras in one column (about 45 % of tries; a try costs a few microseconds).
    urn = [c for c in range(6) for _ in range(6)]
    while True:
        _shuffle(urn, rnd)
        extras = []
        i = 0
        for size in sizes:
            chunk = urn[i:i + size - 6]
            i += size - 6
            if max(map(chunk.count, chunk), default=0) > 2:
                break
            extras.append(chunk)
        else:
            return extras


_ROWS_WITHOUT = ((1, 2), (0, 2), (0, 1))


def _card_rows(rnd: Callable[[], float],
               dealt: list[list[int]]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Return the 3 rows of one carton: column j holds the 1–3 ascending numbers dealt[j] on randomly
    chosen rows, 5 per row; filling top rows first keeps each column ascending downward (L4)."""
    # A 3-number column fills every row; a 2-number column misses one row; a 1-number column sits on one.
    # Row r needs 5 = threes + (twos - twos missing r) + singles on r, hence singles[r] below.
    counts = [len(ns) for ns in dealt]
    twos = counts.count(2)
    base = 5 - counts.count(3) - twos
    while True:
        missing = [int(rnd() * 3) for _ in range(twos)]
        singles = [base + missing.count(r) for r in range(3)]
        if min(singles) >= 0:
            break
    single_rows = [0] * singles[0] + [1] * singles[1] + [2] * singles[2]
    _shuffle(single_rows, rnd)
    rows: tuple[list[int], list[int], list[int]] = ([], [], [])
    next_missing = iter(missing).__next__
    next_single = iter(single_rows).__next__
    for j in range(9):  # columns in order, so every row comes out ascending
        ns = dealt[j]
        k = counts[j]
        if k == 3:
            rows[0].append(ns[0])
            rows[1].append(ns[1])
            rows[2].append(ns[2])
        elif k == 2:
            top, bottom = _ROWS_WITHOUT[next_missing()]
            rows[top].append(ns[0])
            rows[bottom].append(ns[1])
        else:
            rows[next_single()].append(ns[0])
    return (tuple(rows[0]), tuple(rows[1]), tuple(rows[2]))


def generate_planche(rng: random.Random, columns: str = "1-9") -> tuple[Card, ...]:
    """Return 6 cartons covering 1–90 exactly once, each with 1–3 numbers in every column."""
    _column_table(columns)
    spans = _COLUMN_NUMBERS[columns]
    rnd = rng.random
    # dealt[c][j]: the numbers of column j that carton c gets, ascending
    dealt: list[list[list[int]]] = [[[] for _ in range(9)] for _ in range(6)]
    for j, (span, extra) in enumerate(zip(spans, _column_extras(rnd, [len(span) for span in spans]))):
        labels = [0, 1, 2, 3, 4, 5, *extra]
        _shuffle(labels, rnd)
        for n, c in zip(span, labels):
            dealt[c][j].append(n)
    return tuple(Card(_card_rows(rnd, dealt[c])) for c in range(6))


def generate_cards(count: int, seed: int | str, series: str = "A", columns: str = "1-9",
                   start: int = 1) -> list[tuple[str, Card]]:
    """Return ``count`` (id, carton) pairs from planches of 6, the same for the same seed; ids series-start…"""
    if type(count) is not int or count < 0:
        raise ValueError(f"count must be a whole number ≥ 0, not {count!r}")
    make_card_id(series, start)  # validates series and start before any work
    _column_table(columns)
    rng = random.Random(seed)
    cards: list[Card] = []
    while len(cards) < count:
        cards.extend(generate_planche(rng, columns))
    return [(make_card_id(series, start + i), card) for i, card in enumerate(cards[:count])]


# ---------------------------------------------------------------- card IDs

_ALPHABET = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"   # no I, no O: they read as 1 and 0
_N = len(_ALPHABET)
_VALUE = {ch: v for v, ch in enumerate(_ALPHABET)}
_SERIES = re.compile(r"[A-HJ-NP-Z]{1,3}")
_GENERATED = re.compile(r"([A-HJ-NP-Z]{1,3})-(\d{5}|[1-9]\d{5,})([0-9A-HJ-NP-Z])")
_TYPED = re.compile(r"([A-HJ-NP-Z]{1,3})-([0-9OI]{5,}[0-9A-Z])")
CARD_ID = re.compile(r"[A-Za-z0-9-]{1,32}")


def _luhn_sum(payload: str, double_last: bool) -> int:
    total = 0
    double = double_last
    for ch in reversed(payload):
        v = _VALUE[ch]
        if double:
            v *= 2
            v = v // _N + v % _N
        total += v
        double = not double
    return total


def _check_character(payload: str) -> str:
    return _ALPHABET[-_luhn_sum(payload, True) % _N]


def make_card_id(series: str, number: int) -> str:
    """Return the generated ID ``SERIES-NNNNNC`` of carton ``number`` (e.g. ``A-00412`` + check character)."""
    if not isinstance(series, str) or not _SERIES.fullmatch(series):
        raise ValueError(f"a series is 1 to 3 upper-case letters other than I and O, not {series!r}")
    if type(number) is not int or number < 0:
        raise ValueError(f"a carton number is a whole number ≥ 0, not {number!r}")
    digits = f"{number:05d}"
    if len(series) + len(digits) + 2 > 32:
        raise ValueError(f"carton number {number} too large for a 32-character ID")
    return f"{series}-{digits}{_check_character(series + digits)}"


def split_card_id(card_id: str) -> tuple[str, int] | None:
    """Return (series, number) of a generated-form ID (check character not verified), else None."""
    m = _GENERATED.fullmatch(card_id) if isinstance(card_id, str) else None
    return (m.group(1), int(m.group(2))) if m else None


def check_card_id(card_id: str) -> bool | None:
    """Return None when the text is not of the generated form, else whether its check character is right."""
    m = _GENERATED.fullmatch(card_id) if isinstance(card_id, str) else None
    if m is None:
        return None
    series, digits, check = m.groups()
    return _luhn_sum(series + digits + check, False) % _N == 0


_LENIENT = re.compile(r"([A-HJ-NP-Z]{1,3})([0-9OI]{5,}[0-9A-Z])")
_TYPING_NOISE = str.maketrans("", "", " \t\u00a0\u202f\u00b7._/")   # spaces, the shown form's gap, dots


def normalize_card_id(text: str) -> str:
    """Return the ID as stored, from the way people type it: spaces and dots dropped; a generated-form ID typed
    in lower case, without its dash, or with ``O``/``I`` for ``0``/``1`` is put right. Other IDs are only
    trimmed of spaces."""
    compact = "".join(text.split())
    upper = compact.translate(_TYPING_NOISE).upper()
    m = _LENIENT.fullmatch(upper.replace("-", "", 1) if upper.count("-") == 1 else upper)
    if m is None:
        return compact
    series, rest = m.groups()
    fixed = f"{series}-{rest[:-1].replace('O', '0').replace('I', '1')}{rest[-1].replace('O', '0').replace('I', '1')}"
    return fixed if _GENERATED.fullmatch(fixed) else compact


MAX_CLAIM_TEXT = 64      # characters of a typed or scanned claim read at all (an ID has 32 at most)


def claimable_card_id(text: object) -> bool:
    """Whether a claim's text, typed or scanned, can name a carton (INTERFACE §4): at most 64 characters that
    read, leniently (``normalize_card_id``), as a card ID. The one gate of every claim, whatever its source:
    ``=HYPERLINK(…)`` or ``-1-1`` is refused before the journal sees it."""
    return isinstance(text, str) and len(text) <= MAX_CLAIM_TEXT and is_card_id(normalize_card_id(text))


def display_card_id(card_id: str) -> str:
    """The ID as printed and shown: a generated ID with its check character set apart (``A-00412 K``, a no-break
    space), so it is never read as part of the number; other IDs unchanged. Typed back, it is the same ID."""
    m = _GENERATED.fullmatch(card_id) if isinstance(card_id, str) else None
    return f"{m.group(1)}-{m.group(2)}\u00a0{m.group(3)}" if m else card_id


_ID_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-"


def one_character_variants(card_id: str) -> set[str]:
    """Every text one keystroke from ``card_id``: one character changed, left out, added, or two neighbours swapped.

    About 130 × length texts whatever the size of the card book, so looking them up stays fast on 100 000 cartons.
    """
    out: set[str] = set()
    n = len(card_id)
    for i in range(n + 1):
        head, tail = card_id[:i], card_id[i:]
        for ch in _ID_CHARS:
            out.add(head + ch + tail)                      # a character left out by the typist
            if i < n:
                out.add(head + ch + tail[1:])              # a character mistyped
        if i < n:
            out.add(head + tail[1:])                       # a character typed twice or by mistake
        if i < n - 1:
            out.add(head + tail[1] + tail[0] + tail[2:])   # two neighbours swapped
    out.discard(card_id)
    return out
