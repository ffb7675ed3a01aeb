"""The engine's event contract: State.apply returns the events the action caused, in order, chance
outcomes included; each event says who may see its cards (Event.to), and events_for gives a seat
or a spectator only what it may see.  Checked over random deals of every preset, 3-player
confusion and two packs."""

from __future__ import annotations

import random

import pytest

from skitgubbe.engine.actions import CHANCE
from skitgubbe.engine.base import PUBLIC, Event
from skitgubbe.engine.narration import describe_event
from skitgubbe.engine.rules import Rules
from skitgubbe.engine.rulesfile import parse_rules_file
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.view import SPECTATOR, event_for, events_for

CONFUSION = parse_rules_file('preset = "goat"\n[options]\nconfusion = true\n')
TWO_PACKS = parse_rules_file('preset = "goat"\n[options]\ndecks = 2\ndreck_below = 12\n')
TABLES = [(name, rules, max(rules.min_players, min(4, rules.max_players)))
          for name, rules in sorted(PRESETS.items())]
TABLES += [("confusion", CONFUSION, 6), ("two-packs", TWO_PACKS, 5)]


def hidden_from(state: State, seat: int) -> int:
    """Cards ``seat`` (or SPECTATOR) may not know about now (bitmask): other hands' cards not
    publicly known (a confusion partner's hand is the seat's own), the stock, the avstickshög and
    the face-down trump card."""
    partner = state.partner(seat) if seat >= 0 else -1
    mask = 0
    for s in range(state.players):
        if s not in (seat, partner):
            mask |= state.hands[s] & ~state.known[s]
    for c in [*state.stock, *state.reserve]:
        mask |= 1 << c
    if state.trump_suit < 0 and state.trump_card >= 0:
        mask |= 1 << state.trump_card
    if state.exposed_card >= 0:  # face up under the stock (Mas: the turned-up trump, or the 2 exchanged)
        mask &= ~(1 << state.exposed_card)
    return mask


Step = tuple[State, tuple[Event, ...]]


def deals(rules: Rules, players: int, count: int) -> list[tuple[State, list[Step]]]:
    """``count`` random deals: each final state with, per action, the state after it and what
    apply returned."""
    out = []
    for k in range(count):
        state = State.new(rules, players, seed=k)
        rng = random.Random(k)
        steps = []
        while not state.is_over:
            seat = state.to_act
            action = state.chance_action(rng) if seat == CHANCE else rng.choice(state.legal_actions(seat))
            before = len(state.events)
            returned = state.apply(action, seat)
            assert returned == tuple(state.events[before:]), "apply returns exactly the events it added"
            steps.append((state.clone(), returned))
        out.append((state, steps))
    return out


@pytest.mark.parametrize("name, rules, players", TABLES, ids=[t[0] for t in TABLES])
def test_events_show_each_seat_only_what_it_may_see(name: str, rules: Rules, players: int) -> None:
    kinds: set[str] = set()
    for final, steps in deals(rules, players, 6):
        assert [e.kind for e in final.events[:players]] == ["deal"] * players
        for s in range(players):  # the deal: each seat sees its own hand, nobody else's
            deal = final.events[s]
            assert event_for(deal, s).cards == deal.cards and event_for(deal, SPECTATOR).cards == 0
        for state, returned in steps:
            assert returned, "every action causes at least one event"
            for seat in [*range(players), SPECTATOR]:
                hidden = hidden_from(state, seat)
                for ev in events_for(returned, seat):
                    assert not ev.cards & hidden, (name, seat, ev)
            for ev in returned:
                kinds.add(ev.kind)
                # every event is told to a reader who may see it, and a hidden one tells no card
                shown = event_for(ev, ev.seat if ev.seat >= 0 else SPECTATOR)
                names = [f"Seat {s}" for s in range(players)]
                assert describe_event(shown, names, state.rules, dreck=state.dreck) is not None or (
                    ev.kind in ("deal", "draw", "dreck-share") and not shown.cards), ev
    assert "play" in kinds or "lead" in kinds
    if State.new(rules, players, seed=0).stock:  # a stock to draw from: its cards reach hands
        assert "draw" in kinds


def test_a_private_event_reaches_its_seat_and_partner_only() -> None:
    state = State.new(CONFUSION, 6, seed=3)
    deal = state.events[1]
    assert deal.kind == "deal" and deal.to == (1 << 1 | 1 << 4) and deal.to != PUBLIC
    assert [bool(event_for(deal, s).cards) for s in range(6)] == [False, True, False, False, True, False]
    assert event_for(deal, SPECTATOR).cards == 0
