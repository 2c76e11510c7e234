"""The lobby's state and its replay: the rooms, what the projector shows, the games the admin switched off.

``apply(record)`` makes the change a journal record says. The lobby applies the records of its simple commands
(open, join, remove, close, screen, switch) through it once they are journalled, and the start-up replays every
record through it: the live lobby and the replayed one are made by the same code. A start and the moves are
computed live (the rules check them, chance draws its outcomes), then replayed here from what was journalled.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal, Required, TypedDict

from hall.minigames.base import CHANCE, Move
from hall.minigames.lobby_news import JSON
from hall.minigames.match import LoggedMove, Match
from hall.minigames.registry import OptionValue
from hall.minigames.table import (
    CODE_LENGTH,
    CODE_LETTERS,
    ROOM_GAMES,
    Room,
    Seat,
    engine_options,
    move_key,
)
from hall.refusal import Rejected

RECENT_CLOSED = 20  # closed rooms kept in the list after they end
LOTO = {"show": "loto"}


class Record(TypedDict, total=False):
    """One journal record of the rooms (``games.sqlite``), by its ``kind``; each kind holds the keys
    :meth:`LobbyState.apply` reads for it. ``moves`` are ``[seat, move]`` pairs as JSON lists (chance included)."""

    kind: Required[Literal["open", "join", "remove", "start", "moves", "official", "close", "screen", "switch"]]
    code: str
    game: str  # open, switch
    options: dict[str, OptionValue]  # open
    seat: int  # join, remove
    name: str  # join
    token_sha: str  # join
    address_sha: str  # join (absent from records written before it)
    bots: list[str]  # start
    players: int  # start
    moves: list[list[object]]  # start, moves, official: [seat, move] as JSON
    by: str  # moves, official: "seat", "bot" or "official"
    show: str  # screen: "loto" or "game"
    enabled: bool  # switch


@dataclass
class LobbyState:
    """Every room of the evening by code, the projector's screen, the disabled games (changed by the lobby only)."""

    rooms: dict[str, Room] = field(default_factory=dict)
    screen: JSON = field(default_factory=lambda: dict(LOTO))
    disabled: set[str] = field(default_factory=set)

    def listing(self) -> list[JSON]:
        return [room.summary() for room in self.rooms.values()]

    def public_listing(self) -> list[JSON]:
        code = self.screen.get("code") if self.screen.get("show") == "game" else None
        room = self.rooms.get(code) if isinstance(code, str) else None
        return [room.summary()] if room is not None and room.status != "closed" else []

    def games(self, enabled: tuple[str, ...]) -> list[JSON]:
        return [
            {
                "game": g,
                "enabled": g in enabled and g not in self.disabled,
                "players": list(spec["players"][2] or ()) if "players" in spec else None,
                "default_players": spec["players"][1] if "players" in spec else None,
            }
            for g, spec in ROOM_GAMES.items()
        ]

    def new_code(self, rng: random.Random) -> str:
        """A room code nobody holds (``too_many_rooms`` if none is found)."""
        for _ in range(1000):
            code = "".join(rng.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                return code
        raise Rejected("rooms/too_many_rooms")

    def active_count(self) -> int:
        return sum(1 for room in self.rooms.values() if room.status != "closed")

    def apply(self, record: Record, rng: random.Random) -> None:
        """Make the change ``record`` says; moves are checked by the rules as they are replayed."""
        kind = record["kind"]
        if kind == "open":
            self.rooms[record["code"]] = Room(record["code"], record["game"], dict(record["options"]))
        elif kind == "join":
            self.rooms[record["code"]].seats.append(
                Seat(
                    record["name"], bot=False, token_sha=record["token_sha"], address_sha=record.get("address_sha", "")
                )
            )
        elif kind == "remove":
            self.rooms[record["code"]].seats.pop(record["seat"])
        elif kind == "start":
            room = self.rooms[record["code"]]
            room.seats.extend(Seat(name, bot=True) for name in record["bots"])
            room.match = Match.replay(
                room.game,
                record["players"],
                engine_options(room),
                [LoggedMove(s, m, i + 1) for i, (s, m) in enumerate(_entries(record))],
                rng=rng,
            )
            room.status = "playing"
            room.moved(0.0, "seat")
        elif kind in ("moves", "official"):
            self._replay_moves(self.rooms[record["code"]], record)
        elif kind == "close":
            if record["code"] in self.rooms:
                self.rooms[record["code"]].status = "closed"
                if self.screen.get("code") == record["code"]:
                    self.screen = dict(LOTO)  # a closed room leaves the projector
                self._trim()
        elif kind == "screen":
            self.screen = {k: v for k, v in record.items() if k in ("show", "code")}
        elif kind == "switch":
            (self.disabled.discard if record["enabled"] else self.disabled.add)(record["game"])
        if self.screen.get("code") is not None and self.screen["code"] not in self.rooms:
            self.screen = dict(LOTO)

    def _replay_moves(self, room: Room, record: Record) -> None:
        match = room.match
        assert match is not None, "moves are journalled only after the start"
        if record["kind"] == "official" and move_key(record["moves"][0][1]) not in map(move_key, room.officials()):
            raise Rejected("rooms/illegal_official", move=record["moves"][0][1])
        for seat, move in _entries(record):
            if seat != CHANCE and not room.game.check_legal(match.state, seat, move):
                raise Rejected("rooms/illegal_move", seat=seat, move=move)
            match._apply(seat, move)
        room.moved(0.0, record.get("by", "seat"))

    def _trim(self) -> None:
        closed = [code for code, room in self.rooms.items() if room.status == "closed"]
        for code in closed[:-RECENT_CLOSED] if len(closed) > RECENT_CLOSED else ():
            del self.rooms[code]


def _entries(record: Record) -> list[tuple[int, Move]]:
    """The ``[seat, move]`` pairs of a record; a seat that is no integer is refused (as the rules would)."""
    pairs: list[tuple[int, Move]] = []
    for seat, move in record["moves"]:
        if not isinstance(seat, int):
            raise Rejected("rooms/illegal_move", seat=seat, move=move)
        pairs.append((seat, move))
    return pairs
