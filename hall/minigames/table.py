"""One table of a mini-game room (INTERFACE §7): its options, its seats and their tokens, the views it gives.

Pure data and checks, no journal and no lock: the :class:`~hall.minigames.lobby.Lobby` changes tables under its
lock, journalling first.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, fields

from hall.minigames.base import CHANCE, JSON, Game, Move
from hall.minigames.lobby_news import Referee, RoomChanged, RoomSnapshot, SeatSnapshot
from hall.minigames.match import Match
from hall.minigames.registry import GAMES, OptionValue, RoomOption, get_game
from hall.refusal import Rejected

CODE_LETTERS = "ACDEFHJKLMNPRTUVWXY"  # no B/8, G/6, I/1, O/0, Q, S/5, Z/2
CODE_LENGTH = 4
NAME_MAX = 20
MOVE_JSON_MAX = 512  # the longest legal move of these games is far shorter
ROOM_GAMES: dict[str, dict[str, RoomOption]] = {entry.name: dict(entry.room_options) for entry in GAMES}
"""game → its room options: name → (type, default, allowed values or (low, high)), from the registry's table"""
ENGINE_OPTIONS = {"players", "bot"}  # room options that are not the rules engine's


def clean_name(raw: object) -> str:
    """The first name as shown: NFC, trimmed, 1–20 characters, no control character; raises ``Rejected("rooms/bad_name")``."""
    if not isinstance(raw, str) or len(raw) > 4 * NAME_MAX:
        raise Rejected("rooms/bad_name")
    text = unicodedata.normalize("NFC", raw)
    if any(unicodedata.category(ch)[0] in "CZ" and ch != " " for ch in text):
        raise Rejected("rooms/bad_name")  # control, format (bidi overrides), separators other than a space
    name = " ".join(text.split(" ")).strip()
    name = " ".join(part for part in name.split(" ") if part)
    if not 1 <= len(name) <= NAME_MAX:
        raise Rejected("rooms/bad_name")
    return name


# Cyrillic and Greek letters drawn as Latin ones (Unicode's confusables, the ones a phone's keyboard offers): « Аnna »
# with a Cyrillic А is « Anna » on the projector
LOOK_ALIKE = str.maketrans(
    "аеорсхуіјѕԁһкмнтвгϲѵοαινκτρυχεζηΑΒΕΗΙΚΜΝΟΡΤΥΧΖ",
    "aeopcxyijsdhkmhtbrcvoaivktpuxeznABEHIKMNOPTYXZ",
)


def name_key(name: str) -> str:
    """What ``name`` looks like on the projector, for telling two seats apart: NFKC (« Ｌéa », « ﬁfi »), no case, no
    accent, the Latin look-alikes as Latin, no space (« Léa », « LEA », « lea », « Le a » and « Lеa » are one)."""
    text = unicodedata.normalize("NFKC", name).translate(LOOK_ALIKE).casefold()
    bare = "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))
    return bare.translate(LOOK_ALIKE).replace(" ", "")


def clean_options(game: str, raw: object) -> dict[str, OptionValue]:
    """The room options with their defaults; raises ``Rejected("rooms/bad_options")`` naming the bad key."""
    spec = ROOM_GAMES[game]
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise Rejected("rooms/bad_options", key="options")
    out: dict[str, OptionValue] = {}
    for key, value in raw.items():
        if key not in spec:
            raise Rejected("rooms/bad_options", key=str(key)[:40])
        kind, _, allowed = spec[key]
        if type(value) is not kind or not isinstance(value, (int, str)):
            raise Rejected("rooms/bad_options", key=key)
        if allowed is not None and not _within(value, allowed):
            raise Rejected("rooms/bad_options", key=key)
        out[key] = value
    return {key: out.get(key, default) for key, (_, default, _) in spec.items()}


def _within(value: OptionValue, allowed: tuple[int, int] | tuple[str, ...]) -> bool:
    """Whether a string is one of ``allowed``, or an integer within ``(low, high)``."""
    if isinstance(value, str):
        return value in allowed
    low, high = allowed
    return isinstance(low, int) and isinstance(high, int) and low <= value <= high


def token_hash(token: str) -> str:
    """What the journal keeps of a seat token (the token itself never touches the disk)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def address_hash(address: str) -> str:
    """What the journal keeps of a joining phone's address: enough to count its seats after a restart, not a
    log of addresses (a Wi-Fi's few hundred addresses are easily guessed back: it is tidiness, not secrecy)."""
    return hashlib.sha256(("seat-address:" + address).encode("utf-8", "replace")).hexdigest()[:16]


def move_key(move: object) -> str | None:
    """The canonical JSON text of a move (tuples and lists alike), or ``None`` for anything too big or odd."""
    try:
        text = json.dumps(move, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return None
    return text if len(text) <= MOVE_JSON_MAX else None


def jsonable(move: Move) -> list[object]:
    """A legal move as the phone receives it (tuples become lists: every move of these games is a tuple)."""
    sent = json.loads(json.dumps(move))
    assert isinstance(sent, list), f"a move is a tuple, not {move!r}"
    return sent


def listed(move: object, candidates: list[Move]) -> Move | None:
    """The move of ``candidates`` that ``move`` names (any JSON, lists and tuples alike), or ``None``: the rules
    engine then receives the listed move itself, never the object a phone sent."""
    wanted = move_key(move)
    if wanted is None:
        return None
    return next((candidate for candidate in candidates if move_key(candidate) == wanted), None)


@dataclass(slots=True)
class Seat:
    """One chair at the table: a person (with a token) or a bot; ``away`` while a bot plays for a silent phone."""

    name: str
    bot: bool
    token_sha: str = ""
    address_sha: str = ""  # digest of the joining phone's address: seats per address are bounded
    watching: int = 0  # sockets of this seat following the room
    away: bool = False  # taken over by a bot until the phone comes back


@dataclass(slots=True)
class Room:
    """One table: its game, options, seats, the match once started, the time the current turn began."""

    code: str
    game_name: str
    options: dict[str, OptionValue]
    seats: list[Seat] = field(default_factory=list)
    status: str = "lobby"  # lobby | playing | over | closed
    match: Match | None = None
    turn_since: float = 0.0  # when the turn under way began: the one clock of the turn (takeover, bot delay)
    turn_key: object = None  # the game's ``turn_of`` at that moment: a move that keeps it keeps the clock
    audience: int = 0
    last_by: str = ""  # "bot", "seat" or "official" for the last move (the projector animates it)
    # the legal moves of the version shown, by seat: listed once per change, not once per phone per broadcast
    legal_memo: dict[tuple[int, int], list[Move]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def game(self) -> Game:
        return get_game(self.game_name)

    def table_size(self) -> int:
        """How many seats the game will have once started."""
        if "players" not in ROOM_GAMES[self.game_name]:
            return self.game.max_players  # La Linotte 2, Bid Euchre 4
        return max(len(self.seats), int(self.options["players"]))

    def max_seats(self) -> int:
        return self.game.max_players

    def check_lobby(self) -> None:
        """Refuse a change of seats once the game began: ``room_closed``, ``already_started``."""
        if self.status == "closed":
            raise Rejected("rooms/room_closed")
        if self.status != "lobby":
            raise Rejected("rooms/already_started")

    def check_turn(self, version: object) -> None:
        """Refuse a move unless the game is under way at ``version``: ``room_closed``, ``game_over``,
        ``not_started``, ``bad_version``, ``stale_version`` (a phone's move and a referee's action alike)."""
        if self.status == "closed":
            raise Rejected("rooms/room_closed")
        if self.status != "playing":
            raise Rejected("rooms/game_over" if self.status == "over" else "rooms/not_started")
        if type(version) is not int:
            raise Rejected("rooms/bad_version")
        if version != self.live.version:
            raise Rejected(
                "rooms/stale_version", expected=self.live.version, got=version if abs(version) < 1 << 53 else None
            )

    def moved(self, now: float, by: str) -> None:
        """After a move (or the start): the game may be over, and a new turn starts its clock; a move that keeps
        the game's ``turn_of`` (the pieces of one figure) keeps the turn's one clock."""
        self.last_by = by
        if self.live.outcome() is not None:
            self.status = "over"
        turn_of = self.game.turn_of
        key = turn_of(self.live.state) if turn_of is not None else None
        if turn_of is None or key != self.turn_key:
            self.turn_since = now  # a new turn (or the second card of a double play) starts its clock
        self.turn_key = key

    def bot_at(self, now: float, bot_delay_s: float, takeover_s: float) -> float:
        """When a bot may play the turn under way: for a bot seat, or a phone already away, after the bot's delay;
        for a phone on its turn, at the end of the turn's clock (``takeover_s`` from the turn's start, however
        many moves the turn holds), when it is marked away, then one bot delay later. Coming back after that
        never winds the clock back: the bot plays within ``takeover_s`` + ``bot_delay_s`` of the turn's start."""
        seat, start = self.seats[self.to_move()[0]], self.turn_since
        if seat.bot or (seat.away and now < start + takeover_s):
            return start + bot_delay_s
        if now < start + takeover_s:
            return start + takeover_s
        return start + takeover_s + bot_delay_s

    def seat_of(self, token: object) -> int | None:
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

    def legal(self, seat: int) -> list[Move]:
        """The seat's legal moves now (empty when it is not its turn)."""
        if seat not in self.to_move():
            return []
        key = (self.live.version, seat)
        if key not in self.legal_memo:
            self.legal_memo.clear()  # an older version's lists are never asked for again
            self.legal_memo[key] = list(self.game.legal_moves(self.live.state, seat))
        return list(self.legal_memo[key])

    def bot_move(self, seat: int, rng: random.Random, think: Callable[[Callable[[], Move]], Move]) -> Move:
        """The listed move the room's bot chooses for ``seat``; ``think`` runs the decision (maybe in a thread)."""
        strategy = self.game.bots.get(str(self.options.get("bot", "default"))) or self.game.bots["default"]
        state = self.live.state  # immutable: a thread of its own may read it
        move = think(lambda: strategy(state, seat, rng))
        chosen = listed(move, self.legal(seat))
        if chosen is None:
            raise RuntimeError(f"{self.game_name}: the bot chose an illegal move {move!r}")
        return chosen

    def officials(self) -> list[Move]:
        """The referee's actions the rules accept now (empty for a game without a referee or a room not playing)."""
        officials = self.game.officials
        if officials is None or self.match is None or self.status != "playing":
            return []
        return list(officials(self.match.state))

    def outcome(self) -> JSON | None:
        if self.match is None:
            return None
        found = self.match.outcome()
        if found is None:
            return None
        return {
            "winners": list(found.winners),
            "winner_names": [self.seats[s].name for s in found.winners],
            "scores": list(found.scores),
            "reason": found.reason,
        }

    def public(self) -> JSON:
        """The public room: seats, status, the public view, the version and the outcome; nothing hidden."""
        return {
            "code": self.code,
            "game": self.game_name,
            "status": self.status,
            "seats": [
                {"seat": i, "name": s.name, "bot": s.bot, "connected": s.bot or s.watching > 0, "away": s.away}
                for i, s in enumerate(self.seats)
            ],
            "table_size": self.table_size(),
            "max_seats": self.max_seats(),
            "audience": self.audience,
            "view": self.match.game.view(self.match.state, None) if self.match is not None else None,
            "version": self.match.version if self.match is not None else 0,
            "to_move": list(self.to_move()),
            "last_by": self.last_by,
            "outcome": self.outcome(),
        }

    def seat_view(self, seat: int) -> JSON:
        """That seat's own view: the public view plus what only it may see, and its ``legal`` moves."""
        view = self.match.game.view(self.match.state, seat) if self.match is not None else {"seat": seat}
        return {
            **view,
            "seat": seat,
            "name": self.seats[seat].name,
            "away": self.seats[seat].away,
            "version": self.match.version if self.match is not None else 0,
            "legal": [jsonable(m) for m in self.legal(seat)],
        }

    def snapshot(self) -> RoomSnapshot:
        """The room now, as a value that no later change touches."""
        return RoomSnapshot(
            code=self.code,
            game=self.game_name,
            status=self.status,
            options=dict(self.options),
            seats=tuple(SeatSnapshot(s.name, s.bot, s.away, s.bot or s.watching > 0) for s in self.seats),
            version=self.match.version if self.match is not None else 0,
            to_move=self.to_move(),
            table_size=self.table_size(),
            state=self.match.state if self.match is not None else None,
            public=self.public(),
        )

    def changed(self) -> RoomChanged:
        """The news of a change: the room now, and the views of the seats some phone follows."""
        return RoomChanged(
            self.snapshot(),
            tuple((seat, self.seat_view(seat)) for seat, chair in enumerate(self.seats) if chair.watching),
        )

    def referee(self) -> Referee:
        """The referee's actions the rules accept now, with the seats' names to word them."""
        return Referee(
            self.code,
            self.status,
            self.match.version if self.match is not None else 0,
            tuple(s.name for s in self.seats),
            tuple(jsonable(m) for m in self.officials()),
        )

    def summary(self) -> JSON:
        return {
            "code": self.code,
            "game": self.game_name,
            "status": self.status,
            "seats": [{"seat": i, "name": s.name, "bot": s.bot} for i, s in enumerate(self.seats)],
            "version": self.match.version if self.match is not None else 0,
        }


BOT_NAMES = (
    "Robot Alix",
    "Robot Basile",
    "Robot Colette",
    "Robot Désiré",
    "Robot Eugène",
    "Robot Fanny",
    "Robot Gaston",
    "Robot Hortense",
)


def bot_name(index: int, taken: list[str]) -> str:
    """A bot's name that no seat uses yet."""
    free = [n for n in BOT_NAMES if n not in taken]
    return free[index] if index < len(free) else f"Robot {index + 1}"


def engine_options(room: Room) -> object:
    """The rules engine's options for the room (room-only options such as ``players`` left out)."""
    options_type = room.game.options_type
    names = {f.name for f in fields(options_type)}
    return options_type(**{k: v for k, v in room.options.items() if k in names and k not in ENGINE_OPTIONS})
