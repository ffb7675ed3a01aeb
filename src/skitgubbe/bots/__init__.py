"""Bots: a small interface (observe a view, choose an action) and the built-in players.

:func:`make_bot` builds a bot by name; :data:`BOT_NAMES` lists the names.
"""

from __future__ import annotations

import random

from .base import Bot
from .counter import CounterBot
from .heuristic import HeuristicBot
from .ismcts import ISMCTSBot
from .randombot import RandomBot

__all__ = ["Bot", "RandomBot", "HeuristicBot", "CounterBot", "ISMCTSBot", "BOT_NAMES", "make_bot"]

BOT_NAMES = ("random", "heuristic", "counter", "ismcts")
_ALIASES = {"easy": "heuristic", "medium": "counter", "hard": "ismcts-1s"}


def make_bot(name: str, rng: random.Random) -> Bot:
    """A new bot called ``name`` (see :data:`BOT_NAMES`; ``easy`` = heuristic, ``hard`` = ismcts
    with about one second a move) drawing its randomness from ``rng``.  Raises ``ValueError``
    naming the known bots."""
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    if key == "random":
        return RandomBot(rng)
    if key == "heuristic":
        return HeuristicBot(rng)
    if key == "counter":
        return CounterBot(rng)
    if key == "ismcts":
        return ISMCTSBot(rng)  # 200 iterations a move
    if key == "ismcts-1s":
        return ISMCTSBot(rng, iterations=None, seconds=1.0)
    raise ValueError(f"no bot called {name!r}; bots: {', '.join(BOT_NAMES)}, easy, medium, hard")
