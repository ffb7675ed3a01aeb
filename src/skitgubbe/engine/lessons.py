"""The lessons of ``skitgubbe learn``, as data: worked examples from the rule texts, each a record (a
deal or a phase-two position, docs/record-format.md), the learner's seat and a script of moves, every
text a message id (English, translated when shown: :func:`~skitgubbe.engine.i18n.gettext_in`).

The terminal plays them (:mod:`skitgubbe.play.learn`) and so does the table in the browser (the
server's lesson replays); both make the moves of :func:`lesson_moves`, the script with the
sluff-window passes the example does not mention (:func:`pass_until`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action, Kind, parse_action
from .cards import RANK_CHARS, SUITS
from .i18n import N_
from .record import loads, start_state
from .state import State

__all__ = ["Step", "Lesson", "LESSONS", "lesson_start", "pass_until", "lesson_moves", "LessonMove"]


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
    """A phase-two position record of ``rules``: seat ``s`` holds ``hands[s]``, ``trump`` the trump suit
    (a suit letter), seat ``to_act`` to lead, every other card out of play."""
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


def lesson_start(lesson: Lesson) -> State:
    """The deal or position of ``lesson`` where its first step is played: its record's start,
    then, with :attr:`Lesson.skip_to_stock`, every seat to act turning up the top stock card until
    that many cards are left.  Raises ``ValueError`` if the record is not one (a lesson's bug)."""
    state = start_state(loads(lesson.record))
    while lesson.skip_to_stock and len(state.stock) > lesson.skip_to_stock:
        state.apply(Action(Kind.STOCK), state.to_act)
    return state


def pass_until(state: State, step: Step, action: Action) -> list[int]:
    """Let the seats to act pass sluff windows in ``state`` (which is played on) until ``action``, the
    move of ``step``, is legal for ``step.seat``; returns the seats that passed, in order.  Raises
    ``ValueError`` if a seat to act may not pass first (the lesson's script is wrong)."""
    passed = []
    while action not in state.legal_actions(step.seat):
        seat = state.to_act
        if seat < 0 or Action(Kind.PASS) not in state.legal_actions(seat):
            raise ValueError(f"lesson script: {step.move!r} by seat {step.seat} is not legal here")
        state.apply(Action(Kind.PASS), seat)
        passed.append(seat)
    return passed


@dataclass(frozen=True)
class LessonMove:
    """One move a lesson makes: ``seat`` plays ``action``; ``step`` is the script's step it is, or None
    for a pass made automatically (a sluff window the example does not mention, or the last one)."""

    seat: int
    action: Action
    step: Step | None


def lesson_moves(lesson: Lesson) -> tuple[State, list[LessonMove]]:
    """Every move ``lesson`` makes, as the terminal lesson plays them: before each step the passes of
    :func:`pass_until`, then the step's move, and after the last step the passes that close the last
    sluff window.  Returns a fresh :func:`lesson_start` state (not played on) and the moves.  Raises
    ``ValueError`` for a script that does not play (a lesson's bug)."""
    state = lesson_start(lesson)
    moves: list[LessonMove] = []
    for step in lesson.steps:
        action = parse_action(step.move)
        moves += [LessonMove(s, Action(Kind.PASS), None) for s in pass_until(state, step, action)]
        state.apply(action, step.seat)
        moves.append(LessonMove(step.seat, action, step))
    while state.to_act >= 0 and not state.is_over and state.pending:
        seat = state.to_act
        state.apply(Action(Kind.PASS), seat)
        moves.append(LessonMove(seat, Action(Kind.PASS), None))
    return lesson_start(lesson), moves
