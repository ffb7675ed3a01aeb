"""The CLI with the presets added by the variants issue: default tables, and Single Hand
Skitgubbe handed over to its own front end (skitgubbe.singlehand.cli), or served by the shared
simulation (skitgubbe.batch.simulate)."""

from __future__ import annotations

import json

import pytest

from skitgubbe.engine.variants import PRESETS, USUAL_PLAYERS, find_variant, usual_players
from skitgubbe.play.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_preset_has_a_usual_table_within_its_range() -> None:
    assert set(USUAL_PLAYERS) == set(PRESETS)
    for name, rules in PRESETS.items():
        assert rules.min_players <= usual_players(rules) <= rules.max_players, name
    assert usual_players(find_variant("two-player")) == 2
    assert usual_players(find_variant("catsatcards-flurst")) == 4


@pytest.mark.parametrize("name", ["two-player", "catsatcards-flurst", "mas", "koira", "catsatcards"])
def test_simulate_without_players_uses_the_usual_table(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, err = run(capsys, "simulate", "--rules", name, "--games", "4", "--seed", "3", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["players"] == usual_players(find_variant(name))
    assert sum(s["losses"] for s in data["seats"]) + data["abandoned"] == 4


def test_single_hand_simulate_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("simulate", "--rules", "single-hand", "--games", "6", "--seed", "2", "--bots", "heuristic,random",
            "--json")
    code, out1, _ = run(capsys, *args)
    assert code == 0
    _, out2, _ = run(capsys, *args)
    data = json.loads(out1)
    assert out1 == out2
    assert data["rules"] == "single-hand" and data["players"] == 4
    # the same JSON as the presets' (skitgubbe.batch.simulate serves both games)
    assert sum(s["losses"] for s in data["seats"]) + data["abandoned"] == 6
    assert set(data["bots_summary"]) == {"heuristic", "random"}


def test_single_hand_refuses_a_bot_and_a_table_it_does_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--rules", "single-hand", "--games", "2", "--bots", "counter")
    assert code == 2 and "no Single Hand bot called 'counter'" in out
    with pytest.raises(SystemExit):
        main(["simulate", "--rules", "single-hand", "--games", "2", "--players", "2"])
    assert "single-hand is for 3 to 8 players, not 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["tournament", "--rules", "single-hand", "--deals", "2"])
    assert "for single-hand use play or simulate" in capsys.readouterr().err


def test_single_hand_play_reads_moves_until_quit(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["9", "nonsense", "1", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code, out, _ = run(capsys, "play", "--rules", "single-hand", "--seed", "4", "--players", "3")
    assert code == 0
    assert "single-hand, 3 players, seed 4" in out
    assert out.count("Not allowed:") == 2  # move 9 does not exist; "nonsense" is not a move
    assert "Goodbye: you left the game." in out


def test_single_hand_play_to_the_end(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")  # always the first legal move
    code, out, _ = run(capsys, "play", "--rules", "single", "--seed", "7", "--players", "3")
    assert code == 0
    assert "the skitgubbe." in out or "abandoned" in out


def test_rules_list_names_single_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "list")
    assert code == 0
    for name in [*PRESETS, "single-hand"]:
        assert name in out


def test_single_hand_one_move_is_asked_as_enter(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16, item 11: with a single move the prompt names it and Enter takes it, never '[1-1'."""
    prompts: list[str] = []

    def answer(prompt: str = "") -> str:
        prompts.append(prompt)
        return "" if prompt.startswith("Your move [Enter = ") else "1"

    monkeypatch.setattr("builtins.input", answer)
    for seed in range(1, 40):
        code, out, _ = run(capsys, "play", "--rules", "single-hand", "--seed", str(seed), "--players", "3")
        assert code == 0 and "Not allowed" not in out
        if any(p.startswith("Your move [Enter = ") for p in prompts):
            break
    assert any(p.startswith("Your move [Enter = ") for p in prompts)
    assert not any(p.startswith("Your move [1-1,") for p in prompts)
