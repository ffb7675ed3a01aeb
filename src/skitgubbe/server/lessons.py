"""The lessons of ``skitgubbe learn`` at the table in the browser: each lesson
(:data:`~skitgubbe.engine.lessons.LESSONS`) as a replay the page steps through, with the rule at
work told at every step.  No I/O, no HTTP.

A lesson's replay is the ``replay`` message of a finished deal (:mod:`skitgubbe.server.replays`:
``names``, ``hands``, ``moves``, ``frames`` of :func:`~skitgubbe.server.rooms.deal_frames`) made of
the moves the terminal lesson plays (:func:`~skitgubbe.engine.lessons.lesson_moves`), every hand face
up, and the lesson's own words, all in the reader's language.
"""

from __future__ import annotations

from typing import Any

from ..engine.i18n import N_, gettext_in
from ..engine.lessons import LESSONS, lesson_moves
from ..engine.narration import seat_names
from ..engine.record import dumps as record_dumps
from ..engine.record import record_of
from . import protocol
from .rooms import RoomError, deal_frames

__all__ = ["lesson_list", "lesson_replay"]


def lesson_list(lang: str = "en") -> dict[str, Any]:
    """The lessons, ``{"lessons": [{"n", "title", "source"}]}``: ``n`` the lesson's number (1 for the
    first, as ``skitgubbe learn --lesson``), ``title`` in language ``lang``, ``source`` the text it
    comes from (as it is: the pages are in English)."""
    return {"lessons": [{"n": n, "title": gettext_in(lang, lesson.title), "source": lesson.source}
                        for n, lesson in enumerate(LESSONS, start=1)]}


def lesson_replay(n: int, lang: str = "en") -> dict[str, Any]:
    """Lesson number ``n`` (1-based) as a replay message in language ``lang``: what
    :func:`~skitgubbe.server.replays.record_replay` answers (``type`` ``"replay"``, ``names`` with
    the learner called "You", ``hands``, ``moves``, ``record``, ``frames``), plus ``lesson`` ``n``,
    ``title``, ``intro``, ``outro``, ``source``, ``human`` (the learner's seat) and, in each frame
    after the first (the table before the first move), ``why`` (the step's explanation, ``""`` for a
    pass made automatically), ``learner`` (true for a step of the learner's seat, which the page waits
    for the person to make) and ``expected`` (the move in notation, as ``move``).  The narration
    tells the learner's moves in the second person.  Raises
    :class:`~skitgubbe.server.rooms.RoomError` ``no-deal`` for a number that is not a lesson's."""
    if not 1 <= n <= len(LESSONS):
        raise RoomError("no-deal", f"there is no lesson {n}: the lessons are 1 to {len(LESSONS)}")
    lesson = LESSONS[n - 1]
    start, moves = lesson_moves(lesson)
    names = seat_names(start.players, lesson.human, lang=lang)
    hands = [protocol.cards_list(h) for h in start.hands]
    frames = deal_frames(start, [(m.seat, m.action) for m in moves], names, lang, you=(lesson.human,))
    for frame, move in zip(frames[1:], moves, strict=True):
        frame["why"] = gettext_in(lang, move.step.why) if move.step else ""
        frame["learner"] = move.step is not None and move.seat == lesson.human
        frame["expected"] = str(move.action)
    text = record_dumps(record_of(start))
    return {"type": "replay", "game": 0, "complete": True, "names": names, "hands": hands,
            "moves": [[m.seat, str(m.action)] for m in moves], "record": text, "frames": frames,
            "deal": None, "over": start.is_over, "lesson": n, "title": gettext_in(lang, lesson.title),
            "intro": gettext_in(lang, lesson.intro), "outro": gettext_in(lang, lesson.outro),
            "source": gettext_in(lang, N_("From: {source}")).format(source=lesson.source),
            "human": lesson.human}
