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

from dataclasses import dataclass
from typing import Any

from flask_socketio import SocketIO

from display.rooms import api, pages, sockets
from display.rooms.hub import RoomsHub
from display.rooms.on_screen import GameOnScreen
from hall.minigames.base import Refused
from hall.minigames.lobby import Lobby, LobbySettings, Think, inline
from hall.minigames.room_store import RoomStore, open_lobby

__all__ = ["GameOnScreen", "OpenRooms", "install", "lobby_settings", "open_rooms", "openapi_paths"]


@dataclass(frozen=True, slots=True)
class OpenRooms:
    """The rooms of one hall: the lobby, its journal (closed by the composition root), and the games' break."""

    lobby: Lobby
    store: RoomStore
    on_screen: GameOnScreen


def lobby_settings(games: Any) -> LobbySettings:
    """The lobby's settings from the config's ``[games]`` section."""
    return LobbySettings(bot_delay_s=float(games.bot_delay_s), takeover_s=float(games.takeover_s),
                         enabled=tuple(games.enabled), max_rooms=int(games.max_rooms),
                         seats_per_address=int(games.seats_per_address), max_audience=int(games.max_audience))


def open_rooms(config: Any, think: Think = inline) -> OpenRooms:
    """The lobby replayed from ``games.sqlite`` in the data folder (``think``: how a bot's decision runs)."""
    lobby, store = open_lobby(config.data_dir, lobby_settings(config.games), think=think)
    return OpenRooms(lobby, store, GameOnScreen(lobby))


def install(app: Any, socketio: SocketIO, rooms: OpenRooms, config: Any) -> RoomsHub:
    """Register the blueprints and the socket handlers, and start the bots' task."""
    hub = RoomsHub(rooms.lobby, socketio)
    app.extensions["loto_rooms"] = hub
    app.extensions["loto_config"] = config
    app.jinja_env.globals["room_strings"] = pages.room_strings
    app.jinja_env.globals["room_game_assets"] = pages.room_game_assets
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    for module in pages.GAME_MODULES:
        app.register_blueprint(module.bp)
    app.register_error_handler(Refused, api.refused)
    sockets.install(app, socketio, hub)
    socketio.start_background_task(hub.run)
    return hub


def openapi_paths() -> dict:
    """The rooms' part of ``GET /api/openapi.json``."""
    paths = api.openapi_paths()
    for module in pages.GAME_MODULES:
        paths.update(module.openapi_paths())
    return paths
