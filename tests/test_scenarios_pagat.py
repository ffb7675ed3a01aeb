"""Scenario tests for the ``pagat`` preset: Skitgubbe as the main section of pagat.com describes it.

Every test stacks the deck (or builds a phase-two position), plays the moves of one worked example or
one rule of the source, and checks what the source says happens.  Sources are cited by section:
"pagat.com Skitgubbe, <section>".  Seats are A=0, B=1, C=2 and play is clockwise (seat s+1 is on the
left of seat s).
"""

from __future__ import annotations

import pytest

from helpers import (
    PICK,
    STOCK,
    all_event_cards,
    cs,
    drain,
    events,
    leader_filler,
    new_game,
    phase_two,
    play,
    stack_deck,
)
from skitgubbe import State, find_variant, parse_card
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import SUITS
from skitgubbe.engine.state import GameOverError, IllegalActionError
from skitgubbe.engine.view import view_of

PAGAT = find_variant("pagat")
A, B, C = 0, 1, 2


def table(state: State) -> list[int]:
    return list(state.table)


# -- Players, cards and deal; Play in the first phase ------------------------------------------------


def test_pagat_deal_three_cards_each_from_dealers_left_and_left_of_dealer_leads():
    # pagat.com Skitgubbe, "Players, cards and deal" (three cards each, clockwise) and "Play in the
    # first phase" (the player on the dealer's left leads; the player on the leader's left follows).
    hands = ["2C 3C 4C", "5D 6D 7D", "8H 9H TH"]
    state = new_game(PAGAT, hands, "JS QS", dealer=B)
    assert state.hands == [cs(h) for h in hands]
    assert len(state.stock) == 52 - 9
    assert state.to_act == C
    state.apply(play("9H"))
    assert state.to_act == A
    # Only two players take part in a trick: B has no move now.
    assert state.legal_actions(B) == []
    with pytest.raises(IllegalActionError):
        state.apply(play("5D"), B)


def test_pagat_first_phase_each_player_draws_immediately_after_playing():
    # pagat.com Skitgubbe, "Play in the first phase": a player draws from the stock right after
    # playing, so hands stay at three cards while the stock lasts.
    state = new_game(PAGAT, ["9C 2C 3C", "4D 5D 6D", "7H 8H TH"], "JS QS KS")
    state.apply(play("9C"))
    assert state.hands[A] == cs("2C 3C JS")
    state.apply(play("4D"))
    assert state.hands[B] == cs("5D 6D QS")
    assert state.stock[-1] == parse_card("KS")


def test_pagat_first_phase_second_player_need_not_follow_suit_or_beat():
    # pagat.com Skitgubbe, "Play in the first phase": suits do not matter, there is no need to follow
    # suit, and the second player may play low to give the trick to the leader.
    state = new_game(PAGAT, ["9C 2C 3C", "4D 5D KH", "7H 8H TH"], "JS QS KS")
    state.apply(play("9C"))
    assert set(state.legal_actions()) == {play("4D"), play("5D"), play("KH"), STOCK}
    state.apply(play("4D"))
    assert state.piles[A] == cs("9C 4D")


def test_pagat_first_phase_leader_wins_and_leads_again_to_the_same_follower():
    # pagat.com Skitgubbe, "Play in the first phase": the higher card wins, the winner keeps the two
    # cards and leads; if the leader won, the same two players play the next trick.
    state = new_game(PAGAT, ["9C 2C 3C", "4D 5D 6D", "7H 8H TH"], "JS QS KS AS")
    state.apply(play("9C"))
    state.apply(play("4D"))
    assert [e.seat for e in events(state, "win")] == [A]
    assert state.piles == [cs("9C 4D"), 0, 0]
    assert state.to_act == A
    state.apply(play("2C"))
    assert state.to_act == B
    assert state.legal_actions(C) == []


def test_pagat_first_phase_follower_wins_and_leads_to_its_left():
    # pagat.com Skitgubbe, "Play in the first phase": the winner leads the next trick, which is then
    # played with the player on the winner's left (Myllymatti section says the same).
    state = new_game(PAGAT, ["4C 2C 3C", "9D 5D 6D", "7H 8H TH"], "JS QS KS AS")
    state.apply(play("4C"))
    state.apply(play("9D"))
    assert state.piles == [0, cs("4C 9D"), 0]
    assert state.to_act == B
    state.apply(play("5D"))
    assert state.to_act == C
    assert state.legal_actions(A) == []


def test_pagat_first_phase_stunsa_cards_stay_and_same_leader_leads_again():
    # pagat.com Skitgubbe, "Play in the first phase": equal cards are a stunsa (bounce): the cards
    # stay on the table, both players draw, and the same player leads again; the winner of the
    # next trick takes all the cards, the tied ones included.
    state = new_game(PAGAT, ["7C KS 2D", "7D 2H 3S", "4H 5H 6H"], "8C 9C TC JC")
    state.apply(play("7C"))
    state.apply(play("7D"))
    assert [e.seats for e in events(state, "bounce")] == [(A, B)]
    assert state.piles == [0, 0, 0]
    assert state.hands[A] == cs("KS 2D 8C") and state.hands[B] == cs("2H 3S 9C")
    assert view_of(state, C).trick_cards() == cs("7C 7D")
    assert state.to_act == A
    state.apply(play("KS"))
    state.apply(play("2H"))
    assert state.piles[A] == cs("7C 7D KS 2H")
    assert state.to_act == A


def test_pagat_first_phase_repeated_stunsa_follower_takes_everything_and_leads_to_its_left():
    # pagat.com Skitgubbe, "Play in the first phase": bounces repeat until one player wins the
    # trick, who takes every card played including the tied tricks.
    state = new_game(PAGAT, ["7C 9S 2D", "7D 9H KH", "4H 5H 6H"], "2S 3S 4S 5S 6S 8S")
    for lead, follow in [("7C", "7D"), ("9S", "9H")]:
        state.apply(play(lead))
        state.apply(play(follow))
        assert state.to_act == A
    assert len(events(state, "bounce")) == 2
    state.apply(play("2D"))
    state.apply(play("KH"))
    assert state.piles == [0, cs("7C 7D 9S 9H 2D KH"), 0]
    assert state.to_act == B
    state.apply(play("3S"))  # drawn after the first bounce
    assert state.to_act == C


def test_pagat_first_phase_turned_stock_card_is_played_not_kept():
    # pagat.com Skitgubbe, "Play in the first phase": instead of playing from hand a player may turn
    # up the top stock card, and must play it; it does not go into the hand.
    state = new_game(PAGAT, ["2C 3C 4C", "5D 6D 7D", "8H 9H TH"], "KS 8S 9S")
    before = len(state.stock)
    assert STOCK in state.legal_actions()
    state.apply(STOCK)
    assert [e.cards for e in events(state, "stock")] == [cs("KS")]
    assert state.hands[A] == cs("2C 3C 4C")
    assert len(state.stock) == before - 1
    assert view_of(state, B).trick_cards() == cs("KS")
    # The follower may turn up the stock as well.
    assert STOCK in state.legal_actions(B)
    state.apply(play("5D"))
    assert state.hands[B] == cs("6D 7D 8S")
    assert state.piles[A] == cs("KS 5D")


# -- The end of the stock ------------------------------------------------------------------------------
# Filler tricks turned up from the stock empty it: A wins each of them and keeps leading to B, so the
# hands dealt are still the hands held when the named tail of the stock is reached.


def _last_two_stock_cards() -> State:
    # Stock after the filler: 2C, 3S, then 8H at the bottom.
    hands = ["KC KD QH", "9D 5H AD", "4S 6S 7S"]
    deck = stack_deck(hands, dealer=C, tail="2C 3S", bottom="8H", drain=2, filler=leader_filler)
    state = State.new(PAGAT, 3, dealer=C, deck=deck)
    drain(state, 3)
    assert state.to_act == A and state.hands == [cs(h) for h in hands]
    return state


def test_pagat_first_phase_stock_may_be_turned_only_while_more_than_one_card_remains():
    # pagat.com Skitgubbe, "Play in the first phase": turning up is allowed while the stock holds
    # more than one card.
    state = _last_two_stock_cards()
    assert STOCK in state.legal_actions()
    state.apply(STOCK)  # 2C; 3S and 8H remain
    assert STOCK in state.legal_actions(B)
    state.apply(play("9D"))  # B draws 3S and wins
    assert len(state.stock) == 1
    assert state.to_act == B
    assert STOCK not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply(STOCK)


def test_pagat_first_phase_last_stock_card_is_kept_face_down_out_of_the_hand():
    # pagat.com Skitgubbe, "Play in the first phase": the player who has to draw the last stock card
    # keeps it face down, not in the hand, until the first phase is over.
    state = _last_two_stock_cards()
    state.apply(STOCK)
    state.apply(play("9D"))
    state.apply(play("5H"))  # B draws the last card, 8H
    trump = parse_card("8H")
    assert state.stock == []
    assert state.trump_holder == B
    assert state.trump_card == trump
    assert state.hands[B] == cs("AD 3S")
    assert state.trump_suit == -1
    for seat in (A, B, C):
        v = view_of(state, seat)
        assert v.trump_card == -1 and v.trump_suit == -1
        assert not v.hand >> trump & 1
        assert not any(k >> trump & 1 for k in v.known)
    assert not all_event_cards(state) >> trump & 1


def _play_last_two_stock_cards_to_the_end() -> State:
    state = _last_two_stock_cards()
    for seat, action in [
        (A, STOCK), (B, play("9D")),  # B wins 2C 9D, leads to C
        (B, play("5H")), (C, play("7S")),  # B draws the trump card; C wins, leads to A
        (C, play("6S")), (A, play("KC")),  # A wins, leads to B
        (A, play("KD")), (B, play("AD")),  # B wins, leads to C
        (B, play("3S")), (C, play("4S")),  # C wins and must lead with no card left
    ]:
        assert state.to_act == seat
        state.apply(action)
    return state


def test_pagat_first_phase_ends_when_player_to_lead_has_no_card_and_leftovers_are_shown():
    # pagat.com Skitgubbe, "Play in the first phase": with the stock gone play goes on until the player
    # whose turn it is has no card; the cards left in hand are exposed and kept for phase two.
    state = _play_last_two_stock_cards_to_the_end()
    assert [e.seat for e in events(state, "end-one")] == [C]
    assert [(e.seat, e.cards) for e in events(state, "exposed")] == [(A, cs("QH"))]
    assert events(state, "take-back") == []
    assert state.phase == Phase.TWO
    assert state.hands[A] & cs("QH")


def test_pagat_second_phase_trump_card_joins_its_holder_who_leads():
    # pagat.com Skitgubbe, "Play in the first phase" (the last stock card fixes trumps) and "Play in
    # the second phase" (the player who drew the trump card leads) - not the last trick's winner (C)
    # nor the first leader (A).
    state = _play_last_two_stock_cards_to_the_end()
    assert state.trump_suit == SUITS.index("H")
    assert state.hands[B] == cs("2C 9D KD AD 8H")
    assert state.hands[C] == cs("5H 7S 3S 4S")
    assert sum(h.bit_count() for h in state.hands) == 52
    assert state.to_act == B
    assert state.kill_at == 3


def test_pagat_end_of_first_phase_incomplete_trick_with_stunsas_goes_back():
    # pagat.com Skitgubbe, "Play in the first phase": if the last trick is incomplete the players take
    # back what they played to it - here three bounced rounds, ended when A must lead with no card.
    hands = ["7C 9D QS", "7H 9S QH", "2D 3D 4D"]
    deck = stack_deck(hands, dealer=C, bottom="5C", drain=2, filler=leader_filler)
    state = State.new(PAGAT, 3, dealer=C, deck=deck)
    drain(state, 1)
    assert STOCK not in state.legal_actions()
    for lead, follow in [("7C", "7H"), ("9D", "9S"), ("QS", "QH")]:
        assert state.to_act == A
        state.apply(play(lead))
        state.apply(play(follow))
    assert len(events(state, "bounce")) == 3
    assert [e.seat for e in events(state, "end-one")] == [A]
    assert {e.seat: e.cards for e in events(state, "take-back")} == {A: cs("7C 9D QS"), B: cs("7H 9S QH")}
    assert state.phase == Phase.TWO
    assert state.hands[B] == cs("7H 9S QH")
    assert state.hands[C] == cs("2D 3D 4D")
    assert state.hands[A] & cs("7C 9D QS 5C") == cs("7C 9D QS 5C")
    assert state.trump_suit == SUITS.index("C")
    assert state.to_act == A


def test_pagat_end_of_first_phase_follower_without_card_lead_goes_back():
    # pagat.com Skitgubbe, "Play in the first phase": the phase ends when the player to play has no
    # card, here the follower; the leader takes back the card led to the incomplete trick.
    hands = ["AC 2C 3C", "2D KD 4D", "KH QH JH"]
    deck = stack_deck(hands, dealer=C, bottom="9S", drain=2, filler=leader_filler)
    state = State.new(PAGAT, 3, dealer=C, deck=deck)
    drain(state, 1)
    for seat, card in [
        (A, "AC"), (B, "2D"),  # A wins
        (A, "2C"), (B, "KD"),  # B wins, leads to C
        (B, "4D"), (C, "KH"),  # C wins, leads to A
        (C, "QH"), (A, "3C"),  # C wins, leads to A again
        (C, "JH"),  # A has no card left
    ]:
        assert state.to_act == seat
        state.apply(play(card))
    assert [e.seat for e in events(state, "end-one")] == [A]
    assert [(e.seat, e.cards) for e in events(state, "take-back")] == [(C, cs("JH"))]
    assert state.hands[C] == cs("4D KH QH 3C JH")
    assert state.hands[B] == cs("2C KD")
    assert state.to_act == A  # A drew the trump card


# -- Play in the second phase --------------------------------------------------------------------------


def test_pagat_second_phase_beat_with_higher_card_of_suit_or_trump_never_duck():
    # pagat.com Skitgubbe, "Play in the second phase": a card is beaten by a higher card of its suit or,
    # if not a trump, by any trump; ducking is never allowed, picking up always is.
    state = phase_two(PAGAT, ["7C 2D", "5C 9C KD 2H 8S", "3S 4S"], trump="H")
    state.apply(play("7C"))
    assert set(state.legal_actions()) == {play("9C"), play("2H"), PICK}
    for bad in ("KD", "5C", "8S"):
        with pytest.raises(IllegalActionError):
            state.apply(play(bad))
    state.apply(play("2H"))
    assert state.legal_actions() == [PICK]


def test_pagat_second_phase_trump_is_beaten_only_by_a_higher_trump():
    # pagat.com Skitgubbe, "Play in the second phase": only a higher card of the same suit beats a trump.
    state = phase_two(PAGAT, ["7H 2D", "9H 5H AC", "3S 4S"], trump="H")
    state.apply(play("7H"))
    assert set(state.legal_actions()) == {play("9H"), PICK}


def test_pagat_second_phase_plays_are_single_cards():
    # pagat.com Skitgubbe, "Play in the second phase": one card at a time (sequences are a variant).
    state = phase_two(PAGAT, ["5C 6C", "9C", "3S"])
    assert set(state.legal_actions()) == {play("5C"), play("6C")}
    with pytest.raises(IllegalActionError):
        state.apply(play("5C 6C"))


def test_pagat_second_phase_picking_up_the_only_card_passes_the_lead_on():
    # pagat.com Skitgubbe, "Play in the second phase": a player who picks up the only card on the table
    # takes it into hand and the next player leads a new trick.
    state = phase_two(PAGAT, ["5C 2D", "3C 4D", "6S 7S"])
    state.apply(play("5C"))
    state.apply(PICK)
    assert state.hands[B] == cs("3C 4D 5C")
    assert table(state) == []
    assert state.to_act == C
    assert state.kill_at == 3


def test_pagat_second_phase_only_the_last_card_is_picked_up_next_player_faces_card_beneath():
    # pagat.com Skitgubbe, "Play in the second phase": with several cards on the table only the last
    # one is picked up and the next player must beat the card underneath it.
    state = phase_two(PAGAT, ["5C 8C 2D", "9C 3D", "4D 6D"])
    state.apply(play("5C"))
    state.apply(play("9C"))
    state.apply(PICK)
    assert state.hands[C] == cs("4D 6D 9C")
    assert table(state) == [cs("5C")]
    assert state.to_act == A
    assert set(state.legal_actions()) == {play("8C"), PICK}


def test_pagat_second_phase_suppose_3_players_c_beats_and_sets_aside():
    # pagat.com Skitgubbe, "Play in the second phase", the example "Suppose there are 3 players": A
    # leads, B beats, C beats B: three cards with three players is avstick; C sets them aside and
    # leads.
    state = phase_two(PAGAT, ["5C AS", "9C 2D", "JC 3D"])
    start_out = state.killed  # cards in no hand start out of play
    state.apply(play("5C"))
    state.apply(play("9C"))
    state.apply(play("JC"))
    assert [(e.seat, e.cards) for e in events(state, "kill")] == [(C, cs("5C 9C JC"))]
    assert state.killed & ~start_out == cs("5C 9C JC")
    assert table(state) == []
    assert state.hands == [cs("AS"), cs("2D"), cs("3D")]
    assert state.to_act == C
    assert state.kill_at == 3


def test_pagat_second_phase_suppose_3_players_c_picks_up_then_a_and_b_beat():
    # pagat.com Skitgubbe, "Play in the second phase", same example: C picks up B's card, A must beat
    # his own lead, then B beats A's card; B completed the trick, sets it aside and leads.
    state = phase_two(PAGAT, ["5C 8C AS", "9C TC 2D", "3D 4D"])
    state.apply(play("5C"))
    state.apply(play("9C"))
    state.apply(PICK)
    assert state.hands[C] == cs("3D 4D 9C")
    assert state.to_act == A
    state.apply(play("8C"))
    assert state.to_act == B
    state.apply(play("TC"))
    assert [(e.seat, e.cards) for e in events(state, "kill")] == [(B, cs("5C 8C TC"))]
    assert state.to_act == B


def test_pagat_second_phase_suppose_3_players_a_picks_up_his_own_lead_b_leads():
    # pagat.com Skitgubbe, "Play in the second phase", same example, the other possibility: A leads, B
    # beats, C picks up B's card, A picks up his own card; the table is empty and B leads.
    state = phase_two(PAGAT, ["5C AS", "9C 2D", "3D 4D"])
    state.apply(play("5C"))
    state.apply(play("9C"))
    state.apply(PICK)
    state.apply(PICK)
    assert state.hands == [cs("5C AS"), cs("2D"), cs("3D 4D 9C")]
    assert table(state) == []
    assert events(state, "kill") == []
    assert state.to_act == B


def test_pagat_second_phase_a_leads_his_last_card_c_beats_and_leads_two_card_trick():
    # pagat.com Skitgubbe, "Play in the second phase", the example "A leads his last card": B beats, C
    # picks up B's card, B beats A's card again, C beats B's: the trick is over, C leads, and the next
    # trick needs only two cards.
    state = phase_two(PAGAT, ["5C", "9C 7C 2D", "TC 3D 4D"])
    state.apply(play("5C"))
    assert A in state.out_order
    state.apply(play("9C"))
    state.apply(PICK)
    assert state.to_act == B  # A is out and skipped
    state.apply(play("7C"))
    assert table(state) == [cs("5C"), cs("7C")]
    assert state.kill_at == 3
    state.apply(play("TC"))
    assert [(e.seat, e.cards) for e in events(state, "kill")] == [(C, cs("5C 7C TC"))]
    assert state.to_act == C
    assert state.kill_at == 2


def test_pagat_second_phase_b_beats_with_last_card_a_picks_up_c_leads_two_card_trick():
    # pagat.com Skitgubbe, "Play in the second phase", second example: A leads, B beats with his last
    # card, C picks it up, A picks up his lead; C leads and two cards complete the next trick.
    state = phase_two(PAGAT, ["5C 6D", "9C", "3D 4D"])
    state.apply(play("5C"))
    state.apply(play("9C"))
    assert state.out_order == [B]
    state.apply(PICK)
    assert state.to_act == A
    state.apply(PICK)
    assert state.hands == [cs("5C 6D"), 0, cs("3D 4D 9C")]
    assert state.to_act == C
    assert state.kill_at == 2


def test_pagat_second_phase_trick_still_needs_three_cards_after_a_player_runs_out():
    # pagat.com Skitgubbe, "Play in the second phase": a player running out during a trick does not
    # change the number of cards that completes that trick.
    state = phase_two(PAGAT, ["5C", "9C 2D", "TC JC 3D"])
    state.apply(play("5C"))
    state.apply(play("9C"))
    assert table(state) == [cs("5C"), cs("9C")]
    assert events(state, "kill") == []
    assert state.to_act == C
    state.apply(play("JC"))
    assert [e.cards for e in events(state, "kill")] == [cs("5C 9C JC")]


def test_pagat_second_phase_completing_a_trick_with_last_card_left_player_leads():
    # pagat.com Skitgubbe, "Play in the second phase", ending 1: the player who completes the trick
    # leads unless his hand is empty, in which case the player on his left leads.
    state = phase_two(PAGAT, ["5C 2D", "9C 3D", "JC"])
    state.apply(play("5C"))
    state.apply(play("9C"))
    state.apply(play("JC"))
    assert state.out_order == [C]
    assert [e.seat for e in events(state, "kill")] == [C]
    assert state.to_act == A
    assert state.kill_at == 2


def test_pagat_second_phase_player_with_no_cards_takes_no_part():
    # pagat.com Skitgubbe, "Play in the second phase": a player who collected no cards in phase one
    # does not take part; tricks then need one card fewer.
    state = phase_two(PAGAT, ["5C 6C", "", "9C TC"], leader=B)
    assert state.out_order == [B]
    assert state.to_act == C  # the lead passes on from the empty seat
    assert state.kill_at == 2
    state.apply(play("9C"))
    assert state.to_act == A
    state.apply(PICK)
    assert state.to_act == C


def test_pagat_second_phase_last_player_holding_cards_is_the_skitgubbe():
    # pagat.com Skitgubbe, "Play in the second phase": the player left with cards is the loser; the
    # deal ends once a single player holds cards.
    state = phase_two(PAGAT, ["AC", "2C", "3D"])
    state.apply(play("AC"))
    assert state.legal_actions() == [PICK]
    state.apply(PICK)
    assert state.to_act == C
    state.apply(play("3D"))
    assert state.is_over
    assert state.loser == B
    assert state.outcome is not None and state.outcome.loser == B
    assert state.outcome.out_order == (A, C)
    assert [e.seat for e in events(state, "loser")] == [B]
    with pytest.raises(GameOverError):
        state.apply(PICK, B)

