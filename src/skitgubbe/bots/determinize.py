"""Determinization: complete deals that one seat cannot tell from the real one, sampled at random.

Search in a game of imperfect information (Information Set Monte Carlo Tree Search, Cowling,
Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE Transactions on
Computational Intelligence and AI in Games 4(2), 2012) plays many *determinizations*: complete
engine :class:`~skitgubbe.engine.state.State` values in which the cards a seat has not seen are dealt
at random among the places it has not seen.  Standard library only, no I/O.

The worlds themselves are built by the engine's public constructor,
:class:`skitgubbe.engine.worlds.Worlds` (which says what a world keeps, what it deals again and
which inferences it does not make); this module only draws the :class:`~skitgubbe.engine.worlds.Placement`
at random:

* :func:`determinize` (and :class:`Determinizer`, which prepares once and samples many times)
  takes a :class:`~skitgubbe.engine.state.State` and a seat and returns a world in which every
  card whose place the seat does not know is dealt again, uniformly, each place keeping its count
  (after a dreck dealt to several seats, the dreck cards still hidden in the needy seats' hands go
  back to needy seats, each getting as many as it still hides of its share).
* A bot, which only ever gets a :class:`~skitgubbe.engine.view.View`, starts from
  :meth:`Worlds.from_view <skitgubbe.engine.worlds.Worlds.from_view>` (or
  :func:`~skitgubbe.engine.worlds.world_from_view`) and samples from that.
"""

from __future__ import annotations

import random

from ..engine.state import State
from ..engine.worlds import Placement, Worlds

__all__ = ["Determinizer", "determinize"]


class Determinizer:
    """Prepares once, then deals many determinizations of ``state`` for ``seat``.

    Args:
        state: any State consistent with what ``seat`` knows (the real one, or one built by
            :meth:`~skitgubbe.engine.worlds.Worlds.from_view`); it is not changed.
        seat: the observing seat, 0..players-1.

    Attributes:
        worlds: the engine's :class:`~skitgubbe.engine.worlds.Worlds` of ``seat``.
        places: the :class:`~skitgubbe.engine.worlds.UnseenPlaces` of ``seat``.
        shares: after a dreck dealt to several seats, ``{needy seat: dreck cards it still hides}``
            for the needy seats other than ``seat``; else None.

    Raises ``ValueError`` for a seat that does not exist or a state whose counts do not add up.
    """

    def __init__(self, state: State | Worlds, seat: int) -> None:
        worlds = state if isinstance(state, Worlds) else Worlds(state, seat)
        self.worlds = worlds
        self.seat = worlds.seat
        self.places = worlds.places
        self.shares = worlds.shares

    def placement(self, rng: random.Random) -> Placement:
        """A placement of the unseen cards drawn uniformly with ``rng`` (each place its count; the
        needy seats' dreck shares kept): :meth:`Worlds.placement
        <skitgubbe.engine.worlds.Worlds.placement>`."""
        return self.worlds.placement(rng)

    def sample(self, rng: random.Random) -> State:
        """A new determinization: a world with the unseen cards dealt again with ``rng``."""
        return self.worlds.build(self.placement(rng), trusted=True)


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A complete State that ``seat`` cannot tell from ``state``: a world whose unseen cards are
    dealt again uniformly with ``rng`` (see :class:`~skitgubbe.engine.worlds.Worlds` for what is
    kept, and which fields are read).  ``view_of(result, seat) == view_of(state, seat)``.

    Raises ``ValueError`` for a seat that does not exist.  For many samples of one state, build a
    :class:`Determinizer` once and call :meth:`Determinizer.sample`.
    """
    return Determinizer(state, seat).sample(rng)
