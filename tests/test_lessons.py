"""The lessons as data (engine/lessons.py) and as the table's replays (server/lessons.py): every
lesson builds and plays legally, the browser's moves are the terminal lesson's, and every text is
written in each language with no field left unfilled."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from skitgubbe.engine.actions import Action, Kind
from skitgubbe.engine.i18n import LANGUAGES
from skitgubbe.engine.lessons import LESSONS, lesson_moves, lesson_start
from skitgubbe.engine.state import State
from skitgubbe.play import learn
from skitgubbe.server.lessons import lesson_list, lesson_replay
from skitgubbe.server.rooms import RoomError

FIELD = re.compile(r"\{[a-z_]+\}")


@pytest.mark.parametrize("n", range(1, len(LESSONS) + 1))
def test_every_move_of_a_lesson_is_legal_where_it_stands(n: int) -> None:
    start, moves = lesson_moves(LESSONS[n - 1])
    assert [m.step for m in moves if m.step] == list(LESSONS[n - 1].steps)
    for m in moves:
        assert m.action in start.legal_actions(m.seat), (n, m)
        start.apply(m.action, m.seat)
    assert all(m.action == Action(Kind.PASS) for m in moves if m.step is None)


@pytest.mark.parametrize("n", range(1, len(LESSONS) + 1))
def test_the_browser_plays_the_moves_the_terminal_lesson_plays(n: int,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    lesson = LESSONS[n - 1]
    played: list[State] = []

    def start(lesson: learn.Lesson) -> State:
        played.append(lesson_start(lesson))
        return played[-1]

    monkeypatch.setattr(learn, "lesson_start", start)
    console = Console(file=io.StringIO(), width=100)
    assert learn.run_lesson(lesson, console=console, read_line=lambda _prompt: "")
    before = len(lesson_start(lesson).history)
    terminal = [[s, str(a)] for s, a in played[0].history[before:]]
    assert lesson_replay(n)["moves"] == terminal


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_lesson_text_is_written_in_every_language(lang: str) -> None:
    listed = lesson_list(lang)["lessons"]
    assert [x["n"] for x in listed] == list(range(1, len(LESSONS) + 1))
    for n in range(1, len(LESSONS) + 1):
        r = lesson_replay(n, lang)
        assert r["human"] == LESSONS[n - 1].human and r["title"] == listed[n - 1]["title"]
        texts = [r["title"], r["intro"], r["outro"], r["source"], *r["names"]]
        for f in r["frames"][1:]:
            texts += [f["why"], *f["lines"]]
            assert f["expected"] == f["move"]
        assert not [t for t in texts if FIELD.search(t)], (lang, n)
        assert sum(f["learner"] for f in r["frames"][1:]) == sum(
            s.seat == LESSONS[n - 1].human for s in LESSONS[n - 1].steps)
        assert all(f["why"] for f in r["frames"][1:] if f["learner"])
        if lang == "en":  # the learner is told in the second person
            assert r["names"][r["human"]] == "You" and "You lead" in " ".join(r["frames"][1]["lines"]) \
                or r["frames"][1]["seat"] != r["human"]


def test_a_lesson_in_swedish_is_in_swedish() -> None:
    r = lesson_replay(1, "sv")
    assert r["title"] != lesson_replay(1, "en")["title"] and r["names"][0] == "Du"


def test_a_number_that_is_not_a_lesson_is_refused() -> None:
    for n in (0, len(LESSONS) + 1):
        with pytest.raises(RoomError) as e:
            lesson_replay(n)
        assert e.value.code == "no-deal" and "no lesson" in str(e.value)
