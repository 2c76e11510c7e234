"""Captains' codes guessed by nobody, and captains never held by a stranger's guessing.

A code (``hall/minigames/osga/codes.py``) is 5 characters of a 23-letter alphabet, 23⁵ = 6 436 343 codes,
one per table and per game. Wrong codes are counted per address, per table of the game and per game (all its
tables together); a right code clears none of them, they only age out. Beyond any budget a code is refused
unchecked. So one address tries at most ``ADDRESS_FAILS`` codes a minute, and every address together at most
``GAME_FAILS`` codes in a game: docs/osga.md gives the bound this puts on opening another table's sheet.

A phone that typed its table's right code gets a pass (``X-Table-Pass``: signed, for that table and that game)
and is never held by the counts, so a stranger spending them holds only the phones that have not opened their
sheet yet. For those, the desk sees which tables are held (``held``) and gives the table a fresh code
(``recode``: 8 characters, 23⁸ ≈ 7.8 × 10¹⁰): a fresh code is checked whatever the table's and the game's counts
say (its own count starts at zero), held only by the typing address's own budget, so strangers cannot hold it
again; guessing it at ``ADDRESS_FAILS`` per address is hopeless. ``loto-hall auth unlock`` no longer clears these
counts: clearing them gave strangers fresh tries, spent again within a second.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable

from itsdangerous import BadSignature, URLSafeSerializer

from display.login_guard import Budget

ADDRESS_FAILS = (10, 60.0)  # one address: 10 wrong codes a minute
TABLE_FAILS = (20, 6 * 3600.0)  # one table in one game (the key names the game: the window only ages it out)
GAME_FAILS = (100, 6 * 3600.0)  # every table of one game together
MAX_PASS_CHARS = 512


def game_key(day) -> str:
    """The game whose codes are printed now (the day's secret tells one day from the next, unshown)."""
    tournament = day.tournament
    stamp = hashlib.sha256(str(day.secret).encode()).hexdigest()[:12]
    return f"{stamp}/{tournament.session}/{tournament.game}" if tournament else f"{stamp}/-"


class CodeGuard:
    """The code budgets of one app; ``clock`` is injectable (wall time by default)."""

    def __init__(self, secret: bytes, clock: Callable[[], float] = time.time):
        self.clock = clock
        self._passes = URLSafeSerializer(secret, salt="loto-hall-table-pass")
        self._lock = threading.Lock()
        self._address, self._table, self._game = Budget(*ADDRESS_FAILS), Budget(*TABLE_FAILS), Budget(*GAME_FAILS)

    def wait(self, address: str, game: str, table: int, generation: int = 0) -> int:
        """Seconds before a code from ``address`` for ``table`` of ``game`` is checked (0: now); a table whose code
        the desk gave again (``generation`` > 0) is held by the address's own budget only."""
        with self._lock:
            now = self.clock()
            if generation:
                return self._address.wait(address, now)
            return max(
                self._address.wait(address, now), self._table.wait(f"{game}/{table}#0", now), self._game.wait(game, now)
            )

    def held(self, game: str, table: int, generation: int = 0) -> int:
        """Seconds a stranger's guessing holds ``table``'s captains who have not opened their sheet (0: none)."""
        if generation:
            return 0
        with self._lock:
            now = self.clock()
            return max(self._table.wait(f"{game}/{table}#0", now), self._game.wait(game, now))

    def failed(self, address: str, game: str, table: int, generation: int = 0) -> None:
        with self._lock:
            now = self.clock()
            self._address.add(address, now)
            self._table.add(f"{game}/{table}#{generation}", now)
            self._game.add(game, now)

    def make_pass(self, game: str, table: int) -> str:
        return self._passes.dumps([game, table])

    def holds_pass(self, value: str, game: str, table: int) -> bool:
        """Whether ``value`` is this app's pass for ``table`` of ``game``."""
        if not value or len(value) > MAX_PASS_CHARS:
            return False
        try:
            return self._passes.loads(value) == [game, table]
        except BadSignature:
            return False
