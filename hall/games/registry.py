"""The mini-games by their command-line names; modules load only when asked for."""
from __future__ import annotations

import importlib

from hall.games.base import Game

GAME_MODULES = {
    "lobo77": "hall.games.lobo77",
    "linotte": "hall.games.linotte",
    "euchre": "hall.games.euchre",
    "points-rouges": "hall.games.points_rouges",
}


def get_game(name: str) -> Game:
    """The ``Game`` registered under ``name``; raises ``KeyError`` naming the known games."""
    try:
        module = GAME_MODULES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(GAME_MODULES)}") from None
    return importlib.import_module(module).GAME
