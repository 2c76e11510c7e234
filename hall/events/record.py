"""The record's own event: a journal from before the hash chain, chained by the hall at its first open."""

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
