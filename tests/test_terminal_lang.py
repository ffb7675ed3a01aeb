"""The terminal game and the lessons in another language (issue 29): ``lang`` on play_game and the
lessons, ``--lang`` and the environment on ``skitgubbe play`` / ``skitgubbe learn``.  Moves are
typed in the notation in every language."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from skitgubbe.engine.actions import Action
from skitgubbe.engine.cards import card_name, mask_of, parse_card
from skitgubbe.engine.i18n import card_label_in
from skitgubbe.engine.position import practice_position
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.engine.view import view_of
from skitgubbe.play import cli
from skitgubbe.play.learn import LESSONS, run_lesson
from skitgubbe.play.terminal import (
    Session,
    action_label,
    move_prompt,
    play_game,
    render_hand,
    render_screen,
    suit_order,
)

PAGAT = find_variant("pagat")


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=100, force_terminal=False), buf


def _play(lang: str, answers: list[str]) -> tuple[str, list[str]]:
    console, buf = _console()
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return answers.pop(0) if answers else "q"

    code = play_game(PAGAT, 3, human_seat=0, bot_names=["heuristic"], seed=4, record_dir=None,
                     console=console, read_line=read_line, lang=lang)
    assert code == 0
    return buf.getvalue(), prompts


def test_a_scripted_deal_in_swedish_asks_and_shows_in_swedish() -> None:
    out, prompts = _play("sv", ["1", "h", "1", "q"])
    assert prompts and all(p.startswith("Ditt drag") for p in prompts)
    assert "Din hand" in out and "Drag:" in out and "Talongen" in out
    assert "Hej då" in out  # the goodbye on q
    assert "Kort skrivs" in out  # the help says that moves are typed in the notation
    assert "Your move" not in out and "Your hand" not in out
    # Swedish card labels: 10, Kn, D, K, E for the ten and the court cards; never T, J, Q, A
    hand_lines = [line for line in out.splitlines() if line.strip().startswith(("♠", "♥", "♦", "♣"))]
    assert hand_lines
    labels = " ".join(hand_lines)
    assert not any(f"{r}{s}" in labels for r in "TJQA" for s in "♣♦♥♠")


def test_swedish_labels_sort_and_prompt() -> None:
    state = State.new(PAGAT, 3, seed=4, dealer=2)
    view = view_of(state, 0)
    hand = render_hand(view, lang="sv").plain
    assert hand.startswith("Din hand (3 kort):")
    ten, jack, queen, ace = (parse_card(c) for c in ("TD", "JH", "QS", "AC"))
    assert [card_label_in(c, "sv") for c in (ten, jack, queen, ace)] == ["10♦", "Kn♥", "D♠", "E♣"]
    assert action_label(Action.parse("play TD"), "sv") == "spela 10♦"
    prompt = move_prompt(view.legal, lang="sv")
    assert prompt.startswith("Ditt drag [1-") and "7h" in prompt
    screen = io.StringIO()
    Console(file=screen, width=100).print(render_screen(view, ["Du", "Plats 1", "Plats 2"], lang="sv"))
    assert "Ditt drag · pagat · första fasen" in screen.getvalue()


def test_the_swedish_hand_lists_spades_first_and_the_trump_last() -> None:
    """Swedish players sort spades, hearts, diamonds, clubs (the catalog's suit order); the trump
    suit still goes last, as in English."""
    state = State.from_position(PAGAT, practice_position(3, random.Random(1), trump_suit=1, decks=1))
    view = view_of(state, state.to_act)
    shown = [line.strip()[0] for line in render_hand(view, lang="sv").plain.splitlines()[1:]]
    held = {s for s in "♣♦♥♠" if any(line == s for line in shown)}
    assert shown == [s for s in "♠♥♣♦" if s in held]  # diamonds are trumps: last
    assert suit_order(1, "sv") == [3, 2, 0, 1] and suit_order(1) == [0, 2, 3, 1]
    english = [line.strip()[0] for line in render_hand(view).plain.splitlines()[1:]]
    assert english == [s for s in "♣♥♠♦" if s in held]


def test_lang_from_the_environment_picks_finnish(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    monkeypatch.setattr("builtins.input", lambda prompt: (print(prompt), "q")[1])
    assert cli.main(["play", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Sinun siirtosi" in out and "Your move" not in out


def test_lang_option_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    monkeypatch.setattr("builtins.input", lambda prompt: (print(prompt), "q")[1])
    assert cli.main(["play", "--seed", "4", "--lang", "nb"]) == 0
    out = capsys.readouterr().out
    assert "Ditt trekk" in out and "Sinun siirtosi" not in out


@pytest.mark.parametrize("command", ["play", "learn"])
def test_an_unknown_language_is_a_clear_usage_error(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main([command, "--lang", "xx"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--lang" in err and "unknown language 'xx'" in err
    for code in ("en", "sv", "nb", "fi"):
        assert code in err


def test_the_lang_help_says_the_research_commands_stay_english(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--lang" in help_text and "stay in English" in help_text


def test_a_lesson_in_swedish() -> None:
    console, buf = _console()
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return ""

    assert run_lesson(LESSONS[0], console=console, read_line=read_line, lang="sv") is True
    out = buf.getvalue()
    assert prompts and all(p.startswith("Ditt drag (Enter = ") for p in prompts)
    assert LESSONS[0].outro not in out and LESSONS[0].intro not in out  # told in Swedish
    assert "Slå över eller ta upp" in out  # the lesson's title
    assert "Källa:" in out and LESSONS[0].source in out  # the source is cited as it is
    assert "5♣" in out


def test_a_lesson_refuses_a_bad_move_in_swedish() -> None:
    console, buf = _console()
    answers = ["9", "zz"]
    assert run_lesson(LESSONS[0], console=console, read_line=lambda p: answers.pop(0) if answers else "",
                      lang="sv") is True
    out = buf.getvalue()
    assert "Inte det här: det finns inget drag 9" in out
    assert "'zz' är inget drag" in out


def test_cards_typed_in_notation_in_every_language() -> None:
    """Input stays notation: 'TD' is understood under Swedish too (a pick up / play by notation)."""
    state = State.new(PAGAT, 3, seed=4, dealer=2)
    hand = state.hands[0]
    card = next(c for c in range(52) if hand >> c & 1)
    console, _ = _console()
    session = Session(state, human_seat=0, bots={}, console=console, read_line=lambda p: "q",
                      rng=random.Random(0), lang="sv")
    action, reason = session.resolve(card_name(card), view_of(state, 0))
    assert reason == "" and action is not None and action.cards == mask_of([card])
