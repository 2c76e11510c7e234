"""The players' phones' desk: the cartons they follow, each told its verdict by the hall (INTERFACE §9).

A phone that showed it holds a carton's paper (its printed code, or its sale's) is handed the carton's follow key
(``hall.cartons.card_ids.follow_key``); with it, any socket — the core's or a relay's — follows that carton's
standing, which the core computes once per change for every phone (``hall/loto/followed.py``): the claim check's own
verdict, the rows paid. Nothing here takes the writer's lock: the book is immutable, and the standings are read
from the pictures the caller hands, in the order of the records (the phones' broadcaster), outside the lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from hall.cartons.card_ids import follow_key, follow_key_card
from hall.door.state import HallState
from hall.events import BallDrawn, ClaimChecked, DrawUndone, LotAwarded, PartieCleared, PartieStarted, Record
from hall.loto.followed import EVERY, FollowedCartons, PartiePicture
from hall.snapshots import Followed

NEWS_KEPT = 256  # records whose news are kept: every reader of the hall (each web app over it) gets the same news
FOLLOWS_AT_ONCE = 500  # keys one call may name (a relay's batch; a phone names at most its [players] max_cards)
MOVES_EVERY = (LotAwarded.type, PartieStarted.type, PartieCleared.type, DrawUndone.type)


class FollowDesk:
    """The follow keys, the cartons followed and their standings."""

    def __init__(self, state: HallState, secret: bytes):
        self._state = state
        self._secret = secret
        self._cartons = FollowedCartons(state.config.rules.last_number)
        self._keys: dict[str, str] = {}  # carton → its key, for the cartons followed
        self._news: OrderedDict[int, Followed] = OrderedDict()  # record seq → its news, computed once
        self._reading = threading.Lock()

    def follow_key(self, card_id: str) -> str:
        """The key a phone follows ``card_id`` with: hand it only to a phone that showed it holds the paper."""
        return follow_key(self._secret, card_id)

    def follow(self, keys: Sequence[str]) -> tuple[int, Followed]:
        """Follow the cartons these keys name (a key that names none is left out: a stranger's, or a carton no
        longer in the book); (seq, their standings now). At most ``FOLLOWS_AT_ONCE`` keys are read."""
        book = self._state.book
        named: list[str] = []
        for key in keys[:FOLLOWS_AT_ONCE]:
            card_id = follow_key_card(self._secret, key)
            card = book.get(card_id) if card_id is not None else None
            if card_id is None or card is None:
                continue
            self._keys[card_id] = key  # before the carton is followed: its first news name it by its key
            if self._cartons.add(card_id, card):
                named.append(card_id)
        seq, now = self._cartons.now(named)
        return seq, tuple((self._keys[cid], cid, s) for cid, s in now)

    def started(self, seq: int, partie: PartiePicture | None) -> None:
        """The picture the first follows are read from, before any record is shaped."""
        self._cartons.start(seq, partie)

    def news(self, record: Record, partie: PartiePicture | None) -> Followed:
        """The standings ``record`` changed (``partie``: the picture right after it), for the cartons followed:
        computed once per record, whoever asks (two web apps over one hall, in a test, get the same news)."""
        with self._reading:
            if record.seq in self._news:
                return self._news[record.seq]
            told = self._news_of(record, partie)
            self._news[record.seq] = told
            while len(self._news) > NEWS_KEPT:
                self._news.popitem(last=False)
            return told

    def _news_of(self, record: Record, partie: PartiePicture | None) -> Followed:
        if not len(self._cartons):
            self._cartons.start(record.seq, partie)
            return ()
        moved: int | str | None
        if record.type == BallDrawn.type:
            moved = record.event.number
        elif record.type == ClaimChecked.type:
            moved = record.event.card_id  # cancelled for the partie, on a false claim (RULES L15's option)
        elif record.type in MOVES_EVERY:
            moved = EVERY
        else:
            self._cartons.start(record.seq, partie)
            return ()
        return tuple((self._keys[cid], cid, s) for cid, s in self._cartons.news(record.seq, partie, moved))
