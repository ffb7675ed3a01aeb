"""The ``ismcts`` bot: Information Set Monte Carlo Tree Search over the engine's own rules.

Single-observer IS-MCTS (SO-ISMCTS) as in Cowling, Powley and Whitehouse, "Information Set
Monte Carlo Tree Search", IEEE Transactions on Computational Intelligence and AI in Games 4(2),
2012, Algorithm 3.  One tree is grown for the bot's own information set.  Each iteration:

1. **determinize**: deal the cards the bot has not seen at random
   (:class:`skitgubbe.bots.determinize.Determinizer`), giving a complete engine State;
2. **select**: from the root, while every legal action of the seat to act in this world already
   has a child, follow the child with the best UCB1 value with availability counts,
   ``mean reward + c * sqrt(ln(availability) / visits)``, where a child's availability counts the
   iterations in which its action was legal when its parent was reached; children are keyed by
   ``(seat, Action)``, the rewards are those of the seat that took the action;
3. **expand**: add one child for an untried legal action, chosen at random;
4. **roll out**: play to the end with the rollout policy (:data:`ROLLOUTS`): ``greedy`` (the
   default) plays phase one at random (the engine's fast
   :meth:`~skitgubbe.engine.state.State.random_action`) and phase two greedily
   (:func:`~skitgubbe.bots.playouts.greedy_two`: go out if possible, else the play that sheds the
   most cards for the lowest top card, picking up only when nothing can be played), almost as
   fast as random play and a far better judge of phase two, where random play picks up at random;
   ``random`` plays both phases at random; ``heuristic`` runs
   :class:`~skitgubbe.bots.heuristic.HeuristicBot` on each seat's view of the sample (several
   times slower per iteration); ``mixed`` is the heuristic bot in phase one and greedy in phase
   two; ``heuristic-two`` plays phase one at random and phase two by the heuristic rule
   (:func:`~skitgubbe.bots.playouts.heuristic_two`, what the counter bot's rollouts play), about
   a fifth slower in phase one than ``greedy`` and a better judge of who loses phase two;
5. **back-propagate** the result from every seat's point of view: -1 for the loser,
   ``+1/(players-1)`` for the others, 0 for all when the deal is abandoned (the engine's action
   limit, or :attr:`ISMCTSBot.rollout_limit` actions in one rollout).

**Phase two: the counter model** (``model="counter"``, the default).  A search that starts in
phase two models the other seats as counter bots, the strongest opponents this package has:

* in the tree, a seat other than the searcher plays the move of
  :func:`~skitgubbe.bots.counter.counter_two` (the counter bot's phase-two rule read off the
  sample) instead of branching; the tree branches on the searcher's own moves only, and a node of
  another seat has one child per move the model made there over the samples (one, where every
  card is known, as in pagat's phase two);
* the rollout plays every seat by that rule for :attr:`ISMCTSBot.model_depth` actions, then by
  the heuristic rule (:func:`~skitgubbe.bots.playouts.heuristic_two`, the rule the counter bot's
  own rollouts use);
* a model move is remembered by position for the rest of the deal (a world whose cards are all
  known comes back in every iteration, and the next decision searches much the same positions),
  and so is where each heuristic playout led (:data:`~skitgubbe.bots.playouts.OutcomeMemo`): a
  playout, or a rollout of the model's rule, that reaches a remembered position stops there;
* the tree is kept from one decision to the next (:attr:`ISMCTSBot.reuse`): when the deal has
  reached a node of the latest tree (this seat's move, then the others' moves as the model
  predicted them), the next search goes on from that node with its visits;
* before searching, a two-seat endgame that the counter bot's exhaustive search wins outright
  (:meth:`~skitgubbe.bots.counter.CounterBot.endgame`) is played as it finds
  (:attr:`ISMCTSBot.endgame`).

Against counter bots the model predicts their phase-two moves (about 95% of the decisions with a
choice; docs/bots.md); against other opponents it is a guess at sound play.  Searches that start
in phase one are not modelled (the model is costly, and a phase-one rollout goes through the whole
of phase two).

**Time bank** (``bank=True``).  A time budget can be earned per decision instead of capping each:
phase one spends :attr:`ISMCTSBot.phase_one_share` of it and banks the rest, phase two spends up
to :attr:`ISMCTSBot.bank_draw` budgets more from the bank.  A phase-two iteration costs about ten
phase-one iterations, and in goat the phase-one search gains little; docs/bots.md has the figures.

**Compiled rollouts** (``engine="auto"``, the default).  Where the compiled engine is installed
and plays the rules (:func:`skitgubbe.engine.compiled.unsupported`), the rollouts and the
phase-two rules run in compiled code (:class:`~skitgubbe.bots.compiled_model.CompiledModel`,
native/src/model.hpp):

* in a modelled phase-two search, each rollout is played there whole and the model's moves in the
  tree are worked out there; these make the same moves as the Python rules
  (tests/test_compiled_model.py) but remember no positions, so a search could differ from the
  Python one only where a remembered position stood in for a playout that an action limit cuts
  short, or for a model move whose loop check read another history;
* any other search with a ``random``, ``greedy`` or ``heuristic-two`` rollout loads the sample at
  the end of the tree into a compiled state
  (:meth:`~skitgubbe.engine.compiled.CompiledState.from_state`) and plays the rollout there:
  random moves of the same distribution, drawn from the compiled engine's generator (seeded with
  64 bits of ``rng`` a rollout), so such a search is not move for move the Python one.

The tree and the determinizations stay in Python, and so does the heuristic bot's play in the
``heuristic`` rollouts and in the phase one of ``mixed`` ones (it reads a View); a ``mixed``
rollout plays its greedy phase two in compiled code.  ``engine="python"`` (bot name suffix
``-python``) keeps everything in Python, the reference; ``engine="compiled"`` refuses rules the
compiled engine does not play.  About 14 to 17 times the iterations a second of the Python search
(docs/bots.md, "Compiled rollouts").

Chance (the order of a dreck dealt to several seats) is not part of the tree: it is sampled
with :meth:`~skitgubbe.engine.state.State.chance_action` where it comes.  The move played is the root
child visited most (ties: the better mean reward, then the first found).

A bot only gets a :class:`~skitgubbe.engine.view.View`: :meth:`ISMCTSBot.choose` rebuilds a State from
it with :func:`skitgubbe.engine.worlds.world_from_view` (which uses the public history) and
determinizes that; nothing the seat may not see is used.  :meth:`ISMCTSBot.search` searches
from any State for a given seat, reading only what that seat may know.

Nothing here depends on the preset: every rule comes from the engine.

``python -m skitgubbe.batch.searchspeed --rules pagat --players 3`` measures speed and strength
(:func:`skitgubbe.batch.searchspeed.main`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import cast

from ..engine.actions import CHANCE, Action
from ..engine.base import Phase
from ..engine.rules import Rules
from ..engine.state import State
from ..engine.view import History, View, view_of
from ..engine.worlds import world_from_view
from .compiled_model import RANDOM_ROLLOUT_RULES, CompiledModel, compiled_model
from .counter import CounterBot, counter_two
from .determinize import Determinizer
from .heuristic import HeuristicBot
from .playouts import OutcomeMemo, greedy_two, heuristic_loser, heuristic_two

__all__ = ["ENGINES", "ISMCTSBot", "ROLLOUTS"]

_OVER = Phase.OVER
_TWO = Phase.TWO

ROLLOUTS = ("random", "heuristic", "greedy", "mixed", "heuristic-two")
"""The rollout policies (see the module docstring)."""

ENGINES = ("auto", "compiled", "python")
"""Where the rollouts and the phase-two rules run (see the module docstring, "Compiled rollouts")."""


class _Node:
    """A node of the tree: the action that led to it was taken by ``seat``.

    ``visits``: iterations that went through it; ``reward``: their total reward for ``seat``;
    ``avail``: iterations in which its action was legal when its parent was reached;
    ``children``: ``{(seat, Action): _Node}``.
    """

    __slots__ = ("seat", "visits", "reward", "avail", "children")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.reward = 0.0
        self.avail = 0
        self.children: dict[tuple[int, Action], _Node] = {}


class ISMCTSBot:
    """SO-ISMCTS (see the module docstring) under any :class:`~skitgubbe.engine.rules.Rules`.

    Args:
        rng: the bot's only source of randomness (determinizations, expansion, rollouts); with an
            iteration budget and no time budget the bot is deterministic given ``rng``.
        iterations: stop after this many iterations per decision (None: no iteration limit).
        seconds: stop after this much wall-clock time per decision, measured with
            ``time.perf_counter`` (None: no time limit).  The search stops at whichever limit comes
            first, and always runs at least one iteration.
        rollout: one of :data:`ROLLOUTS`: ``"greedy"`` (the default), ``"random"``, ``"heuristic"``,
            ``"mixed"`` or ``"heuristic-two"`` (see the module docstring).
        exploration: the UCB1 constant ``c`` (rewards lie in -1..1).
        prior: ``"counter"`` (the default) or None.  With ``"counter"`` the
            :class:`~skitgubbe.bots.counter.CounterBot` names a guide action for the seat's view
            before the search (in a phase-two search with the model: the model's move in the first
            sample, the same rule without the bot's own sampled worlds); it is expanded first, and
            when the move is chosen it gets :attr:`prior_share` of the iterations as extra visits.
            A small search then plays the counter bot's move unless its rollouts clearly say
            otherwise.
        model: ``"counter"`` (the default) or None.  With ``"counter"``, a search from a phase-two
            position models the other seats as counter bots: in the tree their moves are
            :func:`~skitgubbe.bots.counter.counter_two` (the tree branches on this seat's moves
            only), and the rollouts play every seat by that rule for :attr:`model_depth` actions,
            then by :func:`~skitgubbe.bots.playouts.heuristic_two` (module docstring, "Phase two").
            With None, phase two is searched as phase one.
        bank: with a time budget, treat ``seconds`` as the time earned per searched decision, as on
            a clock with an increment, rather than as a cap on each: a decision outside phase two
            spends :attr:`phase_one_share` of it and the rest goes into :attr:`bank` (seconds); a
            phase-two decision spends ``seconds`` plus what the bank holds, up to
            :attr:`bank_draw` times ``seconds`` more.  What a search really took is charged, so
            over a deal the searches take at most ``seconds`` times the searched decisions, plus
            whatever the bank still owes at the end (the first iteration always runs).  Ignored
            without a time budget.
        engine: one of :data:`ENGINES`: ``"auto"`` (the default: the rollouts and the phase-two
            rules in compiled code where the compiled engine plays the rules, else in Python),
            ``"compiled"`` (compiled code, or ``ValueError`` at the first search under rules it
            does not play) or ``"python"`` (module docstring, "Compiled rollouts").

    Attributes (statistics, read them): ``last_iterations`` and ``last_seconds`` of the latest
    search; ``last_reused``: the visits its root already had from the search before
    (:attr:`reuse`); ``iterations``, ``seconds`` and ``searches``: totals over every search so far
    (a decision with a single legal action is not searched); ``bank``: the seconds saved for
    phase two with ``bank=True`` (0.0 otherwise; back to 0.0 when a new deal begins, negative
    while searches have overrun); ``last_root``: the root node of the latest search's tree (nodes
    have ``seat``, ``visits``, ``reward``, ``avail`` and ``children``, ``{(seat, Action): node}``),
    or None before the first search.

    Raises ``ValueError`` for an unknown rollout policy, model or engine, a budget that is not
    positive, or no budget at all.
    """

    name = "ismcts"

    prior_share: float = 0.15
    """With a prior, the guide's action counts this share of the search's iterations as extra visits
    when the move is chosen: another action is played only if the search clearly prefers it.
    (Against counter bots, 100 duplicate deals each, 0.15 lost 12.8% in pagat, 11.7% in goat and
    6.8% in goat at four seats where 0.3 lost 15.5%, 12.3% and 11.8%; docs/bots.md, "The
    guide".)"""

    rollout_limit: int = 5000
    """A rollout longer than this many actions is scored as abandoned (0 for every seat)."""

    model_depth: int = 12
    """With the counter model in phase two: the rollout actions played by the model before the
    heuristic rule takes over (each model move costs a heuristic rollout per legal action)."""

    phase_one_share: float = 0.3
    """With ``bank=True``: the share of the time budget a decision outside phase two spends."""

    endgame: bool = True
    """In phase two, before searching: play a move that wins a two-seat endgame whatever the
    other seat does, when the counter bot's exhaustive endgame search finds one
    (:meth:`~skitgubbe.bots.counter.CounterBot.endgame`: every card known, at most 12 cards left)."""

    reuse: bool = True
    """In a modelled phase-two search: search on from the node of the latest search's tree that
    the deal has reached (:meth:`_reuse`), keeping its statistics, rather than from a new root."""

    bank_draw: float = 1.0
    """With ``bank=True``: a phase-two decision draws at most this many budgets from the bank, on
    top of its own."""

    def __init__(
        self,
        rng: random.Random,
        *,
        iterations: int | None = 200,
        seconds: float | None = None,
        rollout: str = "greedy",
        exploration: float = 0.7,
        prior: str | None = "counter",
        model: str | None = "counter",
        bank: bool = False,
        engine: str = "auto",
    ) -> None:
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(map(repr, ENGINES))}, not {engine!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(map(repr, ROLLOUTS))}, not {rollout!r}")
        if iterations is None and seconds is None:
            raise ValueError("give an iteration budget, a time budget, or both")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be positive, not {seconds}")
        self.rng = rng
        self.budget_iterations = iterations
        self.budget_seconds = seconds
        self.rollout = rollout
        self.exploration = exploration
        self._policy = HeuristicBot(rng) if rollout in ("heuristic", "mixed") else None
        if prior not in (None, "counter"):
            raise ValueError(f"prior must be 'counter' or None, not {prior!r}")
        self.prior = prior
        self._prior: CounterBot | None = CounterBot(rng) if prior == "counter" else None
        self._solver = self._prior if self._prior is not None else CounterBot(rng)
        if model not in (None, "counter"):
            raise ValueError(f"model must be 'counter' or None, not {model!r}")
        self.model = model
        self.time_bank = bank
        self.bank = 0.0
        self.engine = engine
        self._models: dict[tuple[Rules, int], CompiledModel | None] = {}  # (rules, players) -> model
        self._cm: CompiledModel | None = None  # the compiled model of the current search, if any
        self._bank_history = -1  # the history length at the latest banked search
        self._seat = -1  # the searching seat while the model is in use, else -1
        self._moves: dict[tuple[object, ...], Action] = {}
        self._outcomes: OutcomeMemo = {}
        self._memo_rules: object = None
        self._memo_history: list[tuple[int, Action]] = []
        # the latest modelled phase-two tree: (root, seat); it belongs to the deal the memos do
        self._tree: tuple[_Node, int] | None = None
        self.last_reused = 0
        self._modelled = 0  # the history length up to which the current rollout plays the model
        self.last_iterations = 0
        self.last_root: _Node | None = None
        self.last_seconds = 0.0
        self.iterations = 0
        self.seconds = 0.0
        self.searches = 0

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The action of ``legal`` (non-empty) that the search prefers for ``view.seat``, from the
        view alone (:func:`~skitgubbe.engine.worlds.world_from_view`).  A single legal action is
        returned at once."""
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        if self.endgame and view.phase == _TWO:
            won = self._solver.endgame(view, legal)
            if won is not None:
                return won
        # the seats given a split dreck are public but not (yet) in the View; if a View carries
        # them as ``needy``, the samples keep the dreck cards among them; the search never reads
        # the events, which every clone would copy
        state = world_from_view(view, needy=getattr(view, "needy", ()), events=False)
        return self.search(state, view.seat, legal, started=start)

    def search(self, state: State, seat: int, legal: Sequence[Action] | None = None, *,
               started: float | None = None) -> Action:
        """Search from ``state`` for ``seat`` (which must be the seat to act) and return its
        chosen action among ``legal`` (default: its legal actions in ``state``).  Only what
        ``seat`` may know of ``state`` is used (see :class:`~skitgubbe.bots.determinize.Determinizer`).
        ``started``: the ``time.perf_counter()`` the time budget counts from (default: now).

        Raises ``ValueError`` if ``seat`` is not the seat to act.
        """
        if state.to_act != seat:
            raise ValueError(f"seat {seat} is not to act (seat {state.to_act} is)")
        if legal is None:
            legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter() if started is None else started
        allowance = self._allowance(state, seat)
        deadline = None if allowance is None else start + allowance
        limit = self.budget_iterations
        det = Determinizer(state, seat)
        rng = self.rng
        self._seat = seat if self.model is not None and state.phase == _TWO else -1
        self._cm = self._compiled(state)
        since = self._remember(state)
        root = self._reuse(state, seat, since) if self._seat >= 0 and self.reuse else None
        if root is None:
            root = _Node(-1)
        self.last_reused = root.visits
        world = det.sample(rng)
        guide: Action | None = None
        if self._prior is not None:
            if self._seat >= 0:  # the model is the counter bot's rule: read it off the first sample
                guide = self._model_move(world, seat)
            else:
                guide = self._prior.choose(view_of(state, seat), legal)
            # the guide's action is expanded first
            root.children[(seat, guide)] = _Node(seat)
        done = 0
        while True:
            self._iterate(root, world, rng)
            done += 1
            if limit is not None and done >= limit:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            world = det.sample(rng)
        self.last_root = root
        self._tree = (root, seat) if self._seat >= 0 else None
        elapsed = time.perf_counter() - start
        if self.time_bank and self.budget_seconds is not None:
            self.bank += self.budget_seconds - elapsed
        self.last_iterations = done
        self.last_seconds = elapsed
        self.iterations += done
        self.seconds += elapsed
        self.searches += 1
        best: Action | None = None
        best_key: tuple[float, float] = (-1.0, -math.inf)
        bonus = self.prior_share * root.visits
        for a in legal:
            child = root.children.get((seat, a))
            if child is not None and child.visits:
                key = (child.visits + (bonus if a == guide else 0.0), child.reward / child.visits)
                if key > best_key:
                    best, best_key = a, key
        if best is None:
            best = guide if guide is not None else legal[rng.randrange(len(legal))]
        return best

    def _remember(self, state: State) -> int:
        """Keep the remembered model moves and playouts, and the latest tree, for a search in the
        same deal (within a deal they depend on the position alone); start afresh for another deal
        (a history that does not go on from the one of the latest search: the trump suit may
        differ), other rules, or memos grown past their limit.  Returns the length of the latest
        search's history when this search is in the same deal, else -1."""
        now = state.history
        k = len(self._memo_history)
        same = state.rules is self._memo_rules and len(now) >= k and now[:k] == self._memo_history
        if not same or len(self._moves) > _MOVES_LIMIT:
            self._moves = {}
            self._outcomes = {}
            self._tree = None
            self._memo_rules = state.rules
        self._memo_history = list(now)
        return k if same else -1

    def _reuse(self, state: State, seat: int, since: int) -> _Node | None:
        """The node of the latest modelled phase-two tree that ``state`` has reached, to search on
        from: the latest search was for ``seat`` in this deal, at history length ``since``
        (:meth:`_remember`), and every action since (``seat``'s move, then the other seats'
        moves) is a child in the tree, the others' moves being those the model predicted.  None
        otherwise."""
        tree = self._tree
        if tree is None or since < 0:
            return None
        node, was_seat = tree
        now = state.history
        if was_seat != seat or len(now) <= since:
            return None
        for step in now[since:]:
            child = node.children.get(step)
            if child is None:
                return None
            node = child
        node.seat = -1
        return node

    def _compiled(self, state: State) -> CompiledModel | None:
        """The compiled phase-two rules for ``state``'s rules and seat count under
        :attr:`engine` (None: play them in Python).  Raises ``ValueError`` with the reason when
        ``engine="compiled"`` and the compiled engine cannot play them."""
        if self.engine == "python":
            return None
        key = (state.rules, state.players)
        if key not in self._models:
            make = CompiledModel if self.engine == "compiled" else compiled_model
            self._models[key] = make(state.rules, state.players)
        return self._models[key]

    def _allowance(self, state: State, seat: int) -> float | None:
        """The seconds this search may take (None: no time budget); see ``bank``."""
        seconds = self.budget_seconds
        if seconds is None or not self.time_bank:
            return seconds
        if len(state.history) < self._bank_history:  # a new deal: nothing saved yet
            self.bank = 0.0
        self._bank_history = len(state.history)
        share = seconds * self.phase_one_share
        if state.phase != _TWO:
            return share
        return max(share, seconds + min(self.bank, seconds * self.bank_draw))

    # -- one iteration ------------------------------------------------------------------------

    def _iterate(self, root: _Node, st: State, rng: random.Random) -> None:
        """Select, expand, roll out and back-propagate once in the determinization ``st``."""
        node = root
        path: list[_Node] = []
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        me = self._seat
        while st.phase != _OVER:
            p = st.to_act
            if p == CHANCE:
                st.step(st.chance_action(rng), CHANCE)
                continue
            if me >= 0 and p != me and st.phase == _TWO:  # the model's move: no branching here
                a = self._model_move(st, p)
                child = node.children.get((p, a))
                if child is None:
                    child = node.children[(p, a)] = _Node(p)
                st.step(a, p)
                path.append(child)
                node = child
                continue
            legal = st.legal_actions(p)
            children = node.children
            untried: list[Action] = []
            present: list[tuple[Action, _Node]] = []
            fresh: _Node | None = None
            for a in legal:
                child = children.get((p, a))
                if child is None:
                    untried.append(a)
                elif not child.visits:  # the guide's action, placed before the search: expand it first
                    child.avail += 1
                    fresh = child
                    untried = [a]
                    break
                else:
                    child.avail += 1
                    present.append((a, child))
            if fresh is not None:
                st.step(untried[0], p)
                path.append(fresh)
                break
            if untried:
                a = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = _Node(p)
                child.avail = 1
                children[(p, a)] = child
                st.step(a, p)
                path.append(child)
                break
            best_a, best = present[0]
            best_v = -math.inf
            for a, child in present:
                v = child.reward / child.visits + c * sqrt(log(child.avail) / child.visits)
                if v > best_v:
                    best_a, best, best_v = a, child, v
            st.step(best_a, p)
            path.append(best)
            node = best
        rewards = self._rollout(st, rng)
        root.visits += 1
        for child in path:
            child.visits += 1
            child.reward += rewards[child.seat]

    def _model_move(self, st: State, p: int) -> Action:
        """The counter model's move for seat ``p`` (to act in phase two), remembered for the rest of
        the deal by position (:func:`_key`; :meth:`_remember`): one world's positions recur in
        every iteration."""
        key = _key(st)
        a = self._moves.get(key)
        if a is None:
            cm = self._cm
            a = cm.counter_two(st) if cm is not None else counter_two(st, p, self._outcomes)
            self._moves[key] = a
        return a

    def _rollout(self, st: State, rng: random.Random) -> list[float]:
        """Play ``st`` to the end with the rollout policy (:meth:`_rollout_move`); the reward of
        every seat."""
        history = st.history
        stop = len(history) + self.rollout_limit
        self._modelled = len(history) + self.model_depth
        cm = self._cm
        if cm is not None and self._seat >= 0 and st.phase == _TWO:  # the whole rollout compiled
            got = cm.model_rollout(st, self.model_depth, self.rollout_limit)
            if got is not None:
                return _rewards_of(got, st.players)
        if cm is not None and self._seat < 0 and self.rollout in RANDOM_ROLLOUT_RULES and not st.live:
            # phase one at random and phase two by the rollout's rule, from here to the end, in C++
            loser = cm.random_rollout(st, rng.getrandbits(64), self.rollout, self.rollout_limit)
            return _rewards_of(loser, st.players)
        two_rule = self.rollout in ("greedy", "mixed", "heuristic-two")
        move = self._rollout_move
        while st.phase != _OVER:
            if len(history) >= stop:
                return [0.0] * st.players
            p = st.to_act
            if self._seat >= 0 and len(history) >= self._modelled and st.phase == _TWO:
                # the model's depth is spent: the heuristic rule to the end, remembered
                return _rewards_of(heuristic_loser(st, stop - len(history), self._outcomes), st.players)
            if cm is not None and two_rule and st.phase == _TWO and p != CHANCE and self._seat < 0:
                # phase two by the rollout's rule, to the end in compiled code
                left = stop - len(history)
                if self.rollout == "heuristic-two":
                    return _rewards_of(cm.heuristic_loser(st, left), st.players)
                got = cm.greedy_rollout(st, left)
                if got is not None:
                    return _rewards_of(got, st.players)
            st.step(st.chance_action(rng) if p == CHANCE else move(st, p, rng), p)
        return _rewards(st)

    def _rollout_move(self, st: State, p: int, rng: random.Random) -> Action:
        """Seat ``p``'s rollout move in ``st`` under the rollout policy, or under the counter model
        in a modelled phase-two search (the model for the first :attr:`model_depth` actions of the
        rollout, then the heuristic rule)."""
        if self._seat >= 0:
            return self._model_move(st, p) if len(st.history) < self._modelled else heuristic_two(st, p)
        policy = self._policy
        if st.phase == _TWO and self.rollout in ("greedy", "mixed", "heuristic-two"):
            return heuristic_two(st, p) if self.rollout == "heuristic-two" else greedy_two(st, p)
        if policy is None:
            return st.random_action(rng)
        # the sample's own history list: the policy's loop check slices it, and a list slices far
        # faster than a History (the sample hides nothing from itself)
        view = view_of(st, p)._replace(history=cast(History, st.history))
        return policy.choose(view, view.legal)


_MOVES_LIMIT = 100_000
"""The model moves remembered before the memos start afresh."""


def _key(st: State) -> tuple[object, ...]:
    """What decides a phase-two move of the counter model in ``st`` (not its loop check, which
    reads the history)."""
    seats, two = st.seats, st.two  # the parts, read directly on this hot path
    return (tuple(seats.hands), tuple(two.table), st.to_act, two.kill_at, two.forced, seats.blue)


def _rewards(st: State) -> list[float]:
    """-1 for the loser, ``1/(players-1)`` for every other seat; all 0 for an abandoned deal."""
    return _rewards_of(-1 if st.loser is None else st.loser, st.players)


def _rewards_of(loser: int, n: int) -> list[float]:
    """-1 for seat ``loser``, ``1/(n-1)`` for the other of ``n`` seats; all 0 if ``loser`` is -1."""
    if loser < 0:
        return [0.0] * n
    out = [1.0 / (n - 1)] * n
    out[loser] = -1.0
    return out
