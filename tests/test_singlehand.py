"""Single Hand Skitgubbe (catsatcards.com, *Single Hand Skitgubbe*; docs/presets/single-hand.md).

Scenario tests stack the deck (or write a position) so that one rule of the text, or one ruling of
series S in docs/rulings.md, happens, and check what the text says happens.  Property tests play
seeded random deals and check invariants after every action.  Seats are 0-based and play is
clockwise (seat s+1 is on the left of seat s).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skitgubbe.batch.runner import play_out
from skitgubbe.batch.simulate import simulate
from skitgubbe.bots import RandomBot
from skitgubbe.engine.actions import Action, ActionParseError, Kind
from skitgubbe.engine.cards import FULL_DECK, cards_in, mask_of, parse_cards, rank_of
from skitgubbe.singlehand import (
    DEFAULT_ACTION_LIMIT,
    PICK_UP,
    SINGLE_HAND,
    TAKE_CHANCE,
    GameOverError,
    IllegalActionError,
    SingleHandState,
    action_label,
    covers,
    parse_move,
    render_view,
    strength,
    view_of,
)
from skitgubbe.singlehand.bots import BOT_NAMES, HeuristicBot, make_bot, single_hand


def play_random_games(players: int, games: int, seed: int | str, *, bots: tuple[str, ...] = ("random",),
                      action_limit: int | None = None) -> object:
    """Seeded deals of Single Hand through the shared simulation (skitgubbe.batch.simulate)."""
    game = SINGLE_HAND if action_limit is None else single_hand(action_limit)
    return simulate(game, players, games, list(bots), seed)


def cs(text: str) -> int:
    """The card set of space-separated cards, e.g. ``cs("7C 9D")``."""
    return mask_of(parse_cards(text))


def play(text: str) -> Action:
    return Action(Kind.PLAY, cs(text))


def stack(hands: list[str], starter: str, stock: str = "", *, dealer: int = 0) -> list[int]:
    """A deck order that deals ``hands`` (four cards per seat, one at a time clockwise from the
    dealer's left), then turns ``starter`` as the first pile card, then has ``stock`` on top of the
    stock (top first); the other cards follow in card order."""
    n = len(hands)
    per_seat = [parse_cards(h) for h in hands]
    assert all(len(h) == 4 for h in per_seat)
    deal = [per_seat[(dealer + 1 + i) % n][i // n] for i in range(4 * n)]
    named = deal + parse_cards(starter) + parse_cards(stock)
    assert len(set(named)) == len(named)
    return named + [c for c in range(52) if c not in named]


def new(hands: list[str], starter: str, stock: str = "", *, dealer: int = 0) -> SingleHandState:
    return SingleHandState.new(len(hands), deck=stack(hands, starter, stock, dealer=dealer), dealer=dealer)


def snapshot(state: SingleHandState) -> dict[str, object]:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in state.__dict__.items()}


# -- the deal --------------------------------------------------------------------------------------


def test_four_cards_each_the_starter_begins_the_pile_and_the_dealers_left_plays_first() -> None:
    """"Four face-down cards to each player"; the top stock card is turned beside the stock and
    "begins the play pile"; "the player to the immediate left of the dealer has the first turn"."""
    s = new(["AC KC QC JC", "AD KD QD JD", "AH KH QH JH", "AS KS QS JS"], "9C", "8C", dealer=2)
    assert s.hands == [cs("AC KC QC JC"), cs("AD KD QD JD"), cs("AH KH QH JH"), cs("AS KS QS JS")]
    assert [e.cards for e in s.pile] == [cs("9C")]
    assert s.top_rank == 9
    assert len(s.stock) == 52 - 16 - 1
    assert s.stock[-1] == parse_cards("8C")[0]  # the next stock card is on top
    assert s.current_seat == s.to_act == 3
    assert s.events[0].kind == "start"


@pytest.mark.parametrize("players", [3, 8])
def test_three_to_eight_players(players: int) -> None:
    """"Can normally be played by 3 to 8 players"."""
    s = SingleHandState.new(players, seed=1)
    assert s.hand_sizes() == [4] * players
    assert len(s.stock) == 52 - 4 * players - 1


@pytest.mark.parametrize("players", [2, 9])
def test_other_seat_counts_are_refused(players: int) -> None:
    with pytest.raises(ValueError, match="3 to 8 players"):
        SingleHandState.new(players, seed=1)


def test_new_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        SingleHandState.new(3)
    with pytest.raises(ValueError, match="exactly one"):
        SingleHandState.new(3, seed=1, deck=range(52))
    with pytest.raises(ValueError, match="dealer seat 3"):
        SingleHandState.new(3, seed=1, dealer=3)
    with pytest.raises(ValueError, match="52 cards"):
        SingleHandState.new(3, deck=range(51))
    with pytest.raises(ValueError, match="twice"):
        SingleHandState.new(3, deck=[0] + list(range(1, 51)) + [0])
    with pytest.raises(ValueError, match="not a card"):
        SingleHandState.new(3, deck=list(range(51)) + [52])
    with pytest.raises(ValueError, match="action_limit"):
        SingleHandState.new(3, seed=1, action_limit=0)


def test_a_seed_deals_the_main_engines_deck_order() -> None:
    from skitgubbe.engine.state import deck_from_seed

    assert SingleHandState.new(5, seed="x").deck == deck_from_seed("x")


def test_a_ten_turned_as_the_starter_is_cleared_and_the_first_seat_starts_a_new_pile() -> None:
    """Ruling S4."""
    s = new(["AC KC QC JC", "AD KD QD JD", "AH KH QH JH"], "TC")
    assert s.pile == [] and s.discarded == cs("TC")
    assert s.to_act == 1
    assert s.legal_actions() == [a for a in s.legal_actions() if a.kind == Kind.PLAY]
    assert {c for a in s.legal_actions() for c in cards_in(a.cards)} == set(parse_cards("AD KD QD JD"))


# -- the order of the ranks and covering -----------------------------------------------------------


def test_the_two_is_highest_and_the_ace_lowest() -> None:
    """"From high to low; 2, 3, ... 10, Jack, Queen, King, Ace" (ruling S1)."""
    order = [strength(r) for r in (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)]
    assert order == sorted(order, reverse=True)
    assert covers(2, 14) and covers(14, 14) and not covers(14, 13)
    assert covers(10, 2) and covers(10, 14)  # the 10 goes on anything


def test_play_a_card_of_equal_or_higher_value_than_the_top() -> None:
    """"He must play a card of equal or higher value than the current top of the play pile": on a 7,
    a 7 or anything from 6 up to 2, or a 10; never an 8, a jack or an ace."""
    s = new(["7C 5C 8C AC", "AD KD QD JD", "AH KH QH JH"], "7D", dealer=2)
    assert s.to_act == 0
    assert s.legal_actions() == [play("7C"), play("5C")]
    s2 = new(["7C 5C 8C TC", "AD KD QD JD", "AH KH QH JH"], "7D", dealer=2)
    assert play("TC") in s2.legal_actions()
    for bad in ("8C", "AC"):
        with pytest.raises(IllegalActionError, match="ranks below the top card 7♦") as e:
            s.check(play(bad))
        assert "allowed now: play any of 7♣ 5♣" in e.value.reason
    s.apply(play("7C"))
    assert [e.cards for e in s.pile] == [cs("7D"), cs("7C")]
    assert s.to_act == 1


def test_several_cards_of_the_same_rank_go_together() -> None:
    """"If he has more than one card of that same rank he may play all of them" (ruling S5: one, some
    or all of them); cards of two ranks never go together."""
    s = new(["5C 5D 5H AC", "AD KD QD JD", "AH KH QH JH"], "9S", dealer=2)
    legal = s.legal_actions()
    fives = [a for a in legal if rank_of(min(cards_in(a.cards))) == 5]
    assert len(fives) == 7  # every non-empty subset of three fives
    assert play("5C 5D 5H") in legal
    with pytest.raises(IllegalActionError, match="one rank"):
        s.check(play("5C AC"))
    s.apply(play("5C 5D 5H"))
    assert s.pile[-1].cards == cs("5C 5D 5H")


def test_after_playing_draw_back_up_to_four() -> None:
    """"After playing the player then draws cards from the stock pile to return his hand to four"."""
    s = new(["5C 5D AC AS", "AD KD QD JD", "AH KH QH JH"], "9S", "2C 3C 4C", dealer=2)
    s.apply(play("5C 5D"))
    assert s.hands[0] == cs("AC AS 2C 3C")
    assert s.stock[-1] == parse_cards("4C")[0]
    assert s.events[-1].kind == "draw" and s.events[-1].n == 2 and s.events[-1].cards == 0


def test_no_draw_with_four_or_more_cards_after_a_pick_up() -> None:
    """"If he already has four or more cards in his hand ... he need not draw" (ruling S6: he does
    not)."""
    s = new(["AC KC QC JC", "5D 6D 8D 9D", "AH KH QH JH"], "2S", "3S", dealer=2)
    s.apply(PICK_UP)  # seat 0 holds nothing that covers a 2
    assert s.hand_sizes()[0] == 5
    s.apply(play("5D"))  # seat 1 starts a new pile and draws the 3 of spades
    assert s.hands[1] == cs("6D 8D 9D 3S")
    s.apply(PICK_UP)  # seat 2 cannot cover a 5
    stock = list(s.stock)
    s.apply(play("JC"))  # seat 0 starts a new pile with 5 cards in hand
    assert s.hand_sizes()[0] == 4
    assert s.stock == stock  # nothing drawn


def test_turns_go_clockwise() -> None:
    """"The turn rotates in a clockwise rotation"."""
    s = new(["AC KC QC JC", "AD KD QD JD", "AH KH QH JH"], "AS", dealer=1)
    seats = []
    for _ in range(3):
        seats.append(s.to_act)
        s.apply(s.legal_actions()[0])
    assert seats == [2, 0, 1]


# -- no card to play: pick up, or take a chance ----------------------------------------------------


def test_no_card_that_covers_pick_up_the_whole_pile_and_the_turn_ends() -> None:
    """"He can either take up the entire play pile into his hand, immediately ending his turn"; the
    next seat starts a new pile (ruling S11)."""
    s = new(["5C 5D AC AS", "AD KD QD JD", "AH KH QH JH"], "9S", dealer=2)
    s.apply(play("5C"))
    assert s.legal_actions() == [PICK_UP, TAKE_CHANCE]
    s.apply(PICK_UP)
    assert s.hands[1] == cs("AD KD QD JD 9S 5C")
    assert s.known[1] == cs("9S 5C")
    assert s.pile == []
    assert s.to_act == 2
    assert s.events[-1].kind == "lead" and s.events[-1].seat == 2
    assert len(s.legal_actions()) == 4 and TAKE_CHANCE not in s.legal_actions()


def test_a_seat_that_can_play_must_play() -> None:
    """Ruling S2: the options are for a seat that does not hold a card of equal or higher value."""
    s = new(["5C 5D AC AS", "AD KD QD JD", "AH KH QH JH"], "9S", dealer=2)
    for move in (PICK_UP, TAKE_CHANCE):
        with pytest.raises(IllegalActionError, match="must play; allowed now: play any of 5♣ 5♦"):
            s.check(move)
        assert not s.can(move)


def test_take_a_chance_that_covers_stays_and_the_turn_ends() -> None:
    """"Pulling the next face down card from the stock pile and placing it on top of the play pile. If
    this card is equal or higher than the previous card he ends his turn"."""
    s = new(["5C 5D AC AS", "AD KD QD JD", "AH KH QH JH"], "9S", "4C 3C 6C", dealer=2)
    s.apply(play("5C"))
    s.apply(TAKE_CHANCE)
    assert [e.cards for e in s.pile] == [cs("9S"), cs("5C"), cs("3C")]
    assert s.hands[1] == cs("AD KD QD JD")
    assert s.to_act == 2
    assert s.events[-1].kind == "chance" and s.events[-1].cards == cs("3C")


def test_take_a_chance_that_does_not_cover_picks_up_the_pile_with_it() -> None:
    """"If this card is not of a rank equal or higher ... he must take the entire play pile, including
    the drawn card, into his hand. This ends his turn"."""
    s = new(["5C 5D AC AS", "AD KD QD JD", "AH KH QH JH"], "9S", "4C 8C 6C", dealer=2)
    s.apply(play("5C"))
    s.apply(TAKE_CHANCE)
    assert s.hands[1] == cs("AD KD QD JD 9S 5C 8C")
    assert s.known[1] == cs("9S 5C 8C")
    assert s.pile == [] and s.to_act == 2
    assert [e.kind for e in s.events[-4:]] == ["chance", "chance-fails", "pick-up", "lead"]


def test_a_ten_turned_by_a_chance_clears_and_the_seat_starts_a_new_pile() -> None:
    """Ruling S10: a 10 goes on any card, so the chance succeeds and clears the pile."""
    s = new(["5C 5D AC AS", "AD KD QD JD", "AH KH QH JH"], "9S", "4C TC 6C", dealer=2)
    s.apply(play("5C"))
    s.apply(TAKE_CHANCE)
    assert s.pile == [] and s.discarded == cs("9S 5C TC")
    assert s.to_act == 1
    assert s.hands[1] == cs("AD KD QD JD")


def test_a_chance_card_that_makes_four_of_a_kind_clears() -> None:
    """Rulings S8, S10: the turned card counts toward four of a kind."""
    s = new(["5C 5D AC AS", "AD KD QD JD", "AH KH QH JH"], "5S", "4C 3C 5H", dealer=2)
    s.apply(play("5C 5D"))
    s.apply(TAKE_CHANCE)
    assert s.pile == [] and s.discarded == cs("5S 5C 5D 5H")
    assert s.to_act == 1


def test_a_ten_below_the_top_does_not_oblige_but_may_be_played() -> None:
    """Ruling S2: on a 5 a seat holding only a 10 and lower cards may play the 10, pick up, or take a
    chance; on a jack the 10 ranks higher, so it must play."""
    s = new(["TC AC KC QC", "AD KD QD JD", "AH KH QH JH"], "5S", dealer=2)
    assert s.legal_actions() == [play("TC"), PICK_UP, TAKE_CHANCE]
    s2 = new(["TC AC KC QC", "AD KD QD JD", "AH KH QH JH"], "JS", dealer=2)
    assert s2.legal_actions() == [play("TC")]


# -- clearing the pile -----------------------------------------------------------------------------


def test_a_ten_goes_on_any_card_and_clears_the_pile_then_the_same_seat_starts_a_new_one() -> None:
    """"A 10 can be played ... on any other card. When played, the entire pile is set aside ... The
    player who played the 10 may then start a new pile with any card from his hand"."""
    s = new(["TC AC KC QC", "AD KD QD JD", "AH KH QH JH"], "2S", "3C 4C", dealer=2)
    s.apply(play("TC"))
    assert s.pile == [] and s.discarded == cs("2S TC")
    assert s.hands[0] == cs("AC KC QC 3C")  # drew before starting the new pile (ruling S6)
    assert s.to_act == 0
    assert {a.cards for a in s.legal_actions()} == {cs("AC"), cs("KC"), cs("QC"), cs("3C")}
    s.apply(play("3C"))  # any card starts the new pile, here a high one
    assert [e.cards for e in s.pile] == [cs("3C")]
    assert s.hands[0] == cs("AC KC QC 4C")
    assert s.to_act == 1


def test_four_of_a_kind_played_in_succession_by_several_seats_clears() -> None:
    """"If all four cards of the same rank are played to the top of the pile in succession (by one
    player or by multiple successive players), the entire [pile] is set aside"; "the player who played
    the last card of that denomination can then begin a new play pile"."""
    s = new(["7C 7D AC AS", "7H AD KD QD", "7S AH KH QH"], "KS", dealer=2)
    s.apply(play("7C 7D"))
    s.apply(play("7H"))
    s.apply(play("7S"))
    assert s.pile == [] and s.discarded == cs("KS 7C 7D 7H 7S")
    assert s.to_act == 2
    assert [e.kind for e in s.events[-3:]] == ["clear", "draw", "lead"] and s.events[-3].n == 4
    s.apply(play("AH"))
    assert s.to_act == 0


def test_four_of_a_kind_by_one_seat_on_the_starter() -> None:
    """The starter card counts toward the four (ruling S8)."""
    s = new(["7C 7D 7H AS", "AD KD QD JD", "AH KH QH JH"], "7S", dealer=2)
    s.apply(play("7C 7D 7H"))
    assert s.pile == [] and s.to_act == 0


def test_four_of_a_kind_must_be_in_succession() -> None:
    """A card of another rank between them breaks the succession."""
    s = new(["7C 7D AC AS", "6H AD KD QD", "7S 7H KH QH"], "KS", dealer=2)
    s.apply(play("7C 7D"))
    s.apply(play("6H"))
    assert not s.can(play("7S 7H"))  # 7s no longer cover a 6 anyway
    s2 = new(["7C 7D AC AS", "7H AD KD QD", "JS AH KH QH"], "KS", dealer=2)
    s2.apply(play("7C 7D"))
    s2.apply(play("7H"))
    assert len(s2.pile) == 3  # three 7s: nothing cleared


def test_a_new_pile_may_start_with_a_ten_which_clears_again() -> None:
    """Ruling S9."""
    s = new(["TC TD AC AS", "AD KD QD JD", "AH KH QH JH"], "2S", "3C 4C 5C", dealer=2)
    s.apply(play("TC"))
    s.apply(play("TD"))
    assert s.pile == [] and s.discarded == cs("2S TC TD")
    assert s.to_act == 0
    assert s.hands[0] == cs("AC AS 3C 4C")


# -- the empty stock, going out and the loser ------------------------------------------------------


def test_no_draws_and_no_chance_once_the_stock_is_empty() -> None:
    """"When the draw pile runs out of cards, players no longer draw ... and no longer have the 'take a
    chance' option"."""
    s = SingleHandState.from_position([cs("5C 5D AC"), cs("AD KD"), cs("AH KH")], pile=[cs("9S")], to_act=0)
    s.apply(play("5C"))
    assert s.hands[0] == cs("5D AC")
    assert s.legal_actions() == [PICK_UP]
    with pytest.raises(IllegalActionError, match="stock is empty"):
        s.check(TAKE_CHANCE)


def test_out_of_cards_after_the_stock_is_gone_drops_out() -> None:
    """"After the draw pile has been depleted and a player runs out of cards, he drops from the
    game"; play goes on with the next seat holding cards (ruling S13)."""
    s = SingleHandState.from_position(
        [cs("5C"), cs("AD KD"), cs("AH 4H"), cs("3S KS")], pile=[cs("9S")], to_act=0
    )
    s.apply(play("5C"))
    assert s.out_order == [0] and s.hands[0] == 0
    assert s.to_act == 1
    s.apply(PICK_UP)
    assert s.to_act == 2
    s.apply(play("AH"))
    assert s.to_act == 3
    s.apply(play("3S"))
    assert s.to_act == 1  # seat 0 is out and skipped


def test_a_seat_cannot_go_out_while_the_stock_has_cards() -> None:
    """Ruling S12: playing every card while the stock has cards only means drawing four new ones."""
    s = new(["5C 5D 5H 5S", "AD KD QD JD", "AH KH QH JH"], "9S", "2C 3C 4C 6C", dealer=2)
    s.apply(play("5C 5D 5H 5S"))
    assert s.hands[0] == cs("2C 3C 4C 6C")
    assert s.out_order == [] and s.to_act == 0  # four of a kind cleared: seat 0 starts again


def test_the_last_seat_holding_cards_is_the_loser() -> None:
    """"The last player to have cards left in his hand is considered the loser"."""
    s = SingleHandState.from_position([cs("5C"), cs("4D"), cs("AH KH")], pile=[cs("9S")], to_act=0)
    s.apply(play("5C"))
    assert not s.is_over and s.outcome is None
    s.apply(play("4D"))
    assert s.is_over
    assert s.outcome is not None and s.outcome.loser == 2 and s.outcome.out_order == (0, 1)
    assert s.current_seat == -2 and s.legal_actions() == []
    with pytest.raises(GameOverError, match="seat 2 lost"):
        s.check(PICK_UP)
    with pytest.raises(ValueError, match="over"):
        s.random_action(random.Random(0))


def test_a_seat_that_goes_out_on_a_clear_passes_the_new_pile_to_the_next_seat() -> None:
    """Ruling S13."""
    s = SingleHandState.from_position([cs("TC"), cs("AD KD"), cs("AH KH")], pile=[cs("2S")], to_act=0)
    s.apply(play("TC"))
    assert s.out_order == [0] and s.pile == [] and s.to_act == 1
    assert len(s.legal_actions()) == 2


def test_from_position_refuses_impossible_positions() -> None:
    h = [cs("AC"), cs("AD"), cs("AH")]
    with pytest.raises(ValueError, match="3 to 8"):
        SingleHandState.from_position(h[:2])
    with pytest.raises(ValueError, match="two places"):
        SingleHandState.from_position(h, pile=[cs("AC")])
    with pytest.raises(ValueError, match="one rank"):
        SingleHandState.from_position(h, pile=[cs("5C 6C")])
    with pytest.raises(ValueError, match="four or more"):
        SingleHandState.from_position(h, stock=parse_cards("2C"))
    with pytest.raises(ValueError, match="two seats"):
        SingleHandState.from_position([cs("AC"), 0, 0])
    with pytest.raises(ValueError, match="cannot be to act"):
        SingleHandState.from_position([cs("AC"), 0, cs("AH")], to_act=1)
    with pytest.raises(ValueError, match="cleared"):
        SingleHandState.from_position(h, pile=[cs("TC")])
    with pytest.raises(ValueError, match="dealer"):
        SingleHandState.from_position(h, dealer=5)
    with pytest.raises(ValueError, match="not a card set"):
        SingleHandState.from_position(h, stock=[60])


# -- errors ------------------------------------------------------------------------------------------


def test_illegal_actions_say_what_is_wrong_and_what_is_allowed() -> None:
    s = new(["5C 5D AC AS", "AD KD QD JD", "AH KH QH JH"], "9S", dealer=2)
    cases = [
        (play("2H"), 0, "you do not hold 2♥"),
        (play("5C"), 1, "it is seat 0's turn, not seat 1's"),
        (play("5C"), 7, "there is no seat 7"),
        (Action(Kind.SLUFF, cs("5C")), 0, "there is no sluff in Single Hand"),
        (Action(Kind.PLAY, 0), 0, "not a card set"),
        (Action(Kind.PICK_UP, cs("5C")), 0, "takes no cards"),
        (Action(Kind.PLAY, cs("5C"), (1,)), 0, "order"),
    ]
    before = snapshot(s)
    for action, seat, reason in cases:
        with pytest.raises(IllegalActionError, match=reason) as e:
            s.apply(action, seat)
        assert e.value.seat == seat and e.value.action == action
        assert snapshot(s) == before
    assert s.explain(play("5C")) is None
    with pytest.raises(IllegalActionError, match="not an Action"):
        s.check("5C")  # type: ignore[arg-type]


def test_legal_actions_of_other_seats_are_empty_and_unknown_seats_refused() -> None:
    s = SingleHandState.new(4, seed=3)
    assert s.legal_actions(s.to_act) == s.legal_actions()
    assert s.legal_actions((s.to_act + 1) % 4) == []
    with pytest.raises(ValueError, match="no seat 4"):
        s.legal_actions(4)


# -- views and text ------------------------------------------------------------------------------------


def test_a_view_shows_the_own_hand_the_pile_and_known_cards_only() -> None:
    s = new(["5C 5D AC AS", "AD KD QD JD", "AH KH QH JH"], "9S", dealer=2)
    s.apply(play("5C"))
    s.apply(PICK_UP)
    v = view_of(s, 2)
    assert v.hand == cs("AH KH QH JH")
    assert v.known[1] == cs("9S 5C") and v.hand_sizes == (4, 6, 4)
    assert v.stock_size == len(s.stock) and v.my_turn and v.top_rank == 0
    assert v.legal == tuple(s.legal_actions())
    assert view_of(s, 0).legal == ()
    assert s.view(1) == view_of(s, 1)
    with pytest.raises(ValueError, match="no seat 3"):
        view_of(s, 3)


def test_render_view_and_labels() -> None:
    s = new(["5C 5D AC AS", "AD KD QD JD", "AH KH QH JH"], "9S", dealer=2)
    text = render_view(view_of(s, 0))
    assert "Your hand: A♣ A♠ 5♣ 5♦" in text
    assert "Pile (1 card, bottom first): 9♠" in text
    assert "1) play 5♣" in text and "◀ to act" in text
    assert action_label(PICK_UP) == "pick up the pile" and action_label(TAKE_CHANCE) == "take a chance"
    s.apply(play("5C"))
    s.apply(PICK_UP)
    other = render_view(view_of(s, 0), ["Ann", "Bo", "Cy"])
    assert "Bo" in other and "known: 9♠ 5♣" in other and "Pile: empty" in other
    end = SingleHandState.from_position([cs("5C"), cs("4D"), cs("AH")], pile=[cs("9S")], to_act=0)
    end.apply(play("5C"))
    end.apply(play("4D"))
    assert "Seat 2 is the skitgubbe" in render_view(view_of(end, 0))


def test_parse_move() -> None:
    assert parse_move("7h 7s") == play("7H 7S")
    assert parse_move("play 10c") == play("TC")
    assert parse_move("Take a chance") == parse_move("stock") == TAKE_CHANCE
    assert parse_move("pick up") == parse_move("take") == PICK_UP
    with pytest.raises(ActionParseError, match="in Single Hand"):
        parse_move("jump")
    with pytest.raises(ActionParseError, match="in Single Hand"):
        parse_move("sluff 7c")


# -- bots and simulation ------------------------------------------------------------------------------


def test_heuristic_plays_every_card_of_its_lowest_rank_and_keeps_its_tens() -> None:
    s = new(["TC 5C 5D 3S", "AD KD QD JD", "AH KH QH JH"], "9S", dealer=2)
    bot = HeuristicBot()
    v = view_of(s, 0)
    assert bot.choose(v, v.legal) == play("5C 5D")


def test_heuristic_clears_a_big_pile_with_a_ten_and_takes_a_chance_on_a_small_one() -> None:
    bot = HeuristicBot(big_pile=3)
    small = new(["TC AC KC QC", "AD KD QD JD", "AH KH QH JH"], "5S", dealer=2)
    v = view_of(small, 0)
    assert bot.choose(v, v.legal) == TAKE_CHANCE
    big = SingleHandState.from_position(
        [cs("TC AC KC"), cs("AD KD"), cs("AH KH")], pile=[cs("9S"), cs("6S"), cs("5S")], to_act=0
    )
    v = view_of(big, 0)
    assert bot.choose(v, v.legal) == play("TC")
    no_stock_small = SingleHandState.from_position([cs("TC AC"), cs("AD"), cs("AH")], pile=[cs("5S")])
    v = view_of(no_stock_small, 0)
    assert v.legal == (play("TC"), PICK_UP)
    assert bot.choose(v, v.legal) == play("TC")  # no chance to take: the 10 rather than the pile
    no_ten = SingleHandState.from_position([cs("AC"), cs("AD"), cs("AH")], pile=[cs("5S")])
    v = view_of(no_ten, 0)
    assert bot.choose(v, v.legal) == PICK_UP


def test_make_bot_and_play_out() -> None:
    assert BOT_NAMES == ("random", "heuristic")
    assert isinstance(make_bot("random", random.Random(0)), RandomBot)
    assert isinstance(make_bot("Easy", random.Random(0)), HeuristicBot)
    with pytest.raises(ValueError, match="bots: random, heuristic"):
        make_bot("ismcts", random.Random(0))
    s = SingleHandState.new(3, seed=5)
    with pytest.raises(ValueError, match="2 bots for 3 seats"):
        play_out(s, [RandomBot(random.Random(0))] * 2, random.Random(0), view=view_of)

    class Cheat:
        name = "cheat"

        def choose(self, view: object, legal: object) -> Action:
            return Action(Kind.PICK_UP, 1)

    with pytest.raises(ValueError, match="not a legal action"):
        play_out(s, [Cheat()] * 3, random.Random(0), view=view_of)
    steps: list[int] = []
    bots = [HeuristicBot()] * 3
    play_out(SingleHandState.new(3, seed=5), bots, random.Random(0), view=SINGLE_HAND.view,
             on_step=lambda _s, seat, _a: steps.append(seat))
    assert steps and steps[0] == 1


def test_play_random_games_is_seeded_and_counts_every_deal() -> None:
    a = play_random_games(4, 20, 7, bots=("heuristic", "random"))
    b = play_random_games(4, 20, 7, bots=("heuristic", "random"))
    assert a == b and a.to_dict() == b.to_dict()  # type: ignore[attr-defined]
    assert a.games == 20 and sum(a.losses) + a.abandoned == 20  # type: ignore[attr-defined]
    assert a.bots == ["heuristic", "random", "heuristic", "random"]  # type: ignore[attr-defined]
    assert a.to_dict()["rules"] == "single-hand" and a.rules is None  # type: ignore[attr-defined]
    assert 0.0 <= a.seat_rate(1)[0] <= 1.0  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="games"):
        play_random_games(4, -1, 7)
    with pytest.raises(ValueError, match="no Single Hand bot"):
        play_random_games(4, 1, 7, bots=("nobody",))
    with pytest.raises(ValueError, match="at least one"):
        play_random_games(4, 1, 7, bots=())
    with pytest.raises(ValueError, match="Single Hand Skitgubbe is for 3 to 8 players, not 2"):
        play_random_games(2, 1, 7)
    assert play_random_games(3, 2, 1, action_limit=5).abandoned == 2


def test_the_heuristic_bot_beats_random_players() -> None:
    """Heuristic seats (0, 2) lose far less often than random seats (1, 3) over 100 seeded deals."""
    stats = play_random_games(4, 100, 11, bots=("heuristic", "random"))
    assert stats.losses[0] + stats.losses[2] < (stats.losses[1] + stats.losses[3]) / 3


@pytest.mark.parametrize("players", range(3, 9))
def test_many_random_deals_end_with_one_loser(players: int) -> None:
    """Random play (uniform over the legal actions) of 20 seeded deals per table, and heuristic play
    of 40: every deal ends with a loser before the action limit; heuristic deals are short."""
    rand = play_random_games(players, 20, f"rand{players}")
    assert rand.abandoned == 0 and sum(rand.losses) == 20
    heur = play_random_games(players, 40, f"heur{players}", bots=("heuristic",))
    assert heur.abandoned == 0 and heur.longest < 300


# -- properties --------------------------------------------------------------------------------------


def check_invariants(s: SingleHandState) -> None:
    """Every card in exactly one place; hands full while the stock lasts; the seat to act holds cards;
    out seats hold none; known cards are in their hand."""
    places = [*s.hands, s.pile_cards(), mask_of(s.stock), s.discarded]
    total = 0
    for p in places:
        assert total & p == 0
        total |= p
    assert total == FULL_DECK
    assert sum(p.bit_count() for p in places) == 52
    if s.stock:
        assert min(s.hand_sizes()) >= 4 and not s.out_order
    for seat in s.out_order:
        assert s.hands[seat] == 0
    for seat in range(s.players):
        assert s.known[seat] & ~s.hands[seat] == 0
    if not s.is_over:
        assert s.hands[s.to_act] and s.legal_actions()
        assert sum(1 for h in s.hands if h) >= 2
    for e in s.pile:
        assert e.cards and len({rank_of(c) for c in cards_in(e.cards)}) == 1
    if s.pile:
        assert s.top_rank != 10


def check_view_hides(s: SingleHandState, seat: int) -> None:
    """A view holds no card of another hand beyond its known cards, and no stock card: not even in
    its history or events (a card once shown stays public: on the pile, cleared, or known in the
    hand that picked it up)."""
    v = view_of(s, seat)
    hidden = mask_of(s.stock)
    for other in range(s.players):
        if other != seat:
            hidden |= s.hands[other] & ~s.known[other]
    shown = v.hand | v.pile_cards() | v.discarded
    for k in v.known:
        shown |= k
    for e in v.events:
        shown |= e.cards
    for _, a in v.history:
        shown |= a.cards
    assert shown & hidden == 0
    assert "stock" not in v._fields
    assert len(v) == 16  # no new field slips in unchecked


seeds = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(3, 8), deck_seed=seeds, play_seed=seeds, dealer=st.integers(0, 7))
def test_random_deals_keep_every_invariant_and_views_hide_cards(
    players: int, deck_seed: int, play_seed: int, dealer: int
) -> None:
    s = SingleHandState.new(players, seed=deck_seed, dealer=dealer % players)
    rng = random.Random(play_seed)
    check_invariants(s)
    while not s.is_over:
        seat = s.to_act
        s.apply(s.random_action(rng))
        check_invariants(s)
        if len(s.history) % 8 == 0 or s.is_over:
            check_view_hides(s, seat)
            check_view_hides(s, (seat + 1) % players)
    assert s.outcome is not None and s.outcome.loser is not None
    assert len(s.history) < DEFAULT_ACTION_LIMIT
    assert sorted([*s.outcome.out_order, s.outcome.loser]) == list(range(players))


@settings(max_examples=20, deadline=None)
@given(players=st.integers(3, 8), deck_seed=seeds, play_seed=seeds, steps=st.integers(0, 150))
def test_every_legal_action_applies_and_illegal_ones_change_nothing(
    players: int, deck_seed: int, play_seed: int, steps: int
) -> None:
    s = SingleHandState.new(players, seed=deck_seed)
    rng = random.Random(play_seed)
    for _ in range(steps):
        if s.is_over:
            break
        s.apply(s.random_action(rng))
    if s.is_over:
        return
    legal = s.legal_actions()
    for a in legal:
        c = s.clone()
        c.apply(a)
        check_invariants(c)
    before = snapshot(s)
    candidates = [
        Action(Kind(rng.randrange(6)), rng.getrandbits(52) & rng.getrandbits(52) & rng.getrandbits(52))
        for _ in range(30)
    ] + [Action(Kind.PLAY, 1 << c) for c in range(52)] + [PICK_UP, TAKE_CHANCE]
    for a in candidates:
        for seat in range(players):
            ok = a in s.legal_actions(seat)
            assert s.can(a, seat) == ok
            if not ok:
                with pytest.raises(IllegalActionError):
                    s.apply(a, seat)
                assert snapshot(s) == before


@settings(max_examples=10, deadline=None)
@given(players=st.integers(3, 8), deck_seed=seeds, play_seed=seeds)
def test_replaying_the_history_on_the_same_deck_gives_the_same_deal(
    players: int, deck_seed: int, play_seed: int
) -> None:
    s = SingleHandState.new(players, seed=deck_seed, dealer=1)
    rng = random.Random(play_seed)
    while not s.is_over:
        s.apply(s.random_action(rng))
    r = SingleHandState.new(players, deck=s.deck, dealer=1)
    for seat, a in s.history:
        r.apply(a, seat)
    assert snapshot(r) == snapshot(s)
    c = s.clone()
    c.history.append((0, PICK_UP))
    assert len(c.history) == len(s.history) + 1
