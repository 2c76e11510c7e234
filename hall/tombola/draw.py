"""The tombola's draw: a ticket among the sold ones that has not won yet, each equally likely (RULES L24). The hall
draws with the OS's randomness (``secrets.SystemRandom``); a test hands it a seeded ``random.Random``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol


class Chooser(Protocol):
    def sample(self, population: Sequence[int], k: int) -> list[int]: ...


def draw_ticket(rng: Chooser, sold: Iterable[int], won: Iterable[int]) -> int | None:
    """A winning ticket drawn uniformly among ``sold`` less ``won``; ``None`` when none is left."""
    left = sorted(set(sold) - set(won))
    return rng.sample(left, 1)[0] if left else None
