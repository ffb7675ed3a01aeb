"""``skitgubbe learn`` (skitgubbe.play.learn): every lesson runs to its end, answers by Enter, notation and
number, refused moves with the nudge or the rules' reason, quitting, and each lesson's script checked
move by move against its record and against what the rule text says happens."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable

import pytest
from rich.console import Console

from skitgubbe.engine.actions import Action, Kind, parse_action
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import mask_of, parse_cards
from skitgubbe.engine.narration import seat_names
from skitgubbe.engine.record import loads
from skitgubbe.engine.state import State
from skitgubbe.play.cli import main
from skitgubbe.play.learn import LESSONS, Lesson, lesson_start, run_lesson, run_lessons, what_if


def cs(text: str) -> int:
    return mask_of(parse_cards(text))


def console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=100, highlight=False, soft_wrap=True), buf


class Answers:
    """A read_line that gives ``answers`` in order (then Enter forever) and keeps the prompts."""

    def __init__(self, answers: Iterable[str] = ()) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.answers.pop(0) if self.answers else ""


def lesson_named(title: str) -> Lesson:
    return next(lesson for lesson in LESSONS if lesson.title == title)


def play_script(lesson: Lesson) -> State:
    """The lesson's moves applied to its record; sluff windows the example does not mention are closed
    by passing (as the lesson does).  Fails on a move that is not legal where the script puts it."""
    state = lesson_start(lesson)
    assert not loads(lesson.record).moves, "a lesson's record sets the table: it has no moves"
    for step in lesson.steps:
        action = parse_action(step.move)
        while action not in state.legal_actions(step.seat):
            seat = state.to_act
            assert seat >= 0 and Action(Kind.PASS) in state.legal_actions(seat), (
                f"{lesson.title}: {step.move!r} by seat {step.seat} is not legal: "
                + state.explain(action, step.seat))
            state.apply(Action(Kind.PASS), seat)
        state.apply(action, step.seat)
    while state.to_act >= 0 and state.pending:
        state.apply(Action(Kind.PASS), state.to_act)
    return state


# -- every lesson's script is legal and shows what its text says --------------------------------


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.title for lesson in LESSONS])
def test_every_lesson_script_is_legal_from_its_record(lesson: Lesson) -> None:
    state = play_script(lesson)
    assert not state.is_over
    assert any(step.seat == lesson.human for step in lesson.steps)
    assert lesson.intro and lesson.outro and lesson.source


def test_lesson_beat_it_or_pick_it_up_ends_with_seat_1_leading() -> None:
    s = play_script(lesson_named("Beat it or pick it up"))
    assert [(e.kind, e.seat, e.cards) for e in s.events if e.kind in ("pick-up", "kill")] == [
        ("pick-up", 2, cs("9C")), ("kill", 1, cs("5C 8C JC"))]
    assert s.to_act == 1 and s.table == []


def test_lesson_going_out_mid_trick_ends_with_seat_2_leading_a_two_card_trick() -> None:
    s = play_script(lesson_named("Going out in the middle of a trick"))
    assert s.out_order == [0]
    assert [e.seat for e in s.events if e.kind == "kill"] == [2]
    assert s.to_act == 2 and s.kill_at == 2


def test_lesson_eat_the_lowest_run_ends_with_the_table_empty() -> None:
    s = play_script(lesson_named("Eat the lowest run"))
    assert [(e.seat, e.cards) for e in s.events if e.kind == "pick-up"] == [
        (2, cs("2C 3C")), (0, cs("7C 8C 9C TC JC"))]
    # Howell: 'the next person who would have played (the player after the last picker-upper) gets to
    # lead': seat 0 picked up last, so seat 1 leads
    assert s.table == [] and s.to_act == 1 and not any(e.kind == "kill" for e in s.events)


def test_lesson_killing_a_trick_ends_with_the_killer_leading() -> None:
    s = play_script(lesson_named("Killing a trick"))
    assert [(e.seat, e.cards) for e in s.events if e.kind == "kill"] == [(1, cs("6C 8C TC QC"))]
    assert s.to_act == 1 and s.kill_at == 4


def test_lesson_match_wars_and_sluffing_ends_with_seat_0_taking_eight_cards() -> None:
    s = play_script(lesson_named("Match if you can, wars and sluffing"))
    wins = [(e.seat, e.cards) for e in s.events if e.kind == "win"]
    assert wins == [(0, cs("3D 3S 3C 2H 2D 5C 4C 5H"))]
    assert s.hands[1] == cs("QC JS 9H")  # Howell: 'He replenishes from the deck with the 9H'


def test_lesson_two_card_tricks_bounce_and_stock() -> None:
    """pagat.com Skitgubbe, Play in the first phase: two-card tricks, the leader's left answers, the
    winner leads to its left, a card turned up from the stock is played, a bounce's cards go to the
    winner of the next round."""
    lesson = lesson_named("Two-card tricks, the stock and bounces")
    s = play_script(lesson)
    assert [(e.kind, e.seat, e.cards) for e in s.events if e.kind in ("win", "bounce", "stock")] == [
        ("win", 0, cs("5C 4D")), ("stock", 1, cs("TH")), ("win", 1, cs("6H TH")), ("bounce", 1, 0),
        ("win", 1, cs("9S 9D JH 3D"))]
    bounce = next(e for e in s.events if e.kind == "bounce")
    assert bounce.seats == (1, 2)
    # each player draws right after playing from the hand, so every hand is three cards again
    assert [h.bit_count() for h in s.hands] == [3, 3, 3]
    assert s.phase == Phase.ONE and s.to_act == 1


def test_lesson_last_stock_card_is_the_trump_card() -> None:
    """pagat.com Skitgubbe, Play in the first phase: the last stock card may not be turned up; whoever
    draws it keeps it face down; phase one ends when the seat due to play has no card; leftover cards
    are shown; Play in the second phase: the one who drew the trump card leads."""
    lesson = lesson_named("The last stock card names the trump")
    start = lesson_start(lesson)
    assert len(start.stock) == 3 and start.to_act == 2
    assert list(start.hands) == [cs("5C QC 6H"), cs("4D JH 9S"), cs("8S KC 3D")]  # no bounce: as dealt
    assert not any(e.kind == "bounce" for e in start.events)
    s = play_script(lesson)
    kinds = [(e.kind, e.seat) for e in s.events[len(start.events):] if e.kind in
             ("stock", "trump-aside", "end-one", "exposed", "trump")]
    assert kinds == [("stock", 0), ("trump-aside", 0), ("end-one", 1), ("exposed", 0), ("exposed", 2),
                     ("trump", 0)]
    assert s.phase == Phase.TWO and s.trump_suit == 3 and s.to_act == 0
    assert s.hands[0] >> cs("AS").bit_length() - 1 & 1


def named_leaders(lesson: Lesson) -> list[int]:
    """The seats an outro says lead next: 'seat N leads', or the learner for '(you) leads'."""
    named = [int(m) for m in re.findall(r"[Ss]eat (\d) leads", lesson.outro)]
    if re.search(r"\(you\) leads|[Yy]ou lead", lesson.outro):
        named.append(lesson.human)
    return named


LEADING = [lesson for lesson in LESSONS if named_leaders(lesson)]


def test_most_outros_say_who_leads_next() -> None:
    assert len(LEADING) >= 4


@pytest.mark.parametrize("lesson", LEADING, ids=[lesson.title for lesson in LEADING])
def test_the_outro_names_the_seat_that_really_leads_next(lesson: Lesson) -> None:
    """An outro that says who leads next ('seat N leads', '(you) leads') must agree with the state."""
    s = play_script(lesson)
    for seat in named_leaders(lesson):
        assert s.to_act == seat, f"{lesson.title}: the outro says seat {seat} leads, but seat {s.to_act} does"


# -- running the lessons ----------------------------------------------------------------------------


def test_every_lesson_runs_to_its_end_with_enter() -> None:
    out, buf = console()
    answers = Answers()
    assert run_lessons(console=out, read_line=answers) == 0
    text = buf.getvalue()
    for lesson in LESSONS:
        assert lesson.title in text and lesson.outro in text
        for step in lesson.steps:
            assert step.why.split("\n")[0][:40] in text
    assert "That is the game" in text
    human_moves = sum(1 for lesson in LESSONS for step in lesson.steps if step.seat == lesson.human)
    assert len([p for p in answers.prompts if p.startswith("Your move")]) == human_moves
    assert len([p for p in answers.prompts if p.startswith("Press Enter")]) == len(LESSONS) - 1
    assert "Not this one" not in text


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.title for lesson in LESSONS])
def test_each_lesson_alone_prints_its_outro(lesson: Lesson) -> None:
    out, buf = console()
    assert run_lesson(lesson, console=out, read_line=Answers()) is True
    text = buf.getvalue()
    assert text.rstrip().endswith(lesson.outro)
    assert lesson.intro in text and lesson.source in text


FIRST = LESSONS[0]  # 'Beat it or pick it up': seat 0 plays 5C (legal: 5C 8C 2D), later 8C (8C or pick)


def run_first(answers: list[str]) -> tuple[bool, str, Answers]:
    out, buf = console()
    reader = Answers(answers)
    done = run_lesson(FIRST, console=out, read_line=reader)
    return done, buf.getvalue(), reader


def test_scripted_move_by_notation_and_by_number() -> None:
    assert FIRST.title == "Beat it or pick it up"
    done, text, reader = run_first(["5c", "1"])
    assert done and FIRST.outro in text and "Not this one" not in text
    assert len(reader.prompts) == 2
    done, text, reader = run_first(["play 5C", "play 8♣"])
    assert done and "Not this one" not in text and len(reader.prompts) == 2


def test_another_legal_move_is_shown_on_a_copy_then_the_example_goes_on() -> None:
    """A legal move other than the example's is played on a copy and narrated with where it leads;
    the example itself is unchanged and goes on with Enter."""
    done, text, reader = run_first(["2", "8c", ""])
    assert done
    assert "Not this one" not in text
    assert text.count("That is legal too") == 2
    back = "Back to the example, which is unchanged: it plays 'play 5♣' here."
    assert text.count(back) == 2
    assert len(reader.prompts) == 4  # two what-ifs, then Enter, then the second move
    # the first what-if: seat 0 leads 8♣ on the copy; the example then leads 5♣ for real
    first = text[text.index("That is legal too"):text.index(back)]
    assert "You lead 8♣" in first
    assert text.index(back) < text.index("You lead 5♣")
    assert FIRST.outro in text


def test_what_if_tells_where_a_move_leads_and_changes_nothing() -> None:
    """On the copy the others answer as the heuristic bot would, until the trick is decided or the
    learner is to act again; the lesson's state is not touched."""
    lesson = lesson_named("Two-card tricks, the stock and bounces")
    state = lesson_start(lesson)
    state.apply(parse_action("play 5C"), 0)
    before = (list(state.history), list(state.hands), list(state.stock), len(state.events))
    names = seat_names(3, 1)
    lines = what_if(state, 1, parse_action("play JH"), names)
    assert lines[0] == "You play J♥"
    assert "You win the trick (2 cards: 5♣ J♥)" in lines
    assert (list(state.history), list(state.hands), list(state.stock), len(state.events)) == before
    # phase two: it stops when the learner would be to act again, or when the trick is killed
    names = seat_names(3, 0)
    assert what_if(lesson_start(FIRST), 0, parse_action("play 8C"), names) == [
        "You lead 8♣", "Seat 1 beats with 9♣", "Seat 2 picks up 9♣", "and it would be your turn again"]
    assert what_if(lesson_start(FIRST), 0, parse_action("play 2D"), names)[-1] == (
        "Seat 2 kills the trick: 3 cards out of play")


def test_an_illegal_move_is_refused_with_the_rules_reason() -> None:
    done, text, reader = run_first(["", "2d", "9c", "7", "zz", ""])
    assert done
    assert "Not this one: the 2♦ cannot beat the 5♣; only a higher club or a trump can" in text
    assert "Not this one: you do not hold 9♣" in text
    assert "Not this one: there is no move 7: choose 1 to 2, or press Enter" in text
    assert "'zz' is neither a card nor a move" in text
    assert len(reader.prompts) == 6


def test_q_quits_with_code_0() -> None:
    out, buf = console()
    assert run_lesson(FIRST, console=out, read_line=Answers(["q"])) is False
    assert FIRST.outro not in buf.getvalue()
    out, buf = console()
    reader = Answers(["", "quit"])
    assert run_lessons(console=out, read_line=reader) == 0
    text = buf.getvalue()
    assert text.rstrip().endswith("Goodbye.") and FIRST.outro not in text
    out, buf = console()
    reader = Answers(["", "", "q"])  # both moves of lesson 1, then q at 'Press Enter for the next lesson'
    assert run_lessons(console=out, read_line=reader) == 0
    text = buf.getvalue()
    assert FIRST.outro in text and LESSONS[1].title not in text
    assert text.rstrip().endswith("Goodbye.")


def raising(exc: type[BaseException], after: int) -> Callable[[str], str]:
    calls = [0]

    def read(prompt: str) -> str:
        calls[0] += 1
        if calls[0] > after:
            raise exc
        return ""

    return read


@pytest.mark.parametrize("exc", [EOFError, KeyboardInterrupt])
@pytest.mark.parametrize("after", [0, 1, 3])
def test_end_of_input_and_interrupt_end_cleanly(exc: type[BaseException], after: int) -> None:
    out, buf = console()
    assert run_lessons(console=out, read_line=raising(exc, after)) == 0
    text = buf.getvalue()
    assert text.rstrip().endswith("Goodbye.")
    assert "Traceback" not in text


def test_start_at_a_later_lesson() -> None:
    out, buf = console()
    assert run_lessons(console=out, read_line=Answers(), first=len(LESSONS)) == 0
    text = buf.getvalue()
    assert LESSONS[-1].title in text and LESSONS[0].title not in text


# -- through the command ----------------------------------------------------------------------------


def test_cli_learn_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(LESSONS)
    for i, (line, lesson) in enumerate(zip(lines, LESSONS, strict=True), start=1):
        assert line.startswith(f"{i}. {lesson.title}")


@pytest.mark.parametrize("number", ["0", str(len(LESSONS) + 1)])
def test_cli_learn_bad_lesson_number(number: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "--lesson", number]) == 2
    out = capsys.readouterr().out
    assert f"there is no lesson {number}: lessons are 1 to {len(LESSONS)} (see --list)" in out


def test_cli_learn_runs_with_input(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    answers = Answers(["", "", "q"])
    monkeypatch.setattr("builtins.input", answers)
    assert main(["learn", "--lesson", "1"]) == 0
    out = capsys.readouterr().out
    assert FIRST.outro in out and out.rstrip().endswith("Goodbye.")
    assert answers.prompts[-1].startswith("Press Enter for the next lesson")


def test_cli_learn_end_of_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("builtins.input", raising(EOFError, 0))
    assert main(["learn"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("Goodbye.")
