"""The search bot's phase-two rules in compiled code (skitgubbe.bots.compiled_model, native/src/model.hpp)
against the Python rules they mirror, position by position, and the search bot on them."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from helpers import needs_native
from skitgubbe.bots import make_bot
from skitgubbe.bots.compiled_model import CompiledModel, compiled_model
from skitgubbe.bots.counter import counter_two
from skitgubbe.bots.heuristic import is_looping
from skitgubbe.bots.ismcts import ISMCTSBot
from skitgubbe.bots.playouts import greedy_two, heuristic_loser, heuristic_outcome, heuristic_two
from skitgubbe.engine.actions import CHANCE, PICK_UP_ACTION, Kind
from skitgubbe.engine.base import Phase
from skitgubbe.engine.compiled import COMPILED_PRESETS, draw_rules
from skitgubbe.engine.rules import Rules
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS, find_variant


def phase_two_positions(name: str | Rules, players: int, deals: int, most: int = 40) -> list[State]:
    """Up to ``most`` phase-two decisions (copies) of each of ``deals`` seeded deals, spread over
    the deal; phase one played at random and phase two half by the counter rule, half at random
    (so that odd positions come up too)."""
    rules = find_variant(name) if isinstance(name, str) else name
    out: list[State] = []
    for d in range(deals):
        found: list[State] = []
        rng = random.Random(f"{name}:{players}:{d}")
        st = State.new(rules, players, seed=f"model:{name}:{players}:{d}")
        while st.phase != Phase.OVER:
            p = st.to_act
            if p == CHANCE:
                st.step(st.chance_action(rng), CHANCE)
                continue
            if st.phase == Phase.TWO:
                found.append(st.clone())
                a = counter_two(st, p) if rng.random() < 0.5 else st.random_action(rng)
            else:
                a = st.random_action(rng)
            st.step(a, p)
        out += found[::max(1, len(found) // most)][:most]
    return out


def python_model_rollout(st: State, depth: int, limit: int) -> int:
    """What the compiled model rollout plays, in Python without memos: the counter rule for
    ``depth`` actions, then the heuristic rule; the loser or -1."""
    st = st.clone()
    start = len(st.history)
    while st.phase != Phase.OVER:
        done = len(st.history) - start
        if done >= limit:
            return -1
        if done >= depth:
            return heuristic_loser(st, limit - done)
        p = st.to_act
        st.step(counter_two(st, p), p)
    return -1 if st.loser is None else st.loser


SEATS = [(name, low) for name, (low, high) in COMPILED_PRESETS.items()] + [
    (name, high) for name, (low, high) in COMPILED_PRESETS.items() if high != low]


@needs_native
@pytest.mark.parametrize(("name", "players"), SEATS)
def test_compiled_rules_make_the_python_moves(name: str, players: int) -> None:
    """At every phase-two decision of seeded deals of every compiled preset (fewest and most
    seats): the greedy, heuristic and counter moves, the heuristic playouts' results and the
    modelled rollout's loser are the Python ones."""
    rules = find_variant(name)
    model = CompiledModel(rules, players)
    positions = phase_two_positions(name, players, 3)
    assert positions
    for st in positions:
        p = st.to_act
        before = st.clone()
        assert model.greedy_two(st) == greedy_two(st, p)
        assert model.heuristic_two(st) == heuristic_two(st, p)
        assert model.counter_two(st) == counter_two(st, p)
        assert model.heuristic_outcome(st, p, 300) == heuristic_outcome(st.clone(), p, 300)
        assert model.heuristic_loser(st, 300) == heuristic_loser(st.clone(), 300)
        assert model.model_rollout(st, 6, 400) == python_model_rollout(st, 6, 400)
        assert st.history == before.history and st.hands == before.hands  # the State is only read


@needs_native
@pytest.mark.parametrize("k", range(12))
def test_compiled_rules_under_changed_options(k: int) -> None:
    """The same under rules drawn around pagat and goat (the run-time policy): pick-up modes,
    runs, Blåmattis and the other phase-two options in combinations."""
    rng = random.Random(f"model-options:{k}")
    rules = draw_rules(rng, PRESETS["pagat" if k % 2 else "goat"], changes=6)
    players = rng.randint(rules.min_players, min(rules.max_players, 6))
    model = CompiledModel(rules, players)
    positions = phase_two_positions(rules, players, 2, most=25)
    for st in positions:
        p = st.to_act
        assert model.heuristic_two(st) == heuristic_two(st, p)
        assert model.greedy_two(st) == greedy_two(st, p)
        assert model.counter_two(st) == counter_two(st, p)
        assert model.model_rollout(st, 4, 300) == python_model_rollout(st, 4, 300)


@needs_native
def test_the_loop_check_reads_the_history() -> None:
    """counter_two's loop check (a history that came round twice, ending in a pick-up) makes the
    counter rule play its runner-up; the compiled rule reads the same history the same way."""
    model = CompiledModel(PRESETS["pagat"], 3)
    changed = 0
    for st in phase_two_positions("pagat", 3, 4):
        if len(st.legal_actions(st.to_act)) < 2:
            continue
        play = next(a for a in st.legal_actions(st.to_act) if a.kind == Kind.PLAY)
        cycle = [(st.to_act, play), ((st.to_act + 1) % 3, PICK_UP_ACTION)]
        st.history = st.history + cycle * 3
        assert is_looping(st.history)
        plain = st.clone()
        plain.history = plain.history[:-6]
        assert model.counter_two(st) == counter_two(st, st.to_act)
        changed += counter_two(st, st.to_act) != counter_two(plain, plain.to_act)
    assert changed  # the looping history changed some moves


@needs_native
@pytest.mark.parametrize(("name", "players"), [("pagat", 3), ("goat", 4), ("mattis", 4)])
def test_search_on_compiled_rules_matches_python(name: str, players: int) -> None:
    """The search bot at a fixed iteration budget chooses the same phase-two move with its rules
    compiled as in Python, from the same random numbers (the counter model is deterministic)."""
    rules = find_variant(name)
    rng = random.Random(7)
    st = State.new(rules, players, seed=f"search:{name}")
    searched = 0
    while st.phase != Phase.OVER and searched < 10:
        p = st.to_act
        if p == CHANCE:
            st.step(st.chance_action(rng), CHANCE)
            continue
        legal = st.legal_actions(p)
        if st.phase == Phase.TWO and len(legal) > 1 and len(st.history) % 2 == 0:
            picks = [ISMCTSBot(random.Random(len(st.history)), iterations=30, engine=engine).search(st, p)
                     for engine in ("python", "compiled")]
            assert picks[0] == picks[1]
            searched += 1
        st.step(counter_two(st, p) if st.phase == Phase.TWO else st.random_action(rng), p)
    assert searched >= 5


@needs_native
def test_engine_choice_and_errors() -> None:
    """The engine is chosen by name and argument; unplayable rules and bad input are refused with
    the reason, the State untouched."""
    assert make_bot("ismcts-20it-python", random.Random(0)).engine == "python"  # type: ignore[attr-defined]
    assert make_bot("ismcts-20it", random.Random(0)).engine == "auto"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="engine must be one of"):
        ISMCTSBot(random.Random(0), engine="gpu")
    odd = replace(PRESETS["goat"], restaurant=True)
    assert compiled_model(odd, 3) is None
    with pytest.raises(ValueError, match="restaurant"):
        CompiledModel(odd, 3)
    st = State.new(odd, 3, seed="odd")
    with pytest.raises(ValueError, match="restaurant"):
        ISMCTSBot(random.Random(0), iterations=5, engine="compiled").search(st, st.to_act)
    # auto falls back to Python under those rules
    assert ISMCTSBot(random.Random(0), iterations=5).search(st, st.to_act) in st.legal_actions(st.to_act)
    model = CompiledModel(PRESETS["pagat"], 3)
    one = State.new(PRESETS["pagat"], 3, seed="one")
    with pytest.raises(ValueError, match="phase two"):
        model.load(one)
    with pytest.raises(ValueError, match="rules or seat count"):
        model.load(State.new(PRESETS["pagat"], 4, seed="four"))
    core = model.core
    with pytest.raises(ValueError, match="two places"):
        core.load_two([1, 1, 2], [], [], 0, 3, 0, [], 0, [], 0, 100)
    with pytest.raises(ValueError, match="seat to act"):
        core.load_two([1, 2, 4], [], [], 5, 3, 0, [], 0, [], 0, 100)
    with pytest.raises(ValueError, match="one hand a seat"):
        core.load_two([1, 2], [], [], 0, 3, 0, [], 0, [], 0, 100)



@needs_native
@pytest.mark.parametrize(("name", "players", "rule"), [("pagat", 3, "greedy"), ("goat", 4, "heuristic-two"),
                                                       ("mattis", 4, "random")])
def test_random_rollouts_in_compiled_code_play_the_python_distribution(name: str, players: int,
                                                                       rule: str) -> None:
    """The search's rollouts from a phase-one position, played in C++ with the compiled engine's
    own random numbers: a seed gives one result, and over 1,500 seeds each seat loses about as
    often as in the Python engine's rollouts from the same position (within 5 points; the seeds
    are fixed, so this does not flake)."""
    rules = find_variant(name)
    rng = random.Random(3)
    st = State.new(rules, players, seed=f"rollout:{name}")
    for _ in range(4):
        st.step(st.random_action(rng), st.to_act)
    assert st.phase == Phase.ONE
    model = CompiledModel(rules, players)
    before = st.clone()
    assert model.random_rollout(st, 99, rule, 5000) == model.random_rollout(st, 99, rule, 5000)
    assert st.history == before.history and st.hands == before.hands
    move = {"greedy": greedy_two, "heuristic-two": heuristic_two}.get(rule)
    n = 1500
    compiled = [0] * (players + 1)
    python = [0] * (players + 1)
    for k in range(n):
        compiled[model.random_rollout(st, k, rule, 5000)] += 1
        w = st.clone()
        r = random.Random(k)
        while w.phase != Phase.OVER:
            p = w.to_act
            if p == CHANCE:
                w.step(w.chance_action(r), CHANCE)
            elif w.phase == Phase.TWO and move is not None:
                w.step(move(w, p), p)
            else:
                w.step(w.random_action(r), p)
        python[-1 if w.loser is None else w.loser] += 1
    for seat in range(players):
        assert abs(compiled[seat] - python[seat]) / n < 0.05, (seat, compiled, python)
    with pytest.raises(KeyError):
        model.random_rollout(st, 1, "mixed", 100)
