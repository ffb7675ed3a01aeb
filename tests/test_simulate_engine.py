"""``simulate`` on the compiled engine (skitgubbe.batch.simulate, "Engines"): random bots' deals give
the Python engine's figures deal for deal, and the engine is chosen, or refused, with its reason.

Without the compiled module (``pip install ./native``) the tests that need it skip, unless
``SKITGUBBE_REQUIRE_NATIVE`` is set (CI, .ci/run): then they fail.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from helpers import needs_native
from skitgubbe.batch.simulate import simulate, simulation_engine
from skitgubbe.engine.compiled import COMPILED_PRESETS, UnsupportedError
from skitgubbe.engine.variants import PRESETS
from skitgubbe.play.cli import main
from skitgubbe.singlehand import SINGLE_HAND


def _without_engine(data: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in data.items() if k != "engine"}


@needs_native
@pytest.mark.parametrize("preset", sorted(COMPILED_PRESETS))
def test_random_deals_on_the_compiled_engine_equal_the_python_engines(preset: str) -> None:
    """Every seat count of every compiled preset: the same losers, abandoned deals, actions, tricks
    and longest deal as the Python engine, for the same seed."""
    low, high = COMPILED_PRESETS[preset]
    for players in range(low, high + 1):
        rules = PRESETS[preset]
        fast = simulate(rules, players, 12, ["random"], f"engines-{players}")
        slow = simulate(rules, players, 12, ["random"], f"engines-{players}", engine="python")
        assert (fast.engine, slow.engine) == ("compiled", "python")
        assert _without_engine(fast.to_dict()) == _without_engine(slow.to_dict()), (preset, players)


@needs_native
@pytest.mark.parametrize(("preset", "players"), [("goat", 6), ("howell", 5), ("catsatcards-flurst", 5)])
def test_bigger_tables_with_a_dreck_are_played_alike(preset: str, players: int) -> None:
    """Tables where the dreck is often dealt by chance, shuffled by the chance generator (40, 32 and 21
    of these 40 deals have a dreck deal)."""
    fast = simulate(PRESETS[preset], players, 40, ["random"], 5)
    slow = simulate(PRESETS[preset], players, 40, ["random"], 5, engine="python")
    assert _without_engine(fast.to_dict()) == _without_engine(slow.to_dict())


@needs_native
def test_the_result_does_not_depend_on_the_number_of_processes() -> None:
    one = simulate(PRESETS["pagat"], 3, 60, ["random"], 2)
    two = simulate(PRESETS["pagat"], 3, 60, ["random"], 2, jobs=2)
    assert one.engine == two.engine == "compiled"
    assert one.to_dict() == two.to_dict()


@needs_native
def test_auto_takes_the_python_engine_where_the_compiled_one_cannot_play() -> None:
    pagat = PRESETS["pagat"]
    assert simulation_engine(pagat, 3, ["random"]) == "compiled"
    assert simulation_engine(pagat, 3, ["random", "heuristic"]) == "compiled"
    assert simulation_engine(pagat, 3, ["random", "counter"]) == "python"
    assert simulation_engine(pagat, 3, ["random"], records=True) == "python"
    assert simulation_engine(pagat, 3, ["random"], engine="python") == "python"
    assert simulation_engine(SINGLE_HAND, 4, ["random"]) == "python"
    assert simulation_engine(replace(PRESETS["goat"], decks=2), 7, ["random"]) == "python"
    assert simulate(pagat, 3, 3, ["random", "counter"], 1).engine == "python"


@needs_native
@pytest.mark.parametrize(("bots", "records", "says"), [
    (["random", "counter"], False, "plays the bots random, heuristic only: these seats are counter"),
    (["random"], True, "records are written by the Python engine"),
])
def test_compiled_is_refused_with_the_reason(bots: list[str], records: bool, says: str) -> None:
    with pytest.raises(UnsupportedError, match=says):
        simulation_engine(PRESETS["pagat"], 3, bots, records=records, engine="compiled")


def test_an_unknown_engine_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="engine must be one of auto, python, compiled, not 'fast'"):
        simulate(PRESETS["pagat"], 3, 1, ["random"], 0, engine="fast")


def test_single_hand_refuses_the_compiled_engine() -> None:
    with pytest.raises(ValueError, match="plays the Skitgubbe presets, not single-hand"):
        simulation_engine(SINGLE_HAND, 4, ["random"], engine="compiled")


@needs_native
def test_the_command_names_the_engine_and_refuses_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    run = ["simulate", "--rules", "goat", "--players", "4", "--games", "10", "--seed", "3", "--json"]
    assert main(run) == 0
    fast = json.loads(capsys.readouterr().out)
    assert main([*run, "--engine", "python"]) == 0
    slow = json.loads(capsys.readouterr().out)
    assert (fast["engine"], slow["engine"]) == ("compiled", "python")
    assert _without_engine(fast) == _without_engine(slow)
    assert main(["simulate", "--rules", "goat", "--players", "4", "--games", "2", "--engine", "compiled",
                 "--bots", "random,counter"]) == 2
    assert "random, heuristic only: these seats are counter" in capsys.readouterr().out
    assert main(["simulate", "--rules", "goat", "--players", "4", "--games", "2"]) == 0
    assert ", compiled engine" in capsys.readouterr().out


@needs_native
@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("goat", 5), ("mas", 2)])
def test_heuristic_bots_give_the_same_result_on_both_engines(preset: str, players: int) -> None:
    fast = simulate(PRESETS[preset], players, 12, ["heuristic", "random", "easy"], 4, engine="compiled")
    slow = simulate(PRESETS[preset], players, 12, ["heuristic", "random", "easy"], 4, engine="python")
    assert (fast.engine, slow.engine) == ("compiled", "python")
    assert _without_engine(fast.to_dict()) == _without_engine(slow.to_dict())


@needs_native
def test_a_refused_record_run_makes_no_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    where = tmp_path / "records"
    assert main(["simulate", "--rules", "pagat", "--games", "2", "--engine", "compiled",
                 "--record", str(where)]) == 2
    assert "records are written by the Python engine" in capsys.readouterr().out
    assert not where.exists()
