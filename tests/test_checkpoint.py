"""Tournament checkpoints: a run that stops goes on from its file with the same results.

Run: cd /work/main && .venv/bin/pytest -q tests/test_checkpoint.py
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from skitgubbe.batch.backend import LocalBackend, RayBackend
from skitgubbe.batch.checkpoint import FORMAT, CheckpointError, TournamentCheckpoint
from skitgubbe.batch.tournament import DealResult, TournamentResult, entrant_labels, run_tournament
from skitgubbe.engine.record import Record
from skitgubbe.engine.variants import find_variant
from skitgubbe.play.cli import main

PAGAT = find_variant("pagat")
GOAT = find_variant("goat")
BOTS = ["counter", "heuristic", "heuristic"]
LABELS = entrant_labels(BOTS)
RAY_ADDRESS = os.environ.get("SKITGUBBE_RAY_ADDRESS", "")


class Stop(Exception):
    """Stands for whatever ends a run early (Ctrl-C, the end of a session)."""


def run(path: Path, deals: int, *, stop_after: int | None = None, seed: int = 4,
        backend: LocalBackend | RayBackend | None = None, jobs: int = 1,
        keep: Callable[[int, int, Record], None] | None = None) -> TournamentResult:
    """The tournament of BOTS at pagat with its checkpoint at ``path``, stopped (``Stop``) once
    ``stop_after`` new deals are written."""
    with TournamentCheckpoint(path, PAGAT, 3, LABELS, seed) as checkpoint:
        written = 0

        def on_deal(result: DealResult) -> None:
            nonlocal written
            checkpoint.append(result)
            written += 1
            if written == stop_after:
                raise Stop

        return run_tournament(PAGAT, 3, BOTS, deals, seed, jobs=jobs, backend=backend,
                              resume=checkpoint.deals, on_deal=on_deal, keep=keep)


@pytest.fixture(scope="module")
def plain() -> TournamentResult:
    """The same tournament run straight through, with no checkpoint."""
    return run_tournament(PAGAT, 3, BOTS, 6, 4, jobs=1)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_stopped_run_goes_on_from_its_checkpoint_with_the_same_results(
        tmp_path: Path, plain: TournamentResult, jobs: int) -> None:
    path = tmp_path / "ck.jsonl"
    with pytest.raises(Stop):
        run(path, 6, stop_after=2, backend=LocalBackend(jobs))
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["format"] == FORMAT
    assert [json.loads(line)["deal"] for line in lines[1:]] == [0, 1]  # in deal order, whatever the workers
    played: list[int] = []
    with TournamentCheckpoint(path, PAGAT, 3, LABELS, 4) as checkpoint:

        def on_deal(result: DealResult) -> None:
            played.append(result.deal)
            checkpoint.append(result)

        resumed = run_tournament(PAGAT, 3, BOTS, 6, 4, jobs=jobs, resume=checkpoint.deals, on_deal=on_deal)
    assert played == [2, 3, 4, 5]  # only the missing deals were played
    assert resumed.to_dict() == plain.to_dict()
    assert resumed.timings()["counter"]["moves"] == plain.timings()["counter"]["moves"]
    assert len(path.read_text().splitlines()) == 7


def test_a_checkpoint_grows_into_a_longer_run_and_serves_a_shorter_one(tmp_path: Path,
                                                                        plain: TournamentResult) -> None:
    path = tmp_path / "ck.jsonl"
    run(path, 3)
    assert run(path, 6).to_dict() == plain.to_dict()
    shorter = run(path, 2)
    assert shorter.to_dict() == run_tournament(PAGAT, 3, BOTS, 2, 4, jobs=1).to_dict()
    assert len(path.read_text().splitlines()) == 7  # nothing played, nothing written


def test_cpu_seconds_are_measured_per_deal_and_add_up_over_runs(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    first = run(path, 2)
    assert first.cpu_seconds > 0
    whole = run(path, 4)
    with TournamentCheckpoint(path, PAGAT, 3, LABELS, 4) as checkpoint:
        per_deal = [d.cpu_seconds for d in checkpoint.deals]
    assert all(s > 0 for s in per_deal)
    assert whole.cpu_seconds == pytest.approx(sum(per_deal))
    assert whole.cpu_seconds > first.cpu_seconds


def test_a_deal_goes_through_json_unchanged() -> None:
    result = run_tournament(GOAT, 4, ["heuristic", "random"], 1, 9, jobs=1)
    with_times = DealResult(0, result.games, result.move_times, [], 0.25)
    back = DealResult.from_dict(json.loads(json.dumps(with_times.to_dict())))
    assert back.games == result.games
    assert [g.seconds for g in back.games] == [g.seconds for g in result.games]
    assert {b: (t.bins, t.count, t.total) for b, t in back.times.items()} == \
        {b: (t.bins, t.count, t.total) for b, t in result.move_times.items()}
    assert back.cpu_seconds == 0.25 and back.records == []


@pytest.mark.parametrize(("change", "named"), [
    (lambda d: d.pop("deal"), "deal: missing"),
    (lambda d: d.__setitem__("deal", "7"), "deal: '7' is not a whole number"),
    (lambda d: d.__setitem__("deal", True), "deal: True is not a whole number"),
    (lambda d: d["games"][1].pop("places"), "games[1].places: missing"),
    (lambda d: d["games"][0]["places"].__setitem__(2, "x"), "games[0].places[2]: 'x' is not a number"),
    (lambda d: d["games"][0].__setitem__("loser", 1.5), "games[0].loser: 1.5 is neither a seat nor null"),
    (lambda d: d["games"][0].__setitem__("seats", [1, 2, 3]), "games[0].seats"),
    (lambda d: d["times"]["counter"].__setitem__("bins", {"a": 1}), "times['counter'].bins"),
    (lambda d: d.__setitem__("cpu_seconds", None), "cpu_seconds: None is not a number"),
    (lambda d: d.__setitem__("games", {}), "games: {} is not a list"),
])
def test_a_damaged_deal_is_refused_naming_the_field(change: object, named: str) -> None:
    data = run_tournament(PAGAT, 3, BOTS, 1, 4, jobs=1)
    deal = DealResult(0, data.games, data.move_times, [], 1.0).to_dict()
    deal = json.loads(json.dumps(deal))
    change(deal)  # type: ignore[operator]
    with pytest.raises(ValueError, match=named.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")):
        DealResult.from_dict(deal)


def test_a_line_cut_off_while_being_written_is_dropped(tmp_path: Path, plain: TournamentResult) -> None:
    path = tmp_path / "ck.jsonl"
    run(path, 3)
    text = path.read_text()
    path.write_text(text[: len(text) - 40])  # the last deal's line, cut short, with no newline
    with TournamentCheckpoint(path, PAGAT, 3, LABELS, 4) as checkpoint:
        assert [d.deal for d in checkpoint.deals] == [0, 1]
    assert path.read_text() == "".join(text.splitlines(keepends=True)[:3])  # cut back to whole lines
    assert run(path, 6).to_dict() == plain.to_dict()


def test_damage_inside_the_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "ck.jsonl"
    run(path, 3)
    lines = path.read_text().splitlines(keepends=True)
    for bad, message in [
        ("{not json\n", "line 3: not a line of JSON"),
        ('{"deal": 1}\n', "line 3: games: missing"),
        (lines[3], "line 3: deal 2 where deal 1 was expected"),
    ]:
        path.write_text("".join([*lines[:2], bad, lines[3]]))
        with pytest.raises(CheckpointError, match=message):
            TournamentCheckpoint(path, PAGAT, 3, LABELS, 4)
        assert path.read_text() == "".join([*lines[:2], bad, lines[3]])  # the file is left as it was


@pytest.mark.parametrize(("rules", "players", "bots", "seed", "named"), [
    (PAGAT, 3, LABELS, 5, "seed is 4 in the file but 5 in this run"),
    (PAGAT, 3, ["counter", "heuristic"], 4, "bots is"),
    (PAGAT, 4, LABELS, 4, "players is 3 in the file but 4"),
    (GOAT, 3, LABELS, 4, "rules is 'pagat' in the file but 'goat'"),
    (dataclasses.replace(PAGAT, aces_low_first=True), 3, LABELS, 4,
     "option aces_low_first is False in the file but True in this run"),
])
def test_another_tournaments_file_is_refused_naming_what_differs(
        tmp_path: Path, rules: object, players: int, bots: list[str], seed: int, named: str) -> None:
    path = tmp_path / "ck.jsonl"
    run(path, 1)
    before = path.read_text()
    with pytest.raises(CheckpointError, match=f"line 1: {named}"):
        TournamentCheckpoint(path, rules, players, bots, seed)  # type: ignore[arg-type]
    assert path.read_text() == before


def test_a_file_that_is_no_checkpoint_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"hello": 1}\n')
    with pytest.raises(CheckpointError, match="line 1: not a tournament checkpoint"):
        TournamentCheckpoint(path, PAGAT, 3, LABELS, 4)


def test_resume_refuses_deals_of_other_seatings_or_given_twice(tmp_path: Path) -> None:
    other = run_tournament(PAGAT, 3, ["heuristic", "random"], 1, 4, jobs=1)
    foreign = DealResult(0, other.games, other.move_times, [])
    with pytest.raises(ValueError, match="not played in this tournament's seatings"):
        run_tournament(PAGAT, 3, BOTS, 2, 4, jobs=1, resume=[foreign])
    mine = run_tournament(PAGAT, 3, BOTS, 1, 4, jobs=1)
    deal = DealResult(0, mine.games, mine.move_times, [])
    with pytest.raises(ValueError, match="deal 0 is given twice"):
        run_tournament(PAGAT, 3, BOTS, 2, 4, jobs=1, resume=[deal, deal])
    with (TournamentCheckpoint(tmp_path / "ck.jsonl", PAGAT, 3, LABELS, 4) as checkpoint,
          pytest.raises(ValueError, match="deal 1 given where deal 0 comes next")):
        checkpoint.append(DealResult(1, mine.games, mine.move_times, []))


def test_records_of_a_resumed_run_are_kept_once_each_in_order(tmp_path: Path) -> None:
    kept: list[tuple[int, int]] = []

    def keep(deal: int, seating: int, record: Record) -> None:
        kept.append((deal, seating))

    with pytest.raises(Stop):
        run(tmp_path / "ck.jsonl", 4, stop_after=2, keep=keep, backend=LocalBackend(2))
    run(tmp_path / "ck.jsonl", 4, keep=keep)
    assert kept == [(d, q) for d in range(4) for q in range(6)]


def test_cli_goes_on_from_a_checkpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ck.jsonl"
    args = ["tournament", "--rules", "pagat", "--bots", "counter,heuristic,heuristic", "--seed", "4",
            "--jobs", "1", "--json"]
    outs = []
    for extra in (["--deals", "2", "--checkpoint", str(path)], ["--deals", "4", "--checkpoint", str(path)],
                  ["--deals", "4"]):
        assert main([*args, *extra]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out.pop("cpu_seconds") > 0
        out.pop("timings")
        outs.append(out)
    assert outs[1] == outs[2] and outs[0]["deals"] == 2
    assert main([*args[:-1], "--deals", "4", "--checkpoint", str(path)]) == 0
    assert "CPU seconds" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        main([*args, "--deals", "4", "--seed", "5", "--checkpoint", str(path)])
    assert e.value.code == 2
    assert "seed is 4 in the file but 5 in this run" in capsys.readouterr().err


@pytest.mark.skipif(not RAY_ADDRESS, reason="no Ray head: set SKITGUBBE_RAY_ADDRESS (.ci/run does)")
def test_a_run_stopped_here_goes_on_on_ray_with_the_same_results(tmp_path: Path,
                                                                  plain: TournamentResult) -> None:
    path = tmp_path / "ck.jsonl"
    with pytest.raises(Stop):
        run(path, 6, stop_after=3)
    with RayBackend(RAY_ADDRESS) as ray:
        assert run(path, 6, backend=ray).to_dict() == plain.to_dict()


def test_cli_says_where_the_deals_are_kept_when_stopped(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import skitgubbe.batch.tournament as tournament

    real = tournament.run_tournament

    def stopped_after_two(*args: object, on_deal: Callable[[DealResult], None], **kw: object) -> object:
        def on_deal_then_stop(result: DealResult) -> None:
            on_deal(result)
            if result.deal == 1:
                raise KeyboardInterrupt

        return real(*args, on_deal=on_deal_then_stop, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament, "run_tournament", stopped_after_two)
    path = tmp_path / "ck.jsonl"
    assert main(["tournament", "--bots", "heuristic,random", "--deals", "5", "--jobs", "1",
                 "--checkpoint", str(path)]) == 130
    # (the console wraps a long line anywhere, inside the path too: compared without any white space)
    said = "".join(capsys.readouterr().err.split())
    assert "".join(f"stopped: 2 of 5 deals are kept in {path}; the same command goes on".split()) in said
    assert len(path.read_text().splitlines()) == 3
