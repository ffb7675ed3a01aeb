"""``skitgubbe learn``: a short tutorial built from the rule texts' worked examples.

Each :class:`Lesson` is a record (a deal or a phase-two position, see
docs/record-format.md) and a script of moves.  The learner plays one seat of the
example with every hand face up; before each move the rule at work is explained.
At the learner's turn, Enter (or the scripted move, by number or notation) plays
it.  Another legal move is played on a copy of the deal, to show where it leads (the
other seats answer as the heuristic bot would, until the trick is decided or the
learner is to act again), and then the example goes on where it was; an illegal
move is refused with the reason in the rules' words.  Sluff-window passes that the
example does not mention are made automatically.  The lessons themselves (:class:`Lesson`,
:data:`LESSONS`, :func:`lesson_start`) live in :mod:`skitgubbe.engine.lessons`, shared with the
table in the browser; they are re-exported here.

The lessons speak the language given to :func:`run_lessons` (``skitgubbe learn --lang``): a
lesson's texts are message ids (English), translated when shown; the cited sources stay as
they are (the pages are in English).  Moves are typed in the notation in every language.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..bots import make_bot
from ..engine.actions import CHANCE, Action, ActionParseError, Kind, parse_action
from ..engine.base import Event
from ..engine.cards import CardParseError, parse_card
from ..engine.i18n import N_, gettext_in, render
from ..engine.lessons import LESSONS, Lesson, Step, lesson_start, pass_until
from ..engine.narration import describe_event, describe_pass_message, seat_names
from ..engine.state import State
from ..engine.view import View, events_for, view_of
from .terminal import action_label, ordered_moves, render_screen

__all__ = ["Step", "Lesson", "LESSONS", "lesson_start", "what_if", "run_lesson", "run_lessons"]


ReadLine = Callable[[str], str]


def _t(lang: str, text: str, /, **fields: object) -> str:
    """Message id ``text`` in language ``lang``, its ``{fields}`` filled in."""
    out = gettext_in(lang, text)
    return out.format(**fields) if fields else out


def _tell(event: Event, names: Sequence[str], state: State, lang: str, you: int) -> str | None:
    """The engine's narration line for ``event`` in ``lang``, seat ``you`` the learner's."""
    return describe_event(event, names, state.rules, lang=lang, you=frozenset({you}))


def _resolve(text: str, state: State, view: View, expected: Action,
             lang: str = "en") -> tuple[Action | None, str]:
    """The learner's answer as an action: the scripted one (Enter, its number or notation),
    another action (legal or not: the caller tells them apart), or None with why."""
    text = text.strip()
    legal = ordered_moves(view.legal, view.trump_suit, lang)  # numbered as on the screen
    if not text:
        return expected, ""
    if text.isdigit():
        n = int(text)
        if not 1 <= n <= len(legal):
            return None, _t(lang, N_("there is no move {n}: choose 1 to {k}, or press Enter"), n=n,
                            k=len(legal))
        return legal[n - 1], ""
    try:
        action = state.resolve(view.seat, parse_action(text))
    except ActionParseError as e:
        if lang == "en":
            return None, str(e)
        return None, _t(lang, N_("'{text}' is not a move: press Enter, type a move number, or a move in the "
                                 "notation, e.g. 7h, play 5d 6d, sluff 7c, stock, pass, pick"), text=text)
    sluff = action._replace(kind=Kind.SLUFF)
    if action.kind is Kind.PLAY and action not in legal and (sluff == expected or sluff in legal):
        try:
            parse_card(text)
        except CardParseError:
            return action, ""  # 'play 3c' asked for a play
        return sluff, ""  # a bare card that may only be sluffed now
    return action, ""


_DECIDED = frozenset({"win", "kill", "end-one", "loser", "abandoned", "tie-deal", "split"})
"""Events after which a what-if stops: the trick (or phase one, or the deal) is decided."""


def what_if(state: State, seat: int, action: Action, names: Sequence[str], *, limit: int = 12,
            lang: str = "en") -> list[str]:
    """Where ``action`` by ``seat`` would lead, told without changing ``state``: it is played on a
    copy, then the other seats answer as the heuristic bot would (a chance step by a seeded
    shuffle) until the trick is decided, the deal is over, ``seat`` is to act again, or ``limit``
    more moves were made.  Returns the narration lines as ``seat`` sees them, in ``lang``
    (``names``: see :func:`~skitgubbe.engine.narration.seat_names`).  Raises
    :class:`~skitgubbe.engine.base.IllegalActionError` if ``action`` is not legal for ``seat`` now."""
    copy = state.clone()
    rng = random.Random(0)
    bots = {s: make_bot("heuristic", random.Random(s)) for s in range(copy.players) if s != seat}
    events = list(copy.apply(action, seat))
    moves = 0
    while (not copy.is_over and copy.to_act != seat and moves < limit
           and not any(e.kind in _DECIDED for e in events)):
        s = copy.to_act
        if s == CHANCE:
            events += copy.apply(copy.chance_action(rng), CHANCE)
        else:
            events += copy.apply(bots[s].choose(view_of(copy, s), copy.legal_actions(s)), s)
        moves += 1
    lines = [_tell(e, names, copy, lang, seat) for e in events_for(events, seat)]
    if not copy.is_over and copy.to_act == seat and not any(e.kind in _DECIDED for e in events):
        lines.append(_t(lang, N_("and it would be your turn again")))
    return [line for line in lines if line]


def _ask(state: State, step: Step, action: Action, names: Sequence[str], *, console: Console,
         read_line: ReadLine, lang: str = "en") -> bool:
    """Show the table and read the learner's answers until the scripted ``action`` (True) or ``q``
    (False).  Another legal move is shown on a copy (:func:`what_if`); an illegal one is refused
    with the rules' reason."""
    say = console.print
    view = view_of(state, step.seat)
    say(render_screen(view, names, names, state.hands, lang=lang))
    label = action_label(action, lang)
    you = (step.seat,)
    while True:
        text = read_line(_t(lang, N_("Your move (Enter = {move}, or try another; q quits): "), move=label))
        if text.strip().lower() in ("q", "quit"):
            return False
        chosen, reason = _resolve(text, state, view, action, lang)
        if chosen == action:
            return True
        if chosen is None:
            say(Text(_t(lang, N_("Not this one: {reason}"), reason=reason), style="bold red"))
        elif chosen in view.legal:
            why = (state.reason(chosen, step.seat) if lang == "en"
                   else render(state.reason_message(chosen, step.seat), lang, names, you))
            say(Text(_t(lang, N_("That is legal too ({reason}).  Where it leads, played on a copy:"),
                        reason=why), style="bold"))
            for line in what_if(state, step.seat, chosen, names, lang=lang):
                say(Text(f"  {line}"))
            say(Text(_t(lang, N_("Back to the example, which is unchanged: it plays '{move}' here.  "
                                 "Press Enter to play it, or try another move."), move=label), style="bold"))
        else:
            why = (state.explain(chosen, step.seat) if lang == "en"
                   else render(state.explain_message(chosen, step.seat), lang, names, you))
            say(Text(_t(lang, N_("Not this one: {reason}"), reason=why), style="bold red"))


def run_lesson(lesson: Lesson, *, console: Console, read_line: ReadLine, lang: str = "en") -> bool:
    """Play one lesson in language ``lang`` (a code of :data:`~skitgubbe.engine.i18n.LANGUAGES`);
    True when it was finished, False if the learner quit (``q``)."""
    state = lesson_start(lesson)
    names = seat_names(state.players, lesson.human, lang=lang)
    you = frozenset({lesson.human})
    say = console.print
    say(Rule(_t(lang, lesson.title), style="cyan"))
    say(Text(_t(lang, lesson.intro)))
    say(Text(_t(lang, N_("From: {source}"), source=lesson.source), style="italic"))
    for step in lesson.steps:
        action = parse_action(step.move)
        passed = pass_until(state, step, action)
        if passed:
            say(Text(render(describe_pass_message(passed), lang, names, you)))
        say(Text(_t(lang, step.why), style="bold"))
        if step.seat == lesson.human and not _ask(state, step, action, names, console=console,
                                                  read_line=read_line, lang=lang):
            return False
        for ev in events_for(state.apply(action, step.seat), lesson.human):
            line = _tell(ev, names, state, lang, lesson.human)
            if line is not None:
                say(Text(line))
    events: list[Event] = []
    while state.to_act >= 0 and not state.is_over and state.pending:
        events += state.apply(Action(Kind.PASS), state.to_act)  # close the last sluff window
    for ev in events_for(events, lesson.human):
        line = _tell(ev, names, state, lang, lesson.human)
        if line is not None:
            say(Text(line))
    say(Text(_t(lang, lesson.outro), style="bold green"))
    return True


def run_lessons(
    *, console: Console, read_line: ReadLine, first: int | None = None, list_only: bool = False,
    lang: str = "en",
) -> int:
    """Run the lessons from number ``first`` (1-based; default 1) to the end, or list them, in
    language ``lang``.  Returns the exit status: 0, or 2 for a lesson number that does not exist."""
    if list_only:
        for i, lesson in enumerate(LESSONS, start=1):
            console.print(f"{i}. {_t(lang, lesson.title)}  ({lesson.source})")
        return 0
    start = 1 if first is None else first
    if not 1 <= start <= len(LESSONS):
        console.print(_t(lang, N_("there is no lesson {n}: lessons are 1 to {k} (see --list)"), n=start,
                         k=len(LESSONS)))
        return 2
    bye = _t(lang, N_("Goodbye."))
    try:
        for i in range(start - 1, len(LESSONS)):
            if not run_lesson(LESSONS[i], console=console, read_line=read_line, lang=lang):
                console.print(bye)
                return 0
            if i + 1 < len(LESSONS) and read_line(_t(lang, N_("Press Enter for the next lesson (q "
                                                              "quits): "))) \
                    .strip().lower() in ("q", "quit"):
                console.print(bye)
                return 0
    except (EOFError, KeyboardInterrupt):
        console.print("\n" + bye)
        return 0
    console.print(Text(_t(lang, N_("That is the game: play one with 'skitgubbe play' (add --open to see "
                                   "every "
                                   "hand).")), style="bold"))
    return 0

