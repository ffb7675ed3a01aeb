"""Play whole deals with bots, for either game of the package (no I/O).

A *game* is what the batch tools need to know of one: :class:`Game` deals a table, gives a seat's
view and makes a bot by name.  :data:`STANDARD` is the two-phase family of
:mod:`skitgubbe.engine.state` under given rules (:func:`standard`);
:data:`skitgubbe.singlehand.SINGLE_HAND` is Single Hand Skitgubbe.  :func:`play_out` and
:func:`skitgubbe.batch.simulate.simulate` serve both.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..bots import make_bot
from ..bots.base import Bot
from ..engine.actions import CHANCE, Action
from ..engine.rules import Rules
from ..engine.state import State, deck_from_seed
from ..engine.view import view_of

__all__ = ["play_out", "Step", "Playable", "Game", "standard"]

Step = Callable[[Any, int, Action], None]
"""An observer called after each action with (state, seat, action)."""


class Playable(Protocol):
    """A deal in progress as the runner drives it: ``players``, ``to_act`` (a seat, ``CHANCE`` or
    -2 once over), ``is_over``, ``loser``, ``history``, and :meth:`step` (an action just listed as
    legal, taken unchecked) and, when chance may act, ``chance_action(rng)``."""

    players: int
    history: Any

    @property
    def to_act(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def loser(self) -> int | None: ...

    def step(self, action: Action, seat: int) -> None: ...


class Game(Protocol):
    """One game of the package as the batch tools see it: ``name``; ``deal(players, seed,
    dealer)`` a new deal of ``players`` seats shuffled with ``seed`` (a deal seed text) with
    ``dealer``; ``view(state, seat)`` what a seat may see (with a ``legal`` field); ``bot(name,
    rng)`` a bot of this game.  Each raises ``ValueError`` for what it cannot do (a seat count the
    game does not allow, an unknown bot name)."""

    name: str

    def deal(self, players: int, seed: str, dealer: int) -> Playable: ...

    def view(self, state: Any, seat: int) -> Any: ...

    def bot(self, name: str, rng: random.Random) -> Any: ...


class _Standard:
    """The two-phase game under ``rules`` (see :func:`standard`)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.name = rules.name

    def deal(self, players: int, seed: str, dealer: int) -> State:
        deck = deck_from_seed(seed, decks=self.rules.decks, pack=self.rules.pack)
        return State.new(self.rules, players, dealer=dealer, deck=deck)

    def view(self, state: Any, seat: int) -> Any:
        return view_of(state, seat)

    def bot(self, name: str, rng: random.Random) -> Bot:
        return make_bot(name, rng)


def standard(rules: Rules) -> Game:
    """The two-phase game (:class:`~skitgubbe.engine.state.State`) under ``rules``, as a :class:`Game`."""
    return _Standard(rules)


def play_out(
    state: Any,
    bots: Sequence[Any],
    rng: random.Random,
    *,
    on_step: Step | None = None,
    view: Callable[[Any, int], Any] = view_of,
) -> Any:
    """Play ``state`` (a :class:`Playable`) to the end: each seat's decisions by ``bots[seat]``
    (``choose(view, legal) -> Action``), chance by ``rng``; ``view`` gives a seat's view (the
    main game's :func:`~skitgubbe.engine.view.view_of` by default; a :class:`Game`'s ``view`` for
    another game).

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
            seen = view(state, seat)
            legal = seen.legal
            action = bots[seat].choose(seen, legal)
            if action not in legal:
                raise ValueError(f"bot {bots[seat].name!r} at seat {seat} chose {action}, not a legal action")
        state.step(action, seat)
        if on_step is not None:
            on_step(state, seat, action)
    return state
