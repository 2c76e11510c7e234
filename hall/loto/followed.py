"""The cartons the players' phones follow, each with its verdict as the claim check gives it (the hall
is the only judge; INTERFACE §9).

For every carton a phone follows, the standing is ``hall.loto.claims.verify``'s verdict for the open lot — the very
call the controllers' desk makes on a claim, with the same rows paid for the lot's kind — plus the rows paid: the
phone draws it, it never works a rule out. Computed once per ball per carton followed, whatever the phones
following it: after a ball only the cartons holding it can change, and those whose verdict held the last ball (a
valid or missed carton); any other record that moves a partie (an award, a start, « Démarquez », an undo) looks at
every carton followed. The caller hands a partie's immutable picture (``hall.snapshots.PartieState``); the news
are the standings that changed since the last news. Thread-safe (a phone may follow while a ball is shaped).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from hall.events import LotSpec
from hall.loto.claims import INCOMPLETE, MISSED, VALID, HasRows, verify

CLOSED, CANCELLED = "closed", "cancelled_card"
MAX_FOLLOWED = 50_000  # cartons followed at once in one hall (a book's worth: every carton of a big evening)
EVERY = None  # ``news(…, moved=EVERY)``: any carton may have changed


@dataclass(frozen=True, slots=True)
class Standing:
    """A carton against the open lot, as a phone is told: ``verdict`` is the claim check's (``valid``,
    ``incomplete``, ``missed``), or ``closed`` (no lot open) or ``cancelled_card``; ``reason``, ``rows``,
    ``complete_rows``, ``to_go`` and ``prize`` as ``hall.loto.claims.Verdict`` says them; ``lot`` the open lot's
    index; ``paid``: (kind, rows) for each kind of lot the carton was paid rows for in this partie."""

    lot: int | None
    verdict: str
    reason: str = ""
    rows: tuple[int, ...] = ()
    complete_rows: tuple[int, ...] = ()
    to_go: tuple[int, ...] = ()
    prize: str = ""
    paid: tuple[tuple[str, tuple[int, ...]], ...] = ()


class OpenLot(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def spec(self) -> LotSpec | None: ...


class PartiePicture(Protocol):
    """What a standing reads of a partie (``hall.snapshots.PartieState`` is one)."""

    @property
    def cleared(self) -> bool: ...
    @property
    def current(self) -> int | None: ...
    @property
    def draws(self) -> Sequence[int]: ...
    @property
    def paid(self) -> Mapping[str, Mapping[str, frozenset[int]]]: ...
    @property
    def cancelled(self) -> frozenset[str]: ...
    @property
    def open_lot(self) -> OpenLot | None: ...
    def paid_rows(self, card_id: str, kind: str) -> frozenset[int]: ...


def standing(card_id: str, card: HasRows, partie: PartiePicture | None, last_rule: bool) -> Standing:
    """The standing of ``card`` in ``partie`` (a ``PartieState``, or ``None`` between parties)."""
    if partie is None or partie.cleared:
        return Standing(None, CLOSED)
    paid = tuple((kind, tuple(sorted(by[card_id]))) for kind, by in partie.paid.items() if card_id in by)
    lot = partie.open_lot
    if lot is None:
        return Standing(None, CLOSED, paid=paid)
    if card_id in partie.cancelled:
        return Standing(partie.current, CANCELLED, paid=paid)
    v = verify(card, partie.draws, lot.spec or lot.kind, last_rule, partie.paid_rows(card_id, lot.kind))
    return Standing(partie.current, v.kind, v.reason, v.rows, v.complete_rows, v.to_go, v.prize, paid)


class FollowedCartons:
    """The cartons followed, the numbers they hold, and the standing each was last told."""

    def __init__(self, last_rule: bool, limit: int = MAX_FOLLOWED):
        self.last_rule, self.limit = last_rule, limit
        self._lock = threading.Lock()
        self._cards: dict[str, HasRows] = {}
        self._holding: list[list[str]] = [[] for _ in range(91)]  # number → the cartons followed holding it
        self._told: dict[str, Standing] = {}
        self._partie: PartiePicture | None = None  # the picture the last news were read from
        self._seq = -1  # its record's seq

    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._cards

    def add(self, card_id: str, card: HasRows) -> bool:
        """Follow ``card_id`` (once); ``False`` when the hall follows as many cartons as it may."""
        with self._lock:
            if card_id in self._cards:
                return True
            if len(self._cards) >= self.limit:
                return False
            self._cards[card_id] = card
            for row in card.rows:
                for n in row:
                    self._holding[n].append(card_id)
            return True

    def start(self, seq: int, partie: PartiePicture | None) -> None:
        """The picture to read from until the first news (the hall as it stands when the phones' service starts)."""
        with self._lock:
            if seq > self._seq:
                self._seq, self._partie = seq, partie

    def now(self, card_ids: Iterable[str]) -> tuple[int, list[tuple[str, Standing]]]:
        """(seq, standings) of the followed ``card_ids`` as the last news left them (a phone that starts following):
        read from the same picture as those news, so that the next news follow on from them."""
        with self._lock:
            out = []
            for cid in card_ids:
                card = self._cards.get(cid)
                if card is not None:
                    self._told[cid] = told = standing(cid, card, self._partie, self.last_rule)
                    out.append((cid, told))
            return self._seq, out

    def news(
        self, seq: int, partie: PartiePicture | None, moved: int | str | None = EVERY
    ) -> list[tuple[str, Standing]]:
        """The standings that changed with record ``seq`` (``partie``: the picture right after it): ``moved`` is the
        ball drawn (only the cartons holding it, and those whose verdict held the last ball, may change), a carton's
        ID (a claim checked on it), or ``EVERY``. One lock for the whole reading: a phone's ``now`` never lands
        between two cartons."""
        with self._lock:
            self._seq, self._partie = seq, partie
            if isinstance(moved, int):
                near = set(self._holding[moved])
                near.update(cid for cid, s in self._told.items() if s.verdict in (VALID, MISSED))
                ids: Iterable[str] = near
            elif isinstance(moved, str):
                ids = [moved] if moved in self._cards else []
            else:
                ids = list(self._cards)
            out = []
            for cid in ids:
                now = standing(cid, self._cards[cid], partie, self.last_rule)
                if self._told.get(cid) != now:
                    self._told[cid] = now
                    out.append((cid, now))
            return out


__all__ = ["CANCELLED", "CLOSED", "EVERY", "FollowedCartons", "INCOMPLETE", "Standing", "standing"]
