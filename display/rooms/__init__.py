"""The mini-game rooms on the web (INTERFACE §7): their API, pages and Socket.IO events, each game's own part,
and the games' break (no draw while a game is on the projector).

| module | holds |
|---|---|
| ``api`` | ``/api/games…``, ``/api/screen``: one lobby command or snapshot per route |
| ``pages`` | ``/j``, ``/j/<code>``, ``/jeux/<code>`` and its QR code; the words the room scripts read |
| ``sockets`` | ``game_watch`` → ``game`` events, ``rooms_watch`` → the staff's list |
| ``hub`` | the lobby's news as Socket.IO events, the bots' background task |
| ``messages`` | the rooms' refusals and sentences |
| ``links`` | the address the phones join at |
| ``on_screen`` | :class:`GameOnScreen`: the break both the devices and the console's draw obey |
| ``euchre``, ``points_rouges`` | each game's words and its own routes (the referee, the solitaire's hint) |

The :class:`~hall.minigames.lobby.Lobby` keeps the rooms under its own lock; nothing here takes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask
from flask_socketio import SocketIO

from display.rooms import api, pages, sockets
from display.rooms.hub import RoomsHub
from display.rooms.on_screen import GameOnScreen

if TYPE_CHECKING:
    from display.sockets import LiveSockets

__all__ = ["GameOnScreen", "install", "openapi_paths"]


def install(app: Flask, socketio: SocketIO, hub: RoomsHub, live: LiveSockets) -> RoomsHub:
    """Register the blueprints and the socket handlers of ``hub`` (the app's, ``display.services.Services.rooms``)
    beside the hall's ``live`` (``display.sockets.LiveSockets``), and start the bots' task."""
    app.jinja_env.globals["room_strings"] = pages.room_strings
    app.jinja_env.globals["room_game_assets"] = pages.room_game_assets
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    for module in pages.GAME_MODULES:
        app.register_blueprint(module.bp)
    sockets.install(socketio, hub, live)
    socketio.start_background_task(hub.run)
    return hub


def openapi_paths() -> dict:
    """The rooms' part of ``GET /api/openapi.json``."""
    paths = api.openapi_paths()
    for module in pages.GAME_MODULES:
        paths.update(module.openapi_paths())
    return paths
