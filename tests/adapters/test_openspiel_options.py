"""Smaller decisions for learners in OpenSpiel: the ``python_skitgubbe`` parameters ``auto_forced``
(forced moves taken by the state) and ``compact_actions`` (the preset's compact action space).

Skipped when open_spiel is not installed.  Checked: the parameters and their errors; OpenSpiel's
``random_sim_test`` (with serialization) and its API test class with the options on; that
``auto_forced`` plays the default game's deal without the forced decisions (same moves, same
loser, no decision with a single legal action) and that ``compact_actions`` maps 1:1 to the
default game's actions; that ``history()`` replays, and clone and serialization round trips;
resampling; and the project bots as ``pyspiel.Bot``\\ s on a game with the options.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from test_openspiel import _states  # noqa: E402

from skitgubbe.adapters import encoding  # noqa: E402
from skitgubbe.adapters import openspiel as osg  # noqa: E402
from skitgubbe.adapters.agents import pyspiel_bot  # noqa: E402
from skitgubbe.engine.variants import find_variant  # noqa: E402

BOTH = {"auto_forced": True, "compact_actions": True}


def _load(rules: str, players: int, **options: bool) -> Any:
    return pyspiel.load_game("python_skitgubbe", {"rules": rules, "players": players, **options})


def _play(game: Any, seed: int) -> tuple[Any, list[int], set[int]]:
    """One deal: random chance outcomes, and a random legal action at every decision with a
    choice (the single one, without touching the generator, at a forced decision).  So a game with
    ``auto_forced`` or ``compact_actions`` and the default game play the same deal from one seed.
    Returns the final state, the number of legal actions of every decision, and the positions in
    ``history()`` of the forced decisions."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    sizes: list[int] = []
    forced: set[int] = set()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        legal = state.legal_actions()
        assert legal and all(0 <= a < game.num_distinct_actions() for a in legal)
        sizes.append(len(legal))
        if len(legal) == 1:
            forced.add(len(state.history()))
            state.apply_action(legal[0])
        else:
            state.apply_action(rng.choice(legal))
    return state, sizes, forced


# -- parameters ---------------------------------------------------------------------------------------


def test_parameters_and_metadata() -> None:
    plain = _load("goat", 4)
    assert plain.num_distinct_actions() == encoding.NUM_ACTIONS
    assert plain.action_ids == tuple(range(encoding.NUM_ACTIONS))
    params = plain.get_parameters()
    assert params["auto_forced"] is False and params["compact_actions"] is False
    game = _load("goat", 4, **BOTH)
    ids = encoding.rules_action_ids(find_variant("goat"))
    assert game.num_distinct_actions() == len(ids) == 419
    assert game.action_ids == ids and game.new_initial_state().action_ids == ids
    assert game.get_parameters() == {"rules": "goat", "players": 4, "max_turns": osg.DEFAULT_MAX_TURNS,
                                     "auto_forced": True, "compact_actions": True}
    assert _load("pagat", 3, compact_actions=True).num_distinct_actions() == 54
    spec = pyspiel.load_game("python_skitgubbe(rules=mas,players=3,auto_forced=True,compact_actions=True)")
    assert spec.num_distinct_actions() == 55 and spec.auto_forced and spec.compact_actions
    # the other metadata does not change
    assert game.max_game_length() == plain.max_game_length()
    assert game.observation_tensor_size() == encoding.OBS_SIZE
    assert game.information_state_tensor_size() == osg.INFO_SIZE


@pytest.mark.parametrize("params", [{"auto_forced": "yes"}, {"compact_actions": 1}])
def test_bad_options_are_refused(params: dict[str, Any]) -> None:
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter .*Expected type: kBool"):
        pyspiel.load_game("python_skitgubbe", params)
    with pytest.raises(TypeError, match="must be True or False"):
        osg.SkitgubbeGame(params)


def test_an_index_outside_the_compact_space_is_refused() -> None:
    game = _load("pagat", 3, compact_actions=True)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    p = state.current_player()
    assert state.action_to_string(p, 54) == "no such action"
    with pytest.raises(ValueError, match="outside the compact action space 0..53 of pagat"):
        state.apply_action(54)
    illegal = next(a for a in range(54) if a not in state.legal_actions())
    with pytest.raises(ValueError, match="cannot take action"):
        state.apply_action(illegal)


# -- OpenSpiel's own tests --------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players", "options"), [
    ("goat", 4, {"auto_forced": True}), ("pagat", 3, {"compact_actions": True}), ("helmfrid", 3, BOTH),
    ("mas", 3, BOTH), ("koira", 4, {"auto_forced": True}), ("two-player", 2, BOTH)])
def test_random_sim_test(rules: str, players: int, options: dict[str, bool]) -> None:
    pyspiel.random_sim_test(_load(rules, players, **options), num_sims=1, serialize=True, verbose=False)


def test_openspiel_api_test_class() -> None:
    import unittest

    api_test = pytest.importorskip("open_spiel.integration_tests.api_test")
    case = type("EnforceAPIOnPartialTree_skitgubbe_options", (api_test.EnforceAPIOnPartialTreeBase,),
                {"game": _load("goat", 4, **BOTH), "game_name": "python_skitgubbe_goat_options"})
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(case).run(result)
    assert result.testsRun >= 5
    assert not result.errors and not result.failures, result.errors + result.failures


# -- the same deals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players", "seed"), [("goat", 4, 1), ("helmfrid", 3, 2), ("pagat", 3, 3),
                                                        ("koira", 4, 4)])
def test_auto_forced_plays_the_default_deal_without_forced_moves(rules: str, players: int, seed: int) -> None:
    plain, sizes, forced = _play(_load(rules, players), seed)
    assert 1 in sizes  # the default game asks forced decisions
    auto, auto_sizes, auto_forced = _play(_load(rules, players, auto_forced=True), seed)
    assert min(auto_sizes) >= 2 and not auto_forced  # never a decision without a choice
    assert len(auto_sizes) == len(sizes) - sizes.count(1)
    # the same deal: the same moves (forced ones included), loser and returns
    assert auto.engine.history == plain.engine.history
    assert auto.engine.loser == plain.engine.loser is not None
    assert auto.returns() == plain.returns()
    assert str(auto) == str(plain)  # the forced moves counted in the decisions too
    # history() has the default game's actions except the forced ones, which the state took
    assert auto.history() == [a for i, a in enumerate(plain.history()) if i not in forced]
    assert auto.deal.history_text(0) == plain.deal.history_text(0)


@pytest.mark.parametrize(("rules", "players", "seed"), [("koira", 4, 5), ("pagat", 3, 6), ("mas", 3, 7),
                                                        ("two-player", 2, 8)])
def test_compact_actions_map_one_to_one(rules: str, players: int, seed: int) -> None:
    game, plain_game = _load(rules, players, compact_actions=True), _load(rules, players)
    ids = game.action_ids
    assert ids == encoding.rules_action_ids(find_variant(rules)) and len(ids) < encoding.NUM_ACTIONS
    rng = random.Random(seed)
    state, plain = game.new_initial_state(), plain_game.new_initial_state()
    decisions = renamed = 0
    while not plain.is_terminal():
        assert state.current_player() == plain.current_player()
        if plain.is_chance_node():
            assert state.chance_outcomes() == plain.chance_outcomes()
            card = rng.choice(plain.chance_outcomes())[0]
            state.apply_action(card)
            plain.apply_action(card)
            continue
        p = plain.current_player()
        legal = state.legal_actions()
        assert all(0 <= k < len(ids) for k in legal) and legal == sorted(legal)
        assert [ids[k] for k in legal] == plain.legal_actions()
        mask = state.legal_actions_mask()
        assert len(mask) == len(ids) and [k for k, m in enumerate(mask) if m] == legal
        assert [state.action_to_string(p, k) for k in legal] == [plain.action_to_string(p, ids[k])
                                                                  for k in legal]
        if decisions % 25 == 0:  # observations and information states do not involve actions
            assert state.information_state_string(p) == plain.information_state_string(p)
            assert state.observation_tensor(p) == plain.observation_tensor(p)
        k = rng.choice(legal)
        state.apply_action(k)
        plain.apply_action(ids[k])
        decisions += 1
        renamed += any(ids[k] != k for k in legal)
    assert renamed  # (the compact ids of goat and helmfrid are a prefix of the full ids: the same)
    assert state.is_terminal() and state.returns() == plain.returns()
    assert state.engine.history == plain.engine.history and str(state) == str(plain)


# -- history, copies and resampling --------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "players", "options"), [
    ("goat", 4, BOTH), ("helmfrid", 3, {"auto_forced": True}), ("pagat", 3, {"compact_actions": True})])
def test_history_replays_and_copies_round_trip(rules: str, players: int, options: dict[str, bool]) -> None:
    game = _load(rules, players, **options)
    states = _states(game, 9, every=37)
    for state in states:
        text = str(state)
        replay = game.new_initial_state()
        for a in state.history():  # the forced moves are not in history(): the replay takes them
            replay.apply_action(a)
        copies = (replay, state.clone(), game.deserialize_state(state.serialize()),
                  pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1])
        for copy in copies:
            assert str(copy) == text
            assert copy.history() == state.history()
            assert copy.chance_state.history == state.chance_state.history
            if not state.is_terminal():
                assert copy.legal_actions() == state.legal_actions()
                p = max(state.current_player(), 0)
                assert copy.information_state_string(p) == state.information_state_string(p)
        if state.is_player_node():
            child = state.child(state.legal_actions()[-1])  # a copy takes forced moves on its own
            assert str(state) == text
            if options.get("auto_forced") and child.is_player_node():
                assert len(child.legal_actions()) >= 2
    end = states[-1]
    moves = sum(1 for item in end.full_history() if item.player >= 0)
    if options.get("auto_forced"):
        assert moves < end.deal.turns  # some moves were forced, taken by the state
        dumped = pyspiel.serialize_game_and_state(game, end)
        assert pyspiel.deserialize_game_and_state(dumped)[0].auto_forced
    else:
        assert moves == end.deal.turns


def test_resample_with_both_options() -> None:
    game = _load("goat", 4, **BOTH)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    moved = other = 0
    for state in _states(game, 12, every=11):
        if state.is_terminal() or state.is_chance_node():
            continue
        p = state.current_player()
        for seat in (p, (p + 1) % 4):
            new = state.resample_from_infostate(seat, sampler)
            assert new.information_state_string(seat) == state.information_state_string(seat)
            assert new.current_player() == p and len(new.legal_actions()) >= 2
            assert new.view(seat).hand == state.view(seat).hand
            replay = game.new_initial_state()
            for a in new.history():
                replay.apply_action(a)
            assert str(replay) == str(new)
            moved += new.engine.hands != state.engine.hands
            other += seat != p
        assert state.resample_from_infostate(p, sampler).legal_actions() == state.legal_actions()
    assert moved > 3 and other > 3


# -- the bots -------------------------------------------------------------------------------------


def _bot_deal(game: Any, seed: int) -> Any:
    rng = random.Random(seed)
    bots = [pyspiel_bot("heuristic", random.Random(seed + s)) for s in range(game.num_players())]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            a = bots[state.current_player()].step(state)
            assert a in state.legal_actions()
            state.apply_action(a)
    return state


def test_project_bots_play_a_compact_game() -> None:
    for rules in ("pagat", "mas"):  # compact ids that are not the full ids (pick, store, exchange)
        plain = _bot_deal(_load(rules, 3), 3)
        compact = _bot_deal(_load(rules, 3, compact_actions=True), 3)
        assert compact.engine.history == plain.engine.history and compact.returns() == plain.returns()
    from open_spiel.python.algorithms import evaluate_bots

    game = _load("helmfrid", 3, **BOTH)
    bots = [pyspiel_bot(name, random.Random(1)) for name in ("heuristic", "counter", "random")]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sorted(returns) == [-1.0, 0.5, 0.5]
