"""The clips being made (``display/speech_render.py``): at most ``POOL_SIZE`` renders at once, one per clip in flight
(whoever else asks for that clip waits for the same render), the clips a screen asks for before the ones made
ahead, and a wait that ends after ``wait_s`` whatever the render does (``Busy``: ask again).

Why: 30 phones asking at once for a clip not made yet started 18 espeak-ng processes, on a Pi whose four cores
also carry the hall's core, its relays and nginx. Now 30 asks of one clip start one render and get the one file
it makes; 30 asks of 30 clips start two renders at a time, and the phones whose clip is not made within
``WAIT_S`` are told to ask again (503, ``Retry-After``), while the renders go on for them.

The renders run in workers started when there is work and gone when there is none (a hall that never speaks
holds no thread). Under gevent the standard library is patched before the hall is built, so a worker is a
greenlet and espeak-ng a cooperative child process.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

POOL_SIZE = 2  # espeak-ng processes at once: a Pi 4's four cores keep two for the hall, its relays and nginx
WAIT_S = 5.0  # how long an ask waits for its clip before it is told to ask again
MAX_JOBS = 1024  # clips waiting or being made (the hall has ~200 sentences a voice; a guard, never reached)
ASKED, AHEAD = 0, 1  # priorities: a clip a screen waits for, a clip made ahead after a change of the voice's settings


class Busy(Exception):
    """The clip is still being made (or the queue is full): ask again shortly."""


@dataclass(eq=False)
class Job:
    """One clip to make; ``done`` is set once it is made or failed (``error``)."""

    key: str
    make: Callable[[], None]
    priority: int
    done: threading.Event = field(default_factory=lambda: threading.Event())  # gevent's, once the hall is patched
    error: Exception | None = None
    started: bool = False


class RenderQueue:
    """The clips to make, by key (the clip's name); every method takes the queue's own lock."""

    def __init__(self, size: int = POOL_SIZE):
        self.size = size
        self._lock = threading.Lock()
        self._emptied = threading.Condition(self._lock)
        self._jobs: dict[str, Job] = {}
        self._heap: list[tuple[int, int, str]] = []
        self._order = itertools.count()
        self._workers = 0

    def submit(self, key: str, make: Callable[[], None], priority: int = ASKED) -> Job:
        """The job making ``key``: the one in flight when there is one (raised to ``priority`` when it has not
        started), else a new one calling ``make``. Raises ``Busy`` when ``MAX_JOBS`` wait already."""
        with self._lock:
            job = self._jobs.get(key)
            if job is None:
                if len(self._jobs) >= MAX_JOBS:
                    raise Busy(key)
                job = self._jobs[key] = Job(key, make, priority)
                heapq.heappush(self._heap, (priority, next(self._order), key))
            elif priority < job.priority and not job.started:
                job.priority = priority  # its older entry in the heap is skipped when it comes up
                heapq.heappush(self._heap, (priority, next(self._order), key))
            start = self._workers < self.size and bool(self._heap)
            if start:
                self._workers += 1
        if start:
            threading.Thread(target=self._work, name="loto-hall-voice", daemon=True).start()
        return job

    @staticmethod
    def wait(job: Job, timeout: float) -> None:
        """Return once ``job`` made its clip; raises its error, or ``Busy`` after ``timeout`` seconds."""
        if not job.done.wait(timeout):
            raise Busy(job.key)
        if job.error is not None:
            raise job.error

    def forget_ahead(self) -> int:
        """Drop the clips queued to be made ahead that nobody asked for (the settings they were made for
        changed); returns how many."""
        with self._lock:
            dropped = [k for k, j in self._jobs.items() if j.priority == AHEAD and not j.started]
            for key in dropped:
                job = self._jobs.pop(key)
                job.error = Busy(key)
                job.done.set()
            if not self._jobs:
                self._emptied.notify_all()
        return len(dropped)

    def idle(self, timeout: float) -> bool:
        """Wait until no clip waits or is being made (``timeout`` seconds at most); whether none does."""
        with self._lock:
            return self._emptied.wait_for(lambda: not self._jobs, timeout)

    def _next(self) -> Job | None:
        with self._lock:
            while self._heap:
                priority, _, key = heapq.heappop(self._heap)
                job = self._jobs.get(key)
                if job is not None and not job.started and job.priority == priority:
                    job.started = True
                    return job
            self._workers -= 1  # nothing left: this worker ends (under the lock, so submit starts another)
            return None

    def _work(self) -> None:
        job = None
        try:
            while (job := self._next()) is not None:
                try:
                    job.make()
                except Exception as exc:  # the askers raise it (an OSError: espeak-ng absent or failed)
                    job.error = exc
                self._finish(job)
        except BaseException:  # the worker itself stopped (a greenlet killed): its clip and its place go
            if job is not None and not job.done.is_set():
                job.error = Busy(job.key)
                self._finish(job)
            with self._lock:
                self._workers -= 1
            raise

    def _finish(self, job: Job) -> None:
        with self._lock:
            if self._jobs.get(job.key) is job:
                del self._jobs[job.key]
            if not self._jobs:
                self._emptied.notify_all()
        job.done.set()
