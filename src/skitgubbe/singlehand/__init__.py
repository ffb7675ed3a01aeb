"""Single Hand Skitgubbe (catsatcards.com): a one-phase shedding game with the same cards, its own
state machine (:mod:`skitgubbe.singlehand.game`), bots (:mod:`skitgubbe.singlehand.bots`) and
terminal (:mod:`skitgubbe.singlehand.cli`).

It is served by the same tools as the main game through the small game protocol of
:mod:`skitgubbe.batch.runner` (:class:`~skitgubbe.batch.runner.Game`): :data:`SINGLE_HAND` deals it, gives a
seat's view and makes its bots, so :func:`skitgubbe.batch.runner.play_out` and
:func:`skitgubbe.batch.simulate.simulate` play it with no copy of their own.
"""

from .bots import BOT_NAMES, SINGLE_HAND, HeuristicBot, make_bot
from .game import *  # noqa: F403 (the game's names, as skitgubbe.singlehand.game lists them)
from .game import __all__ as _game_names

__all__ = [*_game_names, "BOT_NAMES", "HeuristicBot", "make_bot", "SINGLE_HAND"]
