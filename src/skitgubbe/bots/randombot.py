"""The random bot: uniform over the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..view import View

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among the legal actions with its own seeded ``random.Random``."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """A uniformly random element of ``legal`` (non-empty)."""
        return legal[self.rng.randrange(len(legal))]
