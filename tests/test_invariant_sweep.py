"""The invariant sweep: the invariants of test_properties.py, over random *option sets*.

An option set is a preset with up to six of its options changed, each to a value the option may
take (``Rules.options()`` names them, ``OPTION_HELP`` describes them; true/false options, named
values from their enums, whole numbers from ``skitgubbe.engine.rules.INT_RANGES``), applied as text by
``Rules.with_options``, the path a house-rules file or a record takes; a combination the rules
refuse (:class:`RulesError`) is skipped.  A seat count within the rules' range is drawn (six under
3-player confusion), then a deck seed, a dealer, the seed of the ``random.Random`` that picks the
actions, and the sluffing protocol.

Checked after every action (see :func:`sweep_deal`): every card of the deal (52, or 104 with two
packs) in exactly one place; every legal action of every seat that may act applies on a clone;
some illegal actions (test_properties.py's, and seats outside ``0..players-1``: chance taking a
seat's action, seat -2, a seat past the last) raise :class:`IllegalActionError` and leave the
state exactly as it was (a fingerprint of every attribute before and after).  At the end: the
deal ended within its action limit and named a loser.

``benchmarks/invariant_sweep.py`` runs the same checks for longer.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from skitgubbe.engine.actions import CHANCE, Action, Kind
from skitgubbe.engine.cards import FULL_DECK, fold
from skitgubbe.engine.rules import INT_RANGES, OPTION_HELP, Rules, RulesError
from skitgubbe.engine.state import IllegalActionError, State
from skitgubbe.engine.variants import PRESETS, find_variant
from test_option_properties import check_cards
from test_properties import check_illegal_actions, check_legal_actions, pick, refused, snapshot

T = TypeVar("T")
Choose = Callable[[Sequence[Any]], Any]
"""Picks one item of a sequence: hypothesis's ``draw(sampled_from(...))`` or ``random.Random.choice``."""

# -- option sets ------------------------------------------------------------------------------------


def option_values(name: str) -> list[str]:
    """Every value option ``name`` may take, as the text a house-rules file or a record writes."""
    value = getattr(Rules(), name)
    if isinstance(value, bool):
        return ["true", "false"]
    if isinstance(value, enum.Enum):
        return [m.value for m in type(value)]
    if isinstance(value, int):
        return [str(v) for low, high in INT_RANGES[name] for v in range(low, high + 1)]
    return ["sweep"]  # the name: it changes no rule


OPTIONS = sorted(Rules().options())
VALUES = {name: option_values(name) for name in OPTIONS}
assert set(OPTIONS) == set(OPTION_HELP), "every option has its words, and a value here"


def option_set(choose: Choose) -> tuple[str, dict[str, str]]:
    """A preset and up to six of its options changed: ``(preset, {option: value text})``."""
    changed = [choose(OPTIONS) for _ in range(choose(range(7)))]
    return choose(sorted(PRESETS)), {name: choose(VALUES[name]) for name in changed}


def make_rules(preset: str, options: dict[str, str]) -> Rules | None:
    """The rules of an option set, or None if the rules refuse the combination."""
    try:
        return find_variant(preset).with_options(options)
    except RulesError:
        return None


def seat_count(rules: Rules, choose: Choose) -> int | None:
    """A seat count the rules deal (six under 3-player confusion), drawn by ``choose``; None when
    the rules' pack is too short for every count in their range (``Rules.check_players``)."""
    if rules.confusion:
        return 6
    counts = []
    for n in range(rules.min_players, rules.max_players + 1):
        try:
            rules.check_players(n)
        except RulesError:
            continue
        counts.append(n)
    return int(choose(counts)) if counts else None


# -- the checks -------------------------------------------------------------------------------------


def seat_probes(state: State) -> list[tuple[str, int, Action]]:
    """Actions by seats outside ``0..players-1``, and actions that hold no card of the deal."""
    n = state.players
    last = state.hands[n - 1]
    card = last & -last or 1  # a card of the last seat: chance (-1) must not be read as that seat
    return [
        ("chance sluffs", CHANCE, Action(Kind.SLUFF, card)),
        ("chance plays", CHANCE, Action(Kind.PLAY, card)),
        ("chance passes", CHANCE, Action(Kind.PASS)),
        ("chance picks up", CHANCE, Action(Kind.PICK_UP)),
        ("seat -2 sluffs", -2, Action(Kind.SLUFF, card)),
        ("a seat past the last", n, Action(Kind.PASS)),
        ("seat 99 sluffs", 99, Action(Kind.SLUFF, card)),
        ("a card past the deal's", state.to_act, Action(Kind.PLAY, 1 << 200)),
        ("a negative card set", state.to_act, Action(Kind.SLUFF, -1)),
        ("a dreck order of no card", CHANCE, Action(Kind.DRECK, 0, (-1,))),
    ]


def two_pack_probes(state: State, rng: random.Random) -> list[tuple[str, int, Action]]:
    """With two packs, test_properties.py's probes (written for one pack) do not hold: a card
    named is either copy.  These are: cards of which the seat holds neither copy."""
    seat = state.to_act
    if seat < 0:
        return []
    free = FULL_DECK & ~fold(state.hands[seat])
    c = rng.choice([i for i in range(52) if free >> i & 1])
    return [("a card of which neither copy is held", seat, Action(Kind.PLAY, 1 << c)),
            ("a sluff of a card not held", seat, Action(Kind.SLUFF, 1 << c)),
            ("the same, named as the second pack's", seat, Action(Kind.PLAY, 1 << (c + 52)))]


def refuse(state: State, probes: Sequence[tuple[str, int, Action]]) -> None:
    """Each probe is refused with IllegalActionError (not GameOverError, not anything else), by
    can() too, and leaves the state exactly as it was."""
    before = snapshot(state)
    for what, seat, action in probes:
        e = refused(state, what, seat, action, before)
        assert e.reason and "\n" not in e.reason, (what, e)


def check_every_legal_action_applies(state: State) -> None:
    """Every legal action of every acting seat applies (checked) on a clone, which keeps every card."""
    if not state.double:
        check_legal_actions(state)  # (test_properties.py's, which counts the 52 cards)
        return
    for seat in state.acting_seats():
        for action in state.legal_actions(seat):
            other = state.clone()
            other.apply(action, seat)
            check_cards(other)


def sweep_deal(rules: Rules, players: int, deck_seed: int, dealer: int, play_seed: int, live: bool) -> int:
    """Play one deal with random legal actions, checking the invariants (module docstring) after
    every action; the number of actions taken.  Raises AssertionError naming what failed."""
    state = State.new(rules, players, seed=deck_seed, dealer=dealer % players, live=live)
    rng, probe = random.Random(play_seed), random.Random(play_seed ^ 0x5EED)
    while True:
        check_cards(state)
        if state.is_over:
            break
        check_every_legal_action_applies(state)
        refuse(state, seat_probes(state))
        if state.double:
            refuse(state, two_pack_probes(state, probe))
        else:
            check_illegal_actions(state, probe)
        assert len(state.history) < state.action_limit
        seat, action = pick(state, rng)
        state.apply(action, seat)
    assert len(state.history) <= state.action_limit
    assert not state.abandoned, f"abandoned after {len(state.history)} actions"
    assert state.outcome is not None and state.outcome.loser is not None
    return len(state.history)


# -- the tests ----------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.filter_too_much])
@given(st.data(), st.integers(0, 2**32), st.integers(0, 7), st.integers(0, 2**32), st.booleans())
def test_invariants_hold_under_random_option_sets(data: st.DataObject, deck_seed: int, dealer: int,
                                                  play_seed: int, live: bool) -> None:
    def choose(items: Sequence[T]) -> T:
        return data.draw(st.sampled_from(items))

    preset, options = option_set(choose)
    rules = make_rules(preset, options)
    if rules is None:
        reject()
    assert rules is not None
    players = seat_count(rules, choose)
    if players is None:
        reject()
    assert players is not None
    sweep_deal(rules, players, deck_seed, dealer, play_seed, live)


def test_the_sweep_checks_two_packs() -> None:
    """(Random option sets change ``decks`` now and then; this deal always runs the two-pack checks.)"""
    rules = make_rules("goat", {"decks": "2", "dreck_below": "12"})
    assert rules is not None and rules.decks == 2
    assert sweep_deal(rules, 4, deck_seed=5, dealer=1, play_seed=6, live=False) > 0


def test_option_sets_reach_every_option_and_value() -> None:
    """The drawing is not lopsided: over 20,000 draws every value of every option is drawn, and of
    the first 2,000 option sets at least a quarter are accepted."""
    rng = random.Random(0)
    seen: dict[str, set[str]] = {name: set() for name in OPTIONS}
    accepted = 0
    for i in range(20_000):
        preset, options = option_set(rng.choice)
        if i < 2000 and make_rules(preset, options) is not None:
            accepted += 1
        for name, value in options.items():
            seen[name].add(value)
    missing = {name: set(VALUES[name]) - values for name, values in seen.items()}
    assert {name: values for name, values in missing.items() if values} == {}
    assert accepted > 500, accepted


def test_chance_may_not_sluff_under_sluff_once() -> None:
    """Issue 14: under sluff_once (helmfrid, atlanta) State.check(sluff, CHANCE) raised
    ValueError('negative shift count'): chance was read as seat -1.  Now it is an illegal action
    with a reason, and the state is unchanged."""
    refused = 0
    for preset in ("helmfrid", "atlanta"):
        rules = find_variant(preset)
        for seed in range(4):
            state = State.new(rules, 3, seed=seed)
            rng = random.Random(seed)
            while not state.is_over:
                last = state.hands[-1]
                if last:
                    action = Action(Kind.SLUFF, last & -last)
                    before = snapshot(state)
                    with pytest.raises(IllegalActionError) as info:
                        state.check(action, CHANCE)
                    assert info.value.seat == CHANCE and "chance only deals cards" in info.value.reason
                    assert snapshot(state) == before
                    assert state.explain(action, CHANCE) == info.value.reason
                    refused += 1
                seat, action = pick(state, rng)
                state.apply(action, seat)
    assert refused > 100


def test_the_avstickshog_and_the_dreck_are_refused_together() -> None:
    """Found by the sweep (``benchmarks/invariant_sweep.py --seed 11 --deal 97``): two-player with
    ``dreck_below = 36`` dealt the dreck's cards still lying face down in the avstickshög to a needy
    seat, so the same cards were in a hand and in the avstickshög.  The texts never combine the two;
    the rules refuse it, naming both options."""
    with pytest.raises(RulesError, match="reserve=12 with dreck_below=36"):
        find_variant("two-player").with_options({"dreck_below": "36"})
    assert make_rules("two-player", {"dreck_below": "36"}) is None
    assert make_rules("two-player", {"dreck_below": "36", "reserve": "0"}) is not None


def test_the_sweep_checks_a_short_pack() -> None:
    """(Random option sets cut the pack short now and then: ``suits`` and ``lowest_rank``.)  One
    suit of 13 cards deals three hands of three and the bottom card; the checks count that pack,
    and a seat count the short pack cannot deal is not drawn."""
    rules = make_rules("catsatcards", {"suits": "1"})
    assert rules is not None and rules.pack_size == 13
    assert sweep_deal(rules, 3, deck_seed=3, dealer=0, play_seed=4, live=False) > 0
    koira = make_rules("koira", {"suits": "1"})
    assert koira is not None
    assert seat_count(koira, max) == 4  # 5 hands of 3 and the bottom card would need 16 of the 13
