"""A single-agent Gymnasium environment for Skitgubbe (optional extra: needs ``gymnasium`` and
``numpy``): one seat learns, the other seats are skitgubbe bots.

::

    import gymnasium as gym
    import skitgubbe.adapters.gymnasium  # registers "skitgubbe/Skitgubbe-v0"
    env = gym.make("skitgubbe/Skitgubbe-v0", rules="pagat", players=3, opponents="heuristic")
    obs, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(mask=info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

``gym.make("skitgubbe.adapters.gymnasium:skitgubbe/Skitgubbe-v0")`` imports and registers in one
go.  Only the adapters import Gymnasium; the core never does.

``gym.make_vec(ENV_ID, num_envs=N, vectorization_mode="vector_entry_point", rules=..., players=...,
opponents="heuristic", "random" or None)`` makes :class:`skitgubbe.adapters.vector.SkitgubbeVectorEnv`:
N deals stepped by the compiled engine, with compiled heuristic or random opponents or in
self-play (its docstring says what is compiled; the counter and other bots play only here).

The learner's seat acts whenever the engine's sequential protocol with every seat asked in every
sluff window (``ask_every_seat``, docs/sluffing.md: so when it is asked shows no hidden card) names it
(:attr:`State.to_act <skitgubbe.engine.state.State>`): to play, turn up the stock, pick up, or sluff or
pass in its sluff window.  Between its decisions the bots (:func:`skitgubbe.bots.make_bot`) play
the other seats and chance (the dreck shuffle, Koira's split, a trick dealt round) is drawn, all
from generators seeded by the environment's ``np_random``, so ``reset(seed=s)`` and the same
actions replay the same deal.  After the learner goes out, the bots play the deal to its end.

Spaces:

* observation: ``Box(0, 1, (OBS_SIZE,), float32)``,
  :func:`skitgubbe.adapters.encoding.observation` of the learner's
  :func:`~skitgubbe.engine.view.view_of`: never another seat's unseen cards.
* action: ``Discrete(NUM_ACTIONS)``, ids as in :mod:`skitgubbe.adapters.encoding`.

Action masking: ``info["action_mask"]`` (int8, shape ``(NUM_ACTIONS,)``, 1 = legal; usable as
``action_space.sample(mask=...)``) after every ``reset`` and ``step``, and :meth:`SkitgubbeEnv.action_masks`
(bool, the convention of sb3-contrib's ``MaskablePPO``).  Both are all zeros once the episode is over.

Illegal actions (an id in range that is not legal now): by default they are **penalised and
ignored**: the deal does not change, the step's reward is ``illegal_reward`` (default -1),
``info["illegal_action"]`` is True, and the step counts towards ``max_turns``.  This keeps
``gymnasium.utils.env_checker.check_env`` (which steps with unmasked random actions) and unmasked
algorithms working.  With ``illegal_action="raise"`` such a step raises
:class:`~skitgubbe.engine.state.IllegalActionError` with the rules' reason instead.  An id outside
``0..NUM_ACTIONS-1`` always raises ``ValueError``.

Rewards: when the deal ends the learner gets ``-1`` if it is the loser, else ``+1/(n-1)`` (the
PettingZoo environment's zero-sum scheme seen from one seat); ``info`` then also holds ``"loser"``
(a seat) and ``"out_order"``.  Otherwise the reward is 0 (or ``illegal_reward``).

Options for learners (off by default): ``auto_forced=True`` takes the learner's decisions that have
a single legal action (mostly ``pass`` in a sluff window when it cannot sluff) without returning to
the agent; they do not count towards ``max_turns``.  (The bots see only their views, so this shows
them nothing.)  ``compact_actions=True`` makes the action space ``Discrete(len(action_ids))`` and the
masks ``len(action_ids)`` long, with :attr:`SkitgubbeEnv.action_ids` =
:func:`skitgubbe.adapters.encoding.rules_action_ids` of the rules: index ``k`` is full id
``action_ids[k]``.

:meth:`SkitgubbeEnv.view` gives the learner's :class:`~skitgubbe.engine.view.View`, so that a skitgubbe
bot can play the learner's seat as a policy (:func:`skitgubbe.adapters.agents.bot_policy`).
Through ``gym.make`` the environment is wrapped and Gymnasium 1.x wrappers do not pass on other
attributes: call ``env.unwrapped.action_masks()`` (or ``env.get_wrapper_attr("action_masks")()``).

Truncation: after ``max_turns`` learner steps (default :data:`DEFAULT_MAX_TURNS`, counting
penalised illegal attempts), or if the engine abandons the deal at its action limit.  A random
learner needs about 80 steps for a ``pagat`` deal of three seats.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import BOT_NAMES, Bot, make_bot
from ..engine.actions import Action
from ..engine.cards import cards_in
from ..engine.rules import Rules
from ..engine.state import IllegalActionError, State, validate_deck
from ..engine.variants import find_variant
from ..engine.view import View, view_of
from . import encoding
from .agents import as_bot
from .shared import advance, reward_of

__all__ = ["SkitgubbeEnv", "ENV_ID", "DEFAULT_MAX_TURNS", "register", "resolve_rules", "action_index",
           "deck_option", "shuffled_pack", "observation_array"]

ENV_ID = "skitgubbe/Skitgubbe-v0"
"""The id registered with Gymnasium when this module is imported."""

DEFAULT_MAX_TURNS = 2_000
"""Learner steps after which an episode is truncated."""


def resolve_rules(rules: str | Rules, players: int) -> Rules:
    """The :class:`Rules` named by ``rules`` (a preset name or alias, or a Rules instance), checked
    against ``players``.  Raises ``ValueError`` for an unknown name, a seat count the rules do not
    allow, or two packs (``decks=2``: the action ids and the observation encode one pack)."""
    r = find_variant(rules) if isinstance(rules, str) else rules
    if not isinstance(r, Rules):
        raise TypeError(f"rules must be a preset name or a Rules instance, not {rules!r}")
    if r.decks != 1:
        raise ValueError(f"decks={r.decks}: the adapters' action ids and observations encode one pack of 52 "
                         "cards; play the double deck through skitgubbe.State (docs/research.md)")
    if not isinstance(players, int) or not r.min_players <= players <= r.max_players:
        raise ValueError(f"{r.name} is for {r.min_players} to {r.max_players} players, not {players!r}")
    return r


def action_index(action: object) -> int:
    """``action`` (an int or numpy integer, or a 0-d integer array) as an action id.

    Raises ``ValueError`` if it is not an integer in ``0..NUM_ACTIONS-1``.
    """
    if (isinstance(action, np.ndarray) and action.shape == ()) or isinstance(action, np.integer):
        action = action.item()
    if isinstance(action, bool) or not isinstance(action, int):
        raise ValueError(f"an action is an integer id 0..{encoding.NUM_ACTIONS - 1}, not {action!r}")
    if not 0 <= action < encoding.NUM_ACTIONS:
        raise ValueError(f"action id {action} is outside 0..{encoding.NUM_ACTIONS - 1}")
    return action



def deck_option(options: dict[str, Any] | None, rules: Rules | None = None) -> list[int] | None:
    """The ``"deck"`` entry of a ``reset``'s ``options`` as a list of the 52 card numbers (0..51,
    ``suit * 13 + rank - 2``) in dealing order, or None when there is none; with ``rules``, the
    cards of its pack (``rules.pack``: fewer with a short pack).  Raises ``ValueError`` when it is
    not a sequence of the pack's cards once each, saying what is wrong."""
    if not options or options.get("deck") is None:
        return None
    deck = options["deck"]
    if isinstance(deck, (str, bytes)) or not isinstance(deck, (Sequence, np.ndarray)):
        raise ValueError(f"options['deck'] must be a sequence of the 52 card numbers, not {deck!r}")
    cards = [c.item() if isinstance(c, np.integer) else c for c in deck]
    return list(validate_deck(cards, 1, None if rules is None else rules.pack))


def shuffled_pack(rng: np.random.Generator, rules: Rules) -> list[int]:
    """The cards of ``rules.pack`` in the order ``rng.permutation`` draws: the full pack's deck is
    ``rng.permutation(52)`` (as before short packs existed), a short pack's is its cards, in
    ascending order, permuted the same way (one call of ``rng.permutation(pack size)``)."""
    cards = list(cards_in(rules.pack))
    return [cards[i] for i in rng.permutation(len(cards)).tolist()]


def observation_array(view: View) -> np.ndarray:
    """:func:`skitgubbe.adapters.encoding.observation` of ``view`` as a new float32 array of shape
    ``(OBS_SIZE,)``, filled from the sparse :func:`~skitgubbe.adapters.encoding.observation_entries`
    (about a hundred entries: several times faster than converting the 1652-float list)."""
    entries = encoding.observation_entries(view)
    out = np.zeros(encoding.OBS_SIZE, dtype=np.float32)
    out[list(entries)] = list(entries.values())
    return out


class SkitgubbeEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a Skitgubbe deal against bots (see the module docstring).

    Args:
        rules: a preset name (``"pagat"``, ``"goat"``, an alias) or a :class:`Rules`.
        players: number of seats, within the rules' limits.
        seat: the learner's seat (0-based).
        opponents: a bot name for every other seat (``"random"``, ``"heuristic"``), or a list of
            ``players - 1`` opponents for the other seats in clockwise order from seat 0, skipping
            ``seat``: each a bot name (a new bot every episode, seeded from ``np_random``) or an
            agent object, used as it is (for self-play and leagues): a bot (``choose(view, legal)
            -> Action``, such as ``skitgubbe.bots.make_bot("counter", rng)``), a callable
            ``(view, legal) -> Action`` or a ``pyspiel.Bot`` (see
            :func:`skitgubbe.adapters.agents.as_bot`; wrap a policy with ``as_bot(policy,
            kind="policy")``).  A single object (not in a list) plays every other seat.
        dealer: the dealer's seat, or None to draw it from ``np_random`` at every reset.
        max_turns: learner steps after which the episode is truncated.
        illegal_action: ``"penalise"`` (default: the step is ignored and rewarded
            ``illegal_reward``) or ``"raise"``.
        illegal_reward: the reward of an ignored illegal step.
        render_mode: None, ``"human"`` (print) or ``"ansi"`` (return) the learner's view as text.
        auto_forced: take the learner's decisions that have a single legal action without
            returning (module docstring).
        compact_actions: an action space of only the ids the rules can produce (:attr:`action_ids`).

    Raises ``ValueError`` for an unknown preset or bot name, an opponent that is neither a bot name
    nor an agent object, a seat count the rules do not allow, or a seat, number of opponents or
    option out of range, and ``TypeError`` for an option that is not a bool.
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(
        self,
        rules: str | Rules = "pagat",
        players: int = 3,
        seat: int = 0,
        opponents: object = "random",
        *,
        dealer: int | None = 0,
        max_turns: int = DEFAULT_MAX_TURNS,
        illegal_action: str = "penalise",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        auto_forced: bool = False,
        compact_actions: bool = False,
    ) -> None:
        self.rules = resolve_rules(rules, players)
        self.players = players
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat {seat!r} does not exist: seats are 0..{players - 1}")
        if dealer is not None and not 0 <= dealer < players:
            raise ValueError(f"dealer seat {dealer} does not exist: seats are 0..{players - 1}")
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            given: list[object] = [opponents] * (players - 1)
        else:
            given = list(opponents)
        if len(given) != players - 1:
            raise ValueError(f"{len(given)} opponents for the {players - 1} other seats")
        names: list[str | Bot] = []
        for other in given:
            if isinstance(other, str):
                make_bot(other, random.Random(0))  # raises ValueError naming the known bots
                names.append(other)
            else:
                try:
                    names.append(as_bot(other))
                except TypeError:
                    raise ValueError(f"opponent {other!r:.60} is neither a bot name nor a bot or other "
                                     f"agent: give a bot name ({', '.join(BOT_NAMES)}, ismcts-<K>it...), "
                                     "a bot with choose(view, legal), a callable (view, legal) -> Action, "
                                     "or a pyspiel.Bot") from None
        if max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, not {max_turns}")
        if illegal_action not in ("penalise", "raise"):
            raise ValueError(f"illegal_action must be 'penalise' or 'raise', not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        for option, value in (("auto_forced", auto_forced), ("compact_actions", compact_actions)):
            if not isinstance(value, bool):
                raise TypeError(f"{option} must be True or False, not {value!r}")
        self.auto_forced = auto_forced
        self.compact_actions = compact_actions
        self.action_ids: tuple[int, ...] = (encoding.rules_action_ids(self.rules) if compact_actions
                                            else tuple(range(encoding.NUM_ACTIONS)))
        self._index_of = {a: k for k, a in enumerate(self.action_ids)}
        self.seat = seat
        self.opponents = tuple(names)
        self.dealer = dealer
        self.max_turns = max_turns
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (encoding.OBS_SIZE,), np.float32)
        self.action_space = spaces.Discrete(len(self.action_ids))
        self._game: State | None = None
        self.turns = 0
        self._bots: list[Bot | None] = []
        self._chance = random.Random(0)
        self._legal: list[int] = []

    @property
    def game(self) -> State:
        """The :class:`~skitgubbe.engine.state.State` of the deal in progress, for analysis and tests (give a
        learner only the observations).  Raises ``RuntimeError`` before the first ``reset``."""
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    # -- Gymnasium API ----------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game and let the bots play up to the learner's first decision.

        Returns ``(observation, info)`` with ``info["action_mask"]``.  ``options`` may hold
        ``"deck"``: the 52 cards in dealing order (:func:`deck_option`), dealt instead of the seeded
        shuffle (the dealer, the bots' seeds and the chance draws still come from the generator,
        which draws the same numbers either way); other keys are ignored.  Raises ``ValueError`` for
        a malformed deck, before anything changes.
        """
        given = deck_option(options, self.rules)
        super().reset(seed=seed)
        rng = self.np_random
        deck = shuffled_pack(rng, self.rules)
        if given is not None:
            deck = given
        dealer = int(rng.integers(self.players)) if self.dealer is None else self.dealer
        self._chance = random.Random(int(rng.integers(2**62)))
        others = iter(self.opponents)
        self._bots = []
        for s in range(self.players):
            if s == self.seat:
                self._bots.append(None)
                continue
            other = next(others)
            seed = int(rng.integers(2**62))  # (drawn for objects too: the same deals either way)
            self._bots.append(make_bot(other, random.Random(seed)) if isinstance(other, str) else other)
        self._game = game = State.new(self.rules, self.players, dealer=dealer, deck=deck,
                                      ask_every_seat=True)  # who is asked shows no hidden card
        self.turns = 0
        self._advance(game)
        if game.is_over:  # pragma: no cover - every seat holds cards to play in every preset
            raise RuntimeError("the deal ended before the learner's first decision")
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Take action ``action`` (an index of the action space: the action id itself unless
        ``compact_actions``) for the learner, then let the bots play up to its next decision or the
        end of the deal.  Returns ``(observation, reward, terminated, truncated, info)``.

        Raises ``RuntimeError`` after the episode has ended (call :meth:`reset`), ``ValueError`` for
        an action outside the action space, and, with ``illegal_action="raise"``,
        :class:`~skitgubbe.engine.state.IllegalActionError` for an illegal one.
        """
        game = self._game
        if game is None or game.is_over or self.turns >= self.max_turns:
            raise RuntimeError("the episode is over: call reset()")
        i = action_index(action)
        if self.compact_actions:
            if i >= len(self.action_ids):
                raise ValueError(f"action {i} is outside the compact action space "
                                 f"0..{len(self.action_ids) - 1}")
            i = self.action_ids[i]
        act = encoding.action_of(i)
        self.turns += 1
        reward = 0.0
        info: dict[str, Any]
        if i not in self._legal:
            if self.illegal_action == "raise":
                self.turns -= 1
                game.check(act, self.seat)  # raises with the rules' reason
                raise IllegalActionError(self.seat, act, "not a legal action now")  # pragma: no cover
            reward = self.illegal_reward
            info = self._info(illegal=True)
        else:
            game.step(act, self.seat)
            self._advance(game)
            info = self._info()
        terminated = game.is_over and game.loser is not None
        truncated = not terminated and (game.is_over or self.turns >= self.max_turns)
        if terminated:
            reward = reward_of(game.loser, self.players, self.seat)
        if terminated or truncated:
            info["action_mask"][:] = 0
            self._legal = []
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Bool array of shape ``(len(action_ids),)`` (``NUM_ACTIONS`` unless ``compact_actions``):
        True for each legal action now.  Through ``gym.make`` call ``env.unwrapped.action_masks()``."""
        mask = np.zeros(len(self.action_ids), dtype=bool)
        mask[self._mask_indices()] = True
        return mask

    def view(self) -> View:
        """The learner's :class:`~skitgubbe.engine.view.View` now (what the observation encodes), for a
        skitgubbe bot acting as a policy (:func:`skitgubbe.adapters.agents.bot_policy`).  Raises
        ``RuntimeError`` before the first ``reset``."""
        return view_of(self.game, self.seat)

    def _mask_indices(self) -> list[int]:
        if not self.compact_actions:
            return self._legal
        index = self._index_of
        return [index[i] for i in self._legal]

    def render(self) -> str | None:
        """The learner's view as text: printed for ``render_mode="human"``, returned for ``"ansi"``;
        None (with a warning) without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: pass render_mode='human' or 'ansi'")
            return None
        text = encoding.observation_string(view_of(self.game, self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- internals ------------------------------------------------------------------------

    def _advance(self, game: State) -> None:
        """Play chance and the bots (and, with ``auto_forced``, the learner's forced decisions) until
        the learner has a choice or the deal is over (:func:`skitgubbe.adapters.shared.advance`)."""
        bots = self._bots

        def bot_move(s: int) -> Action:
            view = view_of(game, s)
            bot = bots[s]
            assert bot is not None
            action = bot.choose(view, view.legal)
            if action not in view.legal:
                raise ValueError(f"bot {bot.name!r} at seat {s} chose {action}, not a legal action")
            return action

        advance(game, chance=self._chance, auto_forced=self.auto_forced, forced_seat=self.seat,
                policy=bot_move)
        self._legal = [] if game.is_over else encoding.legal_ids(game, self.seat)

    def _observation(self) -> np.ndarray:
        return observation_array(view_of(self.game, self.seat))

    def _info(self, *, illegal: bool = False) -> dict[str, Any]:
        mask = np.zeros(len(self.action_ids), dtype=np.int8)
        mask[self._mask_indices()] = 1
        info: dict[str, Any] = {"action_mask": mask, "illegal_action": illegal}
        game = self.game
        if game.is_over:
            info["loser"] = game.loser
            info["out_order"] = tuple(game.out_order)
        return info


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (done on import; calling it again does nothing), with
    :class:`skitgubbe.adapters.vector.SkitgubbeVectorEnv` (the compiled engine's batches) as its
    vector entry point: ``gymnasium.make_vec(ENV_ID, num_envs=N, vectorization_mode="vector_entry_point",
    ...)``; the ``"sync"`` and ``"async"`` modes vectorize this module's single environment."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="skitgubbe.adapters.gymnasium:SkitgubbeEnv",
                           vector_entry_point="skitgubbe.adapters.vector:SkitgubbeVectorEnv")


register()
