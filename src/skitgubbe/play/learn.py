"""``skitgubbe learn``: a short tutorial built from the rule texts' worked examples.

Each :class:`Lesson` is a record (a deal or a phase-two position, see
docs/record-format.md) and a script of moves.  The learner plays one seat of the
example with every hand face up; before each move the rule at work is explained.
At the learner's turn, Enter (or the scripted move, by number or notation) plays
it.  Another legal move is played on a copy of the deal, to show where it leads (the
other seats answer as the heuristic bot would, until the trick is decided or the
learner is to act again), and then the example goes on where it was; an illegal
move is refused with the reason in the rules' words.  Sluff-window passes that the
example does not mention are made automatically.

The lessons speak the language given to :func:`run_lessons` (``skitgubbe learn --lang``): a
lesson's texts are message ids (English), translated when shown; the cited sources stay as
they are (the pages are in English).  Moves are typed in the notation in every language.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..bots import make_bot
from ..engine.actions import CHANCE, Action, ActionParseError, Kind, parse_action
from ..engine.base import Event
from ..engine.cards import RANK_CHARS, SUITS, CardParseError, parse_card
from ..engine.i18n import N_, gettext_in, render
from ..engine.narration import describe_event, describe_pass_message, seat_names
from ..engine.record import loads, start_state
from ..engine.state import State
from ..engine.view import View, events_for, view_of
from .terminal import action_label, ordered_moves, render_screen

__all__ = ["Step", "Lesson", "LESSONS", "lesson_start", "what_if", "run_lesson", "run_lessons"]


@dataclass(frozen=True)
class Step:
    """One move of a lesson: ``seat`` plays ``move`` (action notation); ``why`` explains the rule
    (a message id: English, translated when shown)."""

    seat: int
    move: str
    why: str


@dataclass(frozen=True)
class Lesson:
    """A worked example: ``record`` (without moves) sets the table, ``human`` is the learner's
    seat, ``steps`` the example's moves, ``intro``/``outro`` frame it, ``source`` cites the text.
    ``title``, ``intro`` and ``outro`` are message ids (English, translated when shown); ``source``
    is shown as it is.

    ``skip_to_stock`` (a number of cards) starts the example later in phase one: before the
    first step the deal is played on quickly, each seat to act turning up the top stock card,
    until that many cards are left in the stock (:func:`lesson_start`); 0 starts at the deal."""

    title: str
    source: str
    intro: str
    record: str
    human: int
    steps: tuple[Step, ...]
    outro: str
    skip_to_stock: int = 0


def _position(rules: str, hands: Sequence[str], trump: str, to_act: int = 0) -> str:
    lines = ["skitgubbe-record = 1", f"rules = {rules}", f"players = {len(hands)}", "start = phase-two"]
    lines += [f"hand {s} = {h}" for s, h in enumerate(hands)]
    lines += [f"trump = {trump}", f"to-act = {to_act}", "out-of-play = rest", "moves:"]
    return "\n".join(lines) + "\n"


def _deck(hands: Sequence[str], stock: str, *, last: str = "") -> str:
    """A deck dealing ``hands`` (three each, one at a time from seat 0) with ``stock`` on top.

    With ``last``, the stock ends with those cards (the very last one is the trump card), and the
    cards between are ordered so that turning them up two at a time never gives two of a rank
    (each low card is paired with a high one): a :attr:`Lesson.skip_to_stock` without bounces."""
    per_seat = [h.split() for h in hands]
    deal = [per_seat[i % len(hands)][i // len(hands)] for i in range(3 * len(hands))]
    named = deal + stock.split()
    rest = [r + s for s in SUITS for r in RANK_CHARS if r + s not in named + last.split()]
    if last:
        rest.sort(key=lambda card: RANK_CHARS.index(card[0]))
        half = len(rest) // 2
        rest = [c for pair in zip(rest[:half], rest[half:], strict=True) for c in pair] + rest[2 * half:]
    return " ".join(named + rest + last.split())


def _pagat_deal(hands: Sequence[str], stock: str = "", *, last: str = "") -> str:
    """A 3-player ``pagat`` deal record (dealer seat 2, so seat 0 leads) of :func:`_deck`."""
    return ("skitgubbe-record = 1\nrules = pagat\nplayers = 3\ndealer = 2\n"
            f"deck = {_deck(hands, stock, last=last)}\nmoves:\n")


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        title=N_("Beat it or pick it up"),
        source="pagat.com Skitgubbe, Play in the second phase (the 'Suppose there are 3 players' example)",
        intro=N_("Phase two: get rid of your cards.  Each play must beat the card in front of you: a higher "
              "card of its suit, or a trump.  If you cannot (or will not), you pick up that last card."),
        record=_position("pagat", ["5C 8C 2D", "9C JC 3D", "4D 6D"], "S"),
        human=0,
        steps=(
            Step(0, "play 5C", N_("You lead: any card may be led.")),
            Step(1, "play 9C", N_("Seat 1 beats your 5♣ with a higher club.")),
            Step(2, "pick", N_("Seat 2 has no higher club and no trump (spades): it must pick up the 9♣, "
                            "and only the 9♣.")),
            Step(0, "play 8C", N_("Your own 5♣ is showing again, so it is your turn to beat it: the 8♣ "
                                  "does.")),
            Step(1, "play JC", N_("Seat 1 beats the 8♣.  Three cards lie in the trick and three players "
                               "hold cards: the trick is complete (avstick) and is set aside.")),
        ),
        outro=N_("Seat 1 completed the trick, so seat 1 leads the next one."),
    ),
    Lesson(
        title=N_("Going out in the middle of a trick"),
        source="pagat.com Skitgubbe, Play in the second phase (the 'A leads his last card' example)",
        intro=N_("A trick needs as many cards as there were players holding cards when it began, even if "
              "someone goes out during it."),
        record=_position("pagat", ["7H", "9H JH 2C", "KH 3C 4C"], "S"),
        human=0,
        steps=(
            Step(0, "play 7H",
                 N_("You lead your last card: you are out, but this trick still needs three cards.")),
            Step(1, "play 9H", N_("Seat 1 beats the 7♥.")),
            Step(2, "pick", N_("Seat 2 could beat with the K♥ but picks up the 9♥ instead.")),
            Step(1, "play JH", N_("The 7♥ shows again; seat 1 beats it once more.")),
            Step(2, "play KH", N_("Seat 2 beats the J♥: the third card completes the trick.")),
        ),
        outro=N_("Seat 2 leads next, and with only two players left the next trick needs just two cards."),
    ),
    Lesson(
        title=N_("Two-card tricks, the stock and bounces"),
        source="pagat.com Skitgubbe, Play in the first phase (an example of ours: the text gives none)",
        intro=N_("Phase one, as 'skitgubbe play' deals it: you collect the cards you will hold in phase two. "
              "A trick is two cards, a leader's and the next player's; suits do not matter and the higher "
              "card wins.  Everyone holds three cards, drawing one from the stock right after each play."),
        record=_pagat_deal(["5C QC 6H", "4D JH 9S", "9D KC 3D"], "7S 2C 7D TH KD 5S 8H 2S"),
        human=1,
        steps=(
            Step(0, "play 5C", N_("Seat 0, on the dealer's left, leads the first trick.  Any card may be "
                               "led; seat 0 draws at once and holds three cards again.")),
            Step(1, "play 4D", N_("Only you, on the leader's left, answer: two cards make the trick.  "
                                  "You need "
                               "not beat it.  A low card was led, so play lower and let seat 0 take two "
                               "small cards: save your jack for a trick worth winning.")),
            Step(0, "play 6H", N_("The leader won, so it leads again, and again to you: the same two players "
                               "meet until the second one wins.")),
            Step(1, "stock", N_("Instead of a card from your hand you may turn up the top card of the stock, "
                             "which you must then play (you draw nothing: your hand stays as it is).  A "
                             "gamble: let us try it.")),
            Step(1, "play 9S", N_("You won, so you lead the next trick, to the player on your left, seat 2: "
                               "the tricks travel round the table as the winners change.")),
            Step(2, "play 9D", N_("Seat 2 plays a card of the same rank: a bounce (stunsa).  Nobody "
                                  "wins yet; "
                               "the cards stay on the table, both players have drawn as usual, and you "
                               "lead again to seat 2.")),
            Step(1, "play JH", N_("You lead again after the bounce: the winner of this round takes the "
                               "bounced cards too.")),
            Step(2, "play 3D", N_("Seat 2 plays low and gives the trick away.")),
        ),
        outro=N_("Your jack wins all four cards, the bounced nines included.  You lead again, to seat 2."),
    ),
    Lesson(
        title=N_("The last stock card names the trump"),
        source="pagat.com Skitgubbe, Play in the first phase, and Play in the second phase for its lead (an "
               "example of ours: the text gives none)",
        intro=N_("Later in the same kind of deal: only three cards are left in the stock.  The very last "
              "one decides which suit will be trumps in phase two, and whoever draws it must not look "
              "at it."),
        record=_pagat_deal(["5C QC 6H", "4D JH 9S", "8S KC 3D"], last="7H KH AS"),
        human=0,
        skip_to_stock=3,
        steps=(
            Step(2, "play 8S", N_("Seat 2 leads and draws: two cards are left in the stock.")),
            Step(0, "stock", N_("While the stock holds more than one card you may still turn up its top card "
                             "and play it.  You do.")),
            Step(0, "play QC", N_("You won, so you lead to seat 1.  One card is left and it may not be "
                                  "turned "
                               "up: lead from your hand.  You draw that last card, but it does not join "
                               "your hand: it stays face down in front of you, unseen, until phase one "
                               "ends.")),
            Step(1, "play 4D", N_("The stock is empty: from now on nobody draws.  Seat 1 plays low.")),
            Step(0, "play 6H", N_("You lead again to seat 1.")),
            Step(1, "play JH", N_("Seat 1 takes this one with the J♥, so it leads next, to seat 2.")),
            Step(1, "play 9S", N_("Seat 1 leads its last card.")),
            Step(2, "play 3D", N_("Seat 2 plays low: seat 1 wins, and has to lead, with no card left.")),
        ),
        outro=N_("Phase one ends when the seat due to play has no card.  Cards still in hand are shown to "
              "everybody and kept; the face-down card is turned up, so spades are trumps, and the A♠ "
              "joins your hand with your won tricks.  You drew the trump card: you lead phase two."),
    ),
    Lesson(
        title=N_("Eat the lowest run"),
        source="Dave Howell's Swedish Goat Game page, The Second Part (the 4-player example); the "
               "Swedish Goat Game / Flurst page, Following a trick",
        intro=N_("In the Goat Game you may play a run of touching cards (same suit, next ranks) as one play. "
              "If you do not beat, you eat the lowest run on the table: the lowest card and every card "
              "touching it, even across plays."),
        record=_position("goat", ["2C 3C 4H 5H", "7C 8C 9C 6H", "4S 5S 7H", "TC JC 8H 9S"], "D"),
        human=2,
        steps=(
            Step(0, "play 2C 3C", N_("Seat 0 leads the 2-3 of clubs as one play.")),
            Step(1, "play 7C 8C 9C", N_("Seat 1 beats with the run 7-8-9 of clubs.")),
            Step(2, "pick", N_("You hold no club above the 9 and no trump (diamonds): eat the lowest run, "
                            "the 2-3 of clubs.")),
            Step(3, "play TC JC", N_("Seat 3 beats with the 10-J of clubs.")),
            Step(0, "pick", N_("Seat 0 cannot beat the J♣.  The lowest run is now 7-8-9-10-J: they all "
                               "touch, "
                            "so seat 0 eats all five cards.")),
        ),
        outro=N_("The table is empty: the trick is over.  Seat 1 leads: the seat after the last eater."),
    ),
    Lesson(
        title=N_("Killing a trick"),
        source="the Swedish Goat Game / Flurst page, Ending a trick by killing",
        intro=N_("A trick is killed, its cards out of the game, when it holds as many plays as there were "
              "players in the game when it was led.  Eating removes plays, so a trick can take a while."),
        record=_position("goat", ["4C TC 2S", "6C QC 3S", "8D 4S", "8C 5S"], "H"),
        human=3,
        steps=(
            Step(0, "play 4C", N_("Seat 0 leads: one play on the table.")),
            Step(1, "play 6C", N_("Seat 1 beats: two plays.")),
            Step(2, "pick", N_("Seat 2 has no club and no trump: it eats the lowest run, just the 4♣ (the 5♣ "
                            "is missing, so 4 and 6 do not touch).  One play is left.")),
            Step(3, "play 8C", N_("You beat the 6♣: two plays.")),
            Step(0, "play TC", N_("Three plays.")),
            Step(1, "play QC", N_("Four plays with four players: the trick is killed.")),
        ),
        outro=N_("Seat 1 killed the trick, so seat 1 leads again: a killer plays twice in a row."),
    ),
    Lesson(
        title=N_("Match if you can, wars and sluffing"),
        source="Dave Howell's Swedish Goat Game page, The First Part (the 3-player example); the "
               "Swedish Goat Game / Flurst page, Tricks and Sloughing",
        intro=N_("Phase one collects cards.  Everyone plays one card; the highest takes the trick.  If you "
              "hold the rank of the highest card played so far you must play it.  Any time, you may sluff "
              "a card of a rank already in the trick and draw a new one."),
        record=("skitgubbe-record = 1\nrules = goat\nplayers = 3\ndealer = 2\n"
                "deck = " + _deck(["8D 3D 5C", "3C 3S 2D", "KC KS 2H"], "7D QC JS 5H 9H 6S 4C 8C")
                + "\nmoves:\n"),
        human=1,
        steps=(
            Step(0, "play 3D", N_("Seat 0 leads the 3♦ and draws a card.")),
            Step(1, "play 3S", N_("You hold two 3s: you must match the highest card, so play a 3.")),
            Step(1, "sluff 3C", N_("The other 3 may be sluffed into the trick: throw it in and draw again.")),
            Step(2, "play 2H", N_("Seat 2 does not want the trick and plays low.  Seat 0 and you tie on 3s: "
                               "a war, a mini-trick between you two.")),
            Step(1, "sluff 2D", N_("A 2 is in the trick now, so your 2♦ may be sluffed too.")),
            Step(0, "play 5C", N_("Seat 0 first played the matched rank, so it leads the war.")),
            Step(1, "stock", N_("Rather than beat the 5♣ from your hand, turn up the top stock card and "
                             "play it: a gamble.")),
            Step(2, "sluff 5H", N_("Seat 2 sluffs its 5 before the trick is gathered.")),
        ),
        outro=N_("Your turned-up 4♣ is lower than the 5♣: seat 0 wins the war and takes all eight cards."),
    ),
)


ReadLine = Callable[[str], str]


def _t(lang: str, text: str, /, **fields: object) -> str:
    """Message id ``text`` in language ``lang``, its ``{fields}`` filled in."""
    out = gettext_in(lang, text)
    return out.format(**fields) if fields else out


def _tell(event: Event, names: Sequence[str], state: State, lang: str, you: int) -> str | None:
    """The engine's narration line for ``event`` in ``lang``, seat ``you`` the learner's."""
    return describe_event(event, names, state.rules, lang=lang, you=frozenset({you}))


def lesson_start(lesson: Lesson) -> State:
    """The deal or position of ``lesson`` where its first step is played: its record's start,
    then, with :attr:`Lesson.skip_to_stock`, every seat to act turning up the top stock card until
    that many cards are left.  Raises ``ValueError`` if the record is not one (a lesson's bug)."""
    state = start_state(loads(lesson.record))
    while lesson.skip_to_stock and len(state.stock) > lesson.skip_to_stock:
        state.apply(Action(Kind.STOCK), state.to_act)
    return state


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
        passed = _pass_until(state, step, action)
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

