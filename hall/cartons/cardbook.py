"""The hall's card book: every carton by ID, which ones are sold, and its CSV file (INTERFACE §2).

CSV: UTF-8 (a BOM is tolerated), comma separated, header ``card_id,row1,row2,row3`` with an optional
``sold`` column (``0``/``1``). A file with any bad line is refused whole, every bad line listed with its
line number (the header is line 1). IDs of the generated form typed in lower case are stored upper case.

Spreadsheets: an ID a spreadsheet would read as a number, a date or a truth value (``000123``, ``12E3``,
``MAR-12``) is written with a leading ``'`` (``hall.spreadsheet.protect_text``), which LibreOffice keeps as part of
the text and writes back; reading takes one leading ``'`` off. An ID that a spreadsheet has already turned into a
number (``123`` where the book holds ``000123``, ``12000`` for ``12E3``) is refused on import, naming its line.
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import IO

from hall.cartons.card_ids import (
    CARD_ID,
    check_card_id,
    make_card_id,
    normalize_card_id,
    one_character_variants,
    read_card_id,
    split_card_id,
)
from hall.cartons.cards import Card, check_columns
from hall.errors import InvalidCard, InvalidCardFile, RangeTooLarge
from hall.numbers import is_card_id
from hall.record.durable import replacing
from hall.spreadsheet import number_like, protect_text

FILE_NAME = "cards.csv"
HEADER = ("card_id", "row1", "row2", "row3")
_MAX_ID = 32
_NUMERIC_ID = re.compile(r"\d+(?:[eE]\d+)?")  # IDs a spreadsheet reads as a number: 000123, 12E3
_AS_WRITTEN = re.compile(r"0|[1-9]\d*")  # a whole number as a spreadsheet writes it back


def _id_problem(card_id: str) -> str | None:
    """Return what is wrong with a CSV card ID, or None when it is fine."""
    if is_card_id(card_id):
        return None
    if CARD_ID.fullmatch(card_id):
        return (
            f"l'identifiant « {card_id} » doit commencer et finir par une lettre ou un chiffre, sans « -- », "
            "et contenir une lettre s'il a un tiret"
        )
    if not card_id:
        return "identifiant vide"
    if len(card_id) <= 64 and number_like(card_id) and any(ch in card_id for ch in ".,+ "):
        return (
            f"l'identifiant « {card_id[:40]} » ressemble à un nombre récrit par un tableur : remettez l'identifiant "
            "du carnet, précédé d'une apostrophe pour que le tableur le garde en texte"
        )
    if len(card_id) > _MAX_ID:
        return f"l'identifiant « {card_id[:40]} » a {len(card_id)} caractères, {_MAX_ID} au plus"
    bad = " ".join(
        ch if ch.isprintable() and not ch.isspace() else f"U+{ord(ch):04X}"
        for ch in sorted({ch for ch in card_id if not CARD_ID.fullmatch(ch)})
    )
    return f"l'identifiant « {card_id!s:.40} » contient {bad} ; seuls A–Z, a–z, 0–9 et - sont permis"


def _utf8_lines(raw_lines: Iterable[bytes], errors: list[tuple[int, str]]) -> Iterator[str]:
    """Yield the decoded lines, noting in ``errors`` every line that is not UTF-8."""
    for number, raw in enumerate(raw_lines, 1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            errors.append((number, "texte illisible : enregistrez le fichier en UTF-8"))
            yield raw.decode("utf-8", "replace")


class CardBook:
    """The hall's cartons by ID (insertion order) and, when the hall records sales, the sold ones. Immutable."""

    __slots__ = ("_cards", "_sold")

    def __init__(self, cards: dict[str, Card] | None = None, sold: set[str] | None = None):
        cards = dict(cards or {})
        for card_id, card in cards.items():
            problem = _id_problem(card_id) if isinstance(card_id, str) else "identifiant non textuel"
            if problem:
                raise ValueError(problem)
            if not isinstance(card, Card):
                raise TypeError(f"{card_id}: a Card is expected, not {type(card).__name__}")
        sold = None if sold is None else set(sold)
        if sold is not None and not sold <= cards.keys():
            raise KeyError(f"cartons vendus inconnus : {', '.join(sorted(sold - cards.keys()))}")
        self._cards = cards
        self._sold = sold

    @classmethod
    def _trusted(cls, cards: dict[str, Card], sold: set[str] | None) -> CardBook:
        book = cls.__new__(cls)
        book._cards = cards
        book._sold = sold
        return book

    # ------------------------------------------------------------ reading

    def _key(self, card_id: str) -> str:
        if card_id in self._cards or not isinstance(card_id, str):
            return card_id
        return normalize_card_id(card_id)

    def resolve(self, text: str) -> str:
        """The card book's ID for ``text`` as typed, scanned or linked (``read_card_id``: the exact ID, the URL
        form, no dash, lower case, spaces, O/I for 0/1, the short ``D-2``), else the typed reading put right."""
        return read_card_id(text, self._cards.__contains__)

    def near(self, card_id: str, limit: int = 5) -> list[str]:
        """The book's IDs one keystroke from ``card_id`` (a character changed, missing, added, or two swapped),
        sorted, at most ``limit``; bounded work (``one_character_variants``), whatever the book's size."""
        if not isinstance(card_id, str) or not 0 < len(card_id) <= 40:
            return []
        # the variants are compared as they are: normalising them again (a dash put back, O read as 0) would
        # reach IDs two keystrokes away, which "vérifiez le numéro" must not offer
        found = {v for v in one_character_variants(card_id) if v != card_id and v in self._cards}
        return sorted(found)[:limit]

    def get(self, card_id: str) -> Card | None:
        """Return the carton with this ID (typed with spaces or in lower case too), or None."""
        return self._cards.get(self._key(card_id))

    @property
    def records_sales(self) -> bool:
        """Return whether the hall records which cartons are sold."""
        return self._sold is not None

    def is_sold(self, card_id: str) -> bool:
        """Return whether the carton is sold; always True when the hall does not record sales."""
        return self._sold is None or self._key(card_id) in self._sold

    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, card_id: object) -> bool:
        return isinstance(card_id, str) and self._key(card_id) in self._cards

    def __iter__(self) -> Iterator[str]:
        return iter(self._cards)

    def items(self) -> Iterable[tuple[str, Card]]:
        """Return (ID, carton) pairs in insertion order."""
        return self._cards.items()

    def __repr__(self) -> str:
        sold = "not recorded" if self._sold is None else len(self._sold)
        return f"<CardBook {len(self._cards)} cartons, sold: {sold}>"

    # ------------------------------------------------------------ new books

    def merged(self, other: CardBook) -> CardBook:
        """Return a book with this book's cartons then other's; raise InvalidCardFile listing duplicate IDs.

        Line numbers are those of ``other`` as a CSV file (header = line 1), as ``cards import`` reads it.
        """
        duplicates = [
            (line, f"l'identifiant {card_id} existe déjà dans le carnet")
            for line, card_id in enumerate(other._cards, 2)
            if card_id in self._cards
        ]
        duplicates += self._number_twins(other)
        if duplicates:
            raise InvalidCardFile(sorted(duplicates))
        if self._sold is None and other._sold is None:
            sold = None
        else:  # a book that does not record sales counts all its cartons as sold
            sold = set(self._cards if self._sold is None else self._sold)
            sold |= set(other._cards if other._sold is None else other._sold)
        return CardBook._trusted({**self._cards, **other._cards}, sold)

    def _number_twins(self, other: CardBook) -> list[tuple[int, str]]:
        """The lines of ``other`` whose ID is one of this book's IDs after a spreadsheet made a number of it
        (``123`` for ``000123``, ``12000`` for ``12E3``): adding them would make a second carton of the same one."""
        written = [(line, card_id) for line, card_id in enumerate(other._cards, 2) if _AS_WRITTEN.fullmatch(card_id)]
        if not written:
            return []
        by_value = {Decimal(card_id): card_id for card_id in self._cards if _NUMERIC_ID.fullmatch(card_id)}
        twins = []
        for line, card_id in written:
            twin = by_value.get(Decimal(card_id))
            if twin is not None and twin != card_id:
                twins.append(
                    (
                        line,
                        f"l'identifiant {card_id} est sans doute {twin} du carnet, qu'un tableur a changé en nombre : "
                        f"écrivez '{twin} (l'apostrophe le garde en texte) ou ôtez la ligne",
                    )
                )
        return twins

    def with_sold(self, ids: Iterable[str], sold: bool) -> CardBook:
        """Return a copy with these cartons marked sold (or unsold); raise KeyError naming unknown IDs.

        A book that did not record sales starts recording: marking sold leaves only these sold,
        marking unsold leaves all the others sold.
        """
        keys = [self._key(card_id) for card_id in ids]
        unknown = [k for k in keys if k not in self._cards]
        if unknown:
            raise KeyError(f"cartons inconnus : {', '.join(unknown)}")
        if self._sold is not None:
            current = set(self._sold)
        else:  # recording starts now: with these sold and no other, or with all but these sold
            current = set() if sold else set(self._cards)
        if sold:
            current.update(keys)
        else:
            current.difference_update(keys)
        return CardBook._trusted(self._cards, current)

    # ------------------------------------------------------------ CSV

    @classmethod
    def read_csv(
        cls, source: str | os.PathLike | io.TextIOBase, columns: str = "1-9", every_column: bool = False
    ) -> CardBook:
        """Return the book in a card CSV; raise InvalidCardFile listing every bad line, loading nothing."""
        check_columns(columns)
        if isinstance(source, (str, os.PathLike)):
            with open(source, "rb") as f:
                errors: list[tuple[int, str]] = []
                return cls._parse_csv(_utf8_lines(f, errors), columns, every_column, errors)
        return cls._parse_csv(iter(source), columns, every_column, [])

    @classmethod
    def _parse_csv(
        cls, lines: Iterator[str], columns: str, every_column: bool, errors: list[tuple[int, str]]
    ) -> CardBook:
        reader = csv.reader(lines)
        has_sold = _read_header(reader, errors)
        width = 5 if has_sold else 4
        cards: dict[str, Card] = {}
        first_line: dict[str, int] = {}
        sold: set[str] = set()
        blank: list[int] = []
        while True:
            try:
                fields = next(reader, None)
            except csv.Error as e:  # a NUL byte, an unclosed quote, a huge field
                errors.append((reader.line_num, f"ligne illisible ({e})"))
                continue
            if fields is None:
                break
            line = reader.line_num
            if not "".join(fields).strip():
                blank.append(line)
                continue
            errors.extend((n, "ligne vide") for n in blank)
            blank.clear()
            if len(fields) != width:
                expected = ",".join(HEADER + (("sold",) if has_sold else ()))
                what = "champ manquant" if len(fields) < width else "champ en trop"
                errors.append((line, f"{what} : {len(fields)} champ(s), il en faut {width} ({expected})"))
                continue
            card_id, id_ok = _line_id(fields[0], line, first_line, errors)
            card = None
            try:
                card = Card.from_row_texts(fields[1:4], columns, every_column)
            except InvalidCard as e:
                errors.append((line, str(e)))
            if has_sold and _sold_flag(fields[4], line, errors):
                sold.add(card_id)
            if card is not None and id_ok:
                cards[card_id] = card
        if errors:
            raise InvalidCardFile(sorted(errors, key=lambda error: error[0]))
        return cls._trusted(cards, sold if has_sold else None)

    def write_csv(self, target: str | os.PathLike | io.TextIOBase) -> None:
        """Write the book as a card CSV (with the ``sold`` column only when sales are recorded)."""
        if isinstance(target, (str, os.PathLike)):
            with replacing(target, text=True, newline="") as f:
                self._write(f)
        else:
            self._write(target)

    def _write(self, f: IO[str] | io.TextIOBase) -> None:
        sold = self._sold
        lines = [",".join(HEADER + (("sold",) if sold is not None else ()))]
        for card_id, card in self._cards.items():
            rows = card.rows
            line = f"{protect_text(card_id)},{' '.join(map(str, rows[0]))},{' '.join(map(str, rows[1]))},{' '.join(map(str, rows[2]))}"
            if sold is not None:
                line += ",1" if card_id in sold else ",0"
            lines.append(line)
        f.write("\n".join(lines) + "\n")

    @classmethod
    def load(cls, data_dir: str | os.PathLike, columns: str = "1-9") -> CardBook:
        """Return the book saved in ``data_dir/cards.csv``, or an empty book when there is none."""
        path = Path(data_dir) / FILE_NAME
        if not path.exists():
            return cls()
        return cls.read_csv(path, columns)

    def save(self, data_dir: str | os.PathLike) -> None:
        """Write ``data_dir/cards.csv`` atomically: a power cut leaves the old file or the new one, whole."""
        with replacing(Path(data_dir) / FILE_NAME, text=True, newline="", mode=0o600) as f:
            self._write(f)

    # ------------------------------------------------------------ sold ranges

    @staticmethod
    def parse_id_ranges(text: str, limit: int | None = None) -> list[str]:
        """Return the IDs of ``"A-00001N..A-00010P, A-00042G"`` (ranges inclusive, one series, checks verified).

        Raise ValueError naming the faulty part; ``RangeTooLarge`` when the parts name more than ``limit``
        cartons, counted before a single range is expanded (``A-00000Q..A-2000000L`` is millions of IDs).
        """
        parts: list[tuple[str, int, int] | str] = []  # in the order given: an ID, or (series, first, last)
        total = 0
        for part in text.replace(";", ",").split(","):
            part = part.strip()
            if not part:
                continue
            item = _id_part(part) if ".." not in part else _range_part(part)
            parts.append(item)
            total += 1 if isinstance(item, str) else item[2] - item[1] + 1
            if limit is not None and total > limit:
                raise RangeTooLarge(total, limit)
        ids: dict[str, None] = {}
        for item in parts:
            if isinstance(item, str):
                ids[item] = None
                continue
            series, first, last = item
            for number in range(first, last + 1):
                ids[make_card_id(series, number)] = None
        return list(ids)


def _id_part(part: str) -> str:
    """One ID of a list of sold cartons, normalised; ValueError when it is none or mistyped."""
    card_id = normalize_card_id(part)
    if _id_problem(card_id):
        raise ValueError(f"« {part} » : {_id_problem(card_id)}")
    if check_card_id(card_id) is False:
        raise ValueError(f"« {part} » : caractère de contrôle faux, identifiant mal tapé ?")
    return card_id


def _range_part(part: str) -> tuple[str, int, int]:
    """``A-00001N..A-00010P`` as (series, first, last); ValueError naming what is wrong with it."""
    ends = [normalize_card_id(end) for end in part.split("..")]
    if len(ends) != 2:
        raise ValueError(f"« {part} » : une plage s'écrit DÉBUT..FIN")
    for end in ends:
        ok = check_card_id(end)
        if ok is None:
            raise ValueError(f"« {end} » : une plage relie deux identifiants générés (comme A-00001N)")
        if not ok:
            raise ValueError(f"« {end} » : caractère de contrôle faux, identifiant mal tapé ?")
    start, stop = (split_card_id(end) for end in ends)
    assert start is not None and stop is not None  # checked ids split
    (series, first), (series_end, last) = start, stop
    if series != series_end:
        raise ValueError(f"« {part} » : les deux bouts d'une plage doivent être de la même série")
    if first > last:
        raise ValueError(f"« {part} » : le début de la plage dépasse la fin")
    return series, first, last


def _read_header(reader: Iterator[list[str]], errors: list[tuple[int, str]]) -> bool:
    """Read a card CSV's header: whether it has the ``sold`` column; a header not ours is said in ``errors``
    (then a fifth column is taken for ``sold``), an empty or unreadable file refused."""
    try:
        header = next(reader, None)
    except csv.Error as e:  # a 200 KB header, a NUL byte: the file is refused, never a crash
        raise InvalidCardFile([(1, f"en-tête illisible ({e})")]) from None
    if header is None:
        raise InvalidCardFile([(1, f"fichier vide : l'en-tête {','.join(HEADER)} manque")])
    if header:
        header[0] = header[0].removeprefix("\ufeff")  # the BOM some spreadsheets write
    names = tuple(name.strip().lower() for name in header)
    if names in (HEADER, HEADER + ("sold",)):
        return names == HEADER + ("sold",)
    errors.append(
        (1, f"en-tête « {','.join(header)} » : il faut « {','.join(HEADER)} » ou « {','.join(HEADER)},sold »")
    )
    return len(header) == 5


def _line_id(text: str, line: int, first_line: dict[str, int], errors: list[tuple[int, str]]) -> tuple[str, bool]:
    """The carton ID of a CSV line and whether it is one (a problem, or a repeat, said in ``errors``)."""
    card_id = text.strip().removeprefix("'")  # the apostrophe that keeps 000123 text in a spreadsheet
    problem = _id_problem(card_id)
    if problem:
        errors.append((line, problem))
        return card_id, False
    if not card_id.isupper() and "-" in card_id:  # only a lower-case generated-form ID changes
        card_id = normalize_card_id(card_id)
    if card_id in first_line:
        errors.append((line, f"l'identifiant {card_id} est déjà à la ligne {first_line[card_id]}"))
    else:
        first_line[card_id] = line
    return card_id, True


def _sold_flag(text: str, line: int, errors: list[tuple[int, str]]) -> bool:
    """Whether a line's ``sold`` says 1 (anything but 0 or 1 said in ``errors``)."""
    flag = text.strip()
    if flag not in ("0", "1"):
        errors.append((line, f"sold vaut « {flag} », il faut 0 ou 1"))
    return flag == "1"
