"""Rooms without the web: seats, tokens, bots, takeover, the journal before the change, replay, and no leak."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hall.app.runtime import open_room_store, open_rooms
from hall.minigames.lobby import Lobby, LobbySettings
from hall.minigames.registry import get_game
from hall.minigames.table import CODE_LETTERS, clean_name, move_key
from tests.helpers import raises_refusal

FAST = LobbySettings(bot_delay_s=0.0, takeover_s=10.0)


def seat_moves(lobby: Lobby, code: str, token: str, now: float = 0.0, limit: int = 10_000) -> None:
    """Play the seat's first legal move whenever it is on turn, bots otherwise, to the end of the game."""
    seat = lobby.seat_view(code, token)["seat"]
    for _ in range(limit):
        room = lobby.room(code)
        if room.status != "playing":
            return
        if seat in room.to_move:
            lobby.play(code, token, lobby.seat_view(code, token)["legal"][0], room.version, now)
        else:
            assert lobby.step(code, now)
    raise AssertionError("no end")


def test_a_room_code_is_four_unambiguous_letters():
    lobby = Lobby(FAST, rng=random.Random(1))
    codes = {lobby.open("lobo77").code for _ in range(10)}
    assert len(codes) == 10
    assert all(len(c) == 4 and set(c) <= set(CODE_LETTERS) for c in codes)
    assert not set("BGIOQSZ018") & set(CODE_LETTERS)
    assert lobby.room(next(iter(codes)).lower()).code in codes


@pytest.mark.parametrize(
    "raw, name", [("  Émile  ", "Émile"), ("E\u0301mile", "Émile"), ("Jean  Paul", "Jean Paul"), ("x" * 20, "x" * 20)]
)
def test_names_are_trimmed_and_nfc(raw, name):
    assert clean_name(raw) == name


@pytest.mark.parametrize("raw", ["", "   ", "x" * 21, "Bob\x00", "a\u202eb", "tab\there", None, 5, ["Bob"]])
def test_bad_names_are_refused(raw):
    with raises_refusal("rooms/bad_name"):
        clean_name(raw)


def test_join_start_fills_with_bots_and_a_whole_game_ends():
    lobby = Lobby(FAST, rng=random.Random(2))
    code = lobby.open("lobo77").code
    _, seat, token = lobby.join(code, "Émile")
    assert seat == 0 and len(token) >= 20
    room = lobby.start(code)
    assert [s.bot for s in room.seats] == [False, True, True, True]  # Lobo 77 fills to 4 by default
    assert room.version >= 1  # the deal is a move
    seat_moves(lobby, code, token)
    room = lobby.room(code)
    assert room.status == "over" and room.public["outcome"]["winner_names"]


def test_linotte_is_two_seats_and_refuses_a_third():
    lobby = Lobby(FAST)
    code = lobby.open("linotte").code
    lobby.join(code, "Ana")
    lobby.join(code, "Bea")
    with raises_refusal("rooms/room_full"):
        lobby.join(code, "Cid")
    room = lobby.start(code)
    assert len(room.seats) == 2 and not any(s.bot for s in room.seats)


def test_refusals_change_nothing():
    lobby = Lobby(FAST, rng=random.Random(3))
    code = lobby.open("lobo77", {"players": 2}).code
    _, _, token = lobby.join(code, "Ana")
    with raises_refusal("rooms/not_started"):
        lobby.play(code, token, ["play", "2"], 0)
    room = lobby.start(code)
    with raises_refusal("rooms/already_started"):
        lobby.join(code, "Late")
    if 0 not in room.to_move:
        lobby.step(code, 0.0)
    version = lobby.room(code).version
    legal = lobby.seat_view(code, token)["legal"]
    with raises_refusal("rooms/stale_version"):
        lobby.play(code, token, legal[0], version - 1)
    with raises_refusal("rooms/bad_token"):
        lobby.play(code, "x" * 24, legal[0], version)
    for bad in ([], (), {}, "", ["play"], ["play", "99"], ["deal", []], [[[[]]]], "x" * 20_000, 1e308, None):
        with raises_refusal("rooms/illegal_move"):
            lobby.play(code, token, bad, version)
    assert lobby.room(code).version == version
    lobby.play(code, token, legal[0], version)
    assert lobby.room(code).version > version


def test_options_are_checked():
    lobby = Lobby(FAST)
    for bad in ({"players": 9}, {"players": "4"}, {"chips": 0}, {"colour": 1}, {"bot": "evil"}, [1]):
        with raises_refusal("rooms/bad_options"):
            lobby.open("lobo77", bad)
    with raises_refusal("rooms/unknown_game"):
        lobby.open("chess")
    for game, bad in (
        ("euchre", {"players": 4}),
        ("euchre", {"hands": 0}),
        ("euchre", {"all_pass": "x"}),
        ("points-rouges", {"players": 5}),
        ("points-rouges", {"players": 0}),
        ("linotte", {"players": 2}),
    ):
        with raises_refusal("rooms/bad_options"):
            lobby.open(game, bad)
    assert lobby.open("euchre").table_size == 4
    assert lobby.open("points-rouges", {"players": 1}).table_size == 1
    assert lobby.open("linotte").table_size == 2


def test_max_rooms_and_disabled_games():
    lobby = Lobby(LobbySettings(max_rooms=2))
    a = lobby.open("lobo77").code
    lobby.open("linotte")
    with raises_refusal("rooms/too_many_rooms"):
        lobby.open("lobo77")
    lobby.close(a)
    lobby.open("lobo77")
    lobby.set_enabled("linotte", False)
    with raises_refusal("rooms/game_disabled"):
        lobby.open("linotte")


def test_a_silent_phone_is_taken_over_until_it_returns():
    lobby = Lobby(LobbySettings(bot_delay_s=0.0, takeover_s=10.0), rng=random.Random(4))
    code = lobby.open("linotte").code
    _, _, t0 = lobby.join(code, "Ana")
    _, _, t1 = lobby.join(code, "Bea")
    room = lobby.start(code, now=100.0)
    on_turn = room.to_move[0]
    assert not lobby.step(code, 109.9)  # not silent long enough
    assert lobby.step(code, 110.0)  # a bot plays for the silent seat
    assert lobby.room(code).seats[on_turn].away
    lobby.seat_view(code, (t0, t1)[on_turn])  # the phone speaks again
    assert not lobby.room(code).seats[on_turn].away


def test_the_journal_gets_each_change_before_it_is_seen():
    seen: list[dict] = []

    def journal(record):
        if record["kind"] == "moves" and len(seen) > 5:
            raise OSError("disk full")
        seen.append(record)

    lobby = Lobby(FAST, journal=journal, rng=random.Random(5))
    code = lobby.open("lobo77", {"players": 2}).code
    _, _, token = lobby.join(code, "Ana")
    room = lobby.start(code)
    match = lobby._state.rooms[code].live  # the match itself: its log is rolled back too
    while len(seen) <= 5 and room.status == "playing":
        if 0 in room.to_move:
            lobby.play(code, token, lobby.seat_view(code, token)["legal"][0], room.version)
        else:
            lobby.step(code, 0.0)
        room = lobby.room(code)
    before = (room.version, room.state, len(match.log))
    with pytest.raises(OSError):
        if 0 in room.to_move:
            lobby.play(code, token, lobby.seat_view(code, token)["legal"][0], room.version)
        else:
            lobby.step(code, 0.0)
    room = lobby.room(code)
    assert (room.version, room.state, len(match.log)) == before


@pytest.mark.parametrize("game", ["lobo77", "linotte", "euchre", "points-rouges"])
def test_replaying_the_store_gives_the_same_rooms(tmp_path, game):
    """The hall deals, rolls and shuffles from ``secrets.SystemRandom`` (ARCHITECTURE; issue 22: the rooms used
    ``random.Random``), a generator nobody can seed or rewind: every outcome is a journalled move, and the replay
    gives the same rooms."""
    lobby, store = open_rooms(tmp_path, FAST)
    assert type(lobby.rng) is random.SystemRandom
    code = lobby.open(game).code
    _, _, token = lobby.join(code, "Ana")
    room = lobby.start(code)
    assert lobby._state.rooms[code].live._rng is lobby.rng
    for _ in range(60):
        if room.status != "playing":
            break
        if 0 in room.to_move:
            lobby.play(code, token, lobby.seat_view(code, token)["legal"][-1], room.version)
        else:
            lobby.step(code, 0.0)
        room = lobby.room(code)
    lobby.show("game", code)
    store.close()
    again, store2 = open_rooms(tmp_path, FAST)
    copy = again.room(code)
    assert copy.version == room.version and copy.state == room.state
    assert copy.public == room.public and again.seat_view(code, token) == lobby.seat_view(code, token)
    assert again.seat_view(code, token)["seat"] == 0 and again.screen() == {"show": "game", "code": code}
    store2.close()


def test_the_store_never_holds_a_token(tmp_path):
    lobby, store = open_rooms(tmp_path, FAST)
    code = lobby.open("lobo77").code
    _, _, token = lobby.join(code, "Ana")
    store.close()
    assert token.encode() not in (tmp_path / "games.sqlite").read_bytes()
    assert all(token not in json.dumps(r) for r in open_room_store(tmp_path / "games.sqlite").records())


# ---------------------------------------------------------------- any JSON at the engines and the room
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=20,
)
EDGE = [
    [],
    (),
    {},
    "",
    [[]],
    {"a": 1},
    ["place"],
    ["place", -1],
    ["place", 10**9],
    ["place", 1e308],
    ["keep"],
    ["keep", "abc", None],
    ["keep", [1e308], None],
    ["place", float("inf")],
    "x" * 20_000,
]


def deep(n: int):
    value: list = []
    for _ in range(n):
        value = [value]
    return value


@pytest.mark.parametrize("name", ["lobo77", "linotte", "points-rouges"])
def test_engines_say_false_to_any_json(name):
    game = get_game(name)
    from hall.minigames.match import Match

    match = Match(game, 2, rng=random.Random(7))
    seat = game.to_move(match.state)[0]
    for move in EDGE + [deep(1000)]:
        assert game.check_legal(match.state, seat, move) is False


@pytest.mark.parametrize("name", ["lobo77", "linotte", "points-rouges"])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(move=JSON)
def test_engines_never_raise_on_arbitrary_json(name, move):
    game = get_game(name)
    from hall.minigames.match import Match

    match = Match(game, 2, rng=random.Random(8))
    seat = game.to_move(match.state)[0]
    legal = {move_key(m) for m in game.legal_moves(match.state, seat)}
    assert game.check_legal(match.state, seat, move) == (move_key(move) in legal)


def test_points_rouges_checks_the_cell_range_before_the_mask():
    import tracemalloc

    game = get_game("points-rouges")
    from hall.minigames.match import Match

    match = Match(game, 2, rng=random.Random(9))
    seat = game.to_move(match.state)[0]
    tracemalloc.start()
    for cell in (-1, 10**9, 1 << 40):
        assert game.check_legal(match.state, seat, ["place", "A", [["1", [cell]]]]) is False
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 5_000_000


# ---------------------------------------------------------------- nothing hidden leaks
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 8), steps=st.integers(0, 150))
def test_no_view_holds_another_hand_or_the_pile_order(seed, players, steps):
    lobby = Lobby(FAST, rng=random.Random(seed))
    code = lobby.open("lobo77", {"players": players}).code
    tokens = [lobby.join(code, f"P{i}")[2] for i in range(players)]
    room = lobby.start(code)
    for _ in range(steps):
        if room.status != "playing":
            break
        seat = room.to_move[0]
        lobby.play(code, tokens[seat], lobby.seat_view(code, tokens[seat])["legal"][0], room.version)
        room = lobby.room(code)
    state = room.state
    public_room = room.public
    public, shown = public_room["view"], json.dumps(public_room)
    assert "hand" not in public and "playable" not in public
    for seat in range(players):
        view = lobby.seat_view(code, tokens[seat])
        own = set(view) - set(public)
        assert own <= {"seat", "hand", "playable", "name", "away", "version", "legal"}
        assert all(view[key] == public[key] for key in public)  # the rest is the public table, no more
        assert view["hand"] == list(state.hands[seat])
        assert (
            all(("play", card) in [tuple(m) for m in view["legal"]] for card in view["playable"]) or not view["legal"]
        )
        assert all(move[1] in state.hands[seat] for move in view["legal"])
    if len(state.draw) >= 2:
        assert json.dumps(list(state.draw))[1:-1] not in shown  # the pile's order is nowhere
    assert '"deal"' not in shown and '"log"' not in shown
