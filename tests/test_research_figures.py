"""benchmarks/research_figures.py: a figure whose extra is missing is skipped, naming the extra,
and does not make the script fail (issue 32: it exited 1 without matplotlib)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _module():  # type: ignore[no-untyped-def]
    path = ROOT / "benchmarks" / "research_figures.py"
    spec = importlib.util.spec_from_file_location("research_figures", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["research_figures"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_a_figure_whose_extra_is_missing_is_skipped(capsys: pytest.CaptureFixture[str]) -> None:
    rf = _module()
    fig = rf.Figure("x", "a section", ["false"], needs=(("no_such_module_here", "study"),))
    assert rf.missing_extras(fig) == ["study"]
    assert rf.run_figure(fig) == 0  # the command (`false`) is not run
    assert "skipped: needs the study extra (pip install -e '.[study]')" in capsys.readouterr().out


def test_every_figure_that_imports_an_extra_declares_it() -> None:
    rf = _module()
    by_name = {f.name: f for f in rf.FIGURES}
    assert ("matplotlib", "study") in by_name["learned-curve"].needs
    for name in ("openspiel-speed", "openspiel-decisions", "openspiel-forced", "ismcts"):
        assert ("pyspiel", "openspiel") in by_name[name].needs, name
    assert ("pettingzoo", "pettingzoo") in by_name["forced"].needs
