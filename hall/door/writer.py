"""The one writer (ARCHITECTURE "one-writer rule"): the hall's private lock, the commit, the news it delivers.

Every command of the hall, whichever desk holds it, runs under this module's lock (``@locked``): validate against
the current state → append the event to the journal (durable) → apply it to the state → publish it to the
subscribers. Nobody sees an event that is not on disk. No other module takes the lock: the desks and the
facade mark their methods ``@locked`` and commit through :meth:`Writer.commit`.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from hall.door.state import HallState
from hall.events import PartieStarted, Record
from hall.holds import Hold, Holds
from hall.ports import NoticeSubscriber, Subscriber
from hall.record import checkpoint
from hall.record.journal import Journal
from hall.requests import DeviceRequest
from hall.rights import require
from hall.snapshots import DeviceStatus, Notice, device_status
from hall.sources import Clock

log = logging.getLogger("loto-hall.hall")


class FirstLock:
    """The writer's lock: reentrant (a keypad key runs a draw, which is a command itself), and a ball goes first.

    Every command flushes the journal under this lock, and on a Pi's SD card a flush takes milliseconds, one at a
    time: with a plain lock a ball drawn while a thousand phones link their cartons, or the door sells, waits behind
    every write queued before it — a queue of flushes. Here a waiting ball (``acquire(first=True)``) is given the
    lock as soon as the command in flight is done: its wait is the flush it meets, never the queue of the others'.
    The others are served in the order they came (a queue of tickets: a condition's wake-up alone let one sale
    wait 11 s behind others arriving later). The standard library has no lock with a priority; this one is a
    ``threading.Condition`` (a gevent one once the worker has patched the standard library: the hall's greenlets
    wait on it as on any lock)."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._owner: int | None = None
        self._depth = 0
        self._queues: tuple[deque[object], deque[object]] = (deque(), deque())  # (the others, the balls)

    def acquire(self, blocking: bool = True, timeout: float = -1, *, first: bool = False) -> bool:
        me = threading.get_ident()
        with self._cond:
            if self._owner == me:
                self._depth += 1
                return True
            others, balls = self._queues
            ticket = object()

            def mine() -> bool:
                if self._owner is not None:
                    return False
                if first:
                    return balls[0] is ticket
                return not balls and others[0] is ticket

            queue = balls if first else others
            queue.append(ticket)
            try:
                if not mine() and (not blocking or not self._cond.wait_for(mine, None if timeout < 0 else timeout)):
                    return False
            finally:
                queue.remove(ticket)
                self._cond.notify_all()  # the next in line may be served now (or after a waiter gave up)
            self._owner, self._depth = me, 1
            return True

    def release(self) -> None:
        with self._cond:
            if self._owner != threading.get_ident():
                raise RuntimeError("cannot release un-acquired lock")
            self._depth -= 1
            if not self._depth:
                self._owner = None
                self._cond.notify_all()

    @property
    def waiting(self) -> tuple[int, int]:
        """(commands waiting for the lock, balls among them): what the writer has queued."""
        with self._cond:
            others, balls = self._queues
            return len(others) + len(balls), len(balls)

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()

    def first(self) -> _First:
        """The lock taken ahead of every waiting command that is not a ball (``with lock.first():``)."""
        return _First(self)


class _First:
    __slots__ = ("lock",)

    def __init__(self, lock: FirstLock) -> None:
        self.lock = lock

    def __enter__(self) -> bool:
        return self.lock.acquire(first=True)

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


def _deliver(fn: Callable[..., None], *args: Any) -> None:
    """Hand news to one subscriber; its failure is logged, never turned into a refusal of what is already on disk."""
    try:
        fn(*args)
    except Exception:
        log.exception("subscriber %r failed on %s", fn, args[0] if args else "")


class Writer:
    """The lock, the journal's appends, the subscribers and the devices' published states of one hall.

    ``journal`` and ``state`` are the hall's own; the lock is reentrant (a keypad key runs a draw, which is a
    command itself) and taken only by :func:`locked` and the methods below.
    """

    def __init__(self, journal: Journal, state: HallState, clock: Clock, holds: Iterable[Hold] = ()):
        self.journal = journal
        self.state = state
        self.clock = clock
        self._lock = FirstLock()
        self._subscribers: list[Subscriber] = []
        self._notice_subscribers: list[NoticeSubscriber] = []
        self._devices: dict[str, DeviceStatus] = {}
        self.holds = Holds(holds)
        self.checkpoints: tuple[Path, bytes, str] | None = None  # (folder, the hall's key, the replay's settings)

    def commit(self, event: Any, role: str, *more: Any) -> Record:
        """Journal ``event`` (and ``more``, in the same transaction), apply, publish; returns the first record.
        Raises ``Rejected`` for an event a standing hold covers (``hall/holds.py``), or one the evening's close stops
        (``evening_closed``), before anything is written."""
        with self._lock:
            self.holds.check_events((event, *more))
            self.state.require_open((event, *more))
            records = self.journal.append_all([event, *more], role, self.clock())
            for record in records:
                self.state.apply(record)
            for record in records:
                for fn in list(self._subscribers):
                    _deliver(fn, record)
            if self.checkpoints is not None and records[-1].type == PartieStarted.type:
                self.keep_checkpoint(records[-1])
            return records[0]

    def keep_checkpoint(self, start: Record) -> None:
        """The state just after a partie's ``start``, kept beside the journal (``hall/record/checkpoint.py``): a
        restart replays only the records after it. Taken under the lock (the state does not move while it is
        pickled: about 0.15 s of a core here for a whole evening, 20 000 records), pickled and written by the
        journal's offload (a real thread under gevent: the event loop goes on serving, the fsyncs out of it); a
        failure is logged, never a refusal: the journal holds the evening, a checkpoint only shortens the next
        start."""
        assert self.checkpoints is not None
        folder, secret, made_with = self.checkpoints
        kept = checkpoint.Checkpoint(start.seq, start.hash, self.state.capture())
        try:
            self.journal.offload(lambda: checkpoint.write(folder, secret, kept, made_with))
        except Exception:
            log.exception("point de reprise non gardé (le prochain démarrage relira tout le journal)")

    def subscribe(self, fn: Subscriber) -> Callable[[], None]:
        """Call ``fn(record)`` after every durable event; returns the function that unsubscribes."""
        with self._lock:
            self._subscribers.append(fn)

        def unsubscribe() -> None:  # under the lock too: once it returns, no delivery in flight reaches ``fn``
            with self._lock:
                if fn in self._subscribers:
                    self._subscribers.remove(fn)

        return unsubscribe

    def subscribe_notices(self, fn: NoticeSubscriber) -> None:
        """Call ``fn(name, payload)`` for passing news that is not journalled (device status, refused balls)."""
        with self._lock:
            self._notice_subscribers.append(fn)

    def notify(self, name: str, payload: Any) -> None:
        """Publish a passing notice (``device:status_changed``, ``draw:refused``…)."""
        with self._lock:
            for fn in list(self._notice_subscribers):
                _deliver(fn, name, payload)

    def ask(self, request: DeviceRequest, *, role: str) -> None:
        """Ask a device to act now (hall/requests.py): the right checked, the typed request published, not kept."""
        require(role, request.right)
        self.notify(request.name, request)

    def tell(self, said: Notice) -> None:
        """Publish a driver's notice for the console (``hall.snapshots.NOTICES``): a value, worded by the web."""
        self.notify(said.name, said)

    def set_device_status(
        self, device: str, status: str, *, code: str = "", params: dict[str, object] | None = None
    ) -> None:
        """Record and announce a device's state (``ok``, ``degraded``, ``absent``…) as a message ``code`` and its
        ``params``: no words, they are made in display/ in each reader's language (STATUS= says the code)."""
        with self._lock:
            entry = device_status(device, status, code, **(params or {}))
            if not entry.same_as(self._devices.get(device)):
                entry = DeviceStatus(entry.device, entry.state, entry.code, entry.params, self.clock())
                self._devices[device] = entry
                self.notify("device:status_changed", entry)

    def device(self, name: str) -> DeviceStatus | None:
        """A device's last published state, or ``None`` when it never reported."""
        with self._lock:
            return self._devices.get(name)

    def devices(self) -> tuple[DeviceStatus, ...]:
        """Every device's last published state, in order of first report."""
        with self._lock:
            return tuple(self._devices.values())

    def health(self, timeout_s: float, picture: Callable[[], T]) -> T | None:
        """``picture()`` if the lock is free within ``timeout_s``, else ``None`` (the hall is stuck)."""
        if not self._lock.acquire(timeout=timeout_s):
            return None
        try:
            return picture()
        finally:
            self._lock.release()

    def close(self) -> None:
        """Close the journal once the command in flight is done (the hall takes no command after this)."""
        with self._lock:
            self.journal.close()


class Desk(Protocol):
    """Whatever holds commands of the hall: it names its writer."""

    @property
    def _writer(self) -> Writer: ...


D = TypeVar("D", bound=Desk)


def locked(method: Callable[Concatenate[D, P], R]) -> Callable[Concatenate[D, P], R]:
    """Run ``method`` under its desk's writer's lock: the one way a command or a snapshot is serialised."""

    @functools.wraps(method)
    def run(desk: D, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with desk._writer._lock:
            return method(desk, *args, **kwargs)

    return run


def ball_first(method: Callable[Concatenate[D, P], R]) -> Callable[Concatenate[D, P], R]:
    """``locked``, for a ball: taken ahead of every command waiting that is not one (:class:`FirstLock`)."""

    @functools.wraps(method)
    def run(desk: D, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with desk._writer._lock.first():
            return method(desk, *args, **kwargs)

    return run
