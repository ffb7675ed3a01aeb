"""Agents of research frameworks as skitgubbe bots, and skitgubbe bots as framework agents.

**Into a bot** (:func:`as_bot`, for :func:`skitgubbe.batch.evaluate.evaluate`,
:func:`skitgubbe.batch.tournament.run_tournament` and the Gymnasium environment's ``opponents``):

* a skitgubbe bot (``name``, ``choose(view, legal) -> Action``): used as it is;
* a callable ``(view, legal) -> Action``, or ``view -> Action`` (one argument; ``view.legal``);
* a *policy* ``(observation, action_mask) -> action id``, as trained in the PettingZoo or Gymnasium
  environment: ``observation`` is the float32 array of shape ``(OBS_SIZE,)`` of
  :func:`skitgubbe.adapters.encoding.observation`, ``action_mask`` the int8 array of 1s for the legal
  actions, of shape ``(NUM_ACTIONS,)`` (or, with ``action_ids``, of the compact action space:
  ``action_mask[k]`` is full id ``action_ids[k]`` and the policy answers an index ``k``);
* an OpenSpiel ``rl_environment``-style agent (``step(time_step, is_evaluation=True)`` answering
  a ``StepOutput(action, probs)``: OpenSpiel's DQN, PolicyGradient, ``RandomAgent``), a list of
  them (one per player) or, with ``kind="openspiel"``, a factory ``player_id -> agent``: played by
  :class:`skitgubbe.adapters.rl_agents.OpenSpielAgentBot`, which follows the evaluated deal in the
  OpenSpiel game and gives the agent the real ``information_state_tensor`` of its seat (needs
  ``open_spiel``; only :func:`skitgubbe.batch.evaluate.evaluate` plays it);
* a *PettingZoo policy* (``kind="pettingzoo"``, auto for an object with ``act``,
  ``compute_action`` or ``compute_single_action``): a callable, or such an object, given the AEC
  observation dict ``{"observation": float32 (OBS_SIZE,), "action_mask": int8}`` of the seat (as
  ``env.observe(agent)`` of :mod:`skitgubbe.adapters.pettingzoo`), and, if it takes a second
  argument, the agent name ``"player_<seat>"``; it answers an action index (a tuple's first
  element is taken, as RLlib's ``compute_single_action`` returns one);
* a ``pyspiel.Bot`` (needs ``open_spiel``), or, with ``kind="pyspiel"``, a factory
  ``player_id -> pyspiel.Bot`` for bots made for one seat (OpenSpiel's ``UniformRandomBot(player_id,
  rng)``, policy bots), called once per seat: its ``step(state)`` gets a :class:`ViewState`, a
  stand-in for the ``python_skitgubbe`` state built from the seat's view alone, with the seat's
  observation tensor and string and its legal actions.  It cannot give an information state (the
  view has no private history), clone, resample or apply actions, so search bots that need the
  true game state (OpenSpiel's ``MCTSBot`` and ``ISMCTSBot``) are played through OpenSpiel itself
  (``open_spiel.python.algorithms.evaluate_bots``) with the skitgubbe bots as ``pyspiel.Bot``\\ s
  (:func:`pyspiel_bot`).

Every wrapper sees only the seat's :class:`~skitgubbe.engine.view.View` (or its observation): hidden
cards never reach an agent.  An action that is not legal raises ``ValueError`` naming it.

**Out of a bot**:

* :func:`pyspiel_bot`: a ``pyspiel.Bot`` for ``python_skitgubbe`` that asks the bot with the seat's
  view (``state.view(player)``) and answers the action id (:func:`skitgubbe.adapters.encoding.action_id`,
  or its compact index on a game with ``compact_actions``);
* :func:`bot_policy`: a policy ``(observation, action_mask) -> action index`` for a PettingZoo or
  Gymnasium environment of this package, which reads the acting seat's view from the environment
  (``env.view(agent)`` / ``env.view()``).

numpy and open_spiel are imported only when a wrapper that needs them is made or used.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..batch.evaluate import agent_bot, positional_arguments
from ..bots import make_bot
from ..bots.base import Bot
from ..engine.actions import Action
from ..engine.state import State
from ..engine.view import View
from . import encoding
from .rl_agents import DealFollower, OpenSpielAgentBot, is_rl_agent, openspiel_rules_error

__all__ = ["AGENT_KINDS", "PettingZooBot", "PolicyBot", "PyspielAgentBot", "ViewState", "as_bot",
           "bot_policy", "pyspiel_bot"]

AGENT_KINDS = ("auto", "bot", "callable", "policy", "pettingzoo", "openspiel", "pyspiel")
"""The ``kind`` values :func:`as_bot` accepts."""

_PZ_METHODS = ("act", "compute_action", "compute_single_action")
"""Methods of a PettingZoo policy object, in the order :class:`PettingZooBot` looks for them."""

_KINDS_TEXT = ("give a bot (choose(view, legal) -> Action), a callable (view, legal) -> Action or "
               "view -> Action, an OpenSpiel agent (step(time_step, is_evaluation)) or a list of them, "
               "a PettingZoo policy (an object with act/compute_action), a pyspiel.Bot, or with kind= "
               "a policy (observation, action_mask) -> action id ('policy'), a PettingZoo policy "
               "callable (observation dict) -> action id ('pettingzoo') or a factory player_id -> "
               "agent ('openspiel', 'pyspiel'); kinds: " + ", ".join(AGENT_KINDS))


def _is_pyspiel_bot(agent: object) -> bool:
    pyspiel = sys.modules.get("pyspiel")
    return pyspiel is not None and isinstance(agent, pyspiel.Bot)


def as_bot(
    agent: object,
    *,
    kind: str = "auto",
    name: str | None = None,
    action_ids: Sequence[int] | None = None,
    game: Any = None,
    compact_actions: bool = False,
    observation: str = "info_state",
    auto_forced: bool = False,
) -> Bot:
    """``agent`` as a :class:`~skitgubbe.bots.base.Bot` (see the module docstring for each kind).

    Args:
        agent: a bot, a callable, a policy, a PettingZoo policy, an OpenSpiel agent (or a list of
            them, one per player) or a ``pyspiel.Bot``.
        kind: ``"auto"`` (in this order: a ``pyspiel.Bot``; a bot if it has ``choose``; an
            OpenSpiel agent if it has ``step``, or a list of them; a PettingZoo policy if it has
            ``act``, ``compute_action`` or ``compute_single_action``; else a callable ``view ->
            Action`` if it takes one argument, ``(view, legal) -> Action`` otherwise), or one of
            :data:`AGENT_KINDS`.  A policy ``(observation, action_mask)``, a PettingZoo policy
            callable and a factory ``player_id -> agent`` are never guessed: give the kind.
        name: the bot's name (default: the agent's ``name``, its function or class name).
        action_ids: for a policy or PettingZoo policy trained on a compact action space, the full
            action id of each index (``env.action_ids``); default all ``NUM_ACTIONS`` ids.
        game: for a ``pyspiel.Bot``, the ``python_skitgubbe`` game its states report through
            ``get_game()`` (default: none; ``get_game()`` then raises).
        compact_actions: for an OpenSpiel agent, its game was loaded with ``compact_actions=True``
            (for a policy, give ``action_ids`` instead).
        observation: for an OpenSpiel agent, ``"info_state"`` (the information-state tensor,
            ``rl_environment``'s default) or ``"observation"`` (``use_observation=True``).
        auto_forced: for an OpenSpiel agent, decisions with one legal action are taken without
            asking it (a game loaded with ``auto_forced=True``).

    Raises ``ValueError`` for an unknown ``kind`` or ``observation`` or bad ``action_ids``, and
    ``TypeError`` if ``agent`` is not of the kind (naming the kinds allowed).
    """
    if kind not in AGENT_KINDS:
        raise ValueError(f"kind must be one of {', '.join(AGENT_KINDS)}, not {kind!r}")
    if kind == "auto":
        if _is_pyspiel_bot(agent):
            kind = "pyspiel"
        elif callable(getattr(agent, "choose", None)):
            return agent_bot(agent, name=name)
        elif is_rl_agent(agent):
            kind = "openspiel"
        elif any(callable(getattr(agent, m, None)) for m in _PZ_METHODS):
            kind = "pettingzoo"
        elif callable(agent):
            return agent_bot(agent, name=name)
        else:
            raise TypeError(f"{agent!r:.80} is not an agent: {_KINDS_TEXT}")
    if kind == "openspiel":
        factory = not is_rl_agent(agent) and callable(agent)
        first = agent[0] if isinstance(agent, (list, tuple)) and agent else agent
        label = name or _label(first, "openspiel")
        if label.startswith("<"):  # a lambda
            label = "openspiel"
        return OpenSpielAgentBot(agent, name=label, observation=observation, compact_actions=compact_actions,
                                 auto_forced=auto_forced, factory=factory)
    if kind == "pettingzoo":
        if not callable(agent) and not any(callable(getattr(agent, m, None)) for m in _PZ_METHODS):
            raise TypeError(f"a PettingZoo policy is a callable (observation dict) -> action id or an object "
                            f"with {', '.join(_PZ_METHODS)}, not {agent!r:.80}")
        return PettingZooBot(agent, name=name or _label(agent, "pettingzoo"), action_ids=action_ids)
    if kind == "pyspiel":
        if not _is_pyspiel_bot(agent) and not callable(agent):
            raise TypeError(f"{agent!r:.80} is neither a pyspiel.Bot nor a factory player_id -> pyspiel.Bot")
        return PyspielAgentBot(agent, name=name or type(agent).__name__, game=game)
    if kind == "policy":
        if not callable(agent):
            raise TypeError(f"a policy is a callable (observation, action_mask) -> action id, "
                            f"not {agent!r:.80}")
        own = name or getattr(agent, "__name__", None)
        return PolicyBot(agent, name=own if isinstance(own, str) else "policy", action_ids=action_ids)
    if kind == "bot" and not callable(getattr(agent, "choose", None)):
        raise TypeError(f"{agent!r:.80} is not a bot: a bot has choose(view, legal) -> Action")
    if kind == "callable" and not callable(agent):
        raise TypeError(f"{agent!r:.80} is not callable (view, legal) -> Action")
    return agent_bot(agent, name=name)


def _label(agent: object, default: str) -> str:
    """The agent's ``name`` text, else its function or class name, else ``default``."""
    for label in (getattr(agent, "name", None), getattr(agent, "__name__", None)):
        if isinstance(label, str) and label:
            return label
    own = type(agent).__name__
    return own if own not in ("function", "list", "tuple", "method") else default


def _action_ids(action_ids: Sequence[int] | None) -> tuple[int, ...]:
    if action_ids is None:
        return tuple(range(encoding.NUM_ACTIONS))
    ids = tuple(int(i) for i in action_ids)
    if not ids or len(set(ids)) != len(ids) or not all(0 <= i < encoding.NUM_ACTIONS for i in ids):
        raise ValueError(f"action_ids must be distinct action ids 0..{encoding.NUM_ACTIONS - 1}")
    return ids


class PolicyBot:
    """A policy ``(observation, action_mask) -> action index`` as a bot (module docstring).

    :meth:`choose` encodes the view (float32 ``(OBS_SIZE,)``) and the legal actions (int8 mask over
    ``action_ids``), calls the policy and maps its answer back to an Action.  It raises
    ``ValueError`` if the policy answers something that is not the index of a legal action, or if a
    legal action has no index in ``action_ids``.
    """

    kind = "policy"

    def __init__(self, policy: Callable[..., Any], *, name: str = "policy",
                 action_ids: Sequence[int] | None = None) -> None:
        self.policy = policy
        self.name = name
        self.action_ids = _action_ids(action_ids)
        self._index = {a: k for k, a in enumerate(self.action_ids)}

    def answer(self, observation: Any, action_mask: Any, view: View) -> Any:
        """What the policy answers for the seat of ``view``: ``policy(observation, action_mask)``."""
        return self.policy(observation, action_mask)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The legal action the policy picks for ``view``."""
        import numpy as np

        entries = encoding.observation_entries(view)
        obs = np.zeros(encoding.OBS_SIZE, dtype=np.float32)
        obs[list(entries)] = list(entries.values())
        mask = np.zeros(len(self.action_ids), dtype=np.int8)
        by_index: dict[int, Action] = {}
        for a in legal:
            k = self._index.get(encoding.action_id(a))
            if k is None:
                raise ValueError(f"legal action {a} has no index in this policy's action_ids")
            mask[k] = 1
            by_index[k] = a
        answer = self.answer(obs, mask, view)
        try:
            k = int(answer)
        except (TypeError, ValueError):
            raise ValueError(f"policy {self.name!r} answered {answer!r:.60}, not an action index") from None
        if k not in by_index:
            raise ValueError(f"policy {self.name!r} answered index {k}, which is not a legal action "
                             f"(legal: {sorted(by_index)})")
        return by_index[k]


class PettingZooBot(PolicyBot):
    """A PettingZoo policy as a bot (module docstring): a callable ``policy(obs)`` or
    ``policy(obs, agent)``, or an object with ``act``, ``compute_action`` or
    ``compute_single_action`` (the first it has), given ``obs = {"observation": ..., "action_mask":
    ...}`` (the AEC observation of the seat) and, if it takes a second argument, the agent name
    ``"player_<seat>"``.  It answers an action index (of ``action_ids``; a tuple or list answer's
    first element is taken).  :meth:`choose` raises ``ValueError`` as :class:`PolicyBot` does."""

    kind = "pettingzoo"

    def __init__(self, policy: Any, *, name: str = "pettingzoo",
                 action_ids: Sequence[int] | None = None) -> None:
        fn = next((getattr(policy, m) for m in _PZ_METHODS if callable(getattr(policy, m, None))), policy)
        super().__init__(fn, name=name, action_ids=action_ids)
        self.with_agent = positional_arguments(fn) == 2

    def answer(self, observation: Any, action_mask: Any, view: View) -> Any:
        """``policy({"observation": observation, "action_mask": action_mask}[, "player_<seat>"])``."""
        obs = {"observation": observation, "action_mask": action_mask}
        out = self.policy(obs, f"player_{view.seat}") if self.with_agent else self.policy(obs)
        return out[0] if isinstance(out, (tuple, list)) else out


class ViewState:
    """A stand-in for a ``python_skitgubbe`` state, built from one seat's view only, handed to a
    ``pyspiel.Bot`` by :class:`PyspielAgentBot`.

    It answers ``current_player()``, ``legal_actions(player=None)``, ``legal_actions_mask``,
    ``observation_tensor`` and ``observation_string`` (for the seat only), ``is_terminal``,
    ``is_chance_node``, ``is_simultaneous_node``, ``is_player_node``, ``num_players``,
    ``num_distinct_actions``, ``get_game`` and ``view``.  Asking for another seat raises ``ValueError``;
    ``clone``, ``child``, ``apply_action``, ``history`` and ``resample_from_infostate`` raise
    ``NotImplementedError`` (the view has no private history and no hidden cards), and so do
    ``information_state_string``/``_tensor`` unless the deal is followed (below).

    When :func:`skitgubbe.batch.evaluate.evaluate` plays the bot on a preset of one pack with
    ``open_spiel`` installed, the harness follows the deal in the OpenSpiel game
    (:class:`skitgubbe.adapters.rl_agents.DealFollower`) and ``information_state_string`` and
    ``information_state_tensor`` answer the seat's, from that game: OpenSpiel player
    ``(seat - dealer) % players`` (its dealer is seat 0, so the tensor's seat one-hot is that
    player).
    """

    def __init__(self, view: View, legal_ids: Sequence[int], game: Any = None,
                 followed: tuple[DealFollower, int] | None = None) -> None:
        self._view = view
        self._legal = list(legal_ids)
        self._game = game
        self._followed = followed
        self._at = (followed[0].state, followed[0].steps) if followed is not None else None

    def _info_state(self, what: str) -> tuple[Any, int]:
        """The followed OpenSpiel state and player, checked to be still at this decision."""
        if self._followed is None:
            raise self._hidden(what)
        follower, p = self._followed
        if self._at != (follower.state, follower.steps):
            raise RuntimeError(f"{what} asked of a ViewState after its decision: the game has moved on")
        return follower.state, p

    def _check(self, player: int | None) -> int:
        seat = self._view.seat
        if player is not None and int(player) != seat:
            raise ValueError(f"this state stands in for seat {seat}'s view only, not seat {player} (a "
                             "pyspiel.Bot made for one seat: give as_bot(lambda p: MyBot(p, ...), "
                             "kind='pyspiel') so that each seat gets its own)")
        return seat

    def current_player(self) -> int:
        """The seat deciding (the view's seat)."""
        return self._view.seat

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The seat's legal action ids, sorted."""
        self._check(player)
        return list(self._legal)

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """1 for each legal action id, ``NUM_ACTIONS`` entries."""
        self._check(player)
        mask = [0] * encoding.NUM_ACTIONS
        for i in self._legal:
            mask[i] = 1
        return mask

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """:func:`skitgubbe.adapters.encoding.observation` of the seat's view."""
        self._check(player)
        return encoding.observation(self._view)

    def observation_string(self, player: int | None = None) -> str:
        """:func:`skitgubbe.adapters.encoding.observation_string` of the seat's view."""
        self._check(player)
        return encoding.observation_string(self._view)

    def view(self, seat: int) -> View:
        """The seat's view (as ``python_skitgubbe`` states have it)."""
        self._check(seat)
        return self._view

    def is_terminal(self) -> bool:
        """False: a decision is pending."""
        return False

    def is_chance_node(self) -> bool:
        """False."""
        return False

    def is_simultaneous_node(self) -> bool:
        """False."""
        return False

    def is_player_node(self) -> bool:
        """True."""
        return True

    def num_players(self) -> int:
        """Seats at the table."""
        return self._view.players

    def num_distinct_actions(self) -> int:
        """``NUM_ACTIONS``."""
        return encoding.NUM_ACTIONS

    def get_game(self) -> Any:
        """The game given to :func:`as_bot`; raises ``NotImplementedError`` without one."""
        if self._game is None:
            raise NotImplementedError("no game was given: as_bot(agent, game=pyspiel.load_game(...))")
        return self._game

    def _hidden(self, what: str) -> NotImplementedError:
        return NotImplementedError(f"{what} needs the deal's history or hidden cards, which an agent "
                                   "evaluated from its seat's view does not get; play through OpenSpiel "
                                   "(evaluate_bots) instead")

    def information_state_string(self, player: int | None = None) -> str:
        """The seat's information state string in the followed OpenSpiel game (class docstring);
        ``NotImplementedError`` without one, ``RuntimeError`` once the game has moved on from this
        state's decision."""
        self._check(player)
        state, p = self._info_state("information_state_string")
        return str(state.information_state_string(p))

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The seat's information state tensor in the followed OpenSpiel game (class docstring);
        ``NotImplementedError`` without one, ``RuntimeError`` once the game has moved on from this
        state's decision."""
        self._check(player)
        state, p = self._info_state("information_state_tensor")
        return list(state.information_state_tensor(p))

    def clone(self) -> ViewState:
        """Raises ``NotImplementedError`` (see the class docstring)."""
        raise self._hidden("clone")

    def child(self, action: int) -> ViewState:
        """Raises ``NotImplementedError`` (see the class docstring)."""
        raise self._hidden("child")

    def apply_action(self, action: int) -> None:
        """Raises ``NotImplementedError`` (see the class docstring)."""
        raise self._hidden("apply_action")

    def history(self) -> list[int]:
        """Raises ``NotImplementedError`` (see the class docstring)."""
        raise self._hidden("history")

    def resample_from_infostate(self, player: int, sampler: Any) -> ViewState:
        """Raises ``NotImplementedError`` (see the class docstring)."""
        raise self._hidden("resample_from_infostate")


class PyspielAgentBot:
    """A ``pyspiel.Bot`` (or a factory ``player_id -> pyspiel.Bot``, called once per seat) as a bot:
    :meth:`choose` hands it a :class:`ViewState` of the seat's view and maps the id it answers back
    to an Action.  Raises ``ValueError`` for an id that is not legal."""

    kind = "pyspiel"

    def __init__(self, bot: Any, *, name: str = "pyspiel", game: Any = None) -> None:
        self.bot = bot
        self.name = name
        self.game = game
        self._per_seat: dict[int, Any] = {}
        self._follower: DealFollower | None = None
        self._following = False

    def start_game(self, state: State, seat: int) -> Callable[[Any, int, Action], None] | None:
        """The harness's hook (:mod:`skitgubbe.batch.evaluate`): on a preset of one pack with
        ``open_spiel`` installed, follow the deal in the OpenSpiel game so that the bot's
        :class:`ViewState` answers the information state (else ``None``: the view alone)."""
        self._following = False
        if openspiel_rules_error(state.rules) is not None or "pyspiel" not in sys.modules:
            return None
        if self._follower is None:
            self._follower = DealFollower()
        self._following = True
        return self._follower.start(state)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The legal action the ``pyspiel.Bot`` steps to."""
        by_id = {encoding.action_id(a): a for a in legal}
        bot = self.bot
        if not _is_pyspiel_bot(bot):
            bot = self._per_seat.get(view.seat)
            if bot is None:
                bot = self._per_seat[view.seat] = self.bot(view.seat)
        follower = self._follower
        followed = None
        if self._following and follower is not None:
            followed = (follower, follower.player(view.seat, view.players))
        answer = int(bot.step(ViewState(view, sorted(by_id), self.game, followed)))
        if answer not in by_id:
            raise ValueError(f"pyspiel bot {self.name!r} answered action id {answer}, not a legal one "
                             f"(legal: {sorted(by_id)})")
        return by_id[answer]


_PYSPIEL_CLASS: list[type] = []


def pyspiel_bot(bot: Bot | str, rng: random.Random | None = None) -> Any:
    """The skitgubbe bot ``bot`` (a bot object, or a bot name of :func:`skitgubbe.bots.make_bot`
    made with ``rng``, default ``random.Random(0)``) as a ``pyspiel.Bot`` for ``python_skitgubbe``.

    Its ``step(state)`` gives the bot ``state.view(player)`` (with ``legal`` set to the state's legal
    actions, which under the OpenSpiel protocol may be only ``pass``) and returns the id of its
    choice in the state's game: on a game with ``compact_actions`` the legal ids are compact indexes,
    read through ``state.action_ids`` (the full id of each index), and the answer is an index too.
    On a game with ``auto_forced`` it is asked only when there is a choice.  ``restart_at`` and
    ``inform_action`` do nothing (a bot reads the whole view each time).
    Needs ``open_spiel`` (``ImportError`` without it).  Raises ``ValueError`` for an unknown bot
    name, ``TypeError`` for something that is not a bot, and ``ValueError`` from ``step`` if the
    bot answers an action that is not legal.
    """
    if isinstance(bot, str):
        bot = make_bot(bot, rng or random.Random(0))
    if not callable(getattr(bot, "choose", None)):
        raise TypeError(f"{bot!r:.80} is not a bot (an object with choose(view, legal)) or a bot name")
    if not _PYSPIEL_CLASS:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

        class BotAsPyspiel(pyspiel.Bot):  # type: ignore[misc]
            """A skitgubbe bot as a ``pyspiel.Bot`` (see :func:`pyspiel_bot`)."""

            def __init__(self, bot: Bot) -> None:
                pyspiel.Bot.__init__(self)
                self.bot = bot
                self.name = bot.name

            def step(self, state: Any) -> int:
                player = state.current_player()
                ids = [int(i) for i in state.legal_actions(player)]
                full = getattr(state, "action_ids", None)  # compact_actions: full id of each index
                legal = [encoding.action_of(full[i] if full is not None else i) for i in ids]
                view = state.view(player)._replace(legal=tuple(legal))
                action = self.bot.choose(view, legal)
                if action not in legal:
                    raise ValueError(f"bot {self.bot.name!r} chose {action}, not a legal action")
                return ids[legal.index(action)]

            def restart_at(self, state: Any) -> None:
                pass

            def inform_action(self, state: Any, player_id: int, action: int) -> None:
                pass

            def provides_policy(self) -> bool:
                return False

        _PYSPIEL_CLASS.append(BotAsPyspiel)
    return _PYSPIEL_CLASS[0](bot)


def bot_policy(bot: Bot | str, env: Any, rng: random.Random | None = None) -> Callable[[Any, Any], int]:
    """The skitgubbe bot ``bot`` (an object, or a name made with ``rng``) as a policy
    ``(observation, action_mask) -> action index`` for ``env``: a PettingZoo environment of this
    package (it acts for ``env.agent_selection``) or a Gymnasium one (for the learner's seat), also
    wrapped (``gym.make``: its ``unwrapped`` is used).

    The policy reads the acting seat's view from the environment (``env.view(...)``: that seat's
    information only), takes the legal actions from ``action_mask`` and answers the index of the
    bot's choice in the environment's action space (compact or not).  Raises ``TypeError`` for an
    environment without ``view`` and ``action_ids``, or something that is not a bot; the policy
    raises ``ValueError`` for an empty mask.
    """
    if isinstance(bot, str):
        bot = make_bot(bot, rng or random.Random(0))
    if not callable(getattr(bot, "choose", None)):
        raise TypeError(f"{bot!r:.80} is not a bot (an object with choose(view, legal)) or a bot name")
    base = getattr(env, "unwrapped", env)
    if not callable(getattr(base, "view", None)) or not hasattr(base, "action_ids"):
        raise TypeError(f"{env!r:.80} is not a skitgubbe PettingZoo or Gymnasium environment "
                        "(it needs view() and action_ids)")
    chooser: Bot = bot

    def policy(observation: Any, action_mask: Any) -> int:
        ids: tuple[int, ...] = base.action_ids
        indices = [k for k, m in enumerate(action_mask) if m]
        if not indices:
            raise ValueError("the action mask is empty: no agent is to act")
        legal = [encoding.action_of(ids[k]) for k in indices]
        agent = getattr(base, "agent_selection", None)
        view = base.view(agent) if agent is not None else base.view()
        action = chooser.choose(view._replace(legal=tuple(legal)), legal)
        return indices[legal.index(action)]

    policy.__name__ = f"{bot.name}_policy"
    return policy

