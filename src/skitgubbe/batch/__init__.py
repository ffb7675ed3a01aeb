"""Many deals at once: the deal runner and game protocol, simulation, tournaments, the speed
benchmark and the statistics they report.  Built on :mod:`skitgubbe.engine` and
:mod:`skitgubbe.bots`; no terminal or server code.

The supported entry point for rating bots from Python is :func:`run_tournament` (duplicate
deals, the same as ``skitgubbe tournament``)::

    from skitgubbe.batch import run_tournament
    result = run_tournament("pagat", 3, ["counter", "heuristic", "random"], deals=100, seed=1)
"""

from .tournament import DealResult, GameResult, TournamentResult, run_tournament

__all__ = ["run_tournament", "TournamentResult", "DealResult", "GameResult"]
