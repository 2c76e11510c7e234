"""Helpers for the seeded playouts: check every logged move, chance moves included."""

from __future__ import annotations

from hall.minigames.match import Match


def each_move(game, players: int, options, check):
    """An ``on_move`` hook calling ``check(seat, move, before, after)`` for every logged move, chance ones included.

    ``Match.play`` settles the chance moves that follow a player's move, so one call may bring several
    log entries; the states in between are rebuilt from the log, and must end on the match's state.
    """
    seen = {"state": game.setup(players, options), "logged": 0}

    def on_move(match: Match) -> None:
        state = seen["state"]
        for entry in match.log[seen["logged"] :]:
            after = game.apply(state, entry.seat, entry.move)
            check(entry.seat, entry.move, state, after)
            state = after
        assert state == match.state
        seen["state"], seen["logged"] = state, len(match.log)

    return on_move
