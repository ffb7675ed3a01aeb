"""What the OpenSpiel, PettingZoo and Gymnasium adapters share: the reward formula and the loop over
chance steps and forced decisions.

Both work on an engine :class:`~skitgubbe.engine.state.State` (self-dealing, the dreck ordered by a
``random.Random``) and on a :class:`~skitgubbe.engine.chance.ChanceState` (every chance card a
step of its own).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine.actions import CHANCE, Action
from ..engine.chance import ChanceState
from ..engine.state import State

__all__ = ["rewards", "reward_of", "advance"]


def rewards(loser: int | None, players: int) -> list[float]:
    """Terminal rewards per seat: -1 for the loser, ``+1/(players-1)`` for every other seat (zero
    sum, between -1 and 1); all 0 when there is no loser (the deal is not over, or was abandoned)."""
    if loser is None:
        return [0.0] * players
    win = 1.0 / (players - 1)
    return [-1.0 if s == loser else win for s in range(players)]


def reward_of(loser: int | None, players: int, seat: int) -> float:
    """Seat ``seat``'s entry of :func:`rewards`."""
    if loser is None:
        return 0.0
    return -1.0 if seat == loser else 1.0 / (players - 1)


def advance(game: State | ChanceState, *, chance: random.Random | None = None, auto_forced: bool = False,
            forced_seat: int | None = None, policy: Callable[[int], Action | None] | None = None,
            budget: int | None = None) -> int:
    """Take the steps nobody has to choose, in order, until a seat has a choice or the deal is over.

    Args:
        game: the deal (changed in place).
        chance: take chance steps with this ``random.Random`` (``State.chance_action`` of it for a
            State, a uniform outcome card for a ChanceState); None stops at a chance step.
        auto_forced: take every decision with a single legal action (of ``forced_seat`` only, when
            given).
        forced_seat: the only seat whose forced decisions are taken (None: every seat's).
        policy: called with the seat to act; the action it returns is taken (a bot's seat), None
            stops the loop (the learner's seat).
        budget: the most seat decisions (forced or by ``policy``) to take; None for no limit.

    Returns the number of seat decisions taken (chance steps are not counted).  Actions are taken
    unchecked (``State.step``, ``ChanceState.apply(..., trusted=True)``): a ``policy`` must return
    legal actions.
    """
    explicit = isinstance(game, ChanceState)
    taken = 0
    while not game.is_over:
        s = game.to_act
        if s == CHANCE:
            if chance is None:
                break
            if isinstance(game, ChanceState):
                cards = game.outcome_cards()
                game.apply(cards[int(chance.random() * len(cards))], CHANCE, trusted=True)
            else:
                game.step(game.chance_action(chance), CHANCE)
            continue
        if budget is not None and taken >= budget:
            break
        action: Action | None = None
        if auto_forced and (forced_seat is None or s == forced_seat):
            legal = game.legal_actions(s)
            if len(legal) == 1:
                action = legal[0]  # type: ignore[assignment]
        if action is None and policy is not None and s != forced_seat:
            action = policy(s)
        if action is None:
            break
        if explicit:
            game.apply(action, s, trusted=True)
        else:
            game.step(action, s)  # type: ignore[union-attr]
        taken += 1
    return taken
