"""The winner watch: which sold cartons can claim the current lot now, and which slept.

Kept up to date ball by ball from a per-number index (number → the lines holding it, a line being
``carton × ROWS + row``) and a counter of missing numbers per line, so a draw touches only the cartons holding
that number, never the whole book. Which lines win the lot is ``hall.loto.lots.lines_of``'s (any row, a named row,
two rows, the whole carton). For the speaker's eyes only.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hall.loto.claims import HasRows
from hall.loto.lots import ALL_ROWS, ROWS, Lines, lines_of


@dataclass(frozen=True, slots=True)
class Sleeper:
    """A carton that could have claimed ``lot_index`` on ``ball`` and let the next ball come."""

    card_id: str
    lot_index: int
    ball: int
    draw_index: int


def _lines(lot: Lines | str | None) -> Lines | None:
    return lot if lot is None or isinstance(lot, Lines) else lines_of(lot)


class WinnerWatch:
    """Incremental index over the sold cartons of the current partie."""

    def __init__(self, cards: Mapping[str, HasRows], last_rule: bool = True):
        self.last_rule = last_rule
        self.ids: list[str] = list(cards)
        rows = [cards[i].rows for i in self.ids]
        self._index: list[array] = [array("i") for _ in range(91)]
        for c, card_rows in enumerate(rows):
            for r, row in enumerate(card_rows):
                line = c * ROWS + r
                for n in row:
                    self._index[n].append(line)
        self._full = bytes(len(row) for card_rows in rows for row in card_rows)  # each line's numbers
        self._missing = bytearray(self._full)
        self._complete = bytearray(len(self.ids))  # complete lines per carton
        self._just_completed: list[int] = []  # lines completed by the last ball
        self._draws: list[int] = []
        self.sleepers: list[Sleeper] = []
        self.candidates: list[str] = []

    def reset(self, draws: Sequence[int], lot: Lines | str | None, paid: Mapping[str, set[int]]) -> None:
        """Rebuild for a partie already under way (on start-up, after a replay)."""
        self._missing[:] = self._full
        self._complete[:] = bytes(len(self.ids))
        self._draws, self.sleepers = [], []
        for n in draws:
            self._mark(n)
        self.refresh(lot, paid)

    def _mark(self, n: int) -> None:
        missing, complete, rows = self._missing, self._complete, ROWS  # locals: the hot loop of every draw
        done = []
        for line in self._index[n]:
            left = missing[line] - 1
            missing[line] = left
            if left == 0:
                complete[line // rows] += 1
                done.append(line)
        self._just_completed = done
        self._draws.append(n)

    def on_draw(
        self,
        n: int,
        lot_index: int | None,
        lot: Lines | str | None,
        paid: Mapping[str, set[int]],
        claimed: Iterable[str] = (),
    ) -> None:
        """Take ball ``n`` into account; the cartons that could claim on the previous ball and did not slept."""
        if lot_index is not None and self._draws:
            claimed = set(claimed)
            prev, at = self._draws[-1], len(self._draws)
            self.sleepers.extend(Sleeper(cid, lot_index, prev, at) for cid in self.candidates if cid not in claimed)
        self._mark(n)
        self.refresh(lot, paid)

    def on_undo(self, lot: Lines | str | None, paid: Mapping[str, set[int]]) -> None:
        """Forget the last ball drawn."""
        n = self._draws.pop()
        missing, complete, rows = self._missing, self._complete, ROWS
        for line in self._index[n]:
            if missing[line] == 0:
                complete[line // rows] -= 1
            missing[line] += 1
        at = len(self._draws)
        self.sleepers = [s for s in self.sleepers if s.draw_index < at]
        self._just_completed = [x for x in self._index[self._draws[-1]] if missing[x] == 0] if self._draws else []
        self.refresh(lot, paid)

    def refresh(self, lot: Lines | str | None, paid: Mapping[str, set[int]]) -> None:
        """Recompute the candidates for the open lot (after a draw, an award, an undo)."""
        lines = _lines(lot)
        if lines is None:
            self.candidates = []
            return
        need, among = lines.need, lines.among
        every_row = among == ALL_ROWS
        complete, missing, ids = self._complete, self._missing, self.ids
        out: list[str] = []
        if self.last_rule:
            for line in self._just_completed:
                c, r = divmod(line, ROWS)
                if r not in among or r in paid.get(ids[c], ()):
                    continue
                count = complete[c] if every_row else sum(missing[c * ROWS + k] == 0 for k in among)
                if count >= need:
                    out.append(ids[c])
        else:
            for c, count in enumerate(complete):
                if count >= need:
                    rows = [r for r in among if missing[c * ROWS + r] == 0]
                    if len(rows) >= need and any(r not in paid.get(ids[c], ()) for r in rows):
                        out.append(ids[c])
        self.candidates = out
