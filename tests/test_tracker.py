"""The card tracker: what it infers from one seat's view agrees with the true state, at every decision
of random deals under every preset, and its beating helper agrees with the engine.

Run: .venv/bin/pytest -q tests/test_tracker.py
"""

from __future__ import annotations

import random

import pytest

from skitgubbe import State
from skitgubbe.bots import HeuristicBot
from skitgubbe.bots.tracker import Tracking, beaters, track
from skitgubbe.engine.actions import CHANCE
from skitgubbe.engine.base import Phase
from skitgubbe.engine.beating import anti_trump_suit, beats
from skitgubbe.engine.cards import FULL_DECK, SUIT_MASKS, parse_cards
from skitgubbe.engine.rules import AntiTrump
from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.view import view_of


def true_trump_card(state: State) -> int:
    """The trump card as the engine has it: set aside (or drawn), else the bottom stock card."""
    if state.trump_card >= 0:
        return state.trump_card
    return state.stock[0]


def check(state: State, seat: int, tr: Tracking) -> None:
    """Every claim of ``tr`` holds in the true ``state``."""
    n = state.players
    hands = state.hands
    assert tr.seat == seat
    assert tr.known[seat] == hands[seat]
    hidden_stock = 0
    for c in state.stock:
        hidden_stock |= 1 << c
    view = view_of(state, seat)
    if view.exposed_card >= 0:
        hidden_stock &= ~(1 << view.exposed_card)
    expect_unseen = hidden_stock
    for s in range(n):
        assert tr.known[s] & ~hands[s] == 0, f"seat {s}: a known card is not in the hand"
        assert hands[s] & ~tr.possible[s] == 0, f"seat {s}: a card in the hand is not possible"
        if s != seat:
            assert tr.unknown[s] == (hands[s] & ~tr.known[s]).bit_count()
            expect_unseen |= hands[s] & ~tr.known[s]
        else:
            assert tr.unknown[s] == 0
        if state.phase == Phase.ONE:
            assert tr.owned[s] & state.piles[s] == state.piles[s]
            assert tr.owned[s] & ~(hands[s] | state.piles[s]) == 0
        else:
            assert tr.owned[s] == tr.known[s]
    if state.phase == Phase.ONE and state.trump_card >= 0 and view.trump_card < 0:
        expect_unseen |= 1 << state.trump_card  # a face-down trump card the seat has not seen
    for c in state.reserve:  # a face-down reserve pile (the avstickshög of two-player)
        expect_unseen |= 1 << c
    assert tr.unseen == expect_unseen
    assert tr.table == view.trick_cards()
    assert tr.gone == state.killed
    assert tr.live == FULL_DECK & ~state.killed & ~hands[seat]
    assert tr.stock_size == len(state.stock)
    assert abs(sum(tr.trump_odds) - 1.0) < 1e-9
    if state.phase == Phase.ONE:
        trump = true_trump_card(state) // 13
        assert tr.trump_odds[trump] > 0.0
        if view.exposed_card >= 0:
            assert tr.trump_odds[trump] == 1.0
    else:
        assert tr.trump_odds[state.trump_suit] == 1.0
        rules = state.rules
        if rules.expose_leftover and rules.show_trump_card and not rules.dreck_below and not rules.reserve:
            # every card was seen going into a hand: phase two is played open
            assert tr.unseen == 0
            assert tr.known == tuple(hands)
    others = tr.others_may_hold()
    for s in range(n):
        if s != seat:
            assert hands[s] & ~others == 0


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_tracking_matches_the_true_state_over_random_deals(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(preset)
    decisions = 0
    for players in sorted({rules.min_players, min(rules.max_players, 4)}):
        for g in range(3):
            state = State.new(rules, players, seed=f"{preset}:{players}:{g}")
            # heuristic bots in even deals (they reach long phase twos), random play otherwise
            bots = [HeuristicBot(random.Random(s)) for s in range(players)] if g % 2 == 0 else None
            while not state.is_over:
                seat = state.to_act
                if seat == CHANCE:
                    state.apply(state.chance_action(rng), CHANCE)
                    continue
                view = view_of(state, seat)
                check(state, seat, track(view))
                decisions += 1
                action = bots[seat].choose(view, view.legal) if bots else state.random_action(rng)
                state.apply(action, seat)
    assert decisions > 100


def test_the_trump_odds_follow_the_unseen_cards() -> None:
    """Near the end of phase one few cards are unseen; each suit's chance is its share of them."""
    rules = PRESETS["pagat"]
    state = State.new(rules, 3, seed=5)
    rng = random.Random(0)
    while state.phase == Phase.ONE and len(state.stock) > 4:
        state.apply(state.random_action(rng), state.to_act)
    tr = track(view_of(state, state.to_act))
    n = tr.unseen.bit_count()
    assert n > 0
    for s in range(4):
        assert tr.trump_odds[s] == (tr.unseen & SUIT_MASKS[s]).bit_count() / n


def test_beaters_agree_with_the_engine() -> None:
    for trump in range(4):
        for rule in AntiTrump:
            anti = anti_trump_suit(rule, trump)
            for c in range(52):
                want = sum(1 << x for x in range(52) if beats(1 << x, 1 << c, trump, anti))
                assert beaters(c, FULL_DECK, trump, anti) == want


def test_beaters_of_a_card_among_a_hand() -> None:
    hand = sum(1 << c for c in parse_cards("9D KD 2H 5C"))
    (nine,) = parse_cards("9D")
    (eight,) = parse_cards("8D")
    # hearts trump: a higher diamond and any heart beat the eight of diamonds
    assert beaters(eight, hand, 2) == sum(1 << c for c in parse_cards("9D KD 2H"))
    # diamonds trump: only a higher trump beats a trump
    assert beaters(nine, hand, 1) == sum(1 << c for c in parse_cards("KD"))
