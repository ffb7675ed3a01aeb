"""3-player confusion in the terminal (Flurst, "3-player confusion"; rulings CF1-CF3): the person
holds two seats, s and s + 3, and is asked whenever either hand acts; the bots play the other four.
Whole games with scripted answers, the end-of-game message, the two hands on the screen, and the
refusal of a wrong seat count (play_game and the ``skitgubbe play`` command)."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console

from skitgubbe.engine.actions import Action
from skitgubbe.engine.cards import card_label, mask_of, parse_card
from skitgubbe.engine.record import loads, replay
from skitgubbe.engine.rulesfile import parse_rules_file
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.engine.view import View
from skitgubbe.play.cli import main
from skitgubbe.play.terminal import SCREEN_TITLE, Session, hand_word, play_game, seat_names

HOUSE = 'preset = "goat"\nname = "goat-confusion"\n[options]\nconfusion = true\n'
"""The README's way to a table of 3-player confusion: a house-rules file."""
CONFUSION = parse_rules_file(HOUSE)

_PROMPT = re.compile(r"Your move, (right|left) hand \[(?:1-\d+, |Enter = )")
_OVER = re.compile(r"Game over: (?:You \((right|left) hand\) are|Seat (\d) is) the \w+, so "
                   r"(you lose \(both hands are yours\)|player (\d) \(Seat (\d) and Seat (\d)\) loses; "
                   r"you are safe)\.")


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=100, force_terminal=False), buf


def _cs(*names: str) -> int:
    return mask_of(parse_card(n) for n in names)


class FirstBot:
    name = "first"

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return legal[0]


def test_hand_words_and_names_follow_the_order_a_right_to_c_left() -> None:
    assert [hand_word(s) for s in range(6)] == ["right hand"] * 3 + ["left hand"] * 3
    assert seat_names(6, 4, confusion=True) == ["Seat 0", "You (right hand)", "Seat 2", "Seat 3",
                                                "You (left hand)", "Seat 5"]
    assert seat_names(6, 0, confusion=True)[3] == "You (left hand)"


@pytest.mark.parametrize(("human", "seed"), [(4, 7), (0, 2)])  # today: a bot player loses; the person loses
def test_whole_confusion_game_answering_1_asks_for_both_hands(tmp_path: Path, human: int, seed: int) -> None:
    console, buf = _console()
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return "1"

    code = play_game(CONFUSION, 6, human_seat=human, bot_names=["heuristic", "random"], seed=seed,
                     record_dir=tmp_path, console=console, read_line=read_line)
    out = buf.getvalue()
    assert code == 0
    mine = sorted((human, (human + 3) % 6))
    # every prompt names the hand to act, and each hand was asked
    words = [m.group(1) for m in map(_PROMPT.match, prompts) if m]
    assert len(words) == len(prompts)
    assert words.count("right") > 5 and words.count("left") > 5
    # exactly the person's two seats were asked, once per move they made (each answer is one move)
    record = loads((tmp_path / f"goat-confusion-{seed}.sgr").read_text(encoding="utf-8"))
    movers = [s for s, _ in record.moves]
    asked = [s for s in movers if s in mine]
    assert len(asked) == len(prompts)
    assert [("right" if s < 3 else "left") for s in asked] == words
    # the table: the two hands named, the bots on the other four seats (cycled as usual)
    flat = " ".join(out.split())
    p = human % 3
    assert f"You are player {p}: seat {mine[0]} is your right hand and seat {mine[1]} your left" in flat
    assert "You (right hand) play" in out and "You (left hand) play" in out
    bots = [s for s in range(6) if s not in mine]
    for i, s in enumerate(bots):
        assert f"Seat {s} ({['heuristic', 'random'][i % 2]})" in out
    for s in mine:
        assert f"Seat {s} (" not in out
    # each screen shows both hands, the one named in the title marked as the one to act
    screens = out.split(SCREEN_TITLE)[1:]
    assert len(screens) == len(prompts)
    for screen, word in zip(screens, words, strict=True):
        other = "left" if word == "right" else "right"
        assert screen.startswith(f", {word} hand · goat-confusion · ")
        acting = next(line for line in screen.splitlines() if line.startswith(f"Your {word} hand ("))
        resting = next(line for line in screen.splitlines() if line.startswith(f"Your {other} hand ("))
        assert acting.endswith("◀ to act") and "◀" not in resting
        row = next(line for line in screen.splitlines() if line.lstrip().startswith(f"You ({word} hand)"))
        assert row.endswith("◀ to act")
    # the end: the losing hand's player loses
    loser = replay(record).loser
    assert loser is not None and loser == record.loser
    m = _OVER.search(out)
    assert m is not None, out[-1500:]
    if loser in mine:
        assert m.group(1) == hand_word(loser).split()[0] and m.group(3).startswith("you lose")
    else:
        p = loser % 3
        assert m.group(2) == str(loser) and m.groups()[3:] == (str(p), str(p), str(p + 3))


@pytest.mark.parametrize(("hands", "leader", "human", "line"), [
    # seat 2 leads its last card; seat 1 (the person's right hand) cannot beat it and picks up
    ([0, _cs("2C", "3C"), _cs("AC"), 0, 0, 0], 2, 4,
     "Game over: You (right hand) are the goat, so you lose (both hands are yours)."),
    # the person's right hand goes out; seat 2 is left with cards, so player 2 loses
    ([0, _cs("AC"), _cs("2C", "3C"), 0, 0, 0], 1, 1,
     "Game over: Seat 2 is the goat, so player 2 (Seat 2 and Seat 5) loses; you are safe."),
])
def test_the_player_of_the_losing_hand_loses(hands: list[int], leader: int, human: int, line: str) -> None:
    rules = find_variant("goat").with_options({"confusion": True, "name": "goat"})
    state = State.from_phase_two(rules, hands, trump_suit=2, leader=leader)
    console, buf = _console()
    bots = {s: FirstBot() for s in range(6) if s not in (human, (human + 3) % 6)}
    session = Session(state, human_seat=human, bots=bots, console=console, read_line=lambda p: "1",
                      rng=random.Random(0))
    assert session.run() == 0
    assert line in buf.getvalue()


def test_a_card_of_the_other_hand_is_refused_and_hints_are_for_the_hand_to_act() -> None:
    rules = find_variant("goat").with_options({"confusion": True})
    state = State.from_phase_two(rules, [0, _cs("2C", "3C"), _cs("AC"), 0, _cs("KD"), 0], trump_suit=2,
                                 leader=2)
    console, buf = _console()
    answers = iter(["2c", "?", "1"])  # seat 4 (the left hand) acts first after seat 2's lead
    session = Session(state, human_seat=1, bots={s: FirstBot() for s in (0, 2, 3, 5)}, console=console,
                      read_line=lambda p: next(answers, "1"), rng=random.Random(0))
    assert session.run() == 0
    out = buf.getvalue()
    two = card_label(parse_card("2C"))
    assert f"Not accepted: {two} is in your right hand; your left hand is to act" in out
    lines = out[out.index("Moves, and why:"):].splitlines()[1:]
    hints = lines[:next(i for i, line in enumerate(lines) if not line.startswith("  "))]
    assert "pick up" in hints[0] and any("K♦" in line for line in hints)  # the left hand's moves only
    assert not any(two in line for line in hints)
    assert "You (left hand) pick up" in out


@pytest.mark.parametrize("players", [3, 4, 8])
def test_play_game_refuses_confusion_without_six_seats(players: int) -> None:
    console, buf = _console()
    code = play_game(CONFUSION, players, human_seat=0, bot_names=["random"], seed=1, record_dir=None,
                     console=console, read_line=lambda p: "1")
    out = buf.getvalue().strip()
    assert code == 2
    assert out == (f"error: 3-player confusion is played with 6 seats (two hands for each of three players), "
                   f"not {players}")


def test_the_play_command_seats_six_by_default_and_refuses_other_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    house = tmp_path / "house.toml"
    house.write_text(HOUSE, encoding="utf-8")
    with pytest.raises(SystemExit) as e:
        main(["play", "--rules-file", str(house), "--players", "4"])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.endswith("error: --players: 3-player confusion is played with 6 seats (two hands for each of "
                        "three players), not 4")

    def end_of_input(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", end_of_input)
    assert main(["play", "--rules-file", str(house), "--seat", "5", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "goat-confusion: 3-player confusion, 6 seats, seed 2" in out
    assert "You are player 2: seat 2 is your right hand and seat 5 your left hand" in out
    assert "End of input: goodbye." in out


def test_simulate_seats_six_by_default_under_confusion(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    # usual_players: 3-player confusion has only one table, six seats, whatever the preset's usual table
    from skitgubbe.play import cli

    house = tmp_path / "confusion.toml"
    house.write_text('preset = "goat"\n[options]\nconfusion = true\n', encoding="utf-8")
    assert cli.main(["simulate", "--rules-file", str(house), "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "player 0 (seats 0 and 3)" in out and "player 2 (seats 2 and 5)" in out
