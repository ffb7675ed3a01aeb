"""Smaller decisions for learners in PettingZoo and Gymnasium: forced moves taken by the environment
(``auto_forced``) and the per-preset compact action space (``compact_actions``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from skitgubbe.adapters import encoding  # noqa: E402
from skitgubbe.adapters.gymnasium import SkitgubbeEnv  # noqa: E402
from skitgubbe.adapters.pettingzoo import env as pz_env  # noqa: E402
from skitgubbe.engine.actions import CHANCE  # noqa: E402
from skitgubbe.engine.state import State  # noqa: E402
from skitgubbe.engine.variants import PRESETS, find_variant  # noqa: E402


def test_compact_action_ids_per_preset() -> None:
    sizes = {name: len(encoding.rules_action_ids(r)) for name, r in PRESETS.items()}
    assert sizes["pagat"] == 54 and sizes["goat"] == 419 and sizes["helmfrid"] == 549 and sizes["mas"] == 55
    for r in PRESETS.values():
        ids = encoding.rules_action_ids(r)
        assert list(ids) == sorted(set(ids)) and all(0 <= i < encoding.NUM_ACTIONS for i in ids)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_legal_id_is_in_the_presets_compact_space(name: str) -> None:
    rules = PRESETS[name]
    ids = set(encoding.rules_action_ids(rules))
    for g in range(4):
        rng = random.Random(g)
        players = (rules.min_players, rules.max_players)[g % 2]
        state = State.new(rules, players, dealer=0, seed=f"compact:{g}", ask_every_seat=True)
        while not state.is_over:
            seat = state.to_act
            if seat == CHANCE:
                state.step(state.chance_action(rng), CHANCE)
                continue
            legal = encoding.legal_ids(state, seat)
            assert set(legal) <= ids, (name, set(legal) - ids)
            state.step(encoding.action_of(rng.choice(legal)), seat)


def _play_pz(e: Any, seed: int) -> tuple[list[int], int]:
    """Play a deal with the first legal action; return the mask sizes seen and the agent steps."""
    e.reset(seed=seed)
    sizes = []
    steps = 0
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert [e.action_ids[k] for k in legal] == encoding.legal_ids(e.game, e.game.to_act)
        sizes.append(len(legal))
        e.step(int(legal[0]))
        steps += 1
    return sizes, steps


@pytest.mark.parametrize(("rules", "players"), [("goat", 4), ("pagat", 3), ("helmfrid", 3)])
def test_pettingzoo_auto_forced_and_compact_play_the_same_deal(rules: str, players: int) -> None:
    plain = pz_env(rules=rules, players=players)
    sizes, steps = _play_pz(plain, 5)
    assert 1 in sizes  # the default still asks forced decisions
    small = pz_env(rules=rules, players=players, auto_forced=True, compact_actions=True)
    assert small.action_space("player_0").n == len(encoding.rules_action_ids(find_variant(rules)))
    assert small.observation_space("player_0")["action_mask"].shape == (small.action_space("player_0").n,)
    small_sizes, small_steps = _play_pz(small, 5)
    assert min(small_sizes) >= 2  # never asked without a choice
    assert small_steps == steps - sizes.count(1)
    # the first legal action of the full space is the first of the compact one: the same deal
    assert small.game.history == plain.game.history and small.game.loser == plain.game.loser
    assert small.rewards == plain.rewards


def test_pettingzoo_options_pass_the_api_test_and_check_their_input() -> None:
    api_test(pz_env(rules="goat", players=4, auto_forced=True, compact_actions=True), num_cycles=200)
    e = pz_env(rules="pagat", players=3, compact_actions=True)
    e.reset(seed=0)
    with pytest.raises(ValueError, match="compact action space 0..53"):
        e.step(60)
    with pytest.raises(TypeError, match="auto_forced must be True or False"):
        pz_env(auto_forced="yes")
    with pytest.raises(ValueError, match="no agent"):
        e.view("player_9")
    assert e.view("player_1").seat == 1 and e.view("player_1").hand == e.game.hands[1]


def _play_gym(env: SkitgubbeEnv, seed: int) -> tuple[list[int], Any]:
    obs, info = env.reset(seed=seed)
    sizes = []
    while True:
        legal = np.flatnonzero(info["action_mask"])
        assert env.action_masks().tolist() == info["action_mask"].astype(bool).tolist()
        sizes.append(len(legal))
        obs, reward, terminated, truncated, info = env.step(int(legal[0]))
        if terminated or truncated:
            return sizes, info


@pytest.mark.parametrize(("rules", "players"), [("goat", 4), ("helmfrid", 3)])
def test_gymnasium_auto_forced_and_compact_play_the_same_deal(rules: str, players: int) -> None:
    plain = SkitgubbeEnv(rules=rules, players=players, opponents="heuristic")
    sizes, info = _play_gym(plain, 9)
    assert 1 in sizes
    small = SkitgubbeEnv(rules=rules, players=players, opponents="heuristic", auto_forced=True,
                         compact_actions=True)
    assert small.action_space.n == len(small.action_ids) < encoding.NUM_ACTIONS
    small_sizes, small_info = _play_gym(small, 9)
    assert min(small_sizes) >= 2 and len(small_sizes) == len(sizes) - sizes.count(1)
    assert small.game.history == plain.game.history and small_info["loser"] == info["loser"]


def test_gymnasium_options_pass_check_env_and_check_their_input() -> None:
    check_env(SkitgubbeEnv(rules="goat", players=4, auto_forced=True, compact_actions=True),
              skip_render_check=True)
    env = SkitgubbeEnv(compact_actions=True)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="compact action space"):
        env.step(100)
    with pytest.raises(TypeError, match="compact_actions must be True or False"):
        SkitgubbeEnv(compact_actions=1)
    assert env.view().seat == 0 and env.view().hand == env.game.hands[0]


def test_action_masks_through_gym_make() -> None:
    gym = pytest.importorskip("gymnasium")
    import skitgubbe.adapters.gymnasium  # noqa: F401

    env = gym.make("skitgubbe/Skitgubbe-v0", rules="pagat", players=3)
    _, info = env.reset(seed=1)
    with pytest.raises(AttributeError):
        env.action_masks()  # Gymnasium 1.x wrappers do not pass attributes on (docs/research.md)
    assert env.unwrapped.action_masks().tolist() == info["action_mask"].astype(bool).tolist()
    assert env.get_wrapper_attr("action_masks")().tolist() == info["action_mask"].astype(bool).tolist()
