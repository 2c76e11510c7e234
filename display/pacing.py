"""How often a socket's ``resync`` is answered: at most once a second per socket, and a few a second per address.

Every socket's frames are bounded (``display/frames.py``: 20 a second), but 128 sockets of 8 addresses, each within
its budget and writing ``resync``, were answered 128 times a second, each a state to send: ``GET /api/state`` p99
went to ~500 ms. So an answer waits for its socket's second (``every_s``) and for its address's turn: an address's
sockets share ``ADDRESS_ANSWERS_PER_S`` answers a second, after a burst of ``ADDRESS_BURST`` (16, one per socket an
address may open: the phones of a house that all saw a gap at once are answered at once). An ask is never dropped:
one answer waits per socket, and goes with what is current when its turn comes. The staff's sockets are paced per
socket only (behind an access point every console shares one address).
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable

log = logging.getLogger("loto-hall.display")

ADDRESS_ANSWERS_PER_S = 4.0
ADDRESS_BURST = 16
ADDRESSES_KEPT = 4096


class Pacer:
    """At most one answer per key (a socket) every ``every_s``, and per group (its address) ``group_rate`` a second
    after a burst of ``group_burst``: an ask inside its window is answered once, at its end, with what is current then
    — never dropped, never more than one task waiting per key."""

    def __init__(
        self,
        every_s: float,
        start_task: Callable[..., object],
        sleep: Callable[[float], object],
        clock: Callable[[], float] = time.monotonic,
        *,
        group_rate: float = ADDRESS_ANSWERS_PER_S,
        group_burst: int = ADDRESS_BURST,
    ):
        self.every_s, self._start, self._sleep, self._clock = every_s, start_task, sleep, clock
        self.group_gap, self.group_burst = 1.0 / group_rate, group_burst
        self._last: dict[str, float] = {}
        self._waiting: dict[str, Callable[[], object]] = {}
        self._turns: OrderedDict[str, float] = OrderedDict()  # group → when its next answer is due (GCRA)
        self.answered = self.deferred = 0

    def ask(self, key: str, answer: Callable[[], object], group: str | None = None) -> None:
        if key in self._waiting:
            self._waiting[key] = answer  # one answer is on its way: it will be this one
            return
        now = self._clock()
        at = max(now, self._last.get(key, float("-inf")) + self.every_s)
        if group is not None:
            at = self._turn(group, at)
        if at <= now:
            self._last[key] = now
            self.answered += 1
            answer()
            return
        self._waiting[key] = answer
        self.deferred += 1
        self._start(self._later, key, at - now)

    def _turn(self, group: str, at: float) -> float:
        """The earliest time from ``at`` that ``group`` may be answered, that answer's turn taken."""
        due = self._turns.pop(group, at)
        when = max(at, due - (self.group_burst - 1) * self.group_gap)
        self._turns[group] = max(due, when) + self.group_gap
        while len(self._turns) > ADDRESSES_KEPT:
            self._turns.popitem(last=False)
        return when

    def _later(self, key: str, wait: float) -> None:
        self._sleep(wait)
        answer = self._waiting.pop(key, None)
        if answer is None:
            return  # forgotten meanwhile (the socket left)
        self._last[key] = self._clock()
        self.answered += 1
        try:
            answer()
        except Exception:
            log.exception("réponse différée en échec")

    def forget(self, key: str) -> None:
        self._last.pop(key, None)
        self._waiting.pop(key, None)
