"""The Gymnasium vector environment and the PettingZoo-style batch API over the compiled engine's
batches (skitgubbe.adapters.vector): ``gymnasium.make_vec(..., vectorization_mode=
"vector_entry_point")`` returns it; the learner's observations and masks equal the Python engine's
for the same deals and the same moves (the random opponents' moves recorded as they are taken);
rewards, terminations and the automatic reset are as documented; seeding replays; AECBatch's
per-agent arrays equal the PettingZoo environment's env by env, every agent observed.

Without numpy, Gymnasium, PettingZoo or the compiled module these tests skip, unless
``SKITGUBBE_REQUIRE_NATIVE`` is set (CI sets it): then they fail.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from skitgubbe.engine import compiled
from skitgubbe.engine.actions import CHANCE, Action, Kind
from skitgubbe.engine.state import State, deck_from_seed
from skitgubbe.engine.view import view_of

_REQUIRED = bool(os.environ.get("SKITGUBBE_REQUIRE_NATIVE"))

try:
    import gymnasium
    import numpy as np

    from skitgubbe.adapters import encoding, vector
    from skitgubbe.adapters import gymnasium as sg_gym
    from skitgubbe.adapters import pettingzoo as pz
    from skitgubbe.adapters.batch import random_legal_actions
except ImportError:  # pragma: no cover - installed wherever the adapters are tested
    gymnasium = None  # type: ignore[assignment]

_MISSING = gymnasium is None or not compiled.available()
needs_native = pytest.mark.skipif(_MISSING and not _REQUIRED,
                                  reason="needs numpy, gymnasium, pettingzoo and the compiled engine")


def test_present_when_required() -> None:
    if _REQUIRED and _MISSING:
        pytest.fail("SKITGUBBE_REQUIRE_NATIVE is set but gymnasium, numpy or skitgubbe_native "
                    "does not import")


@needs_native
def test_make_vec_returns_the_compiled_vector_env_with_gymnasiums_spaces() -> None:
    envs = gymnasium.make_vec(sg_gym.ENV_ID, num_envs=5, vectorization_mode="vector_entry_point",
                              rules="goat", players=4, opponents="random")
    assert isinstance(envs, vector.SkitgubbeVectorEnv) and envs.num_envs == 5
    assert envs.single_observation_space.shape == (encoding.OBS_SIZE,)
    assert envs.action_space.shape == (5,)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=3)
    assert obs in envs.observation_space and (info["to_act"] == 0).all()
    rng = np.random.default_rng(0)
    for _ in range(50):
        obs, rewards, term, trunc, info = envs.step(random_legal_actions(info["action_mask"], rng))
        assert obs in envs.observation_space
        assert rewards.shape == (5,) and rewards.dtype == np.float32 and term.dtype == np.bool_
        assert (info["to_act"] == 0).all()  # the learner's seat, every time
    # a standard Gymnasium vector wrapper runs on it
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(envs)
    obs, info = wrapped.reset(seed=1)
    ended = 0
    for _ in range(300):
        obs, rewards, term, trunc, info = wrapped.step(random_legal_actions(info["action_mask"], rng))
        ended += int(term.sum())
        if term.any():  # the wrapper's episode statistics: the learner's reward of each ended deal
            returns = info["episode"]["r"]
            assert np.array_equal(returns[term], rewards[term].astype(returns.dtype))
    assert ended > 0
    envs.close()
    # the other modes vectorize the single (Python engine) environment
    sync = gymnasium.make_vec(sg_gym.ENV_ID, num_envs=2, vectorization_mode="sync", rules="pagat", players=3)
    assert not isinstance(sync, vector.SkitgubbeVectorEnv)


@needs_native
def test_bots_that_are_not_compiled_are_refused_saying_so() -> None:
    with pytest.raises(ValueError, match="the batches step no other bot yet"):
        vector.SkitgubbeVectorEnv(2, "pagat", 3, opponents="counter")
    with pytest.raises(ValueError, match="seat 3 does not exist"):
        vector.SkitgubbeVectorEnv(2, "pagat", 3, seat=3)
    envs = vector.SkitgubbeVectorEnv(2, "pagat", 3)
    with pytest.raises(ValueError, match="unknown reset options"):
        envs.reset(options={"deck": list(range(52))})


class _Mirror:
    """Python States stepped along a batch: every call of its reset, step and play_others
    recorded and replayed (play_others' moves as it records them, the chance steps of step by the
    batch's dreck orders, new deals from its decks and dealers)."""

    def __init__(self, batch: Any) -> None:
        self.batch = batch
        self.states = [self._deal(i) for i in range(batch.n_envs)]
        self.ended = [0] * batch.n_envs
        step, others, reset = batch.step, batch.play_others, batch.reset
        batch.step = lambda a: self._after(np.asarray(a), step(a))
        batch.play_others = lambda seat: self._others(others(seat, record=True))
        batch.reset = lambda *a, **k: self._dealt(reset(*a, **k))

    def _others(self, moves: list[Any]) -> list[Any]:
        out = self.batch.last
        for env, what in moves:
            st = self.states[env]
            if isinstance(what, tuple):
                assert st.to_act == CHANCE
                st.step(Action(Kind.DRECK, st.pending_deal(), what), CHANCE)
            else:
                st.step(encoding.action_of(what), st.to_act)
            if st.is_over:
                assert out.done[env]
                self._ended(env, st, out)
        return moves

    def _ended(self, i: int, st: State, out: Any) -> None:
        want = np.full(self.batch.players, 1 / (self.batch.players - 1), dtype=np.float32)
        want[st.loser] = -1
        assert np.array_equal(out.rewards[i], want)
        self.ended[i] += 1
        self.states[i] = self._deal(i)

    def _dealt(self, out: Any) -> Any:
        self.states = [self._deal(i) for i in range(self.batch.n_envs)]
        return out

    def _deal(self, i: int) -> State:
        b = self.batch
        return State.new(b.rules, b.players, dealer=int(b.dealers[i]), deck=b.decks[i].tolist(),
                         ask_every_seat=True)

    def _after(self, actions: Any, out: Any) -> Any:
        for i, st in enumerate(self.states):
            if actions[i] < 0:
                continue
            st.step(encoding.action_of(int(actions[i])), st.to_act)
            while st.to_act == CHANCE:
                st.step(Action(Kind.DRECK, st.pending_deal(), self.batch.dreck_order(i)), CHANCE)
            assert bool(out.done[i]) == st.is_over
            if out.done[i]:
                self._ended(i, st, out)
        return out


@needs_native
@pytest.mark.parametrize(("rules", "players", "seat"), [("pagat", 3, 1), ("goat", 5, 0), ("helmfrid", 3, 2)])
def test_the_learners_observations_are_the_python_engines_for_the_same_moves(rules: str, players: int,
                                                                              seat: int) -> None:
    envs = vector.SkitgubbeVectorEnv(3, rules, players, seat=seat)
    envs.reset(seed=5)  # (the batch is made anew by a seeded reset: mirror the one it made)
    mirror = _Mirror(envs.batch)
    decks = [list(deck_from_seed(k)) for k in range(3)]
    obs, info = envs.reset(options={"decks": decks, "dealers": [0, 1, 2 % players]})
    rng = np.random.default_rng(1)
    wins = 0
    for _ in range(400):
        for i, st in enumerate(mirror.states):
            assert st.to_act == seat == info["to_act"][i]
            assert np.array_equal(obs[i], np.array(encoding.observation(view_of(st, seat)), dtype=np.float32))
            assert np.flatnonzero(info["action_mask"][i]).tolist() == encoding.legal_ids(st, seat)
        obs, rewards, term, trunc, info = envs.step(random_legal_actions(info["action_mask"], rng))
        assert np.array_equal(rewards, info["rewards"][:, seat])
        assert not (rewards[~term]).any() and not trunc.any()
        for r in rewards[term]:
            assert r == -1 or r == pytest.approx(1 / (players - 1))
        assert np.allclose(info["rewards"][term].sum(axis=1), 0, atol=1e-6)
        wins += int((rewards > 0).sum())
    assert sum(mirror.ended) >= 3 and wins > 0


@needs_native
def test_self_play_rewards_are_the_acting_seats_and_seeding_replays() -> None:
    def run(seed: int) -> list[Any]:
        envs = vector.SkitgubbeVectorEnv(4, "mas", 3, opponents=None)
        obs, info = envs.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trace = [obs.copy()]
        for _ in range(300):
            acting = info["to_act"].copy()
            obs, rewards, term, trunc, info = envs.step(random_legal_actions(info["action_mask"], rng))
            assert np.array_equal(rewards, info["rewards"][np.arange(4), acting])
            trace += [obs.copy(), rewards.copy(), term.copy()]
        return trace

    a, b, c = run(7), run(7), run(8)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c, strict=True))
    assert sum(int(t.sum()) for t in a[3::3]) > 0  # deals ended


@needs_native
def test_copy_false_returns_the_batchs_own_arrays() -> None:
    envs = vector.SkitgubbeVectorEnv(2, "pagat", 2, opponents=None, copy=False)
    obs, info = envs.reset(seed=0)
    assert np.shares_memory(obs, envs.batch.last.obs)
    envs = vector.SkitgubbeVectorEnv(2, "pagat", 2, opponents=None)
    obs, info = envs.reset(seed=0)
    assert not np.shares_memory(obs, envs.batch.last.obs)


@needs_native
@pytest.mark.parametrize(("rules", "players"), [("goat", 4), ("koira", 3), ("mas", 2)])
def test_aec_batch_equals_the_pettingzoo_env_for_every_agent(rules: str, players: int) -> None:
    n = 3
    envs = vector.AECBatch(rules, players, n)
    k = [0]

    def deal() -> tuple[list[int], int, int]:
        k[0] += 1
        return list(deck_from_seed(50 + k[0])), k[0] % players, 100 + k[0]

    def deal_pz(e: Any, d: tuple[list[int], int, int]) -> None:
        e.dealer = d[1]
        e.reset(seed=0, options={"deck": d[0], "chance_seed": d[2]})

    deals = [deal() for _ in range(n)]
    envs.reset(options={"decks": [d for d, _, _ in deals], "dealers": [d for _, d, _ in deals],
                        "chance_seeds": [c for _, _, c in deals]})
    pes = [pz.raw_env(rules=rules, players=players) for _ in range(n)]
    for e, d in zip(pes, deals, strict=True):
        deal_pz(e, d)
    queued = [deal() for _ in range(n)]
    for i, q in enumerate(queued):
        envs.batch.queue_deal(i, *q)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(700):
        assert envs.agent_selection == [e.agent_selection for e in pes]
        for agent in envs.possible_agents:
            got = envs.observe(agent)
            for i, e in enumerate(pes):
                want = e.observe(agent)
                assert np.array_equal(got["observation"][i], want["observation"]), (agent, i)
                assert np.array_equal(got["action_mask"][i], want["action_mask"]), (agent, i)
        obs, rewards, term, trunc, infos = envs.last()
        actions = random_legal_actions(obs["action_mask"], rng)
        envs.step(actions)
        for i, e in enumerate(pes):
            e.step(int(actions[i]))
            over = all(e.terminations.values())
            for agent in envs.possible_agents:
                assert envs.terminations[agent][i] == over and not envs.truncations[agent][i]
                assert envs.rewards[agent][i] == np.float32(e._cumulative_rewards[agent] if over else 0.0)
            if over:
                ended += 1
                deal_pz(e, queued[i])
                queued[i] = deal()
                envs.batch.queue_deal(i, *queued[i])
    assert ended >= 3
