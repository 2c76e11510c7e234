"""Driver test helpers: a started partie on a real journal, a queue of what the hall published, real ptys."""

from __future__ import annotations

import os
import queue
import time
import tty
from dataclasses import dataclass, field

import pytest

from display import views
from drivers.ball_machine import BallMachineReader
from drivers.reconnect import Backoff
from hall.config import BallMachineSection

WAIT_S = 5.0


class Watch:
    """Everything the hall publishes (journalled events and passing notices), in order, to wait on."""

    def __init__(self, hall):
        self.q: queue.Queue = queue.Queue()
        hall.subscribe(lambda record: self.q.put(("event", record.event)))
        # notices carry domain values (DeviceStatus, Proposal): wait on them as the speaker's socket sees them
        hall.subscribe_notices(lambda name, payload: self.q.put((name, views.notice(name, payload)[1])))

    def next(self, predicate, timeout: float = WAIT_S):
        """The first published item (name, payload) matching ``predicate``; fails after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("nothing matching was published in time")
            try:
                item = self.q.get(timeout=left)
            except queue.Empty:
                continue
            if predicate(*item):
                return item

    def status(self, device: str, status: str):
        return self.next(lambda n, p: n == "device:status_changed" and p["device"] == device and p["status"] == status)

    def drawn(self, number: int):
        return self.next(
            lambda n, p: n == "event" and getattr(p, "type", "") == "draw:ball_drawn" and p.number == number
        )

    def refused(self, code: str):
        return self.next(lambda n, p: n == "draw:refused" and p["code"] == code)


@dataclass
class Pty:
    """A real pseudo-terminal playing the ball machine; ``path`` is the slave a reader opens (or a stable link)."""

    link: str | None = None
    master: int = -1
    tty_path: str = ""
    history: list = field(default_factory=list)

    def plug(self) -> Pty:
        master, slave = os.openpty()
        tty.setraw(slave)
        self.tty_path = os.ttyname(slave)
        os.close(slave)
        self.master = master
        if self.link:
            tmp = self.link + ".tmp"
            os.symlink(self.tty_path, tmp)
            os.replace(tmp, self.link)
        return self

    @property
    def path(self) -> str:
        return self.link or self.tty_path

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def unplug(self) -> None:
        if self.master >= 0:
            os.close(self.master)
            self.master = -1


@pytest.fixture
def hall(make_hall):
    """A hall with its first partie running (quine, double quine, carton plein)."""
    h = make_hall()
    h.start_partie(role="speaker")
    return h


@pytest.fixture
def watch(hall):
    return Watch(hall)


@pytest.fixture
def ptys():
    made: list[Pty] = []

    def make(link: str | None = None) -> Pty:
        p = Pty(link=link).plug()
        made.append(p)
        return p

    yield make
    for p in made:
        p.unplug()


@pytest.fixture
def sink():
    """The printer: a real TCP printer sink on loopback, stopped at the end of the test."""
    from drivers.printer_sink import PrinterSink

    s = PrinterSink()
    s.start()
    yield s
    s.stop()


@pytest.fixture
def fast_backoff():
    return lambda: Backoff(0.02, 0.2)


def journal_draws(hall) -> list[int]:
    """The balls of the journal, in order, with undone ones removed (what a replay would give)."""
    draws: list[int] = []
    records = list(hall.records())
    for record in records:
        if record.type == "draw:ball_drawn":
            draws.append(record.event.number)
        elif record.type == "draw:undone":
            draws.pop()
    return draws


@pytest.fixture
def start_reader(hall, fast_backoff):
    """Start a serial reader on a path (stopped, and checked dead, at the end of the test)."""
    readers: list[BallMachineReader] = []

    def start(port: str, cls=BallMachineReader, **options) -> BallMachineReader:
        name = options.pop("name", "ball_machine")
        clock = options.pop("clock", time.monotonic)
        section = BallMachineSection(port=str(port), **{"debounce_s": 2.0, **options})
        reader = cls(hall, section, backoff=fast_backoff(), clock=clock, name=name)
        readers.append(reader)
        reader.start()
        return reader

    yield start
    for reader in readers:
        reader.stop()
        assert not reader.alive()
