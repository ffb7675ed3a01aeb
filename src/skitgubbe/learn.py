"""``skitgubbe learn``: a short tutorial built from the rule texts' worked examples.

Each :class:`Lesson` is a record (a deal or a phase-two position, see
docs/record-format.md) and a script of moves.  The learner plays one seat of the
example with every hand face up; before each move the rule at work is explained.
At the learner's turn, Enter (or the scripted move, by number or notation) plays
it; another legal move is refused with a nudge back to the example, an illegal one
with the reason in the rules' words.  Sluff-window passes that the example does not
mention are made automatically.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from .actions import Action, ActionParseError, Kind, parse_action
from .base import Event
from .cards import RANK_CHARS, SUITS
from .narration import describe_event, describe_pass, seat_names
from .record import loads, start_state
from .state import State
from .tui import render_screen
from .view import events_for, view_of

__all__ = ["Step", "Lesson", "LESSONS", "run_lesson", "run_lessons"]


@dataclass(frozen=True)
class Step:
    """One move of a lesson: ``seat`` plays ``move`` (action notation); ``why`` explains the rule."""

    seat: int
    move: str
    why: str


@dataclass(frozen=True)
class Lesson:
    """A worked example: ``record`` (without moves) sets the table, ``human`` is the learner's
    seat, ``steps`` the example's moves, ``intro``/``outro`` frame it, ``source`` cites the text."""

    title: str
    source: str
    intro: str
    record: str
    human: int
    steps: tuple[Step, ...]
    outro: str


def _position(rules: str, hands: Sequence[str], trump: str, to_act: int = 0) -> str:
    lines = ["skitgubbe-record = 1", f"rules = {rules}", f"players = {len(hands)}", "start = phase-two"]
    lines += [f"hand {s} = {h}" for s, h in enumerate(hands)]
    lines += [f"trump = {trump}", f"to-act = {to_act}", "out-of-play = rest", "moves:"]
    return "\n".join(lines) + "\n"


def _deck(hands: Sequence[str], stock: str) -> str:
    """A deck dealing ``hands`` (three each, one at a time from seat 0) with ``stock`` on top."""
    per_seat = [h.split() for h in hands]
    deal = [per_seat[i % len(hands)][i // len(hands)] for i in range(3 * len(hands))]
    named = deal + stock.split()
    rest = [r + s for s in SUITS for r in RANK_CHARS if r + s not in named]
    return " ".join(named + rest)


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        title="Beat it or pick it up",
        source="pagat.com Skitgubbe, Play in the second phase (the 'Suppose there are 3 players' example)",
        intro="Phase two: get rid of your cards.  Each play must beat the card in front of you: a higher "
              "card of its suit, or a trump.  If you cannot (or will not), you pick up that last card.",
        record=_position("pagat", ["5C 8C 2D", "9C JC 3D", "4D 6D"], "S"),
        human=0,
        steps=(
            Step(0, "play 5C", "You lead: any card may be led."),
            Step(1, "play 9C", "Seat 1 beats your 5♣ with a higher club."),
            Step(2, "pick", "Seat 2 has no higher club and no trump (spades): it must pick up the 9♣, "
                            "and only the 9♣."),
            Step(0, "play 8C", "Your own 5♣ is showing again, so it is your turn to beat it: the 8♣ does."),
            Step(1, "play JC", "Seat 1 beats the 8♣.  Three cards lie in the trick and three players "
                               "hold cards: the trick is complete (avstick) and is set aside."),
        ),
        outro="Seat 1 completed the trick, so seat 1 leads the next one.",
    ),
    Lesson(
        title="Going out in the middle of a trick",
        source="pagat.com Skitgubbe, Play in the second phase (the 'A leads his last card' example)",
        intro="A trick needs as many cards as there were players holding cards when it began, even if "
              "someone goes out during it.",
        record=_position("pagat", ["7H", "9H JH 2C", "KH 3C 4C"], "S"),
        human=0,
        steps=(
            Step(0, "play 7H",
                 "You lead your last card: you are out, but this trick still needs three cards."),
            Step(1, "play 9H", "Seat 1 beats the 7♥."),
            Step(2, "pick", "Seat 2 could beat with the K♥ but picks up the 9♥ instead."),
            Step(1, "play JH", "The 7♥ shows again; seat 1 beats it once more."),
            Step(2, "play KH", "Seat 2 beats the J♥: the third card completes the trick."),
        ),
        outro="Seat 2 leads next, and with only two players left the next trick needs just two cards.",
    ),
    Lesson(
        title="Eat the lowest run",
        source="Dave Howell's Swedish Goat Game page, The Second Part (the 4-player example); the "
               "Swedish Goat Game / Flurst page, Following a trick",
        intro="In the Goat Game you may play a run of touching cards (same suit, next ranks) as one play. "
              "If you do not beat, you eat the lowest run on the table: the lowest card and every card "
              "touching it, even across plays.",
        record=_position("goat", ["2C 3C 4H 5H", "7C 8C 9C 6H", "4S 5S 7H", "TC JC 8H 9S"], "D"),
        human=2,
        steps=(
            Step(0, "play 2C 3C", "Seat 0 leads the 2-3 of clubs as one play."),
            Step(1, "play 7C 8C 9C", "Seat 1 beats with the run 7-8-9 of clubs."),
            Step(2, "pick", "You hold no club above the 9 and no trump (diamonds): eat the lowest run, "
                            "the 2-3 of clubs."),
            Step(3, "play TC JC", "Seat 3 beats with the 10-J of clubs."),
            Step(0, "pick", "Seat 0 cannot beat the J♣.  The lowest run is now 7-8-9-10-J: they all touch, "
                            "so seat 0 eats all five cards."),
        ),
        outro="The table is empty: the trick is over.  Seat 1 leads: the seat after the last eater.",
    ),
    Lesson(
        title="Killing a trick",
        source="the Swedish Goat Game / Flurst page, Ending a trick by killing",
        intro="A trick is killed, its cards out of the game, when it holds as many plays as there were "
              "players in the game when it was led.  Eating removes plays, so a trick can take a while.",
        record=_position("goat", ["4C TC 2S", "6C QC 3S", "8D 4S", "8C 5S"], "H"),
        human=3,
        steps=(
            Step(0, "play 4C", "Seat 0 leads: one play on the table."),
            Step(1, "play 6C", "Seat 1 beats: two plays."),
            Step(2, "pick", "Seat 2 has no club and no trump: it eats the lowest run, just the 4♣ (the 5♣ "
                            "is missing, so 4 and 6 do not touch).  One play is left."),
            Step(3, "play 8C", "You beat the 6♣: two plays."),
            Step(0, "play TC", "Three plays."),
            Step(1, "play QC", "Four plays with four players: the trick is killed."),
        ),
        outro="Seat 1 killed the trick, so seat 1 leads again: a killer plays twice in a row.",
    ),
    Lesson(
        title="Match if you can, wars and sluffing",
        source="Dave Howell's Swedish Goat Game page, The First Part (the 3-player example); the "
               "Swedish Goat Game / Flurst page, Tricks and Sloughing",
        intro="Phase one collects cards.  Everyone plays one card; the highest takes the trick.  If you "
              "hold the rank of the highest card played so far you must play it.  Any time, you may sluff "
              "a card of a rank already in the trick and draw a new one.",
        record=("skitgubbe-record = 1\nrules = goat\nplayers = 3\ndealer = 2\n"
                "deck = " + _deck(["8D 3D 5C", "3C 3S 2D", "KC KS 2H"], "7D QC JS 5H 9H 6S 4C 8C")
                + "\nmoves:\n"),
        human=1,
        steps=(
            Step(0, "play 3D", "Seat 0 leads the 3♦ and draws a card."),
            Step(1, "play 3S", "You hold two 3s: you must match the highest card, so play a 3."),
            Step(1, "sluff 3C", "The other 3 may be sluffed into the trick: throw it in and draw again."),
            Step(2, "play 2H", "Seat 2 does not want the trick and plays low.  Seat 0 and you tie on 3s: "
                               "a war, a mini-trick between you two."),
            Step(1, "sluff 2D", "A 2 is in the trick now, so your 2♦ may be sluffed too."),
            Step(0, "play 5C", "Seat 0 first played the matched rank, so it leads the war."),
            Step(1, "stock", "Rather than beat the 5♣ from your hand, turn up the top stock card and "
                             "play it: a gamble."),
            Step(2, "sluff 5H", "Seat 2 sluffs its 5 before the trick is gathered."),
        ),
        outro="Your turned-up 4♣ is lower than the 5♣: seat 0 wins the war and takes all eight cards.",
    ),
)


ReadLine = Callable[[str], str]


def _resolve(text: str, state: State, seat: int, expected: Action) -> tuple[Action | None, str]:
    text = text.strip()
    legal = state.legal_actions(seat)
    if not text:
        return expected, ""
    if text.isdigit():
        n = int(text)
        action = legal[n - 1] if 1 <= n <= len(legal) else None
        if action is None:
            return None, f"there is no move {n}: choose 1 to {len(legal)}, or press Enter"
    else:
        try:
            action = parse_action(text)
        except ActionParseError as e:
            return None, str(e)
    if action == expected:
        return action, ""
    if action in legal:
        return None, f"that is legal too, but this example plays '{expected.label()}': press Enter to play it"
    return None, state.explain(action, seat)


def _pass_until(state: State, step: Step, action: Action) -> list[int]:
    """Let seats pass sluff windows until the step's move is legal; return who passed."""
    passed = []
    while action not in state.legal_actions(step.seat):
        seat = state.to_act
        if seat < 0 or Action(Kind.PASS) not in state.legal_actions(seat):
            raise ValueError(f"lesson script: {step.move!r} by seat {step.seat} is not legal here")
        state.apply(Action(Kind.PASS), seat)
        passed.append(seat)
    return passed


def run_lesson(lesson: Lesson, *, console: Console, read_line: ReadLine) -> bool:
    """Play one lesson; True when it was finished, False if the learner quit (``q``)."""
    state = start_state(loads(lesson.record))
    names = seat_names(state.players, lesson.human)
    say = console.print
    say(Rule(lesson.title, style="cyan"))
    say(Text(lesson.intro))
    say(Text(f"From: {lesson.source}", style="dim"))
    for step in lesson.steps:
        action = parse_action(step.move)
        passed = _pass_until(state, step, action)
        if passed:
            say(Text(describe_pass(names, passed), style="dim"))
        say(Text(step.why, style="bold"))
        if step.seat == lesson.human:
            view = view_of(state, lesson.human)
            say(render_screen(view, names, names, state.hands))
            while True:
                text = read_line(f"Your move (Enter = {action.label()}; q quits): ")
                if text.strip().lower() in ("q", "quit"):
                    return False
                chosen, reason = _resolve(text, state, step.seat, action)
                if chosen is not None:
                    break
                say(Text(f"Not this one: {reason}", style="bold red"))
        for ev in events_for(state.apply(action, step.seat), lesson.human):
            line = describe_event(ev, names, state.rules)
            if line is not None:
                say(Text(line, style="dim" if ev.seat != lesson.human else ""))
    events: list[Event] = []
    while state.to_act >= 0 and not state.is_over and state.pending:
        events += state.apply(Action(Kind.PASS), state.to_act)  # close the last sluff window
    for ev in events_for(events, lesson.human):
        line = describe_event(ev, names, state.rules)
        if line is not None:
            say(Text(line, style="dim"))
    say(Text(lesson.outro, style="bold green"))
    return True


def run_lessons(
    *, console: Console, read_line: ReadLine, first: int | None = None, list_only: bool = False
) -> int:
    """Run the lessons from number ``first`` (1-based; default 1) to the end, or list them.
    Returns the exit status: 0, or 2 for a lesson number that does not exist."""
    if list_only:
        for i, lesson in enumerate(LESSONS, start=1):
            console.print(f"{i}. {lesson.title}  ({lesson.source})")
        return 0
    start = 1 if first is None else first
    if not 1 <= start <= len(LESSONS):
        console.print(f"there is no lesson {start}: lessons are 1 to {len(LESSONS)} (see --list)")
        return 2
    try:
        for i in range(start - 1, len(LESSONS)):
            if not run_lesson(LESSONS[i], console=console, read_line=read_line):
                console.print("Goodbye.")
                return 0
            if i + 1 < len(LESSONS) and read_line("Press Enter for the next lesson (q quits): ").strip() \
                    .lower() in ("q", "quit"):
                console.print("Goodbye.")
                return 0
    except (EOFError, KeyboardInterrupt):
        console.print("\nGoodbye.")
        return 0
    console.print(Text("That is the game: play one with 'skitgubbe play' (add --open to see every hand).",
                       style="bold"))
    return 0

