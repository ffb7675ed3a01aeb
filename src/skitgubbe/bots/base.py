"""The bot interface."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..engine.actions import Action
from ..engine.view import View

__all__ = ["Bot"]


class Bot(Protocol):
    """A player: given its seat's :class:`~skitgubbe.engine.view.View` and the non-empty list
    of its legal actions, return one of them.  A bot never sees the state itself."""

    name: str

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """One action out of ``legal`` for ``view.seat``."""
        ...
