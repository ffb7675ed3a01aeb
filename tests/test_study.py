"""Studies (issue 19): the deals they play, their statistics, their files and the command.

Sizes here are tiny (a few deals): the docs' commands (docs/study.md) run the real sizes.

Run: cd /work/main && .venv/bin/pytest -q tests/test_study.py
"""

from __future__ import annotations

import csv
import json
import math
import random
from pathlib import Path

import pytest

from skitgubbe.batch.backend import LocalBackend
from skitgubbe.batch.study import CAVEAT, STUDIES, find_study, run_study, table_size
from skitgubbe.batch.study.aces_low import gini
from skitgubbe.batch.study.core import Config, logistic_fit, run_configs
from skitgubbe.batch.study.deals import DealTask, build_bot, play_deals
from skitgubbe.batch.study.report import write_report, write_study
from skitgubbe.batch.study.strong_hand import place
from skitgubbe.batch.study.variations import rulesets
from skitgubbe.bots import HeuristicBot
from skitgubbe.engine.variants import find_variant
from skitgubbe.play.cli import main

GOAT = find_variant("goat")
HOWELL = find_variant("howell")


# -- statistics --------------------------------------------------------------------------


def test_logistic_fit_recovers_known_coefficients() -> None:
    rng = random.Random(1)
    xs, ys = [], []
    for _ in range(3000):
        a, b = rng.randint(0, 6), rng.randint(0, 6)
        p = 1 / (1 + math.exp(-(-1.0 + 0.5 * a - 0.3 * b)))
        xs.append([a, b])
        ys.append(int(rng.random() < p))
    fit = logistic_fit(xs, ys)
    for (est, low, high), truth in zip(fit, (-1.0, 0.5, -0.3), strict=True):
        assert low < truth < high
        assert abs(est - truth) < 0.2
        assert high - low < 0.5


def test_logistic_fit_refuses_collinear_or_empty_features() -> None:
    with pytest.raises(ValueError, match="collinear"):
        logistic_fit([[1, 2], [2, 4], [3, 6], [0, 0]], [0, 1, 0, 1])
    with pytest.raises(ValueError, match="at least one row"):
        logistic_fit([], [])


def test_gini_and_the_loser_place() -> None:
    assert gini([3, 3, 3, 3]) == 0.0
    assert gini([0, 0, 0, 8]) == pytest.approx(0.75)
    assert gini([0, 0]) == 0.0
    assert [place(s, 1, 4) for s in range(4)] == ["right", "itself", "left", "across"]
    assert [place(s, 0, 3) for s in range(3)] == ["itself", "left", "right"]


# -- deals -------------------------------------------------------------------------------


def test_build_bot_changes_one_instance_only() -> None:
    bot = build_bot("heuristic/trump_power=0.25", random.Random(0))
    assert isinstance(bot, HeuristicBot) and bot.trump_power == 0.25
    assert HeuristicBot(random.Random(0)).trump_power == 1.5  # the default is untouched
    with pytest.raises(ValueError, match="takes a weight"):
        build_bot("random/trump_power=1", random.Random(0))
    with pytest.raises(ValueError, match="takes a weight"):
        build_bot("heuristic/speed=1", random.Random(0))
    with pytest.raises(ValueError, match="not a number"):
        build_bot("heuristic/trump_power=lots", random.Random(0))


def test_play_deals_is_the_same_in_chunks_and_summarizes_phase_two() -> None:
    whole = play_deals(DealTask(HOWELL, 4, ("counter", "heuristic"), 3, "t", 0, 6))
    parts = [s for start in (0, 2, 4) for s in play_deals(DealTask(HOWELL, 4, ("counter", "heuristic"), 3,
                                                                   "t", start, 2))]
    assert whole == parts
    assert [d.deal for d in whole] == list(range(6))
    assert [d.shift for d in whole] == [(d + d // 4) % 4 for d in range(6)]
    for d in whole:
        assert len(d.hands) == 4
        assert sum(h.trumps for h in d.hands) <= 13
        for h in d.hands:
            assert h.low + h.aces + h.kings + h.trumps <= h.size
        if not d.abandoned:
            assert 0 <= d.loser < 4


def test_run_configs_refuses_a_table_the_rules_do_not_allow() -> None:
    with pytest.raises(ValueError, match="pagat is for 2 to 4 players, not 6"):
        run_configs([Config("x", find_variant("pagat"), 6, ("random",))], 1, 0, LocalBackend(1))
    with pytest.raises(ValueError, match="distinct"):
        run_configs([Config("x", GOAT, 4, ("random",))] * 2, 1, 0, LocalBackend(1))


def test_variations_compare_goat_with_each_howell_option() -> None:
    sets = rulesets()
    assert list(sets) == ["goat", "aces_low_first: false -> true", "bottom_aside: false -> true",
                          "show_trump_card: false -> true", "howell (all of them)"]
    assert sets["aces_low_first: false -> true"].aces_low_first and not sets["goat"].aces_low_first


# -- studies, files, command ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["cards-or-ranking", "aces-low", "strong-hand"])
def test_each_cheap_study_answers_with_intervals(name: str) -> None:
    result = run_study(name, LocalBackend(1), deals=1, seed=2)
    assert result.name == name and result.rows
    assert result.answer.endswith(CAVEAT)
    assert "[" in result.answer  # intervals
    json.dumps(result.to_dict())


def test_find_study_names_the_studies() -> None:
    assert find_study(" Table-Size ").name == "table-size"
    with pytest.raises(ValueError, match="studies: table-size, cards-or-ranking"):
        find_study("best-game")
    with pytest.raises(ValueError, match="deals must be at least 1"):
        run_study("aces-low", LocalBackend(1), deals=0)


def test_files_and_report(tmp_path: Path) -> None:
    result = run_study("strong-hand", LocalBackend(1), deals=1, seed=1)
    paths = write_study(result, tmp_path)
    assert [p.suffix for p in paths] == [".png", ".svg", ".csv", ".md", ".json"]
    assert (tmp_path / "strong-hand.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (tmp_path / "strong-hand.svg").read_text()
    with (tmp_path / "strong-hand.csv").open() as f:
        table = list(csv.reader(f))
    assert table[0] == result.columns and len(table) == len(result.rows) + 1
    report = write_report([result], tmp_path, command="skitgubbe study strong-hand")
    text = report.read_text()
    assert result.title in text and "strong-hand.png" in text and "skitgubbe study strong-hand" in text


def test_cli_study_json_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "cards-or-ranking", "--out", str(tmp_path), "--deals", "1", "--jobs", "1",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["name"] for s in data["studies"]] == ["cards-or-ranking"] and data["report"] is None
    assert all(Path(p).exists() for p in data["studies"][0]["files"])
    with pytest.raises(SystemExit):
        main(["study", "best-game", "--out", str(tmp_path)])
    assert "invalid choice" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["study", "aces-low", "--out", str(tmp_path), "--deals", "0"])
    assert "--deals must be at least 1" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["table-size", "variations", "trump-early", "cards-or-ranking", "aces-low"])
def test_every_study_draws_its_figure(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_size, "TABLES", (("pagat", (2, 3)),))  # the real 13 tables are slow here
    result = run_study(name, LocalBackend(1), deals=1, seed=4)
    write_study(result, tmp_path)
    assert (tmp_path / f"{name}.png").stat().st_size > 5000  # a drawn figure, not an empty canvas
    assert result.bots in (tmp_path / f"{name}.md").read_text()


def test_table_size_measures_skill_on_a_fair_scale() -> None:
    summaries = play_deals(DealTask(GOAT, 4, ("heuristic",), 1, "e", 0, 8))
    data = {label: summaries for label in ("t:S", "t:W", "t:E")}
    m = table_size.skill_rows("t", 4, data)
    # the same deals for all three line-ups: the "strong" and "weak" seat lose equally often, so the
    # index is (w - f) / (1 - f) + (f - w) / f halved, and its interval is reported around it
    assert m["strong"] == m["weak"]
    p, f = m["weak"][0], 1 / 4
    assert m["skill"][0] == pytest.approx(((p - f) / (1 - f) + (f - p) / f) / 2)
    assert m["skill"][1] <= m["skill"][0] <= m["skill"][2]
    assert m["actions"] == sum(d.actions for d in summaries) / 8


def test_every_study_is_registered_with_its_figure() -> None:
    assert list(STUDIES) == ["table-size", "cards-or-ranking", "aces-low", "strong-hand", "variations",
                             "trump-early"]
    for study in STUDIES.values():
        assert study.scale >= 1 and callable(study.draw)
