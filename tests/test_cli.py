"""The ``skitgubbe`` command: simulate, replay, rules, bench (play is in test_tui.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skitgubbe.engine.record import dumps, loads, record_of, replay
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS, find_variant
from skitgubbe.play.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_same_seed_same_output(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("simulate", "--rules", "goat", "--players", "4", "--games", "12", "--seed", "5")
    code1, out1, err1 = run(capsys, *args)
    code2, out2, _ = run(capsys, *args)
    assert code1 == code2 == 0
    assert out1 == out2
    assert "loser rate per seat" in out1 and "loser rate per bot" in out1
    assert "games per second" in err1


def test_simulate_json_counts_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--rules", "pagat", "--players", "3", "--games", "20",
                       "--bots", "heuristic,random", "--seed", "2", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["games"] == 20
    assert sum(s["losses"] for s in data["seats"]) + data["abandoned"] == 20
    assert [s["bot"] for s in data["seats"]] == ["heuristic", "random", "heuristic"]
    summary = data["bots_summary"]
    assert summary["heuristic"]["seat_games"] == 40 and summary["random"]["seat_games"] == 20
    for s in data["seats"]:
        assert s["low"] <= s["rate"] <= s["high"]
    assert data["mean_actions"] > 0 and data["mean_tricks"] > 0


def test_simulate_writes_records_that_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "simulate", "--rules", "goat", "--players", "3", "--games", "3",
                     "--record", str(tmp_path), "--seed", "9")
    assert code == 0
    files = sorted(tmp_path.glob("*.sgr"))
    assert len(files) == 3
    for f in files:
        code, out, _ = run(capsys, "replay", str(f), "--json")
        assert code == 0
        data = json.loads(out)
        assert data["over"] is True
        assert data["loser"] == loads(f.read_text()).loser


def test_simulate_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--rules", "goat", "--players", "2", "--games", "3"])
    assert e.value.code == 2
    assert "goat is for 3 to 8 players, not 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["simulate", "--rules", "nosuch", "--games", "3"])
    assert "no rules called 'nosuch'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["simulate", "--bots", "genius", "--games", "3"])
    assert "no bot called 'genius'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["simulate", "--games", "0"])
    assert "--games must be at least 1" in capsys.readouterr().err


def _finished_record(tmp_path: Path) -> Path:
    import random

    state = State.new(find_variant("pagat"), 3, seed=11)
    rng = random.Random(3)
    while not state.is_over:
        state.apply(state.random_action(rng), state.to_act)
    path = tmp_path / "game.sgr"
    path.write_text(dumps(record_of(state, seed=11)))
    return path


def test_replay_finished_game_prints_loser_and_out_order(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = _finished_record(tmp_path)
    record = loads(path.read_text())
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert f"loser: seat {record.loser}" in out
    assert "out in this order:" in out


def test_replay_unfinished_game_lists_legal_actions(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "start.sgr"
    path.write_text("skitgubbe-record = 1\nrules = goat\nplayers = 3\ndealer = 0\nseed = 4\nmoves:\n")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert "the game goes on: phase one, to act: 1" in out
    assert "seat 1 may: play" in out
    code, out, _ = run(capsys, "replay", str(path), "--json")
    data = json.loads(out)
    assert data["over"] is False and data["to_act"] == 1
    assert "stock" in data["legal"]["1"]


def test_replay_names_the_first_illegal_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = State.new(find_variant("pagat"), 3, seed=4)
    held = state.hands[1]
    not_held = next(c for c in range(52) if not held >> c & 1 and c != state.stock[-1])
    from skitgubbe.engine.cards import card_name

    path = tmp_path / "bad.sgr"
    path.write_text("skitgubbe-record = 1\nrules = pagat\nplayers = 3\ndealer = 0\nseed = 4\nmoves:\n"
                    f"1 play {card_name(not_held)}\n")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    assert "move 1 (line 7): seat 1" in err and "you do not hold" in err
    code, out, _ = run(capsys, "replay", str(path), "--json")
    data = json.loads(out)
    assert code == 1 and data["index"] == 0 and data["line"] == 7 and data["seat"] == 1


def test_replay_malformed_record_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.sgr"
    path.write_text("skitgubbe-record = 1\nrules = pagat\nplayers = nine\n")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2
    assert "malformed record: line 3, players: 'nine' is not a whole number" in err
    code, _, err = run(capsys, "replay", str(tmp_path / "missing.sgr"))
    assert code == 2 and "cannot read" in err


def test_rules_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "list")
    assert code == 0 and "pagat" in out and "goat" in out and "flurst" in out
    code, out, _ = run(capsys, "rules", "show", "flurst", "--json")
    assert code == 0
    assert json.loads(out) == find_variant("goat").options()
    code, out, _ = run(capsys, "rules", "show", "pagat")
    assert "first_phase" in out and "pairs" in out
    with pytest.raises(SystemExit) as e:
        main(["rules", "show", "nosuch"])
    assert e.value.code == 2


def test_bench_reports_both_rulesets(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--games", "3", "--rounds", "2", "--json")
    data = json.loads(out)
    assert code == 0
    assert [(r["rules"], r["players"]) for r in data["results"]][:2] == [("pagat", 3), ("goat", 4)]
    assert {r["rules"] for r in data["results"]} == set(PRESETS)
    for r in data["results"]:
        assert r["games_per_round"] == 3 and r["rounds"] == 2 and r["mean_actions_per_game"] > 0
        assert r["best_games_per_second"] >= r["median_games_per_second"] > 0
    code, out, _ = run(capsys, "bench", "--games", "2", "--rounds", "1")
    assert code == 0 and "games/s" in out
    code, _, err = run(capsys, "bench", "--games", "0")
    assert code == 2 and "at least 1" in err


def test_play_validates_seat_and_players(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--seat", "5"])
    assert "--seat: seats are 0..2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--players", "9"])
    assert "pagat is for 2 to 4 players, not 9" in capsys.readouterr().err


def test_tournament_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--rules", "pagat", "--players", "3", "--bots", "heuristic,random",
            "--deals", "4", "--seed", "3", "--jobs", "1"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "timings" in data and set(data["timings"]) == {"heuristic", "random"}
    assert main([*args, "--record", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "4 deals x 6 seatings = 24 games" in out and "heuristic" in out
    assert len(list(tmp_path.glob("*.sgr"))) == 24
    for bad, message in ((["--deals", "0"], "--deals must be at least 1"),
                         (["--jobs", "0"], "--jobs must be")):
        with pytest.raises(SystemExit):
            main(["tournament", "--deals", "1", *bad] if bad[0] == "--jobs" else ["tournament", *bad])
        assert message in capsys.readouterr().err


# -- hostile input (issue 14): a malformed record or rules file is a one-line error, exit 2 ----------

GOOD_RECORD = "skitgubbe-record = 1\nrules = pagat\nplayers = 3\ndealer = 0\nseed = 42\nmoves:\n1 play 5C\n"


@pytest.mark.parametrize(
    ("data", "where"),
    [
        (GOOD_RECORD.encode().replace(b"seed = 42", b"seed = 4\xff2"), "line 5, seed: "),
        (GOOD_RECORD.encode().replace(b"1 play 5C", b"\xb2 play 5C"), "line 7, moves: "),
        (GOOD_RECORD.replace("1 play 5C", "² play 5C").encode(), "line 7, moves: "),
        (GOOD_RECORD.replace("1 play 5C", "9" * 5000 + " play 5C").encode(), "line 7, moves: "),
        (GOOD_RECORD.replace("seed = 42", "seed = --42").encode(), "line 5, seed: "),
        (GOOD_RECORD.replace("seed = 42", 'seed = "\\udc80"').encode(), "line 5, seed: "),
        (GOOD_RECORD.replace("rules = pagat", "rules = goat\nrule confusion = true").replace(
            "players = 3", "players = 5").encode(), "line 4, players: "),
        (GOOD_RECORD.replace("rules = pagat", "rules = pagat\nrule hand_size = ²").encode(),
         "line 3, rule hand_size: "),
    ],
    ids=["invalid UTF-8", "invalid UTF-8 seat", "Unicode-digit seat", "5,000-digit seat", "seed --42",
         "lone surrogate seed", "confusion at 5 seats", "Unicode-digit rule"],
)
@pytest.mark.parametrize("command", ["replay", "hint"])
def test_replay_and_hint_refuse_hostile_records_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, where: str, command: str) -> None:
    path = tmp_path / "bad.sgr"
    path.write_bytes(data)
    code, out, err = run(capsys, command, str(path))
    assert code == 2 and out == ""
    assert err.startswith(f"{path}: malformed record: {where}"), err[:300]
    assert err.count("\n") == 1 and len(err) < 500 + len(str(path))


def test_replay_of_a_chance_sluff_is_an_illegal_move(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Under sluff_once (helmfrid), a sluff taken by chance was a ValueError('negative shift count')."""
    state = State.new(find_variant("helmfrid"), 3, seed=1)
    held = state.hands[-1]  # (a card of the last seat: seat -1 read as that seat's hand, then crashed)
    from skitgubbe.engine.cards import card_name

    path = tmp_path / "chance.sgr"
    path.write_text(dumps(record_of(state, seed=1)) + f"chance sluff {card_name(held.bit_length() - 1)}\n")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    assert "move 1 (line 8): seat -1 sluff" in err and "chance" in err


@pytest.mark.parametrize(
    ("toml", "words"),
    [
        ('preset = "goat"\n[options]\nhand_size = ' + "[" * 5000 + "]" * 5000 + "\n",
         "line 3, options.hand_size: arrays or tables nested too deeply"),
        ('preset = "goat"\n[options]\nhand_size = "²"\n',
         "options.hand_size: '²' is not allowed; give a whole number, 1 to 6"),
        ('preset = "goat"\n[options]\nhand_size = ' + "9" * 5000 + "\n",
         "line 3, options.hand_size: a number of 5000 digits"),
    ],
    ids=["deep nesting", "Unicode digits", "5,000 digits"],
)
def test_rules_show_and_rules_file_refuse_hostile_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], toml: str, words: str) -> None:
    path = tmp_path / "house.toml"
    path.write_text(toml, encoding="utf-8")
    with pytest.raises(SystemExit) as e:
        main(["rules", "show", str(path)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"skitgubbe rules show: {path}: {words}"), err[:300]
    assert err.count("\n") == 1
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--rules-file", str(path), "--games", "1"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --rules-file: {path}: {words}" in err, err[-300:]


def test_a_rules_file_that_is_not_utf8_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "house.toml"
    path.write_bytes(b'preset = "goat"\nname = "g\xf6t"\n')
    with pytest.raises(SystemExit) as e:
        main(["rules", "show", str(path)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"skitgubbe rules show: {path}: line 2: not UTF-8"), err


# -- issue 16, item 8: hint on a finished deal -------------------------------------------------------


def test_hint_on_a_finished_record_says_the_deal_is_over_and_who_lost(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _finished_record(tmp_path)
    state = replay(loads(path.read_text()))
    assert state.is_over and state.loser is not None
    code, out, err = run(capsys, "hint", str(path))
    assert code == 0 and err == ""
    assert out.splitlines()[0] == (f"the deal is over: seat {state.loser} lost (seat {state.loser} is the "
                                   "skitgubbe); there are no moves left")
    assert "out in this order: " + ", ".join(f"seat {s}" for s in state.out_order) in out
    assert "no seat -2" not in out
    code, out, _ = run(capsys, "hint", str(path), "--json")
    assert code == 0
    assert json.loads(out) == {"over": True, "loser": state.loser, "abandoned": False,
                               "out_order": list(state.out_order)}
    code, out, _ = run(capsys, "hint", str(path), "--seat", "1")  # a seat that exists: the same answer
    assert code == 0 and out.startswith("the deal is over")
    code, _, err = run(capsys, "hint", str(path), "--seat", "3")
    assert code == 2 and "there is no seat 3 to give hints for (seats 0..2)" in err


def test_hint_when_chance_is_to_act_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A record that stops before the dreck is dealt to several needy seats: nobody is to act."""
    import random

    from skitgubbe.engine.actions import CHANCE

    state = State.new(find_variant("goat"), 5, seed=1)
    rng = random.Random(1)
    while state.to_act != CHANCE:
        state.apply(state.random_action(rng), state.to_act)
    path = tmp_path / "dreck.sgr"
    path.write_text(dumps(record_of(state, seed=1)))
    code, out, _ = run(capsys, "hint", str(path))
    assert code == 0 and out.startswith("nobody is to act: chance deals the dreck next")
    code, out, _ = run(capsys, "hint", str(path), "--seat", "0")
    assert code == 0 and out.startswith("seat 0, dreck deal:")
