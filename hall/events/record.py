"""The record's own events: a journal from before the hash chain, chained by the hall at its first open; the evening's
close, after which nothing of the game or the money is journalled."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class JournalChained:
    """Records 1 to ``records`` were written before the chain and were chained when this record was written: the
    chain vouches for them only from this record's time on. The first of them follows this record's ``anchor``
    (hall/record/chain.py), so removing or changing it unlinks record 1; ``loto-hall verify`` names it."""

    type: ClassVar[str] = "record:chained"
    records: int  # how many records were chained (this record is the next one)
    version: str  # the loto-hall that chained them
    schema: int  # the schema version the journal had (0: none kept, 1: before the chain)


@dataclass(frozen=True, slots=True)
class EveningClosed:
    """The evening is over (« Clôturer la soirée »): no ball, partie, claim, award or sale after this record. It
    names the journal's fingerprint as it stood just before it (``records``, ``fingerprint``); the board's copy
    journalled in the same transaction, after it, prints the fingerprint that covers the close itself."""

    type: ClassVar[str] = "evening:closed"
    parties_played: int  # how many parties were played
    records: int  # the number of the last record before this one (0: none)
    fingerprint: str  # that record's hash ("" for none)
