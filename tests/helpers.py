"""Helpers shared by the test files: card sets, actions, stacked decks, draining the stock, random
play, checks that the engine's faces agree, and a deal told line by line (narration, legal actions)
for the golden records (tests/records/, tests/test_golden_records.py).

Import them by module name, ``from helpers import cs, play, stack_deck``: tests/ has no
``__init__.py``, so pytest's default import mode ("prepend") puts tests/ itself at the front of
``sys.path`` before it imports a test file there, just as it puts tests/server there for
``server_helpers``.

Shapes used throughout:

* a *card set* is an ``int`` bitmask, bit i = card i (:mod:`skitgubbe.engine.cards`: card i is rank
  ``i % 13 + 2`` of suit ``i // 13``, clubs, diamonds, hearts, spades; with two packs the second
  pack's copy of card c is bit ``c + 52``);
* *card text* is space-separated card notation, rank then suit: ``"7C 9D TH"``;
* a *deck order* is a list of the 52 card numbers, the first card dealt first (docs/record-format.md).

Seats are 0-based and clockwise: the seat to the left of seat s is s + 1.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence

import pytest

from skitgubbe.bots.base import Bot
from skitgubbe.engine import compiled
from skitgubbe.engine.actions import CHANCE, Action, Kind, parse_action
from skitgubbe.engine.base import Event, Phase
from skitgubbe.engine.cards import SUITS, mask_of, parse_card, parse_cards, rank_of
from skitgubbe.engine.narration import describe_event
from skitgubbe.engine.record import Record, start_state
from skitgubbe.engine.rules import Rules
from skitgubbe.engine.state import IllegalActionError, State
from skitgubbe.engine.view import View, view_of

__all__ = [
    "needs_native",
    "PASS",
    "PICK",
    "STOCK",
    "CheckingBot",
    "Filler",
    "all_event_cards",
    "cs",
    "drain",
    "events",
    "falling_filler",
    "leader_filler",
    "legal_lines",
    "moves",
    "narration_lines",
    "new_game",
    "pass_windows",
    "phase_two",
    "pick",
    "play",
    "plays_of",
    "random_playout",
    "refused",
    "sluff",
    "sluffs_of",
    "snapshot",
    "stack_deck",
    "state_fields",
    "unmatched_leader_filler",
]

needs_native = pytest.mark.skipif(
    not compiled.available() and not os.environ.get("SKITGUBBE_REQUIRE_NATIVE"),
    reason="the compiled engine is not installed (pip install ./native)")
"""Marks a test that needs the compiled engine (``pip install ./native``): skipped without it,
unless ``SKITGUBBE_REQUIRE_NATIVE`` is set (CI, .ci/run), where it then fails."""

STOCK = Action(Kind.STOCK)
"""Phase one: turn up the top stock card and play it."""
PASS = Action(Kind.PASS)
"""Close one's sluff window (done sluffing)."""
PICK = Action(Kind.PICK_UP)
"""Phase two: pick up what the rules say."""


# -- cards and actions ------------------------------------------------------------------------------


def cs(text: str) -> int:
    """The card set (int bitmask, bit i = card i) of card text, e.g. ``cs("7C 9D")``; with two packs
    these are the first pack's copies."""
    return mask_of(parse_cards(text))


def play(text: str) -> Action:
    """A PLAY action of the cards written, e.g. ``play("5D 6D 7D")`` (a phase-two run)."""
    return Action(Kind.PLAY, cs(text))


def sluff(text: str) -> Action:
    """A SLUFF action of the cards written, e.g. ``sluff("7C")``."""
    return Action(Kind.SLUFF, cs(text))


def events(state: State, kind: str) -> list[Event]:
    """The events of ``state`` of one kind (``"war"``, ``"win"``, ...), oldest first."""
    return [e for e in state.events if e.kind == kind]


def all_event_cards(state: State) -> int:
    """The card set of every card any event of ``state`` names."""
    m = 0
    for e in state.events:
        m |= e.cards
    return m


def plays_of(state: State, seat: int | None = None) -> set[int]:
    """The card sets of the PLAY actions open to ``seat`` (default: the seat to act)."""
    return {a.cards for a in state.legal_actions(seat) if a.kind is Kind.PLAY}


def sluffs_of(state: State, seat: int) -> int:
    """The card set ``seat`` may sluff now (the union of its SLUFF actions)."""
    m = 0
    for a in state.legal_actions(seat):
        if a.kind is Kind.SLUFF:
            m |= a.cards
    return m


# -- stacked decks ------------------------------------------------------------------------------------

Filler = Callable[[list[int], int, list[list[int]]], list[int]]
"""How :func:`stack_deck` orders the cards nobody named: ``filler(pool, chunk, hands)`` gets those
cards (card numbers in card order), the cards per trick and the hands dealt (card numbers per seat),
and returns the pool reordered in tricks of ``chunk`` cards."""


def falling_filler(pool: list[int], chunk: int, hands: list[list[int]]) -> list[int]:
    """``pool`` in tricks of ``chunk`` cards, each strictly falling in rank: sorted from high to low
    and dealt into the tricks in turn (at least four), so no trick gets two cards of one rank and the
    first card turned up outranks every other card of its trick.  ``hands`` is not used.  Asserts
    that the pool makes whole tricks, at least four of them."""
    assert len(pool) % chunk == 0, f"{len(pool)} filler cards do not make tricks of {chunk}"
    tricks = len(pool) // chunk
    assert tricks >= 4, "too few filler tricks to keep ranks apart"
    ordered = sorted(pool, key=rank_of, reverse=True)
    return [ordered[i + j * tricks] for i in range(tricks) for j in range(chunk)]


def _leader_tricks(pool: list[int], chunk: int, forbidden: set[int]) -> list[int]:
    assert len(pool) % chunk == 0, f"{len(pool)} filler cards do not make tricks of {chunk}"
    allowed = sorted((x for x in pool if rank_of(x) not in forbidden), key=rank_of, reverse=True)
    heads = allowed[: len(pool) // chunk]
    lows = sorted((x for x in pool if x not in heads), key=rank_of, reverse=True)
    out: list[int] = []
    for h in heads:
        take = [x for x in lows if rank_of(x) < rank_of(h)][: chunk - 1]
        assert len(take) == chunk - 1, "cannot build the filler"
        for x in take:
            lows.remove(x)
        out += [h, *take]
    return out


def leader_filler(pool: list[int], chunk: int, hands: list[list[int]]) -> list[int]:
    """``pool`` in tricks of ``chunk`` cards whose first card outranks the rest (the highest cards
    head the tricks, each followed by the highest cards below it), so that turning up the stock a
    trick at a time keeps the same leader winning (the pagat preset's two-card tricks).  Other cards
    of a trick may share a rank.  ``hands`` is not used.  Asserts the pool makes whole tricks."""
    return _leader_tricks(pool, chunk, set())


def unmatched_leader_filler(pool: list[int], chunk: int, hands: list[list[int]]) -> list[int]:
    """As :func:`leader_filler`, but no trick's first card has a rank that a seat other than seat 0
    holds in ``hands``: when seat 0 leads each filler trick by turning up the stock and the others turn
    up lower cards, seat 0 keeps winning and nobody is bound to match (the goat preset's must-match
    rule) or may sluff on the lead."""
    return _leader_tricks(pool, chunk, {rank_of(x) for h in hands[1:] for x in h})


def stack_deck(
    hands: Sequence[str],
    stock: str = "",
    *,
    dealer: int = 0,
    tail: str = "",
    bottom: str | None = None,
    drain: int = 0,
    filler: Filler = falling_filler,
) -> list[int]:
    """A 52-card deck order (first card dealt first) that deals ``hands`` (card text per seat, the
    same number of cards each, one card at a time clockwise from the dealer's left), then puts
    ``stock`` on top of the stock (top card first).

    The cards nobody named follow in card order; with ``drain`` (cards per trick) they are ordered
    by ``filler`` instead (:func:`falling_filler`, :func:`leader_filler` or
    :func:`unmatched_leader_filler`), so that turning up the stock ``drain`` cards a trick keeps the
    leader winning.  ``tail`` follows those cards and ``bottom`` is the last card of the deck (the
    bottom of the stock: the trump card in most presets).

    Asserts that every seat gets as many cards and that no card is named twice.
    """
    n = len(hands)
    per_seat = [parse_cards(h) for h in hands]
    size = len(per_seat[0])
    assert all(len(h) == size for h in per_seat), "every seat must be dealt as many cards"
    deal = [per_seat[(dealer + 1 + i) % n][i // n] for i in range(size * n)]
    top, end = parse_cards(stock), parse_cards(tail)
    last = [parse_card(bottom)] if bottom else []
    named = deal + top + end + last
    assert len(set(named)) == len(named), "a card is named twice"
    pool = [x for x in range(52) if x not in named]
    rest = filler(pool, drain, per_seat) if drain else pool
    return deal + top + rest + end + last


def new_game(rules: Rules, hands: Sequence[str], stock: str = "", *, dealer: int | None = None,
             leader: int | None = None, **deck: object) -> State:
    """A deal under ``rules`` of the deck :func:`stack_deck` stacks for ``hands`` and ``stock`` (its
    other keywords in ``deck``), one seat per hand.  The dealer is the last seat unless given, so
    seat 0 is on the dealer's left; ``leader`` None leads from the dealer's left."""
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    order = stack_deck(hands, stock, dealer=dealer, **deck)  # type: ignore[arg-type]
    return State.new(rules, n, dealer=dealer, deck=order, leader=leader)


def phase_two(rules: Rules, hands: Sequence[str], trump: str = "H", leader: int = 0,
              moves: Sequence[str] = (), *, open_hands: bool = False) -> State:
    """A phase-two position (:meth:`State.from_phase_two`): ``hands`` card text per seat (every other
    card out of play), ``trump`` a suit letter C/D/H/S, ``leader`` the seat to lead; then ``moves``
    (action notation, each by the seat to act) are applied.  ``open_hands``: every hand is known to
    every seat (as after pagat's phase one, where the piles were collected face up and the leftover
    cards and the trump card are shown)."""
    state = State.from_phase_two(rules, [cs(h) for h in hands], trump_suit=SUITS.index(trump), leader=leader)
    if open_hands:
        state.seats.known = list(state.hands)
    for m in moves:
        state.apply(parse_action(m))
    return state


# -- driving a deal -----------------------------------------------------------------------------------


def pass_windows(state: State) -> None:
    """Every seat asked to sluff says pass, until no sluff window is open (phase one only)."""
    while state.phase == Phase.ONE and state.pending:
        state.apply(PASS)


def drain(state: State, keep: int) -> None:
    """Turn up stock cards (passing every sluff window; under rules without sluffing none opens)
    until ``keep`` remain.  Asserts that the drain ends between two tricks (no card in the trick)."""
    while len(state.stock) > keep or state.pending:
        state.apply(PASS if state.pending else STOCK)
    assert view_of(state, 0).trick_cards() == 0, "the drain ended in the middle of a trick"


def moves(state: State, *steps: tuple[int, str]) -> None:
    """Play ``(seat, "play 7C" | "stock" | "pick" ...)`` in turn, passing sluff windows before, between
    and after them.  Asserts that each step's seat is the seat to act."""
    for seat, text in steps:
        pass_windows(state)
        assert state.to_act == seat, f"expected seat {seat} to act before {text!r}, not {state.to_act}"
        state.apply(parse_action(text))
    pass_windows(state)


def random_playout(state: State, seed: int | random.Random = 0, *, phase_one_only: bool = False) -> State:
    """Play ``state`` on with :meth:`State.random_action` for the seat to act (or chance), each action
    checked, until the deal is over (with ``phase_one_only``: until phase one is over).  ``seed``
    seeds a ``random.Random``, or is the ``random.Random`` to draw from (the caller may go on drawing
    from it).  Returns the same state."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    while not state.is_over and not (phase_one_only and state.phase != Phase.ONE):
        state.apply(state.random_action(rng), state.to_act)
    return state


def pick(state: State, rng: random.Random) -> tuple[int, Action]:
    """A uniformly random legal ``(seat, action)``: chance when a chance action is due, else the seat
    to act, or, under the live protocol (and otherwise now and then, one time in ten), any seat that
    may act now.  Asserts that the seat chosen has a legal action."""
    if state.to_act == CHANCE:
        return CHANCE, state.chance_action(rng)
    seat = state.to_act
    if state.live or rng.random() < 0.1:
        seat = rng.choice(state.acting_seats())
        if seat == CHANCE:  # pragma: no cover - only while the dreck waits, handled above
            return CHANCE, state.chance_action(rng)
    legal = state.legal_actions(seat)
    assert legal, f"seat {seat} is listed as acting but has no legal action"
    return seat, legal[rng.randrange(len(legal))]


# -- checks -------------------------------------------------------------------------------------------


def state_fields(state: State) -> dict[str, object]:
    """Every field of ``state``: the deal's own (by name) and each part's (``"seats.hands"``,
    ``"trick.rounds"``...; :meth:`State.parts`)."""
    out: dict[str, object] = {k: v for k, v in state.__dict__.items() if k not in state.parts()}
    for name, part in state.parts().items():
        for k, v in vars(part).items():
            out[f"{name}.{k}"] = v
    return out


def snapshot(state: State, *, full_history: bool = False) -> dict[str, object]:
    """Every field of ``state`` and of its parts (:func:`state_fields`) as immutable data (lists
    become tuples).  The history and events lists are append-only; by default only their length
    and last entry are kept."""
    out: dict[str, object] = {}
    for k, v in state_fields(state).items():
        if k in ("history", "events") and not full_history:
            out[k] = (len(v), v[-1] if v else None)
        elif k == "trick.rounds":
            out[k] = tuple(map(tuple, v))
        elif type(v) is list:
            out[k] = tuple(v)
        else:
            out[k] = v
    return out


def refused(state: State, action: Action, seat: int) -> str:
    """The reason ``seat`` may not take ``action``.  Asserts that can(), check() and apply() agree:
    can() says no, check() and apply() raise IllegalActionError with that seat, action and the same
    reason (``str(e)`` is ``"seat S cannot ACTION: REASON"``), and the refused apply() changes neither
    the history, the hands nor the seat to act.  (explain() is not compared: for a dreck action it
    words the refusal differently from check().)"""
    assert not state.can(action, seat)
    with pytest.raises(IllegalActionError) as info:
        state.check(action, seat)
    e = info.value
    assert (e.seat, e.action) == (seat, action)
    assert str(e) == f"seat {seat} cannot {action}: {e.reason}"
    history, hands, to_act = list(state.history), list(state.hands), state.to_act
    with pytest.raises(IllegalActionError) as again:
        state.apply(action, seat)
    assert again.value.reason == e.reason
    assert (state.history, state.hands, state.to_act) == (history, hands, to_act)
    return e.reason


class CheckingBot:
    """Wraps a bot and asserts that every choice is one of the legal actions; counts its decisions
    in ``decisions``."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.decisions = 0

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        action = self.bot.choose(view, legal)
        assert action in legal, f"{self.name} chose {action}, not in {[str(a) for a in legal]}"
        self.decisions += 1
        return action


# -- narration ----------------------------------------------------------------------------------------


def narration_lines(state: State) -> list[str]:
    """The deal told as the front ends tell it: for every event of ``state``, oldest first, the line
    :func:`skitgubbe.engine.narration.describe_event` gives with the seats named ``"Seat 0"`` ..
    ``"Seat N-1"`` and the dreck last collected (tracked as the terminal's Session does: a ``dreck``
    event sets it before it is told), or ``"[KIND: no narration]"`` for an event it cannot tell; then
    one line for the outcome, ``"Outcome: Seat 2 loses; out in order: Seat 0, Seat 1"`` (or
    ``"Outcome: abandoned at the action limit"``, or ``"Outcome: not over"``)."""
    names = [f"Seat {s}" for s in range(state.players)]
    lines: list[str] = []
    dreck = 0
    for ev in state.events:
        if ev.kind == "dreck":
            dreck = ev.cards
        line = describe_event(ev, names, state.rules, dreck=dreck)
        lines.append(f"[{ev.kind}: no narration]" if line is None else line)
    outcome = state.outcome
    if outcome is None:
        lines.append("Outcome: not over")
    elif outcome.loser is None:
        lines.append("Outcome: abandoned at the action limit")
    else:
        out = ", ".join(names[s] for s in outcome.out_order) or "nobody"
        lines.append(f"Outcome: {names[outcome.loser]} loses; out in order: {out}")
    return lines


def legal_lines(record: Record) -> list[str]:
    """What every seat could do before each move of ``record``, replayed from
    :func:`skitgubbe.engine.record.start_state`: one line a move, ``"N: S: a | b; T: c"``, the move's number
    (from 1), then each seat that may act at that point (:meth:`State.acting_seats`: the seat to act
    first, then any seat that may sluff; ``chance`` for a chance deal) with its legal actions in
    notation, sorted.  A rule that allows or forbids one more action anywhere in the deal changes a
    line, even where the moves played stay legal."""
    state = start_state(record)
    lines = []
    for no, (seat, action) in enumerate(record.moves, start=1):
        parts = []
        for s in state.acting_seats():
            legal = " | ".join(sorted(str(a) for a in state.legal_actions(s)))
            parts.append(f"{'chance' if s == CHANCE else s}: {legal}")
        lines.append(f"{no}: " + "; ".join(parts))
        state.apply(action, seat)
    return lines
