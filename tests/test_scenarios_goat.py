"""Scenario tests for the ``goat`` preset: the Swedish Goat Game / Flurst.

Sources, cited by section: "Flurst" is the page "Skitgubbe (a.k.a. Flurst)" (The First Part, 1.5
Intermission, The Second Part); "Howell" is Dave Howell's "Skitgubbe (aka The Swedish Goat Game)"
(its aces-low rule is ignored: the goat preset ranks aces high).  Each test stacks the deck (or builds
a phase-two position), plays one worked example or one rule, and checks the stated result.  Seats are
A=0, B=1, C=2, D=3, clockwise.  The sequential sluffing protocol is used: after each play a sluff window
asks the seats that can sluff, in clockwise order.
"""

from __future__ import annotations

import random

import pytest

from helpers import (
    PASS,
    PICK,
    STOCK,
    all_event_cards,
    cs,
    drain,
    events,
    moves,
    new_game,
    pass_windows,
    phase_two,
    play,
    sluff,
    sluffs_of,
    stack_deck,
    unmatched_leader_filler,
)
from skitgubbe import CHANCE, Action, Kind, State, find_variant, parse_card
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import FULL_DECK, SUITS, cards_in, mask_of
from skitgubbe.engine.state import GameOverError, IllegalActionError
from skitgubbe.engine.view import view_of

GOAT = find_variant("goat")
A, B, C, D = 0, 1, 2, 3


# -- helpers -------------------------------------------------------------------------------------------


def dreck_of(trump: str) -> int:
    """Flurst, 1.5 Intermission: every 2, 3, 4 and 5 plus the 6 of trumps (17 cards)."""
    return cs(" ".join(r + s for r in "2345" for s in SUITS) + " 6" + trump)


def plays(state: State, seat: int | None = None) -> set[Action]:
    return {a for a in state.legal_actions(seat) if a.kind in (Kind.PLAY, Kind.STOCK)}


# -- The First Part: tricks, match if you can, wars -----------------------------------------------------


def test_goat_first_part_every_player_plays_once_highest_card_wins_and_leads():
    # Flurst, The First Part, "Tricks": each player plays one card clockwise (from hand, replenishing,
    # or the top of the deck); the highest card takes the trick and its winner leads the next.
    state = new_game(GOAT, ["7C 2C 3C", "KD 5D 6D", "4H 8H TH", "9S JS QS"], "AS AH AC AD")
    assert STOCK in state.legal_actions()
    for seat, card in [(A, "7C"), (B, "KD"), (C, "4H"), (D, "9S")]:
        assert state.to_act == seat
        state.apply(play(card))
    assert state.pending == 0
    assert [(e.seat, e.cards) for e in events(state, "win")] == [(B, cs("7C KD 4H 9S"))]
    assert state.piles == [0, cs("7C KD 4H 9S"), 0, 0]
    assert state.hands == [cs("2C 3C AS"), cs("5D 6D AH"), cs("8H TH AC"), cs("JS QS AD")]
    assert state.to_act == B


def test_goat_first_part_must_match_the_highest_card_and_may_not_turn_the_stock():
    # Flurst, The First Part, "Tricks": a player holding the rank of the highest card so far must play
    # such a card, even if it has been matched already; only without a match may one play freely or
    # turn up the deck.  Howell, The First Part, 5.3 says the same.
    state = new_game(GOAT, ["9C 2C 3C", "9D 4D 5D", "9H 6H 7H", "8S TS JS"], "KS KH KC KD")
    state.apply(play("9C"))
    assert plays(state) == {play("9D")}
    with pytest.raises(IllegalActionError) as err:
        state.apply(STOCK)
    assert "match" in err.value.reason
    with pytest.raises(IllegalActionError):
        state.apply(play("4D"))
    state.apply(play("9D"))
    assert plays(state) == {play("9H")}  # already matched: must match anyway
    state.apply(play("9H"))
    assert plays(state) == {play("8S"), play("TS"), play("JS"), STOCK}


def test_goat_first_part_a_match_topped_by_a_higher_card_makes_no_war():
    # Flurst, The First Part, "Tricks": not every match makes a war - a later, higher card wins.
    state = new_game(GOAT, ["9C 2C 3C", "9D 4D 5D", "KH 6H 7H"], "AS AH AC")
    moves(state, (A, "play 9C"), (B, "play 9D"), (C, "play KH"))
    assert events(state, "war") == []
    assert state.piles == [0, 0, cs("9C 9D KH")]
    assert state.to_act == C


def test_goat_first_part_war_led_by_first_player_of_the_matched_card_then_original_order():
    # Flurst, The First Part, "Tricks": a tie for high card is a war, a mini-trick among the tied
    # players, led by whoever first played the matched rank, the others following in the original
    # order; its winner takes every card.  Howell 5.5: the war leader is the tied player nearest the
    # original leader's left.  C leads (as the previous goat would).
    state = new_game(GOAT, ["9C QC 3C", "9D 2D TD", "4H 5H 6H", "9S 7S 8S"], "AS AH AC AD KS KH KC", leader=C)
    moves(state, (C, "play 4H"), (D, "play 9S"), (A, "play 9C"), (B, "play 9D"))
    assert [e.seats for e in events(state, "war")] == [(D, A, B)]
    assert state.to_act == D
    assert state.legal_actions(C) == []
    with pytest.raises(IllegalActionError):
        state.apply(play("5H"), C)
    moves(state, (D, "play 7S"), (A, "play QC"), (B, "play 2D"))
    assert state.piles[A] == cs("4H 9S 9C 9D 7S QC 2D")
    assert state.to_act == A


def test_goat_first_part_tie_in_a_war_starts_another_war_among_those_tied_again():
    # Flurst, The First Part, "Tricks": if the mini-trick ties, those tied this time play another, and
    # so on; the final winner takes the cards of the trick and of every mini-trick.
    state = new_game(GOAT,
        ["9C 8C 3C", "9D 5D 6D", "9H 8H KH", "2S 4S 7S"], "AS AH AC AD QS QH QC QD JS JH"
    )
    moves(state, (A, "play 9C"), (B, "play 9D"), (C, "play 9H"), (D, "play 2S"))
    moves(state, (A, "play 8C"), (B, "play 5D"), (C, "play 8H"))
    assert [e.seats for e in events(state, "war")] == [(A, B, C), (A, C)]
    assert state.to_act == A
    assert state.legal_actions(B) == []
    moves(state, (A, "play 3C"), (C, "play KH"))
    assert state.piles[C] == cs("9C 9D 9H 2S 8C 5D 8H 3C KH")
    assert state.to_act == C


def test_goat_first_part_war_round_must_match_only_its_own_highest_card():
    # Howell, The First Part, 5.5: cards played before do not bind the war - even if the war is over 9s
    # a 7 may win it; the ruling applies match-if-you-can to the war round's own cards only.
    state = new_game(GOAT, ["9C 7C 3C", "9D 4D 5D", "2H 6H KH"], "9S 9H JS JH QS QH")
    moves(state, (A, "play 9C"), (B, "play 9D"), (C, "play 2H"))
    assert state.to_act == A and state.hands[A] & cs("9S")
    assert {play("7C"), play("3C"), play("9S"), STOCK} <= plays(state)
    moves(state, (A, "play 7C"))
    assert state.hands[B] & cs("9H")
    assert {play("4D"), play("5D"), play("9H"), STOCK} <= plays(state)
    moves(state, (B, "play 4D"))
    assert state.piles[A] == cs("9C 9D 2H 7C 4D")


# -- The First Part: sloughing -------------------------------------------------------------------------
# A leads 9C; B plays 4D and draws 9D; C holds 4H.  Stock after that: 5S 4S 3S 2D 7S.


def _sluff_trick() -> State:
    state = new_game(GOAT, ["9C 2C 6C", "4D 8D TD", "4H 2S JH"], "KS 9D 5S 4S 3S 2D 7S")
    state.apply(play("9C"))
    assert state.pending == 0
    state.apply(play("4D"))
    return state


def test_goat_first_part_sluff_any_matching_rank_at_any_time_and_draw():
    # Flurst, The First Part, "Sloughing": anyone holding a card of a rank on the table may throw it in
    # at any time, even out of turn, and draws a replacement; one may sluff several times in a row.
    # The window asks clockwise from the seat after the one who played.
    state = _sluff_trick()
    assert state.to_act == C and state.pending == (1 << B) | (1 << C)
    assert sluffs_of(state, B) == cs("9D") and sluffs_of(state, C) == cs("4H")
    state.apply(sluff("9D"), B)  # out of turn, while C is asked
    assert state.hands[B] == cs("8D TD 5S")
    assert state.to_act == C
    state.apply(sluff("4H"))
    assert state.hands[C] == cs("2S JH 4S")
    assert state.to_act == C  # asked again: the 4S just drawn matches too
    state.apply(sluff("4S"))
    assert state.hands[C] == cs("2S JH 3S")
    sluffed = [(e.seat, e.cards) for e in events(state, "sluff")]
    assert sluffed == [(B, cs("9D")), (C, cs("4H")), (C, cs("4S"))]
    assert state.pending == 0 and state.to_act == C


def test_goat_first_part_sluffed_cards_make_no_war_and_go_to_the_winner_even_after_settling():
    # Flurst, The First Part, "Sloughing": sluffed cards do not decide the trick nor cause wars, the
    # winner takes them, and sluffing may go on after the trick has been won.
    state = _sluff_trick()
    state.apply(sluff("9D"), B)
    state.apply(sluff("4H"), C)
    state.apply(sluff("4S"), C)
    state.apply(play("2S"))  # C draws 2D; the trick is settled for A
    assert events(state, "war") == []
    assert state.to_act == A and state.pending == (1 << A) | (1 << C)
    state.apply(PASS)
    assert state.to_act == C
    state.apply(sluff("2D"))  # matching its own card, after the trick is won
    assert state.piles[A] == cs("9C 4D 9D 4H 4S 2S 2D")
    assert state.to_act == A
    assert state.hands[C] == cs("JH 3S 7S")


def test_goat_first_part_sluff_restriction_1_not_the_high_rank_before_playing():
    # Flurst, "Sloughing", first restriction (Howell 5.4.1): a player who has not yet played may not
    # sluff a card matching the highest card so far, as it may be the card he must play; it becomes
    # allowed once someone plays higher.  Other ranks on the table may be sluffed.
    state = new_game(GOAT, ["7C 2C 3C", "QD 3D 4D", "7H QH 5H"], "9S 8S 6S TS JS")
    state.apply(play("7C"))
    assert sluffs_of(state, C) == 0
    with pytest.raises(IllegalActionError) as err:
        state.apply(sluff("7H"), C)
    assert err.value.reason
    assert state.to_act == B
    state.apply(play("QD"))
    assert state.to_act == C
    assert sluffs_of(state, C) == cs("7H")
    state.apply(sluff("7H"))
    assert state.hands[C] == cs("QH 5H 6S")
    assert plays(state) == {play("QH")}
    state.apply(play("QH"))
    assert [e.seats for e in events(state, "war")] == [(B, C)]


def test_goat_first_part_sluff_restriction_2_contenders_need_a_replacement_card():
    # Flurst, "Sloughing", second restriction (Howell 5.4.2), as ruled: while the trick is unsettled a
    # player still in contention (due to play, or holding a share of the highest card) may not sluff
    # unless the stock holds at least two cards; others may; after the trick is won anyone may.
    hands = ["9S KC KD", "5C 7D 8D", "3S 7H 8H", "5S 2S 7S"]
    deck = stack_deck(hands, dealer=D, tail="9C 5D 3H", bottom="6H", drain=len(hands),
                      filler=unmatched_leader_filler)
    state = State.new(GOAT, 4, dealer=D, deck=deck)
    drain(state, 4)
    moves(state, (A, "stock"), (B, "stock"))
    state.apply(STOCK)  # C turns 3H; only the bottom card is left
    assert len(state.stock) == 1
    assert sluffs_of(state, D) == 0  # due to play: a 5 is on the table but not the highest
    assert sluffs_of(state, A) == 0  # played the highest card
    assert sluffs_of(state, B) == cs("5C") and sluffs_of(state, C) == cs("3S")
    assert state.to_act == B
    state.apply(sluff("5C"))  # B draws the last card, which is set aside
    assert state.trump_holder == B
    pass_windows(state)
    assert state.to_act == D
    with pytest.raises(IllegalActionError):
        state.apply(sluff("5S"), D)
    state.apply(play("2S"))
    assert sluffs_of(state, D) == cs("5S") and sluffs_of(state, A) == cs("9S")
    state.apply(sluff("9S"), A)
    state.apply(sluff("5S"), D)
    pass_windows(state)
    assert state.piles[A] & cs("9C 5D 3H 5C 2S 9S 5S") == cs("9C 5D 3H 5C 2S 9S 5S")
    assert state.to_act == A


def test_goat_howell_three_player_war_and_sluff_example():
    # Howell, The First Part, the EXAMPLE with Player 1: 8D 3D 5C, Player 2: 3C 3S 2D, Player 3: KC KS 2H.
    # P1 leads 3D; P2 must play a 3 and sluffs the other; P3 plays 2H; P1 and P2 are at war; P2 sluffs
    # 2D; P1 leads 5C to the war; P2 turns up 4C; P3 sluffs 5H; P1 takes all eight cards.
    state = new_game(GOAT, ["8D 3D 5C", "3C 3S 2D", "KC KS 2H"], "7D QC JS 5H 9H 6S 4C 8C")
    state.apply(play("3D"))
    assert state.to_act == B
    assert plays(state) == {play("3C"), play("3S")}
    assert sluffs_of(state, B) == 0
    state.apply(play("3S"))
    assert state.to_act == B and sluffs_of(state, B) == cs("3C")
    state.apply(sluff("3C"))
    assert state.to_act == C
    state.apply(play("2H"))
    assert [e.seats for e in events(state, "war")] == [(A, B)]
    assert state.hands == [cs("8D 7D 5C"), cs("QC JS 2D"), cs("KC KS 5H")]
    assert view_of(state, A).trick_cards() == cs("3D 3S 3C 2H")
    assert state.to_act == B and sluffs_of(state, B) == cs("2D")
    state.apply(sluff("2D"))  # before the war begins
    assert state.hands[B] == cs("QC JS 9H")
    assert state.to_act == A
    state.apply(play("5C"))
    assert state.to_act == C and sluffs_of(state, C) == cs("5H")
    state.apply(PASS)  # P3 holds off
    assert state.to_act == B
    state.apply(STOCK)
    assert state.to_act == C and sluffs_of(state, C) == cs("5H")
    state.apply(sluff("5H"))  # before P1 gathers the trick
    pass_windows(state)
    assert [(e.seat, e.cards) for e in events(state, "win")] == [(A, cs("3D 3S 3C 2H 2D 5C 4C 5H"))]
    assert state.hands == [cs("8D 7D 6S"), cs("QC JS 9H"), cs("KC KS 8C")]
    assert state.to_act == A


# -- The First Part: the last card of the deck and the end of the first part -----------------------------
# Filler tricks turned up from the stock empty it while A keeps winning; hands stay as dealt.


def _last_card_deal() -> State:
    # After the filler only the bottom card (TS) is left, and A is to lead.
    hands = ["2C 4C 5C", "8D 7D 6D", "3H 4H 9H"]
    deck = stack_deck(hands, dealer=C, bottom="TS", drain=len(hands),
                      filler=unmatched_leader_filler)
    state = State.new(GOAT, 3, dealer=C, deck=deck)
    drain(state, 1)
    assert state.to_act == A and state.hands == [cs(h) for h in hands]
    return state


def test_goat_first_part_last_card_of_deck_cannot_be_turned_and_is_set_aside_unseen():
    # Flurst, The First Part, "Last card of the deck": it may not be turned up as a play, and whoever
    # draws it sets it aside face down without looking, not replenishing the hand with it.
    state = _last_card_deal()
    assert STOCK not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply(STOCK)
    state.apply(play("2C"))
    trump = parse_card("TS")
    assert state.stock == [] and state.trump_holder == A and state.trump_card == trump
    assert state.hands[A] == cs("4C 5C")
    for seat in (A, B, C):
        v = view_of(state, seat)
        assert v.trump_card == -1 and v.trump_suit == -1
        assert not any(k >> trump & 1 for k in v.known)
    assert not all_event_cards(state) >> trump & 1


def test_goat_intermission_single_needy_player_gets_all_seventeen_dreck_cards():
    # Flurst, 1.5 Intermission: if someone has five cards or fewer, everybody gives up the 2-5s and the
    # 6 of trumps; a single needy player gets all seventeen.  B had six cards, so is not needy even
    # though two are left after giving up the dreck.
    state = _last_card_deal()
    moves(
        state,
        (A, "play 2C"), (B, "play 8D"), (C, "play 3H"),  # B wins
        (B, "play 7D"), (C, "play 4H"), (A, "play 4C"),  # B wins
        (B, "play 6D"), (C, "play 9H"), (A, "play 5C"),  # C wins, then has no card to lead
    )
    dreck = dreck_of("S")
    assert dreck.bit_count() == 17
    assert [(e.cards, e.seats) for e in events(state, "dreck")] == [(dreck, (C,))]
    assert state.hands[B] == cs("8D 7D")
    assert state.hands[C] == cs("6D 9H") | dreck
    assert state.hands[A] == ((1 << 52) - 1) & ~state.hands[B] & ~state.hands[C]
    assert state.hands[A] & cs("TS")
    assert state.phase == Phase.TWO


def test_goat_second_part_winner_of_last_first_part_trick_leads():
    # Flurst, The Second Part, "Leading a trick": the winner of the last trick of the first part leads
    # the first trick - C here, neither the first leader nor the trump card's holder (A).
    state = _last_card_deal()
    moves(
        state,
        (A, "play 2C"), (B, "play 8D"), (C, "play 3H"),
        (B, "play 7D"), (C, "play 4H"), (A, "play 4C"),
        (B, "play 6D"), (C, "play 9H"), (A, "play 5C"),
    )
    assert [e.seat for e in events(state, "end-one")] == [C]
    assert state.trump_suit == SUITS.index("S") and state.trump_holder == A
    assert state.to_act == C
    assert state.kill_at == 3


def test_goat_intermission_no_dreck_when_everybody_has_six_cards():
    # Flurst, 1.5 Intermission: the dreck is only redistributed if somebody has five cards or fewer.
    # Here A, B and C end with 36+, 7 and 9 cards; C won the last trick and leads.
    hands = ["2C 3C 4C", "TD 9D 5D", "3H 4H 8H"]
    deck = stack_deck(hands, dealer=C, tail="5C 6D 7H 2D 9H 6C", bottom="QS", drain=len(hands),
                      filler=unmatched_leader_filler)
    state = State.new(GOAT, 3, dealer=C, deck=deck)
    drain(state, 7)
    moves(
        state,
        (A, "play 2C"), (B, "play TD"), (C, "play 3H"),  # B wins
        (B, "play 9D"), (C, "play 4H"), (A, "play 3C"),  # B wins
        (B, "play 5D"), (C, "play 8H"), (A, "play 4C"),  # B draws the last card; C wins
        (C, "play 7H"), (A, "play 5C"), (B, "play 6D"),  # C wins
        (C, "play 9H"), (A, "play 6C"), (B, "play 2D"),  # C wins and has no card to lead
    )
    assert events(state, "dreck") == []
    assert state.phase == Phase.TWO
    assert state.hands[B] == cs("2C TD 3H 9D 4H 3C QS")
    assert state.hands[C] == cs("5D 8H 4C 7H 5C 6D 9H 6C 2D")
    assert state.to_act == C


def test_goat_intermission_player_giving_away_every_card_goes_out_at_once():
    # Flurst, 1.5 Intermission: a player with six or more cards who gives them all to the dreck has no
    # hand and is out before the second part begins; the lead then passes on clockwise.
    hands = ["2C 2D 2H", "5C 5D 5H", "3C 4C 4D"]
    deck = stack_deck(hands, dealer=C, bottom="9S", drain=len(hands),
                      filler=unmatched_leader_filler)
    state = State.new(GOAT, 3, dealer=C, deck=deck)
    drain(state, 1)
    moves(
        state,
        (A, "play 2C"), (B, "play 5C"), (C, "play 3C"),
        (B, "play 5D"), (C, "play 4C"), (A, "play 2D"),
        (B, "play 5H"), (C, "play 4D"), (A, "play 2H"),  # B has won nine low cards
    )
    assert [e.seats for e in events(state, "dreck")] == [(C,)]
    assert state.hands[B] == 0
    assert state.out_order == [B]
    assert [e.seat for e in events(state, "out")] == [B]
    assert state.hands[C] == dreck_of("S")
    assert state.phase == Phase.TWO
    assert state.to_act == C  # B won the last trick but is out


# Phase one ends inside a war.  The dealer is B, so the dreck goes to C first, then A, then B.


def _war_to_the_end() -> State:
    hands = ["6C JC KS", "8D 6D JD", "3S 9H 4H"]
    deck = stack_deck(hands, dealer=B, tail="8C KD 3H", bottom="QH", drain=len(hands),
                      filler=unmatched_leader_filler)
    state = State.new(GOAT, 3, dealer=B, deck=deck, leader=A)
    drain(state, 4)
    state.apply(STOCK)  # A turns 8C
    assert plays(state) == {play("8D")}
    state.apply(play("8D"))  # B draws KD
    state.apply(play("3S"))  # C draws 3H; A and B are at war
    assert state.to_act == C
    state.apply(sluff("3H"))  # C draws the last card: set aside
    assert state.trump_holder == C
    for a, b in [("6C", "6D"), ("JC", "JD"), ("KS", "KD")]:
        moves(state, (A, "play " + a))
        assert plays(state) == {play(b)}
        moves(state, (B, "play " + b))
    return state


def test_goat_first_part_ends_mid_war_and_everybody_takes_back_what_they_put_in():
    # Flurst, The First Part, "Ending the first part": the first part ends when a player must play but
    # has no card; an unfinished trick (or war) is aborted and every player takes back the cards played
    # since it began.  Howell 5.9 adds that players outside the war take theirs back too.  The ruling
    # counts turned-up and sluffed cards and every war round.
    state = _war_to_the_end()
    assert len(events(state, "war")) == 4
    assert [e.seat for e in events(state, "end-one")] == [A]
    backs = {e.seat: e.cards for e in events(state, "take-back")}
    assert backs == {A: cs("8C 6C JC KS"), B: cs("8D 6D JD KD"), C: cs("3S 3H")}
    assert state.hands[A] & cs("8C 6C JC KS") == cs("8C 6C JC KS")
    assert state.hands[B] == cs("8D 6D JD KD")
    assert state.hands[C] == cs("9H QH")  # 3S 3H 4H went to the dreck; the trump card joined
    assert state.trump_suit == SUITS.index("H")


def test_goat_intermission_dreck_dealt_one_at_a_time_to_several_needy_players():
    # Flurst, 1.5 Intermission ("split bozos"): with several needy players the dreck is shuffled and
    # dealt out to them; as ruled, one card at a time clockwise from the dealer's left (C, then B).
    state = _war_to_the_end()
    dreck = dreck_of("H")
    assert [(e.cards, e.seats) for e in events(state, "dreck")] == [(dreck, (C, B))]
    assert state.phase == Phase.DRECK and state.to_act == CHANCE
    order = sorted(cards_in(dreck), reverse=True)
    state.apply(Action(Kind.DRECK, dreck, tuple(order)), CHANCE)
    assert state.hands[C] == cs("9H QH") | mask_of(order[0::2])
    assert state.hands[B] == cs("8D 6D JD KD") | mask_of(order[1::2])
    assert state.hands[C].bit_count() == 2 + 9 and state.hands[B].bit_count() == 4 + 8
    assert state.phase == Phase.TWO
    assert state.to_act == A  # A won the last completed trick


def test_goat_intermission_dreck_shuffle_is_a_chance_action():
    # Flurst, 1.5 Intermission: the dreck pile gets shuffled before it is dealt out.
    state = _war_to_the_end()
    action = state.chance_action(random.Random(11))
    assert sorted(action.order) == sorted(cards_in(dreck_of("H")))
    with pytest.raises(IllegalActionError):
        state.apply(action, B)
    state.apply(action, CHANCE)
    assert state.hands[C] == cs("9H QH") | mask_of(action.order[0::2])
    assert state.hands[B] == cs("8D 6D JD KD") | mask_of(action.order[1::2])


# -- The Second Part: beat it or eat it ------------------------------------------------------------------


def test_goat_second_part_lead_any_card_or_run_of_touching_cards():
    # Flurst, The Second Part, "Cards that touch" and "Leading a trick": a run may be played as one
    # card, or only part of it, or single cards.
    state = phase_two(GOAT, ["5D 6D 7D 9C", "2S", "3S"], trump="H")
    expected = {"5D", "5D 6D", "5D 6D 7D", "6D", "6D 7D", "7D", "9C"}
    assert set(state.legal_actions()) == {play(t) for t in expected}
    with pytest.raises(IllegalActionError):
        state.apply(play("7D 9C"))


def test_goat_second_part_beat_with_higher_card_or_run_of_same_suit_or_trump_else_eat():
    # Flurst, The Second Part, "Following a trick": beat the top play (a higher card of its suit, as
    # ruled, or any trump on a non-trump; runs allowed) or eat; eating is allowed even when one could
    # beat.  A run beats if its lowest card is above the top play's highest card.
    state = phase_two(GOAT, ["5C 6C 7C 2D", "4C 8C 9C TC KC AH 2S 3S", "QD"], trump="S")
    state.apply(play("5C 6C 7C"))
    expected = {"8C", "8C 9C", "8C 9C TC", "9C", "9C TC", "TC", "KC", "2S", "2S 3S", "3S"}
    assert set(state.legal_actions()) == {play(t) for t in expected} | {PICK}
    for bad in ("AH", "4C", "9C KC", "TC KC"):
        with pytest.raises(IllegalActionError):
            state.apply(play(bad))
    state.apply(play("2S 3S"))
    assert state.legal_actions() == [PICK]  # only a higher trump beats a trump


def test_goat_second_part_eat_the_lowest_run_not_the_top_play():
    # Flurst, The Second Part, "Following a trick": whoever eats takes the lowest run on the table; the
    # next player must then beat what is still there.
    state = phase_two(GOAT, ["5C 6C 7C 2D", "4C 2S 3S", "QD"], trump="S")
    state.apply(play("5C 6C 7C"))
    state.apply(play("2S 3S"))
    state.apply(PICK)
    assert state.hands[C] == cs("QD 5C 6C 7C")
    assert list(state.table) == [cs("2S 3S")]
    assert state.to_act == A
    assert state.legal_actions() == [PICK]


def test_goat_second_part_ace_and_two_of_another_suit_do_not_touch():
    # Flurst, The Second Part, "Cards that touch": only adjacent cards of one suit touch, so an eater
    # of a club ace topped by the 2 of trumps (diamonds) takes the ace alone.
    state = phase_two(GOAT, ["AC 5H", "2D 6H", "7S 8S"], trump="D")
    state.apply(play("AC"))
    state.apply(play("2D"))
    state.apply(PICK)
    assert state.hands[C] == cs("7S 8S AC")
    assert list(state.table) == [cs("2D")]
    assert state.to_act == A
    with pytest.raises(IllegalActionError):
        phase_two(GOAT, ["AC 2D", "3S", "4S"], trump="H").apply(play("AC 2D"))


def test_goat_second_part_eating_every_touching_card_ends_the_trick_next_player_leads():
    # Flurst, The Second Part, "Ending a trick by eating": if all the cards on the table touch, the
    # eater takes them all and the next player clockwise leads.
    state = phase_two(GOAT, ["2C 9H", "3C 4C 7H", "5C 8H", "6D 2H"], trump="S")
    state.apply(play("2C"))
    state.apply(play("3C 4C"))
    state.apply(play("5C"))
    assert state.legal_actions() == [PICK]
    state.apply(PICK)
    assert state.hands[D] == cs("6D 2H 2C 3C 4C 5C")
    assert list(state.table) == []
    assert state.to_act == A
    assert state.kill_at == 4


def test_goat_howell_phase_two_example_eat_two_three_then_seven_to_jack():
    # Howell, The Second Part, the EXAMPLE (4 players): 1 leads 2-3C, 2 plays 7-8-9C, 3 eats 2-3C, 4
    # plays 10-JC, 1 eats 7-8-9-10-JC, which all touch.
    state = phase_two(GOAT, ["2C 3C 5S", "7C 8C 9C 4S", "6D 7D", "TC JC 8D"], trump="H")
    state.apply(play("2C 3C"))
    state.apply(play("7C 8C 9C"))
    state.apply(PICK)
    assert state.hands[C] == cs("6D 7D 2C 3C")
    assert list(state.table) == [cs("7C 8C 9C")]
    state.apply(play("TC JC"))
    state.apply(PICK)
    assert state.hands[A] == cs("5S 7C 8C 9C TC JC")
    assert list(state.table) == []
    assert state.to_act == B


def test_goat_howell_similar_example_kill_needs_four_plays_after_player_1_goes_out():
    # Howell, The Second Part, the SIMILAR EXAMPLE (4 players, diamonds trump): player 1 goes out on the
    # 2D with three plays on the table, player 2 eats 7C-JC, then 5D, 7-8D and AD make four plays: a
    # kill; player 2 leads and only then does a kill need three plays.
    state = phase_two(GOAT, ["2C 3C 2D", "7C 8C 9C AD QS", "5D 4S", "TC JC 7D 8D 3H"], trump="D")
    state.apply(play("2C 3C"))
    state.apply(play("7C 8C 9C"))
    state.apply(PICK)
    state.apply(play("TC JC"))
    state.apply(play("2D"))
    assert state.out_order == [A]
    assert len(state.table) == 3 and state.kill_at == 4
    assert state.to_act == B
    state.apply(PICK)
    assert state.hands[B] == cs("AD QS 7C 8C 9C TC JC")
    assert list(state.table) == [cs("2D")]
    state.apply(play("5D"))
    state.apply(play("7D 8D"))
    assert state.to_act == B  # player 1 is out and skipped
    state.apply(play("AD"))
    assert [(e.seat, e.cards) for e in events(state, "kill")] == [(B, cs("2D 5D 7D 8D AD"))]
    assert state.to_act == B
    assert state.kill_at == 3


def test_goat_second_part_flurst_four_beats_kill_and_the_killer_leads():
    # Flurst, The Second Part, "Ending a trick by killing": with four players, A leads and B, C and D
    # each beat: four plays kill the trick, the cards leave the game and D leads.
    state = phase_two(GOAT, ["4C 2S", "6C 3S", "9C 4S", "QC 5S"], trump="H")
    for card in ("4C", "6C", "9C", "QC"):
        state.apply(play(card))
    assert [(e.seat, e.cards) for e in events(state, "kill")] == [(D, cs("4C 6C 9C QC"))]
    out_before = FULL_DECK & ~cs("4C 2S 6C 3S 9C 4S QC 5S")  # cards in no hand start out of play
    assert state.killed == out_before | cs("4C 6C 9C QC")
    assert state.to_act == D


def test_goat_second_part_flurst_messier_kill_after_c_eats_a_lead():
    # Flurst, The Second Part, "Ending a trick by killing": A leads (1 play), B beats (2), C eats A's
    # lead (1), D beats (2), A beats (3), B beats (4): a kill, and B leads.
    state = phase_two(GOAT, ["4C 2S TC", "6C QC 3S", "8D 4S", "8C 5S"], trump="H")
    state.apply(play("4C"))
    state.apply(play("6C"))
    state.apply(PICK)
    assert state.hands[C] == cs("8D 4S 4C")
    assert list(state.table) == [cs("6C")]
    for card, on_table in (("8C", 2), ("TC", 3)):
        state.apply(play(card))
        assert len(state.table) == on_table
    state.apply(play("QC"))
    assert [(e.seat, e.cards) for e in events(state, "kill")] == [(B, cs("6C 8C TC QC"))]
    assert state.to_act == B


def test_goat_second_part_killer_going_out_passes_the_lead_clockwise():
    # Flurst, The Second Part, "Ending a trick by killing": a player who kills and goes out at once
    # passes the lead to the next player clockwise - skipping D, who is already out.
    state = phase_two(GOAT, ["4C 2S", "6C 3S", "9C", ""], trump="H")
    assert state.kill_at == 3
    for card in ("4C", "6C", "9C"):
        state.apply(play(card))
    assert [e.seat for e in events(state, "kill")] == [C]
    assert state.out_order == [D, C]
    assert state.to_act == A
    assert state.kill_at == 2


def test_goat_second_part_three_cards_and_one_card_are_announced():
    # Flurst, The Second Part, "Going out": a player whose hand drops to exactly three cards, or to
    # exactly one, announces it.
    state = phase_two(GOAT, ["2C 3C 9D TD 5H", "4C 5C 6C JD", "7C 8C QD KD"], trump="S")
    state.apply(play("2C 3C"))
    assert [e.seat for e in events(state, "three-cards")] == [A]
    state.apply(play("4C 5C 6C"))
    assert [e.seat for e in events(state, "one-card")] == [B]
    state.apply(play("7C 8C"))
    assert [e.seat for e in events(state, "three-cards")] == [A]
    assert [e.seat for e in events(state, "one-card")] == [B]


def test_goat_second_part_going_out_with_a_run_need_not_pass_one_card():
    # Flurst, The Second Part, "Going out": playing runs, one can go out without ever holding exactly
    # one or three cards.
    state = phase_two(GOAT, ["5D 6D 7D 8D", "2S", "3S 4S"], trump="H")
    state.apply(play("5D 6D 7D 8D"))
    assert state.out_order == [A]
    assert events(state, "three-cards") == [] and events(state, "one-card") == []
    assert state.to_act == B


def test_goat_second_part_game_ends_when_one_player_holds_cards_who_is_the_goat():
    # Flurst, The Second Part, "Going out": when two are left and one goes out, the other is the goat.
    # As ruled, the deal ends as soon as only one player holds cards, even mid-trick.
    state = phase_two(GOAT, ["9C", "TC", "2D 3D"], trump="H")
    state.apply(play("9C"))
    assert not state.is_over
    state.apply(play("TC"))
    assert state.is_over
    assert state.loser == C
    assert state.outcome is not None and state.outcome.out_order == (A, B)
    with pytest.raises(GameOverError):
        state.apply(PICK, C)
