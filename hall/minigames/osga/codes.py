"""The captains' codes (docs/osga.md T8): each table's score sheet opens, for the current game only, to
whoever holds the code printed on it, or the fresh, longer one the desk gave it last (``recode``). Made from the
day's secret (HMAC), checked in constant time.
"""

from __future__ import annotations

import hashlib
import hmac

from hall.minigames.osga.tournament import Day, games_played

CODE_ALPHABET = "ACDEFHJKMNPRTUVWXY34679"  # no 0/O, 1/I/L, 2/Z, 5/S, 8/B: read aloud and typed on a phone
CODE_LENGTH = 5
FRESH_CODE_LENGTH = 8  # a code the desk gives again: 23⁸ ≈ 7.8 × 10¹⁰, checked whatever strangers did (code_guard)


def code_generation(day: Day, table: int) -> int:
    """How many fresh codes the desk gave table ``table`` in the current game (0: the printed one holds)."""
    played = games_played(day)
    return sum(1 for game, recoded in day.recoded if (game, recoded) == (played, table))


def table_code(day: Day, table: int) -> str:
    """Return the code of table ``table``'s (1-based) score sheet for the current game: the one printed on it,
    or the fresh one the desk gave last (``recode``: longer, and the printed one no longer opens the sheet).

    It opens that sheet, for that game only, to whoever holds the paper: the captain's credential.
    """
    tournament = day.tournament
    session, game = (tournament.session, tournament.game) if tournament else (0, 0)
    generation = code_generation(day, table)
    fresh = f"/fresh{generation}" if generation else ""
    digest = hmac.new(day.secret.encode(), f"{session}/{game}/{table}{fresh}".encode(), hashlib.sha256).digest()
    number = int.from_bytes(digest[:8], "big")
    chars = []
    for _ in range(FRESH_CODE_LENGTH if generation else CODE_LENGTH):
        number, rest = divmod(number, len(CODE_ALPHABET))
        chars.append(CODE_ALPHABET[rest])
    return "".join(chars)


def check_code(day: Day, table: object, code: object) -> bool:
    """Return whether ``code`` opens table ``table``'s sheet now (constant-time comparison)."""
    if day.tournament is None or day.tournament.finished or not isinstance(code, str):
        return False
    if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= len(day.sheets):
        return False
    typed = "".join(ch for ch in code[:40].upper() if ch.isalnum())  # "ACDE-FHJK" as the desk shows it
    return hmac.compare_digest(typed.encode(), table_code(day, table).encode())
