"""When Python's cyclic garbage collector may pause a worker: between balls, not in the middle of one.

With 2 000 phones connected the worker holds a million-odd objects (a greenlet, a socket, a WebSocket and an
Engine.IO session per phone). CPython's automatic *full* collection walks all of them: measured here under the
crowd benchmark (``bench/bench_crowd.py --attack``), 150–700 ms pauses at random moments, a speaker's draw or a
new projector caught behind them. The young generations stay automatic (their pauses are short); the full
collection is taken out of the allocation counter's hands and run by :class:`QuietCollector` when the hall has
been quiet for a moment (no journal record for ``quiet_s``: the speaker is announcing the ball), at most every
``min_interval_s``, and at the latest every ``max_interval_s`` whatever happens, so cyclic garbage stays bounded.
A relay (``relays.py``) holds its phones' objects the same way: it runs one too, told of each event it forwards.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable

from hall.ports import HallPort

log = logging.getLogger("loto-hall.collector")

YOUNG_THRESHOLD = 10_000  # allocations between two collections of the youngest generation (CPython: 700)
MIDDLE_THRESHOLD = 10  # young collections between two of the middle generation (CPython's own value)
NEVER = 1 << 30  # the oldest generation's threshold: its automatic collection never comes
SLOW_PAUSE_MS = 100  # a collection this long is logged


class QuietCollector:
    """A service (``hall.ports.Service``): full collections only in the hall's quiet moments."""

    name = "collector"

    def __init__(
        self,
        hall: HallPort | None,
        quiet_s: float = 2.0,
        min_interval_s: float = 60.0,
        max_interval_s: float = 900.0,
        check_s: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        collect: Callable[[], object] = lambda: gc.collect(2),
    ):
        self.quiet_s, self.min_interval_s, self.max_interval_s = quiet_s, min_interval_s, max_interval_s
        self.check_s = check_s
        self._clock, self._collect = clock, collect
        self._last_record = self._last_full = clock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._saved: tuple[int, int, int] | None = None
        self.pauses_ms: list[float] = []  # the last full collections' durations (for the logs and tests)
        if hall is not None:  # a relay has no hall: it calls activity() on each event itself
            hall.subscribe(self.activity)

    def activity(self, record: object = None) -> None:
        """A journal record was written (called by the hall under its lock: only notes the time)."""
        self._last_record = self._clock()

    def due(self, now: float) -> bool:
        """Whether a full collection should run now."""
        since_full = now - self._last_full
        if since_full >= self.max_interval_s:
            return True
        return since_full >= self.min_interval_s and now - self._last_record >= self.quiet_s

    def step(self) -> bool:
        """Run a full collection if one is due; returns whether it ran."""
        now = self._clock()
        if not self.due(now):
            return False
        started = time.perf_counter()
        self._collect()
        pause_ms = (time.perf_counter() - started) * 1000
        self._last_full = self._clock()
        self.pauses_ms = (self.pauses_ms + [pause_ms])[-20:]
        if pause_ms > 50:
            log.info("ramasse-miettes complet : %.0f ms", pause_ms)
        return True

    def _timed(self, phase: str, info: dict) -> None:
        """``gc.callbacks``: every collection's pause, the long ones logged (an automatic one of the middle
        generation, or the full one, in the middle of a ball is what a phone waits for)."""
        if phase == "start":
            self._began = time.perf_counter()
            return
        pause_ms = (time.perf_counter() - self._began) * 1000
        if pause_ms > SLOW_PAUSE_MS:
            log.info(
                "ramasse-miettes, génération %s : %.0f ms (%s objets récupérés)",
                info.get("generation"),
                pause_ms,
                info.get("collected"),
            )

    def start(self) -> None:
        self._began = time.perf_counter()
        gc.callbacks.append(self._timed)
        self._saved = gc.get_threshold()
        gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, NEVER)
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="collector", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._timed in gc.callbacks:
            gc.callbacks.remove(self._timed)
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        while not self._stop.wait(self.check_s):
            try:
                self.step()
            except Exception:  # never let the collector's own failure stop the worker's watchdog pings
                log.exception("ramasse-miettes")
