"""The one table of the mini-games: each by its name, assembled with its bots, with the options a room may set and
the partners who win together; modules load only when asked for.

The rules modules never import their bots (a bot reads the rules, not the other way round): this is the one
place where a game's rules and its players meet. Every other part reads the games' names from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

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


OptionValue = int | str | bool
RoomOption = tuple[type, OptionValue, tuple[int, int] | tuple[str, ...] | None]  # (type, default, allowed)


@dataclass(frozen=True, slots=True)
class Entry:
    """One mini-game as the hall offers it."""

    name: str  # in the config, the command line, the API and the journal
    build: Callable[[], Game]  # its rules with its bots (modules imported on first use)
    room_options: Mapping[str, RoomOption]  # what a room may set: name → (type, default, allowed)
    teams: tuple[tuple[int, ...], ...] = ()  # seats that win together (partners), for the simulations


GAMES: tuple[Entry, ...] = (
    Entry(
        "lobo77",
        _lobo77,
        {
            "players": (int, 4, (2, 8)),
            "chips": (int, 3, (1, 5)),
            "card_76": (bool, False, None),
            "repeat_double_costs_chip": (bool, False, None),
            "bot": (str, "default", ("default", "easy")),
        },
    ),
    Entry("linotte", _linotte, {"strict_appel": (bool, False, None)}),
    Entry(
        "euchre",
        _euchre,
        {
            "all_pass": (str, "dealer_stuck", ("dealer_stuck", "redeal")),
            "low_no_trump": (bool, False, None),
            "hands": (int, 8, (1, 16)),
        },
        teams=((0, 2), (1, 3)),
    ),
    Entry("points-rouges", _points_rouges, {"players": (int, 2, (1, 4)), "solitaire_max_swaps": (int, 30, (0, 200))}),
)
BY_NAME: Mapping[str, Entry] = {entry.name: entry for entry in GAMES}
GAME_NAMES: tuple[str, ...] = tuple(BY_NAME)
_built: dict[str, Game] = {}


def get_game(name: str) -> Game:
    """The ``Game`` registered under ``name``, with its bots; raises ``KeyError`` naming the known games."""
    try:
        entry = BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(GAME_NAMES)}") from None
    game = _built.get(name)
    if game is None:
        game = _built[name] = entry.build()
    return game
