"""Backends (local processes, Ray): the same results for the same seed whatever runs the deals.

The Ray tests run against a running head whose address is in ``SKITGUBBE_RAY_ADDRESS`` (.ci/run
starts one on the loopback address); without it they are skipped.

Run: cd /work/main && .venv/bin/pytest -q tests/test_backend.py
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest

from skitgubbe.batch.backend import LocalBackend, RayBackend, chunks, make_backend
from skitgubbe.batch.evaluate import evaluate
from skitgubbe.batch.simulate import simulate
from skitgubbe.batch.study import run_study
from skitgubbe.batch.tournament import run_tournament
from skitgubbe.bots import make_bot
from skitgubbe.engine.record import Record, dumps
from skitgubbe.engine.variants import find_variant
from skitgubbe.play.cli import main

PAGAT = find_variant("pagat")
GOAT = find_variant("goat")
RAY_ADDRESS = os.environ.get("SKITGUBBE_RAY_ADDRESS", "")
needs_ray = pytest.mark.skipif(not RAY_ADDRESS,
                               reason="no Ray head: set SKITGUBBE_RAY_ADDRESS (.ci/run does)")


def square(x: int) -> int:
    return x * x


def test_chunks_cut_the_range_in_order_whatever_the_workers() -> None:
    assert chunks(7, 3) == [(0, 3), (3, 3), (6, 1)]
    assert chunks(0, 5) == []
    assert sum(k for _, k in chunks(101, 25)) == 101
    with pytest.raises(ValueError, match="size >= 1"):
        chunks(5, 0)


@pytest.mark.parametrize("jobs", [1, 2])
def test_local_map_keeps_the_tasks_order_and_reports_each(jobs: int) -> None:
    seen: list[tuple[int, int]] = []
    out = LocalBackend(jobs).map(square, list(range(9)), lambda i, r: seen.append((i, r)))
    assert out == [i * i for i in range(9)]
    assert sorted(seen) == [(i, i * i) for i in range(9)]


def test_make_backend_refuses_what_it_cannot_do() -> None:
    with pytest.raises(ValueError, match="backends: local, ray"):
        make_backend("spark")
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        make_backend("local", jobs=0)
    with pytest.raises(ValueError, match="--address is for --backend ray"):
        make_backend("local", address="127.0.0.1:6379")
    assert isinstance(make_backend("local", jobs=3), LocalBackend)


def test_ray_backend_says_how_to_install_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    with pytest.raises(RuntimeError, match=r"skitgubbe\[cluster\]"):
        RayBackend()


class RayThatCannotConnect:
    """Stands for the ``ray`` module where no cluster answers (or one refuses the token)."""

    @staticmethod
    def is_initialized() -> bool:
        return False

    @staticmethod
    def init(**options: object) -> None:
        raise ConnectionError(f"Failed to connect to Ray cluster at {options['address']}")


def test_a_cluster_that_does_not_answer_is_named_with_how_to_give_its_token(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", RayThatCannotConnect)
    with pytest.raises(ConnectionError,
                       match=r"no Ray cluster answered at 10\.0\.0\.9:6379: .*RAY_AUTH_MODE=token"):
        RayBackend("10.0.0.9:6379")
    with pytest.raises(SystemExit) as e:
        main(["tournament", "--deals", "1", "--backend", "ray", "--address", "10.0.0.9:6379"])
    assert e.value.code == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "no Ray cluster answered at 10.0.0.9:6379" in err and "Traceback" not in err


def test_simulate_is_the_same_for_any_number_of_processes() -> None:
    kept: dict[int, list[str]] = {1: [], 2: []}
    results = {}
    for jobs in (1, 2):
        def keep(record: Record, jobs: int = jobs) -> None:
            kept[jobs].append(dumps(record))

        results[jobs] = simulate(PAGAT, 3, 60, ["heuristic", "random"], 4, jobs=jobs, keep=keep).to_dict()
    assert results[1] == results[2]
    assert results[1]["games"] == 60
    assert kept[1] == kept[2] and len(kept[1]) == 60


def test_tournament_on_a_backend_equals_the_plain_run() -> None:
    plain = run_tournament(GOAT, 4, ["heuristic", "random"], 6, 3, jobs=1)
    on_backend = run_tournament(GOAT, 4, ["heuristic", "random"], 6, 3, backend=LocalBackend(2))
    assert plain.to_dict() == on_backend.to_dict()


def test_study_is_the_same_for_any_number_of_processes() -> None:
    one = run_study("trump-early", LocalBackend(1), deals=2, seed=5)
    two = run_study("trump-early", LocalBackend(2), deals=2, seed=5)
    assert one.to_dict() == two.to_dict()
    assert run_study("trump-early", LocalBackend(1), deals=2, seed=6).rows != one.rows  # the seed counts


def test_cli_refuses_an_address_without_ray(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--games", "2", "--address", "127.0.0.1:1"])
    assert e.value.code == 2
    assert "--address is for --backend ray" in capsys.readouterr().err


def test_cli_simulate_jobs_do_not_change_the_output(capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for jobs in ("1", "2"):
        assert main(["simulate", "--rules", "goat", "--games", "30", "--seed", "9", "--jobs", jobs,
                     "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1]


def _figures(result: object) -> list[tuple[object, ...]]:
    """An evaluation's figures without its timing."""
    return [(r.rung, r.games, r.losses, r.abandoned, r.loser_rate) for r in result.rungs]  # type: ignore[attr-defined]


def test_evaluate_on_a_backend_equals_the_plain_run(capsys: pytest.CaptureFixture[str]) -> None:
    agent = make_bot("heuristic", random.Random(0))
    plain = evaluate(agent, PAGAT, 3, deals=4, ladder=["random", "heuristic"])
    on_backend = evaluate(agent, PAGAT, 3, deals=4, ladder=["random", "heuristic"], backend=LocalBackend(2))
    assert _figures(plain) == _figures(on_backend) and plain.rungs[0].games == 12
    outs = []
    for extra in ([], ["--jobs", "2"]):
        assert main(["evaluate", "--agent", "heuristic", "--deals", "3", "--ladder", "random", "--json",
                     *extra]) == 0
        data = json.loads(capsys.readouterr().out)
        outs.append([(r["rung"], r["games"], r["losses"]) for r in data["rungs"]])
    assert outs[0] == outs[1]


@needs_ray
def test_ray_tournament_and_simulate_equal_the_local_run() -> None:
    with RayBackend(RAY_ADDRESS) as ray:
        tour = run_tournament(PAGAT, 3, ["counter", "heuristic", "random"], 4, 7, backend=ray)
        sim = simulate(GOAT, 4, 50, ["heuristic", "random"], 8, backend=ray)
    local = run_tournament(PAGAT, 3, ["counter", "heuristic", "random"], 4, 7, jobs=1)
    assert tour.to_dict() == local.to_dict()
    assert sim.to_dict() == simulate(GOAT, 4, 50, ["heuristic", "random"], 8).to_dict()
    agent = make_bot("heuristic", random.Random(0))
    with RayBackend(RAY_ADDRESS) as ray:
        on_ray = evaluate(agent, PAGAT, 3, deals=3, ladder=["random"], backend=ray)
    assert _figures(on_ray) == _figures(evaluate(agent, PAGAT, 3, deals=3, ladder=["random"]))


@needs_ray
def test_ray_study_equals_the_local_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "aces-low", "--out", str(tmp_path / "ray"), "--deals", "2", "--seed", "3",
                 "--backend", "ray", "--address", RAY_ADDRESS, "--json"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert main(["study", "aces-low", "--out", str(tmp_path / "local"), "--deals", "2", "--seed", "3",
                 "--jobs", "1", "--json"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert [s["table"] for s in on_ray["studies"]] == [s["table"] for s in local["studies"]]
    assert on_ray["studies"][0]["answer"] == local["studies"][0]["answer"]
    tables = [(tmp_path / where / "aces-low.csv").read_text() for where in ("ray", "local")]
    assert tables[0] == tables[1]
