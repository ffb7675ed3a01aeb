"""The heuristic bot (placeholder until written): plays like RandomBot."""

from __future__ import annotations

from .randombot import RandomBot

__all__ = ["HeuristicBot"]


class HeuristicBot(RandomBot):
    """Placeholder."""

    name = "heuristic"
