"""The winner watch: which sold cartons can claim the current lot now, and which slept.

Kept up to date ball by ball from a per-number index (number → the rows holding it) and a
counter of missing numbers per row, so a draw touches only the cartons holding that number,
never the whole book. For the speaker's eyes only.
"""
from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from hall.claims import ROWS_NEEDED, HasRows


@dataclass(frozen=True, slots=True)
class Sleeper:
    """A carton that could have claimed ``lot_index`` on ``ball`` and let the next ball come."""

    card_id: str
    lot_index: int
    ball: int
    draw_index: int


class WinnerWatch:
    """Incremental index over the sold cartons of the current partie."""

    def __init__(self, cards: Mapping[str, HasRows], last_rule: bool = True):
        self.last_rule = last_rule
        self.ids: list[str] = list(cards)
        self._rows: list[tuple[tuple[int, ...], ...]] = [cards[i].rows for i in self.ids]
        self._index: list[array] = [array("i") for _ in range(91)]
        for c, rows in enumerate(self._rows):
            for r, row in enumerate(rows):
                slot = c * 3 + r
                for n in row:
                    self._index[n].append(slot)
        self._missing = bytearray(b"\x05" * (3 * len(self.ids)))
        self._complete = bytearray(len(self.ids))
        self._just_completed: list[int] = []   # slots completed by the last ball
        self._draws: list[int] = []
        self.sleepers: list[Sleeper] = []
        self.candidates: list[str] = []

    def reset(self, draws: Sequence[int], lot_kind: str | None, paid: Mapping[str, set[int]]) -> None:
        """Rebuild for a partie already under way (on start-up, after a replay)."""
        self._missing[:] = b"\x05" * (3 * len(self.ids))
        self._complete[:] = bytes(len(self.ids))
        self._draws, self.sleepers = [], []
        for n in draws:
            self._mark(n)
        self.refresh(lot_kind, paid)

    def _mark(self, n: int) -> None:
        missing, complete = self._missing, self._complete
        done = []
        for slot in self._index[n]:
            left = missing[slot] - 1
            missing[slot] = left
            if left == 0:
                complete[slot // 3] += 1
                done.append(slot)
        self._just_completed = done
        self._draws.append(n)

    def on_draw(self, n: int, lot_index: int | None, lot_kind: str | None, paid: Mapping[str, set[int]],
                claimed: Iterable[str] = ()) -> None:
        """Take ball ``n`` into account; the cartons that could claim on the previous ball and did not slept."""
        if lot_index is not None and self._draws:
            claimed = set(claimed)
            prev, at = self._draws[-1], len(self._draws)
            self.sleepers.extend(Sleeper(cid, lot_index, prev, at) for cid in self.candidates if cid not in claimed)
        self._mark(n)
        self.refresh(lot_kind, paid)

    def on_undo(self, lot_kind: str | None, paid: Mapping[str, set[int]]) -> None:
        """Forget the last ball drawn."""
        n = self._draws.pop()
        missing, complete = self._missing, self._complete
        for slot in self._index[n]:
            if missing[slot] == 0:
                complete[slot // 3] -= 1
            missing[slot] += 1
        at = len(self._draws)
        self.sleepers = [s for s in self.sleepers if s.draw_index < at]
        self._just_completed = [s for s in self._index[self._draws[-1]] if missing[s] == 0] if self._draws else []
        self.refresh(lot_kind, paid)

    def refresh(self, lot_kind: str | None, paid: Mapping[str, set[int]]) -> None:
        """Recompute the candidates for the open lot (after a draw, an award, an undo)."""
        if lot_kind is None:
            self.candidates = []
            return
        need = ROWS_NEEDED[lot_kind]
        complete, ids = self._complete, self.ids
        out: list[str] = []
        if self.last_rule:
            for slot in self._just_completed:
                c = slot // 3
                if complete[c] >= need and slot % 3 not in paid.get(ids[c], ()):
                    out.append(ids[c])
        else:
            for c, count in enumerate(complete):
                if count >= need:
                    rows = [r for r in range(3) if self._missing[c * 3 + r] == 0]
                    if any(r not in paid.get(ids[c], ()) for r in rows):
                        out.append(ids[c])
        self.candidates = out
