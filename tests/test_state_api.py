"""The public API of the state machine and the rules: validation errors, presets and aliases,
rules_diff, can()/check()/explain() messages, GameOverError, acting_seats, from_phase_two."""

from __future__ import annotations

import dataclasses
import random

import pytest

from helpers import PASS, PICK, STOCK, cs, play, random_playout, refused, sluff, stack_deck
from skitgubbe.engine.actions import CHANCE, Action, Kind
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import FULL_DECK, mask_of, parse_cards
from skitgubbe.engine.record import record_of
from skitgubbe.engine.rules import FirstPhase, Rules, RulesError
from skitgubbe.engine.state import GameOverError, IllegalActionError, State, deck_from_seed
from skitgubbe.engine.variants import ALIASES, PRESETS, UnknownVariantError, find_variant, rules_diff

PAGAT = PRESETS["pagat"]
GOAT = PRESETS["goat"]


# -- State.new ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "players", "message"),
    [
        (PAGAT, 1, "pagat is for 2 to 4 players, not 1"),
        (PAGAT, 5, "pagat is for 2 to 4 players, not 5"),
        (GOAT, 2, "goat is for 3 to 8 players, not 2"),
        (GOAT, 9, "goat is for 3 to 8 players, not 9"),
    ],
)
def test_new_players_out_of_range(rules: Rules, players: int, message: str) -> None:
    with pytest.raises(ValueError) as info:
        State.new(rules, players, seed=1)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"dealer": 3, "seed": 1}, "dealer seat 3 does not exist: seats are 0..2"),
        ({"dealer": -1, "seed": 1}, "dealer seat -1 does not exist: seats are 0..2"),
        ({"leader": 3, "seed": 1}, "leader seat 3 does not exist: seats are 0..2"),
        ({}, "give exactly one of deck (the card order) or seed"),
        ({"seed": 1, "deck": range(52)}, "give exactly one of deck (the card order) or seed"),
        ({"deck": range(51)}, "a deck order must list all 52 cards once; got 51 cards"),
        ({"deck": [*range(52), 0]}, "a deck order must list all 52 cards once; got 53 cards"),
        ({"deck": [0, *range(51)]}, "card 2♣ appears twice in the deck order"),
        ({"deck": [*range(51), 52]}, "deck entry 52 is not a card number 0..51"),
        ({"deck": [*range(51), -1]}, "deck entry -1 is not a card number 0..51"),
        ({"deck": [*range(51), "AS"]}, "deck entry 'AS' is not a card number 0..51"),
    ],
)
def test_new_validation(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as info:
        State.new(PAGAT, 3, **kwargs)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_new_deals_as_documented() -> None:
    hands = ["AC AD AH", "2C 2D 2H", "KC KD KH"]
    state = State.new(PAGAT, 3, deck=stack_deck(hands, "7S 8S", dealer=2), dealer=2)
    assert state.hands == [cs(h) for h in hands]
    assert state.stock[-2:] == parse_cards("8S 7S")  # top card last
    assert len(state.stock) == 52 - 9
    assert state.to_act == 0 and state.leader == 0  # the dealer's left leads
    assert State.new(PAGAT, 3, deck=stack_deck(hands), leader=2).to_act == 2
    seeded = State.new(GOAT, 4, seed="x")
    assert seeded.deck == deck_from_seed("x") and seeded.players == 4
    assert sorted(deck_from_seed(7)) == list(range(52)) and deck_from_seed(7) == deck_from_seed(7)
    assert seeded.phase == Phase.ONE and seeded.outcome is None
    assert (seeded.trump_suit, seeded.trump_known) == (-1, False)
    assert seeded.hand_sizes() == [3, 3, 3, 3] and not seeded.is_over
    assert [seeded.left_of(s) for s in range(4)] == [1, 2, 3, 0]


# -- Rules -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"min_players": 1}, "need 2 <= min_players <= max_players <= 8"),
        ({"min_players": 5, "max_players": 4}, "min_players=5, max_players=4"),
        ({"max_players": 9}, "max_players=9"),
        ({"hand_size": 0}, "hand_size=0: must be 1..6 cards"),
        ({"hand_size": 7}, "hand_size=7: must be 1..6 cards"),
        ({"sluffing": True}, "first_phase=pairs with sluffing=True"),
        ({"first_phase": FirstPhase.ALL_PLAY, "sluff_guard_high": True}, "need sluffing=True"),
        ({"first_phase": FirstPhase.ALL_PLAY, "sluff_guard_last": True}, "need sluffing=True"),
        ({"dreck_below": -2}, "dreck_below=-2: must be 0 (no dreck) to 52, or -1 (the trump card's rank)"),
        ({"dreck_below": 53}, "dreck_below=53"),
        ({"dreck_max_rank": 1}, "dreck_max_rank=1: must be a rank 2..14"),
        ({"dreck_max_rank": 15}, "dreck_max_rank=15"),
        ({"dreck_trump_rank": 1}, "dreck_trump_rank=1: must be 0 (none) or a rank 2..14"),
        ({"dreck_trump_rank": 15}, "dreck_trump_rank=15"),
    ],
)
def test_rules_validation(options: dict[str, object], words: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**options)  # type: ignore[arg-type]
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)


def test_rules_accepts_the_edges() -> None:
    r = Rules(min_players=2, max_players=8, hand_size=6, dreck_below=52, dreck_max_rank=14,
              dreck_trump_rank=2)
    assert r.name == "custom"
    Rules(first_phase=FirstPhase.ALL_PLAY, sluffing=True, sluff_guard_high=True, sluff_guard_last=True)
    Rules(hand_size=1, dreck_below=0, dreck_max_rank=2)


def test_rules_are_frozen_and_keyword_only() -> None:
    with pytest.raises(TypeError):
        Rules("custom")  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        PAGAT.hand_size = 4  # type: ignore[misc]


def test_rules_replace() -> None:
    small = GOAT.replace(max_players=5)
    assert small.name == "custom" and small.max_players == 5
    assert rules_diff(GOAT, small) == {"max_players": (8, 5)}
    assert GOAT.max_players == 8  # the preset is untouched
    assert GOAT.replace(name="goat-5", max_players=5).name == "goat-5"
    assert GOAT.replace() == dataclasses.replace(GOAT, name="custom")
    with pytest.raises(RulesError, match="need sluffing=True"):
        GOAT.replace(sluffing=False)  # the guards are still on
    with pytest.raises(RulesError, match="first_phase=pairs with sluffing=True"):
        GOAT.replace(first_phase=FirstPhase.PAIRS)
    with pytest.raises(TypeError):
        PAGAT.replace(colour="red")


def test_rules_options() -> None:
    opts = GOAT.options()
    assert list(opts) == [f.name for f in dataclasses.fields(Rules)]
    assert opts["name"] == "goat"
    assert opts["first_phase"] == "all-play" and opts["plays"] == "run"
    assert opts["pick_up"] == "lowest-run" and opts["second_lead"] == "last-trick"
    assert opts["dreck_below"] == 6 and opts["sluffing"] is True
    assert all(isinstance(v, (str, int, bool)) for v in opts.values())
    p = PAGAT.options()
    assert (p["first_phase"], p["plays"], p["pick_up"], p["second_lead"]) == (
        "pairs", "single", "top-card", "trump-drawer"
    )
    assert Rules().with_options(p) == PAGAT  # the plain options rebuild the rules


# -- presets -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "preset"),
    [
        ("pagat", "pagat"), ("PAGAT", "pagat"), (" goat ", "goat"), ("Flurst", "goat"),
        ("swedish goat", "goat"), ("Swedish_Goat_Game", "goat"), ("swedish-goat", "goat"),
        ("skitgubbe", "pagat"), ("Mjolnarmatte", "pagat"),
    ],
)
def test_find_variant(name: str, preset: str) -> None:
    assert find_variant(name) is PRESETS[preset]


def test_every_alias_names_a_preset() -> None:
    for alias, preset in ALIASES.items():
        assert find_variant(alias) is PRESETS[preset]
    for name, rules in PRESETS.items():
        assert rules.name == name


@pytest.mark.parametrize("name", ["whist", "", "goats", "pagat2"])
def test_unknown_variant(name: str) -> None:
    with pytest.raises(UnknownVariantError) as info:
        find_variant(name)
    msg = str(info.value)
    assert msg.startswith(f"no rules called {name!r}; presets: {', '.join(sorted(PRESETS))}; aliases: ")
    assert all(a in msg for a in ALIASES)
    assert isinstance(info.value, ValueError)


def test_rules_diff() -> None:
    diff = rules_diff(PAGAT, GOAT)
    assert "name" not in diff
    assert diff["min_players"] == (2, 3) and diff["max_players"] == (4, 8)
    assert diff["first_phase"] == ("pairs", "all-play")
    assert diff["must_match"] == (False, True) and diff["dreck_below"] == (0, 6)
    assert diff["plays"] == ("single", "run") and diff["pick_up"] == ("top-card", "lowest-run")
    assert "hand_size" not in diff and "turn_from_stock" not in diff and "dreck_max_rank" not in diff
    assert rules_diff(GOAT, PAGAT) == {k: (b, a) for k, (a, b) in diff.items()}
    assert rules_diff(GOAT, GOAT) == {} == rules_diff(GOAT, GOAT.replace(name="other"))


# -- phase one: can / check / explain ------------------------------------------------------------

# goat, 3 seats, dealer 0: seat 1 leads; every seat plays to each trick in turn (1, 2, 0).
GOAT_HANDS = ["3C 8S JD", "KC 9S 4D", "KD 7S 2H"]


def goat_game(*, live: bool = False) -> State:
    state = State.new(GOAT, 3, deck=stack_deck(GOAT_HANDS, "9H 6C 6D"), live=live)
    assert state.hands == [cs(h) for h in GOAT_HANDS] and state.to_act == 1
    return state


def test_goat_must_match() -> None:
    state = goat_game()
    state.apply(play("KC"), 1)
    assert state.to_act == 2 and not state.pending
    assert state.legal_actions(2) == [play("KD")]
    assert refused(state, play("7S"), 2) == "you must match the K: you hold K♦"
    assert refused(state, STOCK, 2) == "you must match the K: you hold K♦"
    state.apply(play("KD"), 2)  # a war between seats 1 and 2, after seat 0 plays
    assert state.to_act == 0
    assert set(state.legal_actions(0)) >= {play("3C"), play("8S"), play("JD"), STOCK}


def test_goat_sluff_messages() -> None:
    state = goat_game()
    assert refused(state, sluff("3C"), 0) == "there is no card on the table to sluff onto"
    state.apply(play("KC"), 1)  # seat 1 draws 9H
    assert refused(state, sluff("3C"), 0) == "no 3 is in the trick: you may only sluff a rank already there"
    assert refused(state, sluff("KD"), 2) == (
        "you have yet to play to this round and K♦ matches its highest card: it may be the card you must play"
    )
    assert refused(state, sluff("KD 7S"), 2) == "sluff one card at a time"
    assert refused(state, sluff("KH"), 2) == "you do not hold K♥"
    assert refused(state, PASS, 0) == "you have no sluff window open: passing only ends your chance to sluff"
    assert refused(state, PICK, 2) == "there is nothing to pick up in phase one: play a card to the trick"


def test_goat_sluff_window_and_acting_seats() -> None:
    state = goat_game()
    state.apply(play("9S"), 1)  # seat 1 draws 9H, a rank in the trick: it may sluff it now
    assert state.hands[1] == cs("KC 4D 9H")
    assert state.pending == 1 << 1 and state.to_act == 1
    assert state.legal_actions(1) == [sluff("9H"), PASS]
    assert state.acting_seats() == [1]
    assert refused(state, play("7S"), 2) == "the trick waits for sluffs: seat 1 must sluff or pass first"
    assert refused(state, STOCK, 2) == "the trick waits for sluffs: seat 1 must sluff or pass first"
    state.apply(PASS, 1)
    assert state.to_act == 2 and not state.pending and state.acting_seats() == [2, 1]
    # seat 1 may still sluff out of turn (a legal sluff is accepted at any moment)
    assert state.legal_actions(1) == [sluff("9H")]
    assert refused(state, play("KC"), 1) == "it is seat 2's turn to play, not yours"


def test_live_table_has_no_window_before_the_trick_is_settled() -> None:
    state = goat_game(live=True)
    state.apply(play("9S"), 1)
    assert not state.pending and state.to_act == 2
    assert state.acting_seats() == [2, 1]
    assert state.legal_actions(1) == [sluff("9H")]
    state.apply(sluff("9H"), 1)  # out of turn; seat 1 draws 6C
    assert state.hands[1] == cs("KC 4D 6C") and state.sluffs == [(1, parse_cards("9H")[0])]
    assert state.to_act == 2


def test_pagat_phase_one_messages() -> None:
    state = State.new(PAGAT, 3, deck=stack_deck(["AC AD AH", "2C 2D 2H", "KC KD KH"], "7S 8S"))
    assert state.to_act == 1 and state.acting_seats() == [1]
    assert refused(state, play("AC"), 0) == "it is seat 1's turn to play, not yours"
    assert refused(state, STOCK, 0) == "it is seat 1's turn to play, not yours"
    assert refused(state, play("AC"), 1) == "you do not hold A♣"
    assert refused(state, play("2C 2D"), 1) == "play exactly one card to a trick in phase one"
    assert refused(state, sluff("2C"), 1) == "these rules have no sluffing"
    assert refused(state, PASS, 1) == "you have no sluff window open: passing only ends your chance to sluff"
    assert refused(state, PICK, 1) == "there is nothing to pick up in phase one: play a card to the trick"
    assert refused(state, Action(Kind.DRECK, cs("2C"), (0,)), CHANCE) == "there is no dreck to deal now"
    assert state.legal_actions(1) == [play("2C"), play("2D"), play("2H"), STOCK]


def test_stock_last_card_cannot_be_turned() -> None:
    state = State.new(PAGAT, 2, seed=3)
    rng = random.Random(3)
    while len(state.stock) > 1:
        state.apply(rng.choice([a for a in state.legal_actions() if a != STOCK]))
    assert len(state.stock) == 1 and state.phase == Phase.ONE
    assert STOCK not in state.legal_actions()
    assert refused(state, STOCK, state.to_act) == (
        "the stock's last card cannot be turned up: it becomes the trump card"
    )


def test_check_rejects_non_actions_and_missing_seats() -> None:
    state = State.new(PAGAT, 3, seed=1)
    with pytest.raises(IllegalActionError, match="is not an Action"):
        state.check((Kind.PLAY, 1, ()), 1)  # type: ignore[arg-type]
    assert refused(state, PICK, 3) == "there is no seat 3: seats are 0..2"
    assert refused(state, PICK, -2) == "there is no seat -2: seats are 0..2"
    assert state.legal_actions(CHANCE) == []
    with pytest.raises(ValueError, match="there is no seat 5"):
        state.legal_actions(5)
    with pytest.raises(ValueError, match="no chance action is pending"):
        state.chance_action(random.Random(0))


# -- the dreck -------------------------------------------------------------------------------------


def dreck_game() -> State:
    """A goat deal (seed found by search, fixed) stopped when the dreck waits for the chance deal."""
    for seed in range(200):
        state = State.new(GOAT, 6, seed=seed)
        random_playout(state, seed, phase_one_only=True)
        if state.phase == Phase.DRECK:
            return state
    raise AssertionError("no goat deal of the first 200 seeds needs a chance deal of the dreck")


def test_dreck_deal() -> None:
    state = dreck_game()
    assert state.to_act == CHANCE and state.acting_seats() == [CHANCE] and len(state.needy) > 1
    dreck = state.dreck
    assert dreck.bit_count() == 17  # every 2, 3, 4, 5 and the 6 of trumps
    assert not any(h & dreck for h in state.hands)
    [representative] = state.legal_actions(CHANCE)
    assert representative.kind == Kind.DRECK and representative.cards == dreck
    assert state.legal_actions(state.needy[0]) == []
    order = representative.order
    assert refused(state, Action(Kind.DRECK, dreck, order), 0) == (
        "the dreck is dealt by chance, not by a seat"
    )
    assert refused(state, Action(Kind.DRECK, dreck, order[1:]), CHANCE) == (
        "the dreck order must list each dreck card exactly once"
    )
    assert refused(state, Action(Kind.DRECK, dreck, order + order[:1]), CHANCE) == (
        "the dreck order must list each dreck card exactly once"
    )
    assert refused(state, PICK, 0) == "the dreck is being dealt: only the chance deal may happen now"
    shuffled = state.chance_action(random.Random(5))
    assert sorted(shuffled.order) == sorted(order) and shuffled.cards == dreck
    sizes = state.hand_sizes()
    state.apply(shuffled, CHANCE)
    k = len(state.needy)
    for i, seat in enumerate(state.needy):
        dealt = shuffled.order[i::k]  # dealt one at a time in turn
        assert state.hands[seat] & mask_of(dealt) == mask_of(dealt)
        assert state.hand_sizes()[seat] == sizes[seat] + len(dealt)
    assert state.phase == Phase.TWO


# -- phase two -----------------------------------------------------------------------------------


def test_phase_two_messages_single_plays() -> None:
    state = State.from_phase_two(PAGAT, [cs("5C 9D KH"), cs("3C 9C KD 7D")], trump_suit=2, leader=0)
    assert state.phase == Phase.TWO and state.to_act == 0 and state.trump_known
    assert refused(state, PICK, 0) == "there is nothing on the table to pick up: lead any card"
    assert refused(state, play("5C 9D"), 0) == "these rules allow one card per play in phase two"
    assert refused(state, play("5C"), 1) == "it is seat 0's turn, not yours"
    state.apply(play("5C"), 0)
    assert state.to_act == 1 and state.acting_seats() == [1] and state.legal_actions(0) == []
    assert state.legal_actions(1) == [play("9C"), PICK]
    assert refused(state, play("3C"), 1) == "the 3♣ cannot beat the 5♣; only a higher club or a trump can"
    assert refused(state, play("7D"), 1) == "the 7♦ cannot beat the 5♣; only a higher club or a trump can"
    assert refused(state, play("9D"), 1) == "you do not hold 9♦"
    assert refused(state, STOCK, 1) == "there is no stock in phase two: play a card or pick up"
    assert refused(state, PASS, 1) == "there is no pass in phase two: play a card or pick up"
    assert refused(state, sluff("3C"), 1) == "there is no sluff in phase two: play a card or pick up"
    state.apply(PICK, 1)  # picks up the 5C; seat 0 leads again
    assert state.hands[1] == cs("3C 5C 9C KD 7D") and state.to_act == 0
    state.apply(play("KH"), 0)
    assert refused(state, play("KD"), 1) == "the K♦ cannot beat the K♥; only a higher trump can"


def test_phase_two_messages_runs() -> None:
    state = State.from_phase_two(GOAT, [cs("5D 7D 8D"), cs("2S 3S"), cs("AC")], trump_suit=0, leader=0)
    assert refused(state, play("5D 7D"), 0) == "a play is one card or a run of touching cards of one suit"
    assert refused(state, play("5D 8D"), 0) == "a play is one card or a run of touching cards of one suit"
    assert play("7D 8D") in state.legal_actions(0)
    state.apply(play("7D 8D"), 0)
    assert refused(state, play("2S 3S"), 1) == (
        "the 2♠ cannot beat the 8♦; only a higher diamond or a trump can"
    )


# -- from_phase_two --------------------------------------------------------------------------------

TRUMP_RANGE = "trump suit must be 0..3 (clubs, diamonds, hearts, spades)"


@pytest.mark.parametrize(
    ("hands", "kwargs", "message"),
    [
        ([cs("2C")], {}, "pagat is for 2 to 4 players, not 1"),
        ([cs("2C")] * 5, {}, "pagat is for 2 to 4 players, not 5"),
        ([cs("2C 3C"), cs("3C")], {}, "card 3♣ is in two hands"),
        ([cs("2C"), 1 << 52], {}, "seat 1: not a card set"),
        ([cs("2C"), -1], {}, "seat 1: not a card set"),
        ([cs("2C"), cs("3C")], {"trump_suit": 4}, f"{TRUMP_RANGE}, not 4"),
        ([cs("2C"), cs("3C")], {"trump_suit": -1}, f"{TRUMP_RANGE}, not -1"),
        ([cs("2C"), cs("3C")], {"leader": 2}, "leader seat 2 does not exist: seats are 0..1"),
    ],
)
def test_from_phase_two_validation(hands: list[int], kwargs: dict[str, int], message: str) -> None:
    args = {"trump_suit": 0, "leader": 0} | kwargs
    with pytest.raises(ValueError) as info:
        State.from_phase_two(PAGAT, hands, **args)
    assert str(info.value).endswith(message)


def test_from_phase_two_positions() -> None:
    state = State.from_phase_two(PAGAT, [0, cs("2C"), cs("3C 4C")], trump_suit=3, leader=0)
    assert state.to_act == 1  # the leader moves on to the next seat holding cards
    assert state.out_order == [0] and state.acting_seats() == [1]
    assert state.trump_suit == 3 and state.trump_card == -1 and state.stock == []
    record = record_of(state)  # a position is recorded as one
    assert record.position is not None and record.position.hands == (0, cs("2C"), cs("3C 4C"))
    assert record.position.out_of_play == FULL_DECK & ~cs("2C 3C 4C") and record.deck == ()
    over = State.from_phase_two(PAGAT, [cs("2C"), 0], trump_suit=0, leader=1)
    with pytest.raises(ValueError, match="no deal or position to record"):
        record_of(over)
    assert over.is_over and over.outcome is not None
    assert (over.outcome.loser, over.outcome.out_order, over.outcome.abandoned) == (0, (1,), False)


# -- the end ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players"), [(PAGAT, 2), (GOAT, 5)])
def test_game_over(rules: Rules, players: int) -> None:
    state = random_playout(State.new(rules, players, seed=11), seed=11)
    assert state.is_over and state.to_act == -2 and state.acting_seats() == []
    assert state.outcome is not None and state.outcome.loser == state.loser is not None
    for seat in range(players):
        assert state.legal_actions(seat) == []
        for action in (PICK, play("2C"), STOCK, PASS):
            with pytest.raises(GameOverError) as info:
                state.apply(action, seat)
            assert info.value.reason == "the game is over"
            assert not state.can(action, seat)
    assert isinstance(info.value, IllegalActionError)
    assert state.explain(PICK, 0) == "the game is over"
    with pytest.raises(ValueError, match="the game is over"):
        state.random_action(random.Random(0))


def test_action_limit_abandons_the_deal() -> None:
    state = State.new(PAGAT, 3, seed=4, action_limit=10)
    random_playout(state)
    assert len(state.history) == 10 and state.is_over
    assert state.outcome is not None
    assert state.outcome.loser is None and state.outcome.abandoned
    assert state.events[-1].kind == "abandoned"
    with pytest.raises(GameOverError):
        state.apply(PICK, 0)
