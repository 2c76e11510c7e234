"""The running app's hall, typed: ``create_app``'s (display/services.py), read through its port.

Every route and socket handler reaches the hall through :func:`hall`, so the type checker sees each call it
makes on ``HallPort`` (``tests/test_code_health.py`` runs mypy over display/ with ``check_untyped_defs``).
"""

from __future__ import annotations

from flask import request

from display.services import services
from hall.config import Config
from hall.ports import HallPort


def hall() -> HallPort:
    """The hall of the app serving this request."""
    return services().hall


def config() -> Config:
    """The hall's configuration."""
    return hall().config


def socket_sid() -> str:
    """The Socket.IO connection of the event being handled (Flask-SocketIO sets ``request.sid``, untyped)."""
    sid: str = request.sid  # type: ignore[attr-defined]
    return sid
