"""Text as the ESC/POS printer can print it: CP858 letters only, no control byte, lines wrapped at spaces first.

Every text of every ticket (vouchers, the board's copy, the test ticket) passes through ``printable``: a letter the
code page lacks is written with the nearest letters it has (``Łódź`` → ``Lódz``, ``Ωmega`` → ``Omega``,
``Đorđe`` → ``Dorde``), never as the ``?`` python-escpos would print for it. The ways, in order:

1. a small table: typography made plain, the letters Unicode gives no decomposition (``Ł``, ``Đ``, ``Œ``, ``ẞ``,
   ``ı``…), and the alphabets of other scripts (Greek as ISO 843, Cyrillic, Arabic and Hebrew letters; a name
   written right to left reads left to right once in Latin letters, in the order it is spoken);
2. the letter itself, when CP858 has it (``é``, ``ß``, ``Ø``, ``Æ``, ``Þ``, ``€``);
3. its compatibility decomposition (``unicodedata`` NFKD): the accents CP858 lacks dropped, one kept where the code
   page has the letter with it (``ễ`` → ``ê``), ligatures and full-width forms spelled out;
4. a Latin letter with a stroke, a hook or a bar by its Unicode name (``LATIN SMALL LETTER H WITH STROKE`` → ``h``);
5. a digit of any script as its value; an emoji or a symbol dropped with the space it leaves;
6. only what is left, a letter of a script without a table here (Chinese…), prints as ``?``.

Control characters (C0, DEL, C1) and format characters (bidi controls, joiners) are dropped: ``ESC p`` in a label
would open the cash drawer, ``ESC @`` reset the printer, ``GS V`` cut the paper.
"""

from __future__ import annotations

import re
import unicodedata

CODE_PAGE = "cp858"  # CP850 and the euro sign: what drivers.voucher_layout selects with ESC t 19

_PLAIN = {
    "\u00a0": " ",  # CP858 has the no-break space, but the printer shows it as a box on some models
    "\u00ad": "",  # a soft hyphen is a hint for a wrap, never a letter
    "\u2019": "'",
    "\u2018": "'",
    "\u201a": ",",
    "\u201b": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u2032": "'",
    "\u2033": '"',
    "\u02bc": "'",
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2015": "-",
    "\u2212": "-",
    "\u2022": "-",
    "\u2039": "<",
    "\u203a": ">",
}
# letters NFKD leaves whole (a stroke is not an accent to Unicode)
_LATIN = {
    "Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Œ": "OE", "œ": "oe", "ẞ": "SS", "ı": "i", "ĸ": "k",
    "Ŋ": "N", "ŋ": "n", "Ĳ": "IJ", "ĳ": "ij", "Ǝ": "E", "ǝ": "e", "Ə": "E", "ə": "e", "ʻ": "'",
}  # fmt: skip
_GREEK = dict(
    zip(
        "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ",
        "A V G D E Z I Th I K L M N X O P R S T Y F Ch Ps O".split(),
        strict=True,
    )
)
_CYRILLIC = dict(
    zip(
        "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯЄІЇҐЎЈЉЊЋЏЅЂ",
        "A B V G D E Yo Zh Z I Y K L M N O P R S T U F Kh Ts Ch Sh Shch \" Y ' E Yu Ya Ye I Yi G U J Lj Nj C Dz Dz Dj".split(),
        strict=True,
    )
)
_ARABIC = dict(
    zip(
        "ءابتثجحخدذرزسشصضطظعغفقكلمنهويةىپچژگکیۀ",
        "' a b t th j h kh d dh r z s sh s d t z ' gh f q k l m n h w y a a p ch zh g k y a".split(),
        strict=True,
    )
)
_HEBREW = dict(
    zip("אבגדהוזחטיךכלםמןנסעףפץצקרשת", "a b g d h v z ch t y k k l m m n n s a f p ts ts k r sh t".split(), strict=True)
)
_SIGNS = {
    "\u0640": "",
    "\u060c": ",",
    "\u061b": ";",
    "\u061f": "?",
    "\u066a": "%",
    "\u066b": ",",
    "\u066c": " ",
    "\u06d4": ".",
}


def _table() -> dict[str, str]:
    table = {**_PLAIN, **_LATIN, **_SIGNS, **_ARABIC, **_HEBREW}
    for alphabet in (_GREEK, _CYRILLIC):
        for capital, latin in alphabet.items():
            table[capital] = latin
            table[capital.lower()] = latin.lower()
    table["ς"] = "s"  # the final sigma has no capital of its own
    return table


TABLE = _table()
_LATIN_NAME = re.compile(
    r"LATIN (?:(CAPITAL|SMALL) )?LETTER (?:SMALL CAPITAL |DOTLESS |SCRIPT |OPEN |TURNED |REVERSED |BARRED )*([A-Z])"
    r"(?: WITH .*)?$"
)


def _fits(ch: str) -> bool:
    try:
        ch.encode(CODE_PAGE)
    except UnicodeEncodeError:
        return False
    return True


def _letter(ch: str) -> str | None:
    """``ch`` as CP858 letters by the table or as itself; ``None`` if neither fits."""
    if ch in TABLE:
        return TABLE[ch]
    return ch if _fits(ch) else None


def _named(ch: str) -> str | None:
    """A letter by its Unicode name: a Latin one's base letter (``LATIN CAPITAL LETTER H WITH STROKE`` → ``H``),
    another script's letter as the letter it is drawn from (``CYRILLIC SMALL LETTER KA WITH DESCENDER`` → ``к``
    → ``k``); a digit of any script by its value; ``None`` for anything else."""
    name = unicodedata.name(ch, "")
    latin = _LATIN_NAME.match(name)
    if latin:
        return latin[2] if latin[1] == "CAPITAL" else latin[2].lower()
    if unicodedata.category(ch) == "Nd":
        return str(unicodedata.decimal(ch))
    if " WITH " in name:
        try:
            base = unicodedata.lookup(name.split(" WITH ")[0])
        except KeyError:
            return None
        return _letter(base) or _decomposed(base)
    return None


def _decomposed(ch: str) -> str | None:
    """``ch`` through its NFKD decomposition: the base letters kept (with the one accent CP858 has with them, if
    any), the other accents dropped; ``None`` when it has none or a part does not fit either."""
    parts = unicodedata.normalize("NFKD", ch)
    if parts == ch:
        return None
    out: list[str] = []
    for part in parts:
        if unicodedata.combining(part):
            composed = unicodedata.normalize("NFC", out[-1] + part) if out else ""
            if len(composed) == 1 and _fits(composed):  # ễ → ê: the circumflex kept, the tilde dropped
                out[-1] = composed
            continue
        letter = _letter(part) or _named(part)
        if letter is None:
            return None
        out.append(letter)
    return "".join(out)


def _dropped(ch: str) -> bool:
    """An emoji, a symbol, a mark left alone, a variation selector: nothing a ticket can show."""
    return unicodedata.category(ch)[0] in "SM" or ch == "\u200d"


def printable(text: str) -> str:
    """``text`` reduced to what CP858 can print (see the module's docstring): no control character at all, and a
    ``?`` only for a letter of a script no table here knows."""
    out: list[str] = []
    after_drop = False
    for ch in unicodedata.normalize("NFC", text):
        if unicodedata.category(ch) in ("Cc", "Cf"):  # a line break is the layout's, never the text's
            continue
        if ch == " " and after_drop and (not out or out[-1].endswith(" ")):
            continue  # « Club ★ Étoile » → « Club Étoile », not two spaces
        after_drop = False
        letter = _letter(ch)
        if letter is None:
            letter = _decomposed(ch) or _named(ch)
        if letter is None:
            if _dropped(ch):
                after_drop = True
                continue
            letter = "?"
        out.append(letter)
    if after_drop and out and out[-1] == " ":  # « Fête 🎉 » → « Fête »
        out.pop()
    return "".join(out)


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` characters, the next ones begun with ``indent``: a line breaks at a
    space (the spaces inside a line kept as they are, « Lot    : »); a word longer than a whole line at its
    hyphens (``Saint-`` / ``Médard``), then anywhere. A name that fits a line is never broken."""
    lines: list[str] = []
    for token in re.findall(r"\s*\S+", text):
        word = token.lstrip()
        lead = indent if lines else ""
        if lines and len(lines[-1]) + len(token) <= width:
            lines[-1] += token
        elif len(lead) + len(word) <= width:
            lines.append(lead + word)
        else:  # too long for any line: cut, the line begun filled first
            for k, piece in enumerate(_pieces(word, width - len(indent))):
                glue = token[: len(token) - len(word)] if k == 0 else ""
                if lines and len(lines[-1]) + len(glue) + len(piece) <= width:
                    lines[-1] += glue + piece
                else:
                    lines.append((indent if lines else "") + piece)
    return lines or [""]


def _pieces(word: str, width: int) -> list[str]:
    """A word cut after its hyphens, then each piece still longer than ``width`` cut every ``width`` characters."""
    pieces = re.findall(r"[^-]+-*|-+", word)
    out: list[str] = []
    for piece in pieces:
        out.extend(piece[k : k + width] for k in range(0, len(piece), width))
    return out
