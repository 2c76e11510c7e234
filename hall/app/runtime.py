"""Opening an evening's data folder: the journal, the card book, the voucher secret, the ``Hall``."""
from __future__ import annotations

import fcntl
import gc
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from hall.cardbook import CardBook
from hall.config import Config
from hall.errors import HallError
from hall.journal import Journal
from hall.ports import HallPort, Service
from hall.secretfile import load_or_create_secret
from hall.service import Hall

JOURNAL_FILE = "journal.sqlite"
LOCK_FILE = "hall.lock"
SECRET_FILE = "voucher.key"


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file, for the journal's audit trail."""
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else ""


@dataclass
class Runtime:
    """The hall and the services that run beside it, for one data folder."""

    config: Config
    hall: HallPort              # the rest of the program calls the hall through its port, as display/ does
    journal: Journal            # the runtime's own: gevent hands its writes to real threads (wiring.py)
    data_dir: Path
    services: list[Service] = field(default_factory=list)
    lock_fd: int | None = None

    @classmethod
    def open(cls, config: Config) -> Runtime:
        """Open (or create) the data folder and rebuild the hall from its journal."""
        data_dir = config.data_dir
        data_dir.mkdir(parents=True, exist_ok=True)
        lock_fd = lock_data_dir(data_dir)
        journal = Journal(data_dir / JOURNAL_FILE)
        book = CardBook.load(data_dir, config.cards.columns)
        hall = Hall(config, journal, book, load_or_create_secret(data_dir / SECRET_FILE))
        # The card book and the watch index live all evening: out of the collector's reach, a full
        # collection no longer walks 100 000 cartons in the middle of a draw (a 6 ms pause → none).
        gc.freeze()
        return cls(config, hall, journal, data_dir, lock_fd=lock_fd)

    def start_services(self) -> None:
        for service in self.services:
            service.start()

    def stop_services(self) -> None:
        for service in reversed(self.services):
            try:
                service.stop()
            except Exception:  # a device that fails to stop must not keep the others running
                pass

    def close(self) -> None:
        self.stop_services()
        self.hall.close()
        if self.lock_fd is not None:
            os.close(self.lock_fd)
            self.lock_fd = None


def lock_data_dir(data_dir: Path) -> int:
    """Take the data folder for this process alone (the journal has one writer); the kernel frees it at exit."""
    fd = os.open(data_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise HallError(f"{data_dir} est déjà utilisé par un autre loto-hall (le service tourne ?) : "
                        "arrêtez-le, ou importez les cartons depuis la page /admin") from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd
