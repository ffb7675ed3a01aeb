"""Who acts must not tell hidden cards (issue 18): two worlds that differ only in two cards swapped
between two other seats' hands are played with the same moves, and one seat's view, the acting seat
and the sluff window included, must be the same in both until a swapped card is seen.  The engine's
`ask_every_seat` protocol (the PettingZoo and Gymnasium environments') passes for every preset; the
plain sequential protocol, which asks only the seats that can sluff, is shown to fail it."""

from __future__ import annotations

import random

import pytest

from skitgubbe.engine.actions import CHANCE
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import parse_card
from skitgubbe.engine.rules import Rules
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.view import SPECTATOR, view_of

OBSERVER = 0


def swapped_worlds(preset: str, players: int, seed: int, every: bool) -> tuple[State, State, int, int]:
    """Two deals of ``preset`` that differ only in one card of seat 1's hand and one of seat 2's."""
    rules = PRESETS[preset]
    a = State.new(rules, players, seed=seed, ask_every_seat=every)
    rng = random.Random(seed)
    one = rng.choice([c for c in range(52) if a.hands[1] >> c & 1])
    two = rng.choice([c for c in range(52) if a.hands[2] >> c & 1])
    deck = [two if c == one else one if c == two else c for c in a.deck]
    b = State.new(rules, players, dealer=a.dealer, deck=deck, ask_every_seat=every)
    return a, b, one, two


def hidden(state: State, cards: int) -> bool:
    """Both swapped cards are still in seats 1 and 2's hands, unseen by anyone else."""
    held = (state.hands[1] | state.hands[2]) & ~(state.known[1] | state.known[2])
    return held & cards == cards


def first_difference(preset: str, players: int, seed: int, every: bool) -> str | None:
    """Play both worlds with the same random moves (legal in both) while the swapped cards are
    hidden; return how the observer's view first differs, or None."""
    a, b, one, two = swapped_worlds(preset, players, seed, every)
    cards = 1 << one | 1 << two
    rng = random.Random(seed)
    while not a.is_over and hidden(a, cards) and hidden(b, cards):
        va, vb = view_of(a, OBSERVER), view_of(b, OBSERVER)
        if va != vb:
            diff = [f for f in va._fields if getattr(va, f) != getattr(vb, f)]
            return f"after {len(a.history)} moves the views differ in {diff}"
        seat = a.to_act
        if seat == CHANCE:
            return None  # (a dreck deal: the swapped cards are public from here)
        common = [x for x in a.legal_actions(seat) if x in set(b.legal_actions(seat))]
        if not common:
            return None
        move = rng.choice(common)
        a.apply(move, seat)
        b.apply(move, seat)
    return None


TABLES = [(name, max(3, rules.min_players)) for name, rules in sorted(PRESETS.items())
          if rules.max_players >= 3]


@pytest.mark.parametrize("preset, players", TABLES, ids=[t[0] for t in TABLES])
def test_every_seat_asked_shows_nothing_through_the_turn_order(preset: str, players: int) -> None:
    for seed in range(12):
        assert first_difference(preset, players, seed, every=True) is None, (preset, seed)


def test_asking_only_the_seats_that_can_sluff_shows_who_can() -> None:
    # the leak this protocol closes (goat, three seats): seen in some of these deals
    found = [first_difference("goat", 3, seed, every=False) for seed in range(30)]
    assert any(f is not None and ("to_act" in f or "sluff_window" in f) for f in found)


def test_the_environments_ask_every_seat() -> None:
    pytest.importorskip("pettingzoo")
    from skitgubbe.adapters.gymnasium import SkitgubbeEnv
    from skitgubbe.adapters.pettingzoo import env

    e = env(rules="goat", players=3)
    e.reset(seed=1)
    assert e.game.ask_all
    g = SkitgubbeEnv(rules="goat", players=3)
    g.reset(seed=1)
    assert g.game.ask_all


def test_a_record_keeps_the_every_seat_protocol() -> None:
    from skitgubbe.engine.record import dumps, loads, record_of, replay

    state = State.new(PRESETS["goat"], 4, seed=3, ask_every_seat=True)
    rng = random.Random(3)
    while not state.is_over:
        state.apply(state.random_action(rng), state.to_act)
    text = dumps(record_of(state, seed=3))
    assert "protocol = every-seat" in text
    again = replay(loads(text))
    assert again.history == state.history and again.outcome == state.outcome


# -- the live protocol (the online table's): issue 28 ------------------------------------------------

LIVE_TABLES = [  # (name, rules, seat counts): every preset with sluffing, and house rules around them
    *[(name, rules, sorted({rules.min_players, 4, rules.max_players} & set(range(rules.min_players,
                                                                                 rules.max_players + 1))))
      for name, rules in sorted(PRESETS.items()) if rules.sluffing],
    ("goat-confusion", PRESETS["goat"].replace(confusion=True), [6]),
    ("goat-two-packs", PRESETS["goat"].with_options({"decks": 2}), [3, 8]),
    ("goat-once", PRESETS["goat"].replace(sluff_once=True, sluff_settled_only=True), [3, 5]),
    ("goat-restaurant", PRESETS["goat"].replace(restaurant=True), [3]),
]


def live_worlds(rules: Rules, players: int, seed: int, every: bool) -> tuple[State, State, int]:
    """Two live deals of ``rules`` whose decks differ only in two cards (of different names) that
    seat 0 has not seen: in other hands or in the stock, never the bottom card.  Also the card set
    of the two."""
    a = State.new(rules, players, seed=seed, live=True, ask_every_seat=every)
    rng = random.Random(f"{seed}:{players}")
    unseen = [c for c in a.deck[:-1] if not a.hands[OBSERVER] >> c & 1]
    one = rng.choice(unseen)
    two = rng.choice([c for c in unseen if c % 52 != one % 52])
    deck = [two if c == one else one if c == two else c for c in a.deck]
    b = State.new(rules, players, dealer=a.dealer, deck=deck, live=True, ask_every_seat=every)
    return a, b, 1 << one | 1 << two


def protocol_facts(state: State) -> tuple[object, ...]:
    """What the sluffing protocol shows everyone: the seat to act, the window (in the spectator's
    view and in every seat's own), the tricks collected, the trick's winner, the phase."""
    windows = tuple(view_of(state, s).sluff_window for s in (SPECTATOR, *range(state.players)))
    return state.to_act, windows, state.tricks, state.winner, state.phase


def live_difference(rules: Rules, players: int, seed: int, every: bool) -> str | None:
    """Play both worlds of :func:`live_worlds` with the same moves (legal in both: mostly the seat
    to act's, now and then an out-of-turn sluff or pass) through phase one, or until a swapped card
    is turned up from the stock; return where the protocol's public facts first differ, or None."""
    a, b, _ = live_worlds(rules, players, seed, every)
    rng = random.Random(seed)
    while a.phase == Phase.ONE and b.phase == Phase.ONE:
        if a.rounds != b.rounds:
            return None  # (a swapped card turned up from the stock: the worlds differ in public now)
        fa, fb = protocol_facts(a), protocol_facts(b)
        if fa != fb:
            return f"after {len(a.history)} moves: {fa} != {fb}"
        if a.to_act == CHANCE:
            return None
        seats = [a.to_act] if rng.random() < 0.7 else list(range(players))
        common = [(s, x) for s in seats for x in a.legal_actions(s) if b.can(x, s)]
        if not common:
            return None  # (a private difference: the seat to act is bound to different cards)
        seat, move = rng.choice(common)
        a.apply(move, seat)
        b.apply(move, seat)
    return None if (a.phase == b.phase and a.tricks == b.tricks) else "phase one ends differently"


@pytest.mark.parametrize("name, rules, counts", LIVE_TABLES, ids=[t[0] for t in LIVE_TABLES])
def test_the_live_table_with_every_seat_asked_shows_nothing_through_its_window(
        name: str, rules: Rules, counts: list[int]) -> None:
    for players in counts:
        for seed in range(10):
            assert live_difference(rules, players, seed, every=True) is None, (name, players, seed)


def test_the_plain_live_window_shows_who_can_sluff() -> None:
    # the leak issue 28 reports: the settled trick's window names the seats holding a rank in it
    found = [live_difference(PRESETS[name], 3, seed, every=False)
             for name in ("goat", "atlanta", "helmfrid") for seed in range(30)]
    assert any(f is not None for f in found)


def test_the_live_window_of_the_bug_report() -> None:
    # goat, three seats: two decks that differ only in 2C and 4C, both unseen by seat 0
    goat = PRESETS["goat"]
    for seed in range(200):
        base = State.new(goat, 3, seed=seed)
        c2, c4 = parse_card("2C"), parse_card("4C")
        if base.hands[OBSERVER] >> c2 & 1 or base.hands[OBSERVER] >> c4 & 1 or base.deck[-1] in (c2, c4):
            continue
        other = [c4 if c == c2 else c2 if c == c4 else c for c in base.deck]
        got = {}
        for every in (False, True):
            worlds = [State.new(goat, 3, deck=d, live=True, ask_every_seat=every) for d in (base.deck, other)]
            rng = random.Random(seed)
            while all(w.phase == Phase.ONE and not w.pending for w in worlds):
                common = [x for x in worlds[0].legal_actions() if worlds[1].can(x)]
                if not common or worlds[0].to_act != worlds[1].to_act:
                    break
                move = rng.choice(common)
                for w in worlds:
                    w.apply(move)
            got[every] = [view_of(w, SPECTATOR).sluff_window for w in worlds]
        if got[False][0] != got[False][1]:
            assert got[True][0] == got[True][1] == tuple(s for s in range(3) if worlds[0].hands[s])
            return
    raise AssertionError("no deal among the first 200 shows the leak")


def test_a_record_keeps_the_live_every_seat_protocol() -> None:
    from skitgubbe.engine.record import dumps, loads, record_of, replay

    for name in ("goat", "atlanta", "catsatcards-flurst"):
        rules = PRESETS[name]
        state = State.new(rules, rules.min_players + 1 if rules.max_players > 3 else 3, seed=4, live=True,
                          ask_every_seat=True)
        rng = random.Random(4)
        while not state.is_over:
            seats = state.acting_seats()
            seat = rng.choice(seats) if rng.random() < 0.2 else state.to_act
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        text = dumps(record_of(state, seed=4))
        assert "protocol = live-every-seat" in text
        again = replay(loads(text))
        assert again.live and again.ask_all
        assert again.history == state.history and again.outcome == state.outcome
        assert again.events == state.events
