"""The devices the first start finds and tries (INTERFACE §12): the printer's test ticket and « la fiche des codes »,
and the ball machine, heard on each serial port at the usual speeds and framings.

The program's part of the wizard (the web may not import a driver): handed to the web by the composition root.
Finding the ball machine: the volunteer drops three balls named on the phone; the hall listens on each port at
each speed in turn (``WINDOW_S`` each), feeding what it hears to both parsers of ``drivers/ball_protocol.py``, and
keeps the one setting that heard the three balls. A wrong speed turns a ball into noise on the wire; noise that
happens to read as a number is not the three named balls.
"""

from __future__ import annotations

import glob
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import serial

from drivers.ball_protocol import Ball, make_parser
from drivers.printer import EscposDevice, PrinterAway, printer_target
from drivers.voucher_layout import render_code_sheet, render_test_ticket
from hall.config import ConfigError
from hall.refusal import Rejected

log = logging.getLogger("loto-hall.setup")

SPEEDS = (9600, 19200, 4800, 2400, 1200, 38400, 57600, 115200)  # the common ones first
FRAMINGS = ("lines", "stx")
PORTS = ("/dev/ttyUSB*", "/dev/ttyACM*", "/dev/serial/by-id/*")
WINDOW_S = 0.6  # one listening window on one port at one speed
SEARCH_S = 120.0  # then the hall stops listening: the volunteer asks again
ROLE_WORDS = {  # the roles as the committee says them, on the printed sheet
    "speaker": "Animateur (la console des boules)",
    "controller": "Contrôleurs (les téléphones)",
    "desk": "Caisse (la vente des cartons)",
    "buvette": "Buvette (sa caisse)",
    "admin": "Administrateur (le programme, /admin)",
}


def _now() -> str:
    return time.strftime("%d/%m/%Y %H:%M")


def _device(url: str) -> EscposDevice:
    try:
        printer_target(url)
    except ConfigError as exc:
        raise Rejected("setup_bad_answer", why=" ; ".join(exc.problems)) from None
    return EscposDevice(url)


def print_test(url: str, hall_name: str) -> None:
    """The test ticket on the printer at ``url``; refused with the printer's own reason."""
    try:
        _device(url).send(render_test_ticket(hall_name, _now()))
    except PrinterAway as exc:
        raise Rejected("setup_printer", reason=exc.code) from None


def print_pins(url: str, hall_name: str, pins: dict[str, str]) -> None:
    """« La fiche des codes » on the printer at ``url``."""
    rows = [(ROLE_WORDS.get(role, role), pin) for role, pin in pins.items()]
    try:
        _device(url).send(render_code_sheet(hall_name, rows, _now()))
    except PrinterAway as exc:
        raise Rejected("setup_printer", reason=exc.code) from None


@dataclass
class BallSearch:
    """One search for the ball machine: the balls to drop, what each setting heard, and what was found."""

    balls: tuple[int, ...]
    ports: list[str]
    state: str = "listening"  # then "found" or "not_found"
    found: dict | None = None
    trying: str = ""
    heard: dict[tuple[str, int, str], set[int]] = field(default_factory=dict)
    stop: threading.Event = field(default_factory=threading.Event)

    def view(self) -> dict:
        return {"state": self.state, "balls": list(self.balls), "found": self.found, "ports": self.ports}


def serial_ports(patterns: Iterable[str]) -> list[str]:
    return sorted({path for pattern in patterns for path in glob.glob(pattern)})


def _listen(path: str, speed: int, window_s: float, stop: threading.Event) -> bytes:
    """What ``path`` says at ``speed`` for ``window_s`` (nothing if it cannot be opened)."""
    heard = bytearray()
    try:
        with serial.Serial(path, speed, timeout=0.05, exclusive=True) as port:
            end = time.monotonic() + window_s
            while time.monotonic() < end and not stop.is_set():
                heard += port.read(256)
    except (serial.SerialException, OSError, ValueError) as exc:
        log.info("port %s à %s bauds : %s", path, speed, exc)
    return bytes(heard)


def search(
    job: BallSearch, done: Callable[[BallSearch], None], *, window_s: float = WINDOW_S, limit_s: float = SEARCH_S
) -> None:
    """Listen on each port at each speed until a setting has heard the three named balls (``done`` is told)."""
    end = time.monotonic() + limit_s
    wanted = set(job.balls)
    while time.monotonic() < end and not job.stop.is_set() and job.found is None:
        for path in job.ports:
            for speed in SPEEDS:
                job.trying = f"{path} {speed}"
                data = _listen(path, speed, window_s, job.stop)
                for framing in FRAMINGS:
                    balls = {r.number for r in make_parser(framing).feed(data) if isinstance(r, Ball)}
                    heard = job.heard.setdefault((path, speed, framing), set())
                    heard |= balls & wanted
                    if heard == wanted:
                        job.found = {"port": path, "baudrate": speed, "protocol": framing}
                        break
                if job.found or job.stop.is_set():
                    break
            if job.found or job.stop.is_set():
                break
        if not job.ports:
            job.stop.wait(window_s)
            job.ports = serial_ports(PORTS)
    job.state = "found" if job.found else "not_found"
    done(job)


def start_search(patterns: Iterable[str], done: Callable[[BallSearch], None], **timing: float) -> BallSearch:
    """A search started in its own thread: three different balls for the volunteer to drop."""
    job = BallSearch(tuple(random.SystemRandom().sample(range(1, 91), 3)), serial_ports(patterns))
    threading.Thread(target=search, args=(job, done), kwargs=timing, name="setup-balls", daemon=True).start()
    return job


@dataclass
class SetupDevices:
    """What the web's wizard is handed: the printer's two tickets and the ball machine's search."""

    ports: tuple[str, ...] = PORTS
    window_s: float = WINDOW_S
    print_test: Callable[[str, str], None] = print_test
    print_pins: Callable[[str, str, dict[str, str]], None] = print_pins

    def find_ball_machine(self, done: Callable[[BallSearch], None]) -> BallSearch:
        return start_search(self.ports, done, window_s=self.window_s)
