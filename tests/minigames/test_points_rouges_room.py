"""The Loto Points Rouges room without the web: its options and refusals, racks that never leak, the journal
replay, and the solitaire hint's solver (``bounded_cover``) against a brute-force oracle."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hall.app.runtime import ROOMS_FILE, open_room_store, open_rooms
from hall.minigames.lobby import Lobby, LobbySettings
from hall.minigames.points_rouges.pieces import BOARD_MASKS, JOKER, PLACEMENTS, SHAPE_IDS, SHAPES, points_of
from hall.minigames.points_rouges.solver import bounded_cover
from hall.minigames.registry import get_game
from tests.helpers import raises_refusal

FAST = LobbySettings(bot_delay_s=0.0, takeover_s=10.0)


def table(players: int, people: int, seed: int = 1) -> tuple[Lobby, str, list[str]]:
    lobby = Lobby(FAST, rng=random.Random(seed))
    code = lobby.open("points-rouges", {"players": players}).code
    tokens = [lobby.join(code, f"P{i}")[2] for i in range(people)]
    lobby.start(code)
    return lobby, code, tokens


@pytest.mark.parametrize(
    "options",
    [
        {"players": 0},
        {"players": 5},
        {"players": "2"},
        {"players": 2.0},
        {"solitaire_max_swaps": -1},
        {"solitaire_max_swaps": 201},
        {"solitaire_max_swaps": True},
        {"jokers": 3},
    ],
)
def test_bad_options_are_refused_and_open_nothing(options):
    lobby = Lobby(FAST, rng=random.Random(1))
    with raises_refusal("rooms/bad_options"):
        lobby.open("points-rouges", options)
    assert lobby.listing() == []


def test_a_fifth_player_is_refused_and_a_solitaire_is_one_seat():
    lobby = Lobby(FAST, rng=random.Random(1))
    code = lobby.open("points-rouges", {"players": 2}).code
    for i in range(4):
        lobby.join(code, f"P{i}")
    with raises_refusal("rooms/room_full"):
        lobby.join(code, "Cinq")
    solo = lobby.open("points-rouges", {"players": 1}).code
    lobby.join(solo, "Lucie")
    room = lobby.start(solo)
    assert len(room.seats) == 1 and not room.seats[0].bot
    assert room.public["view"]["phase"] == "choose"


def test_moves_not_listed_are_refused_and_change_nothing():
    lobby, code, tokens = table(2, 2, seed=4)
    room = lobby.room(code)
    seat = room.to_move[0]
    view = lobby.seat_view(code, tokens[seat])
    before = (room.version, json.dumps(room.public), json.dumps(view))
    place = next(m for m in view["legal"] if m[0] == "place")
    letter = place[1]
    absent = next(s for s in SHAPE_IDS if s not in view["my_rack"])
    cells = list(points_of(PLACEMENTS[absent][0]))
    other = next(b for b in room.public["view"]["boards"] if b["letter"] != letter)["letter"]
    bad = [
        ["place", letter, [[absent, cells]]],  # a piece not on the rack
        ["place", other, place[2]] if ["place", other, place[2]] not in view["legal"] else ["pass"],
        ["place", letter, [[place[2][0][0], [99, 100]]]],  # off the lattice
        ["swap", view["my_rack"][0]],  # no voluntary swap while a piece fits (P9)
        ["pass"],
        ["choose", "C"],
        "place",
        None,
        {"place": letter},
    ]
    for move in bad:
        with raises_refusal("rooms/illegal_move"):
            lobby.play(code, tokens[seat], move, room.version)
    with raises_refusal("rooms/not_your_turn"):
        lobby.play(code, tokens[1 - seat], place, room.version)
    with raises_refusal("rooms/stale_version"):
        lobby.play(code, tokens[seat], place, room.version - 1)
    after = lobby.room(code)
    assert (after.version, json.dumps(after.public), json.dumps(lobby.seat_view(code, tokens[seat]))) == before
    lobby.play(code, tokens[seat], place, room.version)
    assert lobby.room(code).version > before[0]


def test_a_completion_sent_in_another_order_than_listed_is_refused():
    """Moves are compared with `legal` as canonical JSON: a phone must send the listed move itself."""
    lobby, code, tokens = table(1, 1, seed=2)
    lobby.play(code, tokens[0], ["choose", "F"], lobby.room(code).version)
    for _ in range(40):
        view = lobby.seat_view(code, tokens[0])
        completions = [m for m in view["legal"] if m[0] == "place" and len(m[2]) > 1]
        if completions:
            break
        lobby.play(code, tokens[0], next(m for m in view["legal"] if m[0] == "swap"), view["version"])
    else:
        pytest.skip("no completion within 40 swaps for this seed")
    move = completions[0]
    with raises_refusal("rooms/illegal_move"):
        lobby.play(code, tokens[0], ["place", move[1], list(reversed(move[2]))], view["version"])
    lobby.play(code, tokens[0], move, view["version"])
    room = lobby.room(code)
    assert room.status == "over" and room.public["outcome"]["winners"] == [0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(1, 4), steps=st.integers(0, 60))
def test_no_view_holds_another_rack_nor_the_pile_order(seed, players, steps):
    lobby, code, tokens = table(players, players, seed)
    room = lobby.room(code)
    rng = random.Random(seed)
    for _ in range(steps):
        if room.status != "playing":
            break
        seat = room.to_move[0]
        lobby.play(code, tokens[seat], rng.choice(lobby.seat_view(code, tokens[seat])["legal"]), room.version)
        room = lobby.room(code)
    state = room.state
    public_room = room.public
    public, shown = public_room["view"], json.dumps(public_room)
    assert "my_rack" not in public and "racks" not in public and "held" not in public
    assert public["pile"] == len(state.pile) and public["rack_sizes"] == [len(r) for r in state.racks]
    for seat in range(players):
        view = lobby.seat_view(code, tokens[seat])
        own = set(view) - set(public)
        mine = {"staged", "staged_on", "take_backs_left"}  # a figure begun: the mover's alone (P7c)
        assert own <= {"seat", "my_rack", "name", "away", "version", "legal"} | mine
        assert not mine & own or (seat == state.turn and players > 1 and state.phase == "play")
        assert all(view[key] == public[key] for key in public)  # the rest is the public table, no more
        assert view["my_rack"] == list(state.racks[seat])
        others = Counter(p for s, r in enumerate(state.racks) if s != seat for p in r)
        held = Counter(state.racks[seat])
        if not get_game("points-rouges").to_move(state) or seat not in room.to_move:
            assert view["legal"] == []
        for move in view["legal"]:  # moves use only the seat's own pieces
            if move[0] == "place":
                used = Counter(sid for sid, _ in move[2] if sid != JOKER or players == 1)
                assert not used - held, (move, held, others)
            elif move[0] == "swap":
                assert move[1] in held
    if len(state.pile) >= 2:
        assert json.dumps(list(state.pile))[1:-1] not in shown  # the pile's content is nowhere
    assert '"log"' not in shown and '"piece"' not in shown


def test_a_points_rouges_room_is_replayed_from_its_journal(tmp_path):
    store = open_room_store(tmp_path / ROOMS_FILE)
    lobby = Lobby(FAST, journal=store.append, rng=random.Random(7))
    code = lobby.open("points-rouges", {"players": 3}).code
    tokens = [lobby.join(code, n)[2] for n in ("Ana", "Bea")]
    room = lobby.start(code)
    for _ in range(12):
        if room.status != "playing":
            break
        seat = room.to_move[0]
        if seat < 2:
            lobby.play(code, tokens[seat], lobby.seat_view(code, tokens[seat])["legal"][0], room.version)
        else:
            assert lobby.step(code, 0.0)
        room = lobby.room(code)
    assert room.version > 12
    store.close()
    again, store2 = open_rooms(tmp_path, FAST)
    try:
        assert again.room(code).public == room.public
        views = [lobby._state.rooms[code].seat_view(s) for s in range(3)]  # the bot's seat has no token
        assert [again._state.rooms[code].seat_view(s) for s in range(3)] == views
    finally:
        store2.close()


# ---------------------------------------------------------------- the hint's solver against brute force
def oracle(remaining: int, rack: Counter, jokers: int) -> bool:
    """Whether some sub-multiset of the rack's pieces, each placed anywhere, covers ``remaining`` exactly."""
    need = bin(remaining).count("1")
    pieces = [sid for sid, n in rack.items() for _ in range(n)] + [JOKER] * jokers
    for size in range(1, len(pieces) + 1):
        for chosen in set(itertools.combinations(sorted(pieces), size)):
            if sum(1 if s == JOKER else len(SHAPES[s]) for s in chosen) != need:
                continue
            spots = [[m for m in PLACEMENTS[s] if m & remaining == m] for s in chosen]
            for combo in itertools.product(*spots):
                covered = 0
                for m in combo:
                    if covered & m:
                        break
                    covered |= m
                else:
                    if covered == remaining:
                        return True
    return False


@settings(max_examples=60, deadline=None)
@given(
    letter=st.sampled_from(["N", "L", "M"]),
    seed=st.integers(0, 1 << 30),
    size=st.integers(1, 5),
    covered=st.integers(0, 3),
)
def test_the_hint_agrees_with_brute_force_on_small_boards(letter, seed, size, covered):
    rng = random.Random(seed)
    points = list(points_of(BOARD_MASKS[letter]))
    remaining = BOARD_MASKS[letter]
    for p in rng.sample(points, covered):
        remaining &= ~(1 << p)
    rack = Counter(rng.choice(SHAPE_IDS) for _ in range(size))
    jokers = rng.choice([0, 0, 1, 2])
    expected = oracle(remaining, rack, jokers)
    found, cover = bounded_cover(remaining, rack, jokers)
    assert found is expected
    if found:
        assert cover is not None
        union = 0
        for sid, mask in cover:
            assert not union & mask and mask & remaining == mask
            union |= mask
        assert union == remaining
        used = Counter(s for s, _ in cover if s != JOKER)
        assert not used - rack and sum(s == JOKER for s, _ in cover) <= jokers


def test_the_hint_gives_up_within_its_budget():
    whole = BOARD_MASKS["A"]
    rack = Counter({sid: 3 for sid in SHAPE_IDS})
    assert bounded_cover(whole, rack, 0, max_nodes=5) == (None, None)
    assert bounded_cover(whole, rack, 0)[0] is True
    assert bounded_cover(BOARD_MASKS["N"], Counter(), 0) == (False, None)


def test_a_phone_back_after_its_takeover_does_not_wind_the_turn_s_clock_back():
    """One clock a turn (issue 22): a phone that lays pieces until its clock runs out, then comes back (a move of
    its own, or its page asking for its seat), is still played out by the bot one bot delay later."""
    lobby = Lobby(LobbySettings(bot_delay_s=1.5, takeover_s=30.0), rng=random.Random(3))
    code = lobby.open("points-rouges", {"players": 2}).code
    tokens = [lobby.join(code, name)[2] for name in ("Ana", "Bob")]
    mover = lobby.start(code, now=100.0).to_move[0]

    def lay(now: float, kind: str) -> None:
        view = lobby.seat_view(code, tokens[mover])
        move = next(m for m in view["legal"] if m[0] == kind)
        lobby.play(code, tokens[mover], move, view["version"], now=now)

    for now, kind in ((110.0, "add"), (120.0, "take_back"), (129.0, "add")):
        lay(now, kind)
        assert dict(lobby.due(now))[code] == 130.0
    assert not lobby.step(code, 130.0) and lobby.room(code).seats[mover].away  # taken over, the bot waits
    legal = lobby._state.rooms[code].legal(mover)  # (asking its seat would be coming back)
    lay(130.5, "add" if any(m[0] == "add" for m in legal) else "take_back")  # the phone is back
    assert not lobby.room(code).seats[mover].away and dict(lobby.due(130.5))[code] == 131.5
    lobby.seat_view(code, tokens[mover])  # its page asks for its seat
    while lobby.room(code).to_move == (mover,):  # the bot plays the turn out at once
        assert lobby.step(code, 131.5)
    room = lobby.room(code)
    assert room.public["last_by"] == "bot" and room.seats[mover].away


def test_the_public_view_says_which_board_arrived_since_the_last_completion():
    """The projector marks the board drawn to replace a completed one (« Nouveau plateau »): the view says which,
    so a projector that loads late (or missed an event) shows it too; it used to work it out by comparing each
    event with the one before (issue 23)."""
    lobby, code, _ = table(2, 0, seed=5)  # two bots: every move is theirs
    view = lobby.room(code).public["view"]
    assert view["arrived"] is None and len(view["boards"]) == 3  # the first boards are not "new"
    completions, seen = 0, []
    while lobby.room(code).status == "playing" and lobby.step(code, 0.0):
        before, view = view, lobby.room(code).public["view"]
        if len(view["completed"]) > len(before["completed"]):
            completions += 1
            drawn = [b["letter"] for b in view["boards"] if b["letter"] not in [o["letter"] for o in before["boards"]]]
            assert view["arrived"] == (drawn[0] if drawn else None)
            seen.append(view["arrived"])
        else:
            assert view["arrived"] == before["arrived"]  # it stays new until the next completion
    assert completions >= 2 and any(seen)


def test_a_silent_seat_is_said_away_as_soon_as_the_bot_takes_it_over():
    """Issue 26: a phone kept saying « À vous ! » while the bot played its turn: the room is published with the
    seat away the moment its clock runs out, not only after the bot's move (a bot delay later)."""
    from hall.minigames.lobby_news import RoomChanged

    lobby = Lobby(LobbySettings(bot_delay_s=1.5, takeover_s=30.0), rng=random.Random(3))
    code = lobby.open("points-rouges", {"players": 2}).code
    for name in ("Ana", "Bob"):
        lobby.join(code, name)
    mover = lobby.start(code, now=100.0).to_move[0]
    news: list = []
    lobby.subscribe(news.append)
    assert not lobby.step(code, 129.0) and news == []  # still its turn: nothing said
    assert not lobby.step(code, 130.0)  # taken over; the bot waits its delay
    said = [n.room for n in news if isinstance(n, RoomChanged)]
    assert said and said[-1].seats[mover].away and said[-1].to_move == (mover,)
    assert not lobby.step(code, 130.5) and len(news) == 1  # said once, not at every wake
