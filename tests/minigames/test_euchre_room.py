"""A Bid Euchre room without the web: the hand as held, the referee's actions (journalled, replayed equal,
refused when they do not fit), and no view that shows another seat's hand or the deck."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hall.app.runtime import open_rooms
from hall.minigames.euchre.cards import DECK, LOW_NO_TRUMP, NO_TRUMP, SUITS, effective_suit, hand_order
from hall.minigames.euchre.officials import OFFICIAL_KINDS, official_is_legal, official_moves
from hall.minigames.euchre.state import EuchreState
from hall.minigames.lobby import Lobby, LobbySettings
from tests.helpers import raises_refusal

FAST = LobbySettings(bot_delay_s=0.0, takeover_s=10.0)
SILENT = 100.0  # a turn this long is taken over (each step a turn later than the last)


def euchre_room(lobby: Lobby, names=("Ana", "Bea"), options=None) -> tuple[str, list[str]]:
    code = lobby.open("euchre", options or {"hands": 2}).code
    tokens = [lobby.join(code, name)[2] for name in names]
    lobby.start(code)
    return code, tokens


def bots_until(lobby: Lobby, code: str, tokens: list[str], phase: str, limit: int = 500) -> None:
    """Let the bots play every seat (phones' seats included) until the engine is in ``phase``."""
    for turn in range(limit):
        if lobby.room(code).state.phase == phase:
            for token in tokens:
                lobby.seat_view(code, token)  # the phones are back (presence is not journalled)
            return
        assert lobby.step(code, SILENT * (turn + 1))  # a bot plays for a silent phone, as after a takeover
    raise AssertionError(f"never reached {phase}")


# ---------------------------------------------------------------- the hand as held
def test_hand_order_puts_trump_first_with_the_left_bower_below_the_right():
    hand = ("AS", "JD", "QH", "JH", "KC", "AH", "JS", "QD")
    assert hand_order(hand, "H") == ("JH", "JD", "AH", "QH", "KC", "QD", "AS", "JS")  # then ♣ ♦ ♠: colours alternate
    # the left bower (J♦ under hearts) is a heart; diamonds then hold only the queen
    assert [effective_suit(c, "H") for c in hand_order(hand, "H")][:4] == ["H"] * 4


def test_hand_order_before_trump_and_at_no_trump_alternates_colours_and_keeps_jacks_home():
    hand = ("JD", "AD", "QS", "JS", "KH", "AC")
    assert hand_order(hand, None) == ("QS", "JS", "KH", "AC", "AD", "JD")
    assert hand_order(hand, NO_TRUMP) == hand_order(hand, None)
    assert hand_order(hand, LOW_NO_TRUMP) == ("JS", "QS", "KH", "AC", "JD", "AD")  # low: J is the best


@settings(max_examples=200, deadline=None)
@given(cards=st.lists(st.sampled_from(DECK), min_size=1, max_size=8), denom=st.sampled_from(SUITS + (NO_TRUMP, None)))
def test_hand_order_is_a_permutation_grouped_by_effective_suit_trump_first(cards, denom):
    held = hand_order(cards, denom)
    assert sorted(held) == sorted(cards)
    suits = [effective_suit(c, denom) for c in held]
    groups = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
    assert len(groups) == len(set(groups))  # each suit in one block
    if denom in SUITS and denom in suits:
        assert suits[0] == denom


# ---------------------------------------------------------------- the referee's list
UNIVERSE = (
    [("penalty", t, r) for t in (0, 1, 2, -1) for r in ("out_of_turn", "exposed_card", "hesitation", "x")]
    + [("redeal", r) for r in ("exposed_card", "hesitation", "out_of_turn")]
    + [
        (k, s, d)
        for k in ("bid_out_of_turn", "insufficient_bid")
        for s in range(-1, 5)
        for d in (None,) + SUITS + (NO_TRUMP, LOW_NO_TRUMP, "X")
    ]
    + [("renege", s) for s in range(-1, 5)]
    + [("time",), ("time", 1)]
)


def test_official_moves_are_exactly_the_legal_ones_in_every_phase():
    lobby = Lobby(FAST, rng=random.Random(11))
    code, _ = euchre_room(lobby, options={"hands": 3})
    phases = set()
    now = 0.0
    while lobby.room(code).status == "playing":
        state: EuchreState = lobby.room(code).state
        listed = official_moves(state)
        assert {m[0] for m in listed} <= set(OFFICIAL_KINDS)
        assert set(listed) == {m for m in UNIVERSE if official_is_legal(state, m)}
        assert len(listed) == len(set(listed))
        phases.add(state.phase)
        now += SILENT
        lobby.step(code, now)  # a bot plays each seat, phones taken over
    assert {"bid", "play"} <= phases
    assert lobby.referee(code).moves == ()  # a finished game has no referee


# ---------------------------------------------------------------- the lobby's official action
def test_officials_are_refused_when_they_do_not_fit_and_change_nothing():
    lobby = Lobby(FAST, rng=random.Random(12))
    code = lobby.open("euchre", {"hands": 1}).code
    with raises_refusal("rooms/not_started"):
        lobby.official(code, ["time"], 0)
    lobo = lobby.open("lobo77").code
    with raises_refusal("rooms/no_officials"):
        lobby.official(lobo, ["time"], 0)
    lobby.join(code, "Ana")
    room = lobby.start(code)
    version, state = room.version, room.state
    assert state.phase == "bid"
    with raises_refusal("rooms/stale_version"):
        lobby.official(code, ["time"], version - 1)
    with raises_refusal("rooms/bad_version"):
        lobby.official(code, ["time"], "1")
    for bad in (
        ["renege", 0],
        ["penalty", 2, "hesitation"],
        ["play", "AS"],
        ["bid", 2, "H"],
        ["pass"],
        [],
        None,
        ["time", 1],
        "time",
        {"move": "time"},
        ["redeal", "nap"],
        "x" * 20_000,
    ):
        with raises_refusal("rooms/illegal_official"):
            lobby.official(code, bad, version)
    assert (lobby.room(code).version, lobby.room(code).state) == (version, state)
    lobby.close(code)
    with raises_refusal("rooms/room_closed"):
        lobby.official(code, ["time"], version)


def test_a_player_cannot_slip_an_official_action_through_the_moves():
    lobby = Lobby(FAST, rng=random.Random(13))
    code, tokens = euchre_room(lobby, names=("Ana", "Bea", "Cid", "Dan"))
    room = lobby.room(code)
    seat = room.to_move[0]
    with raises_refusal("rooms/illegal_move"):
        lobby.play(code, tokens[seat], ["penalty", 1, "hesitation"], room.version)
    with raises_refusal("rooms/illegal_move"):
        lobby.play(code, tokens[seat], ["time"], room.version)


def test_a_penalty_costs_five_and_a_redeal_deals_again_by_the_same_dealer():
    lobby = Lobby(FAST, rng=random.Random(14))
    code, _ = euchre_room(lobby)
    room = lobby.room(code)
    before = room.state
    room_version = room.version
    lobby.official(code, ["penalty", 1, "hesitation"], room_version)
    room = lobby.room(code)
    assert room.state.scores == (0, -5) and room.version == room_version + 1
    assert room.public["last_by"] == "official"
    lobby.official(code, ["redeal", "exposed_card"], room.version)
    after = lobby.room(code).state
    assert after.phase == "bid" and after.dealer == before.dealer and after.redeals == 1
    assert after.hands != before.hands  # the new deal is played and journalled
    assert lobby.room(code).version == room_version + 3  # the redeal, then the deal


def test_the_official_record_is_journalled_before_it_is_seen():
    seen: list[dict] = []

    def journal(record):
        if record["kind"] == "official":
            raise OSError("disk full")
        seen.append(record)

    lobby = Lobby(FAST, journal=journal, rng=random.Random(15))
    code, _ = euchre_room(lobby)
    match = lobby._state.rooms[code].live  # the match itself: its log is rolled back too
    before = (match.version, match.state, len(match.log))
    with pytest.raises(OSError):
        lobby.official(code, ["time"], match.version)
    assert (match.version, match.state, len(match.log)) == before


def test_official_actions_replay_equal_from_the_store(tmp_path):
    lobby, store = open_rooms(tmp_path, FAST)
    code, tokens = euchre_room(lobby, options={"hands": 3})
    lobby.official(code, ["penalty", 0, "out_of_turn"], lobby.room(code).version)
    lobby.official(code, ["redeal", "hesitation"], lobby.room(code).version)
    bots_until(lobby, code, tokens, "play")
    room = lobby.room(code)
    lobby.official(code, ["renege", room.to_move[0]], room.version)
    lobby.official(code, ["time"], lobby.room(code).version)
    records = [r["kind"] for r in store.records()]
    assert records.count("official") == 4
    store.close()
    again, store2 = open_rooms(tmp_path, FAST)
    room, copy = lobby.room(code), again.room(code)
    assert copy.state == room.state and copy.version == room.version
    assert copy.public == room.public
    views = [lobby._state.rooms[code].seat_view(s) for s in range(4)]  # the bots' seats have no token
    assert [again._state.rooms[code].seat_view(s) for s in range(4)] == views
    assert again.referee(code) == lobby.referee(code) and again.seat_view(code, tokens[1])["seat"] == 1
    store2.close()


def test_a_journal_with_an_official_that_no_longer_fits_does_not_replay():
    records: list[dict] = []
    lobby = Lobby(FAST, journal=records.append, rng=random.Random(16))
    code, _ = euchre_room(lobby)
    lobby.official(code, ["time"], lobby.room(code).version)
    forged = [*records, {"kind": "official", "code": code, "by": "official", "moves": [[1, ["time"]]]}]
    with raises_refusal("rooms/illegal_official"):
        Lobby(FAST, records=forged)


# ---------------------------------------------------------------- nothing hidden leaks
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 120),
    officials=st.lists(st.integers(0, 10**6), max_size=3),
    low=st.booleans(),
)
def test_no_view_holds_another_hand_or_the_deck(seed, steps, officials, low):
    rng = random.Random(seed)
    lobby = Lobby(FAST, rng=random.Random(seed))
    code = lobby.open("euchre", {"hands": 2, "low_no_trump": low}).code
    tokens = [lobby.join(code, f"P{i}")[2] for i in range(4)]
    room = lobby.start(code)
    at = sorted(rng.randrange(steps + 1) for _ in officials)
    for step in range(steps):
        if room.status != "playing":
            break
        while at and at[0] == step and lobby.referee(code).moves:
            at.pop(0)
            lobby.official(code, rng.choice(lobby.referee(code).moves), lobby.room(code).version)
        room = lobby.room(code)
        if room.status != "playing":
            break
        seat = room.to_move[0]
        lobby.play(code, tokens[seat], rng.choice(lobby.seat_view(code, tokens[seat])["legal"]), room.version)
        room = lobby.room(code)
    state: EuchreState = room.state
    public_room = room.public
    public, shown = public_room["view"], json.dumps(public_room)
    assert "my_hand" not in public and "my_discards" not in public
    for seat in range(4):
        view = lobby.seat_view(code, tokens[seat])
        own = set(view) - set(public)
        assert own <= {"seat", "my_hand", "my_suits", "my_discards", "name", "away", "version", "legal"}
        assert all(view[key] == public[key] for key in public if key != "seat")
        assert sorted(view["my_hand"]) == sorted(state.hands[seat])
        denom = state.contract.denom if state.contract else None
        assert view["my_suits"] == [effective_suit(c, denom) for c in view["my_hand"]]
        if "my_discards" in view:
            assert state.contract.seat == seat
        others = [c for s in range(4) if s != seat for c in state.hands[s]]
        shown_seat = json.dumps(view)
        for card in (
            set(others)
            - set(state.hands[seat])
            - set(view.get("my_discards", ()))
            - {c for t in state.played for _, c in t}
            - {c for _, c in state.trick}
        ):
            assert f'"{card}"' not in shown_seat  # no card of another hand in this view
    for seat in range(4):
        for card in set(state.hands[seat]) - {c for t in state.played for _, c in t} - {c for _, c in state.trick}:
            assert f'"{card}"' not in shown  # nor in the public room
    assert '"deal"' not in shown and "deck" not in shown
