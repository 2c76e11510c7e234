"""``loto-hall games simulate`` and ``games tournament`` print results for every game."""

from __future__ import annotations

import pytest

from hall.app.cli import main
from hall.minigames.simulate import simulate


@pytest.mark.parametrize("name,players", [("lobo77", 3), ("linotte", 2), ("euchre", 4), ("points-rouges", 2)])
def test_simulate_counts_every_game(name, players):
    result = simulate(name, players, games=6, seed=3)
    assert result["games"] == 6 and len(result["wins"]) == players
    assert sum(result["wins"]) >= 6 - result["shared"]
    assert result["average_moves"] > 0
    assert simulate(name, players, games=6, seed=3) == result  # seeded: the same again


def test_wrong_player_count_is_refused(capsys):
    assert main(["games", "simulate", "linotte", "--players", "3", "--games", "1"]) == 2
    assert "2–2 joueurs" in capsys.readouterr().out


def test_tournament_prints_standings(capsys):
    assert main(["games", "tournament", "--teams", "6", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "T01" in out and "T06" in out
