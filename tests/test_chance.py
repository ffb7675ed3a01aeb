"""Chance resolved by the caller: State.draws lists the cards a step takes from the stock and the
avstickshög, State.apply(..., draws=cards) takes the caller's cards instead of the deck's, the deck
is rewritten so that the record replays the deal, and cards that do not fit are refused with the
state unchanged.

Run: .venv/bin/pytest -q tests/test_chance.py
"""

from __future__ import annotations

import random

import pytest

from helpers import snapshot
from skitgubbe import PUBLIC, State, find_variant, record_of, replay
from skitgubbe.engine.actions import CHANCE
from skitgubbe.engine.cards import cards_in
from skitgubbe.engine.state import DrawError
from skitgubbe.engine.variants import PRESETS

TABLES = [(name, n) for name, rules in sorted(PRESETS.items())
          for n in sorted({rules.min_players, min(4, rules.max_players)})]
_CARD_KINDS = {"draw", "stock", "trump-drawn", "reserve-draw"}


def caller_draws(state: State, rng: random.Random, action: object, seat: int) -> list[int]:
    """Random cards for the draws of ``action``: distinct cards of the pool (the shown bottom card
    when a draw takes the last stock card)."""
    plan = state.draws(action, seat)  # type: ignore[arg-type]
    pool = list(cards_in(state.draw_pool()))
    rng.shuffle(pool)
    out = []
    left = len(state.stock)
    for d in plan:
        if d.source == "stock":
            left -= 1
            if left == 0 and state.rules.exposed_bottom:
                out.append(state.stock[0])
                continue
        out.append(pool.pop())
    return out


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_caller_resolves_every_draw(name: str, players: int) -> None:
    rules = find_variant(name)
    for seed in range(3):
        rng = random.Random(f"{name}:{seed}")
        state = State.new(rules, players, dealer=seed % players, seed=seed)
        drawn = 0
        while not state.is_over:
            seat = state.to_act
            action = state.chance_action(rng) if seat == CHANCE else state.random_action(rng)
            plan = state.draws(action, seat)
            cards = caller_draws(state, rng, action, seat)
            events = state.apply(action, seat, draws=cards)
            got = [e for e in events if e.kind in _CARD_KINDS or e.kind == "trump-aside"]
            assert [(d.kind, d.seat) for d in plan] == [(e.kind, e.seat) for e in got]
            for d, e, c in zip(plan, got, cards, strict=True):
                if e.kind != "trump-aside":
                    assert e.cards == 1 << c  # the caller's card, in the caller's order
                else:
                    assert state.trump_card == c and d.to == 0
                assert d.to == (0 if e.kind == "trump-aside" else e.to)
            drawn += len(cards)
        assert drawn > 0 or not state.deck
        again = replay(record_of(state))  # the rewritten deck replays the deal
        assert again.hands == state.hands and again.outcome == state.outcome and again.deck == state.deck


@pytest.mark.parametrize("name", ["pagat", "goat", "mas", "two-player", "howell"])
def test_giving_the_decks_own_cards_changes_nothing(name: str) -> None:
    rules = find_variant(name)
    players = max(rules.min_players, 3 if rules.max_players >= 3 else 2)
    rng = random.Random(name)
    ours = State.new(rules, players, seed=5)
    theirs = ours.clone()
    while not ours.is_over:
        seat = ours.to_act
        action = ours.chance_action(rng) if seat == CHANCE else ours.random_action(rng)
        trial = theirs.clone()
        events = trial.apply(action, seat)
        own = [e.cards.bit_length() - 1 for e in events if e.kind in _CARD_KINDS]
        if any(e.kind == "trump-aside" for e in events):
            own = None  # the face-down trump card's event holds no card: compare states only
        if own is not None:
            theirs.apply(action, seat, draws=own)
        else:
            theirs = trial
        ours.apply(action, seat)
        assert snapshot(ours) == snapshot(theirs)


def test_draws_that_do_not_fit_are_refused_and_nothing_changes() -> None:
    state = State.new(find_variant("pagat"), 3, seed=1)
    action = state.legal_actions()[0]
    plan = state.draws(action)
    assert len(plan) == 1 and plan[0].source == "stock" and plan[0].to == 1 << state.to_act
    before = snapshot(state)
    hand = next(cards_in(state.hands[1]))
    pool = list(cards_in(state.draw_pool()))
    for cards, words in [([], "takes 1 cards .* not 0"), (pool[:2], "not 2"),
                         ([hand], "not an unseen card"), ([99], "is not a card")]:
        with pytest.raises(DrawError, match=words):
            state.apply(action, draws=cards)
        assert snapshot(state) == before
    state.apply(action, draws=[pool[-1]])
    assert state.hands[0] >> pool[-1] & 1 or state.hands[state.history[-1][0]] >> pool[-1] & 1


def test_a_face_down_trump_card_is_seen_by_nobody() -> None:
    rules = find_variant("pagat")
    state = State.new(rules, 3, seed=2)
    rng = random.Random(0)
    while state.stock and not state.is_over:
        seat = state.to_act
        action = state.chance_action(rng) if seat == CHANCE else state.random_action(rng)
        for d in state.draws(action, seat):
            if d.kind == "trump-aside":
                assert d.to == 0
                return
            assert d.to in (PUBLIC, 1 << d.seat)
        state.apply(action, seat)
    pytest.fail("no trump card was set aside")  # pragma: no cover
