"""The OSGA progressive Bid Euchre tournament (RULES E20–E25): a value the organiser updates game by game.

Humans enter each table's game points with :func:`record_games`; the module moves the players (E22),
keeps each player's 2/1/0 tally and ranks the district teams with both tie-breaks (E24). A floater team
fills an odd count and a substitute pair replaces a team that defaults; neither is ranked (E25).
:func:`simulate_day` plays a whole day with the Euchre bots.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from hall.minigames.euchre.state import EuchreOptions
from hall.minigames.match import play_out
from hall.minigames.osga.movement import Seating, next_seating, session_start
from hall.minigames.osga.standings import (
    GameRecord,
    Standing,
    Team,
    format_standings,
    playoffs_needed,
)
from hall.minigames.osga.standings import (
    standings as rank_teams,
)
from hall.minigames.registry import get_game

GAMES_PER_SESSION = 6  # seed C.1 and C.3: at least 12 games a day, in at least 2 sessions
SESSIONS_PER_DAY = 2
PLAYOFF_HANDS = 4  # E24: a 4-hand playoff, each player deals once
FLOATER_ID = "FLOATER"

__all__ = [
    "Tournament",
    "Team",
    "Standing",
    "new_tournament",
    "current_seating",
    "record_games",
    "default_team",
    "record_playoff",
    "standings",
    "playoffs_needed",
    "simulate_day",
    "bot_day",
]


@dataclass(frozen=True, slots=True)
class Tournament:
    """A day (or two) of OSGA Bid Euchre: teams in opening order, results so far and the next seating."""

    teams: tuple[Team, ...]
    games_per_session: int = GAMES_PER_SESSION
    sessions: int = SESSIONS_PER_DAY
    records: tuple[GameRecord, ...] = ()
    defaulted: tuple[str, ...] = ()
    playoffs: tuple[tuple[str, str], ...] = ()
    session: int = 0
    game: int = 0  # games already played in the current session
    seating: Seating | None = None  # None: the session's opening seating (district partners)

    @property
    def finished(self) -> bool:
        """Whether every game of every session has been recorded."""
        return self.session >= self.sessions


def new_tournament(
    teams: Sequence[Team], games_per_session: int = GAMES_PER_SESSION, sessions: int = SESSIONS_PER_DAY
) -> Tournament:
    """Return a tournament for ``teams``; a floater team is added when their number is odd (E25)."""
    teams = tuple(teams)
    if not teams:
        raise ValueError("a tournament needs at least one team")
    players = [p for t in teams for p in t.players]
    if len(set(players)) != len(players) or len({t.id for t in teams}) != len(teams):
        raise ValueError("team ids and player names must be unique")
    if len(teams) % 2:
        teams += (Team(FLOATER_ID, (FLOATER_ID + "-a", FLOATER_ID + "-b"), counts=False),)
    return Tournament(teams, games_per_session, sessions)


def current_seating(tournament: Tournament) -> Seating:
    """Return who sits where for the next game; raises ``ValueError`` once the tournament is over."""
    if tournament.finished:
        raise ValueError("the tournament is over")
    if tournament.seating is not None:
        return tournament.seating
    return session_start([t.players for t in tournament.teams], tournament.session)


def record_games(tournament: Tournament, results: Sequence[tuple[int, int]]) -> Tournament:
    """Return the tournament after the game of every table: ``results[k] = (ns_points, ew_points)`` at table k+1."""
    seating = current_seating(tournament)
    if len(results) != len(seating.tables):
        raise ValueError(f"expected {len(seating.tables)} table results, got {len(results)}")
    records = tuple(
        GameRecord(tournament.session, tournament.game, k, seats, (int(ns), int(ew)))
        for k, (seats, (ns, ew)) in enumerate(zip(seating.tables, results))
    )
    game = tournament.game + 1
    if game >= tournament.games_per_session:  # the next session opens with district partners again (E23)
        return replace(
            tournament, records=tournament.records + records, session=tournament.session + 1, game=0, seating=None
        )
    moved = next_seating(seating, results, first_of_session=tournament.game == 0)
    return replace(tournament, records=tournament.records + records, game=game, seating=moved)


def default_team(tournament: Tournament, team_id: str) -> Tournament:
    """Return the tournament without ``team_id`` in the standings; an unranked substitute pair takes its seats (E25)."""
    index = next((i for i, t in enumerate(tournament.teams) if t.id == team_id and t.counts), None)
    if index is None or team_id in tournament.defaulted:
        raise ValueError(f"no ranked team {team_id!r} to default")
    number = sum(1 for t in tournament.teams if t.id.startswith("SUB")) + 1
    sub = Team(f"SUB{number}", (f"SUB{number}-a", f"SUB{number}-b"), counts=False)
    old = tournament.teams[index]
    swap = dict(zip(old.players, sub.players))
    seating = tournament.seating
    if seating is not None:
        seating = Seating(
            tuple((swap.get(n, n), swap.get(e, e), swap.get(s, s), swap.get(w, w)) for n, e, s, w in seating.tables)
        )
    teams = tournament.teams[:index] + (sub,) + tournament.teams[index + 1 :]
    return replace(tournament, teams=teams, seating=seating, defaulted=tournament.defaulted + (team_id,))


def record_playoff(tournament: Tournament, winner: str, loser: str) -> Tournament:
    """Return the tournament after a 4-hand playoff between two tied teams (E24); a drawn playoff is replayed."""
    return replace(tournament, playoffs=tournament.playoffs + ((winner, loser),))


def standings(tournament: Tournament) -> list[Standing]:
    """Return the ranking of the district teams still in the event."""
    ranked = [t for t in tournament.teams if t.counts]
    return rank_teams(ranked, tournament.records, tournament.playoffs, tournament.defaulted)


def bot_hands(seats: Sequence[str], rng: random.Random, hands: int = 8) -> list[tuple[int, int]]:
    """Return each hand's ``(ns_points, ew_points)`` of one game played by four Euchre bots (seats N, E, S, W)."""
    euchre = get_game("euchre")
    bot = euchre.bots["default"]
    match = play_out(euchre, 4, [bot] * 4, rng, EuchreOptions(hands=hands))
    return [record.points for record in match.state.history]  # bots draw no penalty: they sum to the scores


def bot_game(seats: Sequence[str], rng: random.Random, hands: int = 8) -> tuple[int, int]:
    """Return ``(ns_points, ew_points)`` of one game played by four Euchre bots (seats N, E, S, W)."""
    points = bot_hands(seats, rng, hands)
    return sum(p[0] for p in points), sum(p[1] for p in points)


def _settle_playoffs(tournament: Tournament, rng: random.Random, max_rounds: int = 10) -> Tournament:
    """Return the tournament with bot playoffs played between teams tied at medal places (E24)."""
    by_id = {t.id: t for t in tournament.teams}
    for _ in range(max_rounds):
        groups = playoffs_needed(standings(tournament))
        if not groups:
            break
        for group in groups:
            for i, a in enumerate(group):
                for b in group[i + 1 :]:
                    (a1, a2), (b1, b2) = by_id[a].players, by_id[b].players
                    ns, ew = bot_game((a1, b1, a2, b2), rng, PLAYOFF_HANDS)
                    if ns != ew:  # a drawn playoff is simply played again
                        tournament = record_playoff(tournament, *((a, b) if ns > ew else (b, a)))
    return tournament


def bot_day(teams: int, seed: int) -> tuple[Tournament, list[list[list[tuple[int, int]]]]]:
    """Return a whole bot-played day: the final tournament (playoffs settled) and, game by game and table by
    table, each hand's points as the bots played them (what the captains would enter)."""
    if teams < 1:
        raise ValueError(f"teams must be at least 1, not {teams}")
    rng = random.Random(seed)
    roster = [Team(f"T{n:02d}", (f"T{n:02d}-a", f"T{n:02d}-b")) for n in range(1, teams + 1)]
    tournament = new_tournament(roster)
    games: list[list[list[tuple[int, int]]]] = []
    while not tournament.finished:
        seating = current_seating(tournament)
        hands = [bot_hands(table, rng) for table in seating.tables]
        games.append(hands)
        tournament = record_games(tournament, [(sum(h[0] for h in t), sum(h[1] for h in t)) for t in hands])
    return _settle_playoffs(tournament, rng), games


def simulate_day(teams: int, seed: int) -> str:
    """Return the printable standings of a whole bot-played day: ``teams`` district teams, 12 games."""
    tournament, _ = bot_day(teams, seed)
    tables = len(tournament.teams) // 2
    games = tournament.games_per_session * tournament.sessions
    title = f"OSGA Bid Euchre - simulated day: {teams} team(s), {tables} table(s), {games} games, seed {seed}"
    text = format_standings(standings(tournament), title)
    if any(t.id == FLOATER_ID for t in tournament.teams):
        text += f"\n(floater team {FLOATER_ID} filled the odd table; its results are not ranked)"
    return text
