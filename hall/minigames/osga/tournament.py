"""The OSGA tournament day as the desk runs it (RULES E20–E25, docs/osga.md): a pure fold over events.

The day is a value rebuilt from its events, in order, by :func:`apply_event`; a bad event raises
:class:`~hall.refusal.Rejected` (a stable snake_case code and details) and changes nothing. Events:

``create``   {secret, title, games_per_session, sessions} — a new day (any earlier one is closed)
``register`` {name, players: [a, b], arrived}          — a district team, before the start
``arrive``   {team} / ``absent`` {team}                  — check-in of a pre-registered team (late arrivals)
``floater``  {players: [a, b]}                          — the organisers' spare team (E25)
``start``    {}                                         — registration closes; absent teams are out (seed A)
``hand``     {table, hand, ns, ew}                      — one hand of the current game at a table (1-based)
``close``    {table} / ``reopen`` {table}               — time called (E21) / the desk reopens a sheet
``recode``   {table}                                    — the desk gives the table a fresh captain's code
``next``     {}                                         — every table is done: record the game and move (E22)
``default``  {team}                                     — a team defaults: out of the standings (seed A, E25)
``playoff``  {winner, loser}                            — a 4-hand playoff between two tied teams (E24)

The movement and the ranking are :mod:`hall.minigames.osga.day`'s, so a day entered hand by hand gives
the same standings as ``loto-hall games tournament`` for the same hands. What the desk and the tables see is
:mod:`hall.minigames.osga.views`'s; the captains' codes are :mod:`hall.minigames.osga.codes`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from hall.minigames.osga.day import (
    GAMES_PER_SESSION,
    SESSIONS_PER_DAY,
    Tournament,
    current_seating,
    default_team,
    new_tournament,
    record_games,
    record_playoff,
    standings,
)
from hall.minigames.osga.standings import Team, playoffs_needed
from hall.refusal import Rejected

HANDS_PER_GAME = 8  # seed C.1: a game is 8 hands
MAX_TEAMS = 80  # 40 tables: twice the seed's 20 regulation tables
MAX_NAME = 40
# A hand's points (docs/osga.md T1). The top is a true bound: a made moonshot, +24 (penalties only take away).
# There is no true bottom: a failed moonshot (−24) with its renege (−5) can take any number of 5-point penalties
# (rules 6, 13, one per fault). −999 is the sheet's three-digit cell, 195 penalties in one hand: no 20-minute
# game (C.1) holds that many, so it refuses only a typing mistake, never a hand that was played.
HAND_MIN, HAND_MAX = -999, 24


@dataclass(frozen=True, slots=True)
class Entry:
    """A registered district team: id ``T01``…, display name, its two players' names, checked in or not."""

    id: str
    name: str
    players: tuple[str, str]
    arrived: bool = True


@dataclass(frozen=True, slots=True)
class Sheet:
    """The score sheet of one table for the current game: each hand ``(ns, ew)``; ``closed`` once time is called."""

    hands: tuple[tuple[int, int], ...] = ()
    closed: bool = False

    @property
    def done(self) -> bool:
        """Whether the table's game is over: 8 hands entered, or time called (E21)."""
        return self.closed or len(self.hands) >= HANDS_PER_GAME

    @property
    def totals(self) -> tuple[int, int]:
        """Return the game points of N–S and E–W so far."""
        return sum(h[0] for h in self.hands), sum(h[1] for h in self.hands)


@dataclass(frozen=True, slots=True)
class Day:
    """The whole tournament day; ``tournament`` is None until the start."""

    secret: str = ""
    title: str = ""
    games_per_session: int = GAMES_PER_SESSION
    sessions: int = SESSIONS_PER_DAY
    entries: tuple[Entry, ...] = ()
    floater: tuple[str, str] = ("", "")
    tournament: Tournament | None = None
    sheets: tuple[Sheet, ...] = ()
    absent: tuple[str, ...] = ()  # teams not checked in at the start (seed A: in default)
    recoded: tuple[tuple[int, int], ...] = ()  # (game played, table) each time the desk gave a fresh code
    events: int = 0

    @property
    def phase(self) -> str:
        """``none`` (no day yet), ``registration``, ``running``, ``playoffs`` (medal ties left) or ``finished``."""
        if not self.secret:
            return "none"
        if self.tournament is None:
            return "registration"
        if not self.tournament.finished:
            return "running"
        return "playoffs" if playoffs_needed(standings(self.tournament)) else "finished"


def _text(value: object, field: str) -> str:
    """Return a cleaned name, or refuse it."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > MAX_NAME:
        raise Rejected("tournoi/bad_name", field=field, max=MAX_NAME)
    text = " ".join(value.split())
    if any(ord(c) < 32 for c in text):
        raise Rejected("tournoi/bad_name", field=field, max=MAX_NAME)
    return text


def _int(value: object, field: str, low: int, high: int) -> int:
    """Return an int within ``[low, high]`` (no bool, no float), or refuse it."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Rejected("tournoi/bad_number", field=field, low=low, high=high)
    return value


def _players(value: object) -> tuple[str, str]:
    """Return two players' names."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise Rejected("tournoi/bad_name", field="players", max=MAX_NAME)
    return _text(value[0], "players"), _text(value[1], "players")


def _entry(day: Day, team: object) -> Entry:
    """Return the registered team ``team``."""
    found = next((e for e in day.entries if e.id == team), None)
    if found is None:
        raise Rejected("tournoi/unknown_team", team=str(team)[:20])
    return found


def _running(day: Day) -> Tournament:
    """Return the tournament if games are being played, or refuse."""
    if day.tournament is None:
        raise Rejected("tournoi/not_started")
    if day.tournament.finished:
        raise Rejected("tournoi/day_over")
    return day.tournament


def _table(day: Day, value: object) -> int:
    """Return the 0-based index of table ``value`` (1-based) of the current game."""
    _running(day)
    return _int(value, "table", 1, len(day.sheets)) - 1


def _with_sheet(day: Day, index: int, sheet: Sheet) -> Day:
    """Return ``day`` with table ``index``'s sheet replaced."""
    return replace(day, sheets=day.sheets[:index] + (sheet,) + day.sheets[index + 1 :])


def _blank_sheets(tournament: Tournament) -> tuple[Sheet, ...]:
    """Return empty sheets for the next game (none once the day is over)."""
    return () if tournament.finished else tuple(Sheet() for _ in current_seating(tournament).tables)


def _start(day: Day) -> Day:
    """Close registration: the arrived teams play, a floater fills an odd count (E25)."""
    if day.tournament is not None:
        raise Rejected("tournoi/already_started")
    playing = [e for e in day.entries if e.arrived]
    if len(playing) < 2:
        raise Rejected("tournoi/too_few_teams", minimum=2)
    roster = [Team(e.id, (f"{e.id}-a", f"{e.id}-b")) for e in playing]
    tournament = new_tournament(roster, day.games_per_session, day.sessions)
    return replace(
        day,
        tournament=tournament,
        sheets=_blank_sheets(tournament),
        absent=tuple(e.id for e in day.entries if not e.arrived),
    )


def _hand(day: Day, data: Mapping[str, object]) -> Day:
    """Record (or correct) one hand at one table."""
    index = _table(day, data.get("table"))
    sheet = day.sheets[index]
    if sheet.closed:
        raise Rejected("tournoi/table_closed", table=index + 1)
    number = _int(data.get("hand"), "hand", 1, HANDS_PER_GAME)
    if number > len(sheet.hands) + 1:
        raise Rejected("tournoi/hand_out_of_order", table=index + 1, expected=len(sheet.hands) + 1)
    points = (_int(data.get("ns"), "ns", HAND_MIN, HAND_MAX), _int(data.get("ew"), "ew", HAND_MIN, HAND_MAX))
    hands = sheet.hands[: number - 1] + (points,) + sheet.hands[number:]
    return _with_sheet(day, index, replace(sheet, hands=hands))


def _next(day: Day) -> Day:
    """Record the game of every table and compute the movement (E22) or the next session's opening (E23)."""
    tournament = _running(day)
    waiting = [k + 1 for k, sheet in enumerate(day.sheets) if not sheet.done]
    if waiting:
        raise Rejected("tournoi/tables_not_done", tables=waiting)
    tournament = record_games(tournament, [sheet.totals for sheet in day.sheets])
    return replace(day, tournament=tournament, sheets=_blank_sheets(tournament))


def _default(day: Day, team: object) -> Day:
    """A team defaults: it leaves the standings and an unranked substitute pair takes its seats (seed A, E25)."""
    tournament = _running(day)
    entry = _entry(day, team)
    if entry.id in tournament.defaulted or entry.id in day.absent:
        raise Rejected("tournoi/already_defaulted", team=entry.id)
    return replace(day, tournament=default_team(tournament, entry.id))


def _playoff(day: Day, data: Mapping[str, object]) -> Day:
    """Record a playoff between two teams tied on ranking and game points, once every game is played (E24)."""
    if day.tournament is None or not day.tournament.finished:
        raise Rejected("tournoi/playoff_too_early")
    winner, loser = _entry(day, data.get("winner")).id, _entry(day, data.get("loser")).id
    rows = {row.team: row for row in standings(day.tournament)}
    if (
        winner == loser
        or winner not in rows
        or loser not in rows
        or (rows[winner].ranking, rows[winner].game_points) != (rows[loser].ranking, rows[loser].game_points)
    ):
        raise Rejected("tournoi/not_tied", winner=winner, loser=loser)
    return replace(day, tournament=record_playoff(day.tournament, winner, loser))


def _create(data: Mapping[str, object]) -> Day:
    """Return a new day."""
    secret = data.get("secret")
    if not isinstance(secret, str) or len(secret) < 16:
        raise Rejected("tournoi/bad_field", field="secret")
    title = _text(data.get("title") or "Tournoi OSGA", "title")
    games = _int(data.get("games_per_session", GAMES_PER_SESSION), "games_per_session", 1, 12)
    sessions = _int(data.get("sessions", SESSIONS_PER_DAY), "sessions", 1, 4)
    return Day(secret=secret, title=title, games_per_session=games, sessions=sessions)


def apply_event(day: Day, kind: str, data: Mapping[str, object]) -> Day:
    """Return the day after event ``kind`` with ``data``; raises :class:`~hall.refusal.Rejected` and changes nothing."""
    if not isinstance(data, Mapping):
        raise Rejected("tournoi/bad_field", field="data")
    if kind == "create":
        return replace(_create(data), events=day.events + 1)
    if not day.secret:
        raise Rejected("tournoi/no_day")
    return replace(_apply(day, kind, data), events=day.events + 1)


def _apply(day: Day, kind: str, data: Mapping[str, object]) -> Day:
    """Dispatch one event of an open day."""
    if (
        kind in ("register", "arrive", "absent", "floater", "start")
        and day.tournament is not None
        and kind != "floater"
    ):
        raise Rejected("tournoi/registration_closed")
    if kind == "register":
        name, players = _text(data.get("name"), "name"), _players(data.get("players"))
        if len(day.entries) >= MAX_TEAMS:
            raise Rejected("tournoi/too_many_teams", maximum=MAX_TEAMS)
        if any(e.name.casefold() == name.casefold() for e in day.entries):
            raise Rejected("tournoi/duplicate_team", name=name)
        arrived = data.get("arrived", True)
        if not isinstance(arrived, bool):
            raise Rejected("tournoi/bad_field", field="arrived")
        entry = Entry(f"T{len(day.entries) + 1:02d}", name, players, arrived)
        return replace(day, entries=day.entries + (entry,))
    if kind in ("arrive", "absent"):
        entry = _entry(day, data.get("team"))
        updated = replace(entry, arrived=kind == "arrive")
        return replace(day, entries=tuple(updated if e.id == entry.id else e for e in day.entries))
    if kind == "floater":
        return replace(day, floater=_players(data.get("players")))
    if kind == "start":
        return _start(day)
    if kind == "hand":
        return _hand(day, data)
    if kind in ("close", "reopen"):
        index = _table(day, data.get("table"))
        return _with_sheet(day, index, replace(day.sheets[index], closed=kind == "close"))
    if kind == "recode":
        index = _table(day, data.get("table"))
        return replace(day, recoded=day.recoded + ((games_played(day), index + 1),))
    if kind == "next":
        return _next(day)
    if kind == "default":
        return _default(day, data.get("team"))
    if kind == "playoff":
        return _playoff(day, data)
    raise Rejected("tournoi/unknown_event", kind=str(kind)[:20])


def replay(events: list[tuple[str, Mapping[str, object]]]) -> Day:
    """Return the day rebuilt from its events (each one was accepted when it was recorded)."""
    day = Day()
    for kind, data in events:
        day = apply_event(day, kind, data)
    return day


def games_played(day: Day) -> int:
    """How many games were played before the current one (it names the game a fresh code is for)."""
    t = day.tournament
    return t.session * t.games_per_session + t.game if t else 0
