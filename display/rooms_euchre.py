"""The euchre room's own part of the web (display/rooms.py holds what every room shares).

``STRINGS`` are the sentences its phone and projector scripts (``static/js/games/``) read through ``Room.t``;
``install`` may add routes of its own; ``openapi_paths`` declares them.
"""
from __future__ import annotations

from typing import Any

STRINGS: dict[str, Any] = {}


def install(app: Any, hub: Any) -> None:
    """Routes of this game's own, if any (none yet)."""


def openapi_paths() -> dict:
    return {}
