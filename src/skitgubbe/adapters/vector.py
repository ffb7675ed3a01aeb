"""Batch stepping as a Gymnasium vector environment and as a PettingZoo-style batch API (optional
extra: needs ``gymnasium``, ``numpy`` and the compiled engine, ``pip install ./native``).

::

    import gymnasium as gym
    import skitgubbe.adapters.gymnasium  # registers "skitgubbe/Skitgubbe-v0" (with its vector entry point)
    from skitgubbe.adapters.batch import random_legal_actions

    envs = gym.make_vec("skitgubbe/Skitgubbe-v0", num_envs=64, vectorization_mode="vector_entry_point",
                        rules="goat", players=4, opponents="random")
    obs, info = envs.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(100):
        actions = random_legal_actions(info["action_mask"], rng)
        obs, rewards, terminations, truncations, info = envs.step(actions)

What is compiled: the engine, the observations and masks (:class:`~skitgubbe.adapters.batch.BatchEnv`,
any rules :func:`skitgubbe.engine.compiled.unsupported` accepts) and the opponents, the bots of
:data:`~skitgubbe.bots.compiled_bots.COMPILED_BOTS` (:mod:`skitgubbe.bots.compiled_bots`):

* ``opponents=None``: **self-play**, every seat is the learner's; row ``i`` is the seat to act in env
  ``i`` (``info["to_act"]``), as in :class:`~skitgubbe.adapters.batch.BatchEnv`.
* ``opponents="random"`` or ``"heuristic"`` (or a list of ``players - 1`` such names, for the
  other seats in clockwise order from seat 0, skipping ``seat``, as the single environment takes
  them): the learner plays ``seat``; every other seat is played by its compiled bot in C++
  (:meth:`BatchEnv.play_others <skitgubbe.adapters.batch.BatchEnv.play_others>`) with the Python
  bot's decisions, each seat's ``random.Random`` seeded per deal (by the deal's ``bot_seeds``
  when the reset's options give them, else from the batch's generators).

The other bots (counter, IS-MCTS, ...) play as opponents only in the single environment
(:class:`skitgubbe.adapters.gymnasium.SkitgubbeEnv`, the Python engine); naming one here raises
``ValueError`` saying so.

:class:`SkitgubbeVectorEnv` (a ``gymnasium.vector.VectorEnv``):

* ``single_observation_space`` ``Box(0, 1, (OBS_SIZE,), float32)``, ``single_action_space``
  ``Discrete(NUM_ACTIONS)``; ``observation_space`` and ``action_space`` are their batched forms
  (``Box`` of shape ``(N, 1652)``, ``MultiDiscrete([551] * N)``).
* ``reset(seed=s, options=...)`` returns ``(obs, info)``; ``step(actions)`` returns ``(obs,
  rewards, terminations, truncations, info)``: ``obs`` float32 ``(N, 1652)`` (the observation of
  the seat to act: the learner's seat with opponents), ``rewards`` float32 ``(N,)`` (with
  opponents the learner's; in self-play the reward of the seat that took the step's action, every
  seat's in ``info["rewards"]``), ``terminations`` and ``truncations`` bool ``(N,)``.
  ``info["action_mask"]`` int8 ``(N, 551)``, ``info["to_act"]`` int32 ``(N,)`` and
  ``info["rewards"]`` float32 ``(N, P)`` (per seat, zero unless a deal ended) after every reset and step.
* Automatic reset in the same step (``metadata["autoreset_mode"]`` is ``AutoresetMode.SAME_STEP``):
  the env whose deal ended is dealt anew within the step, and ``obs`` is the new deal's first
  observation.  There is no final observation (``info`` holds no ``"final_obs"``): a finished deal
  has no seat to act.  A deal's end is reported once.
* ``reset(seed=s)`` makes the deals, the opponents' choices and every later automatic reset
  reproducible; ``options`` may give the deals: ``{"decks": N deck orders, "dealers": ..., "chance_seeds":
  ..., "bot_seeds": ...}`` as :meth:`BatchEnv.reset <skitgubbe.adapters.batch.BatchEnv.reset>` takes them.
* An action that is not legal raises ``ValueError`` naming the env and nothing moves (the single
  environment's default of penalising it is not offered).
* ``copy=True`` (the default, as in Gymnasium's own vector environments) returns new arrays each
  step; ``copy=False`` returns the batch's own arrays, overwritten by the next step.

:class:`AECBatch` is the PettingZoo AEC environment's surface over N envs (module docstring of
:mod:`skitgubbe.adapters.pettingzoo`): per agent, arrays over the envs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..bots.compiled_bots import COMPILED_BOTS, compiled_bot_kind
from ..engine.rules import Rules
from ..engine.variants import PRESETS, RESEARCH_PRESETS, find_variant
from . import encoding
from .batch import BatchEnv, BatchStep

__all__ = ["SkitgubbeVectorEnv", "AECBatch", "VECTOR_OPPONENTS"]

VECTOR_OPPONENTS = COMPILED_BOTS
"""The opponents :class:`SkitgubbeVectorEnv` plays besides self-play (``None``): the compiled bots."""


def _rules(rules: str | Rules) -> Rules | str:
    """A preset's name as BatchEnv takes it, or a Rules; an alias resolved."""
    if isinstance(rules, str):
        if rules in PRESETS or rules in RESEARCH_PRESETS:
            return rules
        return find_variant(rules)
    return rules


def _deal_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """The deal of a reset's ``options`` as BatchEnv.reset's keywords; ``ValueError`` for other keys."""
    if not options:
        return {}
    keys = ("decks", "dealers", "chance_seeds", "bot_seeds")
    unknown = set(options) - set(keys)
    if unknown:
        raise ValueError(f"unknown reset options {sorted(unknown)}: the options are decks, dealers, "
                         "chance_seeds and bot_seeds")
    return {k: options[k] for k in keys if k in options}


def _seat_bots(opponents: str | Sequence[str] | None, players: int, seat: int) -> list[str]:
    """The bot of every seat for BatchEnv (the learner's entry: "random", not played); ``ValueError``
    for a bot the batches do not play or not ``players - 1`` opponents."""
    if opponents is None:
        return ["random"] * players
    given = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
    if len(given) != players - 1:
        raise ValueError(f"{len(given)} opponents for the {players - 1} other seats")
    for name in given:
        if not isinstance(name, str) or compiled_bot_kind(name) is None:
            raise ValueError(f"the vector environment plays the compiled bots {', '.join(COMPILED_BOTS)} or "
                             f"None (self-play), not {name!r}: the batches step no other bot yet; use "
                             "skitgubbe.adapters.gymnasium.SkitgubbeEnv for it")
    others = iter(given)
    return ["random" if s == seat else next(others) for s in range(players)]


_Step = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_],
              dict[str, Any]]


class SkitgubbeVectorEnv(VectorEnv):
    """``num_envs`` deals stepped by the compiled engine as one Gymnasium vector environment
    (module docstring).

    Args:
        num_envs: deals stepped together (``N``), 1 or more.
        rules: a preset name or alias, or a :class:`Rules` the compiled engine plays.
        players: seats.
        seat: the learner's seat with opponents (0-based).
        opponents: ``"random"`` or ``"heuristic"`` (every other seat that compiled bot), a list
            of ``players - 1`` such names (the other seats clockwise from seat 0, skipping
            ``seat``), or ``None`` (self-play: every seat the learner's).
        action_limit: actions after which a deal is abandoned (``truncations``).
        copy: return new arrays from ``reset`` and ``step`` (True) or the batch's own (False).

    Raises ``ValueError`` for opponents other than these (naming why: the other bots are not
    compiled), a seat that does not exist, ``num_envs`` below 1, and what
    :class:`~skitgubbe.adapters.batch.BatchEnv` raises (``UnsupportedError`` for rules the compiled
    engine does not play, ``ImportError`` without it).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 1, rules: str | Rules = "pagat", players: int = 3, seat: int = 0,
                 opponents: str | Sequence[str] | None = "random", *, action_limit: int = 20_000,
                 copy: bool = True) -> None:
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat {seat!r} does not exist: seats are 0..{players - 1}")
        self._bots = _seat_bots(opponents, players, seat)
        self._rules = _rules(rules)
        self._action_limit = action_limit
        self.batch = BatchEnv(self._rules, players, num_envs, 0, action_limit=action_limit, bots=self._bots)
        self.rules = self.batch.rules
        self.players = players
        self.seat = seat
        self.opponents = opponents
        self.copy = copy
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(0.0, 1.0, (encoding.OBS_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(encoding.NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._seat_rewards = np.zeros((num_envs, players), dtype=np.float32)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal every env anew and return ``(obs, info)`` (module docstring).  ``seed`` (an int
        0..2**63-1) seeds the deals, the opponents' choices and every later automatic reset;
        without it they continue (a fresh generator the first time).  ``options``: ``decks``,
        ``dealers``, ``chance_seeds`` and ``bot_seeds`` as :meth:`BatchEnv.reset` takes them;
        ``ValueError`` for other keys or a wrong deal."""
        given = _deal_options(options)
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
                raise ValueError(f"the seed must be an integer 0..2**63-1, not {seed!r}")
            self.batch = BatchEnv(self._rules, self.players, self.num_envs, int(seed),
                                  action_limit=self._action_limit, bots=self._bots)
        out = self.batch.reset(**given)
        if self.opponents is not None:
            self.batch.play_others(self.seat)  # (a deal that ended before the learner's turn: not reported)
        self._seat_rewards[:] = 0
        return self._obs(out), self._info(out)

    def step(self, actions: npt.ArrayLike) -> _Step:
        """Take ``actions[i]`` (an action id) in env ``i`` for its seat to act and return ``(obs,
        rewards, terminations, truncations, info)`` (module docstring).  Raises ``ValueError`` for
        an id that is not legal (naming the env; nothing moves), the wrong number of actions or
        non-integer actions; ``RuntimeError`` before the first :meth:`reset`."""
        acting = self.batch.last.to_act.copy()
        out = self.batch.step(actions)
        if self.opponents is not None:
            self.batch.play_others(self.seat)
        self._seat_rewards[:] = out.rewards
        seat = self.seat if self.opponents is not None else acting
        rewards = self._seat_rewards[np.arange(self.num_envs), seat]
        cut = out.truncated.copy()
        return self._obs(out), rewards, out.done & ~cut, cut, self._info(out)

    def _obs(self, out: BatchStep) -> npt.NDArray[np.float32]:
        return out.obs.copy() if self.copy else out.obs

    def _info(self, out: BatchStep) -> dict[str, Any]:
        if self.copy:
            return {"action_mask": out.mask.copy(), "to_act": out.to_act.copy(),
                    "rewards": self._seat_rewards.copy()}
        return {"action_mask": out.mask, "to_act": out.to_act, "rewards": self._seat_rewards}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """bool ``(N, NUM_ACTIONS)``: the legal ids of each env's seat to act (sb3-contrib's
        convention, as :meth:`SkitgubbeEnv.action_masks`)."""
        legal: npt.NDArray[np.bool_] = self.batch.last.mask != 0
        return legal

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""


class AECBatch:
    """The PettingZoo AEC environment's surface (:class:`skitgubbe.adapters.pettingzoo.raw_env`)
    over ``n_envs`` deals stepped by the compiled engine, every seat played by the caller: each
    per-agent value is an array over the envs.  Arguments as :class:`BatchEnv`'s (``rules``,
    ``players``, ``n_envs``, ``seed``, ``action_limit``).

    * ``possible_agents``, ``agents``: ``["player_0", ..., "player_{P-1}"]``, agent ``player_s`` seat ``s``.
    * ``agent_selection``: list of ``N`` agent names, the agent to act in each env (``to_act``: the
      seats as int32 ``(N,)``).
    * ``observe(agent)``: ``{"observation": float32 (N, 1652), "action_mask": int8 (N, 551)}``:
      row ``i`` the agent's observation in env ``i`` and its mask there (all zero where it is not
      the agent to act), as ``raw_env.observe`` gives it env by env.
    * ``last()``: ``(observation dict, rewards, terminations, truncations, infos)`` for each env's
      agent to act: the dict as ``observe`` gives it for those agents (row ``i`` for env ``i``'s
      agent), float32 ``(N,)`` the reward that agent got in the last step, bool ``(N,)``
      ``terminations`` and ``truncations`` of the deal that ended in the last step, ``infos`` a list
      of ``N`` empty dicts.
    * ``rewards``, ``terminations``, ``truncations``: dicts agent -> ``(N,)`` arrays for the last
      step (PettingZoo's per-step rewards: zero unless the env's deal ended in it; then ``-1`` for
      the loser and ``+1/(P-1)`` for the others).
    * ``step(actions)``: ``N`` action ids, one for each env's agent to act.  Unlike PettingZoo's
      AEC loop, a finished deal is dealt anew in the step that ends it: there are no ``None``
      steps of finished agents, and the ended deal's rewards and terminations are in that step's
      ``rewards``/``terminations`` while ``agent_selection`` is already the new deal's.
    * ``reset(seed=None, options=None)``: deal every env anew (``seed`` makes a new batch seeded
      with it; ``options`` as :class:`SkitgubbeVectorEnv`'s).

    Raises what :class:`BatchEnv` raises, and ``ValueError`` for an agent that does not exist.
    """

    def __init__(self, rules: str | Rules = "pagat", players: int = 3, n_envs: int = 64, seed: int = 0,
                 *, action_limit: int = 20_000) -> None:
        self._rules = _rules(rules)
        self._action_limit = action_limit
        self.batch = BatchEnv(self._rules, players, n_envs, seed, action_limit=action_limit)
        self.players = players
        self.n_envs = n_envs
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self._obs = np.empty((n_envs, encoding.OBS_SIZE), dtype=np.float32)
        self._zeros_bool = np.zeros(n_envs, dtype=np.bool_)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal every env anew (the class docstring)."""
        given = _deal_options(options)
        if seed is not None:
            self.batch = BatchEnv(self._rules, self.players, self.n_envs, seed,
                                  action_limit=self._action_limit)
        self.batch.reset(**given)

    @property
    def to_act(self) -> npt.NDArray[np.int32]:
        """int32 ``(N,)``: the seat to act in each env (a copy)."""
        return self.batch.last.to_act.copy()

    @property
    def agent_selection(self) -> list[str]:
        """The agent to act in each env."""
        names = self.possible_agents
        return [names[s] for s in self.batch.last.to_act.tolist()]

    def _seat(self, agent: str) -> int:
        if agent not in self._seat_of:
            raise ValueError(f"no agent {agent!r}: agents are {', '.join(self.possible_agents)}")
        return self._seat_of[agent]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observations and masks in every env (class docstring); new arrays."""
        seat = self._seat(agent)
        out = self.batch.last
        mask = np.where((out.to_act == seat)[:, None], out.mask, np.int8(0)).astype(np.int8)
        return {"observation": self.batch.observe(seat), "action_mask": mask}

    def last(self) -> tuple[dict[str, npt.NDArray[Any]], npt.NDArray[np.float32], npt.NDArray[np.bool_],
                            npt.NDArray[np.bool_], list[dict[str, Any]]]:
        """The observation dict, rewards, terminations, truncations and infos of each env's agent to
        act (class docstring); new arrays."""
        out = self.batch.last
        rewards = out.rewards[np.arange(self.n_envs), out.to_act.clip(0)].copy()
        ended = out.done.copy()
        return ({"observation": out.obs.copy(), "action_mask": out.mask.copy()}, rewards,
                ended & ~out.truncated, out.truncated.copy(), [{} for _ in range(self.n_envs)])

    @property
    def rewards(self) -> dict[str, npt.NDArray[np.float32]]:
        """Agent -> float32 ``(N,)``: its reward in each env in the last step."""
        r = self.batch.last.rewards
        return {a: r[:, s].copy() for a, s in self._seat_of.items()}

    @property
    def terminations(self) -> dict[str, npt.NDArray[np.bool_]]:
        """Agent -> bool ``(N,)``: the env's deal ended (not abandoned) in the last step."""
        out = self.batch.last
        t = out.done & ~out.truncated
        return {a: t.copy() for a in self.possible_agents}

    @property
    def truncations(self) -> dict[str, npt.NDArray[np.bool_]]:
        """Agent -> bool ``(N,)``: the env's deal was abandoned at the action limit in the last step."""
        t = self.batch.last.truncated
        return {a: t.copy() for a in self.possible_agents}

    def step(self, actions: Sequence[int] | npt.ArrayLike) -> None:
        """Take each env's action for its agent to act (class docstring); raises as
        :meth:`BatchEnv.step` does."""
        self.batch.step(actions)

    def close(self) -> None:
        """Nothing to release."""
