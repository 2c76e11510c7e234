"""The tournament day the desk runs (docs/osga.md, RULES E20–E25): events, refusals, the store, properties."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.app.runtime import open_tournament
from hall.minigames.osga.codes import check_code, table_code
from hall.minigames.osga.day import FLOATER_ID, Team, bot_day, current_seating, new_tournament, record_games
from hall.minigames.osga.movement import meetings
from hall.minigames.osga.standings import GameRecord, ranking_points, standings
from hall.minigames.osga.tournament import Day, apply_event, replay
from hall.minigames.osga.views import player_names, standings_view, summary
from hall.refusal import Rejected

SECRET = "s" * 24


def day_with(teams: int, *, start: bool = True, games: int = 6, **create) -> Day:
    day = apply_event(
        Day(), "create", {"secret": SECRET, "title": "Club de Sudbury", "games_per_session": games, **create}
    )
    for n in range(1, teams + 1):
        day = apply_event(day, "register", {"name": f"Équipe {n}", "players": [f"Joueur {n}a", f"Joueur {n}b"]})
    return apply_event(day, "start", {}) if start else day


def play_table(day: Day, table: int, hands) -> Day:
    for number, (ns, ew) in enumerate(hands, 1):
        day = apply_event(day, "hand", {"table": table, "hand": number, "ns": ns, "ew": ew})
    return day


def refused(day: Day, kind: str, data: dict, code: str) -> None:
    with pytest.raises(Rejected) as err:
        apply_event(day, kind, data)
    assert err.value.code == code


def test_registration_late_arrivals_and_absent_teams_are_in_default_at_the_start():
    day = day_with(3, start=False)
    day = apply_event(day, "register", {"name": "Les Retardataires", "players": ["Ana", "Bob"], "arrived": False})
    day = apply_event(day, "register", {"name": "Les Absents", "players": ["Cy", "Di"], "arrived": False})
    day = apply_event(day, "arrive", {"team": "T04"})  # a late arrival checks in before the first game
    day = apply_event(day, "start", {})
    ranked = {row["team"] for row in standings_view(day)}
    assert ranked == {"T01", "T02", "T03", "T04"} and summary(day)["out"] == [
        {"team": "T05", "name": "Les Absents", "why": "absent"}
    ]
    assert len(summary(day)["tables"]) == 2 and not summary(day)["floater_playing"]
    refused(day, "register", {"name": "Trop tard", "players": ["E", "F"]}, "registration_closed")
    refused(day, "arrive", {"team": "T05"}, "registration_closed")


def test_E25_an_odd_count_seats_the_floater_whose_results_are_not_ranked():
    day = day_with(0, start=False)
    day = apply_event(day, "floater", {"players": ["Réserve Un", "Réserve Deux"]})
    for n in range(3):
        day = apply_event(day, "register", {"name": f"E{n}", "players": [f"a{n}", f"b{n}"]})
    day = apply_event(day, "start", {})
    names = [s["name"] for t in summary(day)["tables"] for s in t["seats"]]
    assert "Réserve Un" in names and "Réserve Deux" in names and summary(day)["floater_playing"]
    assert FLOATER_ID not in {row["team"] for row in standings_view(day)}


@pytest.mark.parametrize(
    "data, code",
    [
        ({"table": 0, "hand": 1, "ns": 5, "ew": 3}, "bad_number"),
        ({"table": 3, "hand": 1, "ns": 5, "ew": 3}, "bad_number"),
        ({"table": 1, "hand": 2, "ns": 5, "ew": 3}, "hand_out_of_order"),
        ({"table": 1, "hand": 9, "ns": 5, "ew": 3}, "bad_number"),
        ({"table": 1, "hand": 1, "ns": 25, "ew": 3}, "bad_number"),
        ({"table": 1, "hand": 1, "ns": -1000, "ew": 3}, "bad_number"),
        ({"table": 1, "hand": 1, "ns": 2.5, "ew": 3}, "bad_number"),
        ({"table": 1, "hand": 1, "ns": True, "ew": 3}, "bad_number"),
        ({"table": "1", "hand": 1, "ns": 5, "ew": 3}, "bad_number"),
        ({"table": 1, "hand": 1, "ns": "5", "ew": 3}, "bad_number"),
    ],
)
def test_a_bad_hand_is_refused_with_a_code_and_changes_nothing(data, code):
    day = day_with(4)
    before = summary(day)
    refused(day, "hand", data, code)
    assert summary(day) == before


def test_T1_a_hand_the_engine_plays_is_never_refused_by_the_sheet():
    """Issue 22: the sheet's floor of −39 refused reachable hands (penalties have no limit). A failed moonshot,
    five 5-point penalties and a renege, played through the Bid Euchre engine with the referee's actions, is
    −54 for N–S: the captain enters it; only a typing mistake beyond −999 is refused."""
    from hall.minigames.base import CHANCE
    from hall.minigames.euchre.cards import DECK
    from hall.minigames.euchre.rules import apply
    from hall.minigames.euchre.rules import to_move as euchre_to_move
    from hall.minigames.euchre.state import EuchreOptions
    from hall.minigames.registry import get_game

    game = get_game("euchre")
    state = apply(game.setup(4, EuchreOptions()), CHANCE, tuple(DECK))
    state = apply(state, 1, ("pass",))
    state = apply(state, 2, ("moon",))  # N–S (seats 0 and 2) go for all eight tricks alone
    for move in [("pass",), ("pass",)] + [("penalty", 0, "out_of_turn")] * 5:
        assert game.is_legal(state, euchre_to_move(state)[0], move)
        state = apply(state, euchre_to_move(state)[0], move)
    while state.phase != "play":
        seat = euchre_to_move(state)[0]
        state = apply(state, seat, game.legal_moves(state, seat)[0])
    state = apply(state, euchre_to_move(state)[0], ("renege", 2))
    assert state.history[-1].points == (-24 - 5, 0) and state.scores == (-54, 0)
    day = day_with(4)
    day = apply_event(day, "hand", {"table": 1, "hand": 1, "ns": state.scores[0], "ew": state.scores[1]})
    assert summary(day)["tables"][0]["totals"] == [-54, 0]
    day = apply_event(day, "hand", {"table": 1, "hand": 1, "ns": -999, "ew": 24})
    refused(day, "hand", {"table": 1, "hand": 1, "ns": -1000, "ew": 0}, "bad_number")
    refused(day, "hand", {"table": 1, "hand": 1, "ns": 0, "ew": 25}, "bad_number")


def test_a_hand_can_be_corrected_and_the_game_moves_on_only_when_every_table_is_done():
    day = day_with(4)
    day = play_table(day, 1, [(5, 3)] * 8)
    day = apply_event(day, "hand", {"table": 1, "hand": 3, "ns": -4, "ew": 6})  # a typing mistake corrected
    assert summary(day)["tables"][0]["totals"] == [7 * 5 - 4, 7 * 3 + 6]
    refused(day, "next", {}, "tables_not_done")
    refused(day, "hand", {"table": 1, "hand": 9, "ns": 1, "ew": 1}, "bad_number")
    day = play_table(day, 2, [(2, 6)] * 3)
    day = apply_event(day, "close", {"table": 2})  # E21: time called after three hands
    refused(day, "hand", {"table": 2, "hand": 4, "ns": 1, "ew": 1}, "table_closed")
    day = apply_event(day, "next", {})
    assert summary(day)["game"] == 2 and summary(day)["games_played"] == 1
    points = {row["team"]: row["ranking"] for row in standings_view(day)}
    assert sorted(points.values()) == [0, 0, 4, 4]  # two partnerships won: 2 points to each of their players


def test_a_default_takes_the_team_out_and_a_substitute_pair_plays_its_seats():
    day = day_with(4)
    day = apply_event(day, "floater", {"players": ["Rita", "Raoul"]})
    day = apply_event(day, "default", {"team": "T02"})
    assert "T02" not in {row["team"] for row in standings_view(day)}
    seated = [s["name"] for t in summary(day)["tables"] for s in t["seats"]]
    assert "Rita" in seated and "Joueur 2a" not in seated
    refused(day, "default", {"team": "T02"}, "already_defaulted")
    refused(day, "default", {"team": "T99"}, "unknown_team")


def test_table_codes_change_with_the_game_and_open_only_their_table():
    day = day_with(4, games=2)
    code = table_code(day, 1)
    assert check_code(day, 1, code) and check_code(day, 1, code.lower()) and not check_code(day, 2, code)
    assert not check_code(day, 3, code) and not check_code(day, "1", code) and not check_code(day, 1, None)
    for table in (1, 2):
        day = play_table(day, table, [(3, 5)] * 8)
    day = apply_event(day, "next", {})
    assert not check_code(day, 1, code) and check_code(day, 1, table_code(day, 1))


def test_nothing_happens_before_a_day_is_created_and_unknown_events_are_refused():
    refused(Day(), "register", {"name": "X", "players": ["a", "b"]}, "no_day")
    refused(day_with(2), "explode", {}, "unknown_event")
    refused(day_with(1, start=False), "start", {}, "too_few_teams")
    refused(day_with(2, start=False), "register", {"name": "  ", "players": ["a", "b"]}, "bad_name")
    refused(day_with(2, start=False), "register", {"name": "équipe 1", "players": ["a", "b"]}, "duplicate_team")
    refused(day_with(2, start=False), "register", {"name": "X" * 41, "players": ["a", "b"]}, "bad_name")
    refused(day_with(2, start=False), "register", {"name": "X", "players": ["a"]}, "bad_name")
    refused(day_with(2), "playoff", {"winner": "T01", "loser": "T02"}, "playoff_too_early")


def bot_events(teams: int, seed: int) -> list[tuple[str, dict]]:
    """The events a desk would enter for the bots' day: registrations, every hand, the moves, the playoffs."""
    final, games = bot_day(teams, seed)
    events = [("create", {"secret": SECRET, "title": "Simulé"})]
    events += [
        ("register", {"name": f"T{n:02d}", "players": [f"T{n:02d}-a", f"T{n:02d}-b"]}) for n in range(1, teams + 1)
    ]
    events.append(("start", {}))
    for game in games:
        for table, hands in enumerate(game, 1):
            events += [("hand", {"table": table, "hand": h, "ns": ns, "ew": ew}) for h, (ns, ew) in enumerate(hands, 1)]
        events.append(("next", {}))
    events += [("playoff", {"winner": w, "loser": lo}) for w, lo in final.playoffs]
    return events


@pytest.mark.slow
def test_a_bot_day_entered_hand_by_hand_gives_the_simulated_standings():
    final, _ = bot_day(9, 5)
    day = replay(bot_events(9, 5))
    assert day.phase == "finished"
    expected = [
        (r.place, r.team, r.ranking, r.game_points, r.playoff_wins)
        for r in standings([t for t in final.teams if t.counts], final.records, final.playoffs, final.defaulted)
    ]
    got = [(r["place"], r["team"], r["ranking"], r["game_points"], r["playoff_wins"]) for r in standings_view(day)]
    assert got == expected


def test_the_store_keeps_every_accepted_event_and_replays_them(tmp_path):
    path = tmp_path / "tournament.sqlite"
    store = open_tournament(path)
    store.new_day("Club")
    for kind, data in bot_events(4, 2)[1:40]:
        store.submit(kind, data)
    with pytest.raises(Rejected):
        store.submit("hand", {"table": 7, "hand": 1, "ns": 1, "ew": 1})
    before = summary(store.day)
    rows = sqlite3.connect(path).execute("SELECT count(*) FROM events").fetchone()[0]
    assert rows == store.version == 40
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    store.close()
    reopened = open_tournament(path)
    assert summary(reopened.day) == before and mode == "wal"
    assert table_code(reopened.day, 1) == table_code(store.day, 1)
    reopened.close()


def test_a_new_day_starts_afresh_in_the_same_file(tmp_path):
    store = open_tournament(tmp_path / "t.sqlite")
    store.new_day("Samedi")
    store.submit("register", {"name": "A", "players": ["a", "b"]})
    store.new_day("Dimanche")
    assert summary(store.day)["teams"] == [] and summary(store.day)["title"] == "Dimanche"
    store.close()
    assert (
        json.loads(
            sqlite3.connect(tmp_path / "t.sqlite").execute("SELECT data FROM events WHERE seq = 2").fetchone()[0]
        )["name"]
        == "A"
    )


# --- properties against brute-force oracles --------------------------------------------------------------


def oracle_order(teams, records):
    """Brute force: every team's (ranking, game points) from scratch; a team ranks above another iff its pair is
    greater; place = 1 + the number of teams strictly above."""
    totals = {}
    for team in teams:
        rank = points = 0
        for record in records:
            ns_rank, ew_rank = ranking_points(*record.points)
            for seat, player in enumerate(record.seats):
                if player in team.players:
                    rank += (ns_rank, ew_rank)[seat % 2]
                    points += record.points[seat % 2]
        totals[team.id] = (rank, points)
    return {t: 1 + sum(1 for o in totals.values() if o > totals[t]) for t in totals}, totals


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.data())
def test_E24_standings_match_a_brute_force_oracle(count, data):
    teams = [Team(f"T{n}", (f"T{n}-a", f"T{n}-b")) for n in range(count)]
    players = [p for t in teams for p in t.players]
    records = []
    for game in range(data.draw(st.integers(0, 4))):
        order = data.draw(st.permutations(players))
        for table in range(len(order) // 4):
            seats = tuple(order[4 * table : 4 * table + 4])
            points = (data.draw(st.integers(-10, 12)), data.draw(st.integers(-10, 12)))
            records.append(GameRecord(0, game, table, seats, points))
    places, totals = oracle_order(teams, records)
    rows = standings(teams, records)
    assert {r.team: r.place for r in rows} == places
    assert {r.team: (r.ranking, r.game_points) for r in rows} == totals
    for row in rows:  # tied means: another team has exactly the same ranking and game points
        assert row.tied == (sum(1 for t in totals.values() if t == totals[row.team]) > 1)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 24), st.integers(1, 6), st.data())
def test_E22_E23_every_player_plays_every_game_and_game_two_repeats_no_meeting(count, games, data):
    teams = [Team(f"T{n:02d}", (f"T{n:02d}-a", f"T{n:02d}-b")) for n in range(count)]
    tournament = new_tournament(teams, games_per_session=games, sessions=2)
    everyone = Counter(p for t in tournament.teams for p in t.players)
    previous = None
    while not tournament.finished:
        seating = current_seating(tournament)
        assert Counter(seating.players()) == everyone  # every player at exactly one table, every game
        if tournament.game == 0:  # E23: district partners together at each session's start
            pairs = {frozenset(p) for k in range(len(seating.tables)) for p in seating.pairs(k)}
            assert pairs == {frozenset(t.players) for t in tournament.teams}
        if tournament.game == 1 and len(seating.tables) >= 5:  # seed C.4 note: no game-1 partner or opponent
            assert not meetings(previous) & meetings(seating)
        results = [(data.draw(st.integers(-20, 40)), data.draw(st.integers(-20, 40))) for _ in seating.tables]
        previous = seating
        tournament = record_games(tournament, results)


def test_player_names_cover_every_seat_of_every_game():
    day = day_with(5)
    names = player_names(day)
    while day.tournament is not None and not day.tournament.finished:
        for table in summary(day)["tables"]:
            assert all(s["player"] in names for s in table["seats"])
            day = play_table(day, table["table"], [(4, 4)] * 8)
        day = apply_event(day, "next", {})
    assert day.phase in ("finished", "playoffs")


KILLED_WRITER = """
import sys
from pathlib import Path
from hall.app.runtime import open_tournament
store = open_tournament(Path(sys.argv[1]))
store.new_day("Club")
for n in range(1, 10_000):
    store.submit("register", {"name": f"Équipe {n}", "players": [f"a{n}", f"b{n}"]})
    print(store.version, flush=True)
"""


@pytest.mark.slow
def test_every_acknowledged_event_survives_a_sigkill(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    path = tmp_path / "tournament.sqlite"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(path)], stdout=subprocess.PIPE, text=True, env=env
    )
    acknowledged = 0
    for line in proc.stdout:
        acknowledged = int(line)
        if acknowledged >= 30:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    store = open_tournament(path)
    assert store.version >= acknowledged and len(store.day.entries) == store.version - 1
    assert [e.name for e in store.day.entries][:3] == ["Équipe 1", "Équipe 2", "Équipe 3"]
    store.close()


def oracle_move(table: int, seat: int, ns: int, ew: int, first: bool, tables: int) -> tuple[int, int]:
    """Brute force, straight from the rule text (E22): where one player sits next, seat by seat.

    Winners (N–S on a tie) split: the one from N or E goes up (1 table, 2 after a session's first game) and sits
    S, the partner goes down and sits W. Losers stay (move 1 up/down after the first game): the one from N or E
    takes N, the partner takes E.
    """
    winners = 1 if ew > ns else 0
    upper = seat in (0, 1)  # N or E
    if seat % 2 == winners:
        step = 2 if first else 1
        return ((table + step) % tables, 2) if upper else ((table - step) % tables, 3)
    step = 1 if first else 0
    return ((table + step) % tables, 0) if upper else ((table - step) % tables, 1)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 15), st.booleans(), st.data())
def test_E22_the_movement_matches_a_player_by_player_oracle(tables, first, data):
    from hall.minigames.osga.movement import Seating, next_seating

    seating = Seating(tuple(tuple(f"p{k}{s}" for s in "NESW") for k in range(tables)))
    results = [(data.draw(st.integers(-20, 40)), data.draw(st.integers(-20, 40))) for _ in range(tables)]
    moved = next_seating(seating, results, first_of_session=first)
    where = {p: (k, s) for k, t in enumerate(moved.tables) for s, p in enumerate(t)}
    for k, (table, (ns, ew)) in enumerate(zip(seating.tables, results)):
        for seat, player in enumerate(table):
            assert where[player] == oracle_move(k, seat, ns, ew, first, tables)
    assert sorted(where) == sorted(p for t in seating.tables for p in t)
