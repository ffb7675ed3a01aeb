"""OpenSpiel ``rl_environment``-style agents as skitgubbe bots, rated on the versioned deal set.

An OpenSpiel RL agent (``open_spiel.python.rl_agent.AbstractAgent``: the DQN, PolicyGradient,
NFSP and ``random_agent.RandomAgent`` of ``open_spiel.python``) is asked through
``step(time_step, is_evaluation=True)`` and answers a ``StepOutput(action, probs)``; it reads
``time_step.observations["info_state"][player]`` (the game's ``information_state_tensor``, or
its ``observation_tensor`` for an agent trained with ``rl_environment.Environment(...,
use_observation=True)``), ``["legal_actions"][player]`` and ``["current_player"]``.

:class:`OpenSpielAgentBot` gives it exactly that on the deals of
:func:`skitgubbe.batch.evaluate.evaluate`: for every game (``start_game``, the harness's hook) it
starts a ``python_skitgubbe`` state (:mod:`skitgubbe.adapters.openspiel`) and, after every action
of the harness's own game, takes the same step in it (:class:`DealFollower`), choosing at each
chance node the card that the harness's deal dictates: for the deal and every draw the card the
deck dictates (:class:`skitgubbe.engine.chance.DeckChance`, on a
:class:`~skitgubbe.engine.chance.ChanceState` kept in step), for the dreck, Koira's split or a
trick dealt round the order the harness's chance gave it.  So the agent's tensors are those of
the OpenSpiel game at the state the versioned deal has reached, and the other seats (the
ladder's bots) play exactly as they do against any other agent: a bot given directly and the
same decisions made by an OpenSpiel agent give the same games.  After each step the draws are
checked against the cards the harness's engine drew and the two games are compared (whose turn,
every hand); a difference raises ``RuntimeError``.

Seats: the OpenSpiel game deals from seat 0 (its dealer is seat 0), the deal set rotates the
dealer (``k % players``).  The OpenSpiel game of deal ``k`` is the harness's deal with every seat
number shifted down by the dealer, ``openspiel_seat = (seat - dealer) % players``: the agent's
``player_id`` and ``current_player`` are OpenSpiel seats.  Over the rotations of a deal the agent
sits in every OpenSpiel seat once.

Only the acting seat's entries are filled: ``observations["info_state"][p]`` and
``["legal_actions"][p]`` for another player ``p`` raise ``LookupError`` (its information state
would show that seat's cards), so an agent made for one ``player_id`` and asked as another says
so at once (give a list of agents or a factory).  The agent is asked at its own decisions only,
with ``StepType.FIRST`` at a game's first decision and ``MID`` after, rewards 0 and discounts 1
(``None`` at ``FIRST``); it is not shown the terminal step.

Needs the ``openspiel`` extra (``open_spiel`` and ``numpy``), imported when a game starts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..engine.actions import CHANCE, Action
from ..engine.chance import ChanceState, DeckChance
from ..engine.rules import Rules
from ..engine.state import State
from ..engine.variants import PRESETS
from ..engine.view import View
from . import encoding

__all__ = ["OBSERVATIONS", "DealFollower", "OpenSpielAgentBot", "SeatOnly", "check_same", "full_ids",
           "is_rl_agent", "openspiel_rules_error"]

OBSERVATIONS = ("info_state", "observation")
"""What ``observations["info_state"]`` holds: the information-state tensor (``rl_environment``'s
default) or the observation tensor (``use_observation=True``)."""

_DRAW_KINDS = frozenset({"draw", "stock", "trump-aside", "trump-drawn", "reserve-draw"})
"""Engine event kinds that report a card taken from the stock or the avstickshög (one chance
node each in the OpenSpiel game, in this order)."""


def is_rl_agent(agent: object) -> bool:
    """True for an object with a callable ``step`` that is not a ``pyspiel.Bot`` (those have
    ``step(state)``), or a non-empty list or tuple of such objects (one per seat)."""
    if isinstance(agent, (list, tuple)):
        return bool(agent) and all(is_rl_agent(a) for a in agent)
    import sys

    pyspiel = sys.modules.get("pyspiel")
    if pyspiel is not None and isinstance(agent, pyspiel.Bot):
        return False
    return callable(getattr(agent, "step", None)) and not callable(getattr(agent, "choose", None))


class SeatOnly(list):  # type: ignore[type-arg]
    """A per-player list with only the acting seat's entry: reading another index raises
    ``LookupError`` saying why (its entry would show that seat's hidden cards).  Iterating gives
    ``None`` for the other seats."""

    def __init__(self, players: int, seat: int, value: object) -> None:
        super().__init__([None] * players)
        list.__setitem__(self, seat, value)
        self.seat = seat

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, int) and index % len(self) != self.seat:
            raise LookupError(
                f"the observations of player {index} are not given to the agent acting as player "
                f"{self.seat} (another seat's information state would show its cards); an agent made "
                "for one player_id is given as a list of agents, one per player, or a factory "
                "player_id -> agent (as_bot(..., kind='openspiel'))")
        return list.__getitem__(self, index)


_NO_ENGINE = object()


def full_ids(os_state: Any) -> tuple[int, ...]:
    """The full action id (:mod:`skitgubbe.adapters.encoding`) of each of ``os_state``'s action
    ids: its ``action_ids`` (the compact space of a game with ``compact_actions``), else all."""
    ids = getattr(os_state, "action_ids", None)
    return tuple(ids) if ids is not None else tuple(range(encoding.NUM_ACTIONS))


def check_same(os_state: Any, state: State, dealer: int) -> None:
    """Raise ``RuntimeError`` unless ``os_state`` (a ``python_skitgubbe`` state, or a
    :class:`~skitgubbe.engine.chance.ChanceState` in the same seats) has the same player to act
    (or chance, or the end) and, if it shows its ``engine``, the same hands as the engine
    ``state``, seats shifted down by ``dealer``."""
    n = state.players
    p = int(os_state.current_player())
    if state.is_over:
        if not os_state.is_terminal():
            raise RuntimeError("the engine's deal is over but the OpenSpiel game is not")
        return
    expected = CHANCE if state.to_act == CHANCE else (state.to_act - dealer) % n
    if p != expected:
        raise RuntimeError(f"the engine has {state.to_act} to act (OpenSpiel player {expected}), "
                           f"the OpenSpiel game {p}")
    engine: Any = getattr(os_state, "engine", _NO_ENGINE)  # the adapter's engine state, when it shows one
    if engine is None:
        raise RuntimeError("the OpenSpiel game is still dealing")
    if engine is not _NO_ENGINE:
        for s in range(n):
            if engine.hands[(s - dealer) % n] != state.hands[s]:
                raise RuntimeError(f"seat {s}'s hand differs in the OpenSpiel game")


class _ChanceView:
    """A :class:`~skitgubbe.engine.chance.ChanceState` with the two methods :func:`check_same`
    asks of an OpenSpiel state."""

    def __init__(self, cs: ChanceState) -> None:
        self.engine = cs.engine
        self._cs = cs

    def current_player(self) -> int:
        return -4 if self._cs.is_over else self._cs.to_act  # pyspiel's TERMINAL is -4

    def is_terminal(self) -> bool:
        return self._cs.is_over


def _time_step(os_state: Any, player: int, tensor: Any, ids: list[int], first: bool) -> Any:
    """The ``rl_environment.TimeStep`` for ``player`` to act (module docstring)."""
    from open_spiel.python import rl_environment  # type: ignore[import-not-found, import-untyped, unused-ignore]

    n = int(os_state.num_players())
    observations = {
        "info_state": SeatOnly(n, player, tensor),
        "legal_actions": SeatOnly(n, player, ids),
        "current_player": player,
        "serialized_state": [],
    }
    if first:
        return rl_environment.TimeStep(observations=observations, rewards=None, discounts=None,
                                       step_type=rl_environment.StepType.FIRST)
    return rl_environment.TimeStep(observations=observations, rewards=[0.0] * n, discounts=[1.0] * n,
                                   step_type=rl_environment.StepType.MID)


def openspiel_rules_error(rules: Rules) -> str | None:
    """Why the OpenSpiel game cannot play ``rules`` (a house-rules file, two packs), or ``None``."""
    if PRESETS.get(rules.name) != rules or rules.decks != 1:
        one_pack = sorted(k for k, r in PRESETS.items() if r.decks == 1)
        return (f"the OpenSpiel game plays the presets of one pack, not {rules.name!r}: give one of "
                f"{', '.join(one_pack)}")
    return None


class DealFollower:
    """The harness's deal played along in the OpenSpiel game ``python_skitgubbe`` (module
    docstring): :meth:`start` at each game, then the observer it returns after every action.

    Args:
        compact_actions: load the game with ``compact_actions=True`` (its action ids are the
            preset's compact indexes).

    Attributes:
        state: the ``python_skitgubbe`` state of the game being followed (``None`` before the
            first); it holds every seat's cards: hand an agent only its own seat's parts.
        dealer: the dealer of the followed deal (OpenSpiel player ``p`` is seat ``(p + dealer) %
            players``).
        steps: actions followed in this game so far.
    """

    def __init__(self, *, compact_actions: bool = False) -> None:
        self.compact_actions = compact_actions
        self.state: Any = None
        self.dealer = 0
        self.steps = 0
        self._events = 0
        self._games: dict[tuple[str, int, int], Any] = {}
        self._chance: ChanceState | None = None
        self._deck: DeckChance | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_games"] = {}  # pyspiel games are loaded again in each process
        state["state"] = state["_chance"] = state["_deck"] = None
        return state

    def player(self, seat: int, players: int) -> int:
        """The OpenSpiel player of the harness's ``seat``: ``(seat - dealer) % players``."""
        return (seat - self.dealer) % players

    def game(self, rules: Rules, players: int, max_turns: int = 0) -> Any:
        """The ``python_skitgubbe`` game of ``rules`` at ``players`` seats (loaded once), with a turn
        cap of at least ``max_turns``.  Raises ``ValueError`` for rules it does not have
        (:func:`openspiel_rules_error`) and ``ImportError`` without ``open_spiel``."""
        why = openspiel_rules_error(rules)
        if why is not None:
            raise ValueError(why)
        key = (rules.name, players, max_turns)
        game = self._games.get(key)
        if game is None:
            import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

            from . import openspiel

            params: dict[str, Any] = {"rules": rules.name, "players": players,
                                      "compact_actions": self.compact_actions}
            if max_turns > openspiel.DEFAULT_MAX_TURNS:
                params["max_turns"] = max_turns
            game = self._games[key] = pyspiel.load_game(openspiel.GAME_NAME, params)
        return game

    def start(self, state: State) -> Callable[[Any, int, Action], None]:
        """Start following ``state`` (a new game of the harness, before its first action) and
        return the observer ``(state, seat, action)`` to call after each of its actions.  Raises
        as :meth:`game` does, and ``RuntimeError`` if the OpenSpiel game leaves the deal (it
        should never)."""
        rules, n = state.rules, state.players
        self.state = self.game(rules, n, state.action_limit).new_initial_state()
        # the deal in the OpenSpiel game's seats (its dealer is seat 0): the same deck dealt from seat 0
        cs = self._chance = ChanceState.new(rules, n, dealer=0, ask_every_seat=True,
                                            action_limit=state.action_limit)
        deck = self._deck = DeckChance(state.deck)
        self.dealer = state.dealer
        self.steps = 0
        self._events = len(state.events)
        while cs.engine is None:
            self._feed(deck.outcome(cs), "the deal")
        check_same(self.state, state, self.dealer)

        def observe(st: Any, seat: int, action: Action) -> None:
            events = st.events[self._events:]
            self._events = len(st.events)
            self._follow(st, seat, action, events)
            self.steps += 1

        return observe

    def _feed(self, card: int, what: str) -> None:
        """Give chance's ``card`` to both the chance-step deal and the OpenSpiel game."""
        cs = self._chance
        if cs is None or not cs.is_chance or int(self.state.current_player()) != CHANCE:
            raise RuntimeError(f"the OpenSpiel game is not at a chance node for {what}")
        cs.apply(card)
        self.state.apply_action(card)

    def _follow(self, state: State, seat: int, action: Action, events: Sequence[Any]) -> None:
        """Take in the OpenSpiel game the step ``action`` of ``seat`` the harness's ``state`` has
        just taken (``events`` its events), chance nodes included (module docstring)."""
        n = state.players
        cs, deck = self._chance, self._deck
        if cs is None or deck is None:
            raise RuntimeError("no game was started")
        if seat == CHANCE:  # a chance deal: the order the harness's chance gave it
            for card in action.order:
                self._feed(card, "a chance deal")
        else:
            player = self.player(seat, n)
            if int(self.state.current_player()) != player:
                raise RuntimeError(f"seat {seat} acted in the engine but OpenSpiel player "
                                   f"{self.state.current_player()} is to act")
            cs.apply(action, player, trusted=True)
            full = encoding.action_id(action)
            ids = full_ids(self.state)
            self.state.apply_action(full if len(ids) == encoding.NUM_ACTIONS else ids.index(full))
        drawn: list[int] = []
        while cs.is_chance and cs.pending is not None:  # the cards the step takes: as the deck dictates
            card = deck.outcome(cs)
            drawn.append(card)
            self._feed(card, "a card drawn")
        taken = [state.trump_card if e.kind == "trump-aside" else e.cards.bit_length() - 1
                 for e in events if e.kind in _DRAW_KINDS]  # (the card set aside is not in its event)
        if drawn != taken:
            raise RuntimeError(f"the deck dictated draws {drawn} but the engine drew {taken}")
        check_same(self.state, state, self.dealer)
        check_same(_ChanceView(cs), state, self.dealer)


class OpenSpielAgentBot:
    """An OpenSpiel RL agent as a bot for :func:`skitgubbe.batch.evaluate.evaluate` (module
    docstring).

    Args:
        agent: one agent (an object with ``step(time_step, is_evaluation=...)``) asked at every
            seat; or a list or tuple of them indexed by OpenSpiel player (as trained:
            ``agents[p]`` has ``player_id=p``; the list's length must be the seat count); or,
            with ``factory=True``, a callable ``player_id -> agent`` called once per player.
        name: the bot's name.
        observation: ``"info_state"`` (default) or ``"observation"`` (:data:`OBSERVATIONS`).
        compact_actions: the agent's action ids are indexes of the preset's compact action space
            (a game loaded with ``compact_actions=True``).
        auto_forced: a decision with a single legal action is taken without asking the agent (as
            a game loaded with ``auto_forced=True`` takes it; the tensors at the agent's own
            decisions are the same either way).
        factory: ``agent`` is a factory ``player_id -> agent``.

    Raises ``ValueError`` for an unknown ``observation`` and ``TypeError`` for an agent that is
    not one.  :meth:`start_game` raises ``ValueError`` for rules the OpenSpiel game does not
    have (a house-rules file, two packs) or a list of the wrong length, ``ImportError`` without
    ``open_spiel``; :meth:`choose` raises ``RuntimeError`` if no game was started (the agent is
    played by ``evaluate`` only) and ``ValueError`` if the agent answers no legal action id.
    """

    kind = "openspiel"

    def __init__(self, agent: Any, *, name: str = "openspiel", observation: str = "info_state",
                 compact_actions: bool = False, auto_forced: bool = False, factory: bool = False) -> None:
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {observation!r}")
        if factory:
            if not callable(agent):
                raise TypeError(f"{agent!r:.80} is not a factory player_id -> agent")
        elif not is_rl_agent(agent):
            raise TypeError(f"{agent!r:.80} is not an OpenSpiel agent: give an object with "
                            "step(time_step, is_evaluation), a list of them (one per player) or a factory "
                            "player_id -> agent")
        self.agent = agent
        self.name = name
        self.observation = observation
        self.compact_actions = compact_actions
        self.auto_forced = auto_forced
        self.factory = factory
        self._made: dict[int, Any] = {}
        self._follower = DealFollower(compact_actions=compact_actions)
        self._started = False

    @property
    def state(self) -> Any:
        """The ``python_skitgubbe`` state of the game being played (the last one once it is over;
        ``None`` before the first).  Read it, do not change it: it holds every seat's cards."""
        return self._follower.state

    def _agent_for(self, player: int) -> Any:
        if self.factory:
            made = self._made.get(player)
            if made is None:
                made = self._made[player] = self.agent(player)
                if not is_rl_agent(made):
                    raise TypeError(f"the factory gave {made!r:.80} for player {player}, not an OpenSpiel "
                                    "agent (an object with step(time_step, is_evaluation))")
            return made
        if isinstance(self.agent, (list, tuple)):
            return self.agent[player]
        return self.agent

    def check(self, rules: Rules, players: int) -> None:
        """Raise ``ValueError`` unless the agent can be rated on ``rules`` at ``players`` seats: a
        preset of one pack (the OpenSpiel game has no other rules) and, for a list of agents, one
        per seat; ``ImportError`` without ``open_spiel``."""
        why = openspiel_rules_error(rules)
        if why is not None:
            raise ValueError(f"an OpenSpiel agent is rated on a preset of one pack: {why}")
        try:
            import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]  # noqa: F401
        except ImportError as e:
            raise ImportError(f"an OpenSpiel agent is rated in the OpenSpiel game, which needs the "
                              f"openspiel extra (pip install 'skitgubbe[openspiel]'): {e}") from e
        if isinstance(self.agent, (list, tuple)) and len(self.agent) != players:
            raise ValueError(f"{len(self.agent)} OpenSpiel agents for {players} players: give one per player")

    def start_game(self, state: State, seat: int) -> Callable[[Any, int, Action], None]:
        """The harness's hook (:mod:`skitgubbe.batch.evaluate`): start the OpenSpiel game of
        ``state``'s deal and return the observer that follows it (see the class docstring for the
        errors)."""
        rules = state.rules
        n = state.players
        self.check(rules, n)
        self._started = True
        return self._follower.start(state)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The legal action the agent steps to at ``view``'s seat (the class docstring)."""
        os_state = self._follower.state
        if not self._started:
            raise RuntimeError("an OpenSpiel agent follows the deal in the OpenSpiel game: it is played by "
                               "skitgubbe.batch.evaluate.evaluate (skitgubbe evaluate) only")
        player = self._follower.player(view.seat, view.players)
        if int(os_state.current_player()) != player:
            raise RuntimeError(f"seat {view.seat} is asked but OpenSpiel player "
                               f"{os_state.current_player()} is to act")
        ids = [int(i) for i in os_state.legal_actions(player)]
        full = full_ids(os_state)
        by_id = {encoding.action_id(a): a for a in legal}
        if sorted(full[i] for i in ids) != sorted(by_id):
            raise RuntimeError(f"the OpenSpiel game's legal actions differ from the engine's at seat "
                               f"{view.seat}")
        if self.auto_forced and len(ids) == 1:
            return by_id[full[ids[0]]]
        if self.observation == "info_state":
            tensor = os_state.information_state_tensor(player)
        else:
            tensor = os_state.observation_tensor(player)
        agent = self._agent_for(player)
        time_step = _time_step(os_state, player, tensor, ids, self._follower.steps == 0)
        out = agent.step(time_step, is_evaluation=True)
        answer = getattr(out, "action", out)
        if answer is None:
            raise ValueError(f"OpenSpiel agent {self.name!r} gave no action as player {player} (an agent "
                             "made for one player_id acts only as that player: give a list of agents, one "
                             "per player, or a factory player_id -> agent)")
        try:
            k = int(answer)
        except (TypeError, ValueError):
            raise ValueError(f"OpenSpiel agent {self.name!r} answered {answer!r:.60}, "
                             "not an action id") from None
        if k not in ids:
            raise ValueError(f"OpenSpiel agent {self.name!r} answered action id {k}, not a legal one "
                             f"(legal: {ids})")
        return by_id[full[k]]
