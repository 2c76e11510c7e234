"""The mini-game model: a game is data plus pure functions (the boardgame.io shape).

A game's rules module exposes a ``RULES: Game`` value (no bots: the registry adds them). State values are treated as immutable:
``apply`` returns a new state and never changes the one it was given.

Chance (shuffles, deals, dice) is a move too: when ``to_move(state)`` is ``CHANCE``,
the ``Match`` asks ``chance(state, rng)`` for the outcome and applies it like any move,
so the match's log alone replays the game exactly, without the RNG.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

CHANCE = -1
"""The seat that plays chance moves (deals, shuffles, dice)."""

# The registry holds games of different states, moves and options side by side, each typed in its own rules
# module; a generic ``Game[S, M, O]`` would be ``Game[Any, Any, Any]`` at the registry, the lobby and every
# table, so here a state and the options are anything on purpose (each game's functions take its own).
# A move is opaque to the table: each game names its moves' shapes (``lobo77.rules.Lobo77Move``…) and takes
# what a phone sent as ``object`` in ``is_legal`` and ``apply``, so the table only lists, compares and sends moves.
Move = object
State = Any
Options = Any

JSON = dict[str, object]
"""A JSON object the web sends on as it is (a seat's view, a public room, the projector's screen)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: ``winners`` are seats, ``scores`` per seat (may be empty)."""

    winners: tuple[int, ...]
    scores: tuple[float, ...] = ()
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Game:
    """One mini-game: its name, seat counts, typed options and pure functions.

    - ``setup(players, options) -> state``: the state before any chance move.
    - ``to_move(state) -> tuple[int, ...]``: the seats that may move now (``(CHANCE,)`` for chance, ``()`` when over).
    - ``legal_moves(state, seat) -> list[Move]``: every legal move of that seat (may be large but finite).
    - ``is_legal(state, seat, move) -> bool``: cheaper check for one move (defaults to membership in ``legal_moves``).
    - ``apply(state, seat, move) -> state``: a new state; only called with legal moves.
    - ``chance(state, rng) -> Move``: the chance outcome to apply (seat ``CHANCE``).
    - ``outcome(state) -> Outcome | None``: ``None`` while the game goes on.
    - ``view(state, seat) -> dict``: what that seat may see (``seat=None``: the public view for the projector);
      JSON-serialisable, never another seat's hidden cards, never RNG state.
    - ``bots``: name → ``bot(state, seat, rng) -> Move`` (reasonable play, not random).
    - ``officials(state) -> list[Move]``: the referee's actions the rules accept now, never offered to players
      (``None`` for a game without a referee); ``is_legal`` accepts them for the seat on turn.
    - ``turn_of(state) -> value``: what changes when a turn ends; a move that leaves it unchanged (laying a piece
      of a figure) keeps the turn's clock (``None``: every move starts a new clock).
    """

    name: str
    min_players: int
    max_players: int
    options_type: type
    setup: Callable[[int, Options], State]
    to_move: Callable[[State], tuple[int, ...]]
    legal_moves: Callable[[State, int], Sequence[Move]]
    apply: Callable[[State, int, Move], State]
    chance: Callable[[State, random.Random], Move]
    outcome: Callable[[State], Outcome | None]
    view: Callable[[State, int | None], JSON]
    bots: Mapping[str, Callable[[State, int, random.Random], Move]] = field(default_factory=dict)
    is_legal: Callable[[State, int, Move], bool] | None = None
    officials: Callable[[State], Sequence[Move]] | None = None
    turn_of: Callable[[State], object] | None = None

    def check_legal(self, state: State, seat: int, move: Move) -> bool:
        """Whether ``move`` is legal for ``seat`` now."""
        if self.is_legal is not None:
            return self.is_legal(state, seat, move)
        return move in self.legal_moves(state, seat)


def random_bot(game: Game) -> Callable[[State, int, random.Random], Move]:
    """A player that picks uniformly among the legal moves (the yardstick for bot strength)."""

    def play(state: State, seat: int, rng: random.Random) -> Move:
        return rng.choice(list(game.legal_moves(state, seat)))

    return play
