"""Scenario tests for the presets ``two-player``, ``mas``, ``koira``, ``catsatcards`` and
``catsatcards-flurst``, and for the incomplete-trick variant, one test per rule statement.

Every test stacks a deck (or names the seeded deal it uses), plays the moves, and checks what the source
says happens: legal actions, who wins and leads, who draws what, when phase one ends, who loses.  Sources
are cited by name and section: "pagat.com, Two Player Game", "pagat.com, Mas with turned up trump",
"pagat.com, Koira" (and its Variants), "pagat.com, Variants: end of phase one", and "catsatcards.com"
(its standard game and its Flurst).  Rulings T, MA, K, C and I are in docs/rulings.md.

Deck order: the cards are dealt one at a time clockwise from the dealer's left, then (two-player) the
avstickshög, then the stock, top first; the last card of the deck is the bottom card (the trump card,
or in Mas the turned-up trump).  Seats are A=0, B=1, C=2, D=3, clockwise.

The property tests at the end play seeded random deals of the five presets.  tests/test_properties.py
iterates every preset too, but its card-place and view checks do not know the avstickshög, the trump card
shown face up while phase one goes on, or a chance deal other than the dreck, so they are extended here.
"""

from __future__ import annotations

import random

import pytest

from helpers import (
    PICK,
    STOCK,
    cs,
    drain,
    events,
    moves,
    new_game,
    pass_windows,
    pick,
    play,
    sluffs_of,
    stack_deck,
)
from skitgubbe import CHANCE, Action, Kind, State, find_variant, parse_card, parse_cards
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import FULL_DECK, SUIT_MASKS, SUITS, cards_in, mask_of
from skitgubbe.engine.view import view_of
from test_properties import check_outcome

TWO = find_variant("two-player")
MAS = find_variant("mas")
KOIRA = find_variant("koira")
CATS = find_variant("catsatcards")
CATS_FLURST = find_variant("catsatcards-flurst")
GOAT = find_variant("goat")
STORE = Action(Kind.STORE)
EXCHANGE = Action(Kind.EXCHANGE)
A, B, C, D = 0, 1, 2, 3


def deal(state: State, order: str) -> None:
    """The chance action dealing the pending cards in ``order``."""
    cards = state.pending_deal()
    state.apply(Action(Kind.DRECK, cards, tuple(parse_cards(order))), CHANCE)


# -- pagat.com, Two Player Game (two-player) ------------------------------------------------------------

RESERVE = "8H 9H TH JH QH KH AH 3S 4S 5S 6S 7S"


def two_player_end_game() -> State:
    """A two-player deal played into phase two, B left with three cards.

    A wins every trick of the stock but the last one turned up (2D against KD), which B wins; B then
    leads 2C from hand (drawing 5D), A plays AC and draws the last stock card, 2S (spades are trumps); A
    wins with KC and QC too and then, on lead with no card, ends phase one.  B keeps 5D and its trick
    (2D, KD); A holds the other 37 cards outside the avstickshög and leads phase two.
    """
    deck = stack_deck(["AC KC QC", "2C 3C 4C"], RESERVE, dealer=B, tail="2D KD 5D", bottom="2S", drain=2)
    state = State.new(TWO, 2, dealer=B, deck=deck)
    assert mask_of(state.reserve) == cs(RESERVE) and len(state.stock) == 34
    drain(state, 4)
    moves(state, (A, "stock"), (B, "stock"))  # 2D against KD: B wins
    moves(state, (B, "play 2C"), (A, "play AC"))
    assert state.trump_holder == A and state.stock == []
    moves(state, (A, "play KC"), (B, "play 3C"), (A, "play QC"), (B, "play 4C"))
    assert state.phase == Phase.TWO and state.to_act == A
    assert state.hands[B] == cs("2D KD 5D") and state.hands[A].bit_count() == 37
    return state


def test_two_player_avstickshog_is_the_twelve_cards_after_the_hands_unused_in_phase_one() -> None:
    # pagat.com, Two Player Game: a pile of 12 cards is set aside face down at the deal and not used in
    # phase one (ruling T1: the 12 cards after the hands in the deck order).
    state = two_player_end_game()
    assert mask_of(state.reserve) == cs(RESERVE)  # untouched by phase one
    assert state.reserve[-1] == parse_card("8H")  # its top is the first card after the hands
    assert view_of(state, B).reserve_size == 12
    assert not cs(RESERVE) & (view_of(state, B).hand | view_of(state, B).known[A])


def test_two_player_each_draws_after_a_kill_the_last_player_first() -> None:
    # pagat.com, Two Player Game: after each kill both draw one card from the pile, the seat that played
    # last to the trick first.
    state = two_player_end_game()
    moves(state, (A, "play 3D"), (B, "play KD"))  # B kills
    assert [e.seat for e in events(state, "reserve-draw")] == [B, A]
    assert state.hands[B] == cs("2D 5D 8H") and state.hands[A] & cs("9H")
    assert len(state.reserve) == 10 and state.to_act == B


def test_two_player_a_lead_of_the_last_card_picked_up_loses_at_once() -> None:
    # pagat.com, Two Player Game (ruling T3): playing one's last card while the pile holds cards does not
    # end the game; but if a seat leads its last card and the other picks it up, the other loses at once.
    state = two_player_end_game()
    moves(state, (A, "play 3D"), (B, "play KD"), (B, "play 2D"), (A, "pick"), (B, "play 5D"), (A, "pick"))
    assert state.hands[B] == cs("8H") and state.to_act == B and len(state.reserve) == 10
    state.apply(play("8H"))  # B's last card: B is not out
    assert state.phase == Phase.TWO and state.to_act == A and not events(state, "out")
    state.apply(PICK)
    assert state.is_over and state.outcome is not None
    assert state.outcome.loser == A and state.outcome.out_order == (B,)


def test_two_player_a_last_card_killed_both_draw_and_play_goes_on() -> None:
    # pagat.com, Two Player Game (ruling T3): if the trick with a seat's last card is completed while the
    # pile holds cards, both draw (the seat that played last first) and play goes on.
    state = two_player_end_game()
    moves(state, (A, "play 3D"), (B, "play KD"), (B, "play 2D"), (A, "pick"), (B, "play 5D"), (A, "pick"))
    moves(state, (B, "play 8H"), (A, "play 8S"))  # a trump kills
    assert not state.is_over and not events(state, "out")
    assert [e.seat for e in events(state, "reserve-draw")][-2:] == [A, B]
    assert state.hands[B] == cs("JH") and state.hands[A] & cs("TH") and state.to_act == A


@pytest.mark.parametrize("players", [1, 3, 4])
def test_two_player_is_for_two_seats_only(players: int) -> None:
    # pagat.com, Two Player Game: the avstickshög is for two players.
    with pytest.raises(ValueError):
        State.new(TWO, players, seed=1)


def test_two_player_a_written_phase_two_position_has_no_avstickshog() -> None:
    # ruling T5: State.from_phase_two sets up no pile; a kill draws nothing.
    state = State.from_phase_two(TWO, [cs("5C 9D"), cs("6C 2D")], trump_suit=SUITS.index("H"), leader=A)
    assert state.reserve == [] and view_of(state, A).reserve_size == 0
    moves(state, (A, "play 5C"), (B, "play 6C"))
    assert not events(state, "reserve-draw") and state.hands == [cs("9D"), cs("2D")]


# -- pagat.com, Mas with turned up trump (mas) --------------------------------------------------------------


def mas_game(hands: list[str], stock: str = "", bottom: str = "AH", players: int = 3) -> State:
    dealer = players - 1
    return State.new(MAS, players, dealer=dealer, deck=stack_deck(hands, stock, dealer=dealer, bottom=bottom))


def follow_plays(state: State) -> int:
    m = 0
    for a in state.legal_actions():
        if a.kind is Kind.PLAY:
            m |= a.cards
    return m


def test_mas_the_card_after_the_deal_is_turned_up_under_the_stock_as_trump() -> None:
    # pagat.com, Mas with turned up trump: the card after the hands is turned up under the stock and names
    # trumps (ruling MA1: it is the last card of the deck order, which is the same thing).
    state = mas_game(["7C 2S KD", "9C 3S 4D", "5H 8S TC"], "JD QD 6C", bottom="AH")
    assert state.stock[0] == parse_card("AH") and state.trump_suit == SUITS.index("H")
    for seat in (A, B, C):
        view = view_of(state, seat)
        assert view.exposed_card == parse_card("AH") and view.trump_suit == SUITS.index("H")


def test_mas_the_follower_beats_by_suit_or_trump_and_wins_then_leads_to_its_left() -> None:
    # pagat.com, Mas with turned up trump: the second player may only beat the lead with a higher card of
    # its suit or a trump on a non-trump, or else picks it up (ruling MA2: the beater wins the trick and
    # leads the next one, to its left).
    state = mas_game(["7C 2S KD", "9C 5C 2H", "5H 8S TC"], "JD QD 6C 3D 4D 5D")
    state.apply(play("7C"))
    assert follow_plays(state) == cs("9C 2H") and PICK in state.legal_actions()  # not the 5C
    state.apply(play("2H"))  # the 2 of trumps beats a club
    assert state.piles[B] == cs("7C 2H") and state.to_act == B
    state.apply(play("9C"))
    assert state.to_act == C and follow_plays(state) == cs("TC 5H")


def test_mas_a_trump_lead_is_beaten_only_by_a_higher_trump() -> None:
    # pagat.com, Mas with turned up trump: a trump led can only be beaten by a higher trump.
    state = mas_game(["7H 2S KD", "9C 5H 8H", "5C 8S TC"], "JD QD 6C 3D 4D 5D")
    state.apply(play("7H"))
    assert follow_plays(state) == cs("8H")


def test_mas_a_pick_up_passes_the_lead_to_the_pickers_left() -> None:
    # pagat.com, Mas with turned up trump: a follower that cannot or will not beat picks the lead up, and
    # the next player leads (ruling MA2: the seat to the picker's left).
    state = mas_game(["7C 2S KD", "9C 5C 2H", "5H 8S TC"], "JD QD 6C 3D 4D 5D")
    state.apply(play("7C"))
    state.apply(PICK)
    assert state.hands[B] == cs("9C 5C 2H 7C") and state.known[B] & cs("7C")
    assert state.to_act == C and state.trick_cards == 0 and not any(state.piles)


def test_mas_draw_back_up_to_three_but_not_with_three_or_more() -> None:
    # pagat.com, Mas with turned up trump: a seat draws as soon as it holds fewer than three cards; a seat
    # holding more (after a pick-up) does not draw after playing while it still has three.
    state = mas_game(["7C 2S KD", "9C 5C 2H", "5H 8S TC"], "JD QD 6C 3D 4D 5D")
    state.apply(play("7C"))  # A draws the JD
    assert state.hands[A] == cs("2S KD JD")
    state.apply(PICK)  # B holds four
    stock = len(state.stock)
    state.apply(play("5H"))  # C draws the QD
    assert state.hands[C] == cs("8S TC QD") and len(state.stock) == stock - 1
    state.apply(PICK)  # A picks up C's lead; B, on its left, leads
    assert state.to_act == B
    state.apply(play("9C"))  # B plays one of four: still three, no draw
    assert state.hands[B].bit_count() == 3 and len(state.stock) == stock - 1


def test_mas_store_three_trumps_on_the_seats_own_turn_and_they_are_public() -> None:
    # pagat.com, Mas with turned up trump: a hand of three trumps and nothing else may be shown and stored
    # for phase two, and three new cards drawn (ruling MA3: on the seat's own turn before it plays; the
    # stored cards join its pile and are public).
    state = mas_game(["2H 9H KH", "9C 3S 4D", "5C 8S TC"], "JD QD 6C 7D")
    assert STORE in state.legal_actions(A) and STORE not in state.legal_actions(B)
    state.apply(STORE)
    assert state.piles[A] == cs("2H 9H KH") and state.hands[A] == cs("JD QD 6C") and state.to_act == A
    assert view_of(state, C).piles[A] == cs("2H 9H KH")
    assert STORE not in state.legal_actions(A)  # the new hand is not three trumps


def test_mas_no_store_while_the_stock_cannot_give_a_new_hand() -> None:
    # ruling MA3: storing needs at least three cards in the stock (a whole new hand).  A seeded deal in
    # which the leader holds three trumps near the end of the stock is searched for and checked.
    for seed in range(200):
        state = State.new(MAS, 2, seed=seed)
        while state.phase == Phase.ONE:
            hand = state.hands[state.to_act]
            trumps = cs(" ".join(f"{r}{SUITS[state.trump_suit]}" for r in "23456789TJQKA"))
            if hand.bit_count() == 3 and not hand & ~trumps and len(state.stock) < 3:
                assert STORE not in state.legal_actions()
                return
            legal = [a for a in state.legal_actions() if a.kind is not Kind.STORE]
            state.apply(legal[0])
    pytest.fail("no seeded deal reached three trumps with fewer than three stock cards")  # pragma: no cover


def test_mas_store_with_exactly_three_stock_cards_but_not_two() -> None:
    # ruling MA3 (and docs/presets/mas.md): at least three stock cards, the turned-up trump counted, so
    # a stock of exactly three allows the store and one of two does not.  Seeded two-seat deals played
    # at random (never storing) are searched for both moments.
    seen: dict[int, bool] = {}
    for seed in range(400):
        state = State.new(MAS, 2, seed=seed)
        rng = random.Random(seed)
        while state.phase == Phase.ONE and len(seen) < 2:
            hand = state.hands[state.to_act]
            trumps_only = not hand & ~SUIT_MASKS[state.trump_suit]
            if hand.bit_count() == 3 and trumps_only and len(state.stock) in (2, 3):
                seen.setdefault(len(state.stock), STORE in state.legal_actions())
            state.apply(rng.choice([a for a in state.legal_actions() if a.kind is not Kind.STORE]))
        if len(seen) == 2:
            break
    assert seen == {3: True, 2: False}


def test_mas_exchange_the_two_of_trumps_which_is_then_drawn_last_face_up() -> None:
    # pagat.com, Mas with turned up trump: while the turned-up trump is on the table, the 2 of trumps may be
    # exchanged for it; the last card of the stock is then the 2 (rulings MA4, MA7: drawn last, face up,
    # known to all).
    state = mas_game(["7C 2H KD", "9C 3S 4D", "5H 8S TC"], "JD QD 6C", bottom="AH")
    state.apply(EXCHANGE)
    assert state.hands[A] == cs("7C AH KD") and view_of(state, B).exposed_card == parse_card("2H")
    while state.phase == Phase.ONE and state.stock:
        plays = [a for a in state.legal_actions() if a.kind is Kind.PLAY]
        state.apply(plays[0] if plays else PICK)
    drawer = state.trump_holder
    assert state.trump_card == parse_card("2H")
    assert view_of(state, (drawer + 1) % 3).known[drawer] & cs("2H")


def test_mas_no_turning_up_the_stock_and_no_ties() -> None:
    # ruling MA5: Mas has no turning up of the stock, and two cards never tie (a card of the same rank
    # does not beat).
    state = mas_game(["7C 2S KD", "7D 5C 3C", "5H 8S TC"], "JD QD 6C 3D 4D 5D")
    assert STOCK not in state.legal_actions()
    state.apply(play("7C"))
    assert follow_plays(state) == 0 and state.legal_actions() == [PICK]  # the 7D neither beats nor ties
    assert STOCK not in state.legal_actions()


def test_mas_phase_one_ends_with_the_trick_of_the_last_draw_and_its_drawer_leads() -> None:
    # pagat.com, Mas with turned up trump: when the last stock card (the face-up trump) is drawn, phase one
    # ends as soon as that trick is complete; everyone keeps their hand and won cards, and the drawer leads
    # phase two (ruling MA6: hands are not shown).  Seeded deal 5, three seats, beating when possible.
    state = State.new(MAS, 3, dealer=C, seed=5)
    while state.stock:
        plays = [a for a in state.legal_actions() if a.kind is Kind.PLAY]
        state.apply(plays[0] if plays else PICK)
    assert state.phase == Phase.ONE and state.round_cards, "the last card was drawn mid-trick"
    drawer = state.trump_holder
    plays = [a for a in state.legal_actions() if a.kind is Kind.PLAY]
    state.apply(plays[0] if plays else PICK)
    assert state.phase == Phase.TWO and state.to_act == drawer
    assert not events(state, "exposed")
    assert sum(h.bit_count() for h in state.hands) == 52


@pytest.mark.parametrize(("players", "ok"), [(2, True), (3, True), (4, True), (5, False)])
def test_mas_two_to_four_seats(players: int, ok: bool) -> None:
    # ruling MA8: as the main game, two to four players.
    if ok:
        assert State.new(MAS, players, seed=1).players == players
    else:
        with pytest.raises(ValueError):
            State.new(MAS, players, seed=1)


# -- pagat.com, Koira (koira) ---------------------------------------------------------------------------


def koira_three_seats() -> State:
    """Three seats after the stock: A drew the trump card (QH) with its 9C; B and C tie with A on nines."""
    deck = stack_deck(["9C 9D 2S", "9H 3C 4S", "KC 5D 6S"], dealer=C, drain=3, bottom="QH")
    state = State.new(KOIRA, 3, dealer=C, deck=deck)
    drain(state, 1)
    return state


def test_koira_after_the_stock_seats_without_cards_are_skipped_and_a_lone_holder_takes_its_cards() -> None:
    # pagat.com, Koira: after the stock has run out play goes on without drawing; players with no cards are
    # skipped until every card is played (ruling K1: once one seat alone holds cards they go to its pile).
    state = koira_three_seats()
    moves(state, (A, "play 9C"), (B, "play 9H"), (C, "play 6S"))  # A draws the trump card; A and B tie
    assert state.trump_holder == A and [e.seats for e in events(state, "war")] == [(A, B)]
    moves(state, (A, "play 2S"), (B, "play 4S"))  # B wins the war
    assert state.to_act == B and state.hand_sizes() == [1, 1, 2]
    moves(state, (B, "play 3C"), (C, "play KC"), (A, "play 9D"))  # C wins; A and B have no cards
    assert state.phase == Phase.TWO  # C alone held the 5D: it went to C's pile, and phase one ended
    assert events(state, "win")[-1].seat == C and events(state, "win")[-1].cards == cs("5D")
    assert state.hands[C] & cs("5D") and state.to_act == A  # the trump card's drawer leads phase two


def koira_four_seats(tie_deal: bool = False) -> State:
    """Four seats: D draws the trump card (QS) in the last trick from hand and wins it."""
    deck = stack_deck(["2C 9C 5C", "3C 5D 7S", "4C 4D 8S", "6C 9H 5H"], dealer=D, drain=4,
                      tail="JD JH JS", bottom="QS")
    state = State.new(KOIRA.replace(tie_deal=tie_deal), 4, dealer=D, deck=deck)
    drain(state, 4)
    moves(state, (A, "play 2C"), (B, "play 3C"), (C, "play 4C"), (D, "play 6C"))
    assert state.trump_holder == D and state.stock == [] and state.to_act == D
    return state


def test_koira_a_tied_seat_without_a_card_ends_the_trick_shared_into_the_tied_piles() -> None:
    # pagat.com, Koira: a player who runs out while a tie is being settled ends it: the cards played are
    # shuffled and shared between the piles of the tied players (ruling K2: a chance action, dealt one at a
    # time from the first tied seat; the first tied seat leads next, or the next seat clockwise with cards).
    state = koira_four_seats()
    moves(state, (D, "play 9H"), (A, "play 9C"), (B, "play 5D"), (C, "play 4D"))  # D and A tie
    moves(state, (D, "play 5H"), (A, "play 5C"))  # tie again; D is due with no card
    trick = cs("9H 9C 5D 4D 5H 5C")
    assert state.phase == Phase.DRECK and state.to_act == CHANCE
    assert state.pending_deal() == trick and state.deal_seats() == [D, A]
    piles = list(state.piles)
    deal(state, "5C 9C 4D 5D 5H 9H")
    assert state.piles[D] & ~piles[D] == cs("5C 4D 5H") and state.piles[A] & ~piles[A] == cs("9C 5D 9H")
    assert state.phase == Phase.ONE and state.to_act == A  # D has no card: A leads
    assert state.round_seats == [A, B, C]  # D is skipped


def test_koira_tie_deal_example_tied_seats_keep_their_draws() -> None:
    # pagat.com, Koira Variants (the seven-player example): the tied jacks go back to C, E and F, and the
    # 2, 4, 5, 8 are dealt from F counterclockwise (ruling K3: into their piles; the jacks are known; the
    # tied seats keep the cards they drew, so hold four until the stock is gone; C leads).
    hands = ["2C 3D 6H", "8C 4D 7H", "JC 9D 6S", "5C TD 7S", "JD QH 8S", "JH KH 9S", "4C 3H TS"]
    state = new_game(KOIRA.replace(tie_deal=True), hands, "AC AD AH AS")
    for card in ("2C", "8C", "JC", "5C", "JD", "JH", "4C"):
        state.apply(play(card))
    assert state.piles == [0, 0, cs("5C"), 0, cs("4C"), cs("2C 8C"), 0]
    assert state.to_act == C and state.hand_sizes() == [3, 3, 4, 3, 4, 4, 3]
    view = view_of(state, A)
    assert view.known[C] == cs("JC") and view.known[4] == cs("JD") and view.known[5] == cs("JH")


def test_koira_tie_deal_once_the_stock_is_empty_ties_are_played_off() -> None:
    # ruling K4: with the tie-deal variant, a tie after the stock has run out is settled as in the main rule.
    state = koira_four_seats(tie_deal=True)
    moves(state, (D, "play 9H"), (A, "play 9C"), (B, "play 5D"), (C, "play 4D"))
    assert [e.seats for e in events(state, "war")] == [(D, A)] and not events(state, "tie-deal")
    assert state.to_act == D and state.hands[A] == cs("5C JD")


def test_koira_turning_up_the_stock_and_the_drawer_of_the_trump_card_leads() -> None:
    # ruling K5: turning up the stock is allowed as in Mattis; the seat that drew the trump card leads phase
    # two; three to eight seats.
    state = koira_three_seats()
    assert STOCK not in state.legal_actions()  # only the trump card is left
    fresh = State.new(KOIRA, 3, dealer=C, deck=stack_deck(["9C 9D 2S", "9H 3C 4S", "KC 5D 6S"], dealer=C))
    assert STOCK in fresh.legal_actions()
    with pytest.raises(ValueError):
        State.new(KOIRA, 2, seed=1)
    assert State.new(KOIRA, 8, seed=1).players == 8


# -- catsatcards.com (catsatcards, catsatcards-flurst) ------------------------------------------------------


def test_catsatcards_the_last_stock_card_is_shown_when_drawn() -> None:
    # catsatcards.com, standard game: the player who draws the last card puts it face up, naming trumps, and
    # adds it to his cards (ruling C1: known from that moment; it joins the drawer's hand for phase two).
    state = new_game(CATS, ["7C 9C 3D", "7D 2H 3H", "4S 5S 6S"], bottom="KS", drain=2, dealer=C)
    drain(state, 1)
    moves(state, (A, "play 7C"))
    assert state.phase == Phase.ONE
    for seat in (B, C):
        view = view_of(state, seat)
        assert view.trump_suit == SUITS.index("S") and view.trump_card == parse_card("KS")
    moves(state, (B, "play 2H"), (A, "play 9C"), (B, "play 3H"), (A, "play 3D"), (B, "play 7D"))
    assert state.phase == Phase.TWO and state.hands[A] & cs("KS") and state.known[A] & cs("KS")
    assert len(events(state, "trump-drawn")) == 1 and len(events(state, "trump")) == 1  # drawn, then joins


@pytest.mark.parametrize(("players", "ok"), [(2, False), (3, True), (4, False)])
def test_catsatcards_is_for_three(players: int, ok: bool) -> None:
    # ruling C1: the standard game is for three players.
    if ok:
        assert State.new(CATS, players, seed=1).players == 3
    else:
        with pytest.raises(ValueError):
            State.new(CATS, players, seed=1)


def test_catsatcards_flurst_uneven_dreck_lies_in_the_first_trick_out_of_play() -> None:
    # catsatcards.com, Flurst: the dreck is shared evenly among the seats with fewer than six cards; cards
    # left over go in the middle as part of the first trick of phase two (ruling C2: the last ones of the
    # shuffled order; public, out of play, nothing to beat).  Seeded deal 34, four seats.
    state = State.new(CATS_FLURST, 4, seed=34)
    while state.phase == Phase.ONE:
        state.apply(state.legal_actions()[0])
    assert state.phase == Phase.DRECK and state.needy == [B, C] and state.dreck.bit_count() == 17
    order = list(cards_in(state.dreck))
    random.Random(1).shuffle(order)
    state.apply(Action(Kind.DRECK, state.dreck, tuple(order)), CHANCE)
    aside = mask_of(order[16:])  # 16 shared, 8 each
    assert state.killed == aside and not any(h & aside for h in state.hands)
    assert state.phase == Phase.TWO and state.table == [] and view_of(state, A).killed == aside
    assert [e.cards for e in events(state, "dreck-aside")] == [aside]


def test_catsatcards_flurst_sluff_only_the_rank_just_put_in() -> None:
    # catsatcards.com, Flurst: a player may sluff a card of the rank just played (ruling C3: the card most
    # recently put into the trick, whether played, turned up or sluffed).
    hands = ["7C 7H 9S", "9D 2D 3D", "4H 5H 6H", "8C 8D 9H"]
    state = new_game(CATS_FLURST, hands, "2S 3S 7S 9C KC")
    moves(state, (A, "play 7C"))
    state.apply(play("9D"))
    assert sluffs_of(state, A) == cs("9S")  # not the 7H
    state.apply(Action(Kind.SLUFF, cs("9S")), A)  # A draws the 7S
    assert state.hands[A] == cs("7H 2S 7S") and sluffs_of(state, A) == 0  # the 9 was the last rank put in
    pass_windows(state)
    state.apply(STOCK)  # C turns up the 9C
    assert state.round_cards[-1][1] == parse_card("9C") and sluffs_of(state, A) == 0  # 7s no longer


def test_catsatcards_flurst_sluffing_exceptions() -> None:
    # ruling C4: the first exception is the goat preset's first restriction (a seat due to play may not
    # sluff the rank it may have to play); the second is the text's own, about a seat's last card
    assert (CATS_FLURST.sluff_guard_high, CATS_FLURST.sluff_guard_last,
            CATS_FLURST.sluff_guard_last_card) == (True, False, True)
    hands = ["7C 2C 3C", "7D 4D 5D", "7H 2H TH", "8S 9S TS"]
    state = new_game(CATS_FLURST, hands, "JS QS KS AS")
    state.apply(play("7C"))
    assert sluffs_of(state, B) == 0 and sluffs_of(state, C) == 0  # both due, and 7 heads the trick


@pytest.mark.parametrize(("players", "ok"), [(3, False), (4, True), (5, True), (6, False)])
def test_catsatcards_flurst_four_or_five(players: int, ok: bool) -> None:
    # catsatcards.com, Flurst (ruling C5): for four or five players.
    if ok:
        assert State.new(CATS_FLURST, players, seed=1).players == players
    else:
        with pytest.raises(ValueError):
            State.new(CATS_FLURST, players, seed=1)


# -- pagat.com, Variants: end of phase one (incomplete trick dealt to players) ------------------------------


def test_incomplete_trick_dealt_clockwise_from_the_dealers_left_and_public() -> None:
    # pagat.com, Variants: end of phase one (incomplete trick dealt to players): the cards of the unfinished
    # trick are shuffled and dealt one by one clockwise from the dealer's left; some may get one more (ruling
    # I1: a chance action; the cards dealt are public, like cards taken back).
    rules = find_variant("mattis").replace(incomplete_trick_dealt=True)
    state = new_game(rules, ["7C 9C 3D", "7D 2H 3H", "4S 5S 6S"], bottom="KS", drain=3, dealer=A)
    drain(state, 1)
    moves(state, (B, "play 2H"), (C, "play 4S"), (A, "play 9C"))  # A wins; B drew the trump card
    moves(state, (A, "play 7C"), (B, "play 7D"), (C, "play 5S"))  # a war between A and B
    moves(state, (A, "play 3D"), (B, "play 3H"))  # another: A is due with no card
    assert state.phase == Phase.DRECK and state.deal_seats() == [B, C, A]
    deal(state, "5S 3H 7C 3D 7D")  # B 5S 3D, C 3H 7D, A 7C
    assert state.phase == Phase.TWO
    assert state.hands[C] & cs("3H 7D") == cs("3H 7D") and state.hands[A] & cs("7C")
    assert state.hands[B] & cs("5S 3D") == cs("5S 3D")
    view = view_of(state, A)
    assert view.known[B] & cs("5S 3D") == cs("5S 3D") and view.known[C] & cs("3H 7D") == cs("3H 7D")


# -- properties of the five presets ----------------------------------------------------------------------

PRESET_TABLES = [(name, n) for name in ("two-player", "mas", "koira", "catsatcards", "catsatcards-flurst")
                 for n in range(find_variant(name).min_players, find_variant(name).max_players + 1)]


def places(state: State) -> dict[str, int]:
    """Every place a card can be, the avstickshög, a face-up trump card and a pending chance deal included."""
    out: dict[str, int] = {"stock": mask_of(state.stock), "reserve": mask_of(state.reserve),
                           "killed": state.killed}
    for t in range(state.players):
        out[f"hand {t}"] = state.hands[t]
        out[f"pile {t}"] = state.piles[t]
    tc = state.trump_card
    in_phase_one = state.phase == Phase.ONE or state.phase == Phase.DRECK and state.chance_seats
    if tc >= 0 and in_phase_one and not state.hands[state.trump_holder] >> tc & 1:
        out["trump card aside"] = 1 << tc
    out["trick"] = state.trick_cards
    for i, p in enumerate(state.table):
        out[f"table play {i}"] = p
    if state.phase == Phase.DRECK and not state.chance_seats:
        out["dreck"] = state.dreck
    return out


def check_cards(state: State) -> None:
    seen = 0
    for place, m in places(state).items():
        assert not seen & m, f"{list(cards_in(seen & m))} are in {place} and somewhere else"
        seen |= m
    assert seen == FULL_DECK, f"cards {list(cards_in(FULL_DECK & ~seen))} are nowhere"
    if state.phase == Phase.TWO:
        assert not state.trick_cards and not any(state.piles) and not state.reserve or state.players == 2


def check_view(state: State, seat: int) -> None:
    """No stock or avstickshög card, face-down trump card, or unknown card of another hand is shown."""
    v = view_of(state, seat)
    hidden = mask_of(state.stock) | mask_of(state.reserve)
    if state.rules.exposed_bottom and state.stock:
        hidden &= ~(1 << state.stock[0])  # Mas: the card under the stock lies face up
    if state.trump_card >= 0 and state.trump_suit < 0:
        hidden |= 1 << state.trump_card
    for t in range(state.players):
        if t != seat:
            hidden |= state.hands[t] & ~state.known[t]
    shown = v.hand | v.killed | v.trick_cards()
    for m in v.known + v.piles:
        shown |= m
    if v.exposed_card >= 0:
        shown |= 1 << v.exposed_card
    if state.trump_suit < 0:
        assert v.trump_card == -1, "the face-down trump card is shown"
    # (a trump card once shown stays a public fact of the deal even after the dreck moves it, as in
    # tests/test_properties.py, so it is not counted as seen in a hand)
    assert not shown & hidden, f"seat {seat} sees hidden cards {list(cards_in(shown & hidden))}"
    for t in range(state.players):
        assert not v.known[t] & ~(state.hands[t] | state.piles[t]), f"known[{t}] names cards it lacks"


@pytest.mark.parametrize(("name", "players"), PRESET_TABLES)
def test_presets_conserve_cards_end_and_hide_cards(name: str, players: int) -> None:
    # Seeded random deals: after every action each card is in one place, the views show no hidden card and
    # every legal action of the seat to act applies on a clone; the deal ends with one loser.
    rules = find_variant(name)
    for seed in range(8):
        rng = random.Random(seed)
        state = State.new(rules, players, seed=seed * 7 + players, dealer=seed % players, live=seed % 4 == 3)
        check_cards(state)
        while not state.is_over:
            if rng.random() < 0.05 and state.to_act != CHANCE:
                for action in state.legal_actions():
                    other = state.clone()
                    other.apply(action)
                    check_cards(other)
            seat, action = pick(state, rng)
            state.apply(action, seat)
            check_cards(state)
            check_view(state, len(state.history) % players)
        check_outcome(state)
