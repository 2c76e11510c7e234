"""What people see of the OSGA day (docs/osga.md): the players' names, who sits where, the live standings, the
teams out of them, and the day's public summary (no codes) the desk, the tables' pages and the PDFs read."""

from __future__ import annotations

from typing import Any

from hall.minigames.osga.day import (
    FLOATER_ID,
    current_seating,
    standings,
)
from hall.minigames.osga.standings import playoffs_needed
from hall.minigames.osga.tournament import Day


def player_names(day: Day) -> dict[str, str]:
    """Return player id → name: district players, the floater, the substitutes (E25)."""
    names = {}
    for entry in day.entries:
        names[f"{entry.id}-a"], names[f"{entry.id}-b"] = entry.players
    floater = day.floater if all(day.floater) else ("Réserve A", "Réserve B")
    names[f"{FLOATER_ID}-a"], names[f"{FLOATER_ID}-b"] = floater
    floater_playing = day.tournament is not None and any(t.id == FLOATER_ID for t in day.tournament.teams)
    for team in day.tournament.teams if day.tournament else ():
        if team.id.startswith("SUB"):
            number = int(team.id[3:])
            if number == 1 and not floater_playing:
                pair = floater  # the organisers' spare team replaces the first team in default
            else:
                pair = (f"Remplaçant {number} A", f"Remplaçant {number} B")
            names[team.players[0]], names[team.players[1]] = pair
    return names


def team_of_player(day: Day) -> dict[str, str]:
    """Return player id → the team id it belongs to (district, floater or substitute)."""
    if day.tournament is None:
        return {}
    return {p: t.id for t in day.tournament.teams for p in t.players}


def seating_view(day: Day) -> list[dict[str, object]]:
    """Return the current game's tables: who sits where, the sheet so far and whether it is done."""
    if day.tournament is None or day.tournament.finished:
        return []
    names, teams = player_names(day), team_of_player(day)
    tables = []
    for k, (seats, sheet) in enumerate(zip(current_seating(day.tournament).tables, day.sheets)):
        tables.append(
            {
                "table": k + 1,
                "seats": [
                    {"seat": "NESW"[i], "player": p, "name": names.get(p, p), "team": teams.get(p, "")}
                    for i, p in enumerate(seats)
                ],
                "hands": [list(h) for h in sheet.hands],
                "totals": list(sheet.totals),
                "closed": sheet.closed,
                "done": sheet.done,
            }
        )
    return tables


def standings_view(day: Day) -> list[dict[str, object]]:
    """Return the live standings of the ranked teams with names (E24)."""
    if day.tournament is None:
        return []
    by_id = {e.id: e for e in day.entries}
    finished = day.tournament.finished  # a tie means a playoff only once every game is played (E24)
    needed = {team for group in playoffs_needed(standings(day.tournament)) for team in group} if finished else set()
    rows = []
    for row in standings(day.tournament):
        entry = by_id[row.team]
        rows.append(
            {
                "place": row.place,
                "team": row.team,
                "name": entry.name,
                "players": list(entry.players),
                "ranking": row.ranking,
                "game_points": row.game_points,
                "playoff_wins": row.playoff_wins,
                "tied": row.tied,
                "playoff_needed": row.team in needed,
            }
        )
    return rows


def out_of_standings(day: Day) -> list[dict[str, str]]:
    """Return the teams out of the standings: absent at the start or defaulted later (seed A)."""
    gone = list(day.absent) + list(day.tournament.defaulted if day.tournament else ())
    by_id = {e.id: e for e in day.entries}
    return [{"team": t, "name": by_id[t].name, "why": "absent" if t in day.absent else "default"} for t in gone]


# ``Any``: the desk (display/tournament) adds each table's code to this JSON and the PDFs read it by key, deep;
# a TypedDict for it waits until those readers are typed with it.
def summary(day: Day) -> dict[str, Any]:
    """Return the public picture of the day (no codes): phase, game, tables, standings."""
    tournament = day.tournament
    data: dict[str, Any] = {
        "phase": day.phase,
        "title": day.title,
        "games_per_session": day.games_per_session,
        "sessions": day.sessions,
        "games": day.games_per_session * day.sessions,
        "teams": [
            {"team": e.id, "name": e.name, "players": list(e.players), "arrived": e.arrived} for e in day.entries
        ],
        "floater": list(day.floater),
        "events": day.events,
    }
    if tournament is not None:
        played = tournament.session * tournament.games_per_session + tournament.game
        data.update(
            {
                "session": min(tournament.session + 1, tournament.sessions),
                "game_in_session": tournament.game + 1,
                "game": played + 1,
                "games_played": played,
                "floater_playing": any(t.id == FLOATER_ID for t in tournament.teams),
                "tables": seating_view(day),
                "standings": standings_view(day),
                "out": out_of_standings(day),
                "playoffs": [list(p) for p in tournament.playoffs],
                "playoff_groups": [list(g) for g in playoffs_needed(standings(tournament))]
                if tournament.finished
                else [],
            }
        )
    return data
