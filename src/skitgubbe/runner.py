"""Play whole deals with bots under the sequential sluffing protocol.  No I/O."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .actions import CHANCE, Action
from .bots.base import Bot
from .state import State
from .view import view_of

__all__ = ["play_out", "Step"]

Step = Callable[[State, int, Action], None]
"""An observer called after each action with (state, seat, action)."""


def play_out(
    state: State,
    bots: Sequence[Bot],
    rng: random.Random,
    *,
    on_step: Step | None = None,
) -> State:
    """Play ``state`` to the end: each seat's decisions by ``bots[seat]``, chance by ``rng``.

    Returns ``state`` (mutated).  Raises ``ValueError`` if ``len(bots)`` differs from
    the number of seats or a bot chooses an action that is not legal.
    """
    if len(bots) != state.players:
        raise ValueError(f"{len(bots)} bots for {state.players} seats")
    while not state.is_over:
        seat = state.to_act
        if seat == CHANCE:
            action = state.chance_action(rng)
        else:
            view = view_of(state, seat)
            legal = view.legal
            action = bots[seat].choose(view, legal)
            if action not in legal:
                raise ValueError(f"bot {bots[seat].name!r} at seat {seat} chose {action}, not a legal action")
        state.step(action, seat)
        if on_step is not None:
            on_step(state, seat, action)
    return state
