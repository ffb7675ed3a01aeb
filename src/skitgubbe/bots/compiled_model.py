"""The search bot's phase-two playout rules in compiled code (``skitgubbe_native``, native/src/model.hpp).

:class:`CompiledModel` loads a phase-two position of a complete :class:`~skitgubbe.engine.state.State`
(a determinized world: every card placed) into a compiled state and plays there:

* :meth:`~CompiledModel.greedy_two`, :meth:`~CompiledModel.heuristic_two` and
  :meth:`~CompiledModel.counter_two`: the moves of :func:`skitgubbe.bots.playouts.greedy_two`,
  :func:`skitgubbe.bots.playouts.heuristic_two` and :func:`skitgubbe.bots.counter.counter_two`;
* :meth:`~CompiledModel.heuristic_outcome` and :meth:`~CompiledModel.heuristic_loser`: the
  playouts of :func:`skitgubbe.bots.playouts.heuristic_outcome` and
  :func:`~skitgubbe.bots.playouts.heuristic_loser`;
* :meth:`~CompiledModel.model_rollout`, :meth:`~CompiledModel.greedy_rollout` and
  :meth:`~CompiledModel.random_rollout`: the rollouts of :class:`~skitgubbe.bots.ismcts.ISMCTSBot`
  (the counter model for a number of actions, then the heuristic rule; greedy phase-two play; or,
  from any position, random play in phase one and a rule in phase two).  A phase-one position
  is loaded whole (:meth:`CompiledState.from_state
  <skitgubbe.engine.compiled.CompiledState.from_state>`); the random moves are drawn from the
  compiled engine's own generator, seeded by the caller, so they are random moves of the same
  distribution as the Python engine's, not the same moves.

They make the Python functions' moves (tests/test_compiled_model.py compares them position by
position) but keep no memo (:data:`~skitgubbe.bots.playouts.OutcomeMemo`): a Python playout that
stops at a remembered position can differ from one played to the end when an action limit cuts
the latter short, and the search's memo of model moves by position ignores the history the loop
check reads.  The weights are the bots' own class attributes, handed to the compiled code when this
module is imported.

Only rules the compiled engine plays (:func:`skitgubbe.engine.compiled.unsupported`); the State is
read, never changed.  Card sets are ``int`` bitmasks (bit i = card i); seats are 0..players-1.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action
from ..engine.base import Phase
from ..engine.compiled import CompiledState, UnsupportedError, action_of, native_module, unsupported
from ..engine.rules import Rules
from ..engine.state import State
from .counter import CounterBot
from .heuristic import HeuristicBot

__all__ = ["CompiledModel", "RANDOM_ROLLOUT_RULES", "compiled_model"]

RANDOM_ROLLOUT_RULES = {"random": 0, "greedy": 1, "heuristic-two": 2}
"""The phase-two rules of :meth:`CompiledModel.random_rollout` (the rollout policies of
:data:`skitgubbe.bots.ismcts.ROLLOUTS` that play phase one at random), by name."""

_KEEP = 128
"""History entries handed to the compiled loop check (it reads at most 119 back)."""

_WEIGHTS_SET = False


def _set_weights() -> None:
    """Hand the bots' weights (class attributes) to the compiled module, once."""
    global _WEIGHTS_SET
    native = native_module()
    if _WEIGHTS_SET or native is None:
        return
    h, c = HeuristicBot, CounterBot
    native.set_model_weights({
        "trump_power": h.trump_power, "kill_bonus": h.kill_bonus, "pick_penalty": h.pick_penalty,
        "pick_floor": h.pick_floor, "c_out_bonus": c.out_bonus, "c_kill_bonus": c.kill_bonus,
        "c_pick_penalty": c.pick_penalty, "c_pick_floor": c.pick_floor, "c_power_scale": c.power_scale,
        "c_master_bonus": c.master_bonus, "c_rank_tiebreak": c.rank_tiebreak,
        "c_force_bonus": c.force_bonus, "c_rollout_weight": c.rollout_weight,
        "c_rollout_limit": float(c.rollout_limit)})
    _WEIGHTS_SET = True


def _tail(history: Sequence[tuple[int, Action]]) -> tuple[list[int], list[int]]:
    """The seats and action codes (``kind << 56 | cards``) of the last :data:`_KEEP` entries of
    ``history``, oldest first."""
    tail = history[-_KEEP:]
    return [s for s, _ in tail], [a.kind << 56 | a.cards for _, a in tail]


class CompiledModel:
    """The phase-two playout rules of the search bot for one :class:`~skitgubbe.engine.rules.Rules`
    at one seat count, in compiled code (module docstring).  One scratch compiled state is loaded
    from the given State at each call.

    Args:
        rules: the rules of the States it will be given.
        players: their seat count.

    Raises :class:`~skitgubbe.engine.compiled.UnsupportedError` (a ``ValueError``) with the reason
    when the compiled engine is not installed or does not play ``rules`` at ``players`` seats.
    """

    def __init__(self, rules: Rules, players: int) -> None:
        reason = unsupported(rules, players)
        if reason is not None:
            raise UnsupportedError(reason)
        _set_weights()
        self.rules = rules
        self.players = players
        self.core = CompiledState.new(rules, players, deck=range(52)).core

    def _check(self, st: State) -> None:
        """Raise ``ValueError`` unless ``st`` has this model's rules and seat count."""
        if st.rules is not self.rules and st.rules != self.rules or st.players != self.players:
            raise ValueError("the State's rules or seat count are not this model's")

    def load(self, st: State) -> None:
        """Load the phase-two position of ``st`` (phase two or over; its rules and seat count are
        this model's) into the scratch state.  Raises ``ValueError`` for a State in another phase
        or with other rules."""
        self._check(st)
        if st.phase not in (Phase.TWO, Phase.OVER):
            raise ValueError("the model plays phase two; this State is not there yet")
        seats, two, undealt = st.seats, st.two, st.undealt
        self.core.load_two(seats.hands, two.table, two.table_owners, max(st.to_act, 0), max(two.kill_at, 1),
                           seats.blue, seats.out_order, undealt.trump_suit, undealt.reserve,
                           len(st.history), st.action_limit)

    def greedy_two(self, st: State) -> Action:
        """:func:`~skitgubbe.bots.playouts.greedy_two` for the seat to act in phase two of ``st``."""
        self.load(st)
        return action_of(self.core.greedy_two())

    def heuristic_two(self, st: State) -> Action:
        """:func:`~skitgubbe.bots.playouts.heuristic_two` for the seat to act in phase two of ``st``."""
        self.load(st)
        return action_of(self.core.heuristic_two())

    def counter_two(self, st: State) -> Action:
        """:func:`~skitgubbe.bots.counter.counter_two` (without a memo) for the seat to act in phase
        two of ``st``; its loop check reads ``st.history``."""
        self.load(st)
        seats, codes = _tail(st.history)
        return action_of(self.core.counter_two(seats, codes, len(st.history)))

    def random_rollout(self, st: State, seed: int, rule: str, limit: int) -> int:
        """Play ``st`` (any phase; not changed) to the end in compiled code: phase one and the chance
        deals at random, from the compiled generator seeded with ``seed`` (0 .. 2**64 - 1), phase
        two by ``rule`` (one of :data:`RANDOM_ROLLOUT_RULES`: ``"random"``, ``"greedy"``
        (:meth:`greedy_two`) or ``"heuristic-two"`` (:meth:`heuristic_two`)), at most ``limit``
        actions.  Returns the loser's seat, or -1 for a deal cut short or ended with no loser.
        Raises ``KeyError`` for another rule and ``ValueError`` for a State of the live sluffing
        protocol."""
        code = RANDOM_ROLLOUT_RULES[rule]
        self._check(st)
        core = CompiledState.from_state(st).core
        return core.random_rollout(seed, code, len(st.history) + limit)

    def heuristic_outcome(self, st: State, seat: int, limit: int) -> int:
        """:func:`~skitgubbe.bots.playouts.heuristic_outcome` of ``st`` for ``seat`` (1 not the
        loser, -1 the loser, 0 cut short at ``limit`` actions), without a memo; ``st`` is not
        changed."""
        self.load(st)
        return self.core.heuristic_outcome(seat, limit)

    def heuristic_loser(self, st: State, limit: int) -> int:
        """:func:`~skitgubbe.bots.playouts.heuristic_loser` of ``st`` (the loser's seat, or -1),
        without a memo; ``st`` is not changed."""
        self.load(st)
        return self.core.heuristic_loser(limit)

    def model_rollout(self, st: State, depth: int, limit: int) -> int | None:
        """The modelled rollout of :class:`~skitgubbe.bots.ismcts.ISMCTSBot` from ``st`` (phase two):
        :meth:`counter_two` for every seat for ``depth`` actions, then the heuristic rule, at most
        ``limit`` actions in all.  The loser's seat, -1 for a deal cut short or ended with no
        loser, or None when a chance action comes up (the caller plays that rollout itself).
        ``st`` is not changed."""
        self.load(st)
        seats, codes = _tail(st.history)
        got = self.core.model_rollout(seats, codes, len(st.history), depth, limit)
        return None if got == -3 else got

    def greedy_rollout(self, st: State, limit: int) -> int | None:
        """Greedy play of every seat from ``st`` (phase two) to the end, at most ``limit`` actions:
        the loser's seat, -1 for a deal cut short or ended with no loser, or None when a chance
        action comes up.  ``st`` is not changed."""
        self.load(st)
        got = self.core.greedy_rollout(len(st.history) + limit)
        return None if got == -3 else got


def compiled_model(rules: Rules, players: int) -> CompiledModel | None:
    """A :class:`CompiledModel` for ``rules`` at ``players`` seats, or None when the compiled
    engine is not installed or does not play them."""
    try:
        return CompiledModel(rules, players)
    except UnsupportedError:
        return None
