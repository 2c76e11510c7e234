"""OSGA ranking: 2/1/0 per game, individual tallies, team standings and both tie-breaks (RULES E21, E24, E25)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MEDAL_PLACES = 3


@dataclass(frozen=True, slots=True)
class Team:
    """A district team: its id, its two players, and whether it counts (a floater or substitute does not, E25)."""

    id: str
    players: tuple[str, str]
    counts: bool = True


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game at one table: the seats ``(N, E, S, W)`` and the points ``(ns, ew)`` from the score sheet."""

    session: int
    game: int
    table: int
    seats: tuple[str, str, str, str]
    points: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Tally:
    """One player's individual tally: ranking points (2/1/0 per game) and game points (hand scores)."""

    ranking: int = 0
    game_points: int = 0
    games: int = 0


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the final ranking; ``tied`` means only a playoff can separate it from its neighbours."""

    place: int
    team: str
    players: tuple[str, str]
    ranking: int
    game_points: int
    playoff_wins: int = 0
    tied: bool = False


def ranking_points(ns_points: int, ew_points: int) -> tuple[int, int]:
    """Return the ranking points of N–S and E–W: 2 to the winners, 0 to the losers, 1 each on a tie (E21)."""
    if ns_points == ew_points:
        return 1, 1
    return (2, 0) if ns_points > ew_points else (0, 2)


def tallies(records: Iterable[GameRecord]) -> dict[str, Tally]:
    """Return every player's tally over ``records`` (each player scores with the partner of that game)."""
    out: dict[str, Tally] = {}
    for record in records:
        ns, ew = record.points
        rank = ranking_points(ns, ew)
        for seat, player in enumerate(record.seats):
            side = seat % 2  # N and S are seats 0 and 2
            old = out.get(player, Tally())
            out[player] = Tally(old.ranking + rank[side], old.game_points + record.points[side], old.games + 1)
    return out


def _playoff_wins(team: str, group: set[str], playoffs: Sequence[tuple[str, str]]) -> int:
    """Return how many playoffs ``team`` won against teams of its own tied ``group``."""
    return sum(1 for winner, loser in playoffs if winner == team and loser in group)


def standings(
    teams: Sequence[Team],
    records: Iterable[GameRecord],
    playoffs: Sequence[tuple[str, str]] = (),
    defaulted: Iterable[str] = (),
) -> list[Standing]:
    """Return the ranking of the counting teams (floaters, substitutes and defaulted teams left out, E25).

    Order: sum of both partners' ranking points; tie-break 1: sum of their game points; tie-break 2:
    wins in 4-hand playoffs (``(winner, loser)`` pairs) between teams of the same tied group (E24).
    """
    per_player = tallies(records)
    out_of_play = set(defaulted)
    rows = []
    for team in teams:
        if not team.counts or team.id in out_of_play:
            continue
        a, b = (per_player.get(p, Tally()) for p in team.players)
        rows.append((team, a.ranking + b.ranking, a.game_points + b.game_points))
    groups: dict[tuple[int, int], set[str]] = {}
    for team, rank, points in rows:
        groups.setdefault((rank, points), set()).add(team.id)
    keyed = []
    for team, rank, points in rows:
        group = groups[(rank, points)]
        keyed.append((rank, points, _playoff_wins(team.id, group, playoffs), team))
    keyed.sort(key=lambda r: (-r[0], -r[1], -r[2], r[3].id))
    result: list[Standing] = []
    for rank, points, wins, team in keyed:
        same = [k for k in keyed if k[:3] == (rank, points, wins)]
        place = 1 + next(j for j, k in enumerate(keyed) if k[:3] == (rank, points, wins))
        result.append(Standing(place, team.id, team.players, rank, points, wins, tied=len(same) > 1))
    return result


def playoffs_needed(table: Sequence[Standing], medal_places: int = MEDAL_PLACES) -> list[tuple[str, ...]]:
    """Return the groups of teams still tied at a medal place: each needs a 4-hand playoff (E24)."""
    groups: dict[int, list[str]] = {}
    for row in table:
        if row.tied and row.place <= medal_places:
            groups.setdefault(row.place, []).append(row.team)
    return [tuple(teams) for _, teams in sorted(groups.items())]


def format_standings(table: Sequence[Standing], title: str = "") -> str:
    """Return the standings as a printable table."""
    lines = [title] if title else []
    lines.append(f"{'Place':>5}  {'Team':<8} {'Players':<18} {'Ranking':>7} {'Game pts':>8}  Note")
    for row in table:
        note = "tied: playoff needed" if row.tied and row.place <= MEDAL_PLACES else ""
        if row.playoff_wins and not note:
            note = f"playoff wins {row.playoff_wins}"
        players = " & ".join(row.players)
        lines.append(
            f"{row.place:>5}  {row.team:<8} {players:<18} {row.ranking:>7} {row.game_points:>8}  {note}".rstrip()
        )
    return "\n".join(lines)
