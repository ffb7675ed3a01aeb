"""A study's deals played in compiled code (``run_configs(..., engine="auto")``,
:func:`skitgubbe.batch.study.deals.play_deals` through :func:`~skitgubbe.bots.compiled_bots.bot_deals`)
give the same summaries as the Python engine: loser, actions, tricks, first leader and every seat's
hand at the start of phase two, deal for deal.

Without the compiled module these tests skip, unless ``SKITGUBBE_REQUIRE_NATIVE`` is set: then they fail.
"""

from __future__ import annotations

import pytest

from helpers import needs_native
from skitgubbe.batch.backend import LocalBackend
from skitgubbe.batch.study.core import Config, run_configs
from skitgubbe.batch.study.deals import DealTask, task_engine
from skitgubbe.engine.variants import find_variant

CONFIGS = [
    Config("pagat-3", find_variant("pagat"), 3, ("heuristic", "random")),
    Config("goat-4", find_variant("goat"), 4, ("heuristic",)),
    Config("koira-5", find_variant("koira"), 5, ("random", "heuristic")),
    Config("mattis-6", find_variant("mattis"), 6, ("heuristic",)),
]


@needs_native
def test_a_study_is_the_same_on_both_engines() -> None:
    python = run_configs(CONFIGS, 12, 7, LocalBackend(1), engine="python")
    compiled = run_configs(CONFIGS, 12, 7, LocalBackend(1), engine="auto")
    assert compiled == python
    assert all(s.hands for summaries in python.values() for s in summaries if not s.abandoned)


@needs_native
def test_which_tasks_the_compiled_engine_plays() -> None:
    pagat = find_variant("pagat")
    assert task_engine(DealTask(pagat, 3, ("heuristic",), 0, "x", 0, 1, "auto")) == "compiled"
    assert task_engine(DealTask(pagat, 3, ("heuristic",), 0, "x", 0, 1, "python")) == "python"
    assert task_engine(DealTask(pagat, 3, ("heuristic/center=3",), 0, "x", 0, 1, "auto")) == "python"
    assert task_engine(DealTask(pagat, 3, ("ismcts-5it",), 0, "x", 0, 1, "auto")) == "python"


def test_run_configs_refuses_another_engine() -> None:
    with pytest.raises(ValueError, match="engine must be 'python' or 'auto'"):
        run_configs(CONFIGS[:1], 1, 0, LocalBackend(1), engine="fast")
