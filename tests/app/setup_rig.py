"""The first start's rig: a hall in setup mode on a blank data folder, its printer (the project's sink) and a ball
machine on a real pseudo-terminal that is only understood at its own speed."""

from __future__ import annotations

import contextlib
import os
import random
import termios
import threading
from dataclasses import dataclass
from pathlib import Path

from drivers.ball_protocol import frame
from drivers.printer_sink import PrinterSink
from hall.app.setup_devices import SetupDevices
from hall.app.setup_wizard import SetupWizard
from hall.cartons.cardbook import CardBook
from hall.config import parse_config
from hall.door.service import Hall
from hall.record.journal import Journal
from tests.display.conftest import make_app


class BallMachine:
    """A machine speaking ``protocol`` at ``speed`` bauds on a pty (``link`` names it like a USB adapter): the
    balls the volunteer drops are sent again and again; read at another speed, each frame is noise (as a UART
    read at the wrong speed gives)."""

    def __init__(self, folder: Path, speed: int = termios.B4800, protocol: str = "stx"):
        self.master, self._slave = os.openpty()
        os.set_blocking(self.master, False)
        self.link = folder / "ttyUSB-loto"
        self.link.symlink_to(os.ttyname(self._slave))
        self.speed, self.protocol = speed, protocol
        self.dropped: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def drop(self, *balls: int) -> None:
        self.dropped.extend(balls)

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            with contextlib.suppress(OSError):
                os.read(self.master, 4096)  # what the hall writes (nothing): never let it fill the pty
            if not self.dropped:
                continue
            heard_at = termios.tcgetattr(self._slave)[4]  # the speed the hall set on the port
            for ball in self.dropped:
                data = frame(ball, self.protocol)
                if heard_at != self.speed:
                    data = bytes(b ^ 0x5A for b in data)
                with contextlib.suppress(OSError):
                    os.write(self.master, data)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        os.close(self.master)
        os.close(self._slave)


@dataclass
class SetupRoom:
    hall: Hall
    app: object
    wizard: SetupWizard
    sink: PrinterSink
    machine: BallMachine
    data_dir: Path
    url: str = ""

    def close(self) -> None:
        self.machine.close()
        self.sink.stop()
        self.hall.journal.close()


def setup_room(tmp_path: Path) -> SetupRoom:
    """A hall as ``loto-hall serve --data-dir DIR`` starts it with no configuration: every default, in setup mode."""
    data = tmp_path / "data"
    data.mkdir()
    config = parse_config({"hall": {"data_dir": str(data)}})
    hall = Hall(config, Journal(data / "journal.sqlite"), CardBook({}), voucher_secret=b"k" * 32, rng=random.Random(1))
    sink = PrinterSink()
    sink.start()
    machine = BallMachine(tmp_path)
    devices = SetupDevices(ports=(str(tmp_path / "ttyUSB-*"),), window_s=0.3)
    wizard = SetupWizard(data)
    app, _ = make_app(hall, config, setup=(wizard, devices))
    app.config["TESTING"] = True
    return SetupRoom(hall, app, wizard, sink, machine, data)
