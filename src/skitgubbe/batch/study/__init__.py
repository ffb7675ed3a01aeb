"""Studies: the rule texts' own claims answered by simulation (issue 19; docs/study.md).

Each study (one module here) is tied to one claim of one rule text, plays seeded deals between
bots on a :class:`~skitgubbe.batch.backend.Backend`, and gives a
:class:`~.core.StudyResult`: a table, a one-paragraph answer with 95% intervals and the numbers of
its figure.  :func:`run_study` runs one by name; :mod:`.report` writes its figure (PNG and SVG,
with matplotlib: the extra ``skitgubbe[study]``), table (CSV), answer and the HTML report.

The studies, each with its claim, source and deals per configuration (``K`` = ``deals``):

* ``table-size``: the best number of players (pagat.com, Flurst page, Howell page); ``K`` for each
  of 13 tables and 3 line-ups;
* ``cards-or-ranking``: ranks count more than numbers (Howell page); ``5 K``;
* ``aces-low``: aces low stops monster hands (Flurst page); ``5 K`` for each of two settings;
* ``strong-hand``: the strong hand's left neighbour loses (Howell page); ``5 K`` at 4 and 5 seats;
* ``variations``: the recommended variations improve the game (Howell page); ``K`` for each of 5
  rulesets and 3 line-ups;
* ``trump-early``: trump early at five players (Howell page); ``K`` for each of 3 tables and 5
  settings.

``K`` is ``deals`` (:data:`DEFAULT_DEALS` by default).  Results depend only on the seed and ``K``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ..backend import Backend
from . import aces_low, cards, strong_hand, table_size, trump_early, variations
from .core import CAVEAT, Progress, StudyResult

__all__ = ["STUDIES", "DEFAULT_DEALS", "Study", "StudyResult", "CAVEAT", "find_study", "run_study"]

DEFAULT_DEALS = 200
"""Deals per configuration when ``--deals`` is not given (``study all`` in about 5 to 10 minutes
on two cores)."""


@dataclass(frozen=True)
class Study:
    """One study: ``name``, ``title``, ``scale`` (deals per configuration = scale x K), ``run(deals,
    seed, backend, progress, engine=...)`` and ``draw(result, figure)``."""

    name: str
    title: str
    scale: int
    run: Callable[..., StudyResult]
    draw: Callable[[StudyResult, Any], None]


def _study(module: ModuleType) -> Study:
    return Study(module.NAME, module.TITLE, module.SCALE, module.run, module.draw)


STUDIES: dict[str, Study] = {s.name: s for s in map(_study, (table_size, cards, aces_low, strong_hand,
                                                           variations, trump_early))}
"""The studies by name, in the order of the report."""


def find_study(name: str) -> Study:
    """The study called ``name``.  Raises ``ValueError`` naming the studies for any other name."""
    try:
        return STUDIES[name.strip().lower()]
    except KeyError:
        raise ValueError(f"no study called {name!r}; studies: {', '.join(STUDIES)}, all") from None


def run_study(name: str, backend: Backend, *, deals: int = DEFAULT_DEALS, seed: int = 0,
              progress: Progress | None = None, engine: str = "python") -> StudyResult:
    """Run the study ``name`` with ``deals`` (``K``) on ``backend``; ``progress(done, total)``
    counts deals.  ``engine``: ``"python"`` (the reference) or ``"auto"``: each configuration the
    compiled engine plays with compiled bots only (no ``heuristic/WEIGHT=VALUE``) is played in
    compiled code, with the same results (:mod:`~skitgubbe.batch.study.deals`); the result's
    ``engine`` says which was asked.  Raises ``ValueError`` for an unknown study, ``deals < 1``
    or another engine."""
    study = find_study(name)
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    result = study.run(deals, seed, backend, progress, engine=engine)
    result.engine = engine
    return result
