"""The state's parts (issue 15, item 4): each owns its data and checks its invariants; the state
reads every part's field under its old name, read-only."""

from __future__ import annotations

import random

import pytest

from helpers import snapshot
from skitgubbe import State, find_variant
from skitgubbe.engine.base import Phase
from skitgubbe.engine.phase_one import Trick
from skitgubbe.engine.phase_two import Table
from skitgubbe.engine.seats import Seats
from skitgubbe.engine.stock import Undealt

PAGAT = find_variant("pagat")


def played(rules_name: str, players: int, seed: int, moves: int) -> State:
    """A deal of ``rules_name`` after ``moves`` random moves (or its end)."""
    state = State.new(find_variant(rules_name), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.step(state.random_action(rng), state.to_act)
    return state


def test_every_field_of_every_part_is_read_on_the_state_and_not_written() -> None:
    state = played("goat", 4, 3, 40)
    kinds = {"seats": Seats, "undealt": Undealt, "trick": Trick, "two": Table}
    for name, part in state.parts().items():
        assert isinstance(part, kinds[name])
        for field, value in vars(part).items():
            if field in ("players", "confusion"):  # the seats' own copy of the deal's settings
                continue
            assert getattr(state, field) is value, f"state.{field} is not state.{name}.{field}"
            with pytest.raises(AttributeError):
                setattr(state, field, value)


def test_the_parts_keep_their_invariants_through_whole_deals() -> None:
    for name, players in (("pagat", 3), ("goat", 4), ("koira", 4), ("mas", 3), ("two-player", 2)):
        state = State.new(find_variant(name), players, seed=7)
        rng = random.Random(7)
        while not state.is_over:
            state.check_parts()
            state.step(state.random_action(rng), state.to_act)
        state.check_parts()


def test_a_clone_copies_every_part() -> None:
    state = played("pagat", 3, 1, 30)
    other = state.clone()
    for name, part in state.parts().items():
        assert other.parts()[name] is not part
        assert vars(other.parts()[name]) == vars(part)
    assert snapshot(other, full_history=True) == snapshot(state, full_history=True)


def test_seats_check_finds_a_card_in_two_hands() -> None:
    state = played("pagat", 3, 2, 5)
    seats = state.seats.copy()
    low = seats.hands[0] & -seats.hands[0]
    seats.hands[1] |= low
    with pytest.raises(AssertionError, match="shares a card"):
        seats.check()
    seats = state.seats.copy()
    seats.known[0] |= seats.hands[1]
    with pytest.raises(AssertionError, match="known to hold"):
        seats.check()


def test_undealt_check_finds_a_card_twice_in_the_stock() -> None:
    state = played("pagat", 3, 2, 5)
    undealt = state.undealt.copy()
    undealt.stock.append(undealt.stock[0])
    with pytest.raises(AssertionError, match="twice"):
        undealt.check(state.full, state.players)


def test_trick_check_finds_trick_cards_that_disagree_with_the_rounds() -> None:
    state = State.new(PAGAT, 3, seed=4)
    state.step(state.legal_actions()[0], state.to_act)  # a card led: the trick holds it
    assert state.phase == Phase.ONE and state.trick_cards
    state.trick.check(state.players)
    trick = state.trick.copy()
    assert trick.round_cards is trick.rounds[-1]
    trick.trick_cards = 0
    with pytest.raises(AssertionError, match="trick_cards"):
        trick.check(state.players)
    trick = state.trick.copy()
    trick.round_cards = list(trick.round_cards)
    with pytest.raises(AssertionError, match="last of the rounds"):
        trick.check(state.players)


def test_table_check_finds_plays_without_owners() -> None:
    state = State.from_phase_two(PAGAT, [0b111, 0b111000, 0b111000000], trump_suit=0, leader=0)
    state.step(state.legal_actions()[0], state.to_act)
    table = state.two.copy()
    table.check(state.players)
    table.table_owners.append(0)
    with pytest.raises(AssertionError, match="owners"):
        table.check(state.players)


def test_check_parts_finds_a_lost_card() -> None:
    state = played("goat", 4, 5, 10)
    state.check_parts()
    state.seats.hands[0] &= state.seats.hands[0] - 1  # the lowest card of seat 0 vanishes
    with pytest.raises(AssertionError, match="nowhere"):
        state.check_parts()
