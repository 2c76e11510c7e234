"""Lobo 77 read like RULES §3: one scenario per line O1–O16, then views, refusals and the bot."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from hall.minigames.base import CHANCE
from hall.minigames.lobo77.rules import (
    Lobo77Options,
    Lobo77State,
    apply,
    deck,
    is_legal,
    legal_moves,
    outcome,
    sort_key,
    to_move,
    view,
)
from hall.minigames.match import Match
from hall.minigames.registry import get_game
from hall.refusal import Rejected

GAME = get_game("lobo77")

FILLER = "2 3 4 5 6 7 8 9 " * 3  # a draw pile that never runs dry in a scenario


def table(
    *hands: str,
    total: int = 0,
    turn: int = 0,
    chips: tuple | None = None,
    out: tuple | None = None,
    draw: str = FILLER,
    discard: str = "9",
    to_play: int = 1,
    direction: int = 1,
    opener: int = 0,
    options: Lobo77Options = Lobo77Options(),
) -> Lobo77State:
    """A table in the middle of a round, hands written like the cards ("10 9 0 rev x2")."""
    n = len(hands)
    return Lobo77State(
        options=options,
        players=n,
        chips=chips or (3,) * n,
        out=out or (False,) * n,
        hands=tuple(tuple(sorted(h.split(), key=sort_key)) for h in hands),
        draw=tuple(draw.split()),
        discard=tuple(discard.split()),
        total=total,
        turn=turn,
        direction=direction,
        to_play=to_play,
        phase="play",
        opener=opener,
        round=1,
    )


def lay(state: Lobo77State, *cards: str) -> Lobo77State:
    """The state after the players on turn lay ``cards`` one after the other (each must be legal)."""
    for card in cards:
        seat = state.turn
        assert is_legal(state, seat, ("play", card)), (card, legal_moves(state, seat))
        state = apply(state, seat, ("play", card))
    return state


def dealt(players: int, order: list[str], options: Lobo77Options = Lobo77Options()) -> Lobo77State:
    """A game just dealt from ``order`` (the top of the deck first)."""
    return apply(GAME.setup(players, options), CHANCE, ("deal", tuple(order)))


def test_O1_deck_is_the_seed_55_cards_and_76_is_an_option():
    cards = Counter(deck(Lobo77Options()))
    assert sum(cards.values()) == 55
    assert (cards["0"], cards["-10"], cards["x2"], cards["rev"], cards["10"]) == (4, 4, 4, 5, 8)
    assert all(cards[str(d)] == 1 for d in (11, 22, 33, 44, 55, 66))
    assert all(cards[str(v)] == 3 for v in range(2, 10))
    with_76 = Counter(deck(Lobo77Options(card_76=True)))
    assert sum(with_76.values()) == 56 and with_76["76"] == 1 and "76" not in cards


def test_O2_five_cards_in_hand_and_a_card_drawn_after_each_play():
    order = list(deck(Lobo77Options()))
    state = dealt(2, order)
    assert [len(h) for h in state.hands] == [5, 5]
    top = state.draw[0]
    after = apply(state, 0, legal_moves(state, 0)[-1])
    assert len(after.hands[0]) == 5 and top in after.hands[0] and after.draw == state.draw[1:]


def test_O3_announcing_77_or_more_ends_the_round_and_costs_one_chip():
    state = lay(table("10 2 3 4 5", "2 3 4 5 6", total=67), "10")
    assert state.total == 77 and state.chips == (2, 3) and state.phase == "deal"
    state = lay(table("9 2 3 4 5", "2 3 4 5 6", total=70), "9")
    assert state.total == 79 and state.chips == (2, 3) and state.phase == "deal"
    state = lay(table("8 2 3 4 5", "2 3 4 5 6", total=68), "8")
    assert state.total == 76 and state.chips == (3, 3) and state.phase == "play"


def test_O4_only_11_to_66_are_doublets_not_0_nor_negatives():
    state = lay(table("3 2 4 5 6", "2 3 4 5 6", total=19), "3")
    assert state.total == 22 and state.chips == (2, 3) and state.phase == "play" and state.turn == 1
    assert lay(table("-10 2 3 4 5", "2 3 4 5 6", total=10), "-10").chips == (3, 3)  # 0
    assert lay(table("-10 2 3 4 5", "2 3 4 5 6", total=-1), "-10").chips == (3, 3)  # −11
    assert lay(table("10 2 3 4 5", "2 3 4 5 6", total=67), "10").chips == (2, 3)  # 77: one chip only


def test_O5_minus_ten_landing_on_a_doublet_costs_a_chip():
    state = lay(table("-10 2 3 4 5", "2 3 4 5 6", total=32), "-10")
    assert state.total == 22 and state.chips == (2, 3)


@pytest.mark.parametrize("card", ["0", "rev", "x2"])
def test_O6_repeating_a_doublet_is_free_unless_the_flag_says_so(card):
    hands = (f"{card} 2 3 4 5", "2 3 4 5 6")
    assert lay(table(*hands, total=22), card).chips == (3, 3)
    strict = Lobo77Options(repeat_double_costs_chip=True)
    assert lay(table(*hands, total=22, options=strict), card).chips == (2, 3)


def test_O7_double_play_checks_after_each_card():
    state = lay(table("x2 2 3 4 5", "3 11 7 8 9", "2 3 4 5 6", total=19), "x2")
    assert state.turn == 1 and state.to_play == 2 and state.total == 19
    state = lay(state, "3")  # 22: a chip, and the same player lays again
    assert state.chips == (3, 2, 3) and state.turn == 1 and state.to_play == 1
    state = lay(state, "11")  # 33: a second chip
    assert state.chips == (3, 1, 3) and state.turn == 2 and state.to_play == 1
    assert len(state.hands[1]) == 5  # two cards laid, two drawn back


def test_O7_first_card_of_a_double_may_not_be_x2_but_the_second_may_and_never_stacks():
    state = lay(table("x2 2 3 4 5", "x2 10 7 8 9", "2 3 4 5 6", total=5), "x2")
    assert ("play", "x2") not in legal_moves(state, 1)
    state = lay(state, "10", "x2")
    assert state.turn == 2 and state.to_play == 2  # exactly two, not four


def test_O7_round_ends_at_once_when_the_first_card_reaches_77():
    state = lay(table("x2 2 3 4 5", "10 2 7 8 9", total=70), "x2", "10")
    assert state.phase == "deal" and state.chips == (3, 2) and state.hands[1] == ("2", "7", "8", "9")


def test_O8_reverse_gives_the_turn_back_to_the_previous_player():
    state = lay(table("rev 2 3 4 5", "2 3 4 5 6", "2 3 4 5 6", total=30), "rev")
    assert state.turn == 2 and state.total == 30 and state.direction == -1
    state = lay(state, "2")
    assert state.turn == 1


def test_O8_in_a_double_play_the_final_direction_decides():
    state = lay(table("2 3 4 5 6", "x2 2 3 4 5", "rev 2 7 8 9", "2 3 4 5 6", turn=1, total=10), "x2")
    assert state.turn == 2 and state.to_play == 2
    state = lay(state, "rev", "2")
    assert state.turn == 1  # reversed once: back the other way
    state = lay(table("2 3 4 5 6", "x2 2 3 4 5", "rev rev 8 9 3", "2 3 4 5 6", turn=1, total=10), "x2", "rev", "rev")
    assert state.turn == 3  # reversed twice: on as before


def test_O9_reverse_with_two_players_is_a_pass():
    state = lay(table("rev 2 3 4 5", "2 3 4 5 6", total=40), "rev")
    assert state.turn == 1 and state.total == 40
    state = lay(state, "2")
    assert state.turn == 0 and state.total == 42


def test_O10_a_player_who_loses_the_last_chip_swims_and_the_next_loss_eliminates():
    state = lay(table("3 2 4 5 6", "2 4 5 6 7", "2 3 4 5 6", chips=(1, 3, 3), total=19), "3")
    assert state.chips[0] == 0 and not state.out[0] and view(state, None)["players"][0]["swimming"]
    state = lay(table("3 2 4 5 6", "2 4 5 6 7", "2 3 4 5 6", chips=(0, 3, 3), total=19), "3")
    assert state.out[0] and not view(state, None)["players"][0]["swimming"]


def test_O11_an_eliminated_swimmer_leaves_at_once_and_play_goes_on():
    state = lay(
        table("3 2 4 5 6", "2 4 5 6 7", "2 3 7 8 9", chips=(0, 3, 3), total=19, direction=-1, draw="10 10"), "3"
    )
    assert state.out[0] and state.hands[0] == ()
    assert state.draw == ("10", "10", "2", "4", "5", "6")  # the hand goes under the draw pile
    assert state.turn == 2 and state.phase == "play" and state.total == 22
    final = lay(table("3 2 4 5 6", "2 4 5 6 7", chips=(0, 3), total=19), "3")
    assert outcome(final).winners == (1,) and final.phase == "over"


def test_O12_next_round_is_opened_by_the_next_seat_skipping_the_eliminated():
    state = lay(table("10 2 3 4 5", "2 3 4 5 6", "2 3 4 5 6", out=(False, True, False), total=70, opener=0), "10")
    assert state.phase == "deal" and state.opener == 2
    order = list(deck(Lobo77Options()))
    state = apply(state, CHANCE, ("deal", tuple(order)))
    assert state.turn == 2 and state.hands[1] == () and [len(h) for h in state.hands] == [5, 0, 5]
    assert Counter(state.hands[2]) == Counter(order[:5]) and state.total == 0 and state.direction == 1


def test_O13_empty_draw_pile_reshuffles_the_discard_pile_but_its_top_card():
    state = table("2 3 4 5 6", "2 3 4 5 6", total=10, draw="", discard="7 8 9 10")
    state = lay(state, "2")
    assert state.phase == "shuffle" and to_move(state) == (CHANCE,) and state.owed == (0, 1)
    state = apply(state, CHANCE, ("shuffle", ("10", "7", "9", "8")))
    assert state.discard == ("2",) and state.hands[0] == ("3", "4", "5", "6", "10")
    assert state.draw == ("7", "9", "8") and state.phase == "play" and state.turn == 1
    with pytest.raises(ValueError):
        apply(lay(table("2 3", "4", total=0, draw="", discard="7 8"), "2"), CHANCE, ("shuffle", ("2", "7", "8")))


def test_O14_a_player_must_play_even_when_every_card_loses():
    state = table("10 9 8 11 66", "2 3 4 5 6", total=70)
    assert {m[1] for m in legal_moves(state, 0)} == {"8", "9", "10", "11", "66"}
    assert not is_legal(state, 0, ("pass",)) and not is_legal(state, 0, ("play", "0"))


@pytest.mark.parametrize("card, total", [("-10", -10), ("x2", 0), ("rev", 0), ("0", 0), ("7", 7)])
def test_O15_any_card_may_open_a_round(card, total):
    order = list(deck(Lobo77Options()))
    order.remove(card)
    state = dealt(2, [card] + order)
    state = apply(state, 0, ("play", card))
    assert state.total == total and state.chips == (3, 3) and state.turn == 1
    assert state.to_play == (2 if card == "x2" else 1)


def test_O16_two_to_eight_players_with_three_chips_each():
    assert (GAME.min_players, GAME.max_players) == (2, 8)
    assert sum(GAME.setup(8, Lobo77Options()).chips) == 24
    for players in (1, 9):
        with pytest.raises(Rejected) as refused:
            Match(GAME, players)
        assert refused.value.code == "bad_player_count"


def test_game_is_won_by_the_last_player_in():
    state = lay(table("9 2 3 4 5", "2 3 4 5 6", chips=(0, 2), total=70), "9")
    result = outcome(state)
    assert result.winners == (1,) and result.scores == (-1.0, 2.0) and to_move(state) == ()


def _lists(value):
    """Every list inside a JSON-like value."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _lists(item)
    elif isinstance(value, list):
        yield value
        for item in value:
            yield from _lists(item)


def test_views_show_only_the_own_hand_and_never_the_draw_pile_or_rng():
    match = Match(GAME, 3, rng=random.Random(5))
    state = match.state
    public = match.view(None)
    assert "hand" not in public and json.dumps(public)
    hidden = [list(state.draw[:k]) for k in range(1, len(state.draw) + 1)]
    for seat in range(3):
        mine = match.view(seat)
        json.dumps(mine)
        assert mine["hand"] == list(state.hands[seat])
        others = [list(state.hands[s]) for s in range(3) if s != seat]
        assert not any(lst in others or lst in hidden for lst in _lists(mine))
        assert "rng" not in json.dumps(mine).lower()


def test_match_refuses_out_of_turn_illegal_stale_and_finished_moves():
    match = Match(GAME, 2, rng=random.Random(3))
    card = match.state.hands[0][0]
    missing = next(c for c in deck(Lobo77Options()) if c not in match.state.hands[0])
    for seat, move, version, code in [
        (1, ("play", match.state.hands[1][0]), None, "not_your_turn"),
        (0, ("play", missing), None, "illegal_move"),
        (0, ("play", card), match.version - 1, "stale_version"),
    ]:
        with pytest.raises(Rejected) as refused:
            match.play(seat, move, version)
        assert refused.value.code == code
    match.state = lay(table("9 2 3 4 5", "2 3 4 5 6", chips=(0, 2), total=70), "9")
    with pytest.raises(Rejected) as refused:
        match.play(1, ("play", "2"))
    assert refused.value.code == "game_over"


def test_moves_in_json_list_form_are_accepted():
    state = table("2 3 4 5 6", "2 3 4 5 6")
    assert is_legal(state, 0, ["play", "2"]) and apply(state, 0, ["play", "2"]).total == 2


def test_bot_dodges_a_doublet_and_77_when_it_can():
    bot = GAME.bots["default"]
    for _ in range(5):
        rng = random.Random(_)
        assert bot(table("3 10 0 5 6", "2 3 4 5 6", total=19), 0, rng) != ("play", "3")  # 22
        assert bot(table("10 9 8 0 11", "2 3 4 5 6", total=69), 0, rng) == ("play", "0")  # all else loses


def test_bot_keeps_its_safe_cards_while_a_number_is_safe():
    bot = GAME.bots["default"]
    move = bot(table("0 -10 rev x2 4", "2 3 4 5 6", total=30), 0, random.Random(1))
    assert move == ("play", "4")


def test_bot_plans_both_cards_of_a_double_play():
    # 60: laying 6 first would be a chip (66); -10 then 10 stays at 60 with no loss.
    bot = GAME.bots["default"]
    state = table("2 3 4 5 6", "6 -10 10 8 9", turn=1, total=60, to_play=2)
    first = bot(state, 1, random.Random(0))
    assert first != ("play", "6")
    assert lay(state, first[1]).chips == (3, 3)


def test_O11_the_card_of_an_eliminated_player_still_takes_effect():
    strict = Lobo77Options(repeat_double_costs_chip=True)
    state = lay(table("x2 2 3 4 5", "2 4 5 6 7", "2 3 7 8 9", chips=(0, 3, 3), total=22, options=strict), "x2")
    assert state.out[0] and state.turn == 1 and state.to_play == 2
