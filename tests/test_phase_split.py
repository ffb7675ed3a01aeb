"""benchmarks/phase_split.py: a bot whose phases are played by two bots, and its deal shares."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from skitgubbe.bots import make_bot
from skitgubbe.engine.base import Phase

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "phase_split.py"
_spec = importlib.util.spec_from_file_location("phase_split", _PATH)
assert _spec is not None and _spec.loader is not None
phase_split = importlib.util.module_from_spec(_spec)
sys.modules["phase_split"] = phase_split
_spec.loader.exec_module(phase_split)


class Recorder:
    """A bot that notes the phases it was asked in and plays the first legal action."""

    name = "recorder"

    def __init__(self) -> None:
        self.phases: set[Phase] = set()

    def choose(self, view, legal):  # type: ignore[no-untyped-def]
        self.phases.add(view.phase)
        return legal[0]


def test_each_phase_goes_to_its_bot() -> None:
    from skitgubbe.batch.runner import play_out
    from skitgubbe.engine.state import State
    from skitgubbe.engine.variants import find_variant

    one, two = Recorder(), Recorder()
    split = phase_split.PhaseSplit(one, two)
    st = State.new(find_variant("pagat"), 3, seed=3)
    play_out(st, [split, make_bot("random", random.Random(1)), make_bot("random", random.Random(2))],
             random.Random(0))
    assert st.is_over
    assert one.phases == {Phase.ONE} and Phase.TWO in two.phases and Phase.ONE not in two.phases


def test_deal_shares_and_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    """A random bot against random bots: every deal share is a count of thirds; the same seed gives
    the same figure whatever the number of processes; a bad name fails before any deal."""
    shares = [phase_split.play_deal(("pagat", 3, "random", "random", 1, d)) for d in range(6)]
    assert all(3 * s in (0, 1, 2, 3) for s in shares) and 0 < sum(shares) < 6
    phase_split.main(["--bot", "heuristic/random", "--against", "random", "--deals", "4", "--seed", "2"])
    single = capsys.readouterr().out
    phase_split.main(["--bot", "heuristic/random", "--against", "random", "--deals", "4", "--seed", "2",
                      "--jobs", "2"])
    assert "loser rate" in single
    assert single.split("(even")[0] == capsys.readouterr().out.split("(even")[0]
    with pytest.raises(ValueError, match="no bot called"):
        phase_split.main(["--bot", "clever/random"])
