"""Bots: a small interface (observe a view, choose an action) and the built-in players.

:func:`make_bot` builds a bot by name; :data:`BOT_NAMES` lists the names.
"""

from __future__ import annotations

import random

from .base import Bot
from .heuristic import HeuristicBot
from .randombot import RandomBot

__all__ = ["Bot", "RandomBot", "HeuristicBot", "BOT_NAMES", "make_bot"]

BOT_NAMES = ("random", "heuristic")
_ALIASES = {"easy": "heuristic"}


def make_bot(name: str, rng: random.Random) -> Bot:
    """A new bot called ``name`` (see :data:`BOT_NAMES`; ``easy`` = heuristic) drawing its
    randomness from ``rng``.  Raises ``ValueError`` naming the known bots."""
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    if key == "random":
        return RandomBot(rng)
    if key == "heuristic":
        return HeuristicBot(rng)
    raise ValueError(f"no bot called {name!r}; bots: {', '.join(BOT_NAMES)} (easy = heuristic)")
