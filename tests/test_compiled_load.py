"""Loading a Python-engine position into the compiled engine (issue 20):
:meth:`~skitgubbe.engine.compiled.CompiledState.from_state` against the Python engine.

Deals are played in the Python engine with random legal actions (chance by
``State.chance_action``); at a spread of their decisions (every one in a short deal, about
:data:`SPREAD` in a longer one, and besides every chance deal and a few sluff windows and wars) the
state is loaded into a compiled state and both are played on to the end by
:func:`~skitgubbe.engine.compiled.compare_play`, which compares the fingerprint, the legal actions,
the events and the outcome at every step.  Every preset of
:data:`~skitgubbe.engine.compiled.COMPILED_PRESETS` at its fewest and most seats (at most six), rule
sets drawn by :func:`~skitgubbe.engine.compiled.draw_rules` around pagat and goat (the run-time
policy), the ``ask_every_seat`` protocol, and determinized worlds
(:class:`~skitgubbe.bots.determinize.Determinizer`, from the real state and from a seat's view as
the search bot builds them), and written phase-two positions (``State.from_phase_two``).  Then the
errors: rules the compiled engine does not play, the live
protocol, malformed lists given to the native ``load`` (the state unchanged), and the Python state
never changed by a load.

Without the compiled module (``pip install ./native``) these tests skip, unless the environment
variable ``SKITGUBBE_REQUIRE_NATIVE`` is set: then they fail.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable

import pytest

from helpers import needs_native
from skitgubbe.bots.determinize import Determinizer
from skitgubbe.engine import compiled
from skitgubbe.engine.actions import CHANCE, Action
from skitgubbe.engine.base import Phase
from skitgubbe.engine.compiled import (
    COMPILED_PRESETS,
    CompiledState,
    UnsupportedError,
    compare_play,
    draw_rules,
    fingerprint,
    replay_rules,
    unsupported,
)
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.view import view_of
from skitgubbe.engine.worlds import world_from_view

SPREAD = 40
"""Decisions checked in a longer deal, spread evenly over it (all of them in a shorter one)."""
SPECIAL = 6
"""Besides those, at most this many sluff windows and as many war or bounce rounds a deal (every
chance deal is checked)."""

SEEDS = {"koira": (0, 6)}
"""The deals of each preset (by default seeds 0 and 1): koira's seed 6 reaches a split of the trick
at three seats and at six."""

TABLES = sorted({(name, players) for name, (low, high) in COMPILED_PRESETS.items()
                 for players in (low, min(high, 6))})


def random_action(state: State, rng: random.Random) -> Action:
    """A random legal action of the seat to act, or the chance action."""
    if state.to_act == CHANCE:
        return state.chance_action(rng)
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def situation(state: State) -> str:
    """What kind of position ``state`` is, for counting what the checks reached."""
    if state.phase == Phase.DRECK:
        return "split" if state.chance_seats else "dreck"
    if state.phase == Phase.OVER:
        return "over"
    if state.phase == Phase.TWO:
        return "two, table" if state.table else "two, lead"
    if state.pending:
        return "sluff window"
    if len(state.rounds) > 1:
        return "war"
    return "beat" if state.beat and state.round_cards else "one"


def check_deal(state: State, seed: int, reached: Counter[str], *, spread: int = SPREAD,
               load: Callable[[State, int], list[State]] | None = None) -> list[str]:
    """Play ``state`` to its end with random actions from ``seed``; at the decisions chosen (see the
    module docstring) load it, or each of ``load(state, k)`` (worlds of it), into a compiled state
    and compare the two played on.  Returns the disagreements as text; counts the situations
    checked in ``reached``."""
    rng = random.Random(seed)
    actions = []
    trial = state.clone()
    while not trial.is_over:
        action = random_action(trial, rng)
        actions.append(action)
        trial.apply(action, trusted=True)
    total = len(actions) + 1  # the decisions, and the end
    chosen = {round(i * (total - 1) / max(spread - 1, 1)) for i in range(min(spread, total))}
    failures = []
    windows = wars = 0
    for k in range(total):
        kind = situation(state)
        extra = False
        if kind in ("dreck", "split"):
            extra = True
        elif kind == "sluff window" and windows < SPECIAL:
            windows += 1
            extra = True
        elif kind == "war" and wars < SPECIAL:
            wars += 1
            extra = True
        if k in chosen or extra:
            for world in (load(state, k) if load is not None else [state]):
                reached[situation(world)] += 1
                found = compare_play(world.clone(), CompiledState.from_state(world), random.Random(k),
                                     seed=seed)
                if found is not None:
                    failures.append(f"{replay_rules(state.rules)}, {state.players} seats, seed {seed}, "
                                    f"loaded after {k} actions: {found}")
        if k < len(actions):
            state.apply(actions[k], trusted=True)
    return failures


@needs_native
def test_every_preset_loads_at_every_kind_of_position() -> None:
    reached: Counter[str] = Counter()
    failures = []
    for name, players in TABLES:
        for seed in SEEDS.get(name, (0, 1)):
            state = State.new(PRESETS[name], players, seed=f"load:{name}:{seed}", dealer=seed % players)
            failures += check_deal(state, seed, reached)
    assert not failures, "\n".join(failures[:5])
    for kind in ("one", "sluff window", "war", "beat", "dreck", "split", "two, lead", "two, table", "over"):
        assert reached[kind], (kind, reached)


@needs_native
def test_drawn_rules_load_in_the_runtime_policy() -> None:
    rng = random.Random(2020)
    reached: Counter[str] = Counter()
    failures = []
    loaded = 0
    while loaded < 12:
        rules = draw_rules(rng, PRESETS["pagat" if loaded % 2 else "goat"], 4)
        players = rng.randint(rules.min_players, min(rules.max_players, 6))
        if unsupported(rules, players) is not None:
            continue
        # a small action limit: long random deals end abandoned, at the same action in both engines
        state = State.new(rules, players, seed=loaded, dealer=loaded % players, action_limit=600)
        failures += check_deal(state, loaded, reached, spread=15)
        loaded += 1
    assert not failures, "\n".join(failures[:5])


@needs_native
def test_the_every_seat_protocol_loads() -> None:
    reached: Counter[str] = Counter()
    failures = []
    for name, players in (("goat", 4), ("atlanta", 3), ("helmfrid", 3), ("catsatcards-flurst", 5)):
        state = State.new(PRESETS[name], players, seed=f"ask:{name}", ask_every_seat=True)
        failures += check_deal(state, 3, reached, spread=20)
    assert not failures, "\n".join(failures[:5])
    assert reached["sluff window"]


def worlds_of(from_view: bool) -> Callable[[State, int], list[State]]:
    """Two determinized worlds of a state for its seat to act (none at a chance deal or once the
    deal is over): from the state itself, or as the search bot builds them, from the seat's view."""

    def load(state: State, k: int) -> list[State]:
        seat = state.to_act
        if seat < 0:
            return []
        base = world_from_view(view_of(state, seat), needy=state.needy, events=False) if from_view else state
        determinizer = Determinizer(base, seat)
        rng = random.Random(k)
        return [determinizer.sample(rng) for _ in range(2)]

    return load


@needs_native
@pytest.mark.parametrize("from_view", [False, True], ids=["from the state", "from the view"])
def test_determinized_worlds_load(from_view: bool) -> None:
    reached: Counter[str] = Counter()
    failures = []
    tables = [("pagat", 3), ("goat", 5), ("two-player", 2), ("howell", 4), ("mattis", 4), ("koira", 4),
              ("helmfrid", 3), ("mas", 3), ("catsatcards", 3), ("atlanta", 3)]
    for name, players in tables:
        state = State.new(PRESETS[name], players, seed=f"worlds:{name}")
        failures += check_deal(state, 5, reached, spread=6, load=worlds_of(from_view))
    assert not failures, "\n".join(failures[:5])
    assert reached["one"] and reached["two, table"]


@needs_native
def test_written_phase_two_positions_load() -> None:
    rng = random.Random(4)
    failures = []
    over = 0
    for name, players in (("pagat", 3), ("goat", 4), ("mattis", 3), ("two-player", 2), ("helmfrid", 3)):
        for i in range(6):
            cards = rng.sample(range(52), 52)
            hands = [0] * players
            for j, c in enumerate(cards[:players * rng.randint(1, 8)]):
                # the first: one seat holds cards, over at once (mattis: the others Blåmattis)
                hands[j % players if i else 0] |= 1 << c
            state = State.from_phase_two(PRESETS[name], hands, trump_suit=rng.randrange(4),
                                         leader=rng.randrange(players))
            over += state.phase == Phase.OVER
            found = compare_play(state.clone(), CompiledState.from_state(state), random.Random(i))
            if found is not None:
                failures.append(f"{name}, position {i}: {found}")
    assert not failures, "\n".join(failures)
    assert over == 4


def snapshot(state: State) -> tuple[object, ...]:
    """What a load must leave as it was in a Python state."""
    t = state.trick
    return (fingerprint(state), tuple(state.history), tuple(state.events), tuple(state.stock),
            tuple(state.reserve), repr(t.rounds), not t.rounds or t.round_cards is t.rounds[-1],
            tuple(t.round_seats), t.sluffs.copy(), state.needy.copy(), tuple(state.out_order), state.live,
            state.ask_all)


@needs_native
def test_the_python_state_is_unchanged_and_the_loaded_one_is_its_own() -> None:
    state = State.new(PRESETS["goat"], 4, seed="unchanged")
    rng = random.Random(1)
    for _ in range(25):
        state.apply(random_action(state, rng))
    before = snapshot(state)
    loaded = CompiledState.from_state(state)
    assert snapshot(state) == before
    assert loaded.fingerprint() == fingerprint(state)
    assert (loaded.players, loaded.dealer, loaded.deck, loaded.rules) == (4, 0, state.deck, state.rules)
    assert loaded.actions_taken == len(state.history)
    other = CompiledState.from_state(state)  # from the same kept state: independent copies
    loaded.apply(loaded.legal_actions()[0])
    assert other.fingerprint() == fingerprint(state)


@needs_native
def test_rules_the_compiled_engine_does_not_play_are_refused() -> None:
    rules = dataclasses.replace(PRESETS["goat"], restaurant=True)
    state = State.new(rules, 4, seed=1)
    before = snapshot(state)
    with pytest.raises(UnsupportedError, match="restaurant=True"):
        CompiledState.from_state(state)
    assert snapshot(state) == before
    other = PRESETS["pagat"].replace(forced_pickup=True)
    with pytest.raises(UnsupportedError, match="forced_pickup=True"):
        CompiledState.from_state(State.new(other, 3, seed=1))


@needs_native
def test_the_live_protocol_is_refused() -> None:
    state = State.new(PRESETS["goat"], 4, seed=1, live=True)
    with pytest.raises(ValueError, match="live=True"):
        CompiledState.from_state(state)


HEADER = 34
"""The integers before the seats' card sets in the list the native ``load`` reads (``LoadField`` in
native/src/module.cpp)."""
ROUND_HIGH = 11
"""The index of ``Trick.round_high`` in it."""


def fields_of(state: State) -> list[int]:
    """The flat list ``from_state`` gives the native ``load`` for ``state``."""
    return compiled._load_fields(state)


@needs_native
def test_a_malformed_list_raises_and_leaves_the_compiled_state_as_it_was() -> None:
    state = State.new(PRESETS["goat"], 4, seed="malformed")
    rng = random.Random(2)
    for _ in range(30):
        state.apply(random_action(state, rng))
    fields = fields_of(state)
    target = CompiledState.new(PRESETS["goat"], 4, seed=9)
    before = target.fingerprint()
    hands = HEADER
    bad: list[tuple[list[int], str]] = [
        (fields[:10], "fewer than"),
        (fields + [0], "after the last section"),
        ([7, *fields[1:]], "the phase"),
        ([fields[0], 9, *fields[2:]], "the seat to act"),
        (fields[:hands] + [fields[hands] | fields[hands + 1], *fields[hands + 1:]], "in another place"),
        (fields[:hands] + [0, *fields[hands + 1:]], "nowhere|holds no card"),
        (fields[:hands] + [1 << 60, *fields[hands + 1:]], "not a card set"),
        (fields[:ROUND_HIGH] + [fields[ROUND_HIGH] % 14 + 1, *fields[ROUND_HIGH + 1:]], "highest rank"),
    ]
    for wrong, message in bad:
        with pytest.raises(ValueError, match=message):
            target.core.load(wrong)
        assert target.fingerprint() == before
    target.core.load(fields)
    assert target.fingerprint() == fingerprint(state)


@needs_native
def test_random_corruptions_never_crash() -> None:
    """Lists with a few integers changed, removed or added: each is refused with ValueError or
    makes a state that plays on to its end (never a crash, never a seat to act with nothing legal)."""
    rng = random.Random(3)
    positions = []
    for name, players in (("goat", 5), ("koira", 4), ("mas", 3), ("mattis", 4), ("two-player", 2),
                          ("helmfrid", 4), ("atlanta", 3)):
        state = State.new(PRESETS[name], players, seed=f"fuzz:{name}")
        while not state.is_over:
            if rng.random() < 0.1:
                positions.append((state.clone(), fields_of(state)))
            state.apply(random_action(state, rng))
    values = [-3, -2, -1, 0, 1, 2, 3, 4, 5, 8, 12, 13, 14, 15, 51, 52, 100, 1 << 51, (1 << 52) - 1]
    accepted = 0
    for i in range(3000):
        state, fields = rng.choice(positions)
        f = list(fields)
        for _ in range(rng.randint(1, 3)):
            # the header most often: the fields whose consistency the engine's loops rely on
            j = rng.randrange(HEADER) if rng.random() < 0.6 else rng.randrange(len(f))
            how = rng.random()
            if how < 0.4:
                f[j] = rng.choice([*values, f[j] - 1, f[j] + 1])
            elif how < 0.7:
                f[j] ^= 1 << rng.randrange(52)
            elif how < 0.85:
                del f[j]
            else:
                f.insert(j, rng.randrange(-2, 60))
        loaded = CompiledState.from_state(state)
        try:
            loaded.core.load(f)
        except ValueError:
            continue
        accepted += 1
        play = random.Random(i)
        for _ in range(400):
            if loaded.is_over:
                break
            if loaded.to_act == CHANCE:
                loaded.apply(loaded.chance_action(play))
            else:
                legal = loaded.legal_actions()
                assert legal, f
                loaded.apply(legal[play.randrange(len(legal))])
        loaded.play_random(i)
        assert loaded.is_over
    assert accepted


@needs_native
def test_the_live_protocol_with_every_seat_asked_is_refused() -> None:
    state = State.new(PRESETS["goat"], 4, seed=1, live=True, ask_every_seat=True)
    with pytest.raises(ValueError, match="not live=True"):
        CompiledState.from_state(state)
