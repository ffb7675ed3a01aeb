"""Worlds from a view (the engine's public constructor, skitgubbe.engine.worlds): for every preset, a
placement of the unseen cards drawn here (not by the bots' sampler) gives a world whose view for the
seat is the view it was built from; the true placement gives back the true hands; a placement that
does not fit is refused with a message naming the place.

Run: .venv/bin/pytest -q tests/test_worlds.py
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skitgubbe import State, find_variant, view_of
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import cards_in
from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.worlds import Placement, PlacementError, Worlds, unseen_places, world_from_view

TABLES = [(name, n) for name, rules in sorted(PRESETS.items())
          for n in sorted({rules.min_players, min(4, rules.max_players)})]


def moments(name: str, players: int, seed: int, count: int = 6) -> Iterator[State]:
    """Copies of a random deal at ``count`` spread moments where a seat decides."""
    rng = random.Random(seed)
    state = State.new(find_variant(name), players, dealer=seed % players, seed=seed)
    copies = []
    while not state.is_over:
        if state.phase in (Phase.ONE, Phase.TWO):
            copies.append(state.clone())
        state.step(state.random_action(rng), state.to_act)
    step = max(1, len(copies) // count)
    yield from copies[::step]


def random_placement(worlds: Worlds, rng: random.Random) -> Placement:
    """A uniform placement written from the public UnseenPlaces and shares alone."""
    places = worlds.places
    hands = [0] * len(places.seats)
    counts = list(places.seats)
    pool = list(cards_in(places.hidden))
    if worlds.shares is not None:
        dreck = [c for c in pool if worlds.dreck >> c & 1]
        pool = [c for c in pool if not worlds.dreck >> c & 1]
        rng.shuffle(dreck)
        for seat, k in worlds.shares.items():
            for c in dreck[:k]:
                hands[seat] |= 1 << c
            dreck = dreck[k:]
            counts[seat] -= k
    rng.shuffle(pool)
    for seat, k in enumerate(counts):
        for c in pool[:k]:
            hands[seat] |= 1 << c
        pool = pool[k:]
    stock = tuple(pool[:places.stock]) if worlds.one else ()
    pool = pool[len(stock):]
    trump = -1
    if worlds.one and places.trump_slot:
        trump, pool = pool[0], pool[1:]
    return Placement(tuple(hands), stock, trump, tuple(pool[:places.reserve]))


def true_placement(worlds: Worlds, state: State) -> Placement:
    """Where the unseen cards really are."""
    places = worlds.places
    hands = tuple(state.hands[s] & places.hidden if places.seats[s] else 0 for s in range(state.players))
    stock = tuple(c for c in state.stock if places.hidden >> c & 1) if worlds.one else ()
    trump = state.trump_card if worlds.one and places.trump_slot else -1
    return Placement(hands, stock, trump, tuple(state.reserve))


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_world_built_from_a_view_shows_that_view(name: str, players: int) -> None:
    rng = random.Random(f"{name}{players}")
    for state in moments(name, players, seed=players * 7 + len(name)):
        seat = rng.randrange(players)
        view = view_of(state, seat)
        worlds = Worlds.from_view(view, needy=state.needy)
        for _ in range(2):
            world = worlds.build(random_placement(worlds, rng))
            assert view_of(world, seat) == view
            while not world.is_over:  # it is a legal deal that plays on
                world.step(world.random_action(rng), world.to_act)


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_the_true_placement_gives_back_the_true_hands(name: str, players: int) -> None:
    rng = random.Random(name)
    for state in moments(name, players, seed=11 + players):
        seat = rng.randrange(players)
        worlds = Worlds(state, seat)
        world = worlds.build(true_placement(worlds, state))
        assert world.hands == state.hands
        assert view_of(world, seat) == view_of(state, seat)
        if worlds.one:
            assert [c for c in world.stock if worlds.places.hidden >> c & 1] == \
                [c for c in state.stock if worlds.places.hidden >> c & 1]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), seat=st.integers(0, 3), name=st.sampled_from(sorted(PRESETS)))
def test_world_from_view_with_any_placement(seed: int, seat: int, name: str) -> None:
    rules = find_variant(name)
    players = max(rules.min_players, min(4, rules.max_players))
    seat %= players
    state = next(moments(name, players, seed, count=2))
    view = view_of(state, seat)
    worlds = Worlds.from_view(view)
    placement = random_placement(worlds, random.Random(seed))
    assert view_of(world_from_view(view, placement), seat) == view
    assert view_of(world_from_view(view), seat) == view  # the canonical world
    bare = world_from_view(view, placement, events=False)  # for a search: no events to copy
    assert bare.events == [] and view_of(bare, seat) == view._replace(events=())
    assert all(not e.cards or e.to == -1 or e.to >> seat & 1 for e in world_from_view(view, placement).events)


def test_a_placement_that_does_not_fit_is_refused_by_name() -> None:
    state = State.new(find_variant("pagat"), 3, seed=4)
    worlds = Worlds(state, 0)
    good = worlds.canonical_placement()
    worlds.check(good)
    places = unseen_places(view_of(state, 0))
    k, size = places.seats[1], places.stock
    assert places.seats == (0, 3, 3) and size == 52 - 9  # the bottom card (the trump card) included
    low1 = good.hands[1] & -good.hands[1]
    cases = [
        (good._replace(hands=good.hands[:2]), "one hand per seat"),
        (good._replace(hands=(0, good.hands[1] ^ low1, good.hands[2])), f"seat 1 holds {k} unseen cards"),
        (good._replace(hands=(0, good.hands[1], good.hands[1])), "placed twice"),
        (good._replace(stock=good.stock[1:]), f"the stock holds {size} unseen cards, not {size - 1}"),
        (good._replace(stock=(state.hands[0].bit_length() - 1, *good.stock[1:])), "not an unseen card"),
        (good._replace(trump_card=good.stock[0]), "trump_card must be -1"),
    ]
    for placement, words in cases:
        with pytest.raises(PlacementError, match=words):
            worlds.build(placement)
    assert view_of(state, 0) == view_of(worlds.build(good), 0)  # the base state is untouched


def test_a_face_down_trump_card_has_its_own_place() -> None:
    rules = find_variant("howell")  # bottom_aside: the bottom card lies apart, face down
    state = State.new(rules, 4, seed=2)
    worlds = Worlds(state, 1)
    assert worlds.places.trump_slot
    good = worlds.canonical_placement()
    with pytest.raises(PlacementError, match="the face-down trump card"):
        worlds.build(good._replace(trump_card=-1))
    world = worlds.build(good)
    assert world.trump_card == good.trump_card


@pytest.mark.parametrize("name", ["goat", "atlanta", "helmfrid"])
def test_worlds_of_a_live_table_with_every_seat_asked(name: str) -> None:
    # the online table's protocol (issue 28): worlds from a state keep it, worlds from a view take it
    # as given, and either way show the seat its own view, the open window included
    rules = PRESETS[name]
    state = State.new(rules, 3, seed=7, live=True, ask_every_seat=True)
    rng = random.Random(7)
    windows = 0
    while state.phase in (Phase.ONE, Phase.DRECK):
        if state.phase == Phase.ONE:
            for seat in range(3):
                view = view_of(state, seat)
                for worlds in (Worlds(state, seat),
                               Worlds.from_view(view, live=True, ask_every_seat=True)):
                    world = worlds.build(worlds.placement(rng))
                    assert view_of(world, seat) == view
                    assert world.live and world.ask_all
            windows += bool(state.pending)
        seats = state.acting_seats()
        seat = rng.choice(seats) if rng.random() < 0.2 else state.to_act
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert windows
    assert not Worlds.from_view(view_of(state, 0)).base.live  # the default: the sequential protocol
