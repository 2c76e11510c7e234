"""The lobby: every room of the evening (INTERFACE §7), under one private lock, as ``Hall`` is.

Each command validates, hands its record to ``journal`` (the store appends it, or raises and nothing changes),
applies it and publishes the news, all under the lock: followers see the versions in order, and nobody sees
a change that is not on disk. Readers get snapshots (``lobby_news``). A move is compared with the seat's own
``legal`` list before the rules see it. No web, no clock, no thread: the web's bot task calls ``play_bots``;
``think`` runs a bot's decision (in the caller, or a real thread under gevent: a search would hold the loop).
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, TypeVar

from hall.minigames.base import JSON, Move
from hall.minigames.lobby_followers import Followers
from hall.minigames.lobby_news import ListChanged, News, Referee, RoomSnapshot, ScreenChanged, Told
from hall.minigames.lobby_state import LOTO, LobbyState, Record
from hall.minigames.match import Match
from hall.minigames.table import (
    ROOM_GAMES,
    Room,
    Seat,
    address_hash,
    bot_name,
    clean_name,
    clean_options,
    engine_options,
    jsonable,
    listed,
    name_key,
    token_hash,
)
from hall.refusal import Rejected

log = logging.getLogger("loto-hall.rooms")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class LobbySettings:
    """The ``[games]`` settings the lobby needs."""

    bot_delay_s: float = 1.5
    takeover_s: float = 30.0
    enabled: tuple[str, ...] = tuple(ROOM_GAMES)
    max_rooms: int = 12
    seats_per_address: int = 2
    max_audience: int = 200


Journal = Callable[[Record], None]
Think = Callable[[Callable[[], Move]], Move]
NO_MOVE: object = object()  # a request naming no move: refused once its token (or room) is known, before all else


def inline(decide: Callable[[], T]) -> T:
    """A bot's decision run in the caller's thread."""
    return decide()


class Lobby:
    """Every room of the evening, what the projector shows, which games the admin allows, who follows what."""

    def __init__(
        self,
        settings: LobbySettings,
        journal: Journal = lambda record: None,
        rng: random.Random | None = None,
        records: Iterable[Record] = (),
        think: Think = inline,
    ):
        self.settings = settings
        self._journal = journal
        self._think = think
        # the hall's draws (deals, dice, shuffles, room codes) come from the system's generator; a test hands in
        # a seeded ``random.Random``. Each outcome is journalled as a move, so a replay never needs the generator.
        self.rng: random.Random = rng if rng is not None else secrets.SystemRandom()
        self._lock = threading.RLock()
        self._state = LobbyState()
        self._subscribers: list[Callable[[News], None]] = []
        self._followers = Followers(self._publish, self._publish_room)
        for record in records:
            self._state.apply(record, self.rng)

    def subscribe(self, fn: Callable[[News], None]) -> None:
        """Call ``fn`` with each piece of news, under the lock, in order (it must return quickly)."""
        with self._lock:
            self._subscribers.append(fn)

    # ---------------------------------------------------------------- snapshots
    def room(self, code: object) -> RoomSnapshot:
        """The room under ``code`` (any case); raises ``Rejected("rooms/unknown_room")``."""
        with self._lock:
            return self._get(code).snapshot()

    def seat_view(self, code: object, token: object) -> JSON:
        """What the seat holding ``token`` sees, with its ``legal`` moves; the phone is back. Raises ``unknown_room``,
        ``bad_token``."""
        with self._lock:
            room, seat = self._seat(code, token)
            return room.seat_view(seat)

    def look(self, code: object, token: object) -> tuple[RoomSnapshot, int]:
        """The room as the seat holding ``token`` finds it, and that seat; the phone is back."""
        with self._lock:
            room, seat = self._seat(code, token)
            return room.snapshot(), seat

    def referee(self, code: object) -> Referee:
        """The referee's actions the rules accept now; raises ``unknown_room``, ``no_officials``."""
        with self._lock:
            room = self._get(code)
            if room.game.officials is None:
                raise Rejected("rooms/no_officials")
            return room.referee()

    def listing(self) -> list[JSON]:
        """Every open and recent room with its seats' names: the staff's list."""
        with self._lock:
            return self._state.listing()

    def public_listing(self) -> list[JSON]:
        """What anyone may list: the room on the projector, as the projector shows it (its code, its QR code and
        the names of its seats are on the screen), and nothing else — no room that is not on screen."""
        with self._lock:
            return self._state.public_listing()

    def games(self) -> list[JSON]:
        """The room games and whether each may be opened now."""
        with self._lock:
            return self._state.games(self.settings.enabled)

    def screen(self) -> JSON:
        """What the projector shows: ``{"show": "loto"}`` or ``{"show": "game", "code"}``."""
        with self._lock:
            return dict(self._state.screen)

    def game_on_screen(self) -> bool:
        """Whether a game is on the projector (the loto's draws wait)."""
        return self._state.screen.get("show") == "game"  # one read of a dict the lock replaces whole

    # ---------------------------------------------------------------- commands
    def open(self, game: object, options: object = None) -> RoomSnapshot:
        """A new room in the lobby; raises ``unknown_game``, ``game_disabled``, ``bad_options`` or ``too_many_rooms``."""
        with self._lock:
            if not isinstance(game, str) or game not in ROOM_GAMES:
                raise Rejected("rooms/unknown_game")
            if game not in self.settings.enabled or game in self._state.disabled:
                raise Rejected("rooms/game_disabled", game=game)
            opts = clean_options(game, options)
            if self._state.active_count() >= self.settings.max_rooms:
                raise Rejected("rooms/too_many_rooms", max=self.settings.max_rooms)
            code = self._state.new_code(self.rng)
            self._commit({"kind": "open", "code": code, "game": game, "options": opts})
            self._publish_list()
            return self._state.rooms[code].snapshot()

    def join(self, code: object, name: object, address: str = "") -> tuple[RoomSnapshot, int, str]:
        """A seat for ``name`` and its secret token; raises ``bad_name``, ``room_full``, ``already_started``, or
        ``name_taken`` (a seat's name, or one that looks like it), ``too_many_seats`` when ``address`` (the phone's) already holds ``seats_per_address`` seats here."""
        with self._lock:
            room = self._get(code)
            room.check_lobby()
            name = clean_name(name)
            if len(room.seats) >= room.max_seats():
                raise Rejected("rooms/room_full")
            if any(name_key(seat.name) == name_key(name) for seat in room.seats):
                raise Rejected("rooms/name_taken")  # two « Léa » (or a « Lеa ») at one table: nobody knows whose turn
            where = address_hash(address) if address else ""
            if where and sum(s.address_sha == where for s in room.seats) >= self.settings.seats_per_address:
                raise Rejected("rooms/too_many_seats", max=self.settings.seats_per_address)
            token = secrets.token_urlsafe(18)
            self._commit(
                {
                    "kind": "join",
                    "code": room.code,
                    "seat": len(room.seats),
                    "name": name,
                    "token_sha": token_hash(token),
                    "address_sha": where,
                }
            )
            snapshot = self._publish_room(room)
            self._publish_list()
            return snapshot, len(room.seats) - 1, token

    def remove_seat(self, code: object, seat: object, name: object = None) -> RoomSnapshot:
        """The speaker frees a seat before the start; the later seats move up with their tokens and followers.
        ``name``, if given, must be that seat's: ``seat_changed``; also ``unknown_seat``, ``already_started``."""
        with self._lock:
            room = self._get(code)
            room.check_lobby()
            if type(seat) is not int or not 0 <= seat < len(room.seats):
                raise Rejected("rooms/unknown_seat")
            if name is not None and name != room.seats[seat].name:
                raise Rejected("rooms/seat_changed")
            self._commit({"kind": "remove", "code": room.code, "seat": seat})
            self._followers.seat_removed(room, seat)
            snapshot = self._publish_room(room)
            self._publish_list()
            return snapshot

    def start(self, code: object, now: float = 0.0) -> RoomSnapshot:
        """Bots fill the empty seats, the game begins (the first deal or roll is played and journalled)."""
        with self._lock:
            room = self._get(code)
            room.check_lobby()
            size = room.table_size()
            bots = [bot_name(i, [s.name for s in room.seats]) for i in range(size - len(room.seats))]
            match = Match(room.game, size, engine_options(room), rng=self.rng)
            entries = [[e.seat, jsonable(e.move)] for e in match.log]
            self._journal({"kind": "start", "code": room.code, "bots": bots, "players": size, "moves": entries})
            room.seats.extend(Seat(name, bot=True) for name in bots)
            room.match, room.status = match, "playing"
            room.moved(now, "seat")
            snapshot = self._publish_room(room)
            self._publish_list()
            return snapshot

    def play(self, code: object, token: object, move: object, version: object, now: float = 0.0) -> RoomSnapshot:
        """Play ``move`` for the seat holding ``token``; every refusal changes nothing (INTERFACE §7 codes)."""
        with self._lock:
            room = self._get(code)
            seat = room.seat_of(token)
            if seat is None:
                raise Rejected("rooms/bad_token")
            if move is NO_MOVE:
                raise Rejected("rooms/illegal_move")
            room.seats[seat].away = False  # the phone spoke: it is back
            room.check_turn(version)
            if seat not in room.to_move():
                raise Rejected("rooms/not_your_turn")
            chosen = listed(move, room.legal(seat))
            if chosen is None:
                raise Rejected("rooms/illegal_move")
            return self._play(room, seat, chosen, now, "seat")

    def official(self, code: object, move: object, version: object, now: float = 0.0) -> Referee:
        """Apply a referee's action (Bid Euchre's penalty, redeal, time…), played for the seat on turn and
        journalled as ``official``; returns the actions the rules accept after it. Refusals change nothing:
        ``illegal_official``, ``no_officials``, ``room_closed``, ``not_started``, ``game_over``, ``*_version``."""
        with self._lock:
            room = self._get(code)
            if move is NO_MOVE:
                raise Rejected("rooms/illegal_official")
            if room.game.officials is None:
                raise Rejected("rooms/no_officials")
            room.check_turn(version)
            chosen = listed(move, room.officials())
            if chosen is None:
                raise Rejected("rooms/illegal_official")
            self._play(room, room.to_move()[0], chosen, now, "official", kind="official")
            return room.referee()

    def close(self, code: object) -> RoomSnapshot:
        """The room ends (and leaves the projector if it was there)."""
        with self._lock:
            room = self._get(code)
            screen_before = self._state.screen
            if room.status != "closed":
                self._commit({"kind": "close", "code": room.code})
            snapshot = self._publish_room(room)
            self._publish_list()
            if self._state.screen != screen_before:
                self._publish(ScreenChanged(dict(self._state.screen)))
            return snapshot

    def show(self, show: object, code: object = None) -> JSON:
        """What the projector shows: ``loto``, or ``game`` with a room's code."""
        with self._lock:
            if show == "loto":
                screen = dict(LOTO)
            elif show == "game":
                room = self._get(code)
                if room.status == "closed":
                    raise Rejected("rooms/room_closed")
                screen = {"show": "game", "code": room.code}
            else:
                raise Rejected("rooms/bad_screen")
            record: Record = {"kind": "screen", "show": screen["show"]}
            if "code" in screen:
                record["code"] = screen["code"]
            self._commit(record)
            self._publish(ScreenChanged(dict(screen)))
            self._publish_list()
            return dict(screen)

    def set_enabled(self, game: object, enabled: object) -> list[JSON]:
        """The admin allows a game or not; returns the games as :meth:`games` lists them."""
        with self._lock:
            if not isinstance(game, str) or game not in ROOM_GAMES or type(enabled) is not bool:
                raise Rejected("rooms/unknown_game")
            self._commit({"kind": "switch", "game": game, "enabled": enabled})
            return self.games()

    def restart_clocks(self, now: float) -> None:
        """After a restart: every turn under way starts its clock again now (nobody is taken over for the outage)."""
        with self._lock:
            for room in self._state.rooms.values():
                room.turn_since = now

    def shut_down(self, close_journal: Callable[[], None]) -> None:
        """Close the journal once the change in flight is written (the program's last word to the lobby)."""
        with self._lock:
            close_journal()

    # ---------------------------------------------------------------- who follows what
    def follow(self, watcher: str, code: object, token: object = None) -> None:
        """``watcher`` follows a room (only), as the seat holding ``token`` (``Told`` ``bad_token`` if it opens
        none) or as audience; raises ``unknown_room``, ``audience_full``."""
        with self._lock:
            room = self._get(code)
            seat = room.seat_of(token) if token else None
            if token and seat is None:
                self._publish(Told(watcher, "bad_token"))
            self._followers.leave(watcher, self._state.rooms)
            self._followers.join(watcher, room, seat, self.settings.max_audience)

    def follow_list(self, watcher: str) -> None:
        """``watcher`` (a staff console) gets the list of rooms now, in order with the changes it follows."""
        with self._lock:
            self._publish_list(to=watcher)

    def unfollow(self, watcher: str) -> None:
        """``watcher`` is gone (its socket closed)."""
        with self._lock:
            self._followers.leave(watcher, self._state.rooms)

    # ---------------------------------------------------------------- bots and takeover
    def due(self, now: float) -> list[tuple[str, float]]:
        """Rooms where a bot should move, with the time it may (bot seats, and silent phones on their turn)."""
        with self._lock:
            return [
                (room.code, room.bot_at(now, self.settings.bot_delay_s, self.settings.takeover_s))
                for room in self._state.rooms.values()
                if room.to_move()
            ]

    def step(self, code: str, now: float) -> bool:
        """Play one bot move in ``code`` if one is due at ``now`` (taking over a silent seat); whether it did."""
        with self._lock:
            room = self._state.rooms.get(code)
            if room is None or not room.to_move():
                return False
            index = room.to_move()[0]
            seat = room.seats[index]
            at = room.bot_at(now, self.settings.bot_delay_s, self.settings.takeover_s)
            if not seat.bot and not seat.away and now >= room.turn_since + self.settings.takeover_s:
                seat.away = True  # silent on its turn: a bot plays for it until the phone returns
                self._publish_room(room)  # its phone stops saying « À vous ! » now, not after the bot's move
            if now < at:
                return False
            self._play(room, index, room.bot_move(index, self.rng, self._think), now, "bot")
            return True

    def play_bots(self, now: float) -> float | None:
        """Play every bot move due at ``now``; return when the next one is due (``None``: none is waiting)."""
        with self._lock:
            for code, at in self.due(now):
                if at <= now:
                    self.step(code, now)
            pending = [at for _, at in self.due(now)]
            return min(pending) if pending else None

    # ---------------------------------------------------------------- inside (the lock is held)
    def _get(self, code: object) -> Room:
        room = self._state.rooms.get(code.strip().upper()) if isinstance(code, str) and len(code) <= 10 else None
        if room is None:
            raise Rejected("rooms/unknown_room")
        return room

    def _seat(self, code: object, token: object) -> tuple[Room, int]:
        """The room and the seat holding ``token``; the phone spoke, so it is back (the others see it)."""
        room = self._get(code)
        seat = room.seat_of(token)
        if seat is None:
            raise Rejected("rooms/bad_token")
        if room.seats[seat].away:
            room.seats[seat].away = False
            self._publish_room(room)
        return room, seat

    def _commit(self, record: Record) -> None:
        """Journal ``record`` (or raise: nothing changes), then apply it."""
        self._journal(record)
        self._state.apply(record, self.rng)

    def _play(
        self, room: Room, seat: int, move: Move, now: float, by: str, kind: Literal["moves", "official"] = "moves"
    ) -> RoomSnapshot:
        match = room.live
        before = (match.state, match.version, len(match.log))
        match.play(seat, move, match.version)
        entries = [[e.seat, jsonable(e.move)] for e in match.log[before[2] :]]
        try:
            self._journal({"kind": kind, "code": room.code, "by": by, "moves": entries})
        except BaseException:
            match.state, match.version = before[0], before[1]
            del match.log[before[2] :]
            raise
        room.moved(now, by)
        snapshot = self._publish_room(room)
        if room.status == "over":
            self._publish_list()
        return snapshot

    def _publish_room(self, room: Room) -> RoomSnapshot:
        news = room.changed()
        self._publish(news)
        return news.room

    def _publish_list(self, to: str | None = None) -> None:
        self._publish(ListChanged(tuple(self._state.listing()), dict(self._state.screen), to))

    def _publish(self, news: News) -> None:
        for fn in self._subscribers:
            try:
                fn(news)
            except Exception:  # logged, never turned into a refusal of what is already on disk
                log.exception("lobby subscriber %r failed on %s", fn, type(news).__name__)
