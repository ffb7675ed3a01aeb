"""Views: the history snapshot and what a seat is shown of the trump card and the dreck."""

from __future__ import annotations

import random

import pytest

from helpers import random_playout
from skitgubbe.engine.actions import CHANCE, Kind
from skitgubbe.engine.base import PUBLIC, Phase
from skitgubbe.engine.cards import card_name, cards_in
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS, find_variant, usual_players
from skitgubbe.engine.view import SPECTATOR, History, SeenEvents, events_for, view_of
from skitgubbe.server.protocol import events_part

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
        # the history hides the order because the seat's events hide the other seats' shares
        shares = {e.seat: e.cards for e in view_of(state, s).events if e.kind == "dreck-share"}
        assert set(shares) == set(state.needy)
        assert all((cards != 0) == (v == s) for v, cards in shares.items())


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


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_views_events_are_what_each_step_showed_that_seat(name: str) -> None:
    """One function makes events fit to show: the events a seat was shown step by step
    (``events_for`` of what ``apply`` returned) are the view's ``events``, and the web table's
    (``events_part``) show the same cards.  A spectator sees no private card."""
    rules = PRESETS[name]
    players = usual_players(rules)
    watchers = [*range(players), SPECTATOR]
    for seed in range(4):
        state = State.new(rules, players, seed=seed)
        rng = random.Random(seed)
        shown = {w: list(events_for(state.events, w)) for w in watchers}
        step = 0
        while not state.is_over:
            seat = state.to_act
            events = state.apply(state.random_action(rng), seat)
            for w in watchers:
                shown[w] += events_for(events, w)
            step += 1
            if step % 7 and not state.is_over:
                continue
            for w in watchers:
                seen = view_of(state, w).events
                assert isinstance(seen, SeenEvents) and seen == tuple(shown[w]), (seed, step, w)
                web = [e["cards"] for e in events_part(state.events, w)]
                assert web == [[card_name(c) for c in cards_in(e.cards)] for e in seen]
                if w == SPECTATOR:
                    assert all(e.to == PUBLIC or not e.cards for e in seen)


def test_a_views_events_are_a_frozen_snapshot() -> None:
    state = _played("pagat", 3, seed=2, actions=6)
    view = view_of(state, 0)
    n = len(state.events)
    assert len(view.events) == n and view.events[-1] == state.events[-1]
    assert view.events[0] == state.events[0] and view.events[1].cards == 0  # seat 1's hand: hidden
    assert view.events[:2] == (state.events[0], state.events[1]._replace(cards=0))
    assert hash(view.events) == hash(tuple(view.events)) and repr(view.events).startswith("SeenEvents((")
    state.apply(state.random_action(random.Random(0)), state.to_act)
    assert len(view.events) == n, "a later event must not show up in an earlier view"
    with pytest.raises(IndexError):
        view.events[n]
    with pytest.raises(IndexError):
        view.events[-n - 1]
    assert view.events != [1]
    assert view_of(state, 0).events == SeenEvents(state.events, len(state.events), 0)
