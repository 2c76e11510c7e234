"""The OSGA progressive tournament (RULES E20–E25): movement, ranking, tie-breaks, floater and default."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from hall.minigames.osga.day import (
    FLOATER_ID,
    Team,
    current_seating,
    default_team,
    new_tournament,
    record_games,
    record_playoff,
    simulate_day,
    standings,
)
from hall.minigames.osga.movement import E, N, S, Seating, W, meetings, next_seating, session_start
from hall.minigames.osga.standings import GameRecord, playoffs_needed, ranking_points, tallies


def roster(count: int) -> list[Team]:
    """``count`` district teams T01… with players T01-a/T01-b."""
    return [Team(f"T{n:02d}", (f"T{n:02d}-a", f"T{n:02d}-b")) for n in range(1, count + 1)]


def partnerships(seating: Seating) -> set[frozenset[str]]:
    """Every partnership (N–S and E–W) of a seating."""
    return {frozenset(pair) for k in range(len(seating.tables)) for pair in seating.pairs(k)}


def test_E23_a_session_opens_with_district_partners_and_new_opponents_each_session():
    teams = [t.players for t in roster(8)]
    first, second = session_start(teams, 0), session_start(teams, 1)
    assert partnerships(first) == partnerships(second) == {frozenset(t) for t in teams}
    opponents = lambda s: {frozenset((t[N], t[E])) for t in s.tables}  # noqa: E731
    assert not opponents(first) & opponents(second)


def test_E22_normal_game_winners_split_up_and_down_losers_stay_and_split():
    tables = tuple(tuple(f"{k}{seat}" for seat in "NESW") for k in range(4))
    moved = next_seating(Seating(tables), [(30, 10), (5, 20), (12, 12), (8, 9)], first_of_session=False)
    # table 0: N–S won; N goes up (table 1, seat S), S goes down (table 3, seat W); E keeps N, W takes E
    assert moved.tables[1][S] == "0N" and moved.tables[3][W] == "0S"
    assert moved.tables[0][N] == "0E" and moved.tables[0][E] == "0W"
    # table 1: E–W won; E goes up to table 2, W down to table 0; the loser N keeps N, S takes E
    assert moved.tables[2][S] == "1E" and moved.tables[0][W] == "1W"
    assert moved.tables[1][N] == "1N" and moved.tables[1][E] == "1S"
    # circular: up from the last table is the first
    assert moved.tables[0][S] == "3E"
    # the losers of a table are opponents, each partnering an arrival
    assert sorted(moved.players()) == sorted(p for t in tables for p in t)


@pytest.mark.parametrize("count", range(5, 13))
def test_E22_after_game_one_nobody_meets_a_game_one_partner_or_opponent(count):
    rng = random.Random(count)
    first = session_start([t.players for t in roster(2 * count)], session=count % 3)
    results = [(rng.randint(-10, 40), rng.randint(-10, 40)) for _ in range(count)]
    second = next_seating(first, results, first_of_session=True)
    assert not meetings(first) & meetings(second)
    assert Counter(second.players()) == Counter(first.players())


def test_E22_every_game_of_a_session_seats_every_player_exactly_once():
    tournament = new_tournament(roster(12))
    rng = random.Random(5)
    while not tournament.finished:
        seating = current_seating(tournament)
        assert sorted(seating.players()) == sorted(p for t in tournament.teams for p in t.players)
        tournament = record_games(tournament, [(rng.randint(0, 40), rng.randint(0, 40)) for _ in seating.tables])
    assert len(tournament.records) == 12 * 6 and {r.session for r in tournament.records} == {0, 1}


def test_E23_the_second_session_opens_with_district_partners_again():
    tournament = new_tournament(roster(10))
    for _ in range(6):
        tournament = record_games(tournament, [(20, 10)] * 5)
    assert tournament.session == 1 and tournament.game == 0
    assert partnerships(current_seating(tournament)) == {frozenset(t.players) for t in tournament.teams}


def test_E21_two_ranking_points_to_the_winners_none_to_the_losers_one_each_on_a_tie():
    assert ranking_points(30, 12) == (2, 0) and ranking_points(-4, 3) == (0, 2) and ranking_points(9, 9) == (1, 1)


def test_E20_each_player_keeps_an_individual_tally_with_that_games_partner():
    records = [GameRecord(0, 0, 0, ("a", "b", "c", "d"), (30, 12)), GameRecord(0, 1, 0, ("a", "c", "b", "d"), (9, 9))]
    tally = tallies(records)
    assert (tally["a"].ranking, tally["a"].game_points, tally["a"].games) == (3, 39, 2)
    assert (tally["c"].ranking, tally["c"].game_points) == (3, 39)
    assert (tally["b"].ranking, tally["b"].game_points) == (1, 21)
    assert (tally["d"].ranking, tally["d"].game_points) == (1, 21)


def crafted(points: dict[str, tuple[int, int]]) -> list[GameRecord]:
    """Records giving each player exactly (ranking, game points) via one game against the floater pair."""
    records = []
    for i, (player, (rank, pts)) in enumerate(points.items()):
        ns, ew = {2: (pts, pts - 1), 1: (pts, pts), 0: (pts, pts + 1)}[rank]
        records.append(GameRecord(0, i, 0, (player, "x1", f"{player}-mate", "x2"), (ns, ew)))
    return records


def test_E24_team_total_is_the_sum_of_both_partners_then_game_points_break_ties():
    teams = [Team("A", ("a1", "a2")), Team("B", ("b1", "b2")), Team("C", ("c1", "c2"))]
    from hall.minigames.osga.standings import standings as rank

    records = crafted({"a1": (2, 10), "a2": (0, 5), "b1": (1, 20), "b2": (1, 1), "c1": (2, 30), "c2": (2, 0)})
    table = rank(teams, records)
    assert [(r.team, r.ranking, r.game_points) for r in table] == [("C", 4, 30), ("B", 2, 21), ("A", 2, 15)]
    assert [r.place for r in table] == [1, 2, 3] and not any(r.tied for r in table)


def test_E24_a_tie_after_game_points_needs_a_playoff_for_a_medal_place_only():
    from hall.minigames.osga.standings import standings as rank

    teams = [Team(t, (t + "1", t + "2")) for t in "ABCDE"]
    records = crafted(
        {
            "A1": (2, 10),
            "A2": (2, 10),
            "B1": (2, 15),
            "B2": (2, 5),
            "C1": (1, 1),
            "C2": (0, 1),
            "D1": (0, 0),
            "D2": (0, 0),
            "E1": (0, 0),
            "E2": (0, 0),
        }
    )
    table = rank(teams, records)
    assert [(r.place, r.team, r.tied) for r in table[:2]] == [(1, "A", True), (1, "B", True)]
    assert [(r.place, r.team) for r in table[3:]] == [(4, "D"), (4, "E")]
    assert playoffs_needed(table) == [("A", "B")]  # D and E tie for 4th: no playoff
    table = rank(teams, records, playoffs=[("B", "A")])
    assert [(r.place, r.team, r.tied) for r in table[:2]] == [(1, "B", False), (2, "A", False)]
    assert playoffs_needed(table) == []


def test_E24_record_playoff_reorders_the_tournament_standings():
    tournament = new_tournament(roster(2), games_per_session=1, sessions=1)
    tournament = record_games(tournament, [(15, 15)])
    assert [r.tied for r in standings(tournament)] == [True, True]
    tournament = record_playoff(tournament, "T02", "T01")
    assert [r.team for r in standings(tournament)] == ["T02", "T01"]


def test_E25_an_odd_number_of_teams_gets_a_floater_whose_results_do_not_count():
    tournament = new_tournament(roster(5))
    assert len(tournament.teams) == 6 and tournament.teams[-1].id == FLOATER_ID
    tournament = record_games(tournament, [(40, 0), (40, 0), (40, 0)])
    assert FLOATER_ID not in [r.team for r in standings(tournament)] and len(standings(tournament)) == 5
    assert "floater" in simulate_day(3, seed=2)


def test_E25_a_team_that_defaults_leaves_the_standings_and_a_substitute_takes_its_seats():
    tournament = new_tournament(roster(10))
    tournament = record_games(tournament, [(20, 10)] * 5)
    tournament = default_team(tournament, "T03")
    seating = current_seating(tournament)
    assert "T03-a" not in seating.players() and {"SUB1-a", "SUB1-b"} <= set(seating.players())
    assert len(set(seating.players())) == 20
    for _ in range(11):
        tournament = record_games(tournament, [(20, 10)] * 5)
    teams = [r.team for r in standings(tournament)]
    assert "T03" not in teams and "SUB1" not in teams and len(teams) == 9
    with pytest.raises(ValueError):
        default_team(tournament, "T03")


@pytest.mark.slow
def test_simulate_day_prints_every_team_and_is_the_same_for_the_same_seed():
    text = simulate_day(8, seed=4)
    assert text == simulate_day(8, seed=4)
    assert all(f"T{n:02d}" in text for n in range(1, 9)) and "12 games" in text
    assert text != simulate_day(8, seed=5)
