"""Types shared by the state machine's modules: phases, events, outcome, errors."""

from __future__ import annotations

from typing import NamedTuple

from .actions import Action, Kind
from .i18n import N_, Arg, Message, Rank, render
from .rules import short_repr

__all__ = ["Phase", "Event", "Outcome", "IllegalActionError", "GameOverError", "describe_action",
           "PUBLIC", "english", "verbatim", "suit_word", "rank_word"]


_KINDS = frozenset(Kind)


class Phase:
    """Phase constants (plain ints for speed)."""

    ONE = 1
    DRECK = 2  # waiting for the chance action that orders the dreck (or another chance deal)
    TWO = 3
    OVER = 4

    NAMES = {1: "phase one", 2: "dreck deal", 3: "phase two", 4: "game over"}


_SEAT_WORDS = tuple(f"seat {i}" for i in range(128))
"""How a reason names a seat in English: ``"seat 2"`` (it is said mid-sentence)."""


def english(message: Message) -> str:
    """A reason (:meth:`State.reason_message <skitgubbe.engine.state.State.reason_message>`) in
    English, its seats named ``"seat N"``: the text :meth:`State.reason` has always given."""
    return render(message, "en", _SEAT_WORDS)


def verbatim(text: str) -> Message:
    """``text`` (already written, in English) as a message that renders as it is in every
    language: for texts that are not the rules' words (a malformed action, a compiled engine's
    refusal)."""
    return Message("{text}", {"text": text})


_SUIT_WORDS = (N_("club"), N_("diamond"), N_("heart"), N_("spade"))


def suit_word(suit: int) -> Message:
    """One card's suit (0..3) as a message: ``"heart"`` in ``"a higher heart"``."""
    return Message(_SUIT_WORDS[suit])


def rank_word(rank: int) -> Arg:
    """Rank ``rank`` (2..14) as the reasons write it: ``"10"``, ``"J"``, ``"A"`` (a ten is
    ``"10"`` in every language, the others the language's card index)."""
    return "10" if rank == 10 else Rank(rank)


class IllegalActionError(ValueError):
    """Raised when an action is not legal now; ``reason`` says why in terms of the rules.

    Attributes: ``seat`` (int), ``action`` (:class:`Action`), ``reason`` (str, English) and
    ``message`` (the reason as a :class:`~skitgubbe.engine.i18n.Message`, to render in the
    reader's language with the seats' names; ``reason`` is :func:`english` of it).  ``reason``
    may be given as a message or as a ``str`` (then the message writes it as it is).
    """

    def __init__(self, seat: int, action: Action, reason: str | Message) -> None:
        message = reason if isinstance(reason, Message) else verbatim(reason)
        text = english(message)
        super().__init__(f"seat {short_repr(seat)} cannot {describe_action(action)}: {text}")
        self.seat = seat
        self.action = action
        self.reason = text
        self.message = message


def describe_action(action: object) -> str:
    """``str(action)`` (``"play 7H"``) for an :class:`Action` of cards 0..103; for anything else
    a short description that never fails, so that the error refusing a malformed action can be
    made (``Action(kind=2, cards=a whole number of 61 digits, order=())``)."""
    if not isinstance(action, Action):
        return short_repr(action)
    kind, cards, order = action
    if (isinstance(kind, int) and kind in _KINDS and isinstance(cards, int) and 0 <= cards < 1 << 104
            and all(isinstance(c, int) and 0 <= c < 104 for c in order)):
        return str(action)
    if isinstance(order, tuple):
        items = [short_repr(c) for c in order[:8]] + (["…"] if len(order) > 8 else [])
        shown = "(" + ", ".join(items) + ("," if len(order) == 1 else "") + ")"
    else:
        shown = short_repr(order)
    return f"Action(kind={short_repr(kind)}, cards={short_repr(cards)}, order={shown})"


class GameOverError(IllegalActionError):
    """Raised when any action is attempted after the game has ended."""


class Event(NamedTuple):
    """Something that happened: what :meth:`State.apply <skitgubbe.engine.state.State.apply>` returns and
    the narration tells (:mod:`skitgubbe.engine.narration`).

    ``to`` says who may see the event's ``cards``: :data:`PUBLIC` (-1, every seat and a
    spectator) or a bitmask of seats (bit s = seat s; under 3-player confusion a seat's partner
    hand is in its mask, as one person holds both).  Everything else of an event is public.
    :func:`skitgubbe.engine.view.event_for` gives the event as a seat or a spectator may see it (the
    cards zeroed where hidden); never hand a raw event with ``to`` other than PUBLIC to a seat
    outside its mask.

    ``kind`` is one of: ``deal`` (a seat's dealt hand, private), ``draw`` (a card drawn from the
    stock into a hand; private, public when drawn face up), ``play``, ``stock`` (a card turned up
    and played), ``sluff``, ``pass`` (a seat done sluffing: it leaves the sluff window),
    ``bounce`` (a tie in a two-card trick), ``war`` (a tie among
    several seats), ``win`` (a phase-one trick taken: ``cards``), ``end-one``
    (phase one over), ``take-back`` (cards of an incomplete trick returned),
    ``exposed`` (leftover hand shown), ``trump`` (the trump suit named: ``seats``
    holds the suit; ``cards`` the trump card, public when the rules show it, else the holder's
    only), ``trump-drawn`` (the last stock card shown as it is drawn: ``cards``, ``seats`` the suit),
    ``store``, ``exchange`` (Mas), ``tie-deal`` (``cards`` shared among the tied ``seats``; then
    per tied seat a ``take-back`` of its tied cards, with ``seats`` the tied seats, and a
    ``tie-share``: the ``cards`` dealt into its pile),
    ``split`` / ``trick-dealt`` (one per seat of ``seats``: the ``cards`` it got, into its pile
    or hand), ``reserve-draw`` (the card drawn from the avstickshög, private), ``dreck-aside``,
    ``dreck`` (the dreck collected: ``cards``), ``dreck-dealt`` (``seats`` lists
    who received it), ``dreck-share`` (one per needy seat when several share the dreck: the cards
    it got, private), ``lead``, ``beat``, ``pick-up`` (``cards`` eaten),
    ``kill`` (``cards`` set aside), ``three-cards``, ``one-card``, ``out``,
    ``loser``, ``abandoned``.
    """

    kind: str
    seat: int = -1
    cards: int = 0
    seats: tuple[int, ...] = ()
    to: int = -1


PUBLIC = -1
"""The ``to`` of an :class:`Event` every seat and a spectator may see."""


class Outcome(NamedTuple):
    """How a finished deal ended.

    ``loser``: the seat left holding cards (the skitgubbe / goat), or None if the
    deal was abandoned at the action limit.  ``out_order``: seats in the order
    they went out (seats with no cards at the start of phase two first).
    """

    loser: int | None
    out_order: tuple[int, ...]
    abandoned: bool = False
