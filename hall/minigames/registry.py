"""The mini-games by their command-line names, each assembled with its bots; modules load only when asked for.

The rules modules never import their bots (a bot reads the rules, not the other way round): this is the one
place where a game's rules and its players meet.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from hall.minigames.base import Game


def _lobo77() -> Game:
    from hall.minigames.lobo77 import bot, rules
    return replace(rules.RULES, bots={"default": bot.choose, "easy": bot.choose_easy})


def _linotte() -> Game:
    from hall.minigames.linotte import bot, rules
    return replace(rules.RULES, bots={"default": bot.choose})


def _euchre() -> Game:
    from hall.minigames.euchre import bot, rules
    return replace(rules.RULES, bots={"default": bot.bot})


def _points_rouges() -> Game:
    from hall.minigames.points_rouges import bot, rules
    return replace(rules.RULES, bots={"default": bot.bot})


_BUILDERS: dict[str, Callable[[], Game]] = {
    "lobo77": _lobo77,
    "linotte": _linotte,
    "euchre": _euchre,
    "points-rouges": _points_rouges,
}
GAME_NAMES: tuple[str, ...] = tuple(_BUILDERS)
_built: dict[str, Game] = {}


def get_game(name: str) -> Game:
    """The ``Game`` registered under ``name``, with its bots; raises ``KeyError`` naming the known games."""
    try:
        builder = _BUILDERS[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(_BUILDERS)}") from None
    game = _built.get(name)
    if game is None:
        game = _built[name] = builder()
    return game
