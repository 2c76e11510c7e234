"""A simulated ball machine on a real pseudo-terminal: seeded balls at an interval, with garbage, repeats and unplugs.

Used by ``loto-hall simulate ball-machine`` (prints the port path; ``kill -USR1 <pid>`` simulates an unplug)
and in-process by ``serve --demo``. Balls are written only while a reader holds the port open: the
simulator watches the master side for a hang-up, so no ball is thrown away by pyserial's flush on open.
"""

from __future__ import annotations

import fcntl
import os
import random
import select
import signal
import struct
import sys
import termios
import threading
import tty
from collections.abc import Callable

from drivers.ball_protocol import frame

GARBAGE_LINES = (b"ERR\r\n", b"\x00\xff\xfe\r\n", b"BOULE ??\r\n", b"95\r\n", b"0\r\n", b"12 34\r\n")
ATTACH_SETTLE_S = 0.2  # a reader that just opened the port flushes its input once: let it finish
UNPLUG_S = 2.0  # how long a simulated unplug lasts

BallSource = Callable[[random.Random], "int | None"]
"""The next ball to send, or ``None`` for "no ball this time" (cage empty, or the demo's partie is paused)."""


def seeded_bag(count: int = 90) -> BallSource:
    """The machine's cage: ``count`` distinct balls in a random (seeded) order, then ``None``."""
    state: dict = {}

    def next_ball(rng: random.Random) -> int | None:
        if "bag" not in state:
            state["bag"] = rng.sample(range(1, 91), min(count, 90))
        return state["bag"].pop(0) if state["bag"] else None

    return next_ball


class BallSimulator:
    """A ball machine on a pty; ``open()`` gives the port path (the ``link`` when one is asked for)."""

    name = "ball_sim"

    def __init__(
        self,
        *,
        seed: int | None = None,
        interval_s: float | None = 3.0,
        protocol: str = "lines",
        garbage: float = 0.0,
        repeat: float = 0.0,
        link: str | None = None,
        count: int | None = 90,
        ball_source: BallSource | None = None,
        on_ball: Callable[[int], None] | None = None,
    ):
        self.rng = random.Random(seed)
        self.interval_s = interval_s
        self.protocol = protocol
        self.garbage = garbage
        self.repeat = repeat
        self.link = link
        self.count = count  # None: run until stopped (the demo)
        self.ball_source = ball_source or seeded_bag(90 if count is None else count)
        self.on_ball = on_ball
        self.sent: list[int] = []
        self.unplug_s = UNPLUG_S
        self._attached = False
        self._master: int | None = None
        self._tty_path = ""
        self._io = threading.RLock()
        self._stop = threading.Event()
        self._unplug_wanted = False  # a plain flag: set from a signal handler, where a lock could deadlock
        self._retry: int | None = None  # a ball the reader missed (unplugged mid-write): sent again first
        self._thread: threading.Thread | None = None
        self._wanted = threading.Event()  # on demand (interval_s None): the speaker asked for a ball

    # ---- the port ------------------------------------------------------------------------------
    @property
    def path(self) -> str:
        return self.link or self._tty_path

    def open(self) -> str:
        """Plug the machine in: a new pty (and the stable link to it); returns the path readers open."""
        with self._io:
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo or CR translation even before a reader configures the port
            self._tty_path = os.ttyname(slave)
            os.close(slave)  # the reader will be the only one holding the slave side
            self._master = master
            if self.link:
                tmp = f"{self.link}.{os.getpid()}.tmp"
                if os.path.lexists(tmp):
                    os.unlink(tmp)
                os.symlink(self._tty_path, tmp)
                os.replace(tmp, self.link)  # atomic: a reader never sees a half-made link
            return self.path

    def unplug(self) -> None:
        """Pull the cable: the reader's next read fails, the link disappears."""
        with self._io:
            if self.link and os.path.islink(self.link):
                os.unlink(self.link)
            if self._master is not None:
                os.close(self._master)
                self._master = None

    def close(self) -> None:
        self.unplug()

    def reader_attached(self) -> bool:
        """Whether a reader holds the port open (the master sees no hang-up)."""
        with self._io:
            if self._master is None:
                return False
            poller = select.poll()
            poller.register(self._master, select.POLLHUP)
            return not poller.poll(0)

    def wait_reader(self, timeout: float | None = None) -> bool:
        """Wait until a reader has opened the port (and finished its open-time flush)."""
        step = 0.05
        waited = 0.0
        if self._attached and self.reader_attached():
            return True
        self._attached = False
        while not self._stop.is_set():
            if self.reader_attached():
                self._stop.wait(ATTACH_SETTLE_S)
                self._attached = True
                return True
            if timeout is not None and waited >= timeout:
                return False
            self._stop.wait(step)
            waited += step
        return False

    def drain(self, timeout: float = 2.0) -> bool:
        """Wait until the reader has taken every byte written (before an unplug or the end): whether it did."""
        self._stop.wait(0.05)  # the kernel hands bytes to the slave side asynchronously
        try:
            fd = os.open(self._tty_path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError:
            return False
        try:
            for _ in range(max(1, int(timeout / 0.02))):
                pending = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
                if pending == 0:
                    return True
                self._stop.wait(0.02)
            return False
        finally:
            os.close(fd)

    def write(self, data: bytes) -> None:
        """Write raw bytes on the wire; raises ``OSError`` when unplugged."""
        with self._io:
            if self._master is None:
                raise OSError("ball machine unplugged")
            os.write(self._master, data)

    def write_ball(self, number: int) -> None:
        self.write(frame(number, self.protocol))

    # ---- the machine ---------------------------------------------------------------------------
    def step(self) -> int | None:
        """Send the next ball (maybe after a garbage line, maybe read twice); ``None`` when there is none now."""
        number = self._retry if self._retry is not None else self.ball_source(self.rng)
        if number is None:
            return None
        self._retry = number
        if self.garbage and self.rng.random() < self.garbage:
            self.write(self.rng.choice(GARBAGE_LINES) if self.protocol == "lines" else b"\x02??\x03")
        self.write_ball(number)
        if self.repeat and self.rng.random() < self.repeat:
            self.write_ball(number)  # the reader saw the same ball twice: one ball (debounce)
        self._retry = None
        self.sent.append(number)
        if self.on_ball:
            self.on_ball(number)
        return number

    def request_unplug(self) -> None:
        """Unplug for ``UNPLUG_S`` seconds at the next ball (safe from a signal handler)."""
        self._unplug_wanted = True

    def run(self, unplug_after: int | None = None) -> None:
        """Send balls every ``interval_s`` while a reader listens, until the cage is empty or ``stop()``."""
        if self._master is None:
            self.open()
        while not self._stop.is_set() and (self.count is None or len(self.sent) < self.count):
            if unplug_after is not None and len(self.sent) == unplug_after:
                self._unplug_wanted = True
                unplug_after = None
            if self._unplug_wanted:
                self._unplug_wanted = False
                self.drain()  # pulled between two balls, not in the middle of one
                self.unplug()
                self._stop.wait(self.unplug_s)
                self.open()
            if not self.wait_reader():
                break
            if self.interval_s is None:  # on demand: a ball each time the speaker asks for one
                self._wanted.wait()
                self._wanted.clear()
                if self._stop.is_set():
                    break
            try:
                self.step()
            except OSError:
                continue  # the reader vanished mid-write: wait for it again
            if self.interval_s is not None:
                self._stop.wait(self.interval_s)
        if self._master is not None and not self._stop.is_set():
            self.drain()  # the last balls reach the reader before the machine goes away

    # ---- Service -------------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        if self._master is None:
            self.open()
        self._thread = threading.Thread(target=self.run, name="loto-ball-sim", daemon=True)
        self._thread.start()

    def request_ball(self) -> None:
        """On demand: draw one ball now (the speaker pressed « Tirer » with nothing typed)."""
        self._wanted.set()

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        self._wanted.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self.close()

    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()


def run_cli(args) -> int:
    """``loto-hall simulate ball-machine``: print the port path, send the balls, 0 when done or interrupted."""
    sim = BallSimulator(
        seed=args.seed,
        interval_s=args.interval,
        protocol=args.protocol,
        garbage=args.garbage,
        repeat=args.repeat,
        link=args.link,
        count=max(0, min(args.count, 90)),
        on_ball=lambda n: print(f"boule {n}", flush=True),
    )
    path = sim.open()
    print(path, flush=True)
    if hasattr(signal, "SIGUSR1") and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGUSR1, lambda *_: sim.request_unplug())
    print(
        f"# en attente d'un lecteur sur {path} ; kill -USR1 {os.getpid()} pour simuler un débranchement",
        file=sys.stderr,
        flush=True,
    )
    try:
        sim.run(unplug_after=getattr(args, "unplug_after", None))
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()
    return 0
