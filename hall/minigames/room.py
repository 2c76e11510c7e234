"""Rooms: one table of one mini-game with named seats, secret seat tokens, bots and an audience (INTERFACE §7).

Pure: no web, no clock of its own, no thread. The :class:`Lobby` holds every room; each change is first handed
to its ``journal`` callable (the durable store appends it, or raises and nothing changes), then made visible.
A move is compared with the seat's own ``legal`` list *before* the rules engine sees it; the engine then
receives the listed move itself, never the object a phone sent.
"""
from __future__ import annotations

import hashlib
import json
import random
import secrets
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from hall.minigames.base import CHANCE, Game, Refused
from hall.minigames.match import LoggedMove, Match
from hall.minigames.registry import get_game

CODE_LETTERS = "ACDEFHJKLMNPRTUVWXY"   # no B/8, G/6, I/1, O/0, Q, S/5, Z/2
CODE_LENGTH = 4
NAME_MAX = 20
MOVE_JSON_MAX = 512                    # the longest legal move of these games is far shorter
RECENT_CLOSED = 20                     # closed rooms kept in the list after they end
ROOM_GAMES: dict[str, dict[str, Any]] = {
    # game → its room options: name → (type, default, allowed values or (low, high))
    "lobo77": {"players": (int, 4, (2, 8)), "chips": (int, 3, (1, 5)), "card_76": (bool, False, None),
               "repeat_double_costs_chip": (bool, False, None), "bot": (str, "default", ("default", "easy"))},
    "linotte": {"strict_appel": (bool, False, None)},
    "euchre": {"all_pass": (str, "dealer_stuck", ("dealer_stuck", "redeal")), "low_no_trump": (bool, False, None),
               "hands": (int, 8, (1, 16))},
    "points-rouges": {"players": (int, 2, (1, 4)), "solitaire_max_swaps": (int, 30, (0, 200))},
}
ENGINE_OPTIONS = {"players", "bot"}    # room options that are not the rules engine's


def clean_name(raw: Any) -> str:
    """The first name as shown: NFC, trimmed, 1–20 characters, no control character; raises ``Refused("bad_name")``."""
    if not isinstance(raw, str) or len(raw) > 4 * NAME_MAX:
        raise Refused("bad_name")
    text = unicodedata.normalize("NFC", raw)
    if any(unicodedata.category(ch)[0] in "CZ" and ch != " " for ch in text):
        raise Refused("bad_name")          # control, format (bidi overrides), separators other than a space
    name = " ".join(text.split(" ")).strip()
    name = " ".join(part for part in name.split(" ") if part)
    if not 1 <= len(name) <= NAME_MAX:
        raise Refused("bad_name")
    return name


def clean_options(game: str, raw: Any) -> dict[str, Any]:
    """The room options with their defaults; raises ``Refused("bad_options")`` naming the bad key."""
    spec = ROOM_GAMES[game]
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise Refused("bad_options", key="options")
    out = {}
    for key, value in raw.items():
        if key not in spec:
            raise Refused("bad_options", key=str(key)[:40])
        kind, _, allowed = spec[key]
        if type(value) is not kind:
            raise Refused("bad_options", key=key)
        if allowed is not None and (kind is int and not allowed[0] <= value <= allowed[1]
                                    or kind is str and value not in allowed):
            raise Refused("bad_options", key=key)
        out[key] = value
    return {key: out.get(key, default) for key, (_, default, _) in spec.items()}


def token_hash(token: str) -> str:
    """What the journal keeps of a seat token (the token itself never touches the disk)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def move_key(move: Any) -> str | None:
    """The canonical JSON text of a move (tuples and lists alike), or ``None`` for anything too big or odd."""
    try:
        text = json.dumps(move, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return None
    return text if len(text) <= MOVE_JSON_MAX else None


def jsonable(move: Any) -> Any:
    """A legal move as the phone receives it (tuples become lists)."""
    return json.loads(json.dumps(move))


@dataclass(slots=True)
class Seat:
    """One chair at the table: a person (with a token) or a bot; ``away`` while a bot plays for a silent phone."""

    name: str
    bot: bool
    token_sha: str = ""
    watching: int = 0          # sockets of this seat following the room
    away: bool = False         # taken over by a bot until the phone comes back


@dataclass(slots=True)
class Room:
    """One table: its game, options, seats, the match once started, the time the current turn began."""

    code: str
    game_name: str
    options: dict[str, Any]
    seats: list[Seat] = field(default_factory=list)
    status: str = "lobby"      # lobby | playing | over | closed
    match: Match | None = None
    turn_since: float = 0.0
    audience: int = 0
    last_by: str = ""          # "bot", "seat" or "official" for the last move (the projector animates it)
    # the legal moves of the version shown, by seat: listed once per change, not once per phone per broadcast
    legal_memo: dict[tuple[int, int], list] = field(default_factory=dict, repr=False, compare=False)

    @property
    def game(self) -> Game:
        return get_game(self.game_name)

    def table_size(self) -> int:
        """How many seats the game will have once started."""
        if "players" not in ROOM_GAMES[self.game_name]:
            return self.game.max_players       # La Linotte 2, Bid Euchre 4
        return max(len(self.seats), int(self.options["players"]))

    def max_seats(self) -> int:
        return self.game.max_players

    def seat_of(self, token: Any) -> int | None:
        """The seat holding ``token``, or ``None``."""
        if not isinstance(token, str) or not 8 <= len(token) <= 100:
            return None
        digest = token_hash(token)
        for index, seat in enumerate(self.seats):
            if seat.token_sha and secrets.compare_digest(seat.token_sha, digest):
                return index
        return None

    @property
    def live(self) -> Match:
        """The match of a started room (a room in the lobby has none)."""
        assert self.match is not None, "the room has not started"
        return self.match

    def to_move(self) -> tuple[int, ...]:
        if self.match is None or self.status != "playing":
            return ()
        return tuple(s for s in self.game.to_move(self.match.state) if s != CHANCE)

    def legal(self, seat: int) -> list:
        """The seat's legal moves now (empty when it is not its turn)."""
        if seat not in self.to_move():
            return []
        key = (self.live.version, seat)
        if key not in self.legal_memo:
            self.legal_memo.clear()            # an older version's lists are never asked for again
            self.legal_memo[key] = list(self.game.legal_moves(self.live.state, seat))
        return list(self.legal_memo[key])

    def officials(self) -> list:
        """The referee's actions the rules accept now (empty for a game without a referee or a room not playing)."""
        officials = self.game.officials
        if officials is None or self.match is None or self.status != "playing":
            return []
        return list(officials(self.match.state))

    def outcome(self) -> dict | None:
        if self.match is None:
            return None
        found = self.match.outcome()
        if found is None:
            return None
        return {"winners": list(found.winners), "winner_names": [self.seats[s].name for s in found.winners],
                "scores": list(found.scores), "reason": found.reason}

    def public(self) -> dict:
        """The public room: seats, status, the public view, the version and the outcome; nothing hidden."""
        return {
            "code": self.code, "game": self.game_name, "status": self.status,
            "seats": [{"seat": i, "name": s.name, "bot": s.bot, "connected": s.bot or s.watching > 0,
                       "away": s.away} for i, s in enumerate(self.seats)],
            "table_size": self.table_size(), "max_seats": self.max_seats(), "audience": self.audience,
            "view": self.match.game.view(self.match.state, None) if self.match is not None else None,
            "version": self.match.version if self.match is not None else 0,
            "to_move": list(self.to_move()), "last_by": self.last_by,
            "outcome": self.outcome(),
        }

    def seat_view(self, seat: int) -> dict:
        """That seat's own view: the public view plus what only it may see, and its ``legal`` moves."""
        view = self.match.game.view(self.match.state, seat) if self.match is not None else {"seat": seat}
        return {**view, "seat": seat, "name": self.seats[seat].name, "away": self.seats[seat].away,
                "version": self.match.version if self.match is not None else 0,
                "legal": [jsonable(m) for m in self.legal(seat)]}

    def summary(self) -> dict:
        return {"code": self.code, "game": self.game_name, "status": self.status,
                "seats": [{"seat": i, "name": s.name, "bot": s.bot} for i, s in enumerate(self.seats)],
                "version": self.match.version if self.match is not None else 0}


@dataclass(frozen=True, slots=True)
class LobbySettings:
    """The ``[games]`` settings the lobby needs."""

    bot_delay_s: float = 1.5
    takeover_s: float = 30.0
    enabled: tuple[str, ...] = tuple(ROOM_GAMES)
    max_rooms: int = 12


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
        self._rng = rng if rng is not None else random.Random()
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
        return [room.summary() for room in self.rooms.values()]

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

    def join(self, code: Any, name: Any) -> tuple[Room, int, str]:
        """A seat for ``name`` and its secret token; raises ``bad_name``, ``room_full``, ``already_started``."""
        room = self.get(code)
        if room.status == "closed":
            raise Refused("room_closed")
        if room.status != "lobby":
            raise Refused("already_started")
        name = clean_name(name)
        if len(room.seats) >= room.max_seats():
            raise Refused("room_full")
        token = secrets.token_urlsafe(18)
        digest = token_hash(token)
        self._write({"kind": "join", "code": room.code, "seat": len(room.seats), "name": name, "token_sha": digest})
        room.seats.append(Seat(name, bot=False, token_sha=digest))
        return room, len(room.seats) - 1, token

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
        match = Match(game, size, engine_options(room), rng=self._rng)
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
            if not movers:
                continue
            seat = room.seats[movers[0]]
            if seat.bot or seat.away:
                out.append((room.code, room.turn_since + self.settings.bot_delay_s))
            else:
                out.append((room.code, room.turn_since + self.settings.takeover_s))
        return out

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
        if not (seat.bot or seat.away):
            if now < room.turn_since + self.settings.takeover_s:
                return False
            seat.away = True          # silent on its turn: a bot plays for it until the phone returns
            room.turn_since = now
        if now < room.turn_since + self.settings.bot_delay_s:
            return False
        strategy = room.game.bots.get(str(room.options.get("bot", "default"))) or room.game.bots["default"]
        state = room.live.state            # immutable: a thread of its own may read it
        move = self.think(lambda: strategy(state, index, self._rng))
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
        room.turn_since = now     # a new turn (or the second card of a double play) starts its clock

    def _seen(self, room: Room, seat: int) -> None:
        room.seats[seat].away = False

    def _write(self, record: dict) -> None:
        self._journal(record)

    def _new_code(self) -> str:
        for _ in range(1000):
            code = "".join(self._rng.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
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
            room.seats.append(Seat(record["name"], bot=False, token_sha=record["token_sha"]))
        elif kind == "start":
            room = self.rooms[record["code"]]
            room.seats.extend(Seat(name, bot=True) for name in record["bots"])
            room.match = Match.replay(room.game, record["players"], engine_options(room),
                                      [LoggedMove(s, m, i + 1) for i, (s, m) in enumerate(record["moves"])],
                                      rng=self._rng)
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


BOT_NAMES = ("Robot Alix", "Robot Basile", "Robot Colette", "Robot Désiré", "Robot Eugène", "Robot Fanny",
             "Robot Gaston", "Robot Hortense")


def bot_name(index: int, taken: list[str]) -> str:
    """A bot's name that no seat uses yet."""
    free = [n for n in BOT_NAMES if n not in taken]
    return free[index] if index < len(free) else f"Robot {index + 1}"


def engine_options(room: Room) -> Any:
    """The rules engine's options for the room (room-only options such as ``players`` left out)."""
    options_type = room.game.options_type
    names = {f.name for f in fields(options_type)}
    return options_type(**{k: v for k, v in room.options.items() if k in names and k not in ENGINE_OPTIONS})


