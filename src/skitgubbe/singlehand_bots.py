"""Bots for Single Hand Skitgubbe (:mod:`skitgubbe.singlehand`), a runner and a seeded simulation.

A bot is given only its seat's :class:`~skitgubbe.singlehand.SingleHandView` and the non-empty list
of its legal actions, and returns one of them.  :func:`make_bot` builds one by name
(:data:`BOT_NAMES`); :func:`play_out` plays a deal to the end; :func:`play_random_games` plays many
seeded deals and counts the losers.  Stdlib only, no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .actions import Action, Kind
from .cards import lowest, rank_of
from .singlehand import (
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
    "RandomBot",
    "HeuristicBot",
    "BOT_NAMES",
    "make_bot",
    "play_out",
    "Step",
    "SimulationStats",
    "play_random_games",
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


class RandomBot:
    """Chooses uniformly among the legal actions with its own seeded ``random.Random``."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SingleHandView, legal: Sequence[Action]) -> Action:
        """A uniformly random element of ``legal`` (non-empty)."""
        return legal[self.rng.randrange(len(legal))]


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


Step = Callable[[SingleHandState, int, Action], None]
"""An observer called after each action with (state, seat, action)."""


def play_out(
    state: SingleHandState, bots: Sequence[SingleHandBot], *, on_step: Step | None = None
) -> SingleHandState:
    """Play ``state`` to the end, each seat's decisions by ``bots[seat]``; returns ``state`` (mutated).

    Raises ``ValueError`` if ``len(bots)`` differs from the number of seats or a bot chooses an
    action that is not legal.
    """
    if len(bots) != state.players:
        raise ValueError(f"{len(bots)} bots for {state.players} seats")
    while not state.is_over:
        seat = state.to_act
        view = view_of(state, seat)
        action = bots[seat].choose(view, view.legal)
        if action not in view.legal:
            raise ValueError(f"bot {bots[seat].name!r} at seat {seat} chose {action}, not a legal action")
        state.apply(action, seat, trusted=True)
        if on_step is not None:
            on_step(state, seat, action)
    return state


@dataclass
class SimulationStats:
    """Counts from :func:`play_random_games`.

    ``losses[i]``: deals lost by seat i; ``abandoned``: deals stopped at the action limit (no loser);
    ``actions``: total actions over all deals; ``longest``: the most actions in one deal.
    """

    players: int
    games: int
    seed: int | str
    bots: list[str]
    losses: list[int] = field(default_factory=list)
    abandoned: int = 0
    actions: int = 0
    longest: int = 0

    def loser_rate(self, seat: int) -> float:
        """Share of the deals (0..1) that ``seat`` lost; 0.0 with no deals."""
        return self.losses[seat] / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON output (equal seeds give equal dicts)."""
        return {
            "rules": "single-hand",
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "bots": self.bots,
            "losses": self.losses,
            "abandoned": self.abandoned,
            "mean_actions": self.actions / self.games if self.games else 0.0,
            "longest": self.longest,
        }


def play_random_games(
    players: int,
    games: int,
    seed: int | str,
    *,
    bots: Sequence[str] = ("random",),
    action_limit: int | None = None,
) -> SimulationStats:
    """Play ``games`` seeded deals of ``players`` seats and count the losers.

    Deal ``g`` is fixed by ``seed`` and ``g``: the deck is shuffled with
    ``deck_from_seed(f"{seed}:{g}:deck")``, seat ``i`` plays ``bots[i % len(bots)]`` seeded with
    ``f"{seed}:{g}:{i}"``, and the dealer is ``g % players``; so equal arguments give equal stats.
    ``action_limit``: per deal (default :data:`~skitgubbe.singlehand.DEFAULT_ACTION_LIMIT`).

    Raises ``ValueError`` for ``games < 0``, an empty ``bots``, an unknown bot name or a seat count
    outside 3..8.
    """
    if games < 0:
        raise ValueError(f"games must be 0 or more, not {games}")
    if not bots:
        raise ValueError("give at least one bot name")
    names = [bots[i % len(bots)] for i in range(players)]
    for name in dict.fromkeys(names):
        make_bot(name, random.Random(0))  # fail early on an unknown name
    stats = SimulationStats(players, 0, seed, names, losses=[0] * players)
    limit = DEFAULT_ACTION_LIMIT if action_limit is None else action_limit
    for g in range(games):
        state = SingleHandState.new(players, seed=f"{seed}:{g}:deck", dealer=g % players, action_limit=limit)
        seat_bots = [make_bot(name, random.Random(f"{seed}:{g}:{i}")) for i, name in enumerate(names)]
        play_out(state, seat_bots)
        stats.games += 1
        stats.actions += len(state.history)
        stats.longest = max(stats.longest, len(state.history))
        if state.loser is None:
            stats.abandoned += 1
        else:
            stats.losses[state.loser] += 1
    return stats
