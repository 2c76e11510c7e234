"""Rooms: one table of one mini-game with named seats, secret seat tokens, bots and an audience (INTERFACE §7).

Pure: no web, no clock of its own, no thread. The :class:`Lobby` holds every room; each change is first handed
to its ``journal`` callable (the durable store appends it, or raises and nothing changes), then made visible.
A move is compared with the seat's own ``legal`` list *before* the rules engine sees it; the engine then
receives the listed move itself, never the object a phone sent. The tables themselves are ``table.py``'s.
"""
from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from hall.minigames.base import CHANCE, Refused
from hall.minigames.match import LoggedMove, Match
from hall.minigames.table import (
    CODE_LENGTH,
    CODE_LETTERS,
    ROOM_GAMES,
    Room,
    Seat,
    address_hash,
    bot_name,
    clean_name,
    clean_options,
    engine_options,
    jsonable,
    move_key,
    token_hash,
)

RECENT_CLOSED = 20                     # closed rooms kept in the list after they end


@dataclass(frozen=True, slots=True)
class LobbySettings:
    """The ``[games]`` settings the lobby needs."""

    bot_delay_s: float = 1.5
    takeover_s: float = 30.0
    enabled: tuple[str, ...] = tuple(ROOM_GAMES)
    max_rooms: int = 12
    seats_per_address: int = 2


Journal = Callable[[dict], None]


class Lobby:
    """Every room of the evening, what the projector shows, and which games the admin allows.

    Not thread-safe on its own: the web layer calls it under one lock. ``journal(record)`` is called before
    any change becomes visible; when it raises, the change is undone and the error goes up.
    """

    def __init__(self, settings: LobbySettings, journal: Journal = lambda record: None,
                 rng: random.Random | None = None, records: Iterable[dict] = ()):
        self.settings = settings
        self._journal = journal
        # the hall's draws (deals, dice, shuffles, room codes) come from the system's generator; a test hands in
        # a seeded ``random.Random``. Each outcome is journalled as a move, so a replay never needs the generator.
        self.rng: random.Random = rng if rng is not None else secrets.SystemRandom()
        self.rooms: dict[str, Room] = {}
        self.screen: dict[str, Any] = {"show": "loto"}
        self.disabled: set[str] = set()
        # how a bot's thinking is run: here, in the caller; the program may hand it to a real thread (under
        # gevent a long search would otherwise hold every connection of the worker)
        self.think: Callable[[Callable[[], Any]], Any] = lambda decide: decide()
        for record in records:
            self._replay(record)

    # ---------------------------------------------------------------- reading
    def get(self, code: Any) -> Room:
        """The room under ``code`` (any case); raises ``Refused("unknown_room")``."""
        room = self.rooms.get(code.strip().upper()) if isinstance(code, str) and len(code) <= 10 else None
        if room is None:
            raise Refused("unknown_room")
        return room

    def listing(self) -> list[dict]:
        """Every open and recent room with its seats' names: the staff's list."""
        return [room.summary() for room in self.rooms.values()]

    def public_listing(self) -> list[dict]:
        """What anyone may list: the room on the projector, as the projector shows it (its code, its QR code and
        the names of its seats are on the screen), and nothing else — no room that is not on screen."""
        code = self.screen.get("code") if self.screen.get("show") == "game" else None
        room = self.rooms.get(code) if isinstance(code, str) else None
        return [room.summary()] if room is not None and room.status != "closed" else []

    def games(self) -> list[dict]:
        """The room games and whether each may be opened now."""
        return [{"game": g, "enabled": g in self.settings.enabled and g not in self.disabled,
                 "players": list(spec["players"][2]) if "players" in spec else None,
                 "default_players": spec["players"][1] if "players" in spec else None}
                for g, spec in ROOM_GAMES.items()]

    def active_count(self) -> int:
        return sum(1 for room in self.rooms.values() if room.status != "closed")

    # ---------------------------------------------------------------- commands
    def open(self, game: Any, options: Any = None) -> Room:
        """A new room in the lobby; raises ``unknown_game``, ``game_disabled``, ``bad_options`` or ``too_many_rooms``."""
        if not isinstance(game, str) or game not in ROOM_GAMES:
            raise Refused("unknown_game")
        if game not in self.settings.enabled or game in self.disabled:
            raise Refused("game_disabled", game=game)
        opts = clean_options(game, options)
        if self.active_count() >= self.settings.max_rooms:
            raise Refused("too_many_rooms", max=self.settings.max_rooms)
        code = self._new_code()
        self._write({"kind": "open", "code": code, "game": game, "options": opts})
        room = Room(code, game, opts)
        self.rooms[code] = room
        self._trim()
        return room

    def join(self, code: Any, name: Any, address: str = "") -> tuple[Room, int, str]:
        """A seat for ``name`` and its secret token; raises ``bad_name``, ``room_full``, ``already_started``, or
        ``too_many_seats`` when ``address`` (the phone's) already holds ``seats_per_address`` seats here."""
        room = self.get(code)
        if room.status == "closed":
            raise Refused("room_closed")
        if room.status != "lobby":
            raise Refused("already_started")
        name = clean_name(name)
        if len(room.seats) >= room.max_seats():
            raise Refused("room_full")
        where = address_hash(address) if address else ""
        if where and sum(s.address_sha == where for s in room.seats) >= self.settings.seats_per_address:
            raise Refused("too_many_seats", max=self.settings.seats_per_address)
        token = secrets.token_urlsafe(18)
        digest = token_hash(token)
        self._write({"kind": "join", "code": room.code, "seat": len(room.seats), "name": name, "token_sha": digest,
                     "address_sha": where})
        room.seats.append(Seat(name, bot=False, token_sha=digest, address_sha=where))
        return room, len(room.seats) - 1, token

    def remove_seat(self, code: Any, seat: Any, name: Any = None) -> tuple[Room, Seat]:
        """The speaker frees a seat of a room still in the lobby (a squatter, a name typed twice); the seats after
        it move up one and keep their tokens. ``name``, when given, must be that seat's (the speaker's list may be
        out of date). Raises ``room_closed``, ``already_started``, ``unknown_seat``, ``seat_changed``."""
        room = self.get(code)
        if room.status == "closed":
            raise Refused("room_closed")
        if room.status != "lobby":
            raise Refused("already_started")
        if type(seat) is not int or not 0 <= seat < len(room.seats):
            raise Refused("unknown_seat")
        if name is not None and name != room.seats[seat].name:
            raise Refused("seat_changed")
        self._write({"kind": "remove", "code": room.code, "seat": seat})
        return room, room.seats.pop(seat)

    def start(self, code: Any, now: float = 0.0) -> Room:
        """Bots fill the empty seats, the game begins (the first deal or roll is played and journalled)."""
        room = self.get(code)
        if room.status == "closed":
            raise Refused("room_closed")
        if room.status != "lobby":
            raise Refused("already_started")
        size = room.table_size()
        bots = [bot_name(i, [s.name for s in room.seats]) for i in range(size - len(room.seats))]
        game = room.game
        match = Match(game, size, engine_options(room), rng=self.rng)
        entries = [[e.seat, jsonable(e.move)] for e in match.log]
        self._write({"kind": "start", "code": room.code, "bots": bots, "players": size, "moves": entries})
        room.seats.extend(Seat(name, bot=True) for name in bots)
        room.match, room.status = match, "playing"
        self._after_change(room, now, "seat")
        return room

    def play(self, code: Any, token: Any, move: Any, version: Any, now: float = 0.0) -> Room:
        """Play ``move`` for the seat holding ``token``; every refusal changes nothing (INTERFACE §7 codes)."""
        room = self.get(code)
        seat = room.seat_of(token)
        if seat is None:
            raise Refused("bad_token")
        self._seen(room, seat)
        if room.status == "closed":
            raise Refused("room_closed")
        if room.status != "playing":
            raise Refused("game_over" if room.status == "over" else "not_started")
        if type(version) is not int:
            raise Refused("bad_version")
        if version != room.live.version:
            raise Refused("stale_version", expected=room.live.version, got=version if abs(version) < 1 << 53 else None)
        if seat not in room.to_move():
            raise Refused("not_your_turn")
        wanted = move_key(move)
        for candidate in room.legal(seat) if wanted is not None else ():
            if move_key(candidate) == wanted:
                return self._play(room, seat, candidate, now, "seat")
        raise Refused("illegal_move")

    def official(self, code: Any, move: Any, version: Any, now: float = 0.0) -> Room:
        """Apply a referee's action (Bid Euchre's penalty, redeal, renege, time…) for the speaker.

        It must be one of ``room.officials()``; it is played for the seat on turn and journalled as an
        ``official`` record before anyone sees it. Refusals change nothing: ``no_officials``, ``room_closed``,
        ``not_started``, ``game_over``, ``bad_version``, ``stale_version``, ``illegal_official``.
        """
        room = self.get(code)
        if room.game.officials is None:
            raise Refused("no_officials")
        if room.status == "closed":
            raise Refused("room_closed")
        if room.status != "playing":
            raise Refused("game_over" if room.status == "over" else "not_started")
        if type(version) is not int:
            raise Refused("bad_version")
        if version != room.live.version:
            raise Refused("stale_version", expected=room.live.version, got=version if abs(version) < 1 << 53 else None)
        wanted = move_key(move)
        for candidate in room.officials() if wanted is not None else ():
            if move_key(candidate) == wanted:
                return self._play(room, room.to_move()[0], candidate, now, "official", kind="official")
        raise Refused("illegal_official")

    def close(self, code: Any) -> Room:
        room = self.get(code)
        if room.status == "closed":
            return room
        self._write({"kind": "close", "code": room.code})
        room.status = "closed"
        if self.screen.get("code") == room.code:
            self.screen = {"show": "loto"}
        self._trim()
        return room

    def show(self, show: Any, code: Any = None) -> dict:
        """What the projector shows: ``loto``, or ``game`` with a room's code."""
        if show == "loto":
            screen = {"show": "loto"}
        elif show == "game":
            room = self.get(code)
            if room.status == "closed":
                raise Refused("room_closed")
            screen = {"show": "game", "code": room.code}
        else:
            raise Refused("bad_screen")
        self._write({"kind": "screen", **screen})
        self.screen = screen
        return screen

    def set_enabled(self, game: Any, enabled: Any) -> None:
        if not isinstance(game, str) or game not in ROOM_GAMES or type(enabled) is not bool:
            raise Refused("unknown_game")
        self._write({"kind": "switch", "game": game, "enabled": enabled})
        (self.disabled.discard if enabled else self.disabled.add)(game)

    def restart_clocks(self, now: float) -> None:
        """After a restart: every turn under way starts its clock again now (nobody is taken over for the outage)."""
        for room in self.rooms.values():
            room.turn_since = now

    def is_break(self) -> bool:
        """Whether a game is on the projector (the loto draws wait)."""
        return self.screen.get("show") == "game"

    # ---------------------------------------------------------------- presence, bots, takeover
    def touch(self, room: Room, seat: int) -> None:
        """The phone of ``seat`` spoke (a request with its token, or its socket watching): it is back."""
        self._seen(room, seat)

    def due(self, now: float) -> list[tuple[str, float]]:
        """Rooms where a bot should move, with the time it may (bot seats, and silent phones on their turn)."""
        out = []
        for room in self.rooms.values():
            movers = room.to_move()
            if movers:
                out.append((room.code, self._bot_time(room, room.seats[movers[0]], now)))
        return out

    def _bot_time(self, room: Room, seat: Seat, now: float) -> float:
        """When a bot may play the turn under way: a bot seat, or a phone already away, after the bot's delay; a
        phone on its turn at the end of the turn's clock (``takeover_s`` from the turn's start, however many
        moves the turn holds), when it is marked away, then one bot delay later. Coming back after that never
        winds the clock back: the bot plays within ``takeover_s`` + ``bot_delay_s`` of the turn's start."""
        start, settings = room.turn_since, self.settings
        if seat.bot or (seat.away and now < start + settings.takeover_s):
            return start + settings.bot_delay_s
        if now < start + settings.takeover_s:
            return start + settings.takeover_s
        return start + settings.takeover_s + settings.bot_delay_s

    def step(self, code: str, now: float) -> bool:
        """Play one bot move in ``code`` if one is due at ``now`` (taking over a silent seat); whether it did."""
        room = self.rooms.get(code)
        if room is None:
            return False
        movers = room.to_move()
        if not movers:
            return False
        index = movers[0]
        seat = room.seats[index]
        at = self._bot_time(room, seat, now)
        if not seat.bot and now >= room.turn_since + self.settings.takeover_s:
            seat.away = True          # silent on its turn: a bot plays for it until the phone returns
        if now < at:
            return False
        strategy = room.game.bots.get(str(room.options.get("bot", "default"))) or room.game.bots["default"]
        state = room.live.state            # immutable: a thread of its own may read it
        move = self.think(lambda: strategy(state, index, self.rng))
        for candidate in room.legal(index):
            if move_key(candidate) == move_key(move):
                self._play(room, index, candidate, now, "bot")
                return True
        raise RuntimeError(f"{room.game_name}: the bot chose an illegal move {move!r}")

    # ---------------------------------------------------------------- inside
    def _play(self, room: Room, seat: int, move: Any, now: float, by: str, kind: str = "moves") -> Room:
        match = room.match
        assert match is not None, "a room that plays has its match"
        before = (match.state, match.version, len(match.log))
        match.play(seat, move, match.version)
        entries = [[e.seat, jsonable(e.move)] for e in match.log[before[2]:]]
        try:
            self._write({"kind": kind, "code": room.code, "by": by, "moves": entries})
        except BaseException:
            match.state, match.version = before[0], before[1]
            del match.log[before[2]:]
            raise
        self._after_change(room, now, by)
        return room

    def _after_change(self, room: Room, now: float, by: str) -> None:
        room.last_by = by
        if room.live.outcome() is not None:
            room.status = "over"
        turn_of = room.game.turn_of
        key = turn_of(room.live.state) if turn_of is not None else None
        if turn_of is None or key != room.turn_key:
            room.turn_since = now     # a new turn (or the second card of a double play) starts its clock
        room.turn_key = key

    def _seen(self, room: Room, seat: int) -> None:
        room.seats[seat].away = False

    def _write(self, record: dict) -> None:
        self._journal(record)

    def _new_code(self) -> str:
        for _ in range(1000):
            code = "".join(self.rng.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                return code
        raise Refused("too_many_rooms")

    def _trim(self) -> None:
        closed = [code for code, room in self.rooms.items() if room.status == "closed"]
        for code in closed[:-RECENT_CLOSED] if len(closed) > RECENT_CLOSED else ():
            del self.rooms[code]

    def _replay(self, record: dict) -> None:
        """Apply one journal record again (start-up); moves are checked by the rules as they are replayed."""
        kind = record["kind"]
        if kind == "open":
            self.rooms[record["code"]] = Room(record["code"], record["game"], dict(record["options"]))
        elif kind == "join":
            room = self.rooms[record["code"]]
            room.seats.append(Seat(record["name"], bot=False, token_sha=record["token_sha"],
                                   address_sha=record.get("address_sha", "")))
        elif kind == "remove":
            self.rooms[record["code"]].seats.pop(record["seat"])
        elif kind == "start":
            room = self.rooms[record["code"]]
            room.seats.extend(Seat(name, bot=True) for name in record["bots"])
            room.match = Match.replay(room.game, record["players"], engine_options(room),
                                      [LoggedMove(s, m, i + 1) for i, (s, m) in enumerate(record["moves"])],
                                      rng=self.rng)
            room.status = "playing"
            self._after_change(room, 0.0, "seat")
        elif kind in ("moves", "official"):
            room = self.rooms[record["code"]]
            match = room.match
            assert match is not None, "moves are journalled only after the start"
            if kind == "official" and move_key(record["moves"][0][1]) not in map(move_key, room.officials()):
                raise Refused("illegal_official", move=record["moves"][0][1])
            for seat, move in record["moves"]:
                if seat != CHANCE and not room.game.check_legal(match.state, seat, move):
                    raise Refused("illegal_move", seat=seat, move=move)
                match._apply(seat, move)
            self._after_change(room, 0.0, record.get("by", "seat"))
        elif kind == "close":
            if record["code"] in self.rooms:
                self.rooms[record["code"]].status = "closed"
                self._trim()
        elif kind == "screen":
            self.screen = {k: v for k, v in record.items() if k in ("show", "code")}
        elif kind == "switch":
            (self.disabled.discard if record["enabled"] else self.disabled.add)(record["game"])
        if self.screen.get("code") is not None and self.screen["code"] not in self.rooms:
            self.screen = {"show": "loto"}
