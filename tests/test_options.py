"""Scenario tests for every option of :class:`skitgubbe.engine.rules.Rules` that changes play.

Each test stacks a deck (or sets up a phase-two position), plays it once with the option on and once
with it off (or with each of its values), and asserts what differs: the legal actions or the outcome.
Comments cite the rule text and section that the option comes from, in our own words.  Sources:
"pagat.com" is the pagat.com Skitgubbe page (its "Variants" sections, Mattis, Atlanta Variation,
Koira); "Flurst" is the page "Skitgubbe (a.k.a. Flurst)" (its "Appendix: Variations" among others);
"Howell" is Dave Howell's "Skitgubbe (aka The Swedish Goat Game)".

Seats are A=0, B=1, C=2, D=3, clockwise.  The sequential sluffing protocol is used (live=False):
after each play a sluff window asks every seat that can sluff.
"""

from __future__ import annotations

import dataclasses
import enum
import random
import re
from pathlib import Path

import pytest

from helpers import (
    PASS,
    PICK,
    STOCK,
    cs,
    drain,
    events,
    moves,
    new_game,
    pass_windows,
    phase_two,
    play,
    plays_of,
    random_playout,
    sluff,
    sluffs_of,
    stack_deck,
)
from skitgubbe import CHANCE, Action, Kind, State, find_variant, parse_action, parse_card, parse_cards
from skitgubbe.engine.base import Event, Phase
from skitgubbe.engine.cards import RANK_MASKS, SUIT_MASKS, SUITS, format_cards, mask_of, rank_of
from skitgubbe.engine.narration import describe_event
from skitgubbe.engine.phase_two import anti_trump_suit, beats, pick_up_take
from skitgubbe.engine.rules import (
    AntiTrump,
    EmptyHand,
    FirstLead,
    FirstPhase,
    PickUp,
    Plays,
    Rules,
    RulesError,
    SecondLead,
    StockEnd,
)
from skitgubbe.engine.rulesfile import parse_rules_file
from skitgubbe.engine.variants import ALIASES, PRESETS
from skitgubbe.engine.view import event_for, view_of

PAGAT = find_variant("pagat")
ALL_PLAY = Rules(first_phase=FirstPhase.ALL_PLAY, max_players=8)  # all play, no sluffing, no matching
SLUFFING = ALL_PLAY.replace(sluffing=True)
A, B, C, D = 0, 1, 2, 3
DOCS = Path(__file__).resolve().parent.parent / "docs" / "options.md"


# -- helpers -------------------------------------------------------------------------------------------


def through_phase_one(rules: Rules, seed: int, players: int = 3) -> State:
    """A seeded deal played to the end of phase one by always taking the first legal action."""
    state = State.new(rules, players, seed=seed)
    while state.phase == Phase.ONE:
        state.apply(state.legal_actions()[0])
    return state


# -- hand_size -----------------------------------------------------------------------------------------


def test_hand_size_two_card_hands() -> None:
    # pagat.com, "Variants: deal and first lead" (two-card hands): two cards are dealt instead of three
    # and phase one keeps hands at two.
    deck = stack_deck(["9C 2C 3C", "4D 5D 6D", "7H 8H TH"], "JS QS KS", dealer=C)
    three = State.new(PAGAT, 3, dealer=C, deck=deck)
    two_cards = State.new(PAGAT.replace(hand_size=2), 3, dealer=C, deck=deck)
    assert three.hand_sizes() == [3, 3, 3] and len(three.stock) == 43
    assert two_cards.hand_sizes() == [2, 2, 2] and len(two_cards.stock) == 46
    assert three.hands[A] == cs("9C 2C 3C")
    assert two_cards.hands[A] == cs("9C 2C")  # the deal goes round twice only
    assert len(plays_of(two_cards)) == 2 and len(plays_of(three)) == 3
    two_cards.apply(play("2C"))
    assert two_cards.hand_sizes()[A] == 2  # the drawn card keeps the hand at two


# -- first_phase ---------------------------------------------------------------------------------------


def test_first_phase_pairs_against_all_play() -> None:
    # pagat.com, "Play in the first phase": only the leader and the seat on its left play to a trick.
    # pagat.com, "All Players play to Each Trick in Phase One" (and Flurst, "Tricks"): every seat plays.
    hands = ["9C 2C 3C", "4D 5D 6D", "7H 8H TH"]
    pairs = new_game(PAGAT, hands, "JS QS KS AS")
    moves(pairs, (A, "play 9C"), (B, "play 4D"))
    assert pairs.piles[A] == cs("9C 4D") and pairs.to_act == A
    assert pairs.legal_actions(C) == []
    every = new_game(ALL_PLAY, hands, "JS QS KS AS")
    moves(every, (A, "play 9C"), (B, "play 4D"))
    assert every.piles == [0, 0, 0] and every.to_act == C
    moves(every, (C, "play TH"))
    assert every.piles[C] == cs("9C 4D TH")


# -- first_lead and aces_low_first ---------------------------------------------------------------------


def test_first_lead_lowest_card_leads() -> None:
    # pagat.com, "Variants: deal and first lead" (lowest card or loser leads): the holder of the
    # lowest card dealt leads; among equal lowest cards, the first clockwise from the dealer's left.
    lowest = ALL_PLAY.replace(first_lead=FirstLead.LOWEST_CARD)
    hands = ["9C 5C 6C", "4D 5D 3S", "7H 8H 3H"]
    assert new_game(ALL_PLAY, hands).to_act == A
    assert new_game(lowest, hands).to_act == B  # B's 3S comes before C's 3H from the dealer's left
    assert new_game(lowest, hands, dealer=B).to_act == C  # now C is the first clockwise from B's left
    assert new_game(lowest, ["9C 5C 6C", "4D 5D 6D", "7H 2H 8H"]).to_act == C
    # in a series the previous loser leads: an explicit leader wins over the option
    assert new_game(lowest, hands, leader=A).to_act == A


def test_aces_low_first_in_phase_one_only() -> None:
    # Flurst, "Appendix: Variations" (aces low in first part) and Howell, "The Rules" 3: in phase one
    # an ace ranks below the 2; in phase two it is high again.
    low = PAGAT.replace(aces_low_first=True)
    hands = ["AC 5C 6C", "2D 5D 6D", "7H 8H 9H"]
    high_game = new_game(PAGAT, hands)
    moves(high_game, (A, "play AC"), (B, "play 2D"))
    assert high_game.piles[A] == cs("AC 2D")
    low_game = new_game(low, hands)
    moves(low_game, (A, "play AC"), (B, "play 2D"))
    assert low_game.piles[B] == cs("AC 2D")
    assert low_game.to_act == B
    # the lowest card dealt is the ace when aces are low
    lowest = low.replace(first_lead=FirstLead.LOWEST_CARD)
    assert new_game(lowest, ["9C 5C 6C", "2D 5D 6D", "7H AH 9H"]).to_act == C
    assert new_game(PAGAT.replace(first_lead=FirstLead.LOWEST_CARD),
                    ["9C 5C 6C", "2D 5D 6D", "7H AH 9H"]).to_act == B
    # phase two: the ace beats the king again
    state = phase_two(low, ["KC 2D", "AC 3D"], trump="H")
    state.apply(play("KC"))
    assert cs("AC") in plays_of(state)


# -- exposed_bottom, bottom_aside, show_trump_card -----------------------------------------------------


def test_exposed_bottom_shows_the_trump_card_to_come() -> None:
    # pagat.com, "Variants: deal and first lead" (exposed trump indicator): the bottom stock card is
    # turned face up after the deal, so the trump suit is known from the start.
    deck = stack_deck(["9C 2C 3C", "4D 5D 6D", "7H 8H TH"], dealer=C, bottom="QS")
    shown = State.new(PAGAT.replace(exposed_bottom=True, show_trump_card=False), 3, dealer=C, deck=deck)
    hidden = State.new(PAGAT.replace(show_trump_card=False), 3, dealer=C, deck=deck)
    assert all(view_of(shown, s).exposed_card == parse_card("QS") for s in range(3))
    assert all(view_of(hidden, s).exposed_card == -1 for s in range(3))
    assert shown.stock[0] == parse_card("QS") and len(shown.stock) == len(hidden.stock)  # still in the stock


def test_exposed_bottom_and_show_trump_card_at_the_end_of_phase_one() -> None:
    # pagat.com, "All Players play to Each Trick in Phase One": the drawer turns the trump card face
    # up.  Flurst, "Determine trump": its holder looks at it and only names the suit.  An exposed
    # bottom card was seen by everyone anyway (pagat.com, "Exposed trump indicator").
    names = {"shown": PAGAT, "named": PAGAT.replace(show_trump_card=False),
             "exposed": PAGAT.replace(show_trump_card=False, exposed_bottom=True)}
    end = {k: through_phase_one(r, seed=0) for k, r in names.items()}
    holder, card = end["shown"].trump_holder, end["shown"].trump_card
    other = (holder + 1) % 3
    assert all(s.trump_holder == holder and s.trump_card == card for s in end.values())
    assert end["shown"].known[holder] >> card & 1
    assert view_of(end["shown"], other).trump_card == card
    assert not end["named"].known[holder] >> card & 1
    assert view_of(end["named"], other).trump_card == -1
    assert view_of(end["named"], holder).trump_card == card
    assert view_of(end["named"], other).trump_suit == card // 13  # the suit is announced
    # the trump event holds the card for its holder only
    assert [event_for(e, other).cards for e in events(end["named"], "trump")] == [0]
    assert [event_for(e, holder).cards for e in events(end["named"], "trump")] == [1 << card]
    assert end["exposed"].known[holder] >> card & 1
    assert view_of(end["exposed"], other).trump_card == card


def test_bottom_aside_names_trumps_then_leaves_the_game() -> None:
    # Flurst, "Appendix: Variations" (no bottom card) and Howell, "The First Part" 2: the bottom card is
    # set aside after the deal, names the trump suit when phase one ends and takes no further part.
    aside_rules = PAGAT.replace(bottom_aside=True)
    deck = list(range(52))
    random.Random(0).shuffle(deck)
    aside = State.new(aside_rules, 3, deck=deck)
    normal = State.new(PAGAT, 3, deck=deck)
    assert aside.trump_card == deck[-1] and aside.trump_holder == -1
    assert len(aside.stock) == len(normal.stock) - 1 == 52 - 9 - 1
    assert normal.trump_card == -1
    for state in (aside, normal):
        while state.phase == Phase.ONE:
            state.apply(state.legal_actions()[0])
    card = deck[-1]
    assert aside.trump_suit == card // 13 and aside.killed == 1 << card
    assert not any(h >> card & 1 for h in aside.hands) and aside.trump_holder == -1
    assert sum(aside.hand_sizes()) == 51
    # otherwise the same bottom card is drawn as the trump card and joins its drawer's hand
    assert normal.trump_card == card and normal.trump_holder >= 0 and normal.killed == 0
    assert normal.hands[normal.trump_holder] >> card & 1 and sum(normal.hand_sizes()) == 52
    # with no drawer, the trump-drawer lead falls back to the last trick's winner
    assert aside.to_act == aside.last_winner
    # the last stock card is an ordinary card: it may be turned up like any other
    last = new_game(aside_rules, ["7C 9C 3D", "7D 2H 3H", "4S 5S 6S"], bottom="KS", drain=2, dealer=C)
    drain(last, 2)
    last.apply(STOCK)
    assert len(last.stock) == 1 and STOCK in last.legal_actions()
    last.apply(STOCK)
    assert last.stock == [] and last.trump_card == parse_card("KS") and last.trump_holder == -1


# -- sluffing and its restrictions ---------------------------------------------------------------------


def test_sluffing_on_and_off() -> None:
    # Flurst, "Sloughing"; pagat.com, "All Players play to Each Trick in Phase One": a card of a rank
    # already in the trick may be thrown in, and is replaced from the stock.
    hands = ["7C 2C 3C", "7D 4D 5D", "8H 9H TH"]
    off = new_game(ALL_PLAY, hands, "JS QS KS")
    off.apply(play("7C"))
    assert off.to_act == B and off.pending == 0
    assert sluffs_of(off, B) == 0
    on = new_game(SLUFFING, hands, "JS QS KS")
    on.apply(play("7C"))
    assert on.pending == 1 << B and sluffs_of(on, B) == cs("7D")
    on.apply(sluff("7D"), B)
    assert on.hands[B] == cs("4D 5D QS") and on.trick_cards == cs("7C 7D")  # A drew the JS, B the QS


def test_sluff_guard_high() -> None:
    # Flurst, "Sloughing" (the first restriction) and Howell, "The First Part" 5.4.1: a seat that has not
    # yet played may not sluff a card of the highest rank so far, as it may be its forced play.
    hands = ["7C 2C 3C", "7D 4D 5D", "7H 2H TH"]
    free = new_game(SLUFFING, hands, "JS QS KS")
    free.apply(play("7C"))
    assert sluffs_of(free, B) == cs("7D") and sluffs_of(free, C) == cs("7H")
    guarded = new_game(SLUFFING.replace(sluff_guard_high=True), hands, "JS QS KS")
    guarded.apply(play("7C"))
    assert sluffs_of(guarded, B) == 0 and sluffs_of(guarded, C) == 0
    assert guarded.pending == 0 and guarded.to_act == B
    moves(guarded, (B, "play 4D"))  # B has played: it may now sluff its 7
    assert sluffs_of(guarded, B) == cs("7D") and sluffs_of(guarded, C) == 0


def test_sluff_guard_high_keeps_the_forced_match() -> None:
    # Flurst, "Sloughing" (first restriction): the card barred is the one the seat may have to play.  With
    # compulsory ties (pagat.com, "Variants: trick play and sluffing") that can be a lower rank than the
    # round's highest: C must tie the 5, so it may not sluff it; without the duty it may.
    hands = ["5C 2C 3C", "KH 4D 6D", "5D 9S 9H"]
    ties = SLUFFING.replace(ties_beat_unique=True, sluff_guard_high=True)
    free = new_game(ties, hands, "JC QC JD QD")
    moves(free, (A, "play 5C"), (B, "play KH"))
    assert sluffs_of(free, C) == cs("5D")
    bound = new_game(ties.replace(must_match=True), hands, "JC QC JD QD")
    bound.apply(play("5C"))
    assert sluffs_of(bound, C) == 0 and bound.pending == 0
    bound.apply(play("KH"))
    assert sluffs_of(bound, C) == 0 and plays_of(bound) == {cs("5D")}


def test_sluff_guard_last() -> None:
    # Flurst, "Sloughing" (the second restriction) and Howell, "The First Part" 5.4.2: a seat that can
    # still win the trick may not sluff once the stock cannot replace the card (docs/rulings.md G6);
    # a seat out of the running may.
    hands = ["7C 2S 9D", "7D 3S 4S", "2H 7H 6H"]
    tail, bottom = "2C KC QC", "5S"
    results = {}
    for guard in (False, True):
        state = new_game(SLUFFING.replace(sluff_guard_last=guard), hands, tail=tail, bottom=bottom,
                         drain=3)
        drain(state, 4)
        moves(state, (A, "play 7C"), (B, "play 7D"))
        state.apply(play("2H"))  # a war between A and B; A, B and C drew the last three cards but one
        assert len(state.stock) == 1 and state.round_seats == [A, B]
        results[guard] = state
    assert sluffs_of(results[False], A) == cs("2S 2C")
    assert sluffs_of(results[True], A) == 0  # A is in the war
    assert sluffs_of(results[True], C) == sluffs_of(results[False], C) == cs("7H")  # C cannot win
    assert results[True].pending == 1 << C and results[False].pending == 1 << A | 1 << C


def test_restaurant_rules_the_last_stock_card_never_replaces_a_sluff() -> None:
    # Flurst, "Appendix: Variations" (no sloughing for trump, a.k.a. restaurant rules): the bottom card
    # may replace a played card, not a sluffed one.
    hands = ["7C 2D 3D", "7D 7H 8S", "2H 3H 4H"]
    results = {}
    for restaurant in (False, True):
        state = new_game(SLUFFING.replace(restaurant=restaurant), hands, tail="9C TC JC", bottom="KS",
                         drain=3)
        drain(state, 4)
        moves(state, (A, "play 7C"), (B, "play 8S"))
        state.apply(play("4H"))
        assert len(state.stock) == 1 and state.winner == B
        state.apply(sluff("7D"), B)
        results[restaurant] = state
    plain, rest = results[False], results[True]
    assert plain.trump_card == parse_card("KS") and plain.trump_holder == B and plain.stock == []
    assert rest.trump_card == -1 and rest.stock == [parse_card("KS")] and rest.trump_holder == -1
    assert rest.hands[B] == cs("7H TC")  # no replacement
    rest.apply(sluff("7H"), B)  # B has nothing more to sluff: the trick is collected
    assert rest.hands[B] == cs("TC") and rest.piles[B] and rest.to_act == B
    moves(rest, (B, "play TC"))  # a play does draw the last card
    assert rest.trump_card == parse_card("KS") and rest.trump_holder == B


def test_restaurant_rules_phase_two_always_has_a_trump_suit() -> None:
    # Under restaurant rules sluffs are not replaced from the last stock card.  Here A wins a trick with
    # one card in the stock, sluffs its whole hand into it, and must lead with no cards: phase one ends
    # (Flurst, "Ending the first part"), and the seat due to play draws the bottom card as the trump card.
    state = new_game(SLUFFING.replace(restaurant=True), ["9C 9D 9H", "7D 2S 3S", "2H 3H 4H"],
                     tail="9S 5C 6C", bottom="KS", drain=3)
    drain(state, 4)
    moves(state, (A, "play 9C"), (B, "play 7D"))
    state.apply(play("2H"))
    for card in ("9D", "9H", "9S"):
        state.apply(sluff(card), A)
    pass_windows(state)
    assert state.phase == Phase.TWO
    assert state.stock == [] and state.trump_suit == SUITS.index("S")
    assert state.trump_card == parse_card("KS") and state.trump_holder == A
    assert state.hands[A] >> parse_card("KS") & 1


def test_sluff_own_rank() -> None:
    # pagat.com, "Variants: trick play and sluffing" (sluff must match own card): a seat may only sluff
    # the rank it played itself; after a tie, only the rank it played the second time.
    hands = ["7C 7S 2D", "7D 4D 5D", "2H 7H 6H"]
    stock = "9C 8D 8H 9S"
    free = new_game(SLUFFING, hands, stock)
    free.apply(play("7C"))
    assert sluffs_of(free, B) == cs("7D") and sluffs_of(free, A) == cs("7S")
    own = new_game(SLUFFING.replace(sluff_own_rank=True), hands, stock)
    own.apply(play("7C"))
    assert sluffs_of(own, B) == 0 and sluffs_of(own, C) == 0  # neither has played yet
    assert sluffs_of(own, A) == cs("7S")
    moves(own, (B, "play 7D"), (C, "play 2H"))  # A and B tie: a war
    assert own.round_seats == [A, B]
    assert own.hands[C] >> parse_card("7H") & 1 and sluffs_of(own, C) == 0  # C played a 2, not a 7
    assert sluffs_of(own, A) == cs("7S")
    own.apply(play("9C"))  # A's second play, and A draws the 9S: from now on only nines
    assert own.hands[A] == cs("7S 2D 9S")
    assert sluffs_of(own, A) == cs("9S")


def test_max_equal_play() -> None:
    # pagat.com, "All Players play to Each Trick in Phase One": a seat may play one card or two or three
    # cards of one rank, and draws back up to three.  Cards of one rank from one seat make no tie.
    hands = ["7C 7D 2C", "9H 4D 5D", "2H 3H 4H"]
    single = new_game(ALL_PLAY, hands, "JS QS KS AS")
    assert plays_of(single) == {cs("7C"), cs("7D"), cs("2C")}
    multi = new_game(ALL_PLAY.replace(max_equal_play=3), hands, "JS QS KS AS")
    assert plays_of(multi) == {cs("7C"), cs("7D"), cs("2C"), cs("7C 7D")}
    multi.apply(play("7C 7D"))
    assert multi.hands[A] == cs("2C JS QS") and multi.trick_cards == cs("7C 7D")
    moves(multi, (B, "play 4D"), (C, "play 2H"))
    assert multi.piles[A] == cs("7C 7D 4D 2H") and not events(multi, "war")
    with pytest.raises(ValueError, match="play exactly one card"):
        new_game(ALL_PLAY, hands, "JS QS KS AS").apply(play("7C 7D"))  # one card only by default
    # a pair does not beat a single card of its rank: they tie
    tie = new_game(ALL_PLAY.replace(max_equal_play=3), ["7C 7D 2C", "7H 4D 5D", "2H 3H 4H"], "JS QS KS AS")
    moves(tie, (A, "play 7C 7D"), (B, "play 7H"), (C, "play 2H"))
    assert [e.seats for e in events(tie, "war")] == [(A, B)]


def test_sluff_settled_only() -> None:
    # pagat.com, "All Players play to Each Trick in Phase One": once the trick (with any tie) is settled,
    # the seats have one more chance to add cards of ranks already in it; not before.
    hands = ["7C 2C 3C", "7D 4D 5D", "8H 7H TH"]
    free = new_game(SLUFFING, hands, "JS QS KS AS")
    free.apply(play("7C"))
    assert sluffs_of(free, B) == cs("7D") and sluffs_of(free, C) == cs("7H")
    settled = new_game(SLUFFING.replace(sluff_settled_only=True), hands, "JS QS KS AS")
    settled.apply(play("7C"))
    assert sluffs_of(settled, B) == 0 and settled.pending == 0
    with pytest.raises(ValueError, match="only once the trick is settled"):
        settled.apply(sluff("7H"), C)
    moves(settled, (B, "play 4D"))
    settled.apply(play("8H"))
    assert settled.winner == C and sluffs_of(settled, B) == cs("7D") and sluffs_of(settled, C) == cs("7H")
    war = new_game(SLUFFING.replace(sluff_settled_only=True), ["7C 2C 3C", "7D 4D 5D", "2H 7H TH"],
                   "JS QS KS AS")
    moves(war, (A, "play 7C"), (B, "play 7D"))
    war.apply(play("2H"))
    assert war.round_seats == [A, B] and sluffs_of(war, C) == 0  # the tie is not settled yet


def test_sluff_after_play() -> None:
    # pagat.com, Atlanta Variation, phase one 3: a seat sluffs only after it has played to the trick.
    hands = ["7C 2C 3C", "7D 4D 5D", "8H 9H TH"]
    free = new_game(SLUFFING, hands, "JS QS KS AS")
    free.apply(play("7C"))
    assert sluffs_of(free, B) == cs("7D") and free.pending == 1 << B
    after = new_game(SLUFFING.replace(sluff_after_play=True), hands, "JS QS KS AS")
    after.apply(play("7C"))
    assert sluffs_of(after, B) == 0 and after.pending == 0 and after.to_act == B
    with pytest.raises(ValueError, match="only after you have played"):
        after.apply(sluff("7D"), B)
    after.apply(play("4D"))
    assert sluffs_of(after, B) == cs("7D")


def test_sluff_once() -> None:
    # pagat.com, Atlanta Variation, phase one 3 (and "All Players play to Each Trick in Phase One": a seat
    # that has sluffed and drawn may not sluff again in that trick): a seat has one occasion to sluff,
    # one card after another, which ends as soon as anything else happens.  Otherwise a seat may sluff
    # whenever it can.
    hands = ["7C 2C 3C", "7D 7H 5D", "8H 9H TH"]
    stock = "JS QS KS AS 2S"
    free = new_game(SLUFFING, hands, stock)
    free.apply(play("7C"))
    free.apply(sluff("7D"), B)
    pass_windows(free)  # B passes the rest of its window
    assert free.to_act == B and sluffs_of(free, B) == cs("7H")  # it may still sluff at any moment
    once = new_game(SLUFFING.replace(sluff_once=True), hands, stock)
    once.apply(play("7C"))
    assert [a.cards for a in once.legal_actions(B) if a.kind is Kind.SLUFF] == [cs("7D"), cs("7H")]
    both = once.clone()
    both.apply(sluff("7D"), B)
    assert sluffs_of(both, B) == cs("7H")  # the same occasion goes on
    both.apply(sluff("7H"), B)
    assert both.hands[B] == cs("5D QS KS") and both.trick_cards == cs("7C 7D 7H")
    once.apply(sluff("7D"), B)
    pass_windows(once)  # B passes: that ends its occasion
    assert once.to_act == B and once.hands[B] >> parse_card("7H") & 1
    assert sluffs_of(once, B) == 0  # its one occasion is over
    with pytest.raises(ValueError, match="only once in a trick"):
        once.apply(sluff("7H"), B)


ATLANTA_176 = ("2 play 5H; 0 stock; 1 play 4H; 0 pass; 0 play 8H; 1 play 6C; 2 stock; 2 stock; 0 stock; "
               "0 pass; 1 play KC; 1 sluff KH; 0 pass")
"""The moves of the issue 28 report (atlanta, three seats, dealer 1, seed 176), seat then action."""


def test_a_pass_that_ends_a_sluffing_occasion_drops_the_seat_from_the_window() -> None:
    # Ruling E18 (with O19): seat 1 sluffs KH in the settled trick's window and could go on (KS);
    # seat 0's pass ends its occasion.  Seat 1 can no longer sluff, so it leaves the window, as it
    # would had seat 0 sluffed instead: the trick is collected and seat 2, its winner, leads.
    atlanta = PRESETS["atlanta"]
    steps = [(int(seat), parse_action(text)) for seat, text in
             (step.split(" ", 1) for step in ATLANTA_176.split("; "))]
    for live in (False, True):  # the live protocol has no window before the trick is settled
        state = State.new(atlanta, 3, dealer=1, seed=176, live=live)
        for i, (seat, action) in enumerate(steps):
            if live and i == 9:
                assert not state.pending
                continue
            state.apply(action, seat)
            if i == len(steps) - 2:
                assert state.pending == 1 << A | 1 << B and sluffs_of(state, B) == cs("KS")
        assert state.hands[B] >> parse_card("KS") & 1 and sluffs_of(state, B) == 0
        assert state.pending == 0 and state.to_act == C and state.tricks == 3, live
        assert state.legal_actions(B) == []
    # with every seat asked (either protocol), a seat stays pending until it passes
    state = State.new(atlanta, 3, dealer=1, seed=176, live=True, ask_every_seat=True)
    for i, (seat, action) in enumerate(steps):
        if i == 9:
            continue
        if action.kind in (Kind.PLAY, Kind.STOCK):
            pass_windows(state)
        state.apply(action, seat)
    assert state.pending == 1 << B | 1 << C and state.to_act == C  # asked from seat 2 on
    assert state.legal_actions(B) == [PASS]
    moves(state)
    assert state.to_act == C and state.tricks == 3


def test_sluff_losing_only() -> None:
    # pagat.com, Atlanta Variation, phase one 3: only a rank that is losing the trick may be sluffed,
    # never the rank heading it.
    hands = ["7C 2C 3C", "4D 7D 4H", "8H 9H TH"]
    free = new_game(SLUFFING, hands, "JS QS KS AS")
    moves(free, (A, "play 7C"), (B, "play 4D"))
    assert sluffs_of(free, B) == cs("7D 4H")
    losing = new_game(SLUFFING.replace(sluff_losing_only=True), hands, "JS QS KS AS")
    moves(losing, (A, "play 7C"), (B, "play 4D"))
    assert sluffs_of(losing, B) == cs("4H")
    with pytest.raises(ValueError, match="losing the trick"):
        losing.apply(sluff("7D"), B)


def test_sluff_losing_only_in_a_war() -> None:
    # pagat.com, Atlanta Variation: the tied rank heads the trick until the war round is played; once a
    # higher card heads the war, the tied rank is losing and may be sluffed.
    hands = ["7C 9C 3C", "7D 2D 5D", "2H 7H 6H"]
    losing = new_game(SLUFFING.replace(sluff_losing_only=True), hands, "JS QS KS AS")
    moves(losing, (A, "play 7C"), (B, "play 7D"))
    losing.apply(play("2H"))
    assert losing.round_seats == [A, B] and losing.hands[C] >> parse_card("7H") & 1
    assert sluffs_of(losing, C) == 0  # the sevens still head the trick
    pass_windows(losing)
    losing.apply(play("9C"))
    assert sluffs_of(losing, C) == cs("7H")
    free = new_game(SLUFFING, hands, "JS QS KS AS")
    moves(free, (A, "play 7C"), (B, "play 7D"))
    free.apply(play("2H"))
    assert sluffs_of(free, C) == cs("7H")


# -- ties_beat_unique and must_match ---------------------------------------------------------------------


def test_ties_beat_unique() -> None:
    # pagat.com, "Variants: trick play and sluffing" (tied ranks beat unique ranks) and Mattis,
    # "Variants": a rank played by two seats beats any rank played once, even a higher one.
    hands = ["5C 2C 3C", "5D 4D 6D", "KH 8H TH"]
    plain = new_game(ALL_PLAY, hands, "JS QS KS AS")
    moves(plain, (A, "play 5C"), (B, "play 5D"), (C, "play KH"))
    assert plain.piles[C] == cs("5C 5D KH") and not events(plain, "war")
    tied = new_game(ALL_PLAY.replace(ties_beat_unique=True), hands, "JS QS KS AS")
    moves(tied, (A, "play 5C"), (B, "play 5D"), (C, "play KH"))
    assert [e.seats for e in events(tied, "war")] == [(A, B)]
    assert tied.round_seats == [A, B] and tied.to_act == A
    moves(tied, (A, "play 3C"), (B, "play 6D"))
    assert tied.piles[B] == cs("5C 5D KH 3C 6D")


def test_ties_beat_unique_the_highest_tie_heads() -> None:
    # pagat.com, "Tied ranks beat unique ranks": among several tied ranks the highest heads the trick;
    # in the replay ties again beat unique ranks.
    rules = ALL_PLAY.replace(ties_beat_unique=True)
    state = new_game(rules, ["5C 2C 3C", "5D 4D 6D", "9H 8H TH", "9S 8S TS"], "JC QC KC AC JD QD")
    moves(state, (A, "play 5C"), (B, "play 5D"), (C, "play 9H"), (D, "play 9S"))
    assert state.round_seats == [C, D]
    assert [e.seats for e in events(state, "war")] == [(C, D)]


def test_compulsory_ties() -> None:
    # pagat.com, "Variants: trick play and sluffing" (compulsory ties) with ties beating unique ranks:
    # a seat holding a rank already in the round must play it (the highest such rank) unless a higher
    # tie already exists.  Under plain "match if you can" only the highest rank binds.
    matching = ALL_PLAY.replace(must_match=True)
    compulsory = matching.replace(ties_beat_unique=True)
    hands = ["5C 2C 3C", "KH 4D 6D", "5D 9S 9H", "5S 6S KS"]
    stock = "JC QC JD QD"
    plain = new_game(matching, hands, stock)
    moves(plain, (A, "play 5C"), (B, "play KH"))
    assert plain.to_act == C and plays_of(plain) == {cs("5D"), cs("9S"), cs("9H")}
    forced = new_game(compulsory, hands, stock)
    moves(forced, (A, "play 5C"), (B, "play KH"))
    assert plays_of(forced) == {cs("5D")} and STOCK not in forced.legal_actions()
    # D holds a 5 and a K: it must take the highest tie it can make, the K
    moves(forced, (C, "play 5D"))
    assert plays_of(forced) == {cs("KS")}
    # ...but with a tie of kings already there, a 5 would not head the trick: D is free
    higher = new_game(compulsory, ["KC 2C 3C", "KH 4D 6D", "5D 9S 9H", "5S 6S 7S"], stock)
    moves(higher, (A, "play KC"), (B, "play KH"), (C, "play 5D"))
    assert plays_of(higher) == {cs("5S"), cs("6S"), cs("7S")} and STOCK in higher.legal_actions()


def test_must_match() -> None:
    # Flurst, "Tricks" (match if you can) and pagat.com, Atlanta Variation, phase one 2: a seat holding
    # the rank of the highest card so far must play it, and may not turn up the stock instead.
    hands = ["9C 2C 3C", "9D 4D 5D", "8H 9H TH"]
    free = new_game(ALL_PLAY, hands, "JS QS KS")
    free.apply(play("9C"))
    assert plays_of(free) == {cs("9D"), cs("4D"), cs("5D")} and STOCK in free.legal_actions()
    bound = new_game(ALL_PLAY.replace(must_match=True), hands, "JS QS KS")
    bound.apply(play("9C"))
    assert bound.legal_actions() == [play("9D")]
    with pytest.raises(ValueError, match="you must match the 9"):
        bound.apply(play("4D"))
    moves(bound, (B, "play 9D"))
    assert plays_of(bound) == {cs("9H")}  # the nine is still the highest card


# -- turn_from_stock and stock_end -------------------------------------------------------------------------


def test_turn_from_stock() -> None:
    # pagat.com, "Play in the first phase" and Flurst, "Tricks": instead of a card from hand a seat may
    # turn up the top stock card and must play it.
    hands = ["9C 2C 3C", "4D 5D 6D", "7H 8H TH"]
    on = new_game(PAGAT, hands, "JS QS KS")
    assert STOCK in on.legal_actions()
    on.apply(STOCK)
    assert on.hands[A] == cs("9C 2C 3C") and on.trick_cards == cs("JS")
    off = new_game(PAGAT.replace(turn_from_stock=False), hands, "JS QS KS")
    assert STOCK not in off.legal_actions()
    with pytest.raises(ValueError, match="do not allow turning up the stock"):
        off.apply(STOCK)
    # the last stock card is never turned up: it becomes the trump card
    last = new_game(PAGAT, ["7C 9C 3D", "7D 2H 3H", "4S 5S 6S"], bottom="KS", drain=2, dealer=C)
    drain(last, 3)
    assert STOCK in last.legal_actions()
    drain(last, 1)
    assert STOCK not in last.legal_actions() and plays_of(last) == {cs("7C"), cs("9C"), cs("3D")}


@pytest.mark.parametrize("end", [e for e in StockEnd if e is not StockEnd.SKIP_EMPTY])  # Koira: all-play only
def test_stock_end_after_a_plain_last_trick(end: StockEnd) -> None:
    # pagat.com, "Variants: end of phase one" (end phase one when talon is empty): phase one stops when
    # the trick in which the last stock card was drawn is won; or, in the second form, a new trick
    # starts only if every seat still holds two cards.  Normally play goes on with the cards in hand.
    state = new_game(PAGAT.replace(stock_end=end), ["7C 9C 3D", "7D 2H 3H", "4S 5S 6S"], bottom="KS",
                     drain=2, dealer=C)
    drain(state, 1)
    moves(state, (A, "play 7C"), (B, "play 2H"))
    assert state.trump_holder == A and state.trump_card == parse_card("KS") and state.stock == []
    if end is StockEnd.STOP:
        assert state.phase == Phase.TWO
        assert [(e.seat, e.cards) for e in events(state, "exposed")] == [
            (A, cs("9C 3D")), (B, cs("7D 3H")), (C, cs("4S 5S 6S"))]
    else:  # everyone still holds two cards or more
        assert state.phase == Phase.ONE and state.to_act == A and state.hand_sizes() == [2, 2, 3]


@pytest.mark.parametrize("end", [e for e in StockEnd if e is not StockEnd.SKIP_EMPTY])  # Koira: all-play only
def test_stock_end_after_a_bounce(end: StockEnd) -> None:
    # pagat.com, "Variants: end of phase one": after a bounce A and B hold one card each, so the
    # stop-unless-two form ends phase one too; play-on goes on.
    state = new_game(PAGAT.replace(stock_end=end), ["7C 9C 3D", "7D 2H 3H", "4S 5S 6S"], bottom="KS",
                     drain=2, dealer=C)
    drain(state, 1)
    moves(state, (A, "play 7C"), (B, "play 7D"), (A, "play 9C"), (B, "play 2H"))
    assert events(state, "bounce")
    if end is StockEnd.PLAY_ON:
        assert state.phase == Phase.ONE and state.to_act == A and state.hand_sizes() == [1, 1, 3]
    else:
        assert state.phase == Phase.TWO
        assert events(state, "end-one")[0].seat == A


# -- the end of phase one: expose_leftover, second_lead, dreck -------------------------------------------


def test_expose_leftover() -> None:
    # pagat.com, "Play in the first phase" (last paragraph): cards left in hand when phase one ends are
    # shown to everybody.  Otherwise only won and taken-back cards are known.
    shown = through_phase_one(PAGAT, seed=0)
    hidden = through_phase_one(PAGAT.replace(expose_leftover=False), seed=0)
    exposed = events(shown, "exposed")
    assert exposed and not events(hidden, "exposed")
    for e in exposed:
        back = sum(x.cards for x in events(shown, "take-back") if x.seat == e.seat)
        kept = e.cards & ~back
        assert kept, "the example needs a leftover card that was not taken back"
        assert shown.known[e.seat] & kept == kept
        assert hidden.known[e.seat] & kept == 0
        other = (e.seat + 1) % 3
        assert view_of(shown, other).known[e.seat] & kept == kept
        assert view_of(hidden, other).known[e.seat] & kept == 0
    assert shown.hands == hidden.hands


def test_second_lead() -> None:
    # pagat.com, "Play in the second phase": the seat that drew the trump card leads.  Flurst, "Leading a
    # trick": the winner of the last trick of phase one leads.
    drawer = through_phase_one(PAGAT, seed=0)
    last = through_phase_one(PAGAT.replace(second_lead=SecondLead.LAST_TRICK), seed=0)
    assert drawer.trump_holder != drawer.last_winner, "the example needs two different seats"
    assert drawer.to_act == drawer.trump_holder
    assert last.to_act == last.last_winner
    assert drawer.hands == last.hands


def _sizes_at_phase_two(seed: int) -> tuple[list[int], int]:
    state = through_phase_one(PAGAT, seed)
    assert state.phase == Phase.TWO
    return state.hand_sizes(), state.trump_card


def test_dreck_below_a_number() -> None:
    # Flurst, "Make sure everyone has at least six cards" and pagat.com, "Variants: end of phase one"
    # (number of cards needed): a seat with fewer cards than the limit receives the dreck.
    sizes, _ = _sizes_at_phase_two(seed=0)
    limit = sorted(sizes)[1]  # the smallest seat is needy, the others are not
    needy = [s for s in (A, B, C) if sizes[s] < limit]
    assert len(needy) == 1
    state = through_phase_one(PAGAT.replace(dreck_below=limit), seed=0)
    assert [e.seats for e in events(state, "dreck")] == [tuple(needy)]
    assert state.phase == Phase.TWO  # one needy seat: it gets the dreck at once, no chance action
    state = through_phase_one(PAGAT.replace(dreck_below=sizes[needy[0]]), seed=0)  # "fewer than"
    assert not events(state, "dreck")
    several = through_phase_one(PAGAT.replace(dreck_below=max(sizes)), seed=0)
    assert several.phase == Phase.DRECK and several.to_act == CHANCE
    assert len(several.needy) == 2
    assert not events(through_phase_one(PAGAT, seed=0), "dreck")  # 0: no dreck at all


def test_dreck_below_the_trump_cards_rank() -> None:
    # pagat.com, "Variants: end of phase one" (number of cards needed): some make the limit the rank of
    # the trump card, ace 14, king 13, queen 12, jack 11.
    for seed in (0, 5):
        sizes, trump_card = _sizes_at_phase_two(seed)
        limit = rank_of(trump_card)
        needy = tuple(s for s in (A, B, C) if sizes[s] < limit)
        state = through_phase_one(PAGAT.replace(dreck_below=-1), seed)
        assert [e.seats for e in events(state, "dreck")] == ([needy] if needy else [])
        fixed = through_phase_one(PAGAT.replace(dreck_below=limit), seed)
        assert [e.seats for e in events(fixed, "dreck")] == [e.seats for e in events(state, "dreck")]
    # seed 0 turns up a king (a needy seat), seed 5 a two (nobody has fewer than two cards)
    assert rank_of(_sizes_at_phase_two(0)[1]) == 13 and rank_of(_sizes_at_phase_two(5)[1]) == 2
    assert events(through_phase_one(PAGAT.replace(dreck_below=-1), 0), "dreck")
    assert not events(through_phase_one(PAGAT.replace(dreck_below=-1), 5), "dreck")


@pytest.mark.parametrize(("max_rank", "trump_rank"), [(5, 0), (5, 6), (7, 0), (2, 14), (5, 3)])
def test_dreck_max_rank_and_dreck_trump_rank(max_rank: int, trump_rank: int) -> None:
    # pagat.com, "All Players play to Each Trick in Phase One": the dreck ("shit cards") is every 2 to
    # 5.  Flurst, "Make sure everyone has at least six cards" and the Atlanta Variation add the 6 of
    # trumps: 17 cards.
    rules = PAGAT.replace(dreck_below=52, dreck_max_rank=max_rank, dreck_trump_rank=trump_rank)
    state = through_phase_one(rules, seed=0)
    suit = state.trump_suit
    expected = 0
    for r in range(2, max_rank + 1):
        expected |= RANK_MASKS[r]
    if trump_rank:
        expected |= 1 << (suit * 13 + trump_rank - 2)
    assert [e.cards for e in events(state, "dreck")] == [expected]
    assert state.dreck == expected and state.phase == Phase.DRECK
    held = 0
    for h in state.hands:
        held |= h
    assert held & expected == 0  # every seat gave them up
    state.apply(state.chance_action(random.Random(1)), CHANCE)
    got = [state.hands[s] & expected for s in range(3)]
    assert sum(g.bit_count() for g in got) == expected.bit_count()
    sizes = [g.bit_count() for g in got]
    assert max(sizes) - min(sizes) <= 1  # dealt round the needy seats (all three: everyone has < 52)


def test_dreck_keeps_a_trump_card_set_aside_out_of_play() -> None:
    # Flurst, "No bottom card" with the dreck: the card set aside is out of play, so it is not dreck
    # even when it is the 6 of trumps (docs/rulings.md on the dreck).
    deck = list(range(52))
    random.Random(3).shuffle(deck)
    six = [c for c in deck if rank_of(c) == 6][0]
    deck.remove(six)
    deck.append(six)  # the bottom card is a six: set aside, it names trumps
    rules = PAGAT.replace(bottom_aside=True, dreck_below=52, dreck_trump_rank=6)
    state = State.new(rules, 3, deck=deck)
    while state.phase == Phase.ONE:
        state.apply(state.legal_actions()[0])
    assert state.trump_suit == six // 13 and state.killed == 1 << six
    assert state.dreck == RANK_MASKS[2] | RANK_MASKS[3] | RANK_MASKS[4] | RANK_MASKS[5]


# -- empty_hand ---------------------------------------------------------------------------------------------


def _empty_seat_deal(rules: Rules, hands: list[str]) -> State:
    """Three seats with one card each; A turns up the whole stock and wins every filler trick; then
    everyone plays the dealt card, and whoever wins that trick must lead with an empty hand."""
    state = new_game(rules.replace(hand_size=1), hands, bottom="9S", drain=3)
    drain(state, 1)
    moves(state, (A, f"play {hands[A]}"), (B, f"play {hands[B]}"), (C, f"play {hands[C]}"))
    return state


@pytest.mark.parametrize("mode", list(EmptyHand))
def test_empty_hand_one_seat_without_cards(mode: EmptyHand) -> None:
    # pagat.com, "Play in the second phase": a seat with no cards takes no part in phase two (safe).
    # pagat.com, Mattis: such a seat ("Blåmattis") takes part and must pick up the lowest card of the
    # trick at its first turn.  Mattis, "Variants": it loses at once.
    rules = ALL_PLAY.replace(empty_hand=mode, max_players=3)
    state = _empty_seat_deal(rules, ["5C", "KD", "2H"])
    assert state.hands[C] == 0 and state.hands[B] == cs("5C KD 2H")
    if mode is EmptyHand.LOSES:
        assert state.is_over and state.loser == C
        return
    assert state.phase == Phase.TWO and state.to_act == A  # A drew the trump card
    state.apply(play("2C"))  # the lowest club: A won it in the filler
    state.apply(play("5C"))
    if mode is EmptyHand.SAFE:
        assert state.out_order == [C] and state.kill_at == 2
        assert state.table == [] and state.killed == cs("2C 5C")  # two plays killed it
        return
    assert state.kill_at == 3 and state.out_order == []
    assert state.to_act == C and state.legal_actions() == [PICK]
    state.apply(PICK)
    assert state.hands[C] == cs("2C")  # the lowest card on the table
    assert state.table == [cs("5C")] and state.to_act == A
    assert C not in state.out_order and not state.is_over


def test_empty_hand_blamattis_when_only_one_seat_holds_cards() -> None:
    # pagat.com, Mattis: the seats without cards still take part, so the game is not over when only one
    # seat holds cards at the start of phase two.  (Safe: that seat is alone and loses at once.)
    safe = _empty_seat_deal(ALL_PLAY.replace(max_players=3), ["KC", "2D", "3H"])
    assert safe.hands[B] == 0 and safe.hands[C] == 0
    assert safe.is_over and safe.loser == A
    blue = _empty_seat_deal(ALL_PLAY.replace(max_players=3, empty_hand=EmptyHand.BLAMATTIS),
                            ["KC", "2D", "3H"])
    assert not blue.is_over, "Blåmattis seats should take part: A leads, B must pick up"
    assert blue.to_act == A and blue.kill_at == 3
    blue.apply(play("2C"))
    assert blue.to_act == B and blue.legal_actions() == [PICK]
    blue.apply(PICK)
    assert blue.hands[B] == cs("2C") and blue.table == []
    assert blue.to_act == A  # C, on B's left, has nothing to lead: the lead goes on to A
    blue.apply(play("3C"))
    assert blue.to_act == B and blue.legal_actions() == [PICK]  # B now plays as usual: its 2C cannot beat


# -- plays -----------------------------------------------------------------------------------------------


def test_plays_single_runs_runs_of_three_and_runs_from_the_two() -> None:
    # pagat.com, "Play in the second phase" (single cards); "Playing sequences in phase two" (runs of any
    # length); Mattis (some require three cards); Koira, "Variants" (only runs starting with the 2).
    hand = "2C 3C 4C 5C 9D"
    singles = {cs(c) for c in hand.split()}
    leads = {p: plays_of(phase_two(PAGAT.replace(plays=p), [hand, "6H"])) for p in Plays}
    assert leads[Plays.SINGLE] == singles
    assert leads[Plays.RUN] == singles | {cs("2C 3C"), cs("3C 4C"), cs("4C 5C"), cs("2C 3C 4C"),
                                          cs("3C 4C 5C"), cs("2C 3C 4C 5C")}
    assert leads[Plays.RUN3] == singles | {cs("2C 3C 4C"), cs("3C 4C 5C"), cs("2C 3C 4C 5C")}
    assert leads[Plays.RUN_FROM_TWO] == singles | {cs("2C 3C"), cs("2C 3C 4C"), cs("2C 3C 4C 5C")}


def test_plays_run_beating_example() -> None:
    # pagat.com, "Playing sequences in phase two": a led 5 of diamonds can be beaten by 7-8-9, that by
    # Q-K, or by a single 3 of spades when spades are trumps.
    runs = PAGAT.replace(plays=Plays.RUN)
    state = phase_two(runs, ["5D 2C", "7D 8D 9D 4C", "QD KD 3S 6C"], trump="S")
    state.apply(play("5D"))
    assert cs("7D 8D 9D") in plays_of(state)
    state.apply(play("7D 8D 9D"))
    assert {cs("QD KD"), cs("3S"), cs("QD"), cs("KD")} <= plays_of(state)
    single = phase_two(PAGAT, ["5D 2C", "7D 8D 9D 4C", "QD KD 3S 6C"], trump="S")
    single.apply(play("5D"))
    assert plays_of(single) == {cs("7D"), cs("8D"), cs("9D")}


# -- pick_up ---------------------------------------------------------------------------------------------

JOINED = ["3C 5C 2S", "6C 7C JC 2D", "8C 9C TC QC 3D", "4D 5D"]


def _joined(mode: PickUp) -> State:
    """pagat.com, "Pick up joined sequences": A leads 3C, B plays 6-7C, C plays 8-9-10C, D picks up."""
    state = phase_two(PAGAT.replace(plays=Plays.RUN, pick_up=mode), JOINED, trump="H")
    for text in ("3C", "6C 7C", "8C 9C TC"):
        state.apply(play(text))
    assert state.to_act == D
    state.apply(PICK)
    return state


@pytest.mark.parametrize(
    ("mode", "taken", "left"),
    [
        (PickUp.TOP_RUN, "6C 7C 8C 9C TC", ["3C"]),  # the top card and all in sequence below it
        (PickUp.TOP_CARD, "8C 9C TC", ["3C", "6C 7C"]),  # only the last play
        (PickUp.BOTTOM_PLAY, "3C", ["6C 7C", "8C 9C TC"]),  # the lowest play
        (PickUp.LOWEST_RUN, "3C", ["6C 7C", "8C 9C TC"]),  # 3 does not touch 6: alone
        (PickUp.LOWEST_CARD, "3C", ["6C 7C", "8C 9C TC"]),
    ],
)
def test_pick_up_joined_sequences_example(mode: PickUp, taken: str, left: list[str]) -> None:
    # pagat.com, "Variants: playing and picking up sequences": in the first example D picks up six to
    # ten but not the three, which is no part of the run.
    state = _joined(mode)
    assert state.hands[D] == cs("4D 5D " + taken)
    assert state.table == [cs(p) for p in left]


def test_pick_up_joined_sequences_a_beats_his_own_lead() -> None:
    # pagat.com, "Pick up joined sequences", the second example: D picks both B's and C's plays, only A's
    # lead is left and A must beat it; when B and C play again there are four plays and the trick ends.
    state = _joined(PickUp.TOP_RUN)
    assert state.to_act == A and state.table_owners == [A]
    assert plays_of(state) == {cs("5C")}  # A must beat its own 3C (or pick it up)
    assert PICK in state.legal_actions()
    state.apply(play("5C"))
    state.apply(play("JC"))
    assert state.table == [cs("3C"), cs("5C"), cs("JC")] and state.kill_at == 4
    state.apply(play("QC"))
    assert state.table == [] and state.killed & cs("3C 5C JC QC") == cs("3C 5C JC QC")
    assert events(state, "kill")[-1].seat == C and state.to_act == C
    # under top-card pick-up the same moves leave B's run on the table: five cards, two plays below D
    top = _joined(PickUp.TOP_CARD)
    assert top.to_act == A and top.table_owners == [A, B]
    assert plays_of(top) == set() and top.legal_actions() == [PICK]  # A cannot beat B's 6-7


def test_pick_up_lowest_run_howell_example() -> None:
    # Howell, "The Second Part" 6 (and Flurst, "Following a trick"): 1 leads 2-3C, 2 plays 7-8-9C, 3 picks
    # up the 2-3, 4 plays 10-J, 1 picks up 7-8-9-10-J, all touching.
    rules = PAGAT.replace(plays=Plays.RUN, pick_up=PickUp.LOWEST_RUN, max_players=4)
    state = phase_two(rules, ["2C 3C 4H", "7C 8C 9C 5H", "5D 6H", "TC JC 7H"], trump="D")
    for action in (play("2C 3C"), play("7C 8C 9C"), PICK, play("TC JC"), PICK):
        state.apply(action)
    assert state.hands[C] == cs("5D 6H 2C 3C")
    assert state.hands[A] == cs("4H 7C 8C 9C TC JC")
    assert state.table == [] and state.to_act == B  # all picked up: the next seat leads
    # picking the bottom play alone would have left 10-J on the table
    bottom = phase_two(rules.replace(pick_up=PickUp.BOTTOM_PLAY), ["2C 3C 4H", "7C 8C 9C 5H", "5D 6H",
                                                            "TC JC 7H"], trump="D")
    for action in (play("2C 3C"), play("7C 8C 9C"), PICK, play("TC JC"), PICK):
        bottom.apply(action)
    assert bottom.hands[A] == cs("4H 7C 8C 9C") and bottom.table == [cs("TC JC")]


def test_pick_up_lowest_card_a_run_counts_until_gone() -> None:
    # pagat.com, Koira "Variants": only the lowest card is picked up; a run stays a play on the table
    # until all its cards are gone.
    rules = PAGAT.replace(plays=Plays.RUN, pick_up=PickUp.LOWEST_CARD)
    state = phase_two(rules, ["2C 3C 4C 9S", "6C 8S", "5D 7S"], trump="H")
    state.apply(play("2C 3C 4C"))
    state.apply(play("6C"))
    state.apply(PICK)
    assert state.hands[C] == cs("5D 7S 2C")
    assert state.table == [cs("3C 4C"), cs("6C")] and state.kill_at == 3
    assert pick_up_take([cs("3C 4C"), cs("6C")], PickUp.LOWEST_CARD) == (cs("3C"), 0, 0)
    assert pick_up_take([cs("4C"), cs("6C")], PickUp.LOWEST_CARD) == (cs("4C"), 1, 0)


def test_forced_pickup() -> None:
    # pagat.com, "Variants: playing and picking up sequences" (forced pickup): after one seat picks up,
    # the following seats must pick up too until the table is empty; the seat to the left of the last
    # picker leads.
    hands = ["5C 7C 2D", "9C 3D", "4S 6S"]
    free = phase_two(PAGAT, hands)
    for action in (play("5C"), play("9C"), PICK):
        free.apply(action)
    assert free.to_act == A and plays_of(free) == {cs("7C")}
    forced = phase_two(PAGAT.replace(forced_pickup=True), hands)
    for action in (play("5C"), play("9C"), PICK):
        forced.apply(action)
    assert forced.to_act == A and forced.legal_actions() == [PICK]
    with pytest.raises(ValueError, match="must pick up too"):
        forced.apply(play("7C"))
    forced.apply(PICK)
    assert forced.table == [] and forced.to_act == B and forced.legal_actions()  # B leads freely
    assert PICK not in forced.legal_actions()


def test_complete_suit_ends_the_trick() -> None:
    # pagat.com, "Variants: playing and picking up sequences" (complete suit): a play that completes the
    # thirteen cards of a suit on the table ends the trick; its player leads next.
    hands = ["2C 3C 4C 5C 6C 7C 2D", "8C 9C TC JC QC KC AC 3D", "4D 5D"]
    runs = PAGAT.replace(plays=Plays.RUN)
    plain = phase_two(runs, hands, trump="H")
    plain.apply(play("2C 3C 4C 5C 6C 7C"))
    plain.apply(play("8C 9C TC JC QC KC AC"))
    assert plain.to_act == C and len(plain.table) == 2
    ends = phase_two(runs.replace(complete_suit_ends=True), hands, trump="H")
    ends.apply(play("2C 3C 4C 5C 6C 7C"))
    ends.apply(play("8C 9C TC JC QC KC AC"))
    assert ends.table == [] and ends.killed & SUIT_MASKS[0] == SUIT_MASKS[0]
    assert events(ends, "kill")[-1].seat == B and ends.to_act == B


def test_trump_ends_trick() -> None:
    # pagat.com, Koira "Variants": a trump played on a non-trump ends the trick at once; its player
    # leads.  A trump on a trump does not.
    hands = ["5C 5H 2S", "2H 9H 3S", "4D 6D"]
    plain = phase_two(PAGAT, hands)
    plain.apply(play("5C"))
    plain.apply(play("2H"))
    assert plain.to_act == C and plain.table == [cs("5C"), cs("2H")]
    ends = phase_two(PAGAT.replace(trump_ends_trick=True), hands)
    ends.apply(play("5C"))
    ends.apply(play("2H"))
    assert ends.table == [] and ends.killed & cs("5C 2H") == cs("5C 2H") and ends.to_act == B
    on_trump = phase_two(PAGAT.replace(trump_ends_trick=True), hands)
    on_trump.apply(play("5H"))
    on_trump.apply(play("9H"))
    assert on_trump.to_act == C and len(on_trump.table) == 2


# -- anti_trump --------------------------------------------------------------------------------------------


def test_anti_trump_suits() -> None:
    # pagat.com, "Anti-trumps": the other suit of the trump's colour; or electric clubs: clubs, but
    # spades when clubs are trumps.
    c, d, h, s = range(4)
    assert [anti_trump_suit(AntiTrump.SAME_COLOUR, t) for t in (c, d, h, s)] == [s, h, d, c]
    assert [anti_trump_suit(AntiTrump.ELECTRIC_CLUBS, t) for t in (c, d, h, s)] == [s, c, c, c]
    assert [anti_trump_suit(AntiTrump.NONE, t) for t in (c, d, h, s)] == [-1] * 4
    assert beats(cs("2H"), cs("5D"), h) and not beats(cs("2H"), cs("5D"), h, d)


def test_anti_trump_same_colour() -> None:
    # pagat.com, "Anti-trumps": trumps cannot beat the anti-trump suit, which has no power of its own.
    hands = ["5D 5S 2C", "2H 7D AS", "3C 4C"]
    plain = phase_two(PAGAT, hands, trump="H")
    plain.apply(play("5D"))
    assert plays_of(plain) == {cs("2H"), cs("7D")}
    anti = phase_two(PAGAT.replace(anti_trump=AntiTrump.SAME_COLOUR), hands, trump="H")
    anti.apply(play("5D"))
    assert plays_of(anti) == {cs("7D")}
    with pytest.raises(ValueError, match="trumps cannot beat the anti-trump suit"):
        anti.apply(play("2H"))
    on_spades = phase_two(PAGAT.replace(anti_trump=AntiTrump.SAME_COLOUR), hands, trump="H")
    on_spades.apply(play("5S"))
    assert plays_of(on_spades) == {cs("2H"), cs("AS")}  # only diamonds are protected


@pytest.mark.parametrize(
    ("trump", "anti", "hands"),
    [("H", "C", ["5C 5D 3S", "2H 9D AC", "4S 6S"]), ("C", "S", ["5S 5D 3H", "2C 9D AS", "4H 6H"])],
)
def test_anti_trump_electric_clubs(trump: str, anti: str, hands: list[str]) -> None:
    # pagat.com, "Anti-trumps" (Skitgubbe with electric clubs): clubs cannot be trumped, unless clubs are
    # trumps: then spades cannot be.
    rules = PAGAT.replace(anti_trump=AntiTrump.ELECTRIC_CLUBS)
    state = phase_two(rules, hands, trump=trump)
    state.apply(play(f"5{anti}"))
    assert plays_of(state) == {cs(f"A{anti}")}  # the trump 2 cannot touch it
    plain = phase_two(PAGAT, hands, trump=trump)
    plain.apply(play(f"5{anti}"))
    assert plays_of(plain) == {cs(f"A{anti}"), cs(f"2{trump}")}
    other_lead = phase_two(rules, hands, trump=trump)
    other_lead.apply(play("5D"))
    assert plays_of(other_lead) == {cs(f"2{trump}"), cs("9D")}  # the anti-trump ace has no power here


# -- high_trump_kills_only ----------------------------------------------------------------------------------


def test_high_trump_only_kills() -> None:
    # Flurst, "Appendix: Variations" (high trump rule) and Howell, "Variations": the highest trump left
    # may only be played as the play that kills the trick.
    rule = PAGAT.replace(high_trump_kills_only=True)
    hands = ["AH 5C", "6C 2D", "7C 3D"]
    assert plays_of(phase_two(PAGAT, hands)) == {cs("AH"), cs("5C")}
    assert plays_of(phase_two(rule, hands)) == {cs("5C")}
    # as the third play of a three-seat trick it kills, so it is allowed
    state = phase_two(rule, ["5C 2S", "6C 3S", "AH 4S"])
    state.apply(play("5C"))
    state.apply(play("6C"))
    assert cs("AH") in plays_of(state)
    # as the second play it is not: the holder must beat otherwise or pick up
    state = phase_two(rule, ["4S 2S", "5C 3S", "AH 4D"], leader=B)
    state.apply(play("5C"))
    assert state.legal_actions() == [PICK]
    with pytest.raises(ValueError, match="highest trump left"):
        state.apply(play("AH"))
    # two seats: the second play always kills
    pair = phase_two(rule, ["5C 2S", "AH 3S"])
    pair.apply(play("5C"))
    assert cs("AH") in plays_of(pair)


def test_high_trump_only_kills_lead_passes_to_the_right() -> None:
    # Flurst, "High trump rule" and Howell, "Variations": a seat on lead holding only the high trump has
    # no legal play; the lead passes to its right (backwards), and the high-trump holder must pick up.
    hands = ["AH", "2C 3C", "4C 5C"]
    plain = phase_two(PAGAT, hands, leader=B)
    plain.apply(play("2C"))
    plain.apply(PICK)  # C picks up the only card: A, on C's left, leads
    assert plain.to_act == A and plays_of(plain) == {cs("AH")}
    state = phase_two(PAGAT.replace(high_trump_kills_only=True), hands, leader=B)
    state.apply(play("2C"))
    state.apply(PICK)
    assert state.to_act == C  # A's right
    assert [(e.seat, e.seats) for e in events(state, "lead-passes")] == [(A, (C,))]
    state.apply(play("2C"))
    assert state.to_act == A and state.legal_actions() == [PICK]  # the ace would be play 2 of 3


def test_high_trump_only_kills_lead_passes_in_a_set_up_position() -> None:
    # The same rule when a position starts with the high-trump holder on lead.
    state = phase_two(PAGAT.replace(high_trump_kills_only=True), ["AH", "2C 3C", "4C 5C"], leader=A)
    assert state.legal_actions(), f"seat {state.to_act} is to act with no legal action"
    assert state.to_act == C and [e.seat for e in events(state, "lead-passes")] == [A]


def test_high_trump_moves_down_after_the_ace_is_killed() -> None:
    # Flurst, "High trump rule" and Howell, "Variations": once the ace has killed a trick, the king is the
    # highest trump left and the rule applies to it; a trump out of play counts as gone.
    rule = PAGAT.replace(high_trump_kills_only=True)
    state = phase_two(rule, ["5C KH 3S 9S", "6C 4S", "AH 2S 8S"])
    assert cs("KH") in plays_of(state)  # the ace is still in play
    state.apply(play("5C"))
    state.apply(play("6C"))
    state.apply(play("AH"))  # kills
    assert state.killed & cs("AH") and state.high_trump() == parse_card("KH")
    state.apply(play("2S"))  # C leads
    assert state.to_act == A and plays_of(state) == {cs("3S"), cs("9S")}  # KH may not beat as play 2 of 3
    # dealt without the ace: the king is the high trump from the start
    no_ace = phase_two(rule, ["KH 5C", "6C 2D", "7C 3D"])
    assert no_ace.high_trump() == parse_card("KH") and plays_of(no_ace) == {cs("5C")}


def test_decks_two_packs_the_killed_ace_has_a_twin() -> None:
    # Flurst and Howell, "Double Deck", with the high trump rule: the twins are the same card, so when one
    # ace of trumps is out of play the other is still the highest trump left (ruling DD3); with one pack
    # the king would be.  And a hand may hold both copies, which go out in separate plays (DD1).
    one = PAGAT.replace(high_trump_kills_only=True)
    both = one.replace(decks=2)
    single = phase_two(one, ["5C KH 3S", "6C 4S", "7C 2S 8S"])  # the ace of trumps is out of play
    assert single.high_trump() == parse_card("KH") and cs("KH") not in plays_of(single)
    # two packs: the first pack's AH is out of play, the second pack's is in C's hand
    double = State.from_phase_two(both, [cs("5C KH 3S"), cs("6C 4S"), cs("7C 2S 8S") | cs("AH") << 52],
                                  trump_suit=SUITS.index("H"), leader=A)
    assert double.high_trump() == parse_card("AH") and cs("KH") in plays_of(double)
    held = State.from_phase_two(both, [cs("5C 3S") | cs("5C") << 52, cs("6C 4S"), cs("7C 2S")],
                                trump_suit=SUITS.index("H"), leader=A)
    assert plays_of(held) == {cs("5C"), cs("3S")}  # one action for the 5 of clubs held twice
    held.apply(play("5C"))
    assert held.hands[A] == cs("3S") | cs("5C") << 52  # the other copy is still to be played


# -- the options of the two-player, mas, koira and catsatcards presets --------------------------------------


MAS = find_variant("mas")
KOIRA = find_variant("koira")
GOAT = find_variant("goat")
STORE = Action(Kind.STORE)
EXCHANGE = Action(Kind.EXCHANGE)


def test_reserve_avstickshog_set_aside_and_drawn_after_each_kill() -> None:
    # pagat.com, "Two Player Game": a second face-down pile of 12 cards is put aside at the deal and only
    # used in phase two, where both seats draw one after each kill, the seat that played last first.
    reserve = "8H 9H TH JH QH KH AH 2S 3S 4S 5S 6S"
    deck = stack_deck(["2C 3C 4C", "5D 6D 7D"], reserve, dealer=B)
    plain = State.new(PAGAT, 2, dealer=B, deck=deck)
    state = State.new(PAGAT.replace(max_players=2, reserve=12), 2, dealer=B, deck=deck)
    assert len(plain.stock) == 46 and plain.stock[-1] == parse_card("8H")
    assert len(state.stock) == 34 and state.stock[-1] == deck[18]  # the stock starts after the 12 cards
    assert mask_of(state.reserve) == cs(reserve) and view_of(state, A).reserve_size == 12
    for game in (plain, state):
        while game.phase == Phase.ONE:
            game.apply(game.legal_actions()[0])
        game.apply(game.legal_actions()[0])  # the leader's lowest card
        last = game.to_act
        beat = [a for a in game.legal_actions() if a.kind is Kind.PLAY]
        game.apply(beat[-1])  # beaten: two cards kill the trick
        assert events(game, "kill")
    assert not events(plain, "reserve-draw")
    assert [e.seat for e in events(state, "reserve-draw")] == [last, 1 - last]
    assert state.hands[last] & cs("8H") and state.hands[1 - last] & cs("9H") and len(state.reserve) == 10


def test_store_three_trumps() -> None:
    # pagat.com, "Mas with turned up trump": a seat whose hand is three trumps and nothing else may show
    # them, store them for phase two and draw three new cards.
    deck = stack_deck(["2H 9H KH", "9C 3S 4D", "5C 8S TC"], "JD QD 6C 7D", dealer=C, bottom="AH")
    off = State.new(MAS.replace(store_three_trumps=False), 3, dealer=C, deck=deck)
    assert STORE not in off.legal_actions()
    state = State.new(MAS, 3, dealer=C, deck=deck)
    assert STORE in state.legal_actions() and STORE not in state.legal_actions(B)
    state.apply(STORE)
    assert state.piles[A] == cs("2H 9H KH") and state.hands[A] == cs("JD QD 6C")
    assert state.to_act == A and view_of(state, B).piles[A] == cs("2H 9H KH")  # shown, so public


def test_exchange_two_of_trumps_for_the_turned_up_trump() -> None:
    # pagat.com, "Mas with turned up trump": while the turned-up trump lies under the stock, a seat holding
    # the 2 of trumps may exchange it for that card.
    deck = stack_deck(["7C 2H KD", "9C 3S 4D", "5H 8S TC"], "JD QD 6C", dealer=C, bottom="AH")
    off = State.new(MAS.replace(exchange_two=False), 3, dealer=C, deck=deck)
    assert EXCHANGE not in off.legal_actions()
    state = State.new(MAS, 3, dealer=C, deck=deck)
    assert view_of(state, B).exposed_card == parse_card("AH")
    state.apply(EXCHANGE)
    assert state.hands[A] == cs("7C AH KD") and state.stock[0] == parse_card("2H")
    assert view_of(state, B).exposed_card == parse_card("2H") and state.known[A] == cs("AH")
    assert state.to_act == A and EXCHANGE not in state.legal_actions()


def test_trump_shown_when_drawn() -> None:
    # catsatcards.com, standard game: the seat that draws the last stock card lays it face up at once, so the
    # trump suit is known for the rest of phase one.  pagat.com keeps it face down until phase one ends.
    for rules, shown in ((PAGAT, False), (PAGAT.replace(trump_shown_when_drawn=True), True)):
        state = new_game(rules, ["7C 9C 3D", "7D 2H 3H", "4S 5S 6S"], bottom="KS", drain=2, dealer=C)
        drain(state, 1)
        moves(state, (A, "play 7C"))  # A draws the last stock card
        assert state.phase == Phase.ONE and state.trump_holder == A
        view = view_of(state, B)
        if shown:
            assert view.trump_suit == SUITS.index("S") and view.trump_card == parse_card("KS")
            assert [(e.seat, e.cards) for e in events(state, "trump-drawn")] == [(A, cs("KS"))]
        else:
            assert view.trump_suit == -1 and view.trump_card == -1 and not events(state, "trump-drawn")


def test_sluff_last_rank() -> None:
    # catsatcards.com, Flurst: a card may be sluffed only if it has the rank of the card just put into the
    # trick (ruling C3: played, turned up or sluffed).  The goat preset allows any rank in the trick.
    for rules, after_nine, after_turned in ((GOAT, "7H 9S", "7H 9S"),
                                            (GOAT.replace(sluff_last_rank=True), "9S", "7H")):
        state = new_game(rules, ["7C 7H 9S", "9D 2D 3D", "4H 5H 6H"], "2S 3S 7S KC")
        moves(state, (A, "play 7C"))
        state.apply(play("9D"))
        assert sluffs_of(state, A) == cs(after_nine)
        pass_windows(state)
        state.apply(STOCK)  # C turns up the 7S
        assert sluffs_of(state, A) == cs(after_turned)


def test_dreck_remainder_aside() -> None:
    # catsatcards.com, Flurst: dreck cards that do not share out evenly among the seats that get the dreck
    # lie in the first trick of phase two and leave the game; otherwise they are dealt on round.
    orders = {}
    for aside in (False, True):
        state = through_phase_one(GOAT.replace(dreck_remainder_aside=aside), seed=27, players=4)
        assert state.phase == Phase.DRECK and state.needy == [C, D, A] and state.dreck.bit_count() == 17
        order = tuple(sorted(cards_in_mask(state.dreck)))
        orders[aside] = order
        before = list(state.hands)
        state.apply(Action(Kind.DRECK, state.dreck, order), CHANCE)
        got = [state.hands[s] & ~before[s] for s in range(4)]
        if aside:
            assert state.killed == mask_of(order[15:]) and [g.bit_count() for g in got] == [5, 0, 5, 5]
        else:
            assert state.killed == 0 and [g.bit_count() for g in got] == [5, 0, 6, 6]  # C, D, A in turn
        assert state.phase == Phase.TWO and state.table == []
    assert orders[False] == orders[True]


def cards_in_mask(m: int) -> list[int]:
    return [c for c in range(52) if m >> c & 1]


def test_tie_deal_koira_example() -> None:
    # pagat.com, Koira "Variants" (the seven-player example): A-2, B-8, C-J, D-5, E-J, F-J, G-4.  C, E and F
    # take back their jacks; 2, 4, 5, 8 are dealt from F counterclockwise: F the 2, E the 4, C the 5, F the
    # 8 (into their piles, ruling K3), and C leads.  Without the variant the jacks go to war.
    hands = ["2C 3D 6H", "8C 4D 7H", "JC 9D 6S", "5C TD 7S", "JD QH 8S", "JH KH 9S", "4C 3H TS"]
    firsts = ["2C", "8C", "JC", "5C", "JD", "JH", "4C"]
    war = new_game(KOIRA, hands, "AC AD AH AS")
    dealt = new_game(KOIRA.replace(tie_deal=True), hands, "AC AD AH AS")
    for state in (war, dealt):
        for seat, card in enumerate(firsts):
            assert state.to_act == seat
            state.apply(play(card))
    assert [e.seats for e in events(war, "war")] == [(C, 4, 5)] and war.to_act == C
    assert not events(war, "tie-deal") and not any(war.piles)
    assert [e.seats for e in events(dealt, "tie-deal")] == [(C, 4, 5)] and not events(dealt, "war")
    assert dealt.piles == [0, 0, cs("5C"), 0, cs("4C"), cs("2C 8C"), 0]
    assert dealt.hands[C] & cs("JC") and dealt.hands[4] & cs("JD") and dealt.hands[5] & cs("JH")
    assert dealt.hand_sizes() == [3, 3, 4, 3, 4, 4, 3] and dealt.to_act == C and dealt.trick_cards == 0


def test_incomplete_trick_dealt() -> None:
    # pagat.com, "Variants: end of phase one" (incomplete trick dealt to players): when phase one ends in the
    # middle of a trick, its cards are shuffled and dealt one at a time clockwise from the dealer's left
    # instead of being taken back.
    hands = ["7C 9C 3D", "7D 2H 3H", "4S 5S 6S"]
    for rules in (ALL_PLAY, ALL_PLAY.replace(incomplete_trick_dealt=True)):
        state = new_game(rules, hands, bottom="KS", drain=3, dealer=C)
        drain(state, 1)
        moves(state, (A, "play 9C"), (B, "play 2H"), (C, "play 4S"))  # A wins and holds the trump card
        moves(state, (A, "play 7C"), (B, "play 7D"), (C, "play 5S"))  # a war between A and B
        moves(state, (A, "play 3D"), (B, "play 3H"))  # another war: A is due with no card
        if not rules.incomplete_trick_dealt:
            assert state.phase == Phase.TWO and state.hands[B] == cs("7D 3H")  # taken back
            continue
        assert state.phase == Phase.DRECK and state.to_act == CHANCE
        trick = cs("7C 7D 5S 3D 3H")
        assert state.pending_deal() == trick and state.deal_seats() == [A, B, C]
        state.apply(Action(Kind.DRECK, trick, tuple(parse_cards("5S 3H 7C 3D 7D"))), CHANCE)
        assert state.phase == Phase.TWO
        # dealt one at a time from A: A 5S 3D, B 3H 7D, C 7C
        assert state.hands[B] == cs("3H 7D") and state.hands[C] == cs("6S 7C")
        assert state.hands[A] & cs("5S 3D") == cs("5S 3D") and state.known[A] & cs("5S 3D") == cs("5S 3D")


def test_confusion() -> None:
    # Flurst, "3-player confusion": three players with two hands each, played in the order A right, B right,
    # C right, A left, B left, C left (seats 0..5 clockwise), each player's two hands partners that see each
    # other (ruling CF1, CF2).
    rules = find_variant("goat").replace(min_players=6, max_players=6, confusion=True)
    with pytest.raises(ValueError, match="3-player confusion is played with 6 seats"):
        State.new(find_variant("goat").replace(confusion=True), 4, seed=1)
    plain = State.new(find_variant("goat"), 6, seed=5)
    state = State.new(rules, 6, seed=5)
    assert state.hands == plain.hands and state.to_act == plain.to_act  # the same deal and order
    for seat in range(6):
        partner = (seat + 3) % 6
        assert state.partner(seat) == partner and state.player_of(seat) == seat % 3
        mine = view_of(state, seat)
        assert mine.known[partner] == state.hands[partner]  # the partner hand is in sight
        assert view_of(plain, seat).known[partner] == 0
        assert all(mine.known[t] == 0 for t in range(6) if t not in (seat, partner))
    random_playout(state, 3)
    loser = state.outcome.loser if state.outcome else None
    assert loser is not None and state.player_of(loser) == loser % 3


# -- validation ----------------------------------------------------------------------------------------------


ALL_SLUFF = {"first_phase": FirstPhase.ALL_PLAY, "sluffing": True}


@pytest.mark.parametrize(
    ("options", "names", "fix"),
    [
        ({"ties_beat_unique": True}, ("ties_beat_unique", "first_phase"), ALL_SLUFF),
        ({"sluffing": True}, ("first_phase", "sluffing"), ALL_SLUFF),
        *[({"first_phase": FirstPhase.ALL_PLAY, name: True}, (name, "sluffing"), ALL_SLUFF)
          for name in ("sluff_own_rank", "restaurant", "sluff_after_play", "sluff_once", "sluff_settled_only",
                       "sluff_losing_only", "sluff_guard_high", "sluff_guard_last")],
        ({"max_equal_play": 3, "hand_size": 2}, ("max_equal_play", "hand_size"), {"hand_size": 3}),
    ],
)
def test_senseless_combinations_name_both_options(options: dict[str, object], names: tuple[str, str],
                                                  fix: dict[str, object]) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**options)  # type: ignore[arg-type]
    for name in names:
        assert name in str(info.value)
    Rules(**dict(options, **fix))  # type: ignore[arg-type]  # the other option makes it sensible


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"hand_size": 0}, "hand_size"),
        ({"hand_size": 7}, "hand_size"),
        ({"max_equal_play": 0}, "max_equal_play"),
        ({"max_equal_play": 4, "hand_size": 6}, "max_equal_play"),
        ({"dreck_below": -2}, "dreck_below"),
        ({"dreck_max_rank": 15}, "dreck_max_rank"),
        ({"dreck_trump_rank": 1}, "dreck_trump_rank"),
        ({"min_players": 1}, "min_players"),
        ({"max_players": 9}, "max_players"),
    ],
)
def test_values_out_of_range_name_the_option(options: dict[str, object], name: str) -> None:
    with pytest.raises(RulesError, match=name):
        Rules(**options)  # type: ignore[arg-type]


# -- the documentation cannot fall behind ------------------------------------------------------------------

# Each option that changes play, and the tests above that show it doing so.  A new option of Rules makes
# the next test fail until it has a scenario here.
# -- issue 16: the outside audit's rule deviations, each on a concrete deal ---------------------------
# pagat.com, Mattis "Variants" (all players of equal cards play again; O8); pagat.com, "Mas with turned
# up trump" (store at any stage: three stock cards are a whole new hand; MA3); catsatcards.com, Flurst,
# the second sluffing exception (a seat's last card; C4).

def test_mattis_variant_every_player_of_equal_cards_plays_again() -> None:
    # A 5C, B 5D, C 9C, D 9D: two tied ranks.  Under the Mattis variant all four replay; under
    # pagat.com's Skitgubbe variant only the 9s (the highest tie) do.
    hands = ["5C 2H 3H", "5D 2S 3S", "9C 4H 4S", "9D 6H 7H"]
    wars = {}
    for every in (True, False):
        rules = find_variant("mattis").with_options({"ties_beat_unique": True, "all_ties_replay": every})
        state = new_game(rules, hands, dealer=D)
        for seat, card in ((A, "5C"), (B, "5D"), (C, "9C"), (D, "9D")):
            state.apply(play(card), seat)
        wars[every] = [e.seats for e in state.events if e.kind == "war"]
        assert state.to_act == (A if every else C)
    assert wars == {True: [(A, B, C, D)], False: [(C, D)]}


def test_all_ties_replay_needs_ties_beat_unique() -> None:
    with pytest.raises(RulesError, match="all_ties_replay=True with ties_beat_unique=False"):
        find_variant("mattis").with_options({"all_ties_replay": True})


def test_mas_three_trumps_may_be_stored_with_three_cards_in_the_stock() -> None:
    # a whole new hand is three cards: the last three, the turned-up trump among them
    mas = find_variant("mas")
    found = 0
    for seed in range(200):
        state = State.new(mas, 2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and state.phase == 1:
            s = state.to_act
            hand = state.hands[s] if s >= 0 else 0
            if (s >= 0 and len(state.stock) == 3 and hand.bit_count() == 3
                    and all(c // 13 == state.trump_suit for c in range(52) if hand >> c & 1)):
                assert Action(Kind.STORE) in state.legal_actions(s)  # (ruling MA3: was refused)
                stock = set(state.stock)
                state.apply(Action(Kind.STORE), s)
                assert not state.stock and sum(1 << c for c in stock) == state.hands[s]
                found += 1
                break
            state.apply(state.random_action(rng), s)
        if found >= 2:
            break
    assert found, "no seeded Mas deal reached three trumps with three cards in the stock"


def test_mas_the_turned_up_trump_played_after_a_store_is_not_handed_back() -> None:
    # A store from a three-card stock draws the turned-up trump into the hand before the seat plays
    # (ruling MA3), so it can be played in the last trick.  The end of phase one used to add the
    # trump card to its drawer's hand again, as for a trump set aside: the card was then in two
    # hands.  Deal 12445 of three seats with seeded random play is such a deal.
    mas = find_variant("mas")
    state = State.new(mas, 3, seed=12445)
    rng = random.Random(12445)
    stored = False
    while state.phase == 1:
        s = state.to_act
        action = state.chance_action(rng) if s == CHANCE else state.random_action(rng)
        stored |= action.kind == Kind.STORE and len(state.stock) == 3
        state.apply(action, s)
    assert stored
    trump = state.trump_card
    holders = [s for s in range(3) if state.hands[s] >> trump & 1]
    assert len(holders) == 1  # one hand holds it: the one it was last played or picked up into
    seen = 0
    for h in state.hands:
        assert not seen & h
        seen |= h
    state.check_parts()


def test_flurst_a_seat_with_cards_to_spare_may_sluff_with_one_card_in_the_stock() -> None:
    # catsatcards.com, Flurst: the second exception is about a seat's LAST card.  A led 3H and holds
    # the trick; B played 2D; A sluffs 2C with the stock down to its last card (the goat preset's
    # tighter guard, sluff_guard_last, would refuse a contender any sluff here).
    hands = ["3H 2C 4C", "2D 9D TD", "JC QC KC", "5S 6S 7S"]
    for preset, allowed in (("catsatcards-flurst", True), ("goat", False)):
        rules = find_variant(preset)
        state = new_game(rules, hands, dealer=D)
        state.stock[:] = state.stock[-1:]  # (the stock down to its last card: set the position up)
        state.apply(play("3H"), A)
        state.apply(play("2D"), B)
        assert (sluff("2C") in state.legal_actions(A)) is allowed, preset


def test_flurst_a_seat_may_not_sluff_its_last_card_when_it_would_tie_or_beat() -> None:
    # the first exception (sluff_guard_high) is turned off so that the second alone is seen
    rules = find_variant("catsatcards-flurst").with_options({"sluff_guard_high": False})
    state = new_game(rules, ["3H 4C 5C", "8D 9D TD", "JC QC KC", "2S 3S 7S"], dealer=D)
    state.stock[:] = state.stock[-1:]
    state.hands[D] = cs("3S")  # D's only card ties the led 3H: it must be played, not sluffed
    state.apply(play("3H"), A)
    assert sluff("3S") not in state.legal_actions(D)
    assert "your last card" in state.explain(sluff("3S"), D)
    state.hands[D] = cs("3S 7S")  # with a card to spare, the 3 may go
    assert sluff("3S") in state.legal_actions(D)


def test_howell_double_deck_seats_seven_or_eight() -> None:
    # Howell, "double deck": for more than six players (ruling H1)
    howell = find_variant("howell")
    with pytest.raises(ValueError, match="howell is for 3 to 6 players, not 7"):
        State.new(howell, 7, seed=1)
    two = parse_rules_file('preset = "howell"\n[options]\ndecks = 2\ndreck_below = 12\n')
    assert (two.max_players, two.max_players_two_packs) == (8, 8)
    for players in (7, 8):
        state = random_playout(State.new(two, players, seed=players), players)
        assert state.is_over and len(state.deck) == 104
    assert find_variant("goat").with_options({"decks": 2}).max_players == 8  # (already eight)
    assert howell.with_options({"decks": 2, "max_players": 5}).max_players == 5  # given: kept


def test_beat_any_suit_any_higher_non_trump_beats() -> None:
    # the Flurst page, "Following a trick", read literally (ruling G15): a higher-ranking non-trump of
    # any suit beats a non-trump; a trump top still needs a higher trump.  Hearts are trumps.
    hands = ["7C 4S", "9D 8C 6D 2H", "KS 3H 5S"]
    plain = find_variant("goat").replace(plays=Plays.SINGLE)
    literal = plain.replace(beat_any_suit=True)
    for rules, nine in ((plain, False), (literal, True)):
        state = phase_two(rules, hands, "H", 0, ["play 7C"])
        legal = state.legal_actions(1)
        assert (play("9D") in legal) is nine and play("8C") in legal and play("2H") in legal
        assert play("6D") not in legal  # lower than the 7
        if not nine:
            assert "only a higher club or a trump can" in state.explain(play("9D"), 1)
    state = phase_two(literal, ["3H 4S", "9D 8C 6D 5H", "KS 3C 5S"], "H", 0, ["play 3H"])
    assert play("9D") not in state.legal_actions(1) and play("5H") in state.legal_actions(1)
    state = phase_two(literal, hands, "H", 0, ["play 7C", "play 9D"])
    assert "any suit will do" in state.reason(play("KS"), 2)


def test_a_short_pack_lowest_rank_and_suits() -> None:
    # a research construct (docs/presets/mini.md): the pack holds only ranks lowest_rank..ace of the
    # first `suits` suits; the deal, the stock and the trump suit come from it
    rules = find_variant("pagat").with_options({"lowest_rank": 12, "suits": 2, "max_players": 2,
                                                "hand_size": 2})
    assert format_cards(rules.pack) == "QC KC AC QD KD AD"
    for seed in range(20):
        state = State.new(rules, 2, seed=seed)
        assert sorted(state.deck) == [10, 11, 12, 23, 24, 25]
        assert len(state.stock) == 6 - 2 * 2 and state.stock[0] in state.deck
    state = State.new(rules.replace(lowest_rank=9, suits=3), 2, seed=1)
    assert len(state.deck) == 18 and all(c % 13 + 2 >= 9 and c // 13 < 3 for c in state.deck)
    assert len(state.stock) == 18 - 2 * 2
    with pytest.raises(RulesError, match="the short pack holds 6 cards, too few for 2 hands of 3"):
        rules.replace(hand_size=3)


SCENARIOS = {
    "hand_size": [test_hand_size_two_card_hands],
    "first_phase": [test_first_phase_pairs_against_all_play],
    "first_lead": [test_first_lead_lowest_card_leads],
    "aces_low_first": [test_aces_low_first_in_phase_one_only],
    "exposed_bottom": [test_exposed_bottom_shows_the_trump_card_to_come,
                       test_exposed_bottom_and_show_trump_card_at_the_end_of_phase_one],
    "bottom_aside": [test_bottom_aside_names_trumps_then_leaves_the_game],
    "restaurant": [test_restaurant_rules_the_last_stock_card_never_replaces_a_sluff,
                   test_restaurant_rules_phase_two_always_has_a_trump_suit],
    "sluff_own_rank": [test_sluff_own_rank],
    "max_equal_play": [test_max_equal_play],
    "sluff_settled_only": [test_sluff_settled_only],
    "sluff_after_play": [test_sluff_after_play],
    "sluff_once": [test_sluff_once],
    "sluff_losing_only": [test_sluff_losing_only, test_sluff_losing_only_in_a_war],
    "ties_beat_unique": [test_ties_beat_unique, test_ties_beat_unique_the_highest_tie_heads,
                         test_compulsory_ties],
    "stock_end": [test_stock_end_after_a_plain_last_trick, test_stock_end_after_a_bounce],
    "turn_from_stock": [test_turn_from_stock],
    "must_match": [test_must_match, test_compulsory_ties],
    "sluffing": [test_sluffing_on_and_off],
    "sluff_guard_high": [test_sluff_guard_high, test_sluff_guard_high_keeps_the_forced_match],
    "sluff_guard_last": [test_sluff_guard_last],
    "expose_leftover": [test_expose_leftover],
    "show_trump_card": [test_exposed_bottom_and_show_trump_card_at_the_end_of_phase_one],
    "dreck_below": [test_dreck_below_a_number, test_dreck_below_the_trump_cards_rank],
    "dreck_max_rank": [test_dreck_max_rank_and_dreck_trump_rank],
    "dreck_trump_rank": [test_dreck_max_rank_and_dreck_trump_rank,
                         test_dreck_keeps_a_trump_card_set_aside_out_of_play],
    "second_lead": [test_second_lead],
    "empty_hand": [test_empty_hand_one_seat_without_cards,
                   test_empty_hand_blamattis_when_only_one_seat_holds_cards],
    "plays": [test_plays_single_runs_runs_of_three_and_runs_from_the_two, test_plays_run_beating_example],
    "pick_up": [test_pick_up_joined_sequences_example, test_pick_up_joined_sequences_a_beats_his_own_lead,
                test_pick_up_lowest_run_howell_example, test_pick_up_lowest_card_a_run_counts_until_gone],
    "forced_pickup": [test_forced_pickup],
    "complete_suit_ends": [test_complete_suit_ends_the_trick],
    "trump_ends_trick": [test_trump_ends_trick],
    "anti_trump": [test_anti_trump_same_colour, test_anti_trump_electric_clubs, test_anti_trump_suits],
    "high_trump_kills_only": [test_high_trump_only_kills, test_high_trump_only_kills_lead_passes_to_the_right,
                              test_high_trump_only_kills_lead_passes_in_a_set_up_position,
                              test_high_trump_moves_down_after_the_ace_is_killed],
    "reserve": [test_reserve_avstickshog_set_aside_and_drawn_after_each_kill],
    "store_three_trumps": [test_store_three_trumps,
                           test_mas_three_trumps_may_be_stored_with_three_cards_in_the_stock],
    "exchange_two": [test_exchange_two_of_trumps_for_the_turned_up_trump],
    "trump_shown_when_drawn": [test_trump_shown_when_drawn],
    "sluff_last_rank": [test_sluff_last_rank],
    "dreck_remainder_aside": [test_dreck_remainder_aside],
    "tie_deal": [test_tie_deal_koira_example],
    "incomplete_trick_dealt": [test_incomplete_trick_dealt],
    "confusion": [test_confusion],
    "decks": [test_decks_two_packs_the_killed_ace_has_a_twin],
    "max_players_two_packs": [test_howell_double_deck_seats_seven_or_eight],
    "beat_any_suit": [test_beat_any_suit_any_higher_non_trump_beats],
    "lowest_rank": [test_a_short_pack_lowest_rank_and_suits],
    "suits": [test_a_short_pack_lowest_rank_and_suits],
    "all_ties_replay": [test_mattis_variant_every_player_of_equal_cards_plays_again,
                        test_all_ties_replay_needs_ties_beat_unique],
    "sluff_guard_last_card": [test_flurst_a_seat_with_cards_to_spare_may_sluff_with_one_card_in_the_stock,
                              test_flurst_a_seat_may_not_sluff_its_last_card_when_it_would_tie_or_beat],
}
NOT_PLAY = {"name", "min_players", "max_players", "loser_title"}  # they name things or bound the table


def test_every_option_has_a_scenario() -> None:
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert set(SCENARIOS) == fields - NOT_PLAY, "an option of Rules has no scenario test in this file"


def _option_rows(text: str) -> dict[str, str]:
    """The rows of the option table of docs/options.md (the table headed "| Option |"), by option."""
    start = text.index("\n| Option |")
    end = text.find("\n\n", start + 1)
    rows = {}
    for line in text[start:end if end >= 0 else None].strip().splitlines()[2:]:
        match = re.match(r"\|\s*`([a-z_0-9]+)`", line)
        assert match, f"a row of the option table does not start with an option name: {line[:40]}"
        assert match.group(1) not in rows, f"{match.group(1)} has two rows"
        rows[match.group(1)] = line
    return rows


def test_every_option_and_preset_is_in_the_options_doc() -> None:
    text = DOCS.read_text(encoding="utf-8")
    rows = _option_rows(text)
    assert list(rows) == [f.name for f in dataclasses.fields(Rules)], (
        "docs/options.md must have one row per option of Rules, in their order")
    for name in list(PRESETS) + list(ALIASES):
        assert f"`{name}`" in text, f"preset or alias {name!r} is not named in docs/options.md"
    for f in dataclasses.fields(Rules):  # every value of an enum option is in its row
        if isinstance(f.default, enum.Enum):
            for member in type(f.default):
                assert f"`{member.value}`" in rows[f.name], f"{f.name}: value {member.value!r} is missing"


def test_the_options_doc_names_each_presets_non_default_values() -> None:
    # the "presets" column of an option's row names every preset that does not use the default
    rows = _option_rows(DOCS.read_text(encoding="utf-8"))
    default = Rules()
    for f in dataclasses.fields(Rules):
        presets_cell = rows[f.name].rstrip().rstrip("|").rsplit("|", 1)[-1]
        named = set(re.findall(r"`([a-z0-9-]+)`", presets_cell)) & set(PRESETS)
        differ = {n for n, rules in PRESETS.items() if getattr(rules, f.name) != getattr(default, f.name)}
        assert named == differ, f"{f.name}: the presets with another value than the default are {differ}"


def test_high_trump_may_end_the_trick_when_a_trump_on_a_non_trump_ends_it() -> None:
    # Flurst "High trump rule" with pagat.com's Koira variant "a trump played on a non-trump ends the
    # trick": playing the highest trump on a non-trump ends the trick, which is the kill it may make.
    rules = find_variant("pagat").replace(high_trump_kills_only=True, trump_ends_trick=True)
    hands = [mask_of(parse_cards("5C 9D")), mask_of(parse_cards("AH 2D")), mask_of(parse_cards("3D 4D"))]
    state = State.from_phase_two(rules, hands, trump_suit=2, leader=0)
    state.apply(Action(Kind.PLAY, mask_of(parse_cards("5C"))))
    assert Action(Kind.PLAY, mask_of(parse_cards("AH"))) in state.legal_actions()
    state.apply(Action(Kind.PLAY, mask_of(parse_cards("AH"))))
    assert state.table == [] and state.to_act == 1
    without = rules.replace(trump_ends_trick=False)
    state = State.from_phase_two(without, hands, trump_suit=2, leader=0)
    state.apply(Action(Kind.PLAY, mask_of(parse_cards("5C"))))
    assert Action(Kind.PLAY, mask_of(parse_cards("AH"))) not in state.legal_actions()


@pytest.mark.parametrize(("options", "names"), [
    ({"complete_suit_ends": True, "plays": Plays.SINGLE}, ("complete_suit_ends", "plays=single")),
    ({"sluffing": True, "first_phase": FirstPhase.ALL_PLAY, "restaurant": True, "bottom_aside": True},
     ("restaurant", "bottom_aside")),
])
def test_options_that_could_never_apply_are_refused(options: dict[str, object],
                                                    names: tuple[str, str]) -> None:
    with pytest.raises(RulesError) as info:
        find_variant("pagat").replace(**options)
    assert all(name in str(info.value) for name in names)


@pytest.mark.parametrize("preset, title", [("pagat", "skitgubbe"), ("goat", "goat"), ("howell", "goat"),
                                           ("mas", "mas"), ("mattis", "mattis"), ("koira", "koira"),
                                           ("catsatcards-flurst", "goat"), ("myllymatti", "myllymatti")])
def test_the_loser_is_called_by_the_rules_title(preset: str, title: str) -> None:
    # rulings.md E17: each text's own word for its loser
    rules = find_variant(preset)
    assert rules.loser_title == title
    line = describe_event(Event("loser", 1), ["Seat 0", "Seat 1", "Seat 2"], rules)
    assert line == f"Seat 1 is the {title}"
    house = rules.with_options({"loser_title": "donkey"})
    assert describe_event(Event("loser", 1), ["Seat 0", "You", "Seat 2"], house) == "You are the donkey"


@pytest.mark.parametrize("hands, dealer, out", [([0, 0, 1 << 5, 1 << 9], 0, [1, 0]),
                                                ([0, 0, 1 << 5], 0, [1, 0]),
                                                ([0, 0, 1 << 5, 1 << 9], 2, [0, 1]),
                                                ([1 << 3, 0, 1 << 5, 0], 1, [3, 1])])
def test_seats_without_cards_in_phase_two_go_out_from_the_dealers_left(hands: list[int], dealer: int,
                                                                      out: list[int]) -> None:
    # ruling E15: seats with no cards when phase two starts are out first, from the dealer's left,
    # whether or not the deal ends at once (it did in seat order for a written position)
    state = State.from_phase_two(find_variant("goat"), hands, trump_suit=0, leader=2, dealer=dealer)
    assert state.out_order[:len(out)] == out
