"""The games' names come from one table, the registry: the rooms' options, the config's default, the command line."""

from __future__ import annotations

import pytest

from hall.app.cli import build_parser
from hall.app.runtime import lobby_settings
from hall.config import parse_config
from hall.minigames.registry import BY_NAME, GAME_NAMES, GAMES, get_game
from hall.minigames.table import ROOM_GAMES


def test_each_game_of_the_table_is_built_under_its_name():
    assert [get_game(entry.name).name for entry in GAMES] == list(GAME_NAMES)


def test_the_rooms_options_are_the_table_s():
    assert list(ROOM_GAMES) == list(GAME_NAMES)
    assert all(ROOM_GAMES[name] == dict(BY_NAME[name].room_options) for name in GAME_NAMES)


def test_a_config_that_names_no_game_offers_every_game_of_the_table_and_one_that_names_some_offers_those():
    assert lobby_settings(parse_config({}).games).enabled == GAME_NAMES
    assert lobby_settings(parse_config({"games": {"enabled": ["linotte"]}}).games).enabled == ("linotte",)
    assert lobby_settings(parse_config({"games": {"enabled": []}}).games).enabled == ()


def test_the_command_line_simulates_exactly_the_games_of_the_table(capsys):
    parser = build_parser()
    for name in GAME_NAMES:
        assert parser.parse_args(["games", "simulate", name, "--players", "2"]).game == name
    with pytest.raises(SystemExit):
        parser.parse_args(["games", "simulate", "belote", "--players", "2"])
    assert "belote" in capsys.readouterr().err
