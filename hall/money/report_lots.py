"""What became of each lot of the evening, for the report: given tonight, carried to another partie, still to play,
or not given (kept by the association for another loto) — each physical lot counted once (RULES L19).

A lot left unwon at a « Démarquez » with carry is promised to the next partie: under its first partie it reads
« reporté à la partie N » and counts nowhere; in partie N it is the lot (won there, or carried again, or kept).
The next partie's lots are matched by what they are (kind, label, value, donor: ``LotSpec``), never by position:
where a carried lot plays in that partie is the partie's rule, not the report's. A carried lot the speaker left
out at the next start (« lots changés à la console ») was never played again: it is kept, under its first partie.

Pure, stdlib only: the replayed ``Evening`` in, frozen values out (``lot_fates``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hall.events import LotSpec
from hall.loto.partie import AWARDED, Partie

GIVEN, CARRIED, TO_PLAY, KEPT = "given", "carried", "to_play", "kept"
NOT_GIVEN = (TO_PLAY, KEPT)  # a physical lot the evening did not give (yet): its value is not tonight's


@dataclass(frozen=True, slots=True)
class LotFate:
    """Lot ``lot`` (1-based) of partie ``partie``: ``fate`` is ``given`` (won tonight), ``carried`` (played in
    partie ``carried_to``: counted there), ``to_play`` (its partie runs, or the partie it is carried to has not
    started) or ``kept`` (not given: the association keeps it for another loto)."""

    partie: int
    lot: int
    spec: LotSpec
    fate: str
    carried_to: int | None = None  # the partie it is (or will be) played in, when carried by « Démarquez »
    carried_from: int | None = None  # the partie it was first promised in, when it came carried

    @property
    def counted(self) -> bool:
        """Whether this line is the physical lot (a carried line is counted where it was played)."""
        return self.fate != CARRIED


def _destination(nxt: Partie, spec: LotSpec, taken: set[int]) -> int | None:
    """The index of the lot of ``nxt`` that is ``spec`` carried in (the first such lot not yet matched)."""
    for k, lot in enumerate(nxt.lots):
        if k not in taken and lot.spec == spec:
            return k
    return None


def lot_fates(parties: Sequence[Partie]) -> dict[tuple[int, int], LotFate]:
    """Each lot's fate, keyed by (partie number, lot index from 0), for ``parties`` in the order played."""
    fates: dict[tuple[int, int], LotFate] = {}
    came_from: dict[tuple[int, int], int] = {}  # (partie, lot index) → the partie it was first promised in
    for i, p in enumerate(parties):
        nxt = parties[i + 1] if i + 1 < len(parties) else None
        taken: set[int] = set()
        for j, lot in enumerate(p.lots):
            origin = came_from.get((p.number, j))
            if lot.status == AWARDED:
                fate, to = GIVEN, None
            elif not p.cleared:
                fate, to = TO_PLAY, None
            elif not p.carried_on:
                fate, to = KEPT, None
            elif nxt is None:  # carried to a partie not started yet
                fate, to = TO_PLAY, p.number + 1
            else:
                k = _destination(nxt, lot.spec, taken)
                if k is None:  # left out at the next start: never played again
                    fate, to = KEPT, None
                else:
                    taken.add(k)
                    came_from[(nxt.number, k)] = origin or p.number
                    fate, to = CARRIED, nxt.number
            fates[(p.number, j)] = LotFate(p.number, j + 1, lot.spec, fate, to, origin)
    return fates
