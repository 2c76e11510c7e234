"""Bid Euchre scenarios, one per line of RULES §2 (E1–E19), from given deals."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hall.minigames.base import CHANCE
from hall.minigames.euchre.cards import DECK, effective_suit, legal_follows, power, trick_winner, trump_rank
from hall.minigames.euchre.rules import apply, is_legal, legal_moves, outcome, setup, to_move
from hall.minigames.euchre.state import CALL1, CALL2, MOON, Contract, EuchreOptions, EuchreState, hand_points
from hall.minigames.match import Match
from hall.minigames.registry import get_game
from hall.refusal import Rejected

# Seat 0 holds the top hearts, seat 1 spades, seat 2 diamonds (and the two JS), seat 3 all the clubs.
GAME = get_game("euchre")
STANDARD = ("JH JH JD AH AH KH KH QH", "JD QH AS AS KS KS QS QS", "AD AD KD KD QD QD JS JS", "JC JC QC QC KC KC AC AC")


def deck_for(hands, dealer: int = 0) -> tuple[str, ...]:
    """The deck order that deals ``hands`` (seat order) one card at a time from the dealer's left."""
    cards = [h.split() for h in hands]
    return tuple(cards[(dealer + 1 + i) % 4][i // 4] for i in range(32))


def dealt(hands=STANDARD, dealer: int = 0, **options) -> EuchreState:
    """A fresh game after the chance move that deals ``hands``."""
    state = setup(4, EuchreOptions(first_dealer=dealer, **options))
    return apply(state, CHANCE, deck_for(hands, dealer))


def run(state: EuchreState, *moves) -> EuchreState:
    """Apply ``moves`` in turn order, each checked legal for the seat to move."""
    for move in moves:
        seat = to_move(state)[0]
        assert is_legal(state, seat, move), (seat, move, state.phase)
        state = apply(state, seat, move)
    return state


def in_play(hands: dict[int, str], contract: Contract, turn: int, trick=()) -> EuchreState:
    """A state in the middle of the play with the given (partial) hands."""
    cards = tuple(tuple(hands.get(s, "").split()) for s in range(4))
    return EuchreState(EuchreOptions(), phase="play", hands=cards, contract=contract, turn=turn, trick=tuple(trick))


PASS = ("pass",)


def test_E1_deck_has_two_of_each_card_and_is_dealt_one_at_a_time_from_the_dealers_left():
    assert len(DECK) == 32 and all(DECK.count(c) == 2 for c in set(DECK)) and len(set(DECK)) == 16
    state = setup(4, EuchreOptions(first_dealer=2))
    deck = tuple(sorted(DECK))
    state = apply(state, CHANCE, deck)
    assert sorted(state.hands[3]) == sorted(deck[0::4])  # the dealer's left gets cards 1, 5, 9…
    assert sorted(state.hands[0]) == sorted(deck[1::4])
    assert sorted(state.hands[2]) == sorted(deck[3::4])  # the dealer gets the last card
    assert to_move(state) == (3,)
    with pytest.raises(ValueError):
        apply(setup(4, None), CHANCE, deck[:-1] + ("AS",))


def test_E1_exposed_card_in_the_deal_means_a_redeal_by_the_same_dealer():
    state = dealt(dealer=1)
    state = apply(state, to_move(state)[0], ("redeal", "exposed_card"))
    assert state.phase == "deal" and state.dealer == 1 and state.hands_played == 0
    assert to_move(state) == (CHANCE,)


def test_E2_right_bower_is_the_trump_jack_and_left_bower_the_same_colour_jack():
    assert trump_rank("JH", "H") == 16 and trump_rank("JD", "H") == 15
    assert trump_rank("JS", "C") == 15 and trump_rank("JC", "C") == 16
    assert effective_suit("JD", "H") == "H" and trump_rank("JS", "H") == 0


def test_E3_ten_trumps_ranked_and_the_same_colour_suit_keeps_only_a_k_q():
    trumps = sorted((c for c in DECK if effective_suit(c, "H") == "H"), key=lambda c: -trump_rank(c, "H"))
    assert trumps == ["JH", "JH", "JD", "JD", "AH", "AH", "KH", "KH", "QH", "QH"]
    assert sorted({c for c in DECK if effective_suit(c, "H") == "D"}) == ["AD", "KD", "QD"]
    assert power("AS", "H", "S") > power("KS", "H", "S") > power("QS", "H", "S") > power("JS", "H", "S") > 0


def test_E4_first_of_two_identical_cards_wins():
    assert trick_winner(((1, "JH"), (2, "AH"), (3, "JH"), (0, "QH")), "H") == 1
    assert trick_winner(((0, "KS"), (1, "AS"), (2, "AS"), (3, "QS")), "H") == 1
    state = in_play({0: "JH KS", 1: "JH QS", 2: "QC KC", 3: "AC AD"}, Contract(0, 3, "H"), turn=0)
    state = run(state, ("play", "JH"), ("play", "JH"), ("play", "QC"), ("play", "AC"))
    assert state.tricks == (1, 0) and state.turn == 0  # seat 0's right bower came first


def test_E5_left_bower_follows_trump_and_is_void_in_its_printed_suit():
    hand = ("JD", "AD", "KS")
    assert legal_follows(hand, ((0, "QH"),), "H") == ("JD",)  # the left bower must follow a trump lead
    assert set(legal_follows(hand, ((0, "QD"),), "H")) == {"AD"}  # it does not follow diamonds
    only_left = ("JD", "KS", "QC")
    assert set(legal_follows(only_left, ((0, "QD"),), "H")) == set(only_left)  # void in diamonds: anything
    state = in_play({0: "QH", 1: "JD KS QC"}, Contract(0, 3, "H"), turn=0)
    state = run(state, ("play", "QH"))
    assert legal_moves(state, 1) == [("play", "JD")]


def test_E6_no_trump_ranks_a_k_q_j_without_bowers_and_off_suit_never_wins():
    assert trick_winner(((0, "JS"), (1, "QS"), (2, "AH"), (3, "JH")), "NT") == 1
    assert trick_winner(((0, "KD"), (1, "AD"), (2, "AD"), (3, "JD")), "NT") == 1
    assert effective_suit("JD", "NT") == "D" and trump_rank("AS", "S") == 14


def test_E7_low_no_trump_is_off_by_default_and_reverses_the_order_when_enabled():
    state = dealt()
    assert ("bid", 2, "LOW") not in legal_moves(state, 1)
    low = dealt(low_no_trump=True)
    assert ("bid", 2, "LOW") in legal_moves(low, 1)
    assert trick_winner(((0, "AS"), (1, "KS"), (2, "JS"), (3, "QS")), "LOW") == 2


def test_E8_auction_winner_leads_then_each_trick_winner_leads():
    state = run(dealt(), PASS, PASS, PASS, ("bid", 5, "H"))  # dealer 0 bids last and wins
    assert state.phase == "play" and to_move(state) == (0,)
    state = run(state, ("play", "KH"), ("play", "QH"), ("play", "QD"), ("play", "QC"))
    assert to_move(state) == (0,)
    state = run(state, ("play", "QH"), ("play", "JD"), ("play", "QD"), ("play", "QC"))
    assert to_move(state) == (1,)  # seat 1's left bower beat the queen


def test_E9_one_bid_each_from_the_dealers_left_at_least_one_trick_higher():
    state = dealt()
    moves = legal_moves(state, 1)
    assert PASS in moves and ("bid", 2, "S") in moves and ("bid", 1, "S") not in moves
    assert ("bid", 8, "NT") in moves and ("bid", 9, "NT") not in moves
    state = run(state, ("bid", 4, "S"))
    assert ("bid", 4, "H") not in legal_moves(state, 2)  # suits have no rank
    assert ("bid", 5, "H") in legal_moves(state, 2)
    state = run(state, PASS, PASS, PASS)
    assert state.contract == Contract(1, 4, "S") and state.phase == "play"


def test_E10_an_equal_bid_is_refused_and_an_insufficient_bid_bars_the_partner():
    match = Match(GAME, 4, EuchreOptions(), rng=__import__("random").Random(3))
    match.play(1, ("bid", 3, "C"))
    with pytest.raises(Rejected) as refused:
        match.play(2, ("bid", 3, "H"))
    assert refused.value.code == "illegal_move"
    state = run(dealt(), ("bid", 3, "C"))
    state = apply(state, 2, ("insufficient_bid", 2, "H"))  # manual entry: seat 2 said "3 hearts"
    assert state.bids[-1] == (2, PASS) and to_move(state) == (3,)
    state = run(state, PASS)
    assert not any(m[0] == "bid" and m[2] == "H" for m in legal_moves(state, 0))  # partner of seat 2


def test_E11_a_bid_out_of_turn_loses_the_bid_and_bars_the_partner_from_that_suit():
    state = dealt()
    assert is_legal(state, 1, ("bid_out_of_turn", 2, "C"))  # seat 2 spoke while seat 1 was to bid
    state = apply(state, 1, ("bid_out_of_turn", 2, "C"))
    state = run(state, PASS)
    assert legal_moves(state, 2) == [PASS]  # the offender lost its bid
    state = run(state, PASS, PASS)
    dealer_moves = legal_moves(state, 0)
    assert dealer_moves and not any(m[0] == "bid" and m[2] == "C" for m in dealer_moves)  # the partner
    assert any(m[0] == "bid" and m[2] == "C" for m in legal_moves(dealt(), 1))
    assert legal_moves(dealt(), 2) == []  # and players may not simply bid out of turn


def test_E12_everybody_passes_the_dealer_is_stuck_by_default():
    state = run(dealt(dealer=3), PASS, PASS, PASS)
    assert to_move(state) == (3,) and PASS not in legal_moves(state, 3)
    assert ("bid", 2, "NT") in legal_moves(state, 3)


def test_E12_with_the_redeal_flag_the_same_dealer_deals_again():
    state = run(dealt(dealer=3, all_pass="redeal"), PASS, PASS, PASS, PASS)
    assert state.phase == "deal" and state.dealer == 3 and state.hands_played == 0 and state.redeals == 1


def test_E13_call_for_two_exchanges_two_cards_and_contracts_all_eight_tricks():
    state = run(dealt(), PASS, ("call", 2), PASS, PASS)
    assert state.phase == "declare" and state.contract == Contract(2, CALL2, None)
    state = run(state, ("declare", "D", ("JS", "JS")))
    assert state.phase == "give" and to_move(state) == (0,) and state.contract.denom == "D"
    state = run(state, ("give", ("JD", "JH")))
    assert sorted(state.hands[2]) == sorted("AD AD KD KD QD QD JD JH".split())
    assert len(state.hands[0]) == 6 and state.discards == ("JS", "JS")
    assert hand_points(state.contract, (8, 0)) == (12, 0) and hand_points(state.contract, (7, 1)) == (-12, 1)


def test_E13_moonshot_plays_alone_without_any_exchange():
    state = run(dealt(), PASS, PASS, PASS, ("moon",))
    state = run(state, ("declare", "H", ()))
    assert state.phase == "play" and to_move(state) == (0,) and len(state.hands[0]) == 8


def test_E14_calls_rank_above_eight_call2_then_call1_then_moon():
    state = run(dealt(), ("bid", 8, "NT"))
    moves = legal_moves(state, 2)
    assert ("call", 2) in moves and ("call", 1) in moves and ("moon",) in moves
    state = run(state, ("call", 1))
    assert ("call", 2) not in legal_moves(state, 3) and ("moon",) in legal_moves(state, 3)
    state = run(state, ("moon",))
    assert legal_moves(state, 0) == [PASS]
    assert CALL2 < CALL1 < MOON


def test_E15_trump_is_named_after_the_call_wins_and_the_partner_sits_out():
    state = run(dealt(), PASS, PASS, PASS, ("call", 1))
    assert state.contract.denom is None and to_move(state) == (0,)
    state = run(state, ("declare", "H", ("QH",)))
    assert to_move(state) == (2,)  # the partner gives knowing trump
    state = run(state, ("give", ("JS",)))
    assert to_move(state) == (0,)  # the lone player leads
    state = run(state, ("play", "JH"), ("play", "QH"), ("play", "AC"))
    assert state.tricks == (1, 0) and len(state.played[0]) == 3  # three-card tricks
    assert 2 not in [s for s, _ in state.played[0]]


def test_E16_numeric_contract_scores_tricks_won_or_minus_the_bid_and_opponents_score_their_tricks():
    assert hand_points(Contract(1, 4, "S"), (2, 6)) == (2, 6)  # overtricks count
    assert hand_points(Contract(1, 4, "S"), (5, 3)) == (5, -4)  # set
    assert hand_points(Contract(0, 2, "H"), (1, 7)) == (-2, 7)


def test_E17_calls_score_12_18_24_or_lose_them():
    assert hand_points(Contract(0, CALL2, "H"), (8, 0)) == (12, 0)
    assert hand_points(Contract(3, CALL1, "S"), (0, 8)) == (0, 18)
    assert hand_points(Contract(2, MOON, "NT"), (8, 0)) == (24, 0)
    assert hand_points(Contract(1, MOON, "NT"), (1, 7)) == (1, -24)


def test_E18_playing_out_of_turn_or_exposing_a_card_costs_five_at_once():
    state = dealt()
    state = apply(state, 1, ("penalty", 1, "out_of_turn"))
    state = apply(state, 1, ("penalty", 0, "exposed_card"))
    assert state.scores == (-5, -5) and [p[:2] for p in state.penalties] == [(1, -5), (0, -5)]
    assert not is_legal(state, 1, ("penalty", 2, "out_of_turn")) and not is_legal(state, 1, ("penalty", 0, "rude"))
    assert ("penalty", 0, "hesitation") not in legal_moves(state, 1)  # never offered to players or bots


def test_E18_hesitation_is_a_penalty_or_a_redeal_at_the_officials_choice():
    state = apply(dealt(), 1, ("penalty", 0, "hesitation"))
    assert state.scores == (-5, 0)
    state = apply(state, 1, ("redeal", "hesitation"))
    assert state.phase == "deal" and state.scores == (-5, 0)


def test_E18a_the_hesitation_redeal_is_offered_in_every_phase_of_a_hand():
    """Rule 6 applies "once the game has begun" (issue 22: the redeal was offered in the bidding only); a card
    exposed in the deal (rule 11) is a redeal of the bidding alone."""
    bidding = dealt()
    declaring = run(dealt(), ("call", 2), PASS, PASS, PASS)
    giving = run(declaring, ("declare", "H", ("JD", "QH")))
    playing = run(dealt(), PASS, PASS, PASS, ("bid", 5, "H"), ("play", "JH"), ("play", "QH"))
    for state, phase in ((bidding, "bid"), (declaring, "declare"), (giving, "give"), (playing, "play")):
        assert state.phase == phase
        seat = to_move(state)[0]
        assert ("redeal", "hesitation") in GAME.officials(state) and is_legal(state, seat, ("redeal", "hesitation"))
        assert (("redeal", "exposed_card") in GAME.officials(state)) == (phase == "bid")
        redealt = apply(state, seat, ("redeal", "hesitation"))
        assert redealt.phase == "deal" and redealt.dealer == state.dealer and redealt.hands_played == 0
        assert redealt.scores == state.scores and redealt.tricks == (0, 0) and redealt.played == ()
        assert redealt.history == () and redealt.redeals == 1
        again = apply(redealt, CHANCE, deck_for(STANDARD, redealt.dealer))
        assert again.phase == "bid" and sorted(c for h in again.hands for c in h) == sorted(DECK)


@pytest.mark.parametrize(
    "move",
    [
        ("declare", "H", ("XX", "ZZ")),
        ("declare", "H", ("JD", "??")),
        ("declare", "H", ("JD", 7)),
        ("declare", "H", (None,)),
        ("declare", "H", "JD"),
        ("declare", "H", (("JD",), "QH")),
        ("give", ("J", "")),
        ("give", ({}, "QH")),
        ["give", ["AS", 3.5]],
        ("bid", 2.0, "S"),
        ("penalty", True, "hesitation"),
        ("renege", 1.0),
        ("play", "XX"),
    ],
)
def test_unknown_cards_and_look_alike_numbers_are_refused_never_raised(move):
    """Issue 22: ``is_legal`` raised on an unknown card in a declare or give move (sorting it by suit)."""
    declaring = run(dealt(), ("call", 2), PASS, PASS, PASS)
    giving = run(declaring, ("declare", "H", ("JD", "QH")))
    for state in (dealt(), declaring, giving):
        assert is_legal(state, to_move(state)[0], move) is False
    with pytest.raises(Rejected, match="^rooms/illegal_move"):
        match = Match(GAME, 4)
        match.state = declaring
        match.play(to_move(declaring)[0], move)


def test_E19_a_defender_renege_gives_the_bidders_their_bid_and_costs_the_defenders_five():
    state = run(dealt(), PASS, PASS, PASS, ("bid", 5, "H"))
    state = run(state, ("play", "JH"), ("play", "QH"))
    state = apply(state, 2, ("renege", 1))
    assert state.history[-1].points == (5, -5) and state.phase == "deal" and state.dealer == 1


def test_E19_a_bidder_renege_costs_the_bid_and_five():
    state = run(dealt(), ("bid", 3, "S"), PASS, PASS, PASS)
    state = run(state, ("play", "AS"), ("play", "JS"), ("play", "JC"), ("play", "KH"))  # JC: left bower
    assert state.tricks == (1, 0)  # seat 2's right bower took the first trick
    state = apply(state, 2, ("renege", 1))
    assert state.history[-1].points == (1, -8) and state.scores == (1, -8)  # defenders keep their trick


def test_a_game_is_eight_hands_and_each_player_deals_twice():
    state = setup(4, EuchreOptions())
    dealers = []
    while state.phase != "over":
        dealers.append(state.dealer)
        state = apply(state, CHANCE, deck_for(STANDARD, state.dealer))
        state = run(state, PASS, PASS, PASS, ("bid", 2, "NT"))
        while state.phase == "play":
            seat = to_move(state)[0]
            state = apply(state, seat, legal_moves(state, seat)[0])
    assert dealers == [0, 1, 2, 3, 0, 1, 2, 3] and len(state.history) == 8
    result = outcome(state)
    assert result.scores[0] == result.scores[2] == state.scores[0]
    assert result.winners in ((0, 2), (1, 3), (0, 1, 2, 3))


def test_a_tie_makes_all_four_players_winners():
    state = replace(setup(4, None), phase="over", scores=(10, 10), hands_played=8)
    assert outcome(state).winners == (0, 1, 2, 3)
    assert outcome(replace(state, scores=(3, 11))).winners == (1, 3)


def test_E21_when_time_is_called_the_hand_is_finished_and_no_new_hand_starts():
    state = run(dealt(), PASS, PASS, PASS, ("bid", 5, "H"))
    state = apply(state, 0, ("time",))
    assert state.phase == "play"
    while state.phase == "play":
        seat = to_move(state)[0]
        state = apply(state, seat, legal_moves(state, seat)[0])
    assert state.phase == "over" and state.hands_played == 1 and outcome(state).reason == "time called"


def test_E21_after_time_is_called_an_all_pass_redeal_starts_no_new_hand():
    state = run(dealt(dealer=3, all_pass="redeal"), PASS)
    state = apply(state, 1, ("time",))
    state = run(state, PASS, PASS, PASS)
    assert state.phase == "over" and to_move(state) == () and state.hands_played == 0 and state.scores == (0, 0)
    assert outcome(state).reason == "time called" and outcome(state).winners == (0, 1, 2, 3)


@pytest.mark.parametrize("reason", ["exposed_card", "hesitation"])
def test_E21_after_time_is_called_the_officials_redeal_starts_no_new_hand(reason):
    state = run(dealt(), PASS)
    state = apply(state, 1, ("penalty", 1, "out_of_turn"))
    state = apply(state, 1, ("time",))
    state = apply(state, 1, ("redeal", reason))
    assert state.phase == "over" and state.hands_played == 0 and state.scores == (0, -5)
    assert outcome(state).winners == (0, 2) and outcome(state).reason == "time called"
    assert not is_legal(state, 0, PASS) and not is_legal(state, 0, ("redeal", reason))


def test_E21_before_time_is_called_a_redeal_still_deals_again():
    state = apply(run(dealt(), PASS), 1, ("redeal", "hesitation"))
    assert state.phase == "deal" and to_move(state) == (CHANCE,) and state.dealer == 0


def test_E19_a_defender_renege_after_overtricks_leaves_the_bidders_the_tricks_they_took():
    state = run(dealt(), ("bid", 2, "S"), PASS, PASS, PASS)  # seat 1 bids 2 spades
    state = run(state, ("play", "AS"), ("play", "JS"), ("play", "JC"), ("play", "KH"))
    assert state.tricks == (1, 0)
    # make the bidders hold 3 tricks already, then a defender reneges
    state = replace(state, tricks=(1, 3))
    state = apply(state, to_move(state)[0], ("renege", 0))
    assert state.history[-1].points == (-5, 3)  # max(bid 2, tricks 3); the offenders' trick counts nothing


def test_E19_both_sides_follow_one_rule_offenders_pay_five_and_score_no_tricks():
    for offender, expected in ((0, (-5, 2)), (1, (1, -7))):
        state = run(dealt(), ("bid", 2, "S"), PASS, PASS, PASS)
        state = run(state, ("play", "AS"), ("play", "JS"), ("play", "JC"), ("play", "KH"))
        state = apply(state, to_move(state)[0], ("renege", offender))
        assert state.history[-1].points == expected
