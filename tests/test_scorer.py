"""The one phase-one scorer of the card-playing bots (skitgubbe.bots.heuristic.score_one): cards
rank as phase one ranks them, so under Howell's aces low (howell preset) an ace never wins a
round against a 2 or better, and a play of equal cards costs every card it gives away."""

from __future__ import annotations

import random

from skitgubbe.bots.counter import CounterBot
from skitgubbe.bots.heuristic import HeuristicBot, phase_one_strength, score_one
from skitgubbe.engine.actions import Kind
from skitgubbe.engine.cards import full_deck, rank_of
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.engine.view import view_of


def test_phase_one_strength_puts_the_ace_lowest_only_under_aces_low() -> None:
    howell, pagat = phase_one_strength(find_variant("howell")), phase_one_strength(find_variant("pagat"))
    assert howell[14] == 1 and all(howell[r] == r for r in range(2, 14))
    assert pagat[14] == 14 and list(pagat[2:]) == list(range(2, 15))


def positions(preset: str, players: int, deals: int, want: object) -> list[tuple[State, int]]:
    """Phase-one decisions (state clone, seat to act) of random deals for which ``want(state)``."""
    found = []
    for k in range(deals):
        state = State.new(find_variant(preset), players, seed=k)
        rng = random.Random(k)
        while not state.is_over and state.phase == 1:
            if state.to_act >= 0 and want(state):  # type: ignore[operator]
                found.append((state.clone(), state.to_act))
            state.apply(state.random_action(rng), state.to_act)
    return found


def test_under_aces_low_an_ace_played_over_a_higher_card_is_scored_as_given_away() -> None:
    def ace_under(state: State) -> bool:
        v = view_of(state, state.to_act)
        current = v.rounds[-1] if v.rounds else ()
        return any(rank_of(c) != 14 for _, c in current) and v.round_seats[:1] == (v.seat,) and any(
            a.kind == Kind.PLAY and rank_of(a.cards.bit_length() - 1) == 14 for a in v.legal)

    found = positions("howell", 3, 40, ace_under)
    assert len(found) >= 10
    for bot in (HeuristicBot(random.Random(0)), CounterBot(random.Random(0))):
        for state, seat in found:
            v = view_of(state, seat)
            aces = [a for a in v.legal if a.kind == Kind.PLAY and rank_of(a.cards.bit_length() - 1) == 14]
            worth = [0.0] * 52
            for a in aces:
                worth[a.cards.bit_length() - 1] = 7.0
            # nothing else is worth anything and nothing is drawn: a lost ace costs its worth, and
            # the hold weight of strength 1
            scores = score_one(bot, v, aces, worth=worth, pool=full_deck(1) & ~v.hand, unseen=0, trick=0)
            assert scores == [-7.0 - bot.hold * 1] * len(aces)


def test_a_lost_play_of_equal_cards_costs_every_card_it_gives_away() -> None:
    # helmfrid: plays of one to three equal cards (pagat.com, "All Players play to Each Trick")
    def under(state: State) -> bool:
        v = view_of(state, state.to_act)
        current = v.rounds[-1] if v.rounds else ()
        high = max((rank_of(c) for _, c in current), default=0)
        return v.round_seats[:1] == (v.seat,) and any(
            a.kind == Kind.PLAY and a.cards.bit_count() > 1 and rank_of(a.cards.bit_length() - 1) < high
            for a in v.legal)

    found = positions("helmfrid", 3, 60, under)
    assert len(found) >= 5
    for bot in (HeuristicBot(random.Random(0)), CounterBot(random.Random(0))):
        for state, seat in found:
            v = view_of(state, seat)
            high = max(rank_of(c) for _, c in v.rounds[-1])
            plays = [a for a in v.legal if a.kind == Kind.PLAY and rank_of(a.cards.bit_length() - 1) < high]
            scores = score_one(bot, v, plays, worth=[3.0] * 52, pool=0, unseen=0, trick=0)
            assert scores == [-3.0 * a.cards.bit_count() - bot.hold * rank_of(a.cards.bit_length() - 1)
                              for a in plays]
