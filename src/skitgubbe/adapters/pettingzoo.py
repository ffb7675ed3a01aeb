"""A native PettingZoo AEC environment for Skitgubbe (optional extra: needs ``pettingzoo`` and ``numpy``).

::

    from skitgubbe.adapters.pettingzoo import env
    e = env(rules="goat", players=4)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            action = None
        else:
            action = e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``"player_0" .. "player_{n-1}"``, agent ``player_i`` being seat ``i``.

Turn order follows the engine's sequential sluffing protocol with every seat asked
(``State.new(..., ask_every_seat=True)``, docs/sluffing.md): :attr:`raw_env.agent_selection` is
always the seat :attr:`State.to_act <skitgubbe.engine.state.State>` names, so an agent acts only when the
engine asks it (to play, turn up the stock, pick up, or to sluff or pass in its sluff window).  A
window opens after every play to a phase-one trick under sluffing rules and asks every seat holding
cards, in turn, until each passes, whether or not it can sluff: which agent acts next, and when a
trick is collected, never depend on cards another agent has not seen.  The out-of-turn sluffs the
engine would also accept are not offered.  Chance (the shuffle of the dreck among several needy seats,
Koira's split of a trick, a trick dealt round at the end of phase one) is resolved inside
:meth:`raw_env.step` with a ``random.Random`` seeded from the environment's ``np_random``, and so
is the deck order and, with ``dealer=None``, the dealer.

Spaces, the same for every agent (one object per agent, so each can be seeded on its own):

* observation: ``Dict({"observation": Box(0, 1, (OBS_SIZE,), float32),
  "action_mask": Box(0, 1, (NUM_ACTIONS,), int8)})``.  ``observation`` is
  :func:`skitgubbe.adapters.encoding.observation` of :func:`skitgubbe.engine.view.view_of` for that seat:
  never another seat's unseen cards.  ``action_mask[i]`` is 1 exactly when action id ``i`` is
  legal for the agent now; it is all zeros for an agent that is not :attr:`agent_selection` and once
  the deal is over (the convention of PettingZoo's classic games).
* action: ``Discrete(NUM_ACTIONS)``; ids as in :mod:`skitgubbe.adapters.encoding`.

An id that is not legal for the agent to act raises :class:`~skitgubbe.engine.state.IllegalActionError`
(a ``ValueError``) with the rules' reason, and the deal is unchanged; an id outside
``0..NUM_ACTIONS-1`` (or not an integer) raises ``ValueError``.

Rewards are given once, when the deal ends: the loser gets ``-1`` and every other seat
``+1/(n-1)``, so the rewards of a deal sum to zero.  Every agent is then *terminated*.

Options for learners (both off by default, so the default environment is the one described above):

* ``auto_forced=True``: a decision with a single legal action (mostly ``pass`` in a sluff window of a
  seat that cannot sluff) is taken by the environment, so agents are asked only when they have a
  choice.  *This shows hidden information through the turn order*: whether an agent is asked in a
  sluff window then tells the other agents whether it could sluff (its observation at its own turn
  is unchanged, but :attr:`agent_selection` and the ``to act`` field of another agent's observation
  show who is skipped).  Use it to train a learner that reads only its own observations.  Forced
  actions taken this way do not count towards ``max_turns``.
* ``compact_actions=True``: the action space is ``Discrete(len(action_ids))`` and the mask has
  ``len(action_ids)`` entries, where :attr:`raw_env.action_ids` is
  :func:`skitgubbe.adapters.encoding.rules_action_ids` of the rules: index ``k`` is full action id
  ``action_ids[k]`` (``pagat`` 54 ids, ``goat`` 419 instead of 551).  The observation is unchanged.

:meth:`raw_env.view` gives an agent's :class:`~skitgubbe.engine.view.View` (what the observation
encodes), so a skitgubbe bot can act as a policy (:func:`skitgubbe.adapters.agents.bot_policy`).

Truncation: a deal is cut off after ``max_turns`` agent steps (default
:data:`DEFAULT_MAX_TURNS`; chance steps and the final ``None`` steps of finished agents are not
counted); every agent is then *truncated* with reward 0.  Random play ends far sooner: the longest
of 300 random deals of ``goat`` with 8 players took about 3,400 actions.

It shares its helpers with :mod:`skitgubbe.adapters.gymnasium` (PettingZoo depends on Gymnasium),
so importing it also registers the Gymnasium id ``skitgubbe/Skitgubbe-v0``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import logger, spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from ..engine.rules import Rules
from ..engine.state import IllegalActionError, State
from ..engine.view import View, view_of
from . import encoding
from .gymnasium import action_index, deck_option, observation_array, resolve_rules, shuffled_pack
from .shared import advance, rewards

__all__ = ["env", "raw_env", "DEFAULT_MAX_TURNS"]

DEFAULT_MAX_TURNS = 10_000
"""Agent steps after which a deal is truncated."""


def env(**kwargs: Any) -> raw_env:
    """A new environment: ``env(rules="goat", players=4, ...)``; keyword arguments are those of
    :class:`raw_env`.

    Unlike PettingZoo's classic games this returns the environment unwrapped: it raises by itself
    on the misuse ``OrderEnforcingWrapper`` catches (stepping or observing before ``reset``) and on
    illegal or out-of-range actions, and the wrapper's per-attribute indirection costs about a third
    of the speed of a random playout.  Wrap it yourself if you want:
    ``pettingzoo.utils.wrappers.OrderEnforcingWrapper(env(...))``.
    """
    return raw_env(**kwargs)


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 (PettingZoo's naming)
    """Skitgubbe as a PettingZoo AEC environment (see the module docstring).

    Args:
        rules: a preset name (``"goat"``, ``"pagat"``, an alias) or a :class:`Rules`.
        players: number of seats, within the rules' limits.
        dealer: the dealer's seat, or None to draw it from ``np_random`` at every reset.
        max_turns: agent steps after which the deal is truncated.
        render_mode: None, ``"human"`` (print) or ``"ansi"`` (return the text) of the
            view of the agent to act (:func:`skitgubbe.adapters.encoding.observation_string`).
        auto_forced: take every decision with a single legal action without asking (module
            docstring: it shows who could sluff through the turn order).
        compact_actions: the action space and mask have only the ids the rules can produce
            (:attr:`action_ids`), not all ``NUM_ACTIONS``.

    Raises ``ValueError`` for an unknown preset, a seat count the rules do not allow, a dealer
    seat that does not exist or ``max_turns < 1``, and ``TypeError`` for an option that is not a
    bool.

    Attributes besides PettingZoo's: :attr:`game`, ``rules``,
    ``players``, ``turns`` (agent steps so far in this deal), ``np_random``, ``action_ids`` (the
    full action id of each action index: ``tuple(range(NUM_ACTIONS))`` unless ``compact_actions``).
    """

    metadata: dict[str, Any] = {
        "name": "skitgubbe_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        rules: str | Rules = "goat",
        players: int = 4,
        *,
        dealer: int | None = 0,
        max_turns: int = DEFAULT_MAX_TURNS,
        render_mode: str | None = None,
        auto_forced: bool = False,
        compact_actions: bool = False,
    ) -> None:
        super().__init__()
        self.rules = resolve_rules(rules, players)
        self.players = players
        if dealer is not None and not 0 <= dealer < players:
            raise ValueError(f"dealer seat {dealer} does not exist: seats are 0..{players - 1}")
        if max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, not {max_turns}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        for option, value in (("auto_forced", auto_forced), ("compact_actions", compact_actions)):
            if not isinstance(value, bool):
                raise TypeError(f"{option} must be True or False, not {value!r}")
        self.dealer = dealer
        self.max_turns = max_turns
        self.render_mode = render_mode
        self.auto_forced = auto_forced
        self.compact_actions = compact_actions
        self.action_ids: tuple[int, ...] = (encoding.rules_action_ids(self.rules) if compact_actions
                                            else tuple(range(encoding.NUM_ACTIONS)))
        self._index_of = {a: k for k, a in enumerate(self.action_ids)}
        size = len(self.action_ids)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (encoding.OBS_SIZE,), np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None
        self._game: State | None = None
        self.turns = 0
        self._legal: list[int] | None = None
        self._over = False  # the deal has ended or been truncated
        self._chance = random.Random(0)

    @property
    def game(self) -> State:
        """The :class:`~skitgubbe.engine.state.State` of the deal in progress, for analysis and tests (give a
        learner only the observations).  Raises ``RuntimeError`` before the first ``reset``."""
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    # -- spaces ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        """The (cached) observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The (cached) action space of ``agent``: ``Discrete(len(action_ids))`` (``NUM_ACTIONS`` unless
        ``compact_actions``)."""
        return self.action_spaces[agent]

    # -- the game -------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game.  With ``seed`` the deck, dealer and chance draws are reproducible;
        without it they continue the generator of the last seeded reset (a fresh one the first
        time).  ``options`` may hold ``"deck"``: the 52 cards (numbers 0..51, ``suit * 13 + rank -
        2``) in dealing order, dealt instead of the seeded shuffle (the dealer and the chance draws
        still come from the generator, which draws the same numbers either way), for duplicate deals
        and for tests; and ``"chance_seed"``: a non-negative integer ``c``, the chance steps then
        shuffled by ``random.Random(c)`` (``State.chance_action``) instead of a generator seeded
        from ``np_random`` (which is drawn from either way), so a deal of
        :class:`skitgubbe.adapters.batch.BatchEnv` given the same deck, dealer and chance seed is
        replayed exactly; other keys are ignored.  Raises ``ValueError`` for a deck that is not
        the 52 cards once each, saying what is wrong, or a chance seed that is not a non-negative
        integer; the environment is then unchanged."""
        deck = deck_option(options, self.rules)
        chance_seed = None if not options else options.get("chance_seed")
        if chance_seed is not None and (isinstance(chance_seed, bool)
                                        or not isinstance(chance_seed, (int, np.integer)) or chance_seed < 0):
            raise ValueError(f"options['chance_seed'] must be a non-negative integer, not {chance_seed!r}")
        chance_seed = None if chance_seed is None else int(chance_seed)
        if seed is not None or self.np_random is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        rng = self.np_random
        shuffled = shuffled_pack(rng, self.rules)
        deck = shuffled if deck is None else deck
        dealer = int(rng.integers(self.players)) if self.dealer is None else self.dealer
        drawn = int(rng.integers(2**62))  # (drawn either way: the generator's stream is the same)
        self._chance = random.Random(drawn if chance_seed is None else chance_seed)
        self._game = game = State.new(
            self.rules, self.players, dealer=dealer, deck=deck, action_limit=self.max_turns + 2,
            ask_every_seat=True,  # who is asked shows nothing about hidden cards
        )
        self.turns = 0
        self._legal = None
        self._over = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        advance(game, chance=self._chance, auto_forced=self.auto_forced)
        self.agent_selection = self.possible_agents[game.to_act]

    def view(self, agent: str) -> View:
        """What ``agent`` may see now: its seat's :class:`~skitgubbe.engine.view.View` (the
        observation encodes it), for a skitgubbe bot acting as a policy
        (:func:`skitgubbe.adapters.agents.bot_policy`).  Raises ``RuntimeError`` before the first
        ``reset`` and ``ValueError`` for an unknown agent."""
        if agent not in self._seat_of:
            raise ValueError(f"no agent {agent!r}: agents are {', '.join(self.possible_agents)}")
        return view_of(self.game, self._seat_of[agent])

    def _legal_ids(self, game: State) -> list[int]:
        legal = self._legal
        if legal is None:
            legal = self._legal = encoding.legal_ids(game, game.to_act)
        return legal

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 (OBS_SIZE,), "action_mask": int8 (len(action_ids),)}`` for
        ``agent`` (a new dict and new arrays on every call)."""
        game = self.game
        seat = self._seat_of[agent]
        view = view_of(game, seat)
        obs = observation_array(view)
        mask = np.zeros(len(self.action_ids), dtype=np.int8)
        if seat == game.to_act and agent == self.agent_selection and not self._over:
            legal = self._legal
            if legal is None:  # the view already lists the legal actions: no second generation
                action_id = encoding.action_id
                legal = self._legal = [action_id(a) for a in view.legal]
            mask[[self._index_of[i] for i in legal] if self.compact_actions else legal] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Take action ``action`` (an index of the action space: the action id itself unless
        ``compact_actions``) for :attr:`agent_selection` (``None`` for an agent that is terminated or
        truncated).  Raises :class:`~skitgubbe.engine.state.IllegalActionError` for an action that is not
        legal now and ``ValueError`` for one outside the action space; the deal is unchanged."""
        game = self.game
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat_of[agent]
        i = action_index(action)
        if self.compact_actions:
            if i >= len(self.action_ids):
                raise ValueError(f"action {i} is outside the compact action space "
                                 f"0..{len(self.action_ids) - 1}")
            i = self.action_ids[i]
        act = encoding.action_of(i)
        if i not in self._legal_ids(game):
            game.check(act, seat)  # raises with the rules' reason
            raise IllegalActionError(seat, act, "not a legal action now")  # pragma: no cover
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        game.step(act, seat)
        self.turns += 1
        advance(game, chance=self._chance, auto_forced=self.auto_forced)  # chance, forced decisions
        self._legal = None
        if game.is_over:
            self._over = True
            if game.loser is None:  # abandoned by the engine: treated as a truncation
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                for a, r in zip(self.possible_agents, rewards(game.loser, self.players), strict=True):
                    if a in self.rewards:
                        self.rewards[a] = r
                self.terminations = dict.fromkeys(self.agents, True)
                self._accumulate_rewards()
            self._deads_step_first()
        elif self.turns >= self.max_turns:
            self._over = True
            self.truncations = dict.fromkeys(self.agents, True)
            self._deads_step_first()
        else:
            self.agent_selection = self.possible_agents[game.to_act]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The view of the seat to act (seat 0 once the deal is over) as text: printed for
        ``render_mode="human"``, returned for ``"ansi"``; None (with a warning) without a render mode."""
        if self.render_mode is None:
            logger.warn("render() called without a render_mode: pass render_mode='human' or 'ansi'")
            return None
        game = self.game
        text = encoding.observation_string(view_of(game, max(game.to_act, 0)))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
