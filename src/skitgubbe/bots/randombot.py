"""The random bot: uniform over the legal actions (of either game: it reads nothing of the view)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.actions import Action

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among the legal actions with its own seeded ``random.Random``."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: object, legal: Sequence[Action]) -> Action:
        """A uniformly random element of ``legal`` (non-empty); ``view`` (a
        :class:`~skitgubbe.engine.view.View`, or any game's view) is not read."""
        return legal[self.rng.randrange(len(legal))]
