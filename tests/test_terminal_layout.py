"""The terminal as a player reads it (issue 16, items 10 and 11): at 80 and 120 columns no line is cut
mid-word or with an ellipsis and nothing is lost (the same words as an unwrapped rendering, in the same
order); the intro is said once; one move reads "[Enter = ...]"; the hand and the moves list the
suits in one order (trumps last); nobody's moves are printed dim; tables are printed whole (tournament,
rules show), on a terminal and through a pipe."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable

import pytest
from rich.cells import cell_len
from rich.console import Console

from skitgubbe.bots import make_bot
from skitgubbe.engine.actions import Action, Kind
from skitgubbe.engine.cards import mask_of, parse_card
from skitgubbe.engine.rules import OPTION_HELP
from skitgubbe.engine.rulesfile import parse_rules_file
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.engine.view import view_of
from skitgubbe.play.cli import DEFAULT_GAMES, main, print_table
from skitgubbe.play.learn import LESSONS, run_lesson
from skitgubbe.play.terminal import Session, move_prompt, ordered_moves, play_game, render_screen

PAGAT = find_variant("pagat")
GOAT = find_variant("goat")
CONFUSION = parse_rules_file('preset = "goat"\nname = "goat-confusion"\n[options]\nconfusion = true\n')
WIDE = 10_000
"""A console this wide never wraps: the reference rendering."""


def _cs(*names: str) -> int:
    return mask_of(parse_card(n) for n in names)


def _terminal(width: int) -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=width, force_terminal=True, color_system="standard", highlight=False), buf


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def _words(text: str) -> list[str]:
    """The words of a rendering, without the rule lines (their length follows the width)."""
    return [w for w in _plain(text).split() if set(w) != {"─"}]


def _game(width: int, rules_name: str, players: int, seat: int, seed: int, moves: int) -> str:
    """A seeded game against heuristic bots, answering 1 ``moves`` times, then q."""
    rules = CONFUSION if rules_name == "confusion" else find_variant(rules_name)
    console, buf = _terminal(width)
    answers = iter(["1"] * moves + ["q"])

    def read_line(prompt: str) -> str:
        assert cell_len(prompt) <= 80, prompt  # the question fits an 80-column terminal too
        return next(answers)

    assert play_game(rules, players, human_seat=seat, bot_names=["heuristic"], seed=seed, record_dir=None,
                     console=console, read_line=read_line) == 0
    return buf.getvalue()


def _check_fits(text: str, width: int, reference: str) -> None:
    lines = _plain(text).splitlines()
    assert lines
    too_long = [line for line in lines if cell_len(line) > width]
    assert not too_long, too_long[:3]
    assert "…" not in _plain(text)
    assert _words(text) == _words(reference)  # nothing cut, nothing lost, nothing split mid-word


GAMES = [("pagat", 3, 0, 4, 40), ("goat", 4, 1, 7, 40), ("confusion", 6, 4, 2, 30), ("mas", 2, 0, 5, 30)]


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize(("rules", "players", "seat", "seed", "moves"), GAMES,
                         ids=[g[0] for g in GAMES])
def test_a_game_fits_the_terminal_without_cutting_a_word(width: int, rules: str, players: int, seat: int,
                                                         seed: int, moves: int) -> None:
    text = _game(width, rules, players, seat, seed, moves)
    _check_fits(text, width, _game(WIDE, rules, players, seat, seed, moves))
    assert "c\nards" not in _plain(text) and "f\nace" not in _plain(text)


@pytest.mark.parametrize("width", [80, 120])
def test_a_lesson_fits_the_terminal_without_cutting_a_word(width: int) -> None:
    lesson = next(lesson for lesson in LESSONS if lesson.title == "The last stock card names the trump")

    def run(w: int) -> str:
        console, buf = _terminal(w)
        answers = iter(["1", "", "", ""])  # a what-if first, then the example
        assert run_lesson(lesson, console=console, read_line=lambda prompt: next(answers, ""))
        return buf.getvalue()

    _check_fits(run(width), width, run(WIDE))


def test_a_title_too_long_for_the_width_goes_under_the_rule_whole() -> None:
    state = State.new(CONFUSION, 6, seed=2, dealer=5)
    view = view_of(state, 0)
    console, buf = _terminal(40)
    console.print(render_screen(view, [f"Seat {s}" for s in range(6)]))
    lines = _plain(buf.getvalue()).splitlines()
    assert set(lines[0]) == {"─"}
    assert " ".join(lines[1:3]).startswith("Your move, right hand · goat-confusion · phase one")
    assert "…" not in buf.getvalue()


# -- what the player reads ------------------------------------------------------------------------


def _sgr_params(text: str) -> list[list[str]]:
    return [m.split(";") for m in re.findall(r"\x1b\[([0-9;]*)m", text)]


def test_nobody_s_moves_are_printed_dim() -> None:
    """Bots' moves were dim grey, hard to read on many terminals: no text is dim now."""
    text = _game(100, "goat", 4, 1, 7, 40)
    assert "Seat 0 plays" in _plain(text) or "Seat 0 leads" in _plain(text)
    assert not any("2" in params for params in _sgr_params(text))  # SGR 2 is "dim"


def test_the_intro_is_said_once(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    assert main(["play", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert len([line for line in out.splitlines() if "seed 4" in line]) == 1
    assert out.startswith("pagat: 3 players, seed 4 (deal the same cards again with --seed 4).  You are "
                          "seat 0")


def _one_move_state() -> State:
    """pagat phase two: seat 0 leads K♠ and seat 1, holding only 2♣ (no spade, no trump), must pick up."""
    state = State.from_phase_two(PAGAT, [_cs("KS", "3S"), _cs("2C"), _cs("3C")], trump_suit=2, leader=0)
    state.apply(Action(Kind.PLAY, _cs("KS")), 0)
    assert state.legal_actions(1) == [Action(Kind.PICK_UP)]
    return state


def test_a_single_move_is_asked_as_1_or_enter() -> None:
    state = _one_move_state()
    assert move_prompt(state.legal_actions(1)) == "Your move [Enter = pick up; ? hint, h help, q quit]: "
    two = [Action(Kind.PLAY, _cs("2C")), Action(Kind.PICK_UP)]
    assert move_prompt(two) == "Your move [1-2, or e.g. 7h; ? hint, h help, q quit]: "
    console, buf = _terminal(100)
    session = Session(state, human_seat=1, bots={}, console=console, read_line=lambda p: "",
                      rng=random.Random(0))
    assert session.resolve("", view_of(state, 1)) == (Action(Kind.PICK_UP), "")  # Enter takes the only move
    assert session.resolve("1", view_of(state, 1)) == (Action(Kind.PICK_UP), "")
    # through the whole loop: Enter picks up, and the prompt said so
    prompts: list[str] = []

    def enter_then_quit(prompt: str) -> str:
        prompts.append(prompt)
        return "" if len(prompts) == 1 else "q"

    bots = {s: make_bot("heuristic", random.Random(s)) for s in (0, 2)}
    session = Session(state, human_seat=1, bots=bots, console=console, read_line=enter_then_quit,
                      rng=random.Random(0))
    session.run()
    assert prompts[0] == "Your move [Enter = pick up; ? hint, h help, q quit]: "
    assert "You pick up K♠" in _plain(buf.getvalue())


def test_the_hand_and_the_moves_list_the_suits_in_one_order_trumps_last() -> None:
    """Clubs are trumps: the hand shows them last, and so do the numbered moves."""
    state = State.from_phase_two(GOAT, [_cs("4C", "9C", "5H", "KS"), _cs("2D", "3D"), _cs("6D", "7D")],
                                 trump_suit=0, leader=0)
    view = view_of(state, 0)
    console, buf = _terminal(100)
    console.print(render_screen(view, ["You", "Seat 1", "Seat 2"]))
    text = _plain(buf.getvalue())
    hand_part = text[text.index("Your hand"):text.index("Moves:")]
    moves_part = text[text.index("Moves:"):]
    hand_order = list(dict.fromkeys(re.findall("[♣♦♥♠]", hand_part)))
    move_cards = re.findall(r"\d\) play ([2-9TJQKA][♣♦♥♠])", moves_part)
    assert hand_order == ["♥", "♠", "♣"]
    assert move_cards == ["5♥", "K♠", "4♣", "9♣"]
    assert [str(a) for a in ordered_moves(view.legal, view.trump_suit)] == [
        "play 5H", "play KS", "play 4C", "play 9C"]
    # the numbers typed are the numbers shown
    session = Session(state, human_seat=0, bots={}, console=console, read_line=lambda p: "q",
                      rng=random.Random(0))
    assert session.resolve("3", view) == (Action(Kind.PLAY, _cs("4C")), "")


# -- tables ---------------------------------------------------------------------------------------


COLUMNS = ("bot", "seat-games", "losses", "loser rate", "95% interval", "mean place", "rating",
           "ms/move mean", "ms/move median", "ms/move p99")
ROWS = [("ismcts-50ms-bank", "36", "12", "33.3%", "20.1% - 46.5%", "1.97", "25.0 ± 6.1", "48.9", "49.7",
         "61.2"),
        ("random", "36", "24", "66.7%", "52.0% - 81.4%", "2.64", "10.1 ± 6.0", "0.00105", "0.00098",
         "0.00354")]


def _table(console_for: Callable[[], tuple[Console, io.StringIO]]) -> str:
    console, buf = console_for()
    print_table(console, "per bot", COLUMNS, ROWS)
    return _plain(buf.getvalue())


@pytest.mark.parametrize("width", [80, 100, 120, 200])
def test_a_wide_table_is_printed_whole_at_any_width(width: int) -> None:
    text = _table(lambda: _terminal(width))
    assert "…" not in text
    assert all(cell_len(line) <= width for line in text.splitlines())
    for row in ROWS:
        for cell in row:
            assert cell in text, (width, cell)
    for col in COLUMNS:
        assert col in text


def test_a_table_through_a_pipe_is_plain_columns_at_full_width() -> None:
    def piped() -> tuple[Console, io.StringIO]:
        buf = io.StringIO()
        return Console(file=buf, width=80, force_terminal=False, soft_wrap=True), buf

    lines = _table(piped).splitlines()
    assert lines[0] == "per bot"
    assert lines[1].startswith("bot".ljust(len("ismcts-50ms-bank")) + "  seat-games  losses")
    assert [line.split()[0] for line in lines[2:]] == ["ismcts-50ms-bank", "random"]
    assert lines[2].endswith("61.2") and lines[3].endswith("0.00354")
    assert "│" not in "".join(lines) and "…" not in "".join(lines)


def test_the_tournament_table_is_whole_when_piped(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "--rules", "pagat", "--players", "3", "--bots", "heuristic,random",
            "--deals", "2", "--seed", "3", "--jobs", "1"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    for word in ("seat-games", "95% interval", "ms/move median", "ms/move p99", "heuristic", "random"):
        assert word in out
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for row in data["table"]:  # every row whole, on one line: the same seed gives the same figures
        line = next(line for line in out.splitlines() if line.startswith(row["bot"] + " "))
        cells = line.split()
        assert cells[1:4] == [str(row["seat_games"]), str(row["losses"]), f"{row['loser_rate']:.1%}"]
        assert f"{row['mean_place']:.2f}" in cells and f"{row['mu']:.1f}" in cells
        assert len(cells) == 14  # bot, 3, the interval's 3, place, the rating's 3, 3 timings


def test_rules_show_gives_each_option_its_meaning(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "pagat"]) == 0
    out = capsys.readouterr().out
    options = find_variant("pagat").options()
    for key, value in options.items():
        line = next(line for line in out.splitlines() if line.split() and line.split()[0] == key)
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        assert line.split()[1] == shown and line.rstrip().endswith(OPTION_HELP[key]), line


@pytest.mark.parametrize("width", [80, 120])
def test_rules_show_fits_a_terminal(width: int) -> None:
    rows = [(k, str(v), OPTION_HELP[k]) for k, v in GOAT.options().items()]
    console, buf = _terminal(width)
    print_table(console, "goat", ("option", "value", "meaning"), rows, wrap_last=True)
    text = _plain(buf.getvalue())
    assert "…" not in text and all(cell_len(line) <= width for line in text.splitlines())
    cells = " ".join(w for w in text.split() if not set(w) <= set("│┃┏┓┗┛┡┩└┘━─┳┻╇┼┴┬├┤"))
    for k, v, meaning in rows:
        assert k in cells and v in cells and " ".join(meaning.split()) in cells


# -- the command line (item 10) -------------------------------------------------------------------


def test_rules_show_single_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "single-hand"]) == 0
    out = capsys.readouterr().out
    assert "Single Hand Skitgubbe (catsatcards.com, Single Hand Skitgubbe)" in out
    assert "3 to 8 seats" in out and "the 2 is highest" in out and "the last seat holding cards" in out
    assert main(["rules", "show", "Single_Hand", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["name"] == "single-hand" and data["hand_size"] == 4
    assert (data["min_players"], data["max_players"]) == (3, 8) and "loser" in data["rules"]
    with pytest.raises(SystemExit) as e:
        main(["rules", "diff", "pagat", "single-hand"])
    assert e.value.code == 2
    assert "single-hand is its own game, not a set of options" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    import skitgubbe

    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out == f"skitgubbe {skitgubbe.__version__}\n"
    assert skitgubbe.__version__ == version("skitgubbe")


def test_simulate_without_games_plays_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert DEFAULT_GAMES == 100
    assert main(["simulate", "--rules", "pagat", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 100
