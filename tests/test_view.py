"""Views: the history snapshot and what a seat is shown of the trump card and the dreck."""

from __future__ import annotations

import random

import pytest

from helpers import random_playout
from skitgubbe.engine.actions import CHANCE, Kind
from skitgubbe.engine.base import Phase
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.engine.view import History, view_of

GOAT = find_variant("goat")
PAGAT = find_variant("pagat")


def _played(rules_name: str, players: int, seed: int, actions: int) -> State:
    state = State.new(find_variant(rules_name), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        state.apply(state.random_action(rng), state.to_act)
    return state


def test_history_is_a_frozen_snapshot_of_the_public_history() -> None:
    state = _played("pagat", 3, seed=2, actions=6)
    view = view_of(state, 0)
    assert len(view.history) == 6
    assert view.history == tuple(state.history)
    assert view.history[-1] == state.history[-1] and view.history[0] == state.history[0]
    assert view.history[1:3] == tuple(state.history[1:3])
    assert hash(view.history) == hash(tuple(state.history))
    assert repr(view.history).startswith("History((")
    state.apply(state.random_action(random.Random(0)), state.to_act)
    assert len(view.history) == 6, "a later action must not show up in an earlier view"
    with pytest.raises(IndexError):
        view.history[6]
    with pytest.raises(IndexError):
        view.history[-7]
    assert view.history != [1]
    assert view_of(state, 1).history == History(state.history, 7)


def _split_dreck_state() -> State:
    for seed in range(300):
        state = State.new(GOAT, 6, seed=seed)
        rng = random.Random(seed)
        random_playout(state, rng, phase_one_only=True)
        if state.phase == Phase.DRECK:
            state.apply(state.chance_action(rng), CHANCE)
            return state
    raise AssertionError("no deal with a split dreck in 300 seeds")  # pragma: no cover


def test_a_split_dreck_order_is_hidden_in_every_view() -> None:
    state = _split_dreck_state()
    seat, action = state.history[state.dreck_move]
    assert seat == CHANCE and action.order
    for s in range(state.players):
        shown = view_of(state, s).history[state.dreck_move]
        assert shown[1].kind == Kind.DRECK and shown[1].order == () and shown[1].cards == action.cards


def test_goat_shows_the_trump_card_to_its_holder_only_pagat_to_all() -> None:
    for rules_name, players in (("goat", 4), ("pagat", 3)):
        state = State.new(find_variant(rules_name), players, seed=5)
        rng = random.Random(5)
        while state.phase == Phase.ONE:
            assert all(view_of(state, s).trump_card == -1 for s in range(players))
            state.apply(state.random_action(rng), state.to_act)
        shown = [view_of(state, s).trump_card for s in range(players)]
        holder = state.trump_holder
        assert shown[holder] == state.trump_card
        others = {shown[s] for s in range(players) if s != holder}
        assert others == ({-1} if rules_name == "goat" else {state.trump_card})
        assert all(view_of(state, s).trump_suit == state.trump_card // 13 for s in range(players))


def test_view_of_rejects_a_seat_that_does_not_exist() -> None:
    state = State.new(PAGAT, 3, seed=1)
    with pytest.raises(ValueError, match="there is no seat 3"):
        view_of(state, 3)
    view = view_of(state, state.to_act)
    assert view.my_turn and not view_of(state, (state.to_act + 1) % 3).my_turn
