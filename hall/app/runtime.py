"""Opening an evening's data folder: every durable file (the journal, the rooms', the tournament's), the card book,
the voucher secret, the ``Hall`` and the mini-games' lobby. The web and the drivers receive them from here.

Every file is opened by the hall's one opener (``hall/record/durable.py``: WAL, ``synchronous=FULL``, the schema version
in ``user_version``); the mini-games' stores, which may not import the core, are handed their connection.
"""

from __future__ import annotations

import fcntl
import gc
import logging
import os
import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hall.cartons.cardbook import CardBook
from hall.config import Config, GamesSection
from hall.door.service import Hall
from hall.errors import HallError
from hall.minigames import room_store
from hall.minigames.lobby import Lobby, LobbySettings, Think, inline
from hall.minigames.osga import store as tournament_store
from hall.minigames.osga.store import TournamentStore
from hall.minigames.registry import GAME_NAMES
from hall.minigames.room_store import RoomStore, open_lobby
from hall.ports import HallPort, Service
from hall.record.durable import open_durable, sweep_temporaries
from hall.record.evenings import JOURNAL_FILE
from hall.record.journal import Journal
from hall.record.secretfile import load_or_create_secret

log = logging.getLogger("loto-hall")

ROOMS_FILE = "games.sqlite"
TOURNAMENT_FILE = "tournament.sqlite"
LOCK_FILE = "hall.lock"
SECRET_FILE = "voucher.key"


def lobby_settings(games: GamesSection) -> LobbySettings:
    """The lobby's settings from the config's ``[games]`` section."""
    return LobbySettings(
        bot_delay_s=float(games.bot_delay_s),
        takeover_s=float(games.takeover_s),
        enabled=GAME_NAMES if games.enabled is None else tuple(games.enabled),
        max_rooms=int(games.max_rooms),
        seats_per_address=int(games.seats_per_address),
        max_audience=int(games.max_audience),
    )


def open_room_store(path: Path) -> RoomStore:
    """The rooms' journal in ``path`` (``games.sqlite`` of a data folder)."""
    return RoomStore(open_durable(path, room_store.SCHEMA, room_store.SCHEMA_VERSION))


def open_rooms(
    data_dir: Path, settings: LobbySettings, rng: random.Random | None = None, think: Think = inline
) -> tuple[Lobby, RoomStore]:
    """The mini-games' lobby replayed from ``data_dir/games.sqlite``, journalling every later change there
    (``think``: how a bot's decision runs)."""
    store = open_room_store(Path(data_dir) / ROOMS_FILE)
    try:
        return open_lobby(store, settings, rng, think), store
    except BaseException:
        store.close()
        raise


def open_tournament(path: Path) -> TournamentStore:
    """The OSGA day replayed from ``path`` (``tournament.sqlite`` of a data folder)."""
    return TournamentStore(open_durable(path, tournament_store.SCHEMA, tournament_store.SCHEMA_VERSION))


@dataclass
class Runtime:
    """The hall, the stores and the services that run beside it, for one data folder."""

    config: Config
    hall: HallPort  # the rest of the program calls the hall through its port, as display/ does
    journal: Journal  # the runtime's own: gevent hands its writes to real threads (wiring.py)
    data_dir: Path
    lobby: Lobby
    rooms_store: RoomStore
    tournament: TournamentStore | None = None  # None when its file is damaged: the loto runs without it
    services: list[Service] = field(default_factory=list)
    lock_fd: int | None = None

    @classmethod
    def open(
        cls, config: Config, offload: Callable[[Callable[[], Any]], Any] | None = None, think: Think = inline
    ) -> Runtime:
        """Open (or create) the data folder, rebuild the hall from its journal and the games from theirs
        (``offload``: how the journal's durable writes run, ``think``: how a bot's decision runs; both in the
        caller's thread when not given)."""
        data_dir = config.data_dir
        data_dir.mkdir(parents=True, exist_ok=True)
        lock_fd = lock_data_dir(data_dir)
        sweep_temporaries(data_dir)  # what a power cut left of a side file being written: never read
        journal = Journal(data_dir / JOURNAL_FILE, offload)
        try:
            book = CardBook.load(data_dir, config.cards.columns)
            hall = Hall(config, journal, book, load_or_create_secret(data_dir / SECRET_FILE))
            lobby, rooms = open_rooms(data_dir, lobby_settings(config.games), think=think)
        except BaseException:
            journal.close()
            os.close(lock_fd)
            raise
        try:  # the OSGA day: its own file; a damaged one must not keep the loto from starting
            tournament = open_tournament(data_dir / TOURNAMENT_FILE)
        except (OSError, ValueError, sqlite3.Error, HallError) as exc:
            log.error("tournoi indisponible (%s) : %s", TOURNAMENT_FILE, exc)
            tournament = None
        # The card book and the watch index live all evening: out of the collector's reach, a full
        # collection no longer walks 100 000 cartons in the middle of a draw (a 6 ms pause → none).
        gc.freeze()
        return cls(config, hall, journal, data_dir, lobby, rooms, tournament, lock_fd=lock_fd)

    def start_services(self) -> None:
        for service in self.services:
            service.start()

    def stop_services(self) -> None:
        for service in reversed(self.services):
            try:
                service.stop()
            except Exception:  # a device that fails to stop must not keep the others running, but it is said
                log.exception(
                    "arrêt du service %s en échec : les autres s'arrêtent quand même", getattr(service, "name", service)
                )

    def close(self) -> None:
        """Stop the services, finish the journal write in flight under the hall's lock and close the journal, then
        the games' files (the rooms' after the lobby's change in flight has finished its write). Every event is
        already committed: closing only releases the files."""
        self.stop_services()
        self.hall.close()
        if self.tournament is not None:
            self.tournament.close()
        self.lobby.shut_down(self.rooms_store.close)
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
        raise HallError(
            f"{data_dir} est déjà utilisé par un autre loto-hall (le service tourne ?) : "
            "arrêtez-le, ou importez les cartons depuis la page /admin"
        ) from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return fd
