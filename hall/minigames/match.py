"""The authority over one running mini-game: checks seat, turn, legality and version, keeps the log."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from hall.minigames.base import CHANCE, JSON, Game, Move, Options, Outcome, State
from hall.refusal import Rejected


@dataclass(frozen=True, slots=True)
class LoggedMove:
    """One applied move: ``seat`` is ``CHANCE`` for deals and dice; ``version`` is the state version it produced."""

    seat: int
    move: Move
    version: int


class Match:
    """Holds the authoritative state of one game; every change goes through :meth:`play`.

    Refusals are :class:`~hall.refusal.Rejected` with stable codes: ``game_over``, ``unknown_seat``,
    ``not_your_turn``, ``illegal_move``, ``stale_version``.
    """

    def __init__(self, game: Game, players: int, options: Options = None, rng: random.Random | None = None):
        if not game.min_players <= players <= game.max_players:
            raise Rejected(
                "rooms/bad_player_count", game=game.name, players=players, allowed=(game.min_players, game.max_players)
            )
        self.game = game
        self.players = players
        self.options = options if options is not None else game.options_type()
        self._rng = rng if rng is not None else secrets.SystemRandom()
        self.state: State = game.setup(players, self.options)
        self.version = 0
        self.log: list[LoggedMove] = []
        self.settle_chance()

    def _apply(self, seat: int, move: Move) -> None:
        self.state = self.game.apply(self.state, seat, move)
        self.version += 1
        self.log.append(LoggedMove(seat, move, self.version))

    def settle_chance(self) -> None:
        """Play every pending chance move (deals, shuffles, dice) and log its outcome."""
        while self.game.outcome(self.state) is None and self.game.to_move(self.state) == (CHANCE,):
            self._apply(CHANCE, self.game.chance(self.state, self._rng))

    def play(self, seat: int, move: Move, version: int | None = None) -> int:
        """Apply ``move`` for ``seat``; returns the new version, or raises :class:`~hall.refusal.Rejected`."""
        if self.game.outcome(self.state) is not None:
            raise Rejected("rooms/game_over")
        if not (0 <= seat < self.players):
            raise Rejected("rooms/unknown_seat", seat=seat)
        if version is not None and version != self.version:
            raise Rejected("rooms/stale_version", expected=self.version, got=version)
        if seat not in self.game.to_move(self.state):
            raise Rejected("rooms/not_your_turn", seat=seat)
        if not self.game.check_legal(self.state, seat, move):
            raise Rejected("rooms/illegal_move", seat=seat, move=move)
        self._apply(seat, move)
        self.settle_chance()
        return self.version

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else ``None``."""
        return self.game.outcome(self.state)

    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may see (``None``: the public view), with the version to send back."""
        return {"version": self.version, **self.game.view(self.state, seat)}

    @classmethod
    def replay(
        cls, game: Game, players: int, options: Options, log: list[LoggedMove], rng: random.Random | None = None
    ) -> Match:
        """Rebuild a match from its log alone (chance outcomes included), checking every move again.

        ``rng`` draws the chance moves still to come (a match that goes on after a restart); the replay never uses it.
        """
        match = cls.__new__(cls)
        match.game, match.players = game, players
        match.options = options if options is not None else game.options_type()
        match._rng = rng if rng is not None else secrets.SystemRandom()
        match.state, match.version, match.log = game.setup(players, match.options), 0, []
        for entry in log:
            if entry.seat != CHANCE and not game.check_legal(match.state, entry.seat, entry.move):
                raise Rejected("rooms/illegal_move", seat=entry.seat, move=entry.move)
            match._apply(entry.seat, entry.move)
        return match


def play_out(
    game: Game,
    players: int,
    bots: list[Callable[[State, int, random.Random], Move]],
    rng: random.Random,
    options: Options = None,
    max_moves: int = 100_000,
    on_move: Callable[[Match], None] | None = None,
) -> Match:
    """Play a whole game with one bot per seat (each ``bot(state, seat, rng) -> move``); returns the finished match."""
    match = Match(game, players, options, rng=rng)
    moves = 0
    while match.outcome() is None:
        movers = game.to_move(match.state)
        seat = movers[0]
        match.play(seat, bots[seat](match.state, seat, rng), match.version)
        moves += 1
        if on_move is not None:
            on_move(match)
        if moves > max_moves:
            raise RuntimeError(f"{game.name}: no end after {max_moves} moves")
    return match
