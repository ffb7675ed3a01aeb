"""Bots for Single Hand Skitgubbe (:mod:`skitgubbe.singlehand`), and the game as the batch tools
see it (:data:`SINGLE_HAND`).

A bot is given only its seat's :class:`~skitgubbe.singlehand.game.SingleHandView` and the non-empty
list of its legal actions, and returns one of them.  :func:`make_bot` builds one by name
(:data:`BOT_NAMES`): the random bot is the main game's own (:class:`skitgubbe.bots.RandomBot`);
:func:`skitgubbe.batch.runner.play_out` plays a deal to the end and :func:`skitgubbe.batch.simulate.simulate`
plays many seeded deals, with :data:`SINGLE_HAND`.  Stdlib only, no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from ..batch.runner import Game
from ..bots.randombot import RandomBot
from ..engine.actions import Action, Kind
from ..engine.cards import lowest, rank_of
from .game import (
    DEFAULT_ACTION_LIMIT,
    PICK_UP,
    TAKE_CHANCE,
    TEN,
    SingleHandState,
    SingleHandView,
    strength,
    view_of,
)

__all__ = [
    "SingleHandBot",
    "HeuristicBot",
    "BOT_NAMES",
    "make_bot",
    "SINGLE_HAND",
    "single_hand",
]

BOT_NAMES = ("random", "heuristic")
"""The names :func:`make_bot` knows (``easy`` is an alias of ``heuristic``)."""


class SingleHandBot(Protocol):
    """A player: given its seat's view and the non-empty list of its legal actions, return one of
    them.  A bot never sees the state itself."""

    name: str

    def choose(self, view: SingleHandView, legal: Sequence[Action]) -> Action:
        """One action out of ``legal`` for ``view.seat``."""
        ...


class HeuristicBot:
    """A sensible beginner.

    * It plays (or starts a pile with) every card it holds of the lowest rank it may play, in the
      text's order (aces first, 2s last), and keeps its 10s while it has another play.
    * Holding no card that ranks equal or higher: with a pile of ``big_pile`` cards or more it clears
      it with a 10 if it holds one; otherwise it takes a chance while the stock lasts, else uses a 10,
      else picks up.

    ``rng`` is kept for the interface (the bot is deterministic).
    """

    name = "heuristic"

    def __init__(self, rng: random.Random | None = None, *, big_pile: int = 3) -> None:
        self.rng = rng
        self.big_pile = big_pile

    def choose(self, view: SingleHandView, legal: Sequence[Action]) -> Action:
        """The action described in the class docstring, out of ``legal`` (non-empty)."""
        plays = [a for a in legal if a.kind == Kind.PLAY]
        others = [a for a in plays if rank_of(lowest(a.cards)) != TEN]
        tens = [a for a in plays if rank_of(lowest(a.cards)) == TEN]
        if others:
            return min(others, key=lambda a: (strength(rank_of(lowest(a.cards))), -a.cards.bit_count()))
        one_ten = min(tens, key=lambda a: a.cards.bit_count()) if tens else None
        if one_ten is not None and (view.pile_cards().bit_count() >= self.big_pile or PICK_UP not in legal):
            return one_ten
        if TAKE_CHANCE in legal:
            return TAKE_CHANCE
        if one_ten is not None:
            return one_ten
        return legal[0] if PICK_UP not in legal else PICK_UP


def make_bot(name: str, rng: random.Random) -> SingleHandBot:
    """A new bot called ``name`` (:data:`BOT_NAMES`, or ``easy`` for ``heuristic``) drawing its
    randomness from ``rng``.  Raises ``ValueError`` naming the known bots."""
    key = name.strip().lower()
    if key == "random":
        return RandomBot(rng)
    if key in ("heuristic", "easy"):
        return HeuristicBot(rng)
    raise ValueError(f"no Single Hand bot called {name!r}; bots: {', '.join(BOT_NAMES)}, easy")


class _SingleHand:
    """Single Hand Skitgubbe as a :class:`~skitgubbe.batch.runner.Game` (see :data:`SINGLE_HAND`)."""

    name = "single-hand"

    def __init__(self, action_limit: int = DEFAULT_ACTION_LIMIT) -> None:
        self.action_limit = action_limit

    def deal(self, players: int, seed: str, dealer: int) -> SingleHandState:
        return SingleHandState.new(players, seed=seed, dealer=dealer, action_limit=self.action_limit)

    def view(self, state: Any, seat: int) -> SingleHandView:
        return view_of(state, seat)

    def bot(self, name: str, rng: random.Random) -> SingleHandBot:
        return make_bot(name, rng)


def single_hand(action_limit: int = DEFAULT_ACTION_LIMIT) -> Game:
    """Single Hand Skitgubbe as a :class:`~skitgubbe.batch.runner.Game`, its deals abandoned after
    ``action_limit`` actions (default :data:`~skitgubbe.singlehand.game.DEFAULT_ACTION_LIMIT`)."""
    return _SingleHand(action_limit)


SINGLE_HAND: Game = _SingleHand()
"""Single Hand Skitgubbe as a :class:`~skitgubbe.batch.runner.Game`: :func:`skitgubbe.batch.runner.play_out`
(with ``view=SINGLE_HAND.view``) and :func:`skitgubbe.batch.simulate.simulate` play it."""
